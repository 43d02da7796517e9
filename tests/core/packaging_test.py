"""The package list in pyproject.toml names every package folder, so a
non-editable install (a wheel) carries every game and every rules part."""
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_package_folder_is_listed_in_pyproject():
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(setup["packages"])
    expected = set()
    for name, folder in setup["package-dir"].items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder)
            expected.add(".".join((name, *rel.parts)))
    missing = sorted(expected - listed)
    assert not missing, f"package folders missing from pyproject.toml's packages: {missing}"
