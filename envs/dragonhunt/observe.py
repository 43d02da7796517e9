"""Per-player observation tensors for Dragonhunt.

What a seat may know and nothing more: the whole board is public (units,
wounds, flames, beings, the dragon), as are revealed cards and markers. Hidden
until the rules reveal them: the cards the others have laid face down this
turn (9.11) and the order of the dragon deck and of the beings pile (which
never exist in the state: cards and beings are drawn at random when needed).

Seats are rotated so the observer is always seat 0 ("rel" = seats to the
observer's left). The vector is a board block of shape ``(NUM_CELLS,
NUM_PLANES)`` (cell-major: reshape to planes for a conv net) followed by flat
feature blocks; ``LAYOUT`` gives every block's offset and shape. The board's
fixed terrain is not repeated in every observation: it is the same for every
game (``data.TERRAIN``) and a network learns it per cell.
"""
import numpy as np

from dragongym.envs.core.jit import rules_jit

from . import data as D
from .constants import MAX_PLAYERS, NUM_UNITS, UNITS_PER_COLOUR, NUM_BEINGS, NUM_CARD_KINDS, DECK_SIZE
from .rules import (
    NC, UNIT_TYPE, UNIT_COLOUR, DECK, CASTLE_CELL, VILLAGE_CELL, COTTAGE_CELL, LAIR_CELL,
    ST_CARDS, PH_CARD_STRUCT,
)
from .state import F_WOUNDED, F_HARRIED, F_IN_FORCE, LOC_DEAD, LOC_RESERVE

# ---- board planes (per cell)
P_MY_HOME = 0            # a structure of my kingdom
P_OPP_HOME = 1           # a structure of another player's kingdom
P_MY_UNITS = 2           # 2..5: my heroes, snipers, knights, men-at-arms (counts / 4)
P_OPP_UNITS = 6          # 6..9: opponents' units by type (counts / 4)
P_OPP_SEAT = 10          # relative seat of the opponent on the cell (rel / 5)
P_NEUTRAL = 11           # non-player garrison counters (count / 4)
P_WOUNDED = 12           # wounded units healing here (count / 4)
P_HARRIED = 13           # harried units (count)
P_DRAGON = 14            # Brimstone
P_BEING = 15             # 15, 16: the being of lair slot 0 / 1
P_FLAMED = 17            # flamed cottage
P_MY_SWORD = 18          # my magesword (lying or wielded)
P_OPP_SWORD = 19         # another player's magesword
P_SELECTED = 20          # pending context: selected cell / unit
P_TARGET = 21            # pending context: target cell / eagle cell / structure assaulted
P_IN_FORCE = 22          # units of the current attack force / assault
P_FIVE_PATH = 23         # spaces Brimstone passed on the five-space move (7.62)
NUM_PLANES = 24

NUM_PHASES = 32
NUM_STAGES = 10
BLOCKS = [
    ("board", (NC, NUM_PLANES)),
    ("phase", (NUM_PHASES,)),
    ("stage", (NUM_STAGES,)),
    ("to_play", (MAX_PLAYERS,)),        # relative seat to decide (0 = me)
    ("num_players", (MAX_PLAYERS,)),    # one-hot, index n-1
    ("progress", (6,)),                 # hand/10, turn one-hot 4, brimstone_rounds/40
    ("dragon", (3,)),                   # enraged, asleep, in lair
    ("dice", (12,)),                    # pending dice one-hot (die0, die1)
    ("movement", (1,)),                 # movement points left / 12
    ("my_cards", (6,)),                 # cards still in my hand
    ("cards_played", (MAX_PLAYERS, 6)), # this turn's card per relative seat, once revealed (mine always)
    ("wounds", (MAX_PLAYERS,)),         # dragon wound markers / 3 per relative seat
    ("magic_defense", (2,)),            # my markers in the cottage / carried (/4)
    ("round_order", (MAX_PLAYERS,)),    # position of each relative seat in the round order / 5 (-1 unknown)
    ("markers", (2, MAX_PLAYERS)),      # holder of the Being Choice / Second Being marker
    ("beings", (2, NUM_BEINGS)),        # being in lair slot 0 / 1
    ("being_pile", (NUM_BEINGS,)),      # beings face down in the pile (public by elimination)
    ("deck", (NUM_CARD_KINDS,)),        # dragon cards of each kind still to be drawn / 3
    ("context", (12,)),                 # sel_type one-hot 5, casualties/3, do_or_die, combat_started, five_left/5, active slot, order_pos/5, card kind pending/18
    ("dead", (MAX_PLAYERS, 4)),         # dead-pile counts per relative seat and type (/12)
    ("reserve", (MAX_PLAYERS, 4)),      # never-played counts per relative seat and type (/24)
]
LAYOUT = {}
_off = 0
for _name, _shape in BLOCKS:
    LAYOUT[_name] = (_off, _shape)
    _off += int(np.prod(_shape))
OBS_SIZE = _off

O_BOARD = LAYOUT["board"][0]
O_PHASE = LAYOUT["phase"][0]
O_STAGE = LAYOUT["stage"][0]
O_TO_PLAY = LAYOUT["to_play"][0]
O_NPLAY = LAYOUT["num_players"][0]
O_PROGRESS = LAYOUT["progress"][0]
O_DRAGON = LAYOUT["dragon"][0]
O_DICE = LAYOUT["dice"][0]
O_MOVE = LAYOUT["movement"][0]
O_MYCARDS = LAYOUT["my_cards"][0]
O_PLAYED = LAYOUT["cards_played"][0]
O_WOUNDS = LAYOUT["wounds"][0]
O_MD = LAYOUT["magic_defense"][0]
O_ORDER = LAYOUT["round_order"][0]
O_MARKERS = LAYOUT["markers"][0]
O_BEINGS = LAYOUT["beings"][0]
O_PILE = LAYOUT["being_pile"][0]
O_DECK = LAYOUT["deck"][0]
O_CONTEXT = LAYOUT["context"][0]
O_DEAD = LAYOUT["dead"][0]
O_RESERVE = LAYOUT["reserve"][0]


@rules_jit
def bp(cell, plane):
    """Index of (cell, plane) inside the observation."""
    return O_BOARD + cell * NUM_PLANES + plane


@rules_jit
def observe_one(S, b, me, obs):
    """Write game b as seat ``me`` may know it into ``obs`` (float32[OBS_SIZE])."""
    s = S[b]
    n = int(s['num_players'])
    for i in range(OBS_SIZE):
        obs[i] = 0.0
    # --- board
    for p in range(n):
        k = int(s['kingdom'][p])
        if k < 0:
            continue
        plane = P_MY_HOME if p == me else P_OPP_HOME
        obs[bp(int(CASTLE_CELL[k]), plane)] = 1.0
        obs[bp(int(VILLAGE_CELL[k]), plane)] = 1.0
        obs[bp(int(COTTAGE_CELL[k]), plane)] = 1.0
        if s['flamed'][k]:
            obs[bp(int(COTTAGE_CELL[k]), P_FLAMED)] = 1.0
    for u in range(NUM_UNITS):
        loc = int(s['unit_loc'][u])
        col = int(UNIT_COLOUR[u])
        t = int(UNIT_TYPE[u])
        if loc < 0:
            if col < n:
                rel = (col - me + n) % n
                if loc == LOC_DEAD:
                    obs[O_DEAD + rel * 4 + t] += 1.0 / 12.0
                elif loc == LOC_RESERVE:
                    obs[O_RESERVE + rel * 4 + t] += 1.0 / 24.0
            continue
        if col >= n:
            obs[bp(loc, P_NEUTRAL)] += 0.25
        elif col == me:
            obs[bp(loc, P_MY_UNITS + t)] += 0.25
        else:
            obs[bp(loc, P_OPP_UNITS + t)] += 0.25
            obs[bp(loc, P_OPP_SEAT)] = ((col - me + n) % n) / 5.0
        f = int(s['unit_flags'][u])
        if f & F_WOUNDED:
            obs[bp(loc, P_WOUNDED)] += 0.25
        if f & F_HARRIED:
            obs[bp(loc, P_HARRIED)] = 1.0
        if f & F_IN_FORCE:
            obs[bp(loc, P_IN_FORCE)] += 0.25
    obs[bp(int(s['dragon_cell']), P_DRAGON)] = 1.0
    for slot in range(2):
        k = int(s['slot_being'][slot])
        if k >= 0:
            obs[O_BEINGS + slot * NUM_BEINGS + k] = 1.0
            if s['slot_loc'][slot] >= 0:
                obs[bp(int(s['slot_loc'][slot]), P_BEING + slot)] = 1.0
    for p in range(n):
        plane = P_MY_SWORD if p == me else P_OPP_SWORD
        if s['sword_loc'][p] >= 0:
            obs[bp(int(s['sword_loc'][p]), plane)] = 1.0
        h = int(s['sword_holder'][p])
        if h >= 0 and s['unit_loc'][h] >= 0:
            obs[bp(int(s['unit_loc'][h]), plane)] = 1.0
    if s['sel_cell'] >= 0 and s['phase'] != 0:
        obs[bp(int(s['sel_cell']), P_SELECTED)] = 1.0
    if s['target_cell'] >= 0 and s['phase'] != 0:
        obs[bp(int(s['target_cell']), P_TARGET)] = 1.0
    if s['struct_cell'] >= 0:
        obs[bp(int(s['struct_cell']), P_TARGET)] = 1.0
    if s['five_left'] > 0:
        for i in range(6):
            c = int(s['five_path'][i])
            if c >= 0:
                obs[bp(c, P_FIVE_PATH)] = 1.0
    # --- flat features
    obs[O_PHASE + int(s['phase'])] = 1.0
    obs[O_STAGE + int(s['stage'])] = 1.0
    if s['to_play'] >= 0:
        obs[O_TO_PLAY + (int(s['to_play']) - me + n) % n] = 1.0
    obs[O_NPLAY + n - 1] = 1.0
    obs[O_PROGRESS] = s['hand'] / 10.0
    obs[O_PROGRESS + 1 + int(s['turn']) % 4] = 1.0
    obs[O_PROGRESS + 5] = s['brimstone_rounds'] / 40.0
    obs[O_DRAGON] = 1.0 if s['enraged'] else 0.0
    obs[O_DRAGON + 1] = 1.0 if s['asleep_until'] >= 0 else 0.0
    obs[O_DRAGON + 2] = 1.0 if s['dragon_cell'] == LAIR_CELL else 0.0
    if s['die0'] > 0:
        obs[O_DICE + int(s['die0']) - 1] = 1.0
    if s['die1'] > 0:
        obs[O_DICE + 6 + int(s['die1']) - 1] = 1.0
    obs[O_MOVE] = s['mp_left'] / 12.0
    for i in range(6):
        if int(s['cards_in_hand'][me]) & (1 << i):
            obs[O_MYCARDS + i] = 1.0
    revealed = s['stage'] != ST_CARDS
    for p in range(n):
        c = int(s['card_played'][p])
        if c >= 0 and (revealed or p == me):
            obs[O_PLAYED + ((p - me + n) % n) * 6 + c] = 1.0
        obs[O_WOUNDS + (p - me + n) % n] = s['wounds'][p] / 3.0
    obs[O_MD] = s['md_cottage'][me] / 4.0
    obs[O_MD + 1] = s['md_carried'][me] / 4.0
    for i in range(MAX_PLAYERS):
        obs[O_ORDER + i] = -1.0
    if revealed:
        for pos in range(n):
            p = int(s['round_order'][pos])
            if p >= 0:
                obs[O_ORDER + (p - me + n) % n] = pos / 5.0
    if s['choice_player'] >= 0 and s['stage'] > 1:
        obs[O_MARKERS + (int(s['choice_player']) - me + n) % n] = 1.0
        obs[O_MARKERS + MAX_PLAYERS + (int(s['second_player']) - me + n) % n] = 1.0
    pile = int(s['being_pile'])
    for k in range(NUM_BEINGS):
        if pile & (1 << k):
            obs[O_PILE + k] = 1.0
    left = int(s['deck_left'])
    for i in range(DECK_SIZE):
        if left & (1 << i):
            obs[O_DECK + int(DECK[i])] += 1.0 / 3.0
    st = int(s['sel_type'])
    if s['phase'] != 0 and st >= 0 and st < 5 and s['phase'] != PH_CARD_STRUCT:
        obs[O_CONTEXT + st] = 1.0
    obs[O_CONTEXT + 5] = s['casualties'] / 3.0
    obs[O_CONTEXT + 6] = 1.0 if s['do_or_die'] else 0.0
    obs[O_CONTEXT + 7] = 1.0 if s['combat_started'] else 0.0
    obs[O_CONTEXT + 8] = s['five_left'] / 5.0
    obs[O_CONTEXT + 9] = float(s['active_slot'])
    obs[O_CONTEXT + 10] = s['order_pos'] / 5.0
    if s['phase'] == PH_CARD_STRUCT:
        obs[O_CONTEXT + 11] = (st + 1) / 19.0
