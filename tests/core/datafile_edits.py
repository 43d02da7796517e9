"""Editing a copy of a game's data file in a test, to check that the reader
refuses the broken file with a clear message (shared by the data tests)."""


def edit(path, old, new):
    """Replace the first ``old`` in the file at ``path`` by ``new`` (``old`` must be there)."""
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def line_of(path, needle):
    """The 1-based number of the first line of the file holding ``needle``."""
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


def sibling_imports(path):
    """The sibling modules the module at ``path`` imports (``from .x import ...``):
    what a rules package's layout test checks against its part order."""
    import ast
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            out.add(node.module.split(".")[0])
    return out
