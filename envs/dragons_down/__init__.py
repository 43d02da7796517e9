"""Dragons Down (in progress, not yet registered as a game): the realm's data
(``data.py``, ``data/``), the state record (``state.py``) and the first parts of
the compiled rules core (``rules/``: the realm's tables and geometry). The
game is registered with ``dragongym.make`` once it is playable end to end."""
