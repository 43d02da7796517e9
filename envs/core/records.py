"""The reader of the games' data files: ``[kind id]`` records of ``key value`` lines.

The data readers (``envs/dragons_down/data.py``, ``envs/dragon_pass/mapdata.py``
and ``envs/dragon_pass/unitdata.py``) read one text format::

    # a comment runs to the end of the line
    [monster great_drake]          # a section: kind and (optional) id
    name    "Great Drake"          # a line: its key, then its tokens
    health  4*                     # a trailing mark: a value authored, not printed
    cite    L300,L1266-L1270       # rulebook lines

This module holds what they share:

* :class:`DataError` (a ``ValueError``): ``str(err)`` is ``"file:line: problem"``;
* :func:`read_sections`: a file as :class:`Section` objects holding their
  :class:`Line` objects (line number, key, tokens, rest of the line); a
  :class:`Syntax` says how a family of files writes its lines (a reader
  subclasses it where its files differ);
* :class:`Record`: one section's keys, each taken once (unknown, missing and
  repeated keys are errors); readers subclass it with their value helpers;
* :func:`authored`: a value without its trailing authored mark (``*`` or
  ``~``: the mark is an argument);
* :func:`check_cite` and :func:`cites`: rulebook citations ``L123`` /
  ``L123-L130``, checked against the rulebook's line count (an argument).

Pure Python, standard library only. It compiles nothing, yet it does not
carry :data:`dragongym.envs.core.jitcache.NOT_COMPILED_MARK`: the readers that
import it are part of their games' numba cache keys (the values they read are
frozen into compiled code), so an edit here must select fresh cache folders
too; ``tests/core/jitcache_test.py`` fails if such a module imports a marked one.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

HEADER = re.compile(r"^\[(\w+)(?:\s+(\w+))?\]$")
"""A section header: ``[kind]`` or ``[kind id]`` (groups: kind, id or None)."""
TOKEN = re.compile(r'"[^"]*"|\S+')
"""A token: a ``"quoted string"`` (quotes kept) or a run of non-blanks."""
CITE = re.compile(r"^L(\d+)(?:-L(\d+))?$")
"""A rulebook citation: ``L123`` or ``L123-L130`` (groups: first, last or None)."""


class DataError(ValueError):
    """A data file breaks its format or a rule of the rulebook.

    ``str(err)`` is ``"<file>:<line>: <problem>"``; ``file``, ``line`` and
    ``problem`` are also attributes (``line`` is 0 when the problem concerns
    the file as a whole).
    """

    def __init__(self, file, line, problem):
        self.file, self.line, self.problem = file, line, problem
        super().__init__(f"{file}:{line}: {problem}")


# ------------------------------------------------------------ sections ----

@dataclass
class Line:
    """One ``key value ...`` line: its number, key, tokens after the key, and
    the text after the key (stripped; quotes and marks kept)."""
    line: int
    key: str
    tokens: list
    rest: str


@dataclass
class Section:
    """A ``[kind id]`` header (``id`` None for ``[kind]``) and the lines under it."""
    file: str
    line: int
    kind: str
    id: str | None
    lines: list = field(default_factory=list)

    @property
    def label(self):
        """``"[kind id]"``, or ``"[kind]"`` when the header has no id."""
        return f"[{self.kind}]" if self.id is None else f"[{self.kind} {self.id}]"


class Syntax:
    """How a family of files writes its sections and lines; a reader whose
    files differ subclasses it (the attributes word the header errors)."""

    header = HEADER
    """The header pattern (groups: kind, id or None)."""
    want = "'[kind id]'"
    """The header forms a bad header's error asks for."""
    noun = "record"
    """What the errors call a section: ``bad record header``,
    ``data before the first [record] header``."""

    def strip_comment(self, raw):
        """``raw`` without its comment: ``#`` to the end of the line."""
        return raw.split("#", 1)[0]

    def split(self, text, file, line):
        """(key, tokens after it, rest) of a stripped, non-blank data line
        (``line`` of ``file``, for errors); tokens are :data:`TOKEN` matches."""
        tokens = TOKEN.findall(text)
        key = tokens[0]
        return key, tokens[1:], text[len(key):].strip()


SYNTAX = Syntax()
"""The plain syntax: ``#`` comments, :data:`HEADER`, :data:`TOKEN` tokens."""


def read_sections(path, syntax=SYNTAX):
    """The sections of the file at ``path`` (a ``Path``), in file order.

    Blank and comment-only lines are skipped; errors (a :class:`DataError`
    naming the file by ``path.name``): the file cannot be read, a ``[`` line
    that is not a header, a data line before the first header, and whatever
    ``syntax.split`` rejects.
    """
    name = path.name
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(name, 0, f"cannot read the file ({exc.strerror or exc})") from None
    sections, current = [], None
    for number, raw in enumerate(text.splitlines(), 1):
        stripped = syntax.strip_comment(raw).strip()
        if not stripped:
            continue
        if stripped.startswith("["):
            m = syntax.header.match(stripped)
            if not m:
                raise DataError(name, number, f"bad {syntax.noun} header {stripped!r} "
                                f"(want {syntax.want})")
            current = Section(name, number, m.group(1), m.group(2))
            sections.append(current)
            continue
        if current is None:
            raise DataError(name, number, f"data before the first [{syntax.noun}] header")
        current.lines.append(Line(number, *syntax.split(stripped, name, number)))
    return sections


# -------------------------------------------------------------- values ----

def authored(value, mark):
    """(``value`` without a trailing ``mark``, whether it had one).

    ``mark`` (one character, ``*`` or ``~``) marks a value authored for
    dragongym rather than printed in the rulebook.
    """
    return (value[:-len(mark)], True) if value.endswith(mark) else (value, False)


def check_cite(part, file, line, rulebook_lines):
    """``part`` if it is a citation (:data:`CITE`) of lines ``1..rulebook_lines``;
    else a :class:`DataError` at ``file``:``line``."""
    m = CITE.match(part)
    if not m:
        raise DataError(file, line, f"bad rulebook citation {part!r} (want L123 or L123-L130)")
    lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
    if not 1 <= lo <= hi <= rulebook_lines:
        raise DataError(file, line, f"citation {part} is outside the rulebook "
                        f"(1..{rulebook_lines})")
    return part


def cites(tokens, file, line, rulebook_lines):
    """The citations of ``tokens``, each a comma-separated list; ``-`` parts
    (``-`` alone: none) are skipped. Each is checked by :func:`check_cite`."""
    return tuple(check_cite(part, file, line, rulebook_lines)
                 for tok in tokens for part in tok.split(",") if part != "-")


# -------------------------------------------------------------- record ----

class Record:
    """Reading one section: keys are taken once each; leftovers are errors.

    ``allowed``: the keys the section may hold; ``repeatable``: those of them
    that may come more than once (:meth:`many`). Errors: an unknown key, a key
    given twice, a required key missing (:meth:`one`). A reader subclasses
    this with its value helpers, setting :attr:`mark` to its authored mark.

    Attributes: ``s`` (the section), ``file`` (its file's name), ``by_key``
    ({key: its lines}) and ``subst`` (the field names :meth:`star` found marked).
    """

    mark = "*"
    """The authored mark :meth:`star` strips."""
    sort_allowed = True
    """List ``allowed`` sorted in the unknown-key error (else in the given order)."""

    def __init__(self, section, allowed, repeatable=()):
        self.s, self.file, self.subst, self.by_key = section, section.file, set(), {}
        for ln in section.lines:
            if ln.key not in allowed:
                names = sorted(allowed) if self.sort_allowed else allowed
                self.err(ln.line, f"unknown key {ln.key!r} in {section.label}"
                         f" (allowed: {', '.join(names)})")
            if ln.key in self.by_key and ln.key not in repeatable:
                self.err(ln.line, f"key {ln.key!r} given twice in {section.label}")
            self.by_key.setdefault(ln.key, []).append(ln)

    def err(self, line, problem):
        """Raise a :class:`DataError` at ``line`` of this record's file."""
        raise DataError(self.file, line, problem)

    def one(self, key, required=True):
        """The line of ``key``; None if it is absent and not ``required``."""
        lines = self.by_key.get(key)
        if not lines:
            if required:
                self.err(self.s.line, f"{self.s.label} is missing {key!r}")
            return None
        return lines[0]

    def many(self, key):
        """Every line of ``key`` (a repeatable key), in file order."""
        return self.by_key.get(key, [])

    def single(self, key, required=True):
        """(line, its one token) of a ``key value`` line; (None, None) if absent
        and not ``required``."""
        ln = self.one(key, required)
        if ln is None:
            return None, None
        if len(ln.tokens) != 1:
            self.err(ln.line, f"{key!r} takes exactly one value, got {len(ln.tokens)}")
        return ln, ln.tokens[0]

    def star(self, token, fieldname):
        """``token`` without its authored :attr:`mark`; a marked token adds
        ``fieldname`` to :attr:`subst` (the record's authored fields)."""
        value, marked = authored(token, self.mark)
        if marked:
            self.subst.add(fieldname)
        return value
