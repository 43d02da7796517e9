"""The Dragonhunt state record: one numpy structured record per game.

Every field has a fixed size; variable things are padded with -1. Index
layouts are written beside the fields. Fields are ordered by item size so the
dtype has no padding (asserted below), which makes ``tobytes()`` a faithful
serialisation and hash of a position.

Locations: a unit, being or the dragon sits on a board *cell* (0..NC-1); a
multi-hex castle or village is one space, and anything inside it sits on the
space's canonical cell (``data.SPACE``). Units off the board use negative codes
(``LOC_*``).
"""
import numpy as np

from .constants import MAX_PLAYERS, NUM_UNITS, NUM_BEINGS
from . import data

NC = data.NUM_CELLS

# Off-board unit locations.
LOC_RESERVE = -1   # never yet brought into play (reinforcement pool, 12.4)
LOC_DEAD = -2      # dead pile: may return as a replacement (12.3)
LOC_OUT = -3       # out of play for good (Demon's kill 15.63; wounded non-player 9.614)

# unit_flags bits
F_WOUNDED = 1      # healing in the home cottage until the owner's next movement segment (9.5)
F_HARRIED = 2      # harried by the Eagle: may not move or attack this Player's round (15.665)
F_ATTACKED = 4     # has made its one attack this combat segment (9.44)
F_SNIPED = 8       # has made its one snipe this round (9.641)
F_IN_FORCE = 16    # chosen for the dragon attack force (9.81)
F_DEMON_KILL = 32  # killed by the Demon: may never be revived (15.682)
F_MOVED_IN = 64    # occupied a space/structure by victory this segment (9.481, 9.612)

STATE_FIELDS = [
    # --- 8-byte fields
    ("seed", np.uint64),            # counter-based RNG stream of this game
    ("rng_counter", np.uint64),     # draws taken so far
    # --- 4-byte fields
    ("rewards", np.float32, (MAX_PLAYERS,)),  # final reward per seat
    ("score", np.float32, (MAX_PLAYERS,)),    # outcome: the game's own score (Dragonhunt has none: 0)
    ("decisions", np.int32),        # decisions taken (actions applied, auto ones included)
    ("brimstone_rounds", np.int32), # Brimstone's rounds started so far (ids rounds for 9.841, 7.67)
    ("enraged_until", np.int32),    # he calms at the end of Brimstone's round with this id (9.841)
    ("asleep_until", np.int32),     # he naps through Brimstone's round with this id (7.67); -1 awake
    ("deck_left", np.uint32),       # bit i set = dragon card i is still in the draw pile (7.6)
    # --- 2-byte fields
    ("unit_loc", np.int16, (NUM_UNITS,)),  # colour c, index i -> [c*39 + i]; see constants
    ("cell_count", np.int16, (NC,)),       # number of units (not beings/dragon) on each cell
    ("slot_loc", np.int16, (2,)),          # cell of the being of lair slot 0 Cave / 1 Hollow Tree
    ("dragon_cell", np.int16),
    ("sword_loc", np.int16, (MAX_PLAYERS,)),     # cell where a materialised, unheld magesword lies; -1
    ("sword_holder", np.int16, (MAX_PLAYERS,)),  # unit wielding the sword; -1
    ("md_holder", np.int16, (MAX_PLAYERS,)),     # unit carrying the magical defense markers; -1
    ("being_pile", np.int16),       # bit k set = being k lies face down in the pile (1.23)
    ("hand", np.int16),             # hands started (1-based once play begins)
    ("max_hands", np.int16),        # config: truncate (draw) after this many hands
    ("sel_cell", np.int16),         # pending context: the selected cell (unit source / being)
    ("sel_unit", np.int16),         # pending context: the selected unit
    ("target_cell", np.int16),      # pending context: the attacked cell
    ("struct_cell", np.int16),      # structure under assault this combat segment; -1
    ("eagle_cell", np.int16),       # pending: cell the Eagle harried / carried to
    ("five_path", np.int16, (6,)),  # cells Brimstone passed on the five-space move of choice (7.62); -1
    # --- 1-byte fields
    ("unit_flags", np.uint8, (NUM_UNITS,)),
    ("cell_colour", np.int8, (NC,)),        # colour of the units on each cell; -1 none
    ("num_players", np.int8),
    ("to_play", np.int8),           # seat that decides now; -1 when the game is over
    ("status", np.int8),            # 0 running, 1 terminated (Brimstone slain), 2 truncated
    ("rank", np.int8, (MAX_PLAYERS,)),  # outcome per seat once over: slayer 1, others 2; all 1 if truncated
    ("auto_single", np.int8),       # config: apply a lone legal action without asking
    ("stage", np.int8),             # macro position in the sequence of play (ST_*)
    ("phase", np.int8),             # the decision now pending (PH_*)
    ("turn", np.int8),              # 0..3 turn within the hand (11)
    ("kingdom", np.int8, (MAX_PLAYERS,)),      # seat -> kingdom; -1 not chosen
    ("colour_kingdom", np.int8, (MAX_PLAYERS,)),  # colour -> kingdom it garrisons/owns; -1
    ("wounds", np.int8, (MAX_PLAYERS,)),       # dragon wound markers (9.83)
    ("md_cottage", np.int8, (MAX_PLAYERS,)),   # magical defense markers lying in the home cottage (15.635)
    ("md_carried", np.int8, (MAX_PLAYERS,)),   # markers carried by md_holder
    ("cards_in_hand", np.int8, (MAX_PLAYERS,)),  # bit i = movement card i still in hand (9.1, 12.1)
    ("card_played", np.int8, (MAX_PLAYERS,)),  # card index played this turn; -1
    ("round_order", np.int8, (MAX_PLAYERS,)),  # seats in Player's-round order; -1 padding
    ("flamed", np.int8, (MAX_PLAYERS,)),       # kingdom -> its cottage carries a flame marker (7.68)
    ("slot_being", np.int8, (2,)),             # being in lair slot 0 / 1
    ("setup_first", np.int8),       # first player of the set-up (2)
    ("choice_player", np.int8),     # holds the Being Choice Marker (3.51, 9.13)
    ("second_player", np.int8),     # holds the Second Being Marker (3.52, 9.13)
    ("dragon_first", np.int8),      # who moves Brimstone first next round (6, 12.53)
    ("enraged", np.int8),           # 1 = Brimstone's ENRAGED counter is in play (9.84)
    ("order_pos", np.int8),         # index into round_order of the player now acting
    # --- the pending decision's place in its round (one field per round; each
    #     is reset when its round begins and meaningful only during it)
    ("kingdoms_chosen", np.int8),   # set-up: kingdoms chosen so far; seat setup_first+i chooses next (3.1, 2.3)
    ("placer", np.int8),            # seat now placing a unit: set-up (3.3), replacements (12.3), reinforcements (12.5); -1
    ("dragon_moves_made", np.int8), # Brimstone's round: moves made so far (6.1, 6.11)
    ("round_cut_short", np.int8),   # 1 once Brimstone struck a structure: his round is over (7.541)
    ("being_step", np.int8),        # Fantastic Being round: BP_* sub-step of the active being (8, 15.62)
    ("cards_laid", np.int8),        # card segment: seats that have laid their card; seat i lays next (9.11)
    ("segment", np.int8),           # Player's round: SEG_* segment of the acting player (9.2)
    ("mp_left", np.int8),           # movement points left this movement segment (9.31)
    ("die0", np.int8),              # pending dice (7.11, 8.21)
    ("die1", np.int8),
    ("sel_type", np.int8),          # pending context: unit type chosen
    ("active_slot", np.int8),       # being slot moved this Fantastic Being round
    ("being_moves", np.int8),       # moves/attacks left for the Berserker's fury (15.62)
    ("casualties", np.int8),        # attackers still to be chosen as casualties
    ("casualty_kill", np.int8),     # 1 kill / 0 wound the chosen casualties
    ("do_or_die", np.int8),         # 1 while a do-or-die attack goes on (7.61)
    ("combat_started", np.int8),    # a normal attack was resolved this segment (9.6422)
    ("teleport_user", np.int8),     # seat that used the Teleporter this turn (15.692); -1
    ("place_type", np.int8),        # growth: unit type being placed (12.51)
    ("winner", np.int8),            # seat that slew Brimstone; -1
    ("reinf_left", np.int8, (MAX_PLAYERS, 2)),  # [seat, 0 men-at-arms / 1 knights (or snipers while replacing)] still to place
    ("placed_last", np.int8),       # seat that placed the last unit (12.53)
    ("loaded", np.int8, (16,)),     # loaded dice for scenario tests: raw results of the next rolls
    ("loaded_count", np.int8),      # how many of ``loaded`` are set
    ("loaded_pos", np.int8),        # how many of them were used
    ("loaded_card", np.int8),       # 1 + index of the dragon card to draw next; 0 = shuffled draw
    ("place_start", np.int8),       # seat that opens each placement rotation (3.31, 3.32, 12.5)
    ("after_casualty", np.int8),    # what follows the casualty choices (AC_*)
    ("five_left", np.int8),         # spaces left of the five-space move of choice (7.62)
]
STATE_DTYPE = np.dtype(STATE_FIELDS)


def _assert_no_padding(dt):
    total = sum(dt.fields[n][0].itemsize for n in dt.names)
    assert total == dt.itemsize, "state dtype has padding bytes"


_assert_no_padding(STATE_DTYPE)
