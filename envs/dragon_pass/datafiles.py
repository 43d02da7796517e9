"""What both of Dragon Pass's data readers share: where the files are, how long
the rulebook is (citations are checked against it), and the error a bad file
raises (:class:`dragongym.envs.core.records.DataError`, the reader every game's
data shares)."""
from pathlib import Path

from dragongym.envs.core.records import DataError

__all__ = ["DATA_DIR", "RULEBOOK_LINES", "DataError"]

DATA_DIR = Path(__file__).with_name("data")
"""The folder of ``map.txt``, ``units.txt`` and ``tables.txt``."""
RULEBOOK_LINES = 1145
"""Lines of ``shared/rules/dragon_pass.txt``: a citation ``L123`` must name one."""
