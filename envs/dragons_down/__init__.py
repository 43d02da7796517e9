"""Dragons Down: heroes explore a tile-built realm, 1 to 6 seats; registered
as ``dragongym.make("dragons_down")`` and playable end to end (part 1 of the
rules: every sandbox, the whole game but magic, missions, titles, curses and
outlaws). ``game.py`` is its face to the adapters; the realm's data
(``data.py``, ``data/``), the state record (``state.py``), the observations
(``observe.py``) and the compiled rules core (``rules/``, ``kernel.py``) are
described in ``docs/dragons_down.md``."""
