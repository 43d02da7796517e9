"""What the README and the pages of ``docs/`` show a user: their Python
snippets, their commands and their tables, read from the Markdown with the
file and line each comes from (``tests/core/docs_test.py`` runs and checks
them).

* A fenced block tagged ``python`` is a snippet.
* A fenced block with no tag, or tagged ``sh``, holds commands: one a line
  (a line ending in ``\\`` continues on the next), ``#`` starting a comment,
  ``&&`` separating commands on one line.
* A fenced block tagged ``text`` is neither (a folder tree).
* Outside fences, an inline code span that starts with a program a user runs
  (``dragongym match ...``, ``python -m ...``, ``pip install ...``) is a
  command too.
"""
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SNIPPET_TAGS = ("python",)
COMMAND_TAGS = ("", "sh")
OTHER_TAGS = ("text",)

PROGRAMS = ("dragongym", ".venv/bin/dragongym", "python", "python3", ".venv/bin/python", "pip",
            ".venv/bin/pip", "ray", ".venv/bin/ray", "tensorboard", ".ci/run", "apt-get")
"""First words of a command (after any ``NAME=value`` settings)."""

_FENCE = re.compile(r"^\s*```(\S*)\s*$")
_ENV = re.compile(r"^[A-Z_][A-Z0-9_]*=")


def doc_files():
    """README.md and every page of docs/, README first."""
    return [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))


def rel(path):
    return str(Path(path).relative_to(ROOT))


@dataclass(frozen=True)
class Block:
    """A fenced block: its tag, its text and where its first line is."""

    file: str
    line: int          # 1-based line of the block's first content line
    tag: str
    text: str

    @property
    def where(self):
        return f"{self.file}:{self.line}"


@dataclass(frozen=True)
class Command:
    """One command as a user types it."""

    file: str
    line: int
    tokens: tuple
    block: str = ""    # the block it belongs to ("" for an inline command)

    @property
    def where(self):
        return f"{self.file}:{self.line}"

    @property
    def key(self):
        """The command's words joined by single spaces (comments dropped)."""
        return " ".join(self.tokens)

    @property
    def argv(self):
        """The words without leading ``NAME=value`` settings."""
        tokens = list(self.tokens)
        while tokens and _ENV.match(tokens[0]):
            tokens.pop(0)
        return tokens


def blocks(path):
    """The fenced blocks of one Markdown file."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    out = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        tag = m.group(1)
        start = i + 1
        j = start
        while j < len(lines) and not _FENCE.match(lines[j]):
            j += 1
        if j == len(lines):
            raise ValueError(f"{rel(path)}:{i + 1}: a fenced block that is never closed")
        out.append(Block(rel(path), start + 1, tag, "\n".join(lines[start:j]) + "\n"))
        i = j + 1
    return out


def prose(path):
    """The file's text with every fenced block blanked out (line numbers kept)."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    out = []
    inside = False
    for line in lines:
        if _FENCE.match(line):
            inside = not inside
            out.append("")
        else:
            out.append("" if inside else line)
    return "\n".join(out) + "\n"


def _split_commands(tokens):
    parts, part = [], []
    for token in tokens:
        if token == "&&":
            parts.append(part)
            part = []
        else:
            part.append(token)
    parts.append(part)
    return [p for p in parts if p]


def block_commands(block):
    """The commands of a command block."""
    out = []
    lines = block.text.splitlines()
    i = 0
    while i < len(lines):
        first = i
        text = lines[i]
        while text.rstrip().endswith("\\") and i + 1 < len(lines):
            i += 1
            text = text.rstrip()[:-1] + " " + lines[i]
        i += 1
        tokens = shlex.split(text, comments=True)
        for part in _split_commands(tokens):
            out.append(Command(block.file, block.line + first, tuple(part), block.where))
    return out


def is_command(tokens):
    """Whether words read as a command a user runs (``dragongym`` alone is the package's name)."""
    tokens = list(tokens)
    while tokens and _ENV.match(tokens[0]):
        tokens.pop(0)
    return len(tokens) >= 2 and tokens[0] in PROGRAMS


def inline_commands(path):
    """The commands written in inline code spans outside fenced blocks."""
    text = prose(path)
    out = []
    for m in re.finditer(r"(?<!`)`([^`]+)`(?!`)", text):
        span = " ".join(m.group(1).split())
        try:
            tokens = shlex.split(span, comments=True)
        except ValueError:
            continue
        if is_command(tokens):
            line = text.count("\n", 0, m.start()) + 1
            out.append(Command(rel(path), line, tuple(tokens)))
    return out


def snippets():
    """Every ``python`` block of the README and the docs."""
    return [b for path in doc_files() for b in blocks(path) if b.tag in SNIPPET_TAGS]


def commands():
    """Every command of the README and the docs: the command blocks' lines and
    the inline commands, in the order of the files."""
    out = []
    for path in doc_files():
        for b in blocks(path):
            if b.tag in COMMAND_TAGS:
                out.extend(block_commands(b))
        out.extend(inline_commands(path))
    return out


def unknown_tags():
    """Blocks whose tag says neither snippet, commands nor text: ``where, tag``."""
    known = SNIPPET_TAGS + COMMAND_TAGS + OTHER_TAGS
    return [(b.where, b.tag) for path in doc_files() for b in blocks(path) if b.tag not in known]


def tables(path, header):
    """The rows of every Markdown table of ``path`` whose header row's cells
    are ``header`` (a tuple of strings), as ``(line, cells)``."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    out = []
    for i, line in enumerate(lines):
        if _cells(line) == tuple(header):
            j = i + 2                                  # past the |---| row
            rows = []
            while j < len(lines) and lines[j].lstrip().startswith("|"):
                rows.append((j + 1, _cells(lines[j])))
                j += 1
            out.append(rows)
    return out


def _cells(line):
    line = line.strip()
    if not line.startswith("|"):
        return None
    return tuple(cell.strip() for cell in line.strip("|").split("|"))


def outputs_shown(block):
    """``(statement line, expected text)`` for each ``print(...)`` of a snippet
    followed by a comment, on its own line or the next: the comment is what
    the print shows (``print(spec.roles)  # ('player_0',)``)."""
    lines = block.text.splitlines()
    out = []
    for i, line in enumerate(lines):
        if not line.lstrip().startswith("print("):
            continue
        code, hashmark, comment = line.partition("  # ")
        if hashmark:
            out.append((block.line + i, comment.strip()))
        elif i + 1 < len(lines) and lines[i + 1].lstrip().startswith("# "):
            out.append((block.line + i, lines[i + 1].lstrip()[2:].strip()))
    return out
