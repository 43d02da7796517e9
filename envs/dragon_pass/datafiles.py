"""What both of Dragon Pass's data readers share: where the files are, how long
the rulebook is (citations are checked against it), and the error a bad file
raises."""
from pathlib import Path

DATA_DIR = Path(__file__).with_name("data")
"""The folder of ``map.txt``, ``units.txt`` and ``tables.txt``."""
RULEBOOK_LINES = 1145
"""Lines of ``shared/rules/dragon_pass.txt``: a citation ``L123`` must name one."""


class DataError(ValueError):
    """A data file breaks its format or a rule of the rulebook.

    ``str(err)`` is ``"<file>:<line>: <problem>"``; ``file``, ``line`` and
    ``problem`` are also attributes (``line`` is 0 when the problem concerns
    the file as a whole).
    """

    def __init__(self, file, line, problem):
        self.file, self.line, self.problem = file, line, problem
        super().__init__(f"{file}:{line}: {problem}")
