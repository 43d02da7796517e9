"""Dragon Pass: the Lunar Empire against Sartar on the 1,530-hex map;
registered as ``dragongym.make("dragon_pass")`` and playable, scenarios 18.1 to
18.3 (part 1 of the rules). ``game.py`` is its face to the adapters; the map and
counters (``data/``), the state record (``state.py``), the observations
(``observe.py``) and the compiled rules core (``rules/``, ``kernel.py``) are
described in ``docs/dragon_pass.md``."""
