"""Dragon Pass data, read from ``envs/dragon_pass/data/*.txt`` at import.

The rulebook (``shared/rules/dragon_pass.txt``; ``L123`` is its line 123) is
the condensed rules: it prints the tables and the Independents' factors but
neither the map nor the Lunar and Sartar counter mixes. Those are authored
for dragongym (``envs/dragon_pass/SUBSTITUTES.md``); the readers check every
fact the rulebook states about them and raise :class:`DataError`
(``file:line: problem``) on a bad file. Pure Python; nothing is compiled.

=========  ===========================================  ==================================
name       what                                         file, reader
=========  ===========================================  ==================================
``MAP``    1,530 hexes: terrain, structures, territories,  ``map.txt``, ``mapdata.py``
           rivers, ridges, roads, fortresses, symbols
``DATA``   formations, counters, scenarios 18.1-18.6,   ``units.txt``, ``tables.txt``,
           the printed tables; the Independents'        ``independents.txt``,
           counters                                     ``unitdata.py``
=========  ===========================================  ==================================

    from dragongym.envs.dragon_pass import data
    data.MAP.hex_index("3727")                 # Boldhome
    data.DATA.scenarios["18.1"].turns          # 5
"""
from .datafiles import DATA_DIR, DataError
from .mapdata import MAP, Map, load as load_map
from .unitdata import DATA, UnitData, load as load_units

__all__ = ["DATA", "DATA_DIR", "DataError", "MAP", "Map", "UnitData", "load_map", "load_units"]
