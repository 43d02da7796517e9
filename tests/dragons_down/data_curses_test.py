"""The Curse Table (envs/dragons_down/data/curses.txt): six curses on the d6,
Teleport and Summon instant as printed (L1103-L1105), four authored lasting
curses, and clear errors from a corrupt table.

Lines (L123) are lines of shared/rules/dragons_down.txt; what is substituted
and why is in envs/dragons_down/SUBSTITUTES.md ("Curses").
"""
import shutil

import pytest

from dragongym.envs.dragons_down import data as D
from tests.core.datafile_edits import edit, line_of

CURSES = D.REALM.curses
LASTING = ("sloth", "clumsiness", "weakness", "misfortune")


def test_the_table_has_six_curses_one_per_d6_face_in_roll_order():
    assert list(CURSES) == ["teleport", "summon", *LASTING]
    assert [c.roll for c in CURSES.values()] == [1, 2, 3, 4, 5, 6]
    assert sorted(c.roll for c in CURSES.values()) == sorted(D.REALM.dice["d6"].faces)
    assert all(isinstance(c, D.Curse) and c.id == cid for cid, c in CURSES.items())
    assert [c.name for c in CURSES.values()] == ["Teleport", "Summon", "Sloth", "Clumsiness",
                                                 "Weakness", "Misfortune"]


def test_rule_l1103_teleport_and_summon_are_the_two_instant_curses():
    assert [c.id for c in CURSES.values() if c.instant] == ["teleport", "summon"]
    assert CURSES["teleport"].kind == "instant" and CURSES["teleport"].cite == ("L1103",)
    assert CURSES["summon"].kind == "instant" and CURSES["summon"].cite == ("L1105",)
    for cid in ("teleport", "summon"):
        # printed kind and cite; only the roll order is authored
        assert CURSES[cid].substituted == {"roll"}


def test_the_other_four_are_lasting_and_authored():
    for cid in LASTING:
        c = CURSES[cid]
        assert c.kind == "lasting" and not c.instant
        assert c.substituted == {"roll", "kind", "name"}
        assert c.cite and all(x.startswith("L") for x in c.cite)


# ------------------------------------------------------ corrupt files ----

@pytest.fixture
def data_copy(tmp_path):
    target = tmp_path / "data"
    shutil.copytree(D.DATA_DIR, target)
    return target


ROW_SLOTH = "         sloth       3*    lasting*"


def test_error_duplicate_roll_names_file_and_line(data_copy):
    f = data_copy / "curses.txt"
    edit(f, ROW_SLOTH, "         sloth       2*    lasting*")
    with pytest.raises(D.DataError, match=r"curse sloth: d6 face 2 is already curse 'summon'") \
            as err:
        D.load(data_copy)
    assert err.value.file == "curses.txt"
    assert err.value.line == line_of(f, "         sloth ")
    assert str(err.value).startswith(f"curses.txt:{err.value.line}: ")


def test_error_unknown_kind_names_file_and_line(data_copy):
    f = data_copy / "curses.txt"
    edit(f, ROW_SLOTH, "         sloth       3*    forever*")
    with pytest.raises(D.DataError, match=r"kind: 'forever' is not one of instant, lasting") \
            as err:
        D.load(data_copy)
    assert err.value.file == "curses.txt" and err.value.line == line_of(f, "forever*")


def test_error_duplicate_id(data_copy):
    f = data_copy / "curses.txt"
    edit(f, "         weakness    5*", "         sloth       5*")
    with pytest.raises(D.DataError, match=r"curses\.txt:\d+: duplicate curse id 'sloth'") as err:
        D.load(data_copy)
    assert err.value.line == line_of(f, "         sloth       5*")


def test_error_roll_out_of_range(data_copy):
    edit(data_copy / "curses.txt", ROW_SLOTH, "         sloth       7*    lasting*")
    with pytest.raises(D.DataError, match=r"curses\.txt:\d+: roll: 7 is out of range \(1\.\.6\)"):
        D.load(data_copy)


def test_error_a_missing_face(data_copy):
    f = data_copy / "curses.txt"
    text = f.read_text(encoding="utf-8")
    f.write_text("".join(ln for ln in text.splitlines(keepends=True)
                         if not ln.startswith("         misfortune")), encoding="utf-8")
    with pytest.raises(D.DataError, match=r"curses\.txt:\d+: .*every d6 face 1\.\.6 once; "
                       r"missing 6"):
        D.load(data_copy)


def test_error_not_exactly_two_instant_curses(data_copy):
    edit(data_copy / "curses.txt", ROW_SLOTH, "         sloth       3*    instant* ")
    with pytest.raises(D.DataError, match=r"curses\.txt:\d+: two of the curses are instant "
                       r"effects \(L1103\), not 3"):
        D.load(data_copy)


def test_error_summon_must_be_instant(data_copy):
    f = data_copy / "curses.txt"
    edit(f, "         summon      2*    instant ", "         summon      2*    lasting*")
    edit(f, ROW_SLOTH, "         sloth       3*    instant* ")
    with pytest.raises(D.DataError, match=r"curses\.txt:\d+: curse summon is an instant effect "
                       r"\(L1105") as err:
        D.load(data_copy)
    assert err.value.line == line_of(f, "         summon ")
