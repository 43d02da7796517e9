"""The Dragon Pass state record: one numpy structured record per game.

Units are counters (``constants.UNIT_IDS``); where each is, which side is up
and its stack position are per-unit fields. A hex's stack is the units with
that ``unit_hex``, bottom to top by ``unit_order`` (a unit put on a stack gets
the next ``order_clock`` value, so it lands on top). The map itself is
static (``board.py``); only fortress control is per game.

Fields are ordered by item size so the dtype has no padding (asserted below):
``tobytes()`` is then a faithful serialisation and hash of a position.
"""
import numpy as np

from .board import FORTRESS_NAMES
from .constants import NUM_FORCES, NUM_UNITS
from .unitdata import FACTIONS

NUM_FORTRESSES = len(FORTRESS_NAMES)
NUM_SITES = 3
"""Sites of a victory condition that are not fortresses: 18.6's Rich Post,
Wintertop and Wild Temple (L293; rules/base.py SITE_HEX)."""
MAX_BATTLE_STACKS = 6
"""A battle's attacking stacks are all adjacent to each of its defending
stacks (L582), so either side has at most the six neighbours of a hex."""
MAX_LOADED = 16
MAX_FRACTURE_HEXES = 10
"""An earthquake's fracture hexes: 8 (Type 1) or 2 x 5 (Type 2) (L720)."""
NUM_MAJORS = 7
"""The Major Independents, in the order of the Diplomacy Points table (L1002):
the Dragonewts, Sir Ethilrist, Cragspider, the Exiles, Ironhoof, the
Grazelanders, Androgeus (rules/alliance.py MAJORS)."""
NUM_FACTIONS = len(FACTIONS)
"""Every Independent and the giants (unitdata.FACTIONS): the Majors first."""
PILLAR_HEXES = 3
"""The Pillar of Fire covers a triangle of 3 hexes, each adjacent to the other two (L764)."""

STATE_FIELDS = [
    # --- 8-byte fields
    ("seed", np.uint64),            # counter-based RNG stream of this game
    ("rng_counter", np.uint64),     # draws taken so far
    # --- 4-byte fields
    ("rewards", np.float32, (NUM_FORCES,)),   # final reward per seat
    ("score", np.float32, (NUM_FORCES,)),     # fortresses controlled at the end, per seat
    ("decisions", np.int32),        # decisions taken (automatic ones included)
    ("order_clock", np.int32),      # the next stack position handed out
    ("unit_order", np.int32, (NUM_UNITS,)),   # stack position: higher is nearer the top
    # --- 2-byte fields
    ("unit_hex", np.int16, (NUM_UNITS,)),     # hex of a unit on the map; -1
    ("unit_dead_hex", np.int16, (NUM_UNITS,)),  # where a hero was eliminated (L642); -1
    ("unit_disrupted_at", np.int16, (NUM_UNITS,)),  # player-turn number it was disrupted in (L590)
    ("unit_target", np.int16, (NUM_UNITS,)),  # missile fire: the hex of the stack it fires on; -1
    ("unit_scapegoat", np.int16, (NUM_UNITS,)),  # a berserk superhero's scapegoat (L654-L656); -1
    ("sel_hex", np.int16),          # movement: hex of the selected stack / moving group; -1
    ("group_start", np.int16),      # movement: hex the group started from; -1
    ("arr_hex", np.int16),          # the stack being arranged; -1
    ("bat_att", np.int16, (MAX_BATTLE_STACKS,)),  # the battle's attacking stacks' hexes; -1
    ("bat_def", np.int16, (MAX_BATTLE_STACKS,)),  # its defending stacks' hexes; -1
    ("bat_vacated", np.int16, (MAX_BATTLE_STACKS,)),  # defending hexes emptied by the melee (L600); -1
    ("att_total", np.int16),        # the attack's CF total, fractions dropped (L582)
    ("def_total", np.int16),        # the counter-attack's (L584)
    ("loss_left", np.int16),        # melee: CF loss still to take; missile: disruptions to take
    ("elim_left", np.int16),        # missile: eliminations still to take
    ("cursor", np.int16),           # a step's position in a list (stack k of the battle, unit u, ...)
    ("player_turn", np.int16),      # player-turns begun (1-based)
    ("adv_unit", np.int16),         # advance after combat: the unit advancing; -1
    ("magic_hex", np.int16),        # physical magic: the defending stack being struck; -1
    ("magic_def_loss", np.int16),   # the battle's magic: the defenders' loss rolled (chaotic: units; spirit: MgF)
    ("magic_att_loss", np.int16),   # and the attackers' (L518, L546)
    ("exotic_hex", np.int16),       # the Exotic Magic Phase: the hex the effect being applied strikes; -1
    ("cloak_hex", np.int16),        # the Cloak of Darkness's hex while its cloud lasts (L752, rules/ethilrist.py); -1
    ("bat_prey", np.int16),         # an enemy hero the Bat's chaotic magic eliminated, feeding it if it fails to escape; -1
    ("unit_flags", np.int16, (NUM_UNITS,)),   # UF_* bits of the current phase
    ("fracture_hexes", np.int16, (MAX_FRACTURE_HEXES,)),  # the earthquake's fracture hexes in the order laid
                                    # (a Type 2's first line in 0..4, its second in 5..9); -1 (L720, rules/quake.py)
    ("pillar_hexes", np.int16, (PILLAR_HEXES,)),  # Cragspider's Pillar of Fire: its triangle's hexes in the
                                    # order chosen while it is unleashed; -1 (L764, rules/pillar.py)
    # --- 1-byte fields: configuration and the sequence of play
    ("num_players", np.int8),       # seats: 2 (the common field)
    ("scenario", np.int8),          # config: constants.SCENARIOS index
    ("screening", np.int8),         # config: 1 = the screening option (L452)
    ("auto_single", np.int8),       # config: apply a lone legal action without asking
    ("with_missile", np.int8),      # the scenario uses missile fire (18.2, 18.3; L219, L234)
    ("max_turns", np.int8),         # the scenario's game-turns (L204, L219, L234)
    ("rain", np.int8),              # 1 while it rains (L466; set by random events 14-16 and the Stormwalkers' storm, L688)
    ("to_play", np.int8),           # seat that decides now; -1 when the game is over
    ("status", np.int8),            # 0 running, 1 terminated, 2 truncated
    ("rank", np.int8, (NUM_FORCES,)),  # outcome per seat once over (1 = best)
    ("stage", np.int8),             # macro position in the sequence of play (ST_*)
    ("phase", np.int8),             # the decision now pending (PH_*)
    ("step", np.int8),              # position inside the stage's steps (rules' CS_* / MS_* codes)
    ("turn", np.int8),              # game-turn (1-based once play begins)
    ("active", np.int8),            # the force whose player-turn it is (L106)
    ("first_force", np.int8),       # the force that plays first in each game-turn
    ("deploying", np.int8),         # the force now deploying
    ("group_moved", np.int8),       # movement: the group has taken a step
    ("group_zoc_start", np.int8),   # movement: the group began in an enemy ZOC (L460)
    ("group_arranged", np.int8),    # movement: the selected stack was just arranged
    ("bat_slow", np.int8, (MAX_BATTLE_STACKS,)),  # a slow unit retreated from defending stack k (L578)
    ("firing", np.int8),            # missile: 1 while the defender's fire is resolved, 0 the attacker's
    ("missile_code", np.int8),      # missile: the table result being taken (tables.missile_codes index)
    ("fortress_owner", np.int8, (NUM_FORTRESSES,)),  # force controlling each fortress (L217)
    ("site_owner", np.int8, (NUM_SITES,)),   # who controls each site the victory conditions name that is no fortress (base.SITE_HEX); -1 no one
    ("freeze_turn", np.int8),       # the game-turn Ironhoof froze the cavalry in, once per game (L782); 0 not yet
    ("freeze_asked", np.int8),      # this player-turn's controller of Ironhoof has been asked whether to freeze
    ("units_end", np.int16),        # one past the last counter this game can bring into play (rules.units_end)
    ("unit_where", np.int8, (NUM_UNITS,)),    # UW_* (constants)
    ("unit_force", np.int8, (NUM_UNITS,)),    # the force controlling it (rules.force_of)
    ("unit_side", np.int8, (NUM_UNITS,)),     # SIDE_FRONT / SIDE_BACK (disrupted, or berserk)
    ("unit_mp", np.int8, (NUM_UNITS,)),       # half movement points left in this movement phase
    ("unit_road", np.int8, (NUM_UNITS,)),     # secondary-road hexes in a row (every third is free, L364)
    ("unit_entry", np.int8, (NUM_UNITS,)),    # the edge an entering unit comes in by (ENTRY_*); -1
    ("unit_origin", np.int8, (NUM_UNITS,)),   # a herd's original owner while away from it (rules.ORIGIN_*, L592)
    ("unit_blame", np.int8, (NUM_UNITS,)),    # 1: by its magic (its spirit's, its agent's, its chaotic MgF) a best friend fell this battle (L654)
    # --- scenario tests: loaded chance (core/rng.py::roll)
    ("loaded", np.int8, (MAX_LOADED,)),  # raw results of the next rolls
    ("loaded_count", np.int8),      # how many of ``loaded`` are set
    ("loaded_pos", np.int8),        # how many of them were used
    # --- magic in the combat phase (rules/magic.py)
    ("magic_kind", np.int8),        # 1 while phase A lasts, 2-3 phase C; in a battle the MK_* losses being taken
    ("magic_step", np.int8),        # the battle's magic step (magic.MS_*)
    ("magic_excess", np.int8),      # spirit magic: the loss exceeds the non-negative defenders' MgF (L554)
    # --- the Exotic Magic Phase (rules/exotic.py)
    ("exotic_effect", np.int8),     # exotic.EX_* effect being applied (superheroes' saves first); 0
    ("bat_missed", np.int8),        # Black and Dying days the Crimson Bat went unfed, in its hunger (L700); 0 sated
    ("bat_fed", np.int8),           # units it devoured today (L698)
    ("bat_owed", np.int8),          # units it devoured on earlier days of its hunger (they count, L700)
    ("hunger_left", np.int8),       # Lunar units the opposing player still eliminates for the Bat's spirit (L700)
    ("storm_day", np.int8),         # the Stormwalkers' Type 2 storm: 1, 2 rain, 3 flood (L688); 0 none
    # --- the Red Moon (L660-L668)
    ("moon", np.int8),              # the phase of the Red Moon (moon.MOON_PHASE_IDS index); -1: none chosen
    ("glowline_gone", np.int8),     # 1 once an enemy unit occupied the Temple of the Reaching Moon (L143)
    ("revealed", np.int8),          # moon.REVEAL_* bits: with screening, the Bat's and Argrath's locations revealed
    # --- the Earth-Shaker's Cult's earthquake (L720, rules/quake.py)
    ("quake_type", np.int8),        # 1 / 2 while its fracture hexes are laid and applied; 0
    ("quake_used", np.int8),        # 1 once the cult unleashed its earthquake (once per game)
    ("fortress_damaged", np.int8, (NUM_FORTRESSES,)),  # 1: badly damaged by the quake, clear terrain for the
                                    # rest of the game, still a fortress for victory (rules/base.py::ground)
    # --- Cragspider's Pillar of Fire (L764, rules/pillar.py)
    ("pillar_used", np.int8),       # 1 once Cragspider unleashed the Pillar of Fire (once per game)
    # --- Sir Ethilrist's Hound (L754, rules/ethilrist.py)
    ("cloak_turn", np.int8),        # the game-turn Ethilrist cast the Cloak of Darkness in, once per game (L752); 0 not yet
    ("keener_turn", np.int8),       # the player-turn in whose Exotic Magic Phase Keener Than must release the Hound he
                                    # took on another Doom Run, riding it that turn (L756); 0 none
    ("doom_pending", np.int8),      # 1: Ethilrist fell in combat or exotic magic and the Hound's Doom Run in a
                                    # random direction is still to be run (before the next phase goes on); 0
    # --- the Dragonewts (L738-L746, rules/turns.py::resurrect)
    ("city_entered", np.int8, (8,)),  # Dragonewt City k + 1: bit 1 << f once units of force f entered it
                                    # (rules/base.py::occupy); an enemy's bit ends resurrection there (L742)
    # --- diplomacy and alliances (L975-L1003, L299; rules/alliance.py)
    ("dp", np.int16, (NUM_FORCES,)),  # Diplomacy Points each player holds, not assigned to any Independent
    ("dp_assigned", np.int16, (NUM_FORCES, NUM_MAJORS)),  # DP each player has assigned to each Major
                                    # Independent (secret from the other player, L979)
    ("dp_announced", np.int16, (NUM_FORCES, NUM_MAJORS)),  # the DP a player called out seeking that
                                    # Major's alliance (the last time; public, L979); -1 never
    ("dp_next", np.int16, (NUM_FORCES,)),  # DP gained (+) or lost (-) with next game-turn's income: the
                                    # assassins' results (L932-L947)
    ("allied_turn", np.int16, (NUM_FACTIONS,)),  # the player-turn each Independent was allied in (its
                                    # units keep to their territory in that movement phase, L985); 0 never
    ("dead_count", np.int16, (NUM_FORCES, 2)),  # each player's infantry (0) and cavalry (1) units
                                    # eliminated so far: his dead piles for replacements (L299)
    ("replaced", np.int16, (NUM_FORCES, 2)),  # the replacements of each arm he has received (L299)
    ("faction_ally", np.int8, (NUM_FACTIONS,)),  # the force allied with each Independent (unitdata.FACTIONS
                                    # order; a dragon is allied on its own: its unit_force); -1 none
    ("majors_sought", np.int8),     # bits of the Majors the active player sought in this Alliance Phase
    ("first_deployer", np.int8),    # the force chosen to deploy first (18.7's tie-break, L301)
    ("auction_bid", np.int16, (NUM_FORCES,)),  # random event 12: the DP each player offers for the Dragonewts
                                    # (secret from the other until both are written, L958)
    ("dp_debt", np.int16, (NUM_FORCES,)),  # DP still owed for the Dragonewts won by event 12: every DP received
                                    # goes to it until it is paid (L958)
    ("trespassers", np.uint8, ((NUM_UNITS + 7) // 8,)),  # bit u: unit u trespassed into a neutral Major's
                                    # territory this movement phase (one DP to the other player, L991)
    # --- Delecti's zombies (L815-L831, rules/zombies.py)
    ("zombies_owed", np.int8),      # new zombies raised by units eliminated beside Delecti or a zombie in this
                                    # combat phase, still to be placed (L821; the sequence of play places them)
    ("zombie_lead", np.int16),      # the zombie leading the chain's move now (the first or the last, L823); -1
    ("zombie_steps", np.int8),      # hexes the chain's leader has stepped this move (0: none yet, for L460)
    # --- Minor Independents: the Spirit of Movement, the Alchemical Transformer (rules/minors.py)
    ("sm_asked", np.int8),          # this player-turn's owner of the Spirit of Movement has been asked whether
                                    # to eliminate it to double his units' movement (L898)
    ("sm_doubled", np.int8),        # 1: the active player eliminated the Spirit of Movement at the start of this
                                    # movement phase: every MF of his is doubled for the phase (L898); 0
    ("alchemy_unit", np.int16),     # the unit whose MgF or RF the Alchemical Transformer doubles while stacked
                                    # with it (L857, rules/base.py::transformed); -1 none
    ("alchemy_rf", np.int8),        # 1: it doubles that unit's RF; 0: its MgF (L857)
    ("alchemy_asked", np.int8),     # this player-turn's owner of the Alchemical Transformer has named whom it doubles
    # --- the Puppeteers (L884-L892, rules/puppeteers.py)
    ("puppet_blanks", np.int8),     # blank counters drawn from the Puppeteers' cup so far (0..4; L886)
    ("puppet_found_hex", np.int16),  # the hex the Puppeteers were found in (the real counter drawn): every further
                                    # alliance attempt is made from it (L886); -1 not found yet
    ("puppet_switch_turn", np.int16),  # the player-turn whose movement phase the Troop switched places with an
                                    # Illusory Army in (once a phase, L888); 0 never
    ("illusion_kept", np.int16),    # the Illusory Army it switched with then: not removed that player-turn (L888); -1
    ("puppet_dodge_turn", np.int8),  # the game-turn the Troop switched out of a battle in (once a game-turn, L890); 0
    # --- the Hydra (L878-L882, rules/hydra.py)
    ("hydra_mgf", np.int8),         # the Hydra's chaotic MgF, rolled when it allied (-1..-6, L880); 0 not rolled
    ("hydra_hunger", np.int8),      # units still to be fed to it before it may move (L880); 0 none
    ("hydra_asked", np.int8),       # this player-turn's start of movement has offered the feeding (PH_HYDRA_FEED)
    # --- the dragons (L839-L857, rules/dragons.py)
    ("dragonfight_unit", np.int16),  # the dragon whose dragonfight is being resolved, plus 1; 0 none (L845)
    ("dragonfight_dir", np.int8),   # the next direction (1..6) round it whose stack its dragonfight strikes
    ("dragonfights_done", np.int8), # 1 once this Exotic Magic Phase's dragonfights are over (they come first, L845)
    ("dragon_negates", np.int8),    # bit k: dragon base.DRAGON_UNITS[k] negates the Glowline and Glowspot within
                                    # 1 hex, as its controller chose (L670, L851; public, it reveals the dragon)
    # --- Hungry Jack (L868-L882, rules/dragons.py)
    ("jack_asked", np.int16),       # the player-turn whose movement phase Jack's summons were asked at; 0 never
    ("jack_step", np.int8),         # while they are asked: 1 the aides (PH_JACK_AID), 2 the summons (PH_JACK); 0 done
    ("jack_turn", np.int16),        # the game-turn his magicians aided him in (no magic that game-turn, L872); 0
    ("jack_aides", np.int16, (2,)),  # the magicians stacked with him that aid him, unit + 1; 0 none (L872)
    ("jack_summoned", np.int16, (3,)),  # the units he summoned this movement phase, unit + 1; 0 none; a unit is
                                    # released when it survives its roll beside him (L872, L874)
    # --- the Random Events Option (L948-L973, rules/events.py) and the giants (L914-L920, rules/giants.py)
    ("random_events", np.int8),     # config: 1 = the Random Events Option (Lunar-vs-Sartar scenarios only, L950)
    ("event_turn", np.int8),        # the game-turn whose Random Events Segment was held; 0 none yet
    ("event_roll", np.int8),        # the event rolled this game-turn (11..66, tens then units, L952); 0 none
    ("event_left", np.int8),        # units the event still removes (32, 33) or replaces (34); 0
    ("event_rain", np.int8),        # 1: the rain of events 14-16 falls for the rest of this game-turn (L960)
    ("glowline_failed", np.int8),   # 1: event 31, the Glowline does not exist for the rest of this game-turn (L969)
    ("giant_foe", np.int8),         # while giants fight a battle (L918): 1 + the force whose units they attack (the
                                    # giants lent for it to the other force, whose player decides for them); 0
    ("giant_fought", np.int8),      # this Random Movement Phase's giants' battles fought: bit 2 * k + f for the
                                    # giants#(k+1)'s stack against force f's units
    # --- three players (18.8, L303-L313)
    ("bat_foe", np.int8),           # the force whose stacks defend in the battle being fought: the first defending
                                    # stack's; every other defending stack is of the same force (Interpretations 180)
    # ---- carrying zero-MF units (L462, L578; rules/combat.py::retreat_carrier)
    ("unit_retreat_k", np.int8, (NUM_UNITS,)),   # for a unit flagged UF_RETREATED: the index in bat_def of the
                                                 # defending stack it retreated from (a zero-MF unit of that
                                                 # stack may be carried to its hex); meaningless otherwise
    # --- fetching Hungry Jack (L870, rules/fetch.py); the giants attacked and Giantmaster (L918, L686)
    ("jack_fetcher", np.int16),     # the dragon sent off the West map edge to fetch Hungry Jack, unit + 1; 0 none
                                    # (public: the dragon is off the board, UW_ENTERING by ENTRY_WEST_EDGE)
    ("jack_back_turn", np.int8),    # the game-turn from which that dragon may come back carrying him: 2 game-turns
                                    # after the one it left in (L870; Interpretations 160); 0 none
    ("giants_lent", np.int8),       # bit k: giants#(k+1) is lent to the inactive player for the battle the active
                                    # player declared against its stack in his combat phase (Interpretations 162); 0
]
_unpadded = sum(np.dtype(f[1]).itemsize * int(np.prod(f[2] if len(f) > 2 else 1)) for f in STATE_FIELDS)
STATE_FIELDS.append(("pad", np.int8, (8 - _unpadded % 8,)))
"""``pad`` keeps the record a multiple of 8 bytes (aligned seeds) whatever
the number of counters in data/units.txt (1..8 bytes)."""

STATE_DTYPE = np.dtype(STATE_FIELDS)
_packed = sum(np.dtype(f[1]).itemsize * int(np.prod(f[2] if len(f) > 2 else 1)) for f in STATE_FIELDS)
assert STATE_DTYPE.itemsize == _packed, "state dtype has padding"
assert STATE_DTYPE.itemsize % 8 == 0, "records must keep their 8-byte fields aligned"
