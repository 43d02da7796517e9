"""Named codes shared by the Dragonhunt data files, rules core and observations.

Plain ints (module-level constants are frozen into the compiled rules, which is
what we want for codes that never change).
"""

MAX_PLAYERS = 6
NUM_KINGDOMS = 6

# --- terrain of a board cell (9.32, 9.7) -----------------------------------
OPEN, FOREST, MOUNTAIN, SWAMP, CASTLE, VILLAGE, COTTAGE, DRAGON_LAIR, BEING_LAIR = range(9)
TERRAIN_NAMES = ("open", "forest", "mountain", "swamp", "castle", "village",
                 "cottage", "dragon lair", "being lair")
NUM_TERRAINS = 9

# --- player unit types (Equipment; 3.11; Unit Strength Table) ---------------
HERO, SNIPER, KNIGHT, MAN_AT_ARMS = range(4)
UNIT_TYPE_NAMES = ("hero", "sniper", "knight", "man-at-arms")
# Each colour owns 39 counters, indexed inside the colour as:
#   0 hero | 1..2 snipers | 3..14 knights | 15..38 men-at-arms
UNITS_PER_COLOUR = 39
FIRST_OF_TYPE = (0, 1, 3, 15)
COUNT_OF_TYPE = (1, 2, 12, 24)
NUM_UNITS = UNITS_PER_COLOUR * MAX_PLAYERS

# --- the ten Fantastic Beings (section 15) ---------------------------------
BANISHER, BERSERKER, DEMON, DISPERSER, DRAGON_CHARMER, EAGLE, PARALYZER, REVIVOR, TELEPORTER, TROLL = range(10)
BEING_NAMES = ("Banisher", "Berserker", "Demon", "Disperser", "Dragon Charmer",
               "Eagle", "Paralyzer", "Revivor", "Teleporter", "Troll")
NUM_BEINGS = 10
CAVE, HOLLOW_TREE = 0, 1          # the two being lairs (1.21, 1.22)

# --- Brimstone combat table results (Brimstone the Dragon Combat Table) -----
# Attempting to wound (1st wound / 2nd-3rd wound / do or die columns):
R_ALL_KILLED = 0                  # all attackers killed
R_ALL_WOUNDED = 1                 # all attackers are wounded
R_ONE_KILLED = 2                  # one attacker dies
R_ONE_WOUNDED = 3                 # one attacker is wounded
R_ONE_KILLED_ATTACKS_CASTLE = 4   # one attacker killed, Brimstone attacks your castle and returns to his lair
R_ONE_WOUNDED_ATTACKS_CASTLE = 5  # one attacker wounded, Brimstone attacks your castle and returns to his lair
R_THREE_KILLED = 6                # three attackers are killed
R_TWO_KILLED = 7                  # two attackers are killed
R_DRAW_CARD = 8                   # draw a dragon card
R_DRAGON_WOUNDED = 9              # Brimstone is wounded
R_NO_EFFECT = 10                  # nothing happens
# Brimstone attacks a single piece or Fantastic Being:
R_DEFENDER_KILLED = 11
R_DEFENDER_WOUNDED = 12
R_DEFENDER_UNHARMED = 13
# Brimstone attacks a castle, village or cottage: R_OCCUPANTS_DIE_1 + k - 1 = k occupants die
R_OCCUPANTS_DIE_1 = 20            # 20..24 = one..five occupants die
RESULT_NAMES = {
    0: "all attackers killed", 1: "all attackers wounded", 2: "one attacker dies",
    3: "one attacker is wounded", 4: "one attacker killed, Brimstone attacks your castle",
    5: "one attacker wounded, Brimstone attacks your castle", 6: "three attackers killed",
    7: "two attackers killed", 8: "draw a dragon card", 9: "Brimstone is wounded",
    10: "no effect", 11: "Brimstone kills the defender", 12: "the defender is wounded",
    13: "the defender is unharmed", 20: "one occupant dies", 21: "two occupants die",
    22: "three occupants die", 23: "four occupants die", 24: "five occupants die",
}
# Columns of the combat table
COL_FIRST_WOUND, COL_LATER_WOUND, COL_SINGLE_PIECE, COL_STRUCTURE, COL_DO_OR_DIE = range(5)
COMBAT_TABLE_MAX_TOTAL = 20       # totals above this read the last row

# --- dragon card kinds (7.6) ------------------------------------------------
(CARD_DO_OR_DIE,                  # 7.61
 CARD_ATTACKS_CASTLE_OF_CHOICE,   # 7.62
 CARD_ATTACKS_VILLAGE_OF_CHOICE,  # 7.62
 CARD_ATTACKS_COTTAGE_OF_CHOICE,  # 7.62 + 7.65
 CARD_MOVES_FIVE_OF_CHOICE,       # 7.62
 CARD_ATTACKS_YOUR_CASTLE,        # 7.63
 CARD_ATTACKS_YOUR_VILLAGE,       # 7.63
 CARD_ATTACKS_YOUR_COTTAGE,       # 7.63 + 7.65
 CARD_KILLS_ADJACENT,             # 7.641
 CARD_WOUNDS_ADJACENT,            # 7.641
 CARD_KILLS_WITHIN_TWO,           # 7.642
 CARD_WOUNDS_WITHIN_TWO,          # 7.642
 CARD_KILLS_ATTACKING_FORCE,      # 7.644
 CARD_WOUNDS_ATTACKING_FORCE,     # 7.644
 CARD_KILLS_TWO,                  # 7.645
 CARD_FLIES_SIX_RANDOM,           # 7.66
 CARD_NAP,                        # 7.67
 CARD_FLAMES_YOUR_COTTAGE,        # 7.68
 CARD_FLAMES_COTTAGE_OF_CHOICE,   # 7.68
 ) = range(19)
NUM_CARD_KINDS = 19
DECK_SIZE = 24

# --- movement cards (9.1, 9.31); values are a substitute, see SUBSTITUTES.md
CARDS_PER_PLAYER = 6
