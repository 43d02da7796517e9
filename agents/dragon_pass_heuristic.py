"""A hand-written Dragon Pass bot (``"dragon_pass.heuristic"``, the game's
``heuristic_agent``).

It reads the record (``state[0]``) directly but, with the screening option
(L452), never the contents of enemy stacks outside the battle being fought:
of those it uses only where they are (the hexes holding enemy units), how
many there are, and what the enemy has on the map as a whole (which
counters are neither in the pool nor dead, and their printed front-side
factors), all of which the observation also shows. Its choices are
therefore the same in every position ``DragonPass.determinize`` may deal.

Strategy (every scenario is about places whose control passes to the last
force to enter them: the seven Sartar fortresses in 18.1-18.5; in 18.6 the
five hexes of the Lunar victory, Bagnot, Dunstop, Rich Post, Wintertop and
Wild Temple, the last three sites read from ``site_owner``). Who owns a unit
is the state's ``unit_force`` (18.6: the Independents' counters are seat 1's):

* **Deployment**: each counter gets a post: a garrison for a place its side
  holds in its deployment zone (the slow foot first, two or three a
  fortress; Argrath with the Boldhome garrison in 18.3), or a strike group
  for an enemy-held place (cavalry first, in groups of up to three major
  units), and is placed on the hex of its zone nearest that post by
  movement cost, in stacks of at most three major units.
* **18.6, Dousing the Flames**: the Lunars need all five places at the end,
  so attacking is everything: no place of theirs to garrison at the start,
  strike groups for all five, the fastest for the three far sites (weighted
  to be taken early), and two units kept in each place taken, four in the
  last two game-turns (the Independents move last); the Crimson Bat keeps
  to the nearest Lunar stack, so that it can feed (L698) rather than
  starve. Each side's superhero, Jar-eel and Androgeus, starts by Bagnot
  and Dunstop, takes only those two and does no garrison duty: with
  nothing to take it stands in the own place with the most enemy stacks
  near it (a garrison without a superhero loses its fortress's defence
  when the other superhero attacks, L648). The
  Independents need only one of five: they deploy garrisons of six in Bagnot
  and Dunstop (the fortresses beside the Lunars' zone, which the rules make
  them hold, L284) and four on each site, the rest as a reserve by the
  places the Lunars reach first, and counter-attack any place the Lunars
  take. Movement costs go round Sartar, shut to every unit (L291).
* **Movement**: each phase it re-plans: the units in a place it holds or
  occupies keep a garrison there (slow, strong units stay); the others are
  assigned greedily, by the turns they need to get there, to the places to
  take (the enemy's, Boldhome first for the Lunars in 18.2) and to the empty
  places of its own to re-garrison. A group (the units of a stack with one
  post) steps along the cheapest path (precomputed movement-cost fields to
  each place) and stops on its post; it does not step beside enemy stacks
  it could not beat (it would have to attack them, L507) unless that is its
  goal, or a place; where they bar the direct way it searches a way round
  them (and in the last game-turn pushes on to the place whatever the
  risk). Argrath stays at Boldhome
  (or the own fortress farthest from the enemy) in 18.3, Gunda follows
  Harrek; a disrupted unit that must flee (L590) runs to the first safe hex.
* **Combat**: every enemy stack that can be attacked is scored by an exact
  expectation over the dice of the Attack Table (the top three majors fight,
  leadership, river and ridge halving, the structure multiplier of the
  casualties, the doubled counter-attack), with a bonus for emptying a
  place; the best battle is fought when its score is positive or
  the battle is obligatory, and attacking stacks are added while they raise
  the score. Enemy casualties: the largest it may take (Argrath first);
  its own missile casualties: the weakest; 2DD as two disruptions while two
  fresh major units can take them. It retreats out of a hopeless defence
  outside a place, never out of a place; it advances into vacated places
  (not with a place's garrison) and stays there. A
  superhero whose best friend fell takes the weakest enemy unit of the
  battle as its scapegoat (L654).
* **The Independents' own decisions** (18.7, and the random events): a
  dragonfight strikes a stack's non-superhero units or its superhero,
  whichever is worth more (a superhero weighed 1.5 times his CF); a dragon
  does not end its move beside enemy stacks worth less than
  DRAGONFIGHT_WORTH (its dragonfight there is compulsory and costs it,
  L845), and a non-Lunar dragon negates the Glowline (L851). Hungry Jack
  summons the strongest enemy units, his magicians aiding while the enemy
  has more units to draw (L872). The Spirit of Movement is spent when
  SPEED_UNITS units (one in the last game-turn) reach their posts only with
  the doubling (L898); the Alchemical Transformer doubles the MgF of the
  strongest magician stacked with it (L857). The Puppeteer Troop switches
  out of a battle it is losing, to the Illusory Army farthest from the enemy
  (L890). The Hydra is fed the weakest units worth less than it (L880).
  Delecti keeps with his zombies; the chain marches toward the enemy, led by
  the end that keeps a zombie in Delecti's stack (L823, L825), and new
  zombies rise nearest the enemy (L821). The giants step toward the enemy's
  units and never beside the mover's own (L918). Random events: the weakest
  Lunar units go home (L970), the strongest lost Sartar units are replaced
  (L972). Reinforcements enter (force marching) by the edge hex nearest a
  place to take (L474); Argrath's Runners join the largest own stack (L684);
  the weakest magician makes the Tusk Riders' sacrifice (L906).
* Anything else (and any decision its rules do not cover): a uniformly
  random legal action.
"""
import heapq

import numpy as np

from dragongym.agents.base import Agent
from dragongym.envs.dragon_pass import rules as R
from dragongym.envs.dragon_pass.board import (
    HEX_FORD, HEX_RIVER, HEX_STEP, HEX_TERRAIN, NUM_HEXES, ROAD_PRIMARY, ROAD_SECONDARY,
    SIDE_RIDGE, SIDE_ROAD,
)
from dragongym.envs.dragon_pass.constants import (
    LUNAR, NUM_UNITS, RANK_NONE, RANK_SUPERHERO, SARTAR, SIDE_BACK, UF_ADVANCED, UF_FLEE, UF_GROUP, UF_MOVED, UF_USED,
    UNIT_IDS, UW_ENTERING, UW_MAP, UW_POOL,
)

# ------------------------------------------------------------------ static tables
NEIGH = tuple(tuple(int(g) for g in HEX_STEP[h, 1:] if g >= 0) for h in range(NUM_HEXES))
NEIGH_SET = tuple(frozenset(n) for n in NEIGH)
CF = R.U_CF.tolist()
MF = R.U_MF.tolist()
LF = R.U_LF.tolist()
MAJOR = R.U_MAJOR.tolist()
MISSILE = R.U_MISSILE.tolist()
SPIRIT = R.U_SPIRIT.tolist()
RANK = [int(x) for x in R.U_RANK]
CAVALRY = [int(x) for x in R.U_CAVALRY]
BEST_FRIEND = [int(x) for x in R.U_BEST_FRIEND]
IN2 = R.HEX_MELEE_IN2.tolist()
OUT2 = R.HEX_MELEE_OUT2.tolist()
MISSILE_MOD = R.HEX_MISSILE_MOD.tolist()
FORTIFIED = R.HEX_FORTIFICATION.tolist()
RIVER_HALVES = [bool(HEX_RIVER[h]) and not HEX_FORD[h] for h in range(NUM_HEXES)]
ATTACK = R.ATTACK.tolist()
ATTACK_MAX = int(R.ATTACK_MAX)
BEYOND = [(int(n), int(d)) for n, d in zip(R.ATTACK_BEYOND_NUM, R.ATTACK_BEYOND_DEN)]
HEX_Q = R.HEX_Q.tolist()
HEX_R = R.HEX_R.tolist()

ARGRATH = UNIT_IDS.index("argrath")
HARREK = UNIT_IDS.index("harrek")
GUNDA = UNIT_IDS.index("gunda")

FORT_HEX = [int(h) for h in R.FORTRESS_HEX]
SARTAR_FORTS = [k for k in range(len(FORT_HEX)) if R.FORTRESS_SARTAR[k]]
FORT_OF_HEX = {FORT_HEX[k]: k for k in range(len(FORT_HEX))}
SITE_HEX = [int(h) for h in R.SITE_HEX]
SITE_OF_HEX = {h: k for k, h in enumerate(SITE_HEX)}
BOLDHOME = int(R.BOLDHOME)
BOLDHOME_HEX = FORT_HEX[BOLDHOME]
SC_181, SC_182, SC_183 = 0, 1, 2
SC_184, SC_185, SC_186 = R.SCENARIOS.index("18.4"), R.SCENARIOS.index("18.5"), R.SCENARIOS.index("18.6")
SC_187 = R.SCENARIOS.index("18.7")
SC_188 = R.SCENARIOS.index("18.8")
SC_189 = R.SCENARIOS.index("18.9")

FAR = 10 ** 6


def _step_costs():
    """Half MPs of a step from h in direction d for a unit with no rune, no
    heroic MF, in fair weather, a secondary road's free third hex ignored
    (``rules.step_cost``); -1 where it cannot step."""
    cost = np.full((NUM_HEXES, 7), -1, np.int32)
    for h in range(NUM_HEXES):
        for d in range(1, 7):
            g = int(HEX_STEP[h, d])
            if g < 0 or HEX_TERRAIN[g] == R.TERRAIN_LAKE:
                continue
            road = SIDE_ROAD[h, d]
            c = 1 if road & ROAD_PRIMARY else 2 if road & ROAD_SECONDARY else int(R.HEX_ENTER2[g, 0])
            if HEX_RIVER[h] and not HEX_FORD[h] and not HEX_RIVER[g] and not R.HEX_UPLAND_MARSH[g]:
                c += 2
            if SIDE_RIDGE[h, d] == 1:
                c += 2
            cost[h, d] = c
    return cost


STEP_COST = _step_costs()


def _field(target, shut=None):
    """Cheapest half MPs from every hex to ``target`` (Dijkstra backwards),
    never through a hex of ``shut`` (closed to movement by the scenario)."""
    dist = [FAR] * NUM_HEXES
    dist[target] = 0
    queue = [(0, target)]
    while queue:
        dg, g = heapq.heappop(queue)
        if dg > dist[g]:
            continue
        for d in range(1, 7):
            h = int(HEX_STEP[g, d])
            if h < 0 or (shut is not None and shut[h]):
                continue
            back = 1 + (d + 2) % 6           # the direction from h to g
            c = int(STEP_COST[h, back])
            if c < 0:
                continue
            if dg + c < dist[h]:
                dist[h] = dg + c
                heapq.heappush(queue, (dg + c, h))
    return dist


def _check_back_direction():
    for h in range(NUM_HEXES):
        for d in range(1, 7):
            g = int(HEX_STEP[h, d])
            if g >= 0:
                assert int(HEX_STEP[g, 1 + (d + 2) % 6]) == h
                return


_check_back_direction()
# ------------------------------------------------------------------ the places each scenario is about
# A "place" is a hex whose control a scenario counts: a fortress, or one of
# the sites of SITE_HEX (state ``site_owner``); control passes to the last
# force to enter it (Interpretations).
PLACES = {sc: tuple(FORT_HEX[k] for k in SARTAR_FORTS) for sc in range(len(R.SCENARIOS))}
PLACES[SC_186] = tuple(int(h) for h in R.VICTORY_18_6)       # Bagnot, Dunstop and the three sites (L293)
PLACES[SC_187] = tuple(FORT_HEX)           # 18.7: the opponent's fortresses to take, one's own to keep (L301)
PLACES[SC_188] = tuple(int(h) for h in R.FORCE_CAPITAL)    # 18.8: one's own capital and another player's (L313)
PLACES[SC_189] = (FORT_HEX[R.FURTHEST], FORT_HEX[BOLDHOME])   # 18.9: both capitals win (L325)
"""PLACES[scenario]: the hexes its plan takes and holds: the seven Sartar
fortresses in 18.1-18.5, the five hexes of the Lunar victory in 18.6, every
fortress in 18.7, the three players' capitals in 18.8."""

SHUT_186 = R.SCENARIO_SHUT[SC_186]
"""No unit enters Sartar in 18.6 (L291): its ways round Sartar."""
FORT_FIELDS = {FORT_HEX[k]: _field(FORT_HEX[k]) for k in range(len(FORT_HEX))}
"""FORT_FIELDS[fortress hex][h]: half MPs from hex h to a fortress."""
FIELDS = {sc: {h: FORT_FIELDS[h] for h in PLACES[sc]} for sc in range(len(R.SCENARIOS)) if sc not in (SC_186, SC_188)}
FIELDS[SC_186] = {h: _field(h, SHUT_186) for h in PLACES[SC_186]}
FIELDS[SC_188] = {h: FORT_FIELDS.get(h) or _field(h) for h in PLACES[SC_188]}      # Wintertop is no fortress
"""FIELDS[scenario][place hex][h]: half MPs from hex h to a place of the
scenario (18.6: avoiding Sartar); posts elsewhere are measured in hexes."""


def hex_distance(a, b):
    dq = HEX_Q[a] - HEX_Q[b]
    dr = HEX_R[a] - HEX_R[b]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def attack_loss(total, die):
    """The Attack Table (``rules.attack_loss``)."""
    total = int(total)
    if total <= 0:
        return 0
    if total <= ATTACK_MAX:
        return ATTACK[total][die]
    n, d = BEYOND[die - 1]
    return total * n // d


# ------------------------------------------------------------------ scenario plans
# garrison sizes per place: {scenario: {seat: (default, {place hex: size})}}
BAGNOT_HEX, DUNSTOP_HEX, RICH_POST_HEX, WINTERTOP_HEX, WILD_TEMPLE_HEX = PLACES[SC_186]
INDEPENDENTS = 1
"""The seat of the Independent player in 18.6 (L284)."""
GARRISON = {
    SC_181: {LUNAR: (2, {}), SARTAR: (2, {})},
    SC_182: {LUNAR: (2, {}), SARTAR: (2, {BOLDHOME_HEX: 3})},
    SC_183: {LUNAR: (3, {}), SARTAR: (2, {BOLDHOME_HEX: 2})},
    SC_184: {LUNAR: (1, {}), SARTAR: (1, {BOLDHOME_HEX: 6})},     # 18.4 is Boldhome alone (L265)
    SC_185: {LUNAR: (2, {}), SARTAR: (2, {BOLDHOME_HEX: 2})},
    # 18.6: the Lunars must hold all five at the end, so each takes a small
    # garrison and the rest strike; the Independents need one of five: strong
    # garrisons, strongest in the two fortresses beside the Lunars' zone
    SC_186: {LUNAR: (2, {}), INDEPENDENTS: (4, {BAGNOT_HEX: 6, DUNSTOP_HEX: 6})},
    # 18.7: the opponent's fortresses count, each side's own capital worth the
    # most to it (its Diplomacy Points, L987)
    SC_187: {LUNAR: (2, {FORT_HEX[0]: 3}), SARTAR: (2, {BOLDHOME_HEX: 3})},
    # 18.8: one's own capital held strongly (no victory without it, L313), the
    # other two capitals taken by strike groups
    SC_188: {f: (2, {int(R.FORCE_CAPITAL[f]): 4}) for f in range(3)},
    # 18.9: both capitals win (L325): each side holds its own strongly (its
    # Diplomacy Points too, L987) and strikes at the other's
    SC_189: {LUNAR: (2, {FORT_HEX[R.FURTHEST]: 4}), SARTAR: (2, {BOLDHOME_HEX: 4})},
}
TAKE_PRIORITY = {(SC_182, LUNAR): {BOLDHOME_HEX: 2.0}, (SC_184, LUNAR): {BOLDHOME_HEX: 8.0},
                 (SC_186, LUNAR): {RICH_POST_HEX: 1.0, WINTERTOP_HEX: 1.0, WILD_TEMPLE_HEX: 1.0}}
"""Extra weight (in turns) of places to take (18.6: the three far sites
need their strike groups early)."""
LAST_STAND = 4
"""18.6: the garrison the Lunars want in each place they hold in the last two
game-turns -- the Independents move second and retake any place whose
garrison they wipe out and advance into (L293)."""
STRIKE_GROUP = 3
"""Major units per strike group (the top three majors of a stack fight, L571)."""
ATTACK_THRESHOLD = 0.25
"""Score (CF) an optional battle must beat."""


def garrison_size(sc, p, h):
    """The garrison seat p keeps in the place at hex h."""
    base, special = GARRISON[sc][p]
    return special.get(h, base)


def dist_to(sc, post, h):
    """Half-MP distance from h to a post (a place's field, else hexes)."""
    field = FIELDS[sc].get(post)
    if field is not None:
        return field[h]
    return 2 * hex_distance(h, post)


_DIST_FIELDS = {}


def _dist_field(sc, post):
    """:func:`dist_to` of every hex to ``post`` (``int64 [NUM_HEXES]``), made
    once per scenario and post."""
    field = _DIST_FIELDS.get((sc, post))
    if field is None:
        field = _DIST_FIELDS[(sc, post)] = np.array([dist_to(sc, post, h) for h in range(NUM_HEXES)],
                                                    dtype=np.int64)
    return field


_FILL_SIZES = {}


def _fill_sizes(sc, p):
    """Major units that fill each hex for seat p's deployment (``int64
    [NUM_HEXES]``): a place's garrison (:func:`garrison_size`), else a strike
    group (``STRIKE_GROUP``)."""
    sizes = _FILL_SIZES.get((sc, p))
    if sizes is None:
        places = frozenset(PLACES[sc])
        sizes = _FILL_SIZES[(sc, p)] = np.array(
            [garrison_size(sc, p, h) if h in places else STRIKE_GROUP for h in range(NUM_HEXES)], dtype=np.int64)
    return sizes


_NEIGH_PADDED = np.array([list(n) + [NUM_HEXES] * (6 - len(n)) for n in NEIGH], dtype=np.int64)
"""NEIGH as a ``[NUM_HEXES, 6]`` array, the missing neighbours as NUM_HEXES
(a hex that is never a foe's: :meth:`Position.beside_foe_hexes`)."""


# ------------------------------------------------------------------ the position, as this seat may know it
class Position:
    """What seat ``p`` knows of ``rec``: its stacks, the enemy's hexes, the
    enemy's stacks' contents where it may see them, and public totals."""

    def __init__(self, rec, p):
        self.rec = rec
        self.p = p
        self.enemy = 1 - p
        self.sc = int(rec["scenario"])
        self.screening = bool(rec["screening"])
        self.side = rec["unit_side"].tolist()
        self.flags = rec["unit_flags"].tolist()
        self.mp = rec["unit_mp"].tolist()
        where = rec["unit_where"].tolist()
        hexes = rec["unit_hex"].tolist()
        order = rec["unit_order"].tolist()
        self.where = where
        self.hex = hexes
        # who owns a unit is the state's (an Independent's counter plays for a seat, L284)
        force = rec["unit_force"].tolist()
        self.force = force
        own, foe = {}, {}
        foe_units = 0
        foe_cf = 0
        for u in np.flatnonzero(rec["unit_where"] == UW_MAP).tolist():   # ascending, as range(NUM_UNITS)
            if force[u] == p:
                own.setdefault(hexes[u], []).append(u)
            elif force[u] < 0 and R.SCENARIO_DIPLOMACY[self.sc]:
                continue            # a no one's piece (an Illusory Army before its alliance) is no foe
            else:
                foe.setdefault(hexes[u], []).append(u)
                foe_units += 1
                foe_cf += CF[u][0]          # printed front: public (the counter is known to be on the map)
        for units in own.values():
            units.sort(key=lambda u: -order[u])
        for units in foe.values():
            units.sort(key=lambda u: -order[u])
        self.own = own
        self._foe = foe
        self.foe_hexes = set(foe)
        battle = {int(h) for h in rec["bat_att"] if h >= 0} | {int(h) for h in rec["bat_def"] if h >= 0}
        self.battle = battle
        n_stacks = max(1, len(foe))
        per_stack = foe_units / n_stacks
        per_unit = foe_cf / foe_units if foe_units else 0.0
        k = max(1, int(round(per_stack)))
        self.guess = [(per_unit, 1, 0, RANK_NONE, -1)] * k
        self.places = PLACES[self.sc]
        self.place_set = frozenset(self.places)
        fort_owner = rec["fortress_owner"].tolist()
        site_owner = rec["site_owner"].tolist()
        self.holder = {h: (fort_owner[FORT_OF_HEX[h]] if h in FORT_OF_HEX else site_owner[SITE_OF_HEX[h]])
                       for h in self.places}
        """The force controlling each place (``rules.controller``)."""
        self.turn = int(rec["turn"])
        self.max_turns = int(rec["max_turns"])

    # --- enemy stacks
    def foe_visible(self, h):
        return not self.screening or h in self.battle

    def foe_stack(self, h):
        """Combat tuples of the enemy stack at h: its counters where it may be
        examined, else the average enemy stack."""
        if h not in self._foe:
            return []
        if self.foe_visible(h):
            return [self.unit_tuple(u) for u in self._foe[h]]
        return list(self.guess)

    def foe_units_visible(self, h):
        return self._foe[h] if self.foe_visible(h) else None

    def unit_tuple(self, u):
        sd = self.side[u]
        return (CF[u][sd], MAJOR[u][sd], LF[u][sd], RANK[u], u)

    def own_stack(self, h):
        return [self.unit_tuple(u) for u in self.own.get(h, [])]

    def beside_foe(self, h):
        return not self.foe_hexes.isdisjoint(NEIGH_SET[h])

    def beside_foe_hexes(self, hexes):
        """:meth:`beside_foe` of each of ``hexes`` (an array), as a bool array."""
        foe = np.zeros(NUM_HEXES + 1, dtype=bool)
        foe[list(self.foe_hexes)] = True
        return foe[_NEIGH_PADDED[hexes]].any(axis=1)

    def foes_beside(self, h):
        return [g for g in NEIGH[h] if g in self.foe_hexes]

    def movable(self, u):
        return self.where[u] == UW_MAP and not self.flags[u] & UF_MOVED and self.mp[u] > 0


# ------------------------------------------------------------------ battles
def _fighting(stack):
    """The tuples of a stack (top first) that fight: the top three majors and
    the minor units above the fourth (L571)."""
    majors = 0
    out = []
    for t in stack:
        if t[1]:
            majors += 1
        if majors <= 3:
            out.append(t)
    return out


def _strength2(stack, counter, halve):
    """Twice a stack's melee CF (``combat.side_strength``)."""
    fight = _fighting(stack)
    lf = 0
    for t in fight:
        if t[2] > lf:
            lf = t[2]
        if t[3] == RANK_SUPERHERO and t[4] >= 0 and BEST_FRIEND[t[4]] >= 0:
            for o in fight:
                if o[4] == BEST_FRIEND[t[4]] and t[2] + o[2] > lf:
                    lf = t[2] + o[2]
    total = 0.0
    for t in fight:
        cf2 = 2 * t[0]
        if counter:
            cf2 *= 2
        if halve and t[3] == RANK_NONE:
            cf2 /= 2
        if lf > 0 and t[2] == 0 and t[0] > 0:
            cf2 += 2 * lf
        total += cf2
    return total


def _halves(h, foes):
    if RIVER_HALVES[h]:
        return True
    for d in range(1, 7):
        if int(HEX_STEP[h, d]) in foes and SIDE_RIDGE[h, d] == 1:
            return True
    return False


def _take(stacks, hexes, loss2, value_of):
    """Greedy casualties: the largest top whose value the loss covers, until
    none does. Returns the CF eliminated; ``stacks`` lose those units."""
    killed = 0.0
    while True:
        best = None
        for i, st in enumerate(stacks):
            if not st:
                continue
            v = value_of(st[0], len(st) - 1, hexes[i], i)
            if v <= loss2 and (best is None or v > best[0]):
                best = (v, i)
        if best is None:
            return killed
        v, i = best
        t = stacks[i].pop(0)
        loss2 -= v
        killed += t[0] + (6 if t[4] == ARGRATH else 0)


def battle_score(att, att_hexes, dfn, def_hexes):
    """Expected enemy CF eliminated minus own CF lost, and the chance the
    defence is wiped out, for attacking stacks ``att`` (lists of combat
    tuples top first, at ``att_hexes``) against ``dfn`` (L582-L588)."""
    dset = set(def_hexes)
    aset = set(att_hexes)
    a2 = sum(_strength2(st, False, _halves(h, dset)) for st, h in zip(att, att_hexes))
    total = int(a2 // 2)
    att_super = any(t[3] == RANK_SUPERHERO for st in att for t in st)
    def_super = [any(t[3] == RANK_SUPERHERO for t in st) for st in dfn]

    def def_value(t, pos, h, i):
        if att_super and not def_super[i]:
            return 2 * t[0]
        return t[0] * (IN2[h] if pos < 3 else OUT2[h])

    fought = [set(id(t) for t in _fighting(st)) for st in att]

    def att_value(t, pos, h, i):
        if id(t) in fought[i]:
            return 2 * t[0]
        return t[0] * (IN2[h] if pos < 3 else OUT2[h])

    kill = lost = wipe = 0.0
    for r in range(1, 7):
        stacks = [list(st) for st in dfn]
        kill += _take(stacks, def_hexes, 2 * attack_loss(total, r), def_value) / 6
        if not any(stacks):
            wipe += 1 / 6
            continue
        d2 = sum(_strength2(st, True, _halves(h, aset)) for st, h in zip(stacks, def_hexes) if st)
        dtotal = int(d2 // 2)
        for r2 in range(1, 7):
            mine = [list(st) for st in att]
            lost += _take(mine, att_hexes, 2 * attack_loss(dtotal, r2), att_value) / 36
    return kill - lost, wipe


# ------------------------------------------------------------------ the plan: a post for every unit
def _unit_speed(pos, u):
    return max(2, 2 * MF[u][pos.side[u]])


def _keep_key(pos, u):
    """Garrison preference: units that cannot move, foot before horse, slow
    before fast, strong before weak; superheroes last."""
    moved = 0 if not pos.movable(u) else 1
    return (RANK[u] == RANK_SUPERHERO, moved, CAVALRY[u], MF[u][pos.side[u]], -CF[u][pos.side[u]])


def argrath_home(pos):
    """Where Argrath should be: Boldhome, or the own-occupied (else any)
    Sartar fortress farthest from the enemy."""
    bh = BOLDHOME_HEX
    if bh not in pos.foe_hexes:
        return bh
    best = None
    for k in SARTAR_FORTS:
        h = FORT_HEX[k]
        if h in pos.foe_hexes:
            continue
        near = min((hex_distance(h, g) for g in pos.foe_hexes), default=99)
        key = (h in pos.own, near)
        if best is None or key > best[0]:
            best = (key, h)
    return best[1] if best else bh


def _plan_garrison(pos, h):
    """The garrison the plan keeps in place h: larger for the 18.6 Lunars at
    the end, when every place must be theirs."""
    g = garrison_size(pos.sc, pos.p, h)
    if pos.sc == SC_186 and pos.p == LUNAR and pos.turn >= pos.max_turns - 1:
        g = max(g, LAST_STAND)
    return g


def _bat_post(pos, post):
    """18.6: the Crimson Bat keeps to the nearest other Lunar stack, where it
    can feed on the Black and Dying days (L698): unfed, it starves and the
    enemy picks off Lunar units for its spirit. (18.4 and 18.5 keep their
    measured play, the Bat moving with its strike group.)"""
    bat = pos.hex[R.CRIMSON_BAT]
    others = [u for units in pos.own.values() for u in units if u != R.CRIMSON_BAT]
    if not others:
        return bat
    mate = min(others, key=lambda u: (hex_distance(bat, pos.hex[u]), -len(pos.own[pos.hex[u]]), u))
    if pos.hex[mate] == bat:
        return post.get(mate, bat)
    return pos.hex[mate]


def _threatened_place(pos, u):
    """18.6: a superhero with nothing to take stands in the own place with the
    most enemy stacks within two hexes (the nearest first): where a garrison
    is likeliest to be attacked, or forced to attack (L507), and where the
    superhero keeps the fortress's defence against the enemy's (L648)."""
    best = None
    for h in pos.places:
        if h not in pos.own:
            continue
        near = sum(1 for g in pos.foe_hexes if hex_distance(g, h) <= 2)
        if not near:
            continue
        key = (-near, dist_to(pos.sc, h, pos.hex[u]), h)
        if best is None or key < best[0]:
            best = (key, h)
    return best[1] if best is not None else pos.hex[u]


def make_plan(pos):
    """{unit: post hex} for every own unit on the map."""
    p, sc = pos.p, pos.sc
    post = {}
    kept = {}
    bat = sc == SC_186 and pos.where[R.CRIMSON_BAT] == UW_MAP and pos.force[R.CRIMSON_BAT] == p
    for h in pos.places:
        units = pos.own.get(h)
        if not units:
            continue
        g = _plan_garrison(pos, h)
        cand = [u for u in units if u != ARGRATH and not (bat and u == R.CRIMSON_BAT)
                and not (sc == SC_186 and RANK[u] == RANK_SUPERHERO)]
        cand.sort(key=lambda u: _keep_key(pos, u))
        keep = cand[:g]
        for u in keep:
            post[u] = h
        kept[h] = len(keep)
    # Argrath (18.3): home, with his garrison
    home = None
    if pos.where[ARGRATH] == UW_MAP and pos.force[ARGRATH] == p:
        home = argrath_home(pos)
        post[ARGRATH] = home
    # goals
    goals = []       # (field, hex, capacity, priority, attack?)
    prio = TAKE_PRIORITY.get((sc, p), {})
    fields = FIELDS[sc]
    for h in pos.places:
        g = _plan_garrison(pos, h)
        if h in pos.own:
            need = g - kept.get(h, 0)
            if need > 0:
                goals.append((fields[h], h, need, 0.5, False))
        elif h in pos.foe_hexes:
            goals.append((fields[h], h, 3 * STRIKE_GROUP, 0.5 + prio.get(h, 0.0), True))
        elif pos.holder[h] == p or sc == SC_183:
            goals.append((fields[h], h, g, 1.0 + prio.get(h, 0.0), False))
        else:
            goals.append((fields[h], h, g + 1, 1.5 + prio.get(h, 0.0), False))
    if home is not None and home not in pos.own and home not in [x[1] for x in goals]:
        goals.append((None, home, 2, 2.0, False))
    for u in ZOMBIES:
        if pos.where[u] == UW_MAP and pos.force[u] == p:
            post[u] = pos.hex[u]            # the chain moves as one, led by its own rule (zombie_leader)
    if pos.where[R.DELECTI] == UW_MAP and pos.force[R.DELECTI] == p:
        post[R.DELECTI] = _delecti_post(pos)
    free = [u for units in pos.own.values() for u in units if u not in post and u != GUNDA
            and not (bat and u == R.CRIMSON_BAT)]
    pairs = []
    for u in free:
        h = pos.hex[u]
        speed = _unit_speed(pos, u)
        hunter = sc == SC_186 and RANK[u] == RANK_SUPERHERO
        for i, (field, gh, cap, pr, _) in enumerate(goals):
            if hunter and (gh in pos.own or gh not in (BAGNOT_HEX, DUNSTOP_HEX)):
                continue                    # 18.6: a superhero takes Bagnot and Dunstop, keeps no garrison
            cost = field[h] if field is not None else 2 * hex_distance(h, gh)
            if cost >= FAR:
                continue
            turns = cost / speed
            pairs.append((turns - pr, i, u))
    pairs.sort()
    left = [x[2] for x in goals]
    for _, i, u in pairs:
        if u in post or left[i] <= 0:
            continue
        post[u] = goals[i][1]
        left[i] -= 1
    for u in free:
        if u not in post:
            post[u] = pos.hex[u]            # nothing to do: stay
            if sc == SC_186 and RANK[u] == RANK_SUPERHERO:
                post[u] = _threatened_place(pos, u)
    if pos.where[GUNDA] == UW_MAP and pos.force[GUNDA] == p and GUNDA not in post:
        if pos.where[HARREK] == UW_MAP:
            hh = pos.hex[HARREK]
            post[GUNDA] = post.get(HARREK, hh) if pos.hex[GUNDA] == hh else hh
        else:
            post[GUNDA] = pos.hex[GUNDA]
    if bat:
        post[R.CRIMSON_BAT] = _bat_post(pos, post)
    return post


def _delecti_post(pos):
    """Delecti keeps with his zombies: without one in his stack at the end of a
    phase they all fall (L825): his hex if one is there, else the nearest zombie's."""
    dh = pos.hex[R.DELECTI]
    chain = [pos.hex[z] for z in ZOMBIES if pos.where[z] == UW_MAP and pos.force[z] == pos.p]
    if not chain or dh in chain:
        return dh
    return min(chain, key=lambda h: (hex_distance(dh, h), h))


def _detour(pos, target, start, attack_goal):
    """Half MPs to ``target`` avoiding enemy hexes and the hexes beside enemy
    stacks (but places, and beside the target when it is the enemy's), and
    the hexes the scenario shuts (18.6), searched backwards from the target
    until ``start`` is settled."""
    blocked = pos.foe_hexes
    shut = _SHUT_186_LIST if pos.sc == SC_186 else None
    dist = {}
    if attack_goal:
        queue = [(0, g) for g in NEIGH[target] if g not in blocked]
    else:
        queue = [(0, target)]
    best = {g: 0 for _, g in queue}
    while queue:
        dg, g = heapq.heappop(queue)
        if g in dist:
            continue
        dist[g] = dg
        if g == start:
            break
        if g != target and g not in pos.place_set and pos.beside_foe(g) and \
                not (attack_goal and target in NEIGH_SET[g]):
            continue                        # a unit entering it would stop there
        steps = _HEX_STEP_LIST[g]
        for d in range(1, 7):
            h = steps[d]
            if h < 0 or h in blocked or h in dist or (shut is not None and shut[h]):
                continue
            c = _STEP_COST_LIST[h][1 + (d + 2) % 6]
            if c < 0:
                continue
            if dg + c < best.get(h, FAR):
                best[h] = dg + c
                heapq.heappush(queue, (dg + c, h))
    return dist


_HEX_STEP_LIST = HEX_STEP.tolist()
_STEP_COST_LIST = STEP_COST.tolist()
_SHUT_186_LIST = [bool(x) for x in SHUT_186]
"""HEX_STEP, STEP_COST and SHUT_186 as Python lists: :func:`_detour` reads
them one entry at a time, where a numpy scalar costs several times a list's."""


# ------------------------------------------------------------------ the agent
class DragonPassHeuristic(Agent):
    """Takes and holds the scenario's places, decision by pending phase (see
    the module docstring)."""

    name = "dragon_pass.heuristic"
    uses_state = True

    def __init__(self, game=None):
        self.game = game
        self._group = {}        # seat -> (player_turn, group_start, post) of the group now moving

    def reset(self):
        self._group = {}

    def act(self, obs, mask, rng):
        legal = np.flatnonzero(mask)
        return int(rng.choice(legal))

    def act_state(self, game, state, player, rng):
        rec = state[0]
        mask = game.mask_of(state)
        legal = np.flatnonzero(mask).tolist()
        if not legal:
            raise ValueError(f"dragon_pass: no legal action for seat {player} (phase {int(rec['phase'])})")
        if len(legal) == 1:
            return legal[0]
        choose = _PHASES.get(int(rec["phase"]))
        if choose is not None:
            a = choose(self, Position(rec, int(player)), set(legal), rng)
            if a is not None and a in legal:
                return int(a)
        return int(legal[rng.integers(len(legal))])

    # ------------------------------------------------------------ deployment
    def deploy(self, pos, legal, rng):
        p = pos.p
        u = next((v for v in range(NUM_UNITS) if pos.where[v] == UW_POOL and pos.force[v] == p), -1)
        if u < 0:
            return None
        plan = deployment_goals(pos.sc, p, pos.force)
        goal = plan.get(u)
        if goal is None:
            return None
        actions = np.fromiter(legal, dtype=np.int64, count=len(legal))
        hexes = actions[actions < R.A_UNIT] - R.A_HEX
        if not len(hexes):
            return None
        # each hex's key, all at once: (full, distance + 2 beside a foe, -units
        # bound for the same goal, hex), the least first
        majors = np.zeros(len(hexes), dtype=np.int64)
        same = np.zeros(len(hexes), dtype=np.int64)
        where = np.full(NUM_HEXES, -1, dtype=np.int64)
        where[hexes] = np.arange(len(hexes))
        for h, units in pos.own.items():
            i = where[h]
            if i >= 0:
                majors[i] = sum(MAJOR[v][0] for v in units)
                same[i] = sum(1 for v in units if plan.get(v) == goal)
        if u == ARGRATH or not MAJOR[u][0]:
            full = np.zeros(len(hexes), dtype=bool)
        else:
            full = majors >= _fill_sizes(pos.sc, p)[hexes]
        near = _dist_field(pos.sc, goal)[hexes] + 2 * pos.beside_foe_hexes(hexes)
        best = np.lexsort((hexes, -same, near, full))[0]
        return R.A_HEX + int(hexes[best])

    # ------------------------------------------------------------ movement
    def move(self, pos, legal, rng):
        self._group.pop(pos.p, None)
        lead = zombie_leader(pos, legal)
        if lead is not None:
            return lead                     # the zombie chain marches first: Delecti follows it (L823)
        plan = make_plan(pos)
        done = R.A_CHOICE + R.CH_DONE
        best = None
        for h, units in pos.own.items():
            if R.A_HEX + h not in legal:
                continue
            for u in units:
                if not pos.movable(u) or plan.get(u, h) == h:
                    continue
                d = dist_to(pos.sc, plan[u], h)
                if best is None or (d, h) < best[0]:
                    best = ((d, h), h)
        if best is not None:
            return R.A_HEX + best[1]
        for a in sorted(legal):
            if R.A_UNIT <= a < R.A_CHOICE and pos.where[a - R.A_UNIT] == UW_ENTERING and pos.force[a - R.A_UNIT] == pos.p:
                return a                    # a reinforcement or replacement enters now (L474; enter_hex)
        if done in legal:
            return done
        # a disrupted unit must flee (L590): select its stack
        for h, units in pos.own.items():
            if R.A_HEX + h in legal and pos.beside_foe(h) and any(
                    pos.movable(u) and pos.side[u] == SIDE_BACK for u in units):
                return R.A_HEX + h
        return None

    def move_group(self, pos, legal, rng):
        rec = pos.rec
        sel = int(rec["sel_hex"])
        done = R.A_CHOICE + R.CH_DONE
        group = [u for u in pos.own.get(sel, []) if pos.flags[u] & UF_GROUP]
        key = (int(rec["player_turn"]), int(rec["group_start"]))
        if not group:
            if done in legal:             # after an arrangement
                return done
            plan = make_plan(pos)
            cands = [u for u in pos.own.get(sel, []) if R.A_UNIT + u in legal]
            flee = [u for u in cands if pos.side[u] == SIDE_BACK and pos.beside_foe(sel)]
            leaders = [u for u in cands if plan.get(u, sel) != sel]
            if flee:
                lead = flee[0]
            elif leaders:
                lead = min(leaders, key=lambda u: (dist_to(pos.sc, plan[u], sel), u))
            elif cands:
                lead = cands[0]
            else:
                return None
            self._group[pos.p] = key + (plan.get(lead, sel),)
            return R.A_UNIT + lead
        memo = self._group.get(pos.p)
        if memo is not None and memo[:2] == key:
            target = memo[2]
        else:
            plan = make_plan(pos)
            target = plan.get(group[0], sel)
        steps = [a - R.A_HEX for a in legal if a < R.A_UNIT]
        if not int(rec["group_moved"]):
            # gather the units of this stack with the same post (up to a strike group)
            plan = make_plan(pos)
            majors = sum(MAJOR[u][pos.side[u]] for u in group)
            if not any(pos.flags[u] & UF_FLEE for u in group):
                for u in pos.own.get(sel, []):
                    if R.A_UNIT + u in legal and plan.get(u, sel) == target:
                        if MAJOR[u][pos.side[u]] and majors >= STRIKE_GROUP and target not in pos.foe_hexes:
                            continue
                        return R.A_UNIT + u
        return self.step(pos, group, sel, target, steps, legal)

    def step(self, pos, group, sel, target, steps, legal):
        done = R.A_CHOICE + R.CH_DONE
        fleeing = any(pos.flags[u] & UF_FLEE for u in group)
        if fleeing and done in legal and not pos.beside_foe(sel):
            return done
        attack_goal = target in pos.foe_hexes
        if sel == target or (attack_goal and target in NEIGH_SET[sel]):
            if done in legal:
                return done
        mine = [pos.unit_tuple(u) for u in group]
        dragon = any(u in DRAGONS for u in group)
        risk = {}

        def risky(g):
            """Stopping at g would force a battle the group should not fight."""
            if g not in risk:
                foes = pos.foes_beside(g)
                bad = False
                if foes and dragon:
                    # its dragonfight is compulsory there and costs the dragon (L845)
                    bad = dragonfight_value(pos, g) < DRAGONFIGHT_WORTH
                elif foes and g not in pos.place_set:
                    if attack_goal and target in foes:
                        bad = not self.can_assault(pos, target, mine, g)
                    else:
                        bad = not all(battle_score([mine], [g], [pos.foe_stack(f)], [f])[0] > -1.0 for f in foes)
                risk[g] = bad
            return risk[g]

        here = dist_to(pos.sc, target, sel)
        best = None
        # a step may be a journey's end by dragonewt road (L482), far off: it is
        # weighed as any step, so dragonewts ride the roads where that brings them nearest
        for g in steps:
            d = dist_to(pos.sc, target, g)
            if fleeing:
                k = (len(pos.foes_beside(g)), d, g)
            elif d >= here or risky(g):
                continue
            else:
                k = (d, 0 if g in pos.own else 1, g)
            if best is None or k < best[0]:
                best = (k, g)
        if best is None and not fleeing and steps:
            # the direct way is barred by enemy stacks: a way round them
            dist = _detour(pos, target, sel, attack_goal)
            cand = [(dist.get(g, FAR), g) for g in steps if dist.get(g, FAR) < dist.get(sel, FAR) and not risky(g)]
            if cand:
                best = (None, min(cand)[1])
            elif pos.turn >= pos.max_turns and not attack_goal and target in pos.place_set:
                # the last turn: reach the place whatever it costs
                cand = [(dist_to(pos.sc, target, g), g) for g in steps if dist_to(pos.sc, target, g) < here]
                if cand:
                    best = (None, min(cand)[1])
        if best is not None:
            return R.A_HEX + best[1]
        if done in legal:
            return done
        return None

    def can_assault(self, pos, target, mine, g):
        """The group at g, with the own stacks already beside ``target`` or
        within two hexes of it, would beat the enemy stack there."""
        att, hexes = [mine], [g]
        for h, units in pos.own.items():
            if h == g or hex_distance(h, target) > 2:
                continue
            if h in pos.place_set:
                continue
            att.append(pos.own_stack(h))
            hexes.append(h if target in NEIGH_SET[h] else g)
        score, wipe = battle_score(att, hexes, [pos.foe_stack(target)], [target])
        return score + 4 * wipe > 0

    # ------------------------------------------------------------ arrangement
    def arrange(self, pos, legal, rng):
        h = int(pos.rec["arr_hex"])
        units = pos.own.get(h, [])
        if ARGRATH in units and units[-1] != ARGRATH:
            for u in reversed(units):           # lift the others above him, bottom first
                if u != ARGRATH and R.A_UNIT + u in legal:
                    return R.A_UNIT + u
        return R.A_CHOICE + R.CH_DONE

    # ------------------------------------------------------------ combat
    def _attackers(self, pos, d):
        return [h for h in NEIGH[d] if h in pos.own
                and not any(pos.flags[u] & UF_USED for u in pos.own[h])]

    def _fortress_bonus(self, pos, h):
        return 6.0 if h in pos.place_set else 0.0

    def _score(self, pos, att_hexes, def_hexes):
        att = [pos.own_stack(h) for h in att_hexes]
        dfn = [pos.foe_stack(h) for h in def_hexes]
        score, wipe = battle_score(att, att_hexes, dfn, def_hexes)
        return score + wipe * sum(self._fortress_bonus(pos, h) for h in def_hexes)

    def battle(self, pos, legal, rng):
        done = R.A_CHOICE + R.CH_DONE
        best = None
        for a in legal:
            if a >= R.A_UNIT:
                continue
            d = a - R.A_HEX
            att = self._attackers(pos, d)
            if not att:
                continue
            att = self._best_attackers(pos, att, [d])
            s = self._net(pos, att, [d])
            if best is None or s > best[0]:
                best = (s, a)
        if best is None:
            return done if done in legal else None
        if done in legal and best[0] <= ATTACK_THRESHOLD:
            return done
        return best[1]

    def _net(self, pos, att_hexes, def_hexes):
        """The battle's score less the risk to the garrisons that fight in it."""
        return self._score(pos, att_hexes, def_hexes) - sum(self._garrison_risk(pos, h) for h in att_hexes)

    def _best_attackers(self, pos, cands, def_hexes):
        """Greedily the attacking stacks that raise the net score (at least one)."""
        chosen = []
        score = None
        rest = list(cands)
        while rest:
            s, h = max((self._net(pos, chosen + [h], def_hexes), h) for h in rest)
            if chosen and s <= score:
                break
            chosen.append(h)
            score = s
            rest.remove(h)
        return chosen

    def _garrison_risk(self, pos, h):
        """A place's last garrison that fights risks the place (in CF)."""
        if h not in pos.place_set:
            return 0.0
        return 1.0 if len(pos.own[h]) <= garrison_size(pos.sc, pos.p, h) else 0.0

    def battle_add(self, pos, legal, rng):
        rec = pos.rec
        att = [int(h) for h in rec["bat_att"] if h >= 0]
        dfn = [int(h) for h in rec["bat_def"] if h >= 0]
        done = R.A_CHOICE + R.CH_DONE
        cands = [a - R.A_HEX for a in legal if a < R.A_UNIT and (a - R.A_HEX) in pos.own]
        if not cands:
            return done if done in legal else None
        if not att:
            pick = self._best_attackers(pos, cands, dfn)
            return R.A_HEX + pick[0]
        base = self._net(pos, att, dfn)
        best = max((self._net(pos, att + [h], dfn), h) for h in cands)
        if best[0] > base or done not in legal:
            return R.A_HEX + best[1]
        return done

    def missile_target(self, pos, legal, rng):
        hexes = [a - R.A_HEX for a in legal if a < R.A_UNIT]
        return R.A_HEX + max(hexes, key=lambda h: (MISSILE_MOD[h], len(pos.foe_stack(h)), -h))

    def missile_choice(self, pos, legal, rng):
        t = int(pos.rec["arr_hex"])
        fresh = [u for u in pos.own.get(t, []) if MAJOR[u][pos.side[u]] and pos.side[u] != SIDE_BACK]
        return R.A_CHOICE + (R.CH_DISRUPT_TWO if len(fresh) >= 2 else R.CH_ELIMINATE_ONE)

    def missile_casualty(self, pos, legal, rng):
        units = [a - R.A_UNIT for a in legal if R.A_UNIT <= a < R.A_CHOICE]
        if not units:
            return None
        if int(pos.rec["elim_left"]) > 0:
            return R.A_UNIT + min(units, key=lambda u: (pos.side[u] != SIDE_BACK, CF[u][pos.side[u]], u))
        # a disruption: a fresh unit, the weakest; a disrupted one would die
        return R.A_UNIT + min(units, key=lambda u: (pos.side[u] == SIDE_BACK, CF[u][pos.side[u]], u))

    def casualty(self, pos, legal, rng):
        units = [a - R.A_UNIT for a in legal if R.A_UNIT <= a < R.A_CHOICE]
        if not units:
            return None
        if ARGRATH in units:
            return R.A_UNIT + ARGRATH
        return R.A_UNIT + max(units, key=lambda u: (CF[u][pos.side[u]], RANK[u], -u))

    def retreat(self, pos, legal, rng):
        rec = pos.rec
        done = R.A_CHOICE + R.CH_DONE
        dfn = [int(h) for h in rec["bat_def"] if h >= 0]
        att = [int(h) for h in rec["bat_att"] if h >= 0]
        units = [a - R.A_UNIT for a in legal if R.A_UNIT <= a < R.A_CHOICE]
        if not units:
            return done
        # the attack the defence faces (the battle's stacks are open to both)
        a_stacks = [pos.foe_stack(h) for h in att]
        dset = set(dfn)
        total = int(sum(_strength2(st, False, _halves(h, dset)) for st, h in zip(a_stacks, att)) // 2)
        expected = sum(attack_loss(total, r) for r in range(1, 7)) / 6
        for u in units:
            h = pos.hex[u]
            if h in pos.place_set:
                continue
            worth = sum(CF[v][pos.side[v]] * (IN2[h] if i >= len(pos.own[h]) - 3 else OUT2[h]) / 2
                        for i, v in enumerate(pos.own[h]))
            if expected >= 0.6 * worth:
                return R.A_UNIT + u
        return done

    def retreat_hex(self, pos, legal, rng):
        """Into a place, else onto an own stack, else toward the nearest
        place it occupies."""
        hexes = [a - R.A_HEX for a in legal if a < R.A_UNIT]
        own_places = [h for h in pos.places if h in pos.own]

        def key(h):
            near = min((dist_to(pos.sc, f, h) for f in own_places), default=0)
            return (0 if h in pos.place_set else 1, 0 if h in pos.own else 1, near, h)

        return R.A_HEX + min(hexes, key=key)

    def advance(self, pos, legal, rng):
        rec = pos.rec
        done = R.A_CHOICE + R.CH_DONE
        vacated = [int(h) for h in rec["bat_vacated"] if h >= 0 and int(h) not in pos.foe_hexes]
        forts = [h for h in vacated if h in pos.place_set]
        if not forts:
            return done
        inside = sum(len(pos.own.get(h, [])) for h in forts)
        want = max(garrison_size(pos.sc, pos.p, h) for h in forts)
        if inside >= want:
            return done
        units = [a - R.A_UNIT for a in legal if R.A_UNIT <= a < R.A_CHOICE]
        ok = []
        for u in units:
            h = pos.hex[u]
            if h in pos.place_set:
                stay = [v for v in pos.own[h] if not pos.flags[v] & UF_ADVANCED]
                if len(stay) <= garrison_size(pos.sc, pos.p, h):
                    continue
            if u == ARGRATH:
                continue
            ok.append(u)
        if not ok:
            return done
        return R.A_UNIT + max(ok, key=lambda u: (CF[u][pos.side[u]], -u))

    def advance_hex(self, pos, legal, rng):
        hexes = [a - R.A_HEX for a in legal if a < R.A_UNIT]
        forts = [h for h in hexes if h in pos.place_set]
        return R.A_HEX + (forts[0] if forts else hexes[0])

    def advance_ext(self, pos, legal, rng):
        return R.A_CHOICE + R.CH_DONE

    def scapegoat(self, pos, legal, rng):
        """The weakest enemy unit of the battle: the rage passes once it falls (L654-L656)."""
        units = [a - R.A_UNIT for a in legal if R.A_UNIT <= a < R.A_CHOICE]
        if not units:
            return None
        return R.A_UNIT + min(units, key=lambda u: (CF[u][pos.side[u]], u))

    def escape_hex(self, pos, legal, rng):
        hexes = [a - R.A_HEX for a in legal if a < R.A_UNIT]

        def key(h):
            near = min((hex_distance(h, g) for g in pos.foe_hexes), default=99)
            return (h in pos.place_set, len(pos.own.get(h, [])), near, -h)

        return R.A_HEX + max(hexes, key=key)


_DEPLOY_CACHE = {}
_LUNAR_ZONE_186 = [h for h in range(NUM_HEXES) if R.DEPLOY_ZONE[SC_186, LUNAR, h]]
_NORTH_FORT = min((BAGNOT_HEX, DUNSTOP_HEX), key=lambda h: (min(FIELDS[SC_186][h][z] for z in _LUNAR_ZONE_186), h))
"""18.6: the one of Bagnot and Dunstop nearest the Lunars' zone."""


def deployment_goals(sc, p, force):
    """{unit: post hex} of seat p's counters in scenario sc (``force``: the
    state's ``unit_force``, whose counters they are): garrisons for the places
    it holds in its own deployment zone, strike groups for the enemy's
    (cheapest from its zone first)."""
    units = tuple(u for u in range(NUM_UNITS) if R.U_DEPLOY[u, sc] and force[u] == p)
    key = (sc, p, units)
    if key in _DEPLOY_CACHE:
        return _DEPLOY_CACHE[key]
    zone = [h for h in range(NUM_HEXES) if R.DEPLOY_ZONE[sc, p, h]]
    goals = {}
    # the places the scenario counts: all ten fortresses in 18.5 (L273)
    counted = list(FORT_HEX) if sc in (SC_185, SC_187) else list(PLACES[sc])
    rank = {h: i for i, h in enumerate(counted)}
    fields = FIELDS[sc] if sc in (SC_186, SC_188) else FORT_FIELDS
    own_places = [h for h in counted if R.DEPLOY_ZONE[sc, p, h]]
    other = [h for h in counted if h not in own_places]
    # the places to reach from the zone, cheapest first (Boldhome first where it decides)
    reach = {h: min(fields[h][z] for z in zone) for h in other}
    prio = TAKE_PRIORITY.get((sc, p), {})
    other.sort(key=lambda h: (reach[h] - 8 * prio.get(h, 0.0), rank[h]))
    if sc == SC_186 and other:
        # the far sites take the longest to reach: the fastest groups go there first
        other.reverse()
    if not other:
        if sc == SC_186:
            # 18.6, the Independents hold all five: a reserve beside the places
            # the Lunars reach first, to retake what they take
            enemy_zone = [h for h in range(NUM_HEXES) if R.DEPLOY_ZONE[sc, 1 - p, h]]
            other = sorted(own_places, key=lambda h: (min(fields[h][z] for z in enemy_zone), rank[h]))
        else:
            other = [BOLDHOME_HEX]
    if ARGRATH in units:
        goals[ARGRATH] = BOLDHOME_HEX
    foot = [u for u in units if u not in goals and RANK[u] == RANK_NONE]
    foot.sort(key=lambda u: (CAVALRY[u], MF[u][0], -CF[u][0], u))
    # garrisons: slow, strong foot
    for h in sorted(own_places, key=lambda h: (h != BOLDHOME_HEX, rank[h])):
        for _ in range(garrison_size(sc, p, h)):
            if foot:
                goals[foot.pop(0)] = h
    # strikers: the rest, fast first, in groups
    rest = [u for u in units if u not in goals]
    rest.sort(key=lambda u: (-MF[u][0], -CF[u][0], u))
    strikers = {h: [] for h in other}
    order = list(other)
    i = 0
    for u in rest:
        if u == GUNDA and HARREK in goals:
            goals[u] = goals[HARREK]
            continue
        if sc == SC_186 and RANK[u] == RANK_SUPERHERO:
            # Jar-eel and Androgeus start by the fortresses beside the Lunars'
            # zone: a garrison there without a superhero loses its fortress's
            # defence when the other superhero attacks (L648)
            goals[u] = _NORTH_FORT
            continue
        h = order[i % len(order)]
        goals[u] = h
        if MAJOR[u][0]:
            strikers[h].append(u)
            if len(strikers[h]) >= STRIKE_GROUP:
                i += 1
        else:
            strikers[h].append(u)
    _DEPLOY_CACHE[key] = goals
    return goals


# ------------------------------------------------------------------ magic (18.4 on)
def _enemy_cf_at(pos, h):
    return sum(t[0] for t in pos.foe_stack(h))


def _own_cf_at(pos, h):
    return sum(CF[u][pos.side[u]] for u in pos.own.get(h, []))


def moon(self, pos, legal, rng):
    """The Full Moon on the first day: every cyclic factor at 7 (L664), the Full
    Moon Corps' day (L712), and the Bat's Black day six days off (L698)."""
    return R.A_CHOICE + R.CH_MOON + R.MOON_FULL


def commit(self, pos, legal, rng):
    """Commit every spirit and agent that can reach a stack it may attack."""
    units = [a for a in legal if R.A_UNIT <= a < R.A_CHOICE]
    return units[0] if units else R.A_CHOICE + R.CH_DONE


def commit_hex(self, pos, legal, rng):
    """The weakest enemy stack within reach: the battle it obliges is the likeliest won."""
    hexes = [a - R.A_HEX for a in legal if a < R.A_UNIT]
    return R.A_HEX + min(hexes, key=lambda h: (_enemy_cf_at(pos, h), h))


def support(self, pos, legal, rng):
    """Support the own stacks beside the enemy (their DSM, a cover for retreats, L578)."""
    units = [a for a in legal if R.A_UNIT <= a < R.A_CHOICE]
    return units[0] if units else R.A_CHOICE + R.CH_DONE


def support_hex(self, pos, legal, rng):
    hexes = [a - R.A_HEX for a in legal if a < R.A_UNIT]
    return R.A_HEX + max(hexes, key=lambda h: (sum(_enemy_cf_at(pos, g) for g in pos.foes_beside(h)), -h))


def save(self, pos, legal, rng):
    units = [a - R.A_UNIT for a in legal if R.A_UNIT <= a < R.A_CHOICE]
    return R.A_UNIT + max(units, key=lambda u: (CF[u][pos.side[u]], RANK[u], -u))


def magic_casualty(self, pos, legal, rng):
    """The enemy's strongest, or one's own weakest (the chaotic magic the attacker
    takes on his own side, L518)."""
    units = [a - R.A_UNIT for a in legal if R.A_UNIT <= a < R.A_CHOICE]
    if pos.force[units[0]] == pos.p:
        return R.A_UNIT + min(units, key=lambda u: (RANK[u] != RANK_NONE, CF[u][pos.side[u]], u))
    return R.A_UNIT + max(units, key=lambda u: (RANK[u], CF[u][pos.side[u]], -u))


def exotic(self, pos, legal, rng):
    """The Bat's feeding first (it must, L698), then a strike worth its price."""
    units = [a - R.A_UNIT for a in legal if R.A_UNIT <= a < R.A_CHOICE]
    for u in units:
        if u == R.CRIMSON_BAT or u == R.FULL_MOON_CORPS:
            return R.A_UNIT + u
    for u in units:
        if u in DRAGONS and negation_wanted(pos, u):
            return R.A_UNIT + u             # a dragon switches its negation of the Glowline (L851)
        if u == R.HYDRA and hydra_food_near(pos):
            return R.A_UNIT + u             # the hungry Hydra is fed (L880)
    for u in units:
        if u in (R.CRATER_MAKERS, R.STORMWALKERS) and _best_strike(pos, u) is not None:
            return R.A_UNIT + u
        if u == R.WASPS and len([g for g in NEIGH[pos.hex[u]] if g in pos.foe_hexes]) >= 2:
            return R.A_UNIT + u
        if u == R.EARTH_SHAKERS_CULT and _quake_worth(pos, u):
            return R.A_UNIT + u
        if u == R.CRAGSPIDER and _best_triangle(pos) is not None:
            return R.A_UNIT + u
        if u == R.HELL_HOUND and _best_doom_run(pos)[1] > DOOM_RUN_PRICE:
            return R.A_UNIT + u
        if u == R.ETHILRIST and _cloak_worth(pos):
            return R.A_UNIT + u
    if R.A_CHOICE + R.CH_DONE not in legal and R.A_UNIT + R.HELL_HOUND in legal:
        return R.A_UNIT + R.HELL_HOUND            # Keener Than must release the Hound (L756)
    return R.A_CHOICE + R.CH_DONE


PILLAR_WORTH = 12
"""The enemy CF (less the own CF) the Pillar of Fire must destroy to be worth
Cragspider's spirit: it strikes once a game, so more than a Meteor Storm's 8."""


def _triangle_value(pos, tri):
    """The enemy CF less the own CF the Pillar of Fire would destroy there
    (superheroes are unaffected, L764 D&S; Cragspider herself counts as own)."""
    value = 0
    for h in tri:
        value += sum(t[0] for t in pos.foe_stack(h) if t[3] != RANK_SUPERHERO)
        value -= sum(CF[u][pos.side[u]] for u in pos.own.get(h, []) if RANK[u] != RANK_SUPERHERO)
    return value


def _best_triangle(pos, named=()):
    """The triangle of 3 mutually adjacent hexes within Cragspider's RF, holding
    the ``named`` hexes, where the Pillar of Fire destroys the most enemy CF
    less own CF; None when no triangle is worth PILLAR_WORTH (with no hex
    named yet) -- once unleashed, the best there is."""
    u = R.CRAGSPIDER
    rf = int(R.U_RF[u, pos.side[u]])
    here = pos.hex[u]
    if here < 0 or rf < 0:
        return None
    best, best_value = None, None
    for h in set(pos.foe_hexes) | set(named):
        if hex_distance(h, here) > rf:
            continue
        ring = [int(HEX_STEP[h, d]) for d in range(1, 7)]
        for d in range(6):
            a, b = ring[d], ring[(d + 1) % 6]
            if a < 0 or b < 0 or hex_distance(a, here) > rf or hex_distance(b, here) > rf:
                continue
            tri = (h, a, b)
            if any(g not in tri for g in named):
                continue
            key = (_triangle_value(pos, tri), -min(tri))
            if best_value is None or key > best_value:
                best, best_value = tri, key
    if best is None or (not named and best_value[0] < PILLAR_WORTH):
        return None
    return best


def pillar(self, pos, legal, rng):
    """Name the next hex of the best triangle holding the hexes named so far."""
    named = tuple(int(h) for h in pos.rec["pillar_hexes"] if h >= 0)
    tri = _best_triangle(pos, named)
    for h in tri or ():
        if h not in named and R.A_HEX + h in legal:
            return R.A_HEX + h
    hexes = [a - R.A_HEX for a in legal if a < R.A_UNIT]
    return R.A_HEX + max(hexes, key=lambda h: (_enemy_cf_at(pos, h), -h)) if hexes else None


def _cloak_worth(pos):
    """The Cloak of Darkness (once a game) is worth casting when its cloud
    would hold at least 4 enemy units, and more than twice as many as own
    units (Ethilrist's own, the spirits, dragons and superheroes go free, L752)."""
    here = pos.hex[R.ETHILRIST]
    near = [h for h in set(pos.foe_hexes) | set(pos.own) if hex_distance(h, here) <= R.CLOAK_RANGE]
    foes = sum(1 for h in near if h in pos.foe_hexes for t in pos.foe_stack(h) if t[4] < 0 or not CLOUD_FREE[t[4]])
    mine = sum(1 for h in near for u in pos.own.get(h, []) if not CLOUD_FREE[u])
    return foes >= 4 and foes > 2 * mine


CLOUD_FREE = [u in (R.ETHILRIST, R.HELL_HOUND) or bool(R.U_BLACK_HORSE[u]) or R.U_MAGICIAN[u] >= 0
              or bool(R.U_SPIRIT[u].any()) or bool(R.U_TAGS[u] & R.TAG_DRAGON) or RANK[u] == RANK_SUPERHERO
              for u in range(NUM_UNITS)]
"""The units the Cloak's cloud does not hold (``rules.cloud_free``, L752)."""


DOOM_RUN_PRICE = 10
"""The Hound is lost on its Doom Run (at the board's edge or stopped): its own
CF of 10 is the least the run must cost the enemy, net of own losses."""


def _doom_gain(pos, h, d):
    """Enemy CF less own CF the Hound's Doom Run from h in direction d would
    eliminate (L754): every stack in its straight path to the edge, until a
    dragon or a superhero stops it (the superhero falls there too)."""
    gain = 0
    g = int(HEX_STEP[h, d])
    while g >= 0:
        foes, mine = pos.foe_stack(g), pos.own_stack(g)
        stops = [t for t in foes + mine if t[3] == RANK_SUPERHERO or (t[4] >= 0 and R.U_TAGS[t[4]] & R.TAG_DRAGON)]
        if stops:
            return gain + sum(t[0] for t in foes if t[3] == RANK_SUPERHERO) \
                - sum(t[0] for t in mine if t[3] == RANK_SUPERHERO)
        gain += sum(t[0] for t in foes) - sum(t[0] for t in mine)
        g = int(HEX_STEP[g, d])
    return gain


def _best_doom_run(pos):
    """The hex beside the Hound that starts its most damaging Doom Run, and its gain."""
    h = pos.hex[R.HELL_HOUND]
    if h < 0:
        return None, 0
    runs = [(_doom_gain(pos, h, d), -int(HEX_STEP[h, d]), int(HEX_STEP[h, d])) for d in range(1, 7)
            if HEX_STEP[h, d] >= 0]
    gain, _, g = max(runs)
    return g, gain


def _quake_worth(pos, u):
    """The earthquake is worth the cult's spirit when more enemy than own units
    stand within its RF (the lines can disrupt more of them) and at least two
    enemy stacks are there to be strung on a line."""
    rf = int(R.U_RF[u, pos.side[u]])
    here = pos.hex[u]
    foes = [h for h in pos.foe_hexes if hex_distance(h, here) <= rf and h != here]
    if len(foes) < 2:
        return False
    mine = sum(len(units) for h, units in pos.own.items() if hex_distance(h, here) <= rf)
    return sum(len(pos.foe_stack(h)) for h in foes) > mine


def fracture(self, pos, legal, rng):
    """Lay the fracture line greedily through enemy stacks: the legal hex with
    the most enemy and fewest own units, then the nearest to an enemy stack
    the quake has not struck yet."""
    hexes = [a - R.A_HEX for a in legal if a < R.A_UNIT]
    if not hexes:
        return None
    laid = {int(h) for h in pos.rec["fracture_hexes"] if h >= 0}
    home = pos.hex[R.EARTH_SHAKERS_CULT]       # the cult's own stack (an Independent: not in ``own``)
    targets = [h for h in pos.foe_hexes if h not in laid and h != home]

    def score(h):
        near = min((hex_distance(h, g) for g in targets if g != h), default=0)
        foes = 0 if h == home else len(pos.foe_stack(h))
        mine = len(pos.own.get(h, [])) + (len(pos.foe_stack(h)) if h == home else 0)
        return (foes - mine, -near, -h)
    return R.A_HEX + max(hexes, key=score)


def _best_strike(pos, u):
    """The enemy hex within the striker's RF that holds the most CF and no own unit."""
    rf = int(R.U_RF[u, pos.side[u]])
    here = pos.hex[u]
    cands = [h for h in pos.foe_hexes if hex_distance(h, here) <= rf and h not in pos.own]
    if not cands:
        return None
    best = max(cands, key=lambda h: (_enemy_cf_at(pos, h), -h))
    return best if _enemy_cf_at(pos, best) >= 8 else None


def exotic_target(self, pos, legal, rng):
    c = int(pos.rec["cursor"])
    if c in DRAGONS and CH + R.CH_NEGATE in legal:
        return CH + R.CH_NEGATE
    if c == R.HYDRA:
        food = _hydra_food(pos, _units_in(legal))
        return R.A_UNIT + _weakest(pos, food) if food else None
    if c == R.CRIMSON_BAT:
        units = [a - R.A_UNIT for a in legal if R.A_UNIT <= a < R.A_CHOICE]
        return R.A_UNIT + min(units, key=lambda u: (RANK[u] != RANK_NONE, CF[u][pos.side[u]], u))
    if c == R.CRAGSPIDER:
        tri = _best_triangle(pos)
        if tri is not None and R.A_HEX + tri[0] in legal:
            return R.A_HEX + tri[0]
    if c == R.EARTH_SHAKERS_CULT:
        # one long line of 8 strings more stacks together than two of 5
        return R.A_CHOICE + (R.CH_QUAKE_1 if R.A_CHOICE + R.CH_QUAKE_1 in legal else R.CH_QUAKE_2)
    if c == R.HELL_HOUND:
        g = _best_doom_run(pos)[0]
        if g is not None and R.A_HEX + g in legal:
            return R.A_HEX + g
    if c in (R.CRATER_MAKERS, R.STORMWALKERS):
        h = _best_strike(pos, c)
        if h is not None and R.A_HEX + h in legal:
            return R.A_HEX + h
    hexes = [a - R.A_HEX for a in legal if a < R.A_UNIT]
    if c == R.FULL_MOON_CORPS and hexes:
        return R.A_HEX + min(hexes, key=lambda h: (min((hex_distance(h, g) for g in pos.foe_hexes), default=0), h))
    if hexes:
        return R.A_HEX + max(hexes, key=lambda h: (_enemy_cf_at(pos, h), -h))
    return None


def hunger(self, pos, legal, rng):
    units = [a - R.A_UNIT for a in legal if R.A_UNIT <= a < R.A_CHOICE]
    if units:
        return R.A_UNIT + max(units, key=lambda u: (RANK[u], CF[u][pos.side[u]], -u))
    return None


def assassin(self, pos, legal, rng):
    units = [a - R.A_UNIT for a in legal if R.A_UNIT <= a < R.A_CHOICE]
    heroes = [u for u in units if RANK[u] != RANK_NONE]
    return R.A_UNIT + heroes[0] if heroes else R.A_CHOICE + R.CH_DONE


def reveal(self, pos, legal, rng):
    """Reveal when the side's own cyclic units gain (the Bat's Glowspot raises
    them, Argrath's resistance lowers the enemy's): always, for the side that owns it."""
    return R.A_CHOICE + R.CH_REVEAL


def freeze(self, pos, legal, rng):
    """Freeze the cavalry when the enemy has more cavalry on the map than the
    side of Ironhoof: it halts more of theirs than of ours."""
    rec = pos.rec
    me = int(rec["active"])
    counts = [0, 0]
    for u in range(len(R.U_CAVALRY)):
        f = int(rec["unit_force"][u])
        if R.U_CAVALRY[u] and f >= 0 and int(rec["unit_where"][u]) == UW_MAP:
            counts[0 if f == me else 1] += 1
    return R.A_CHOICE + (R.CH_FREEZE if counts[1] > counts[0] else R.CH_DONE)


# ------------------------------------------------------------------ diplomacy and alliances (18.7)
BID_MARGIN = 10
"""Diplomacy Points assigned to a Major beyond its price, to outbid the other
player (an alliance goes to the higher assignment, L979)."""
MAJOR_ORDER = sorted(range(R.NUM_MAJORS), key=lambda k: (int(R.MAJOR_PRICE[k]), k))
"""The Majors the heuristic courts, cheapest first (L1002)."""


def diplomacy(self, pos, legal, rng):
    """Assign points to the cheapest unallied Major until it holds its price
    and a margin, then the next; keep the rest (L979)."""
    rec, p = pos.rec, pos.p
    held = int(rec["dp"][p])
    for k in MAJOR_ORDER:
        if int(rec["faction_ally"][k]) >= 0:
            continue
        need = int(R.MAJOR_PRICE[k]) + BID_MARGIN - int(rec["dp_assigned"][p, k])
        if need <= 0:
            continue
        for j in range(len(R.ASSIGN_AMOUNTS) - 1, -1, -1):
            n = int(R.ASSIGN_AMOUNTS[j])
            a = R.A_CHOICE + R.CH_ASSIGN + j * R.NUM_MAJORS + k
            if n <= min(need, held) and a in legal:
                return a
        return R.A_CHOICE + R.CH_DONE
    return R.A_CHOICE + R.CH_DONE


def alliance(self, pos, legal, rng):
    """Seek every Major it has paid for; send emissaries that are no heroes to
    the Minor Independents; then end the phase (L979, L993)."""
    for a in sorted(legal):
        if a >= R.A_CHOICE + R.CH_SEEK and a < R.A_CHOICE + R.CH_SEEK + R.NUM_MAJORS:
            return a
    for a in sorted(legal):
        if R.A_UNIT <= a < R.A_CHOICE and RANK[a - R.A_UNIT] == RANK_NONE:
            return a
    return R.A_CHOICE + R.CH_DONE


def ally_setup(self, pos, legal, rng):
    """Set the new ally's unit up in the hex of its territory nearest the
    enemy's places (its first movement keeps to the territory, L985)."""
    targets = [h for h in pos.places if pos.holder.get(h) != pos.p] or list(pos.places)
    hexes = [a - R.A_HEX for a in legal if a < R.A_UNIT]
    return R.A_HEX + min(hexes, key=lambda h: (min(hex_distance(h, t) for t in targets), h))


def keener(self, pos, legal, rng):
    """Keener Than joins the largest of its stacks."""
    hexes = [a - R.A_HEX for a in legal if a < R.A_UNIT]
    return R.A_HEX + max(hexes, key=lambda h: (len(pos.own.get(h, [])), -h))


def purchase(self, pos, legal, rng):
    """18.9 (L323, L981): buy back the strongest dead or removed unit the
    points pay for, keeping what courting the next unallied Major still
    needs (``diplomacy``); none once nothing is left over."""
    rec, p = pos.rec, pos.p
    held = int(rec["dp"][p])
    keep = 0
    for k in MAJOR_ORDER:
        if int(rec["faction_ally"][k]) >= 0:
            continue
        keep = max(0, int(R.MAJOR_PRICE[k]) + BID_MARGIN - int(rec["dp_assigned"][p, k]))
        if keep > 0:
            break
    units = [a - R.A_UNIT for a in legal if R.A_UNIT <= a < R.A_CHOICE
             and int(R.PURCHASE_COST[a - R.A_UNIT]) <= held - keep]
    if not units:
        return R.A_CHOICE + R.CH_DONE
    return R.A_UNIT + max(units, key=lambda u: (CF[u][0], MF[u][0], -u))


def replace(self, pos, legal, rng):
    """The strongest dead unit comes back (L299)."""
    units = [a - R.A_UNIT for a in legal if R.A_UNIT <= a < R.A_CHOICE]
    if not units:
        return R.A_CHOICE + R.CH_DONE
    return R.A_UNIT + max(units, key=lambda u: (CF[u][0], MF[u][0], -u))


AUCTION_OFFER = 25
"""What the heuristic offers for the Dragonewts at random event 12 (L958):
about their price less what diplomacy would cost."""


def auction(self, pos, legal, rng):
    """Offer up to AUCTION_OFFER DP for the Dragonewts, 10 or 5 at a time."""
    bid = int(pos.rec["auction_bid"][pos.p])
    for j in range(len(R.ASSIGN_AMOUNTS) - 1, -1, -1):
        a = R.A_CHOICE + R.CH_BID + j
        if a in legal and bid + int(R.ASSIGN_AMOUNTS[j]) <= AUCTION_OFFER:
            return a
    return R.A_CHOICE + R.CH_DONE


# ------------------------------------------------------------------ the Independents' own decisions
# (dragons, Hungry Jack, the Minor Independents, the Puppeteers, the Hydra,
# Delecti's zombies, the giants, the random events, reinforcements)
SUPERHERO_WORTH = 1.5
"""A superhero counts as this many times its CF when a dragonfight chooses
between it and the rest of its stack (L845): he holds fortresses (L648) and
makes heroic escapes, the others do not."""
DRAGONFIGHT_WORTH = 15
"""The enemy CF a dragon must strike to be worth ending its move beside
enemy stacks: the dragonfight is compulsory there and costs the dragon (L845)."""
SPEED_UNITS = 3
"""The own units that must need the Spirit of Movement's doubling to reach
their posts this phase for it to be spent (L898; once a game): fewer in the
last game-turn (one)."""
DRAGONS = [int(u) for u in R.DRAGON_UNITS]
ZOMBIES = range(int(R.ZOMBIE_1), int(R.ZOMBIE_LAST) + 1)
GIANT = [bool(x) for x in R.U_GIANT]
MGF = R.U_MGF.tolist()
RF = R.U_RF.tolist()
CH = R.A_CHOICE


def _units_in(legal):
    return [a - R.A_UNIT for a in legal if R.A_UNIT <= a < R.A_CHOICE]


def _hexes_in(legal):
    return [a - R.A_HEX for a in legal if a < R.A_UNIT]


def _near_foe(pos, h, foes=None):
    """Hexes from h to the nearest enemy stack (99 with none)."""
    foes = pos.foe_hexes if foes is None else foes
    return min((hex_distance(h, g) for g in foes), default=99)


def _weakest(pos, units):
    """The unit the side misses least: no hero, the lowest CF, the slowest."""
    return min(units, key=lambda u: (RANK[u] != RANK_NONE, CF[u][pos.side[u]], MF[u][pos.side[u]], u))


def dragonfight_value(pos, h):
    """What a dragonfight from hex h takes of the enemy (L845): every enemy
    stack beside it loses, at the striker's choice, its non-superhero units or
    one superhero (weighted by SUPERHERO_WORTH); an enemy dragon beside it is
    a fair trade (both fall, nothing else)."""
    value = 0.0
    for g in pos.foes_beside(h):
        stack = pos.foe_stack(g)
        if any(t[4] in DRAGONS for t in stack):
            return float(DRAGONFIGHT_WORTH)
        rest = sum(t[0] for t in stack if t[3] != RANK_SUPERHERO)
        best_super = max((SUPERHERO_WORTH * t[0] for t in stack if t[3] == RANK_SUPERHERO), default=0.0)
        value += max(rest, best_super)
    return value


def dragonfight(self, pos, legal, rng):
    """Strike the part of the stack worth most: its non-superhero units'
    CF against a superhero's CF weighted by SUPERHERO_WORTH (L845)."""
    supers = _units_in(legal)
    stack_choice = CH + R.CH_DRAGON_STACK
    if not supers:
        return stack_choice if stack_choice in legal else None
    h = pos.hex[supers[0]]
    rest = sum(t[0] for t in pos.foe_stack(h) if t[3] != RANK_SUPERHERO)
    best = max(supers, key=lambda u: (CF[u][pos.side[u]], -u))
    if stack_choice in legal and rest > SUPERHERO_WORTH * CF[best][pos.side[best]]:
        return stack_choice
    return R.A_UNIT + best


def jack_aid(self, pos, legal, rng):
    """A magician aids Hungry Jack (one more unit summoned, no magic from it
    this game-turn, L872) while the enemy has more units on the map than Jack
    may summon so far: the one with the smallest MgF, whose magic is missed least."""
    mages = _units_in(legal)
    aides = sum(1 for x in pos.rec["jack_aides"].tolist() if x > 0)
    foes = sum(len(units) for units in pos._foe.values())
    if not mages or foes < 2 + aides:
        return CH + R.CH_DONE
    return R.A_UNIT + min(mages, key=lambda m: (abs(MGF[m][pos.side[m]]), CF[m][pos.side[m]], m))


def jack(self, pos, legal, rng):
    """Summon the strongest enemy unit (printed front CF, public): drawn
    beside Jack it is eliminated on 1-3 (L874)."""
    units = _units_in(legal)
    if not units:
        return CH + R.CH_DONE
    return R.A_UNIT + max(units, key=lambda u: (CF[u][0], -u))


def speed_helps(pos):
    """How many own units need twice their movement points this phase to
    reach their posts of the plan (and reach them with it)."""
    plan = make_plan(pos)
    n = 0
    for u, post in plan.items():
        h = pos.hex[u]
        if post == h or not pos.movable(u):
            continue
        d = dist_to(pos.sc, post, h)
        if pos.mp[u] < d <= 2 * pos.mp[u]:
            n += 1
    return n


def speed(self, pos, legal, rng):
    """Spend the Spirit of Movement (L898) when SPEED_UNITS own units reach
    their posts only with doubled movement, or one does in the last game-turn."""
    need = 1 if pos.turn >= pos.max_turns else SPEED_UNITS
    return CH + (R.CH_SPEED if speed_helps(pos) >= need else R.CH_DONE)


def _magic_key(pos, u):
    sd = pos.side[u]
    m = MGF[u][sd]
    return (abs(m) if abs(m) < R.INFINITE_MGF else 0, RF[u][sd], -u)


def alchemy(self, pos, legal, rng):
    """The Alchemical Transformer doubles the strongest magician's factor (L857):
    the unit stacked with it with the largest MgF (then RF)."""
    units = _units_in(legal)
    if not units:
        return CH + R.CH_DONE
    return R.A_UNIT + max(units, key=lambda u: _magic_key(pos, u))


def alchemy_factor(self, pos, legal, rng):
    """Its MgF where it may (a doubled MgF doubles its spirit or agent too), else its RF."""
    mgf = CH + R.CH_ALCHEMY_MGF
    return mgf if mgf in legal else CH + R.CH_ALCHEMY_RF


def battle_lost(pos):
    """The battle about to be fought goes against seat p: attacking, its
    expected score is below the threshold of an attack worth making;
    defending, the attacker expects a gain or may wipe the defence out
    (``battle_score``, L582-L588)."""
    rec = pos.rec
    att = [int(h) for h in rec["bat_att"] if h >= 0]
    dfn = [int(h) for h in rec["bat_def"] if h >= 0]
    mine_att = any(h in pos.own for h in att)
    side = (lambda h: pos.own_stack(h)) if mine_att else (lambda h: pos.foe_stack(h))
    other = (lambda h: pos.foe_stack(h)) if mine_att else (lambda h: pos.own_stack(h))
    score, wipe = battle_score([side(h) for h in att], att, [other(h) for h in dfn], dfn)
    if mine_att:
        return score < ATTACK_THRESHOLD
    return score > 0 or wipe > 0


def puppet_dodge(self, pos, legal, rng):
    """The Puppeteer Troop switches out of a battle it is losing (L890), with
    the Illusory Army farthest from the enemy's stacks."""
    armies = _units_in(legal)
    if not armies or not battle_lost(pos):
        return CH + R.CH_DONE
    return R.A_UNIT + max(armies, key=lambda v: (_near_foe(pos, pos.hex[v]), -v))


def _hydra_food(pos, units):
    """Of ``units``, those worth less than the Hydra: no heroes, CF below its own (L880)."""
    hydra_cf = CF[R.HYDRA][pos.side[R.HYDRA]]
    return [u for u in units if RANK[u] == RANK_NONE and CF[u][pos.side[u]] < hydra_cf]


def hydra_feed(self, pos, legal, rng):
    """Feed the Hydra the weakest unit beside it (L880), if any is worth less than it."""
    food = _hydra_food(pos, _units_in(legal))
    return R.A_UNIT + _weakest(pos, food) if food else CH + R.CH_DONE


def event_remove(self, pos, legal, rng):
    """Random event 32 or 33 (L970-L971): send home the unit missed least,
    one outside the scenario's places before a garrison."""
    units = _units_in(legal)
    if not units:
        return None
    return R.A_UNIT + min(units, key=lambda u: (RANK[u] != RANK_NONE, pos.hex[u] in pos.place_set,
                                                 CF[u][pos.side[u]], MF[u][pos.side[u]], u))


def event_replace(self, pos, legal, rng):
    """Random event 34 (L972): the South Soldiers replace the strongest lost units."""
    return replace(self, pos, legal, rng)


def giant_step(self, pos, legal, rng):
    """Step the giant (no one's, L918) toward the enemy's units and away from
    one's own: after the movement it attacks every stack beside it. A step is
    taken when it ends beside fewer own stacks, or as few and nearer the enemy."""
    rec = pos.rec
    p = pos.p
    g0 = int(pos.hex[int(rec["cursor"])])
    enemy = 1 - p                       # two-player
    foes = {pos.hex[u] for u in range(NUM_UNITS) if pos.where[u] == UW_MAP and pos.force[u] == enemy}
    mine = set(pos.own)

    def key(h):
        return (sum(1 for g in NEIGH[h] if g in mine), _near_foe(pos, h, foes), h)

    steps = _hexes_in(legal)
    best = min(steps, key=key) if steps else None
    done = CH + R.CH_DONE
    if best is not None and (key(best)[:2] < key(g0)[:2] or done not in legal):
        return R.A_HEX + best
    return done


def zombie_rise(self, pos, legal, rng):
    """The new zombie rises in the hex nearest the enemy (L821)."""
    hexes = _hexes_in(legal)
    return R.A_HEX + min(hexes, key=lambda h: (_near_foe(pos, h), h)) if hexes else None


def _chain_after(pos, lead, g):
    """Where every zombie of the chain stands after ``lead`` steps into g,
    each other following into the hex the one before it left (L823)."""
    first = min((z for z in ZOMBIES if pos.where[z] == UW_MAP), default=-1)
    step = 1 if lead == first else -1
    where = {lead: g}
    left = pos.hex[lead]
    v = lead + step
    while v in ZOMBIES and pos.where[v] == UW_MAP:
        here = pos.hex[v]
        where[v] = left if here != left else here
        left = here
        v += step
    return where


def zombie_march_step(pos, lead, steps):
    """The step of the chain led by ``lead`` that brings it nearest the enemy,
    keeping a zombie with Delecti (the zombies all fall at the end of the
    phase otherwise, L825); None when no step brings it nearer."""
    here = _near_foe(pos, pos.hex[lead])
    dh = pos.hex[R.DELECTI] if pos.where[R.DELECTI] == UW_MAP else -1
    best = None
    for g in steps:
        d = _near_foe(pos, g)
        if d >= here:
            continue
        if dh >= 0 and dh not in _chain_after(pos, lead, g).values():
            continue
        if best is None or (d, g) < best:
            best = (d, g)
    return best


def _passable(pos, g):
    """A zombie may step into g: a hex no enemy holds, not a lake, no river but a ford (L823)."""
    return g not in pos.foe_hexes and HEX_TERRAIN[g] != R.TERRAIN_LAKE and (not HEX_RIVER[g] or HEX_FORD[g])


def zombie_leader(pos, legal):
    """In the movement phase: the end of the chain (L823) whose march brings it
    nearest the enemy, or None when neither end's first step does."""
    best = None
    for z in _units_in(legal):
        if z not in ZOMBIES:
            continue
        st = zombie_march_step(pos, z, [g for g in NEIGH[pos.hex[z]] if _passable(pos, g)])
        if st is not None and (best is None or st < best[0]):
            best = (st, z)
    return None if best is None else R.A_UNIT + best[1]


def zombie_march(self, pos, legal, rng):
    """The leader steps nearer the enemy while a zombie stays with Delecti; else the march ends."""
    st = zombie_march_step(pos, int(pos.rec["zombie_lead"]), _hexes_in(legal))
    return R.A_HEX + st[1] if st is not None else CH + R.CH_DONE


def _enter_key(pos, h):
    targets = [t for t in pos.places if pos.holder.get(t) != pos.p] or list(pos.places)
    return (min(dist_to(pos.sc, t, h) for t in targets), h)


def enter_hex(self, pos, legal, rng):
    """A reinforcement enters by the edge hex nearest a place to take (else one's own) (L474)."""
    hexes = _hexes_in(legal)
    return R.A_HEX + min(hexes, key=lambda h: _enter_key(pos, h)) if hexes else None


def force_march(self, pos, legal, rng):
    """Always force march: its first 3 MPs cost nothing (L474)."""
    a = CH + R.CH_FORCE_MARCH
    return a if a in legal else None


def summon_hex(self, pos, legal, rng):
    """Argrath's Dragontooth Runner (L684) appears in the largest own stack
    within reach (it cannot move that turn), else beside the fewest enemy stacks."""
    hexes = _hexes_in(legal)
    if not hexes:
        return None
    return R.A_HEX + min(hexes, key=lambda h: (-len(pos.own.get(h, [])), len(pos.foes_beside(h)), h))


def sacrifice(self, pos, legal, rng):
    """The weakest magician makes the Tusk Riders' blood sacrifice: on a 1 it
    is eliminated too (L906-L908)."""
    units = _units_in(legal)
    return R.A_UNIT + _weakest(pos, units) if units else None


def dragon_negates(pos, u):
    return (int(pos.rec["dragon_negates"]) >> DRAGONS.index(u)) & 1 == 1


def negation_wanted(pos, u):
    """A dragon of a non-Lunar seat negates the Glowline and Glowspot near it
    (they raise the Lunars' cyclic factors, L662-L670, L851); a Lunar dragon does not."""
    return (pos.p != LUNAR) != dragon_negates(pos, u)


def hydra_food_near(pos):
    """The own units the hungry Hydra may be fed in the Exotic Magic Phase, worth less than it."""
    rec = pos.rec
    hy = R.HYDRA
    if int(rec["hydra_hunger"]) <= 0 or pos.where[hy] != UW_MAP:
        return []
    h = pos.hex[hy]
    near = [u for g, units in pos.own.items() if hex_distance(g, h) <= 1 for u in units
            if u != hy and not R.IS_ILLUSION[u]]
    return _hydra_food(pos, near)


_PHASES = {
    R.PH_AUCTION: auction,
    R.PH_DIPLOMACY: diplomacy,
    R.PH_ALLIANCE: alliance,
    R.PH_ALLY_SETUP: ally_setup,
    R.PH_KEENER: keener,
    R.PH_REPLACE: replace,
    R.PH_PURCHASE: purchase,
    R.PH_FREEZE: freeze,
    R.PH_FRACTURE: fracture,
    R.PH_PILLAR: pillar,
    R.PH_MOON: moon,
    R.PH_COMMIT: commit,
    R.PH_COMMIT_HEX: commit_hex,
    R.PH_SUPPORT: support,
    R.PH_SUPPORT_HEX: support_hex,
    R.PH_SAVE: save,
    R.PH_MAGIC_CASUALTY: magic_casualty,
    R.PH_EXOTIC: exotic,
    R.PH_EXOTIC_TARGET: exotic_target,
    R.PH_HUNGER: hunger,
    R.PH_ASSASSIN: assassin,
    R.PH_REVEAL: reveal,
    R.PH_DEPLOY: DragonPassHeuristic.deploy,
    R.PH_MOVE: DragonPassHeuristic.move,
    R.PH_MOVE_GROUP: DragonPassHeuristic.move_group,
    R.PH_ARRANGE: DragonPassHeuristic.arrange,
    R.PH_BATTLE: DragonPassHeuristic.battle,
    R.PH_BATTLE_ADD: DragonPassHeuristic.battle_add,
    R.PH_MISSILE_TARGET: DragonPassHeuristic.missile_target,
    R.PH_MISSILE_CHOICE: DragonPassHeuristic.missile_choice,
    R.PH_MISSILE_CASUALTY: DragonPassHeuristic.missile_casualty,
    R.PH_RETREAT: DragonPassHeuristic.retreat,
    R.PH_RETREAT_HEX: DragonPassHeuristic.retreat_hex,
    R.PH_CASUALTY: DragonPassHeuristic.casualty,
    R.PH_ADVANCE: DragonPassHeuristic.advance,
    R.PH_ADVANCE_HEX: DragonPassHeuristic.advance_hex,
    R.PH_ADVANCE_EXT: DragonPassHeuristic.advance_ext,
    R.PH_ESCAPE_HEX: DragonPassHeuristic.escape_hex,
}
if hasattr(R, "PH_SCAPEGOAT"):
    _PHASES[R.PH_SCAPEGOAT] = DragonPassHeuristic.scapegoat
_PHASES.update({
    R.PH_DRAGONFIGHT: dragonfight,
    R.PH_JACK_AID: jack_aid,
    R.PH_JACK: jack,
    R.PH_SPEED: speed,
    R.PH_ALCHEMY: alchemy,
    R.PH_ALCHEMY_FACTOR: alchemy_factor,
    R.PH_PUPPET_DODGE: puppet_dodge,
    R.PH_HYDRA_FEED: hydra_feed,
    R.PH_EVENT_REMOVE: event_remove,
    R.PH_EVENT_REPLACE: event_replace,
    R.PH_GIANT_STEP: giant_step,
    R.PH_ZOMBIE_RISE: zombie_rise,
    R.PH_ZOMBIE_MARCH: zombie_march,
    R.PH_ENTER_HEX: enter_hex,
    R.PH_FORCE_MARCH: force_march,
    R.PH_SUMMON_HEX: summon_hex,
    R.PH_SACRIFICE: sacrifice,
})


# ------------------------------------------------------------------ search hooks
# (imported here, below the heuristic, so that registering them needs no other module)
from dragongym.agents.search_hooks import register_prior_only, register_value  # noqa: E402
from dragongym.envs.dragon_pass.constants import UW_DEAD, UW_OUT  # noqa: E402
from dragongym.envs.dragon_pass.rules.turns import scenario_winner  # noqa: E402

_CF_FRONT = np.array([CF[u][0] for u in range(NUM_UNITS)], dtype=np.float64)
MATERIAL_GAIN = 3.0
"""How steeply a lead in fighting strength moves a force's value: with half
again its opponent's CF a force's material term is ``tanh(0.6)``, about +0.54
(:func:`material`)."""


def winner_now(state):
    """Each force's reward if play ended in this position: the scenario's
    victory conditions (``turns.scenario_winner``) read now, in the reward
    scale (+1 the winner, -1 shared among the others; all 0 for a draw)."""
    rec = state[0]
    n = int(R.SCENARIO_PLAYERS[int(rec["scenario"])])
    w = int(scenario_winner(state, 0))
    out = np.zeros(n)
    if w >= 0:
        out[:] = -1.0 / (n - 1)
        out[w] = 1.0
    return out


def material(state):
    """Each force's lead in fighting strength, in the reward scale: the mean
    over its opponents ``q`` of ``tanh(MATERIAL_GAIN * (cf_f - cf_q) / (cf_f + cf_q))``,
    with ``cf`` the printed front-side CF of a force's counters neither dead
    nor out of the scenario (public, whatever screening hides): 0 for equal
    forces, near +1 for a force facing none; the values sum to 0."""
    rec = state[0]
    n = int(R.SCENARIO_PLAYERS[int(rec["scenario"])])
    where = rec["unit_where"][:NUM_UNITS]
    force = rec["unit_force"][:NUM_UNITS]
    alive = (where != UW_DEAD) & (where != UW_OUT)
    cf = np.array([_CF_FRONT[alive & (force == f)].sum() for f in range(n)])
    pair = cf[:, None] + cf[None, :]
    lead = np.tanh(MATERIAL_GAIN * (cf[:, None] - cf[None, :]) / np.where(pair > 0, pair, 1.0))
    return lead.sum(axis=1) / (n - 1)


def evaluate(state):
    """Per-force value of a Dragon Pass position in the reward scale (exact
    ``rewards`` once the game is over), used by MCTS at its depth cap.

    A running game is scored by who would win if it ended now
    (:func:`winner_now`) and by the fighting strength left to each force
    (:func:`material`), the first
    weighing more as the game nears its last game-turn (from 1/4 at the start
    to all of it at the end: places taken late are seldom lost again).
    It reads only public facts: who controls or occupies each place and which
    counters are dead, never the contents of screened stacks or the
    Diplomacy Points (the same value after ``DragonPass.determinize``)."""
    rec = state[0]
    n = int(R.SCENARIO_PLAYERS[int(rec["scenario"])])
    if int(rec["status"]) != 0:
        return np.asarray(rec["rewards"][:n], dtype=np.float64)
    max_turns = max(1, int(rec["max_turns"]))
    progress = min(1.0, max(0.0, (int(rec["turn"]) - 1) / max_turns))
    alpha = 0.25 + 0.75 * progress
    return alpha * winner_now(state) + (1.0 - alpha) * material(state)


register_value("dragon_pass", evaluate)

PRIOR_ONLY_PHASES = frozenset((R.PH_DEPLOY, R.PH_MOVE_GROUP, R.PH_ARRANGE, R.PH_ENTER_HEX, R.PH_ESCAPE_HEX,
                               R.PH_RETREAT_HEX, R.PH_ADVANCE_HEX, R.PH_ADVANCE_EXT, R.PH_FRACTURE, R.PH_PILLAR,
                               R.PH_ALLY_SETUP, R.PH_ZOMBIE_MARCH, R.PH_GIANT_STEP))
"""Decisions MCTS leaves to the heuristic (``prior_only``): where each unit is
set up, each step of a moving group and whom it takes along, the order of a
stack, the hex of an entry, retreat or advance, each hex of a fracture line
or a Pillar of Fire -- most of a game's decisions, each a small part of a
plan the heuristic makes as a whole. The search keeps the choices that
decide a phase: which stack moves next, which battles are fought and with
whom, targets, casualties, whether to retreat or advance, magic, diplomacy."""


def prior_only(state):
    """True where MCTS with ``prior_only`` plays the heuristic's pick without
    search: the pending decision's phase is in :data:`PRIOR_ONLY_PHASES`."""
    return int(state[0]["phase"]) in PRIOR_ONLY_PHASES


register_prior_only("dragon_pass", prior_only)

MAGIC_PHASES = frozenset((R.PH_COMMIT, R.PH_COMMIT_HEX, R.PH_SUPPORT, R.PH_SUPPORT_HEX, R.PH_MAGIC_CASUALTY,
                          R.PH_SAVE, R.PH_EXOTIC, R.PH_EXOTIC_TARGET, R.PH_SUMMON_HEX))
"""The magic decisions (spirits and agents committed, magical support, magic
casualties, a superhero's saves, exotic magic, the hex a summoned Runner comes
to) that the ``"magic"`` prior-only set also leaves to the heuristic. The value
at the rollout's cut counts printed CF, not magic, so a search of them spends
magic for nothing it can see: in 18.4, MCTS with them left to the heuristic
won as Sartar where searching them did not (agents/LADDER.md)."""


def prior_only_with_magic(state):
    """:func:`prior_only`, and the magic decisions (:data:`MAGIC_PHASES`) too."""
    phase = int(state[0]["phase"])
    return phase in PRIOR_ONLY_PHASES or phase in MAGIC_PHASES


register_prior_only("dragon_pass", prior_only_with_magic, name="magic")
