"""The Dragon Pass map, read from ``envs/dragon_pass/data/map.txt``.

The rulebook (``shared/rules/dragon_pass.txt``; ``L123`` is its line 123)
names the places of the map, gives many of their hex numbers and corrects the
printed map in errata, but prints no map. ``map.txt`` is therefore a
substitute authored for dragongym (reasoning in
``envs/dragon_pass/SUBSTITUTES.md ("The map")``); this module parses it into frozen
dataclasses, checks every fact the rulebook states about the map, and raises
:class:`DataError` (a ``ValueError``) naming the file, the line and the
problem. Pure Python (numpy only for :meth:`Map.step_table`); nothing is
compiled.

    from dragongym.envs.dragon_pass import mapdata
    m = mapdata.MAP                                   # loaded at import
    i = m.hex_index("2423")                           # Delecti's Ruin
    m.terrain[i], m.structure[i], m.territory[i]      # 'marsh' 'marsh_ruin' 'neutral'
    m.adjacent("2511", "2610")                        # True (L158)
    m.ridge_high("3904", "3903") == m.hex_index("3904")   # Cliffhome is upslope

Geometry: 45 columns x 34 rows of flat-topped hexes numbered CCRR, even
columns half a hex lower ("even-q"); neighbour directions 1..6 = N NE SE S SW
NW as in :mod:`dragongym.envs.core.hexgrid`, whose odd-q column is CC - 1.

:class:`Map` fields (hexes are indices ``0..n-1``, in the order 0101, 0102,
.., 0134, 0201, ..; ``ids[i]`` is the hex number):

================  ==========================================================
ids               tuple of hex numbers ("0101" ...)
neighbours        per hex, the 6 neighbours in directions 1..6, -1 off the map
terrain           per hex: open hill hill_forest forest mountain marsh lake
territory         per hex: a key of :data:`TERRITORIES` (neutral included)
structure         per hex: a :data:`STRUCTURES` word or None
name              per hex: the place name or None
sites             hex -> :class:`Site` (every [sites] line and every city)
dragonewt_cities  city number 1..8 -> hex
capitals          nation -> hex
homes             minor independent -> its starting hexes
symbols           hex -> tuple of symbol kinds (dragonrests, dinosaur, giant)
dragonrests       colour -> hex
dinosaur_symbols  tuple of hexes;   giant_symbols  tuple of hexes
areas             area name -> frozenset of hexes (upland_marsh, stinking_forest)
rivers            tuple of :class:`River`; river_hexes / fords / headwaters: frozensets
ridges            (a, b) with a < b -> the high hex of that ridge hexside
roads             tuple of :class:`Road`
road_links        road kind -> frozenset of (a, b), a < b, hexsides a road follows
junctions         frozenset of dragonewt road junction hexes
fortresses        tuple of :class:`Fortress` (nation and owner at start)
================  ==========================================================
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from dragongym.envs.core.hexgrid import DIRECTIONS, hex_distance, offset_to_axial
from dragongym.envs.core.records import Record, Syntax, authored, check_cite, read_sections
from .datafiles import DATA_DIR, RULEBOOK_LINES, DataError  # noqa: F401 (DataError is part of this module's face)

MAP_FILE = DATA_DIR / "map.txt"

# ----------------------------------------------------- rulebook vocabulary ----

TERRAIN = {".": "open", "h": "hill", "H": "hill_forest", "f": "forest",
           "m": "mountain", "s": "marsh", "~": "lake"}
"""Terrain grid letters (L335-L341; lake L372; no sea on this map, L435)."""

TERRITORIES = {
    "T": "glowline_dark", "t": "glowline_light",
    "O": "old_sartar", "d": "duck_point", "a": "alda_chur", "l": "alone",
    "G": "grazelands", "W": "wintertop", "B": "black_horse_country",
    "C": "cragspider", "V": "beast_valley", "N": "dragonewt", ".": "neutral",
}
"""Territory grid letters (L142-L150)."""

SARTAR = frozenset({"old_sartar", "duck_point", "alda_chur", "alone"})
"""Sartar: Old Sartar plus the light orange areas (L142)."""
SARTAR_LIGHT = frozenset({"duck_point", "alda_chur", "alone"})
GLOWLINE = frozenset({"glowline_dark", "glowline_light"})
"""Tarsh, within the Glowline; its lighter part is still within it (L143)."""
INDEPENDENT = frozenset({"grazelands", "wintertop", "black_horse_country",
                         "cragspider", "beast_valley", "dragonewt"})
"""The Major Independents' territories (L144-L149)."""
GROUPS = {"sartar": SARTAR, "sartar_light": SARTAR_LIGHT, "glowline": GLOWLINE,
          "independent": INDEPENDENT}
"""Names :meth:`Map.hexes` accepts besides single territories."""

STRUCTURES = ("fortress", "stockade", "marsh_ruin", "hill_ruin", "ruin", "temple",
              "town", "altar", "dragonewt_city")
"""Structures (L350-L355)."""
FORTIFICATIONS = ("fortress", "stockade")
"""Fortifications (L351, L352, L514)."""
RUINS = ("ruin", "marsh_ruin", "hill_ruin")
SYMBOL_KINDS = ("dragonrest_green", "dragonrest_red", "dragonrest_brown",
                "dragonrest_black", "dinosaur", "giant")
"""Map symbols that mark no territory (L151, L344)."""
ROAD_KINDS = ("primary", "secondary", "dragonewt")
"""Road kinds (L363-L365)."""
SCENARIOS_WITH_START = ("18.1", "18.2", "18.3", "18.4", "18.5", "18.6", "18.7", "18.8", "18.9")
"""Scenarios whose fortress control at the start the map records (L217, L232).
18.3-18.6 say nothing: 18.3 and 18.4, whose Sartar player deploys within Old
Sartar only, are read like 18.1 and 18.2; in 18.5 the Sartar player deploys
within all of Sartar (L269) and holds its seven fortresses; in 18.6 no one
plays Sartar and no unit may enter it (L291): its fortresses are no one's,
the Lunar fortresses the Lunars' until the Independents deploy into Bagnot
and Dunstop (L284). In 18.7, as in 18.5, each side deploys within all of its
lands (L297) and holds its own fortresses; so do the Lunar and Sartar players
of 18.8 (L307) and 18.9's (L317)."""

SUN_DOME_TEMPLE = "2631"
"""L82 and L900 put the Sun Dome Temple at 2631, L155 at 2630; we read 2631."""
CLIFFHOME = "3904"
"""L158, L377 and L762 put Cliffhome at 3904, L156 at 1904; we read 3904."""

# Hexes the rulebook names: hex -> (name or None, structure, lines).
# structure: a STRUCTURES word, None (the hex has none: L156 says so for
# Apple Lane and Dwarf Mine), RUINS (any ruin) or ANY (not stated).
ANY = "any"
RULE_SITES = {
    "1108": ("Temple of the Reaching Moon", "temple", "L143 L155"),
    "1902": ("Travelling Stone", "temple", "L81 L155 L894"),
    "1918": ("Shaker's Temple", "temple", "L155 L482"),
    "1927": ("Wild Temple", "temple", "L155 L782"),
    "1934": ("Stone Cross", "temple", "L155 L297"),
    SUN_DOME_TEMPLE: ("Sun Dome Temple", "temple", "L82 L155 L900"),
    "2802": ("Ivory Plinth", "temple", "L83 L155 L906"),
    "3531": ("Wasp's Nest", "temple", "L155"),
    "3832": ("Old Wind Temple", "temple", "L155"),
    "0823": ("Queen's Post", "town", "L156"),
    "0918": ("North Post", "town", "L156"),
    "1229": ("Rich Post", "town", "L156 L792"),
    CLIFFHOME: ("Cliffhome", "town", "L156 L158 L762"),
    "2308": ("Too Far", "town", "L156 L886"),
    "3124": ("Apple Lane", None, "L156"),
    "2612": ("Dwarf Mine", None, "L76 L156 L1010"),
    "4520": ("Jaldon's Rest", "altar", "L157"),
    "4529": ("Pimper's Block", "altar", "L157"),
    "2423": ("Delecti's Ruin", RUINS, "L73 L817"),
    "3216": (None, RUINS, "L886"),
    "0314": ("Hydra Hill", ANY, "L79 L878"),
    "0325": ("Muse Roost", ANY, "L750"),
    "1921": ("Wintertop", ANY, "L145 L774"),
    "1325": ("Grazelands", ANY, "L886"),
    "2315": ("Bush Range", ANY, "L886"),
    "4505": ("Giants Walk", ANY, "L85 L916"),
}
OPEN_GROUND_HEXES = {"3124": "L156", "2612": "L156 L1010", "3202": "L886"}
"""Hexes the rulebook makes open ground (Apple Lane, Dwarf Mine, the clearing)."""

RULE_NAMES = {"Boldhome": "L232 L987", "Furthest": "L299 L987",
              "Bagnot": "L277 L293", "Dunstop": "L277 L293"}
"""Places the rulebook names without a hex number: each on exactly one hex."""

RULE_HEX_NUMBERS = {
    "0314": "L79", "0325": "L750", "0707": "L159", "0806": "L159", "0823": "L156",
    "0918": "L156", "1108": "L155", "1229": "L156", "1325": "L886", "1813": "L160",
    "1902": "L81", "1914": "L160", "1918": "L155", "1921": "L774", "1927": "L155",
    "1934": "L155", "2308": "L156", "2315": "L886", "2423": "L73", "2511": "L158",
    "2610": "L158", "2612": "L76", "2630": "L155", "2631": "L82", "2802": "L83",
    "3124": "L156", "3202": "L886", "3216": "L886", "3531": "L155", "3832": "L155",
    "3904": "L158", "4505": "L85", "4520": "L157", "4529": "L157",
}
"""Every hex number in the rulebook (1904, L156's misprint for 3904, aside); all must be on the map."""

# nation -> (capital's name, or None for Dragonewt city 1; its territories; lines)
CAPITALS = {
    "sartar": ("Boldhome", frozenset({"old_sartar"}), "L987"),
    "lunar": ("Furthest", GLOWLINE, "L987"),
    "dragonewts": (None, frozenset({"dragonewt"}), "L740"),
    "black_horse": ("Muse Roost", frozenset({"black_horse_country"}), "L750"),
    "cragspider": ("Cliffhome", frozenset({"cragspider"}), "L762"),
    "exiles": ("Wintertop", frozenset({"wintertop"}), "L774"),
    "half_beasts": ("Wild Temple", frozenset({"beast_valley"}), "L782"),
    "grazelanders": ("Rich Post", frozenset({"grazelands"}), "L792"),
}
"""The capitals (L740-L792, L987)."""

MINOR_HOMES = {
    "delecti": (("2423",), "L73 L817"),
    "dwarf": (("2612",), "L76 L853"),
    "hydra": (("0314",), "L79 L878"),
    "spirit_of_movement": (("1902",), "L81 L894"),
    "sun_dome_templars": ((SUN_DOME_TEMPLE,), "L82 L900"),
    "tusk_riders": (("2802",), "L83 L906"),
    "puppeteers": (("1325", "2315", "3216", "2308", "3202"), "L886"),
}
"""Minor independents' starting hexes (Hungry Jack has none, L868; dragons and
dinosaurs start on their symbols, L835, L841)."""

DINOSAUR_UNITS = 12
"""3 Brontosauri, 3 Pteradons, 3 Trachodons, 3 Triceratops (L837): one per symbol (our reading of L835)."""
CRAGSPIDER_HEXES = 13
"""12 grey mountain hexes plus the Black Dragon's dragonrest (L163)."""
SARTAR_FORTRESSES = (4, 3)
"""Sartar fortresses inside and outside Old Sartar (L217, L232)."""
DRAGONEWT_CITIES = 8
"""Dragonewt cities 1-8, city 1 the capital (L740)."""

_HEX = re.compile(r"^(\d{2})(\d{2})(\*?)$")
_RUN = re.compile(r"^(\d{2})(\d{2})-(\d{2})$")
_PAIR = re.compile(r"^(\d{4})>(\d{4})(\*?)$")
_ID = re.compile(r"^[a-z][a-z0-9_]*$")


# ------------------------------------------------------------ records ----

@dataclass(frozen=True)
class Site:
    """A [sites] or [dragonewt_cities] line.

    structure: a :data:`STRUCTURES` word or None; name: None when unnamed;
    substituted: the fields ('hex', 'structure', 'name') starred as authored.
    """
    hex: int
    structure: str | None
    name: str | None
    cite: tuple
    substituted: frozenset


@dataclass(frozen=True)
class River:
    """A river: its hexes from source to mouth, headwaters and fords (subsets)."""
    id: str
    name: str
    course: tuple
    headwaters: frozenset
    fords: frozenset
    cite: tuple


@dataclass(frozen=True)
class Road:
    """A road: kind (primary | secondary | dragonewt) and its hexes in order."""
    id: str
    kind: str
    path: tuple
    cite: tuple


@dataclass(frozen=True)
class Fortress:
    """A fortress; nation: 'sartar' (in Sartar), 'lunar' (within the Glowline) or None.

    start_owner: scenario ('18.1' .. '18.5') -> 'sartar' | 'lunar' | None,
    who controls it when play starts (L217, L232; see SCENARIOS_WITH_START).
    """
    hex: int
    name: str
    nation: str | None
    in_old_sartar: bool
    start_owner: dict


@dataclass(frozen=True, eq=False, repr=False)
class Map:
    """The Dragon Pass map (see the module docstring for the fields)."""
    file: str
    columns: int
    rows: int
    ids: tuple
    neighbours: tuple
    terrain: tuple
    territory: tuple
    structure: tuple
    name: tuple
    sites: dict
    dragonewt_cities: dict
    capitals: dict
    homes: dict
    symbols: dict
    dragonrests: dict
    dinosaur_symbols: tuple
    giant_symbols: tuple
    areas: dict
    rivers: tuple
    river_hexes: frozenset
    fords: frozenset
    headwaters: frozenset
    ridges: dict
    roads: tuple
    road_links: dict
    junctions: frozenset
    fortresses: tuple
    _index: dict = field(repr=False)

    def __repr__(self):
        return f"<Map {self.file}: {self.columns} x {self.rows} hexes>"

    @property
    def n(self):
        """Number of hexes."""
        return len(self.ids)

    def hex_index(self, hex_id):
        """Index of hex number ``"2423"`` (KeyError if it is not on the map)."""
        return self._index[hex_id]

    def hex_id(self, i):
        """Hex number of index ``i``."""
        return self.ids[i]

    def _i(self, h):
        return self._index[h] if isinstance(h, str) else int(h)

    def adjacent(self, a, b):
        """Do hexes a and b (numbers or indices) share a hexside."""
        return self._i(b) in self.neighbours[self._i(a)]

    def direction(self, a, b):
        """Direction 1..6 (N NE SE S SW NW) from a to its neighbour b, 0 if not adjacent."""
        row = self.neighbours[self._i(a)]
        b = self._i(b)
        return row.index(b) + 1 if b in row else 0

    def distance(self, a, b):
        """Hex steps between a and b."""
        return hex_distance(*_axial(self.ids[self._i(a)]), *_axial(self.ids[self._i(b)]))

    def is_edge(self, h):
        """Is the hex on the board edge (a neighbour off the map)."""
        return -1 in self.neighbours[self._i(h)]

    def ridge_high(self, a, b):
        """Index of the high hex if the hexside a-b is a ridge, else None."""
        a, b = self._i(a), self._i(b)
        return self.ridges.get((min(a, b), max(a, b)))

    def road_kinds(self, a, b):
        """The road kinds that follow the hexside a-b (a frozenset)."""
        a, b = self._i(a), self._i(b)
        key = (min(a, b), max(a, b))
        return frozenset(k for k, links in self.road_links.items() if key in links)

    def hexes(self, territory):
        """Indices of the hexes of a territory (a TERRITORIES value) or group (GROUPS key)."""
        names = GROUPS.get(territory, frozenset({territory}))
        return tuple(i for i, t in enumerate(self.territory) if t in names)

    def site_named(self, name):
        """Index of the one hex called ``name`` (KeyError if none)."""
        for i, n in enumerate(self.name):
            if n == name:
                return i
        raise KeyError(name)

    def step_table(self):
        """int16 array (n, 7): ``[i, d]`` = neighbour of i in direction d (1..6), -1 off the map.

        The layout of :func:`dragongym.envs.core.hexgrid.build_tables` (column 0 is -1).
        """
        out = np.full((self.n, 7), -1, dtype=np.int16)
        out[:, 1:] = np.array(self.neighbours, dtype=np.int16)
        return out

    def road_river_crossings(self, road):
        """Where ``road`` crosses a river: a list of (river id, hexes of the crossing).

        A road crosses a river when it comes off one bank, follows one or more
        hexes of that river and leaves by the other bank. The banks of a river
        hex are the hexsides left and right of its course; a road that ends on
        a river hex, or passes its source or mouth, crosses nothing there.
        """
        return _crossings(self, road.path)


def _axial(hex_id):
    return offset_to_axial(int(hex_id[:2]) - 1, int(hex_id[2:]))


# ------------------------------------------------------------ reading ----

class _Syntax(Syntax):
    """The map's syntax: ``[name]`` / ``[name id]`` sections; a line is its
    key, a space, and blank-separated tokens (quotes are plain characters)."""

    want = "'[name]' or '[name id]'"
    noun = "section"

    def split(self, text, file, line):
        key, _, rest = text.partition(" ")
        return key, rest.split(), rest.strip()


_SYNTAX = _Syntax()


class _Rec(Record):
    """A record whose unknown-key error lists the allowed keys in the order given."""

    sort_allowed = False


class _Reader:
    """Parse state: the file name, the grid once read, and error helpers."""

    def __init__(self, file):
        self.file = file
        self.columns = self.rows = 0
        self.index = {}

    def err(self, line, problem):
        raise DataError(self.file, line, problem)

    def hex(self, ln, token, what="hex"):
        """(index, starred) of a hex token."""
        m = _HEX.match(token)
        if not m:
            self.err(ln.line, f"{what}: {token!r} is not a hex number (want CCRR, e.g. 2423)")
        h = m.group(1) + m.group(2)
        if h not in self.index:
            self.err(ln.line, f"{what}: hex {h} is off the map (columns 01-{self.columns:02d}, "
                     f"rows 01-{self.rows:02d})")
        return self.index[h], bool(m.group(3))

    def hexes(self, ln, tokens, what="hex", runs=False):
        out = []
        for tok in tokens:
            m = _RUN.match(tok) if runs else None
            if m:
                c, r1, r2 = m.group(1), int(m.group(2)), int(m.group(3))
                if r2 < r1:
                    self.err(ln.line, f"{what}: bad run {tok!r} (rows must rise)")
                for r in range(r1, r2 + 1):
                    out.append(self.hex(ln, f"{c}{r:02d}", what)[0])
            else:
                out.append(self.hex(ln, tok, what)[0])
        return out

    def cites(self, ln, token):
        """The citations of one comma-separated token; ``-`` is none."""
        if token == "-":
            return ()
        return tuple(check_cite(part, self.file, ln.line, RULEBOOK_LINES)
                     for part in token.split(","))

    def need(self, ln, count, form):
        if len(ln.tokens) < count:
            self.err(ln.line, f"{ln.key!r} line is too short (want: {form})")


def _star(token):
    return authored(token, "*")


def load(path=None):
    """Read and check the map file (default ``data/map.txt``); returns a :class:`Map`."""
    path = Path(path) if path is not None else MAP_FILE
    if path.is_dir():
        path = path / "map.txt"
    rd = _Reader(path.name)
    sections = read_sections(path, _SYNTAX)
    singles, records = {}, {"river": [], "road": []}
    for s in sections:
        if s.kind in records:
            if s.id is None:
                rd.err(s.line, f"[{s.kind}] needs an id: [{s.kind} ID]")
            records[s.kind].append(s)
        elif s.kind in _SINGLE_SECTIONS:
            if s.id is not None:
                rd.err(s.line, f"[{s.kind}] takes no id")
            if s.kind in singles:
                rd.err(s.line, f"[{s.kind}] given twice (first at line {singles[s.kind].line})")
            singles[s.kind] = s
        else:
            rd.err(s.line, f"unknown section [{s.kind}] (known: "
                   f"{', '.join(_SINGLE_SECTIONS + ('river ID', 'road ID'))})")
    for kind in _SINGLE_SECTIONS:
        if kind not in singles:
            rd.err(0, f"missing section [{kind}]")
    b = _Builder(rd)
    b.grid(singles["grid"])
    b.terrain = b.cells(singles["terrain"], TERRAIN, "terrain")
    b.territory = b.cells(singles["territory"], TERRITORIES, "territory")
    b.read_sites(singles["sites"])
    b.read_cities(singles["dragonewt_cities"])
    b.read_capitals(singles["capitals"])
    b.read_homes(singles["homes"])
    b.read_symbols(singles["symbols"])
    b.read_areas(singles["areas"])
    b.read_ridges(singles["ridges"])
    b.read_junctions(singles["junctions"])
    for s in records["river"]:
        b.read_river(s)
    for s in records["road"]:
        b.read_road(s)
    m = b.build()
    _check_rules(m, b)
    return m


_SINGLE_SECTIONS = ("grid", "terrain", "territory", "sites", "dragonewt_cities", "capitals",
                    "homes", "symbols", "areas", "ridges", "junctions")


class _Builder:
    """Collects the sections into plain values, checking the format as it goes."""

    def __init__(self, rd):
        self.rd = rd
        self.sites, self.site_line = {}, {}
        self.cities, self.city_line = {}, {}
        self.capitals, self.capital_line = {}, {}
        self.homes, self.home_line = {}, {}
        self.symbols, self.symbol_line = {}, {}
        self.areas, self.area_line = {}, {}
        self.ridges, self.ridge_line = {}, {}
        self.junctions, self.junction_line = set(), 0
        self.rivers, self.river_line = [], {}
        self.roads, self.road_line = [], {}
        self.section_line = {}
        self.row_line = {}

    # ---- grid ----
    def grid(self, s):
        rd = self.rd
        self.section_line["grid"] = s.line
        rec = _Rec(s, ("columns", "rows", "layout", "cite"))
        seen = {key: rec.one(key) for key in ("columns", "rows", "layout")}
        for key in ("columns", "rows"):
            ln = seen[key]
            if len(ln.tokens) != 1 or not ln.tokens[0].isdigit() or not 1 <= int(ln.tokens[0]) <= 99:
                rd.err(ln.line, f"{key}: want a number 1..99")
        if seen["layout"].tokens != ["even_q"]:
            rd.err(seen["layout"].line, "layout: only 'even_q' is supported (even columns sit half a "
                   "hex lower, the layout the errata's neighbours imply)")
        cite = rec.one("cite", required=False)
        if cite is not None:
            rd.cites(cite, ",".join(cite.tokens))
        rd.columns, rd.rows = int(seen["columns"].tokens[0]), int(seen["rows"].tokens[0])
        self.ids = tuple(f"{c:02d}{r:02d}" for c in range(1, rd.columns + 1)
                         for r in range(1, rd.rows + 1))
        rd.index = {h: i for i, h in enumerate(self.ids)}
        for h, lines in RULE_HEX_NUMBERS.items():
            if h not in rd.index:
                rd.err(s.line, f"the rulebook names hex {h} ({lines}) but the grid is "
                       f"{rd.columns} columns x {rd.rows} rows")
        by_axial = {_axial(h): i for i, h in enumerate(self.ids)}
        self.neighbours = tuple(
            tuple(by_axial.get((q + dq, r + dr), -1) for dq, dr in DIRECTIONS[1:])
            for q, r in (_axial(h) for h in self.ids))

    def cells(self, s, legend, what):
        rd = self.rd
        self.section_line[what] = s.line
        rows = {}
        for ln in s.lines:
            if ln.key == "cite":
                rd.cites(ln, ",".join(ln.tokens))
                continue
            if ln.key != "row":
                rd.err(ln.line, f"unknown key {ln.key!r} in [{what}] (allowed: row, cite)")
            if len(ln.tokens) != 2 or not ln.tokens[0].isdigit():
                rd.err(ln.line, f"[{what}] row: want 'row RR CELLS' ({rd.columns} cells, no spaces)")
            r = int(ln.tokens[0])
            if not 1 <= r <= rd.rows:
                rd.err(ln.line, f"[{what}] row {r:02d} is off the map (rows 01-{rd.rows:02d})")
            if r in rows:
                rd.err(ln.line, f"[{what}] row {r:02d} given twice")
            cells = ln.tokens[1]
            if len(cells) != rd.columns:
                rd.err(ln.line, f"[{what}] row {r:02d} has {len(cells)} cells, want {rd.columns}")
            for c, ch in enumerate(cells, 1):
                if ch not in legend:
                    rd.err(ln.line, f"[{what}] row {r:02d} column {c:02d}: unknown letter {ch!r} "
                           f"(known: {' '.join(legend)})")
            rows[r] = (cells, ln.line)
        for r in range(1, rd.rows + 1):
            if r not in rows:
                rd.err(s.line, f"[{what}] is missing row {r:02d}")
        self.row_line[what] = {r: rows[r][1] for r in rows}
        return tuple(legend[rows[int(h[2:])][0][int(h[:2]) - 1]] for h in self.ids)

    # ---- tables ----
    def _table(self, s, key):
        for ln in s.lines:
            if ln.key != key:
                self.rd.err(ln.line, f"unknown key {ln.key!r} in [{s.kind}] (want {key!r} lines)")
        self.section_line[s.kind] = s.line
        return s.lines

    def read_sites(self, s):
        rd = self.rd
        for ln in self._table(s, "site"):
            rd.need(ln, 4, "site HHHH STRUCTURE CITES NAME")
            i, hs = rd.hex(ln, ln.tokens[0])
            structure, ss = _star(ln.tokens[1])
            if structure == "-":
                structure = None
            elif structure not in STRUCTURES or structure == "dragonewt_city":
                rd.err(ln.line, f"structure {structure!r} is not one of "
                       f"{', '.join(x for x in STRUCTURES if x != 'dragonewt_city')} or '-' "
                       "(dragonewt cities go in [dragonewt_cities])")
            cite = rd.cites(ln, ln.tokens[2])
            name, ns = _star(ln.rest.split(None, 3)[3])
            self._add_site(ln, i, Site(i, structure, None if name == "-" else name, cite,
                                       frozenset(f for f, st in (("hex", hs), ("structure", ss),
                                                                 ("name", ns)) if st)))

    def _add_site(self, ln, i, site):
        if i in self.sites:
            self.rd.err(ln.line, f"hex {self.ids[i]} is listed twice (first at line {self.site_line[i]})")
        self.sites[i], self.site_line[i] = site, ln.line

    def read_cities(self, s):
        rd = self.rd
        for ln in self._table(s, "city"):
            rd.need(ln, 4, "city NUMBER HHHH CITES NAME")
            number = ln.tokens[0]
            if not number.isdigit() or not 1 <= int(number) <= DRAGONEWT_CITIES:
                rd.err(ln.line, f"dragonewt city number {number!r}: want 1..{DRAGONEWT_CITIES} (L740)")
            number = int(number)
            if number in self.cities:
                rd.err(ln.line, f"dragonewt city {number} given twice (first at line "
                       f"{self.city_line[number]})")
            i, hs = rd.hex(ln, ln.tokens[1])
            cite = rd.cites(ln, ln.tokens[2])
            name, ns = _star(ln.rest.split(None, 3)[3])
            self.cities[number], self.city_line[number] = i, ln.line
            self._add_site(ln, i, Site(i, "dragonewt_city", None if name == "-" else name, cite,
                                       frozenset(f for f, st in (("hex", hs), ("name", ns)) if st)))

    def read_capitals(self, s):
        rd = self.rd
        for ln in self._table(s, "capital"):
            rd.need(ln, 3, "capital NATION HHHH CITES")
            nation = ln.tokens[0]
            if nation not in CAPITALS:
                rd.err(ln.line, f"capital: unknown nation {nation!r} (known: {', '.join(CAPITALS)})")
            if nation in self.capitals:
                rd.err(ln.line, f"capital of {nation} given twice")
            self.capitals[nation], self.capital_line[nation] = rd.hex(ln, ln.tokens[1])[0], ln.line
            rd.cites(ln, ln.tokens[2])

    def read_homes(self, s):
        rd = self.rd
        for ln in self._table(s, "home"):
            rd.need(ln, 3, "home INDEPENDENT CITES HHHH ...")
            who = ln.tokens[0]
            if who not in MINOR_HOMES:
                rd.err(ln.line, f"home: unknown minor independent {who!r} (known: {', '.join(MINOR_HOMES)})")
            if who in self.homes:
                rd.err(ln.line, f"home of {who} given twice")
            rd.cites(ln, ln.tokens[1])
            self.homes[who] = tuple(rd.hexes(ln, [_star(t)[0] for t in ln.tokens[2:]], f"home {who}"))
            self.home_line[who] = ln.line

    def read_symbols(self, s):
        rd = self.rd
        for ln in self._table(s, "symbol"):
            rd.need(ln, 3, "symbol KIND CITES HHHH ...")
            kind = ln.tokens[0]
            if kind not in SYMBOL_KINDS:
                rd.err(ln.line, f"symbol: unknown kind {kind!r} (known: {', '.join(SYMBOL_KINDS)})")
            if kind in self.symbols:
                rd.err(ln.line, f"symbol {kind} given twice (first at line {self.symbol_line[kind]})")
            rd.cites(ln, ln.tokens[1])
            hexes = rd.hexes(ln, [_star(t)[0] for t in ln.tokens[2:]], f"symbol {kind}")
            if len(set(hexes)) != len(hexes):
                rd.err(ln.line, f"symbol {kind}: a hex is listed twice")
            self.symbols[kind], self.symbol_line[kind] = tuple(hexes), ln.line

    def read_areas(self, s):
        rd = self.rd
        for ln in self._table(s, "area"):
            rd.need(ln, 3, "area NAME CITES HEXES")
            name = ln.tokens[0]
            if not _ID.match(name):
                rd.err(ln.line, f"area name {name!r}: want lower_case_words")
            if name in self.areas:
                rd.err(ln.line, f"area {name} given twice")
            rd.cites(ln, ln.tokens[1])
            hexes = rd.hexes(ln, ln.tokens[2:], f"area {name}", runs=True)
            if len(set(hexes)) != len(hexes):
                rd.err(ln.line, f"area {name}: a hex is listed twice")
            self.areas[name], self.area_line[name] = frozenset(hexes), ln.line

    def read_ridges(self, s):
        rd = self.rd
        for ln in self._table(s, "ridge"):
            rd.need(ln, 2, "ridge CITES HIGH>LOW ...")
            rd.cites(ln, ln.tokens[0])
            for tok in ln.tokens[1:]:
                m = _PAIR.match(tok)
                if not m:
                    rd.err(ln.line, f"ridge: {tok!r} is not HIGH>LOW (e.g. 3904>3903)")
                hi = rd.hex(ln, m.group(1), "ridge")[0]
                lo = rd.hex(ln, m.group(2), "ridge")[0]
                if lo not in self.neighbours[hi]:
                    rd.err(ln.line, f"ridge {m.group(1)}>{m.group(2)}: the hexes are not adjacent")
                key = (min(hi, lo), max(hi, lo))
                if key in self.ridges:
                    rd.err(ln.line, f"ridge {m.group(1)}>{m.group(2)}: that hexside is already a ridge "
                           f"(line {self.ridge_line[key]})")
                self.ridges[key], self.ridge_line[key] = hi, ln.line

    def read_junctions(self, s):
        rd = self.rd
        for ln in self._table(s, "junction"):
            rd.need(ln, 2, "junction CITES HHHH ...")
            rd.cites(ln, ln.tokens[0])
            self.junctions.update(rd.hexes(ln, ln.tokens[1:], "junction"))
            self.junction_line = ln.line

    # ---- records ----
    def _record(self, s, allowed, repeatable):
        """{key: lines} of a record holding every key of ``allowed``."""
        rec = _Rec(s, allowed, repeatable)
        for key in allowed:
            rec.one(key)
        return rec.by_key

    def _path(self, s, lines, what):
        rd = self.rd
        hexes = []
        for ln in lines:
            for tok in ln.tokens:
                i = rd.hex(ln, tok, what)[0]
                if hexes and i not in self.neighbours[hexes[-1]]:
                    rd.err(ln.line, f"[{s.kind} {s.id}] {what}: {self.ids[hexes[-1]]} and "
                           f"{self.ids[i]} are not adjacent")
                if i in hexes:
                    rd.err(ln.line, f"[{s.kind} {s.id}] {what}: hex {self.ids[i]} comes twice")
                hexes.append(i)
        if len(hexes) < 2:
            rd.err(lines[0].line, f"[{s.kind} {s.id}] {what}: want at least two hexes")
        return tuple(hexes)

    def read_river(self, s):
        rd = self.rd
        if any(r.id == s.id for r in self.rivers):
            rd.err(s.line, f"river {s.id!r} given twice")
        by = self._record(s, ("name", "course", "headwaters", "fords", "cite"), ("course",))
        course = self._path(s, by["course"], "course")
        subsets = {}
        for key in ("headwaters", "fords"):
            ln = by[key][0]
            toks = [] if ln.tokens == ["-"] else [_star(t)[0] for t in ln.tokens]
            hexes = rd.hexes(ln, toks, key)
            for i in hexes:
                if i not in course:
                    rd.err(ln.line, f"[river {s.id}] {key}: {self.ids[i]} is not on the river's course")
            subsets[key] = frozenset(hexes)
        if subsets["headwaters"] - {course[0]}:
            rd.err(by["headwaters"][0].line, f"[river {s.id}] headwaters: only the river's first hex "
                   f"({self.ids[course[0]]}) can be its headwaters")
        if subsets["headwaters"] & subsets["fords"]:
            rd.err(by["fords"][0].line, f"[river {s.id}] fords: a headwaters hex is not also a ford")
        cite = rd.cites(by["cite"][0], ",".join(by["cite"][0].tokens))
        name = _star(by["name"][0].rest)[0]
        self.rivers.append(River(s.id, name, course, subsets["headwaters"], subsets["fords"], cite))
        self.river_line[s.id] = (s.line, by)

    def read_road(self, s):
        rd = self.rd
        if any(r.id == s.id for r in self.roads):
            rd.err(s.line, f"road {s.id!r} given twice")
        by = self._record(s, ("kind", "path", "cite"), ("path",))
        ln = by["kind"][0]
        kind = _star(ln.rest)[0]
        if kind not in ROAD_KINDS:
            rd.err(ln.line, f"[road {s.id}] kind {kind!r} is not one of {', '.join(ROAD_KINDS)}")
        path = self._path(s, by["path"], "path")
        cite = rd.cites(by["cite"][0], ",".join(by["cite"][0].tokens))
        self.roads.append(Road(s.id, kind, path, cite))
        self.road_line[s.id] = (s.line, by)

    # ---- assembling ----
    def build(self):
        rd = self.rd
        n = len(self.ids)
        structure, name = [None] * n, [None] * n
        for i, site in self.sites.items():
            structure[i], name[i] = site.structure, site.name
        symbols = {}
        for kind, hexes in self.symbols.items():
            for i in hexes:
                symbols.setdefault(i, []).append(kind)
        river_hexes, seen = set(), {}
        for r in self.rivers:
            for i in r.course:
                if i in seen:
                    rd.err(self.river_line[r.id][0], f"[river {r.id}] shares hex {self.ids[i]} with "
                           f"river {seen[i]} (two rivers share no hex; a tributary ends beside "
                           "the river it joins)")
                seen[i] = r.id
            river_hexes.update(r.course)
        links = {k: set() for k in ROAD_KINDS}
        for road in self.roads:
            for a, b in zip(road.path, road.path[1:]):
                links[road.kind].add((min(a, b), max(a, b)))
        m = Map(
            file=rd.file, columns=rd.columns, rows=rd.rows, ids=self.ids,
            neighbours=self.neighbours, terrain=self.terrain, territory=self.territory,
            structure=tuple(structure), name=tuple(name), sites=dict(self.sites),
            dragonewt_cities=dict(sorted(self.cities.items())), capitals=dict(self.capitals),
            homes=dict(self.homes), symbols={i: tuple(v) for i, v in sorted(symbols.items())},
            dragonrests={k.split("_")[1]: v[0] for k, v in self.symbols.items()
                         if k.startswith("dragonrest_") and len(v) == 1},
            dinosaur_symbols=self.symbols.get("dinosaur", ()),
            giant_symbols=self.symbols.get("giant", ()),
            areas=dict(self.areas), rivers=tuple(self.rivers),
            river_hexes=frozenset(river_hexes),
            fords=frozenset().union(*(r.fords for r in self.rivers)),
            headwaters=frozenset().union(*(r.headwaters for r in self.rivers)),
            ridges=dict(self.ridges), roads=tuple(self.roads),
            road_links={k: frozenset(v) for k, v in links.items()},
            junctions=frozenset(self.junctions),
            fortresses=_fortresses(self.ids, self.sites, self.territory), _index=dict(rd.index))
        return m



def _fortresses(ids, sites, territory):
    out = []
    for i in sorted(sites, key=lambda i: ids[i]):
        site = sites[i]
        if site.structure != "fortress":
            continue
        t = territory[i]
        nation = "sartar" if t in SARTAR else "lunar" if t in GLOWLINE else None
        owner = {}
        for s in SCENARIOS_WITH_START:
            if nation == "sartar" and s == "18.6":
                owner[s] = None
            elif nation == "sartar":
                owner[s] = "sartar" if t == "old_sartar" or s in ("18.5", "18.7", "18.8", "18.9") else "lunar"
            else:
                owner[s] = nation
        out.append(Fortress(i, site.name or ids[i], nation, t == "old_sartar", owner))
    return tuple(out)


# ------------------------------------------------------- river crossings ----

def _sides(m, course, k):
    """For course hex k: (right, left) sets of directions 1..6, or None at a river's end."""
    if k == 0 or k == len(course) - 1:
        return None
    here = course[k]
    p, n = m.direction(here, course[k - 1]), m.direction(here, course[k + 1])
    right = {(n - 1 + j) % 6 + 1 for j in range(1, (p - n) % 6)}
    left = {(p - 1 + j) % 6 + 1 for j in range(1, (n - p) % 6)}
    return right, left


def _bank(m, course, k, d):
    sides = _sides(m, course, k)
    if sides is None:
        return None
    return "right" if d in sides[0] else "left" if d in sides[1] else None


def _crossings(m, path):
    out = []
    for r in m.rivers:
        pos = {h: k for k, h in enumerate(r.course)}
        i = 0
        while i < len(path):
            if path[i] not in pos:
                i += 1
                continue
            j = i
            while j + 1 < len(path) and path[j + 1] in pos:
                j += 1
            if i > 0 and j < len(path) - 1:
                enter = _bank(m, r.course, pos[path[i]], m.direction(path[i], path[i - 1]))
                leave = _bank(m, r.course, pos[path[j]], m.direction(path[j], path[j + 1]))
                if enter and leave and enter != leave:
                    out.append((r.id, tuple(path[i:j + 1])))
            i = j + 1
    return out


# ------------------------------------------------------------- the rules ----

def _check_rules(m, b):
    """Every fact the rulebook states about the map; DataError on the first broken one."""
    rd = b.rd
    ids, idx = m.ids, m._index
    sec = b.section_line

    # -- lakes hold nothing a unit could stop on (L372)
    for i, site in m.sites.items():
        if m.terrain[i] == "lake":
            rd.err(b.site_line[i], f"hex {ids[i]} is a lake and cannot hold a {site.structure or 'named place'} "
                   "(no unit can end a turn in a lake, L372)")
        if site.structure == "marsh_ruin" and m.terrain[i] != "marsh":
            rd.err(b.site_line[i], f"{ids[i]}: a marsh/ruin stands on marsh (L353), terrain is {m.terrain[i]}")
        if site.structure == "hill_ruin" and m.terrain[i] != "hill":
            rd.err(b.site_line[i], f"{ids[i]}: a hill/ruin stands on a hill (L354), terrain is {m.terrain[i]}")
    for kind, hexes in b.symbols.items():
        for i in hexes:
            if m.terrain[i] == "lake":
                rd.err(b.symbol_line[kind], f"symbol {kind} on lake hex {ids[i]} (L372)")
    for who, hexes in m.homes.items():
        for i in hexes:
            if m.terrain[i] == "lake":
                rd.err(b.home_line[who], f"{who} cannot start on lake hex {ids[i]} (L372)")
    for r in m.rivers:
        for i in r.course:
            if m.terrain[i] == "lake":
                rd.err(b.river_line[r.id][0], f"[river {r.id}] runs through lake hex {ids[i]}")
    for road in m.roads:
        for i in road.path:
            if m.terrain[i] == "lake":
                rd.err(b.road_line[road.id][0], f"[road {road.id}] runs through lake hex {ids[i]}")

    # -- rivers start and end somewhere
    marsh = m.areas.get("upland_marsh", frozenset())

    def near(i, hexes):
        return i in hexes or any(j in hexes for j in m.neighbours[i] if j >= 0)

    lakes = frozenset(i for i, t in enumerate(m.terrain) if t == "lake")
    for r in m.rivers:
        first, last = r.course[0], r.course[-1]
        if not (first in r.headwaters or m.is_edge(first) or near(first, lakes) or near(first, marsh)):
            rd.err(b.river_line[r.id][0], f"[river {r.id}] starts at {ids[first]}, which is no "
                   "headwaters hex and not on the map edge, by a lake or in the Upland Marsh")
        others = m.river_hexes - frozenset(r.course)
        if not (m.is_edge(last) or near(last, lakes) or near(last, marsh) or near(last, others)):
            rd.err(b.river_line[r.id][0], f"[river {r.id}] ends at {ids[last]}, which is not on the "
                   "map edge, by a lake, in the Upland Marsh or beside another river")

    # -- the hexes the rulebook names (L73-L83, L155-L157, L750-L792, L886)
    for h, (name, structure, lines) in RULE_SITES.items():
        i = idx[h]
        site = m.sites.get(i)
        where = sec["sites"]
        if site is None:
            rd.err(where, f"hex {h} must be listed in [sites] as {name or 'a ruin'} ({lines})")
        if name is not None and site.name != name:
            rd.err(b.site_line[i], f"hex {h} must be named {name!r} ({lines}), found {site.name!r}")
        if structure == ANY:
            continue
        ok = site.structure in structure if isinstance(structure, tuple) else site.structure == structure
        if not ok:
            want = "no structure" if structure is None else (
                " or ".join(structure) if isinstance(structure, tuple) else f"a {structure}")
            rd.err(b.site_line[i], f"{name or 'hex ' + h} ({h}) must have {want} ({lines}), "
                   f"found {site.structure or 'none'}")
    for h, lines in OPEN_GROUND_HEXES.items():
        i = idx[h]
        if m.terrain[i] != "open":
            rd.err(b.row_line["terrain"][int(h[2:])], f"hex {h} must be open ground ({lines}), "
                   f"found {m.terrain[i]}")
    for name, lines in RULE_NAMES.items():
        found = [i for i, n in enumerate(m.name) if n == name]
        if len(found) != 1:
            rd.err(sec["sites"], f"{name} ({lines}) must name exactly one hex, found {len(found)}")
    seen_names = {}
    for i, n in enumerate(m.name):
        if n is not None:
            if n in seen_names:
                rd.err(b.site_line.get(i, sec["sites"]), f"the name {n!r} is given to {ids[seen_names[n]]} "
                       f"and {ids[i]}")
            seen_names[n] = i

    # -- capitals (L740-L792, L987)
    for nation, (name, territories, lines) in CAPITALS.items():
        if nation not in m.capitals:
            rd.err(sec["capitals"], f"[capitals] is missing the capital of {nation} ({lines})")
        i = m.capitals[nation]
        line = b.capital_line[nation]
        if name is None:
            if m.dragonewt_cities.get(1) != i:
                rd.err(line, f"the dragonewts' capital is Dragonewt city 1 ({lines}), "
                       f"not {ids[i]}")
        elif m.name[i] != name:
            rd.err(line, f"the capital of {nation} is {name} ({lines}); {ids[i]} is "
                   f"{m.name[i] or 'unnamed'}")
        if m.territory[i] not in territories:
            rd.err(line, f"the capital of {nation} ({ids[i]}) must lie in {' or '.join(sorted(territories))}"
                   f", found {m.territory[i]}")

    # -- minor independents' starting hexes (L73-L83, L817-L906)
    for who, (hexes, lines) in MINOR_HOMES.items():
        if who not in m.homes:
            rd.err(sec["homes"], f"[homes] is missing {who} ({lines})")
        got = tuple(ids[i] for i in m.homes[who])
        if sorted(got) != sorted(hexes):
            rd.err(b.home_line[who], f"{who} starts at {' '.join(hexes)} ({lines}), found {' '.join(got)}")

    # -- territories (L142-L150, L163)
    tline = sec["territory"]
    for code, terr in TERRITORIES.items():
        if not m.hexes(terr):
            rd.err(tline, f"territory {terr} ({code!r}) has no hex")
    mid_c, mid_r = (m.columns + 1) / 2, (m.rows + 1) / 2

    def centroid(terr):
        hs = m.hexes(terr)
        return (sum(int(ids[i][:2]) for i in hs) / len(hs), sum(int(ids[i][2:]) for i in hs) / len(hs))

    corner_se, corner_nw = idx[f"{m.columns:02d}{m.rows:02d}"], idx["0101"]
    if m.territory[corner_se] != "old_sartar":
        rd.err(tline, "Old Sartar is in the southeast corner of the map (L142): "
               f"{ids[corner_se]} must be Old Sartar")
    if m.territory[corner_nw] not in GLOWLINE:
        rd.err(tline, "Tarsh, within the Glowline, is in the northwest corner (L143): "
               "0101 must be within the Glowline")
    for terr, lines in (("grazelands", "L144"), ("black_horse_country", "L146")):
        c, r = centroid(terr)
        if not (c < mid_c and r > mid_r):
            rd.err(tline, f"{terr} lies in the south-west of the map ({lines})")
    c, r = centroid("wintertop")
    if not (abs(c - mid_c) <= m.columns / 6 and abs(r - mid_r) <= m.rows / 6):
        rd.err(tline, "Wintertop lies near the centre of the map (L145)")
    c, r = centroid("beast_valley")
    sartar = frozenset(m.hexes("sartar"))
    if r <= mid_r or not any(near(i, sartar) for i in m.hexes("beast_valley")):
        rd.err(tline, "Beast Valley lies in the south of the map, bordering Sartar (L148)")
    crag = m.hexes("cragspider")
    if len(crag) != CRAGSPIDER_HEXES:
        rd.err(tline, f"Cragspider's territory is 13 hexes (L163), found {len(crag)}")
    if any(not (int(ids[i][:2]) > mid_c and int(ids[i][2:]) < mid_r) for i in crag):
        rd.err(tline, "Cragspider's territory lies in the north-east corner (L147)")
    black = m.dragonrests.get("black")
    if black not in crag:
        rd.err(b.symbol_line.get("dragonrest_black", tline), "the Black Dragon's dragonrest is part of "
               "Cragspider's territory (L147, L163)")
    not_mountain = [ids[i] for i in crag if i != black and m.terrain[i] != "mountain"]
    if not_mountain:
        rd.err(tline, f"Cragspider's territory is 12 mountain hexes plus the dragonrest (L163); "
               f"{' '.join(not_mountain)} are not mountain")
    cities = frozenset(m.dragonewt_cities.values())
    if len(m.dragonewt_cities) != DRAGONEWT_CITIES:
        rd.err(sec["dragonewt_cities"], f"there are 8 dragonewt cities (L740), found {len(m.dragonewt_cities)}")
    if frozenset(m.hexes("dragonewt")) != cities:
        odd = sorted(ids[i] for i in frozenset(m.hexes("dragonewt")) ^ cities)
        rd.err(tline, f"the dragonewts' territory is exactly the eight cities (L149); check {' '.join(odd)}")
    dark = m.hexes("glowline_dark")
    if not any(m.is_edge(i) for i in dark):
        rd.err(tline, "Lunar replacements enter on edge hexes of the darker Glowline (L981): "
               "it must reach the map edge")
    for name in ("Bagnot", "Dunstop"):
        i = m.site_named(name)
        if m.territory[i] == "glowline_dark" or m.territory[i] in SARTAR:
            rd.err(b.site_line[i], f"{name} is outside Sartar and the dark part of the Glowline: "
                   f"Independents deploy there in 18.6 (L277, L284)")
    if m.territory[m.site_named("Furthest")] not in GLOWLINE:
        rd.err(b.site_line[m.site_named("Furthest")], "Furthest, the Lunar capital, lies within the "
               "Glowline (L143, L987)")
    south = [i for i in range(m.n) if int(ids[i][2:]) == m.rows]
    if not any(m.territory[i] in SARTAR for i in south):
        rd.err(tline, "Sartar must reach the south edge (Androgeus appears there, L800)")
    stone = idx["1934"]
    if int(ids[stone][2:]) != m.rows:
        rd.err(sec["grid"], "Stone Cross 1934 is a south edge hex (L297, L972): the map has "
               f"{m.rows} rows")

    # -- areas
    if "upland_marsh" not in m.areas:
        rd.err(sec["areas"], "[areas] is missing upland_marsh (L468)")
    if "stinking_forest" not in m.areas:
        rd.err(sec["areas"], "[areas] is missing stinking_forest (L83, L886)")
    for i in marsh:
        if m.terrain[i] != "marsh":
            rd.err(b.area_line["upland_marsh"], f"the Upland Marsh hex {ids[i]} must be marsh, "
                   f"found {m.terrain[i]}")
    if not any(near(i, marsh) for i in m.river_hexes):
        rd.err(b.area_line["upland_marsh"], "a river must reach the Upland Marsh (L468)")
    forest = m.areas["stinking_forest"]
    for h, lines in (("2802", "L83"), ("3202", "L886")):
        if idx[h] not in forest:
            rd.err(b.area_line["stinking_forest"], f"{h} lies inside the Stinking Forest ({lines})")

    # -- symbols (L74, L75, L85, L151, L835-L843, L916)
    colours = {"green": ("SW", "L75"), "red": ("W-centre", "L75"), "brown": ("SE", "L75"),
               "black": ("NE", "L75")}
    for colour, (where, lines) in colours.items():
        kind = f"dragonrest_{colour}"
        if kind not in b.symbols or len(b.symbols[kind]) != 1:
            rd.err(b.symbol_line.get(kind, sec["symbols"]), f"there is one {colour} dragonrest ({lines})")
        i = m.dragonrests[colour]
        c, r = int(ids[i][:2]), int(ids[i][2:])
        ok = {"SW": c < mid_c and r > mid_r, "SE": c > mid_c and r > mid_r,
              "NE": c > mid_c and r < mid_r,
              "W-centre": c <= m.columns / 3 and abs(r - mid_r) <= m.rows / 6}[where]
        if not ok:
            rd.err(b.symbol_line[kind], f"the {colour} dragonrest lies {where} ({lines}), not at {ids[i]}")
    if m.distance(m.dragonrests["black"], idx[CLIFFHOME]) > 3:
        rd.err(b.symbol_line["dragonrest_black"], "the Black Dragon's dragonrest is near Cliffhome (L768)")
    if len(m.dinosaur_symbols) != DINOSAUR_UNITS:
        rd.err(b.symbol_line.get("dinosaur", sec["symbols"]), f"one dinosaur symbol per dinosaur unit: "
               f"{DINOSAUR_UNITS} (L835, L837), found {len(m.dinosaur_symbols)}")
    if [ids[i] for i in m.giant_symbols] != ["4505"]:
        rd.err(b.symbol_line.get("giant", sec["symbols"]), "the giant symbol is Giants Walk, 4505 "
               "(L85, L916, L963)")
    if not m.is_edge(idx["4505"]):
        rd.err(sec["grid"], "Giants Walk 4505 is on the NE edge of the map (L85)")

    # -- fortresses (L217, L232, L973)
    sartar_forts = [f for f in m.fortresses if f.nation == "sartar"]
    inside = [f for f in sartar_forts if f.in_old_sartar]
    want_in, want_out = SARTAR_FORTRESSES
    if len(inside) != want_in or len(sartar_forts) - len(inside) != want_out:
        rd.err(sec["sites"], f"Sartar has 7 fortresses, 4 inside Old Sartar and 3 outside it "
               f"(L217, L232); found {len(inside)} inside and {len(sartar_forts) - len(inside)} outside")
    bold = m.site_named("Boldhome")
    if m.structure[bold] != "fortress" or m.territory[bold] != "old_sartar":
        rd.err(b.site_line[bold], "Boldhome is a Sartar fortress in Old Sartar (L232, L987)")
    if not any(f.nation == "lunar" for f in m.fortresses):
        rd.err(sec["sites"], "the Lunars have fortresses within the Glowline (L301, L973)")

    # -- terrain clarifications and errata (L158-L160)
    cliff = idx[CLIFFHOME]
    for d, j in enumerate(m.neighbours[cliff], 1):
        if j < 0 or m.ridge_high(cliff, j) != cliff:
            rd.err(sec["ridges"], f"Cliffhome (3904) is completely surrounded by ridge hexsides with "
                   f"Cliffhome upslope (L158, L377): the hexside towards "
                   f"{ids[j] if j >= 0 else 'the map edge'} is not")
    if m.ridge_high("2511", "2610") is None:
        rd.err(sec["ridges"], "the hexside between 2511 and 2610 is a ridge (L158)")
    h0707 = idx["0707"]
    jaldon = [r for r in m.rivers if r.name == "Jaldon's Wrong River"]
    if len(jaldon) != 1:
        rd.err(0, f"there is one river named Jaldon's Wrong River (L159), found {len(jaldon)}")
    jaldon = jaldon[0]
    if idx["0806"] in jaldon.course:
        rd.err(b.river_line[jaldon.id][0], "Jaldon's Wrong River does not enter hex 0806 (L159)")
    on_0707 = [r for r in m.rivers if h0707 in r.course]
    if not on_0707:
        rd.err(0, "hex 0707 is a river hex (L159 says it is not a ford)")
    if h0707 in on_0707[0].fords or h0707 in on_0707[0].headwaters:
        rd.err(b.river_line[on_0707[0].id][0], f"[river {on_0707[0].id}]: hex 0707 is not a ford "
               "hex (L159)")
    for road in m.roads:
        for river_id, hexes in _crossings(m, road.path):
            if h0707 in hexes:
                rd.err(b.road_line[road.id][0], f"[road {road.id}] crosses the river at 0707; "
                       "the road does not cross the river there (L159)")
    h1813, h1914 = idx["1813"], idx["1914"]
    if not any(h1813 in r.path for r in m.roads if r.kind == "primary"):
        rd.err(0, "a primary road runs through 1813 (the secondary road merges with it there, L160)")
    merging = [r for r in m.roads if r.kind == "secondary" and h1813 in r.path]
    if not merging:
        rd.err(0, "a secondary road reaches 1813 and merges with the primary road there (L160)")
    for r in merging:
        if h1813 not in (r.path[0], r.path[-1]):
            rd.err(b.road_line[r.id][0], f"[road {r.id}] goes on through 1813; the secondary road "
                   "merges with the primary road in 1813 (L160)")
    for r in m.roads:
        if any({x, y} == {h1813, h1914} for x, y in zip(r.path, r.path[1:])):
            rd.err(b.road_line[r.id][0], f"[road {r.id}]: no road crosses from 1813 into hex 1914; "
                   "the secondary road in 1813 does not, and merges with the primary road there (L160)")
    mine = idx["2612"]
    if not any(mine in r.path for r in m.roads if r.kind == "secondary"):
        rd.err(0, "Dwarf Mine (2612) is open ground with a secondary road (L1010)")

    # -- dragonewt roads: city to city, Shaker's Temple included (L482, L744)
    shaker = idx["1918"]
    ends = cities | {shaker} | m.junctions
    dlinks = m.road_links["dragonewt"]
    for road in m.roads:
        if road.kind != "dragonewt":
            continue
        for end in (road.path[0], road.path[-1]):
            if end not in ends:
                rd.err(b.road_line[road.id][0], f"[road {road.id}] ends at {ids[end]}: a dragonewt road "
                       "runs from city to city (or Shaker's Temple) through junctions (L482, L744)")
    for j in m.junctions:
        degree = sum(1 for a, c in dlinks if j in (a, c))
        if degree < 3:
            rd.err(b.junction_line, f"junction {ids[j]} has {degree} dragonewt road branches, want 3 or more")
    graph = {}
    for a, c in dlinks:
        graph.setdefault(a, set()).add(c)
        graph.setdefault(c, set()).add(a)
    start = m.dragonewt_cities.get(1)
    reach, todo = {start}, [start]
    while todo:
        x = todo.pop()
        for y in graph.get(x, ()):
            if y not in reach:
                reach.add(y)
                todo.append(y)
    missing = sorted(ids[i] for i in (cities | {shaker}) - reach)
    if missing:
        rd.err(0, f"the dragonewt roads must join all eight cities and Shaker's Temple (L482, L744); "
               f"not reached: {' '.join(missing)}")


MAP = load()
"""The map in ``data/map.txt``, loaded and checked at import."""
