"""The Dragons Down state record: one numpy structured record per game.

Part 1 of the game is being built rules part by rules part (``rules/``); each
part adds the fields it owns here, in its own group. So far: the sequence of
play and the outcome (the platform's common fields), the configuration, and
the realm (where every Map Tile is, how it is turned and which side is up).

Fields are ordered by item size so the dtype has no padding (asserted below):
``tobytes()`` is then a faithful serialisation and hash of a position.
Variable things are padded with -1.
"""
import numpy as np

from .constants import (
    CIV_CARD_IDS, MAX_AIMS, MAX_EXTRA_TARGETS, MAX_HEROES, MAX_HIDDEN_PER_SIDE, NATIVE_GROUPS, NUM_COLOURS, NUM_CARDS, NUM_CIV_TOKENS,
    NUM_CUBE_KINDS, NUM_MISSIONS, NUM_MONSTER_CHIPS, NUM_MONSTER_KINDS, NUM_NATIVE_CHIPS, NUM_PACKS, NUM_PILES, NUM_SITES,
    NUM_SPELLS, NUM_TENTACLE_CARDS, NUM_TILES, NUM_TITLES, NUM_WILD_TOKENS,
)

STATE_FIELDS = [
    # --- 8-byte fields
    ("seed", np.uint64),            # counter-based RNG stream of this game
    ("rng_counter", np.uint64),     # draws taken so far
    # --- 4-byte fields
    ("rewards", np.float32, (MAX_HEROES,)),   # final reward per seat
    ("score", np.float32, (MAX_HEROES,)),     # outcome: each seat's Legend Points at the end
    ("decisions", np.int32),        # decisions taken (actions applied, automatic ones included)
    # --- 2-byte fields
    ("turn", np.int16),             # turns started (1-based once play begins; 30-turn games, L117)
    ("max_turns", np.int16),        # config: the game ends after this many turns (L117, L162)
    ("gold", np.int16, (MAX_HEROES,)),       # each hero's Gold, in the backpack (L202, L272-L274)
    ("fame", np.int16, (MAX_HEROES,)),       # Fame (L268-L270)
    ("lp", np.int16, (MAX_HEROES,)),         # Legend Points (L264-L266)
    ("hero_clearing", np.int16, (MAX_HEROES,)),  # clearing of a hero on the map; -1
    ("civ_clearing", np.int16, (NUM_PACKS,)),    # clearing of each pack's Civilization Location; -1 (L189, L306)
    ("native_clearing", np.int16, (NUM_NATIVE_CHIPS,)),  # clearing of each Native chip; -1 in the box (L189, L312)
    ("sel_card", np.int16),                  # pending context: the card being equipped; -1
    ("wild_clearing", np.int16, (NUM_WILD_TOKENS,)),   # clearing of a placed numbered Wilderness Token; -1 (L497)
    ("civ_token_clearing", np.int16, (NUM_CIV_TOKENS,)),  # clearing of a revealed Civilization Token; -1 (L489)
    ("site_clearing", np.int16, (NUM_PILES,)),        # clearing of each pile (Treasure Site, body) on the map; -1 (L497-L498, L805)
    ("site_gold", np.int16, (NUM_PILES,)),            # Gold lying in each pile (L520, L1244, L805)
    ("mon_clearing", np.int16, (NUM_MONSTER_CHIPS,)),    # clearing of each Monster chip; MON_TRAY, MON_TAKEN, MON_SHAPE (L306, L799, L1568)
    ("mission_draws", np.int16),             # draws taken from the Mission Deck's own stream (rules/missions.py::mission_roll)
    # --- 1-byte fields: the sequence of play and the outcome
    ("num_players", np.int8),       # config: seats (heroes in play at once), 1..6 (the common field)
    ("sandbox", np.int8),           # config: SB_* (constants.SANDBOXES)
    ("packs", np.int8),             # config: bit k set = Terrain Pack k in play (L178)
    ("auto_single", np.int8),       # config: apply a lone legal action without asking
    ("random_heroes", np.int8),     # config: 1 = each hero dealt at random, not chosen (L198)
    ("to_play", np.int8),           # seat that decides now; -1 when the game is over
    ("status", np.int8),            # 0 running, 1 terminated, 2 truncated
    ("rank", np.int8, (MAX_HEROES,)),  # outcome per seat once over (1 = best)
    ("stage", np.int8),             # macro position in the sequence of play (ST_*)
    ("phase", np.int8),             # the decision now pending (PH_*)
    # --- the realm (rules/realm.py): Map Tiles, L99-L139, L288-L296
    ("tile_where", np.int8, (NUM_TILES,)),   # TW_* (constants): out of play, stack, a seat's hand, placed
    ("tile_holder", np.int8, (NUM_TILES,)),  # seat a dealt tile was dealt to (Open Realm, L109); -1
    ("tile_q", np.int8, (NUM_TILES,)),       # axial position of a placed tile (the first one at 0, 0)
    ("tile_r", np.int8, (NUM_TILES,)),
    ("tile_rot", np.int8, (NUM_TILES,)),     # rotation 0..5: edge e faces direction (e + rot) % 6
    ("tile_side", np.int8, (NUM_TILES,)),    # side up, 0 or 1 (the data files' side 1 or 2)
    ("tile_stack", np.int8, (NUM_TILES,)),   # the tile stack, bottom first (Explore draws the bottom, L583); -1
    ("stack_len", np.int8),                  # tiles in the stack
    ("tiles_placed", np.int8),               # tiles on the map
    ("placer", np.int8),                     # Open Realm: seat placing the next tile (L109); -1
    ("sel_tile", np.int8),                   # pending context: the tile chosen to place; -1
    ("sel_q", np.int8),                      # pending context: the position chosen for it
    ("sel_r", np.int8),
    ("setup_side", np.int8, (NUM_PACKS,)),   # side up of each pack's Terrain Setup Card, 0/1; -1 not in play (L180)
    ("legendary_map", np.int8),              # config: the Legendary sandbox's map rules, SB_OPEN_REALM or SB_EXPLORE (L151-L153)
    ("optional_rules", np.int16),            # config: bit OPT_* (constants.OPTIONAL_RULES) set = that optional rule is played (L1128-L1170)
    ("legend_target", np.int16),             # config: LP a multi-player Legendary retirement needs to win (L166; 20 unless agreed)
    # --- heroes (rules/setup.py): Hero Cards and Hero Boards, L193-L205, L346-L360, L398-L408
    ("hero_state", np.int8, (MAX_HEROES,)),  # HS_* (constants)
    ("hero_lineage", np.int8, (MAX_HEROES,)),  # Lineage Card (constants.LINEAGE_IDS); -1 not chosen
    ("lineage_side", np.int8, (MAX_HEROES,)),  # its side up, 0/1; -1 not chosen
    ("hero_class", np.int8, (MAX_HEROES,)),    # Class Card (constants.CLASS_IDS); -1 not chosen
    ("class_side", np.int8, (MAX_HEROES,)),    # its side up, 0/1; -1 not chosen
    ("cubes_taken", np.int8, (MAX_HEROES,)),   # Action Cubes of the two cards taken so far (L200)
    ("hearts", np.int8, (MAX_HEROES, 2)),      # Hearts [healthy, wounded] (L199, L384)
    ("cubes", np.int8, (MAX_HEROES, 2, NUM_CUBE_KINDS)),  # Action Cubes [healthy/wounded, CUBE_*] (L200, L400-L408)
    ("hero_order", np.int8, (MAX_HEROES,)),  # seats in the random order of hero selection (L195); -1 pad
    ("heroes_chosen", np.int8),              # seats of hero_order that have finished their hero
    # --- the action phase (rules/actions.py), L441-L612
    ("hero_status", np.uint8, (MAX_HEROES,)),  # HST_* bits (constants): statuses of this turn
    ("shape", np.int8, (MAX_HEROES,)),  # 1 + the Monster chip of the hero's Shape Shift in play (active or not: base.shifted), 0 none (L1564-L1568); public
    ("actions_used", np.int8, (MAX_HEROES,)),  # actions spent this turn, a lost cave action included (L451, L455)
    ("turn_order", np.int8, (MAX_HEROES,)),    # seats in the order their Targeting Tokens were drawn (L449); -1
    ("order_pos", np.int8),                    # index into turn_order of the active hero
    ("heal_left", np.int8),                    # cubes still to move to the healthy box in the rest now resolved (L550)
    ("hidden_found", np.int8, (MAX_HEROES, NUM_TILES * 2 * MAX_HIDDEN_PER_SIDE)),  # 1 = the hero discovered Hidden Path [(tile * 2 + side) * H + h] (L515)
    ("search_target", np.int8, (MAX_HEROES,)),   # what the hero's last action searched for (A_SEARCH offset); -1 (L513)
    ("search_dice", np.int8, (MAX_HEROES, 2)),   # the Search Dice it showed: 1 spyglass, 0 blank (L513)
    ("alert_moves", np.int8),                  # cards moved so far in the Alert Action under way (L463)
    ("block_due", np.int8),                    # 1 when the active hero's action has just ended: monsters may block (L457)
    ("civ_action", np.int8, (MAX_HEROES,)),    # the Human's extra action at a Civilization Location this turn (L1204): 0 not earned, 1 earned before his first action (still to come off actions_used), 2 taken (or forfeited)
    # --- the battle phase (rules/activation.py, rules/combat.py), L613-L873
    ("mon_flipped", np.int8, (NUM_MONSTER_CHIPS,)),  # 1 = the chip's back side is up (L635, L731)
    ("summon_dice", np.int8, (4,)),            # this activation's faces: gray symbol, gray number, black symbol, black number
    ("noise_pos", np.int8),                    # index into turn_order of the next hero whose Make Noise reroll is due (L637)
    ("hide_pos", np.int8),                     # index into turn_order of the next hero asked to hide after activation (L639)
    ("cleric_rerolled", np.int8),              # 1 once the Cleric has rerolled a Summoning Die this turn (L1212)
    # --- Item and Treasure Cards (rules/equipment.py), L330-L336, L906-L981
    ("card_where", np.int8, (NUM_CARDS,)),   # CW_* (constants)
    ("card_owner", np.int8, (NUM_CARDS,)),   # its deck (DECK_*), the hero holding it, its Merchant, pile or clearing (by card_where)
    ("card_slot", np.int8, (NUM_CARDS,)),    # a hero's card: its equip target T_* or T_BACKPACK
    # --- tokens (rules/tokens.py), L318-L344, L485-L502
    ("tile_revealed", np.int8, (NUM_TILES,)),      # 1 once the tile has had its tokens (L485)
    ("site_found", np.int8, (MAX_HEROES, NUM_PILES)),  # 1 = the hero has discovered the pile (L517, L524, L805)
    ("site_opened", np.int8, (NUM_PILES,)),        # 1 once a hero first discovered it (a site's pile drawn, a body's Gold taken; L517-L520, L805)
    ("wild_where", np.int8, (NUM_WILD_TOKENS,)),   # TOK_* (constants): on its setup card, on the map, spent
    ("wild_tile", np.int8, (NUM_WILD_TOKENS,)),    # the tile a drawn token was revealed in; -1
    ("civ_token_where", np.int8, (NUM_CIV_TOKENS,)),  # TOK_POOL or TOK_PLACED
    ("site_token_where", np.int8, (5,)),           # TOK_POOL or TOK_PLACED (data.site_tokens order)
    # --- Loot and Trade (rules/trade.py), L522-L534, L552-L568, L982-L1000
    ("card_revealed", np.int8, (NUM_CARDS,)),     # 1 once the card has been shown face up (equipped, revealed, a Backpack Special card seen): an Epic's reward is spent (L534, L563, L960)
    ("merchant_looked", np.int16, (MAX_HEROES,)),  # bit m: the hero knows Merchant m's stock (Look, L558); cleared for the others when a card is sold to it
    ("merchant_closed", np.int16, (MAX_HEROES,)),  # bit m: Merchant m closed its doors to the hero (L995) in turn ``closed_turn``
    ("closed_turn", np.int16, (MAX_HEROES,)),      # the turn of the hero's ``merchant_closed`` bits
    ("door_open", np.int8, (NUM_PILES,)),          # 1 once the site's Massive Door is opened (L1240; combat opens it too)
    # the Loot or Trade Action under way (pending context; all 0 when none)
    ("trade_mode", np.int8),                       # TM_* (rules/trade.py): loot, swap, commerce; 0 none
    ("trade_pile", np.int8),                       # the pile whose top three the looter keeps one of (L526)
    ("trade_partner", np.int8),                    # the swap partner (L556)
    ("trade_merchant", np.int8),                   # the Merchant of the commerce (L557)
    ("trade_steps", np.int8),                      # commerce steps done (DONE_* bits, rules/trade.py), each once (L557)
    ("trade_card", np.int16),                      # PH_BUY: the card set apart to buy (L985)
    ("trade_factor", np.int8),                     # PH_BUY: its price factor, 3x lowered by haggling (L997)
    ("swap_gold", np.int16),                       # Gold of the proposed swap: > 0 the active hero gives, < 0 he takes (L556)
    ("card_mark", np.int8, (NUM_CARDS,)),          # MARK_DEAL: in the proposed swap; MARK_RECEIVED: just received, its owner equips or stows it (L972)
    ("pile_deal", np.int8, (NUM_PILES,)),          # 1 = the found site (or body) is shared in the proposed swap
    ("path_deal", np.int8, (NUM_TILES * 2 * MAX_HIDDEN_PER_SIDE,)),  # 1 = the found Hidden Path (hidden_found index) is shared in it
    # --- Explore and the fate of heroes (rules/actions.py, rules/fate.py), L581-L585, L801-L838
    ("explore_q", np.int8),                  # pending context: the empty position being explored (L583)
    ("explore_r", np.int8),
    ("explore_toward", np.int8),             # direction of the path explored along; -1 Mountain Exploration (L585)
    ("explore_tile", np.int8),               # the tile drawn from the bottom of the stack; -1
    ("best", np.int16, (MAX_HEROES, 5)),     # the seat's best finished hero: LP, Fame, Epic Treasures, Treasures, Gold (L121); -1 none
    ("heroes_made", np.int8, (MAX_HEROES,)), # heroes the seat has had this game (a new one after death or retirement, L829)
    ("class_gone", np.int16),                # bit i set: Class Card i was set aside with a dead or retired hero (L803, L825)
    ("fate_pos", np.int8),                   # index into turn_order of the next hero offered retirement (L817)
    ("legend", np.int8),                     # Legendary: seat that retired a hero with 20 LP (L166, L168); -1
    ("epic_victory", np.int8),               # Legendary solo: the hero retired with 30 LP (L168)
    ("outlaw", np.int8, (MAX_HEROES,)),      # Outlaw Tokens the hero holds (L1109-L1126); public
    # --- combat (rules/combat.py), L674-L800
    # SECRET: while ``combat_step`` is CS_TACTICS, a hero's ``placed`` and ``placed_cross`` rows and
    # the CF_THROWS bit of its ``hero_cflags`` are its own: the observation of
    # any other seat must hide them (L714 "in secret", L724 revealed once all
    # have placed). Everything else here is public.
    ("combats_begun", np.int8),              # 1 once this battle phase's combats have begun (L676)
    ("activate_pos", np.int8),               # index into turn_order of the next hero asked to activate his permanent spells (L695)
    ("combat_pos", np.int8),                 # index into turn_order of the next hero whose clearing may need a combat (L676)
    ("combat_clearing", np.int16),           # the clearing being fought; meaningful while combat_step != CS_NONE
    ("combat_step", np.int8),                # CS_* (combat.py): the step of the Combat Round now; CS_NONE between combats (L686)
    ("combat_round", np.int16),              # Combat Rounds begun in this clearing (1 = the first)
    ("quiet_rounds", np.int8),               # consecutive finished rounds with no wound or death (L781)
    ("round_wounds", np.int8),               # 1 once a hero or foe was wounded or killed this round (L781)
    ("unhide_pos", np.int8),                 # index into turn_order of the next hero asked to unhide (L688)
    ("evade_pos", np.int8),                  # ... asked to evade (L700)
    ("target_pos", np.int8),                 # ... asked for a target (L709)
    ("tactics_pos", np.int8),                # ... placing cubes (L714); it stays on a hero until he is done
    ("cleanup_pos", np.int8),                # ... in Adjust Equipment or Rearm (L773-L774)
    ("stay_pos", np.int8),                   # ... rolling to stay hidden in Cleanup (L775); the roll may wait on his Dust of Destiny
    ("adjust_left", np.int8),                # the cleanup hero's equipping left: 2 unequip and equip, 1 equip only, 0 done
    ("natives_hostile", np.int8),            # 1 once a Native was targeted: the clearing's Natives are Monsters (L1005)
    ("lure_pos", np.int8),                   # Luring (optional, L1130): index into turn_order of the next hero asked to lure
    ("hero_combat", np.int8, (MAX_HEROES,)),  # HC_* (combat.py): not yet fought, fighting, evaded, killed, done
    ("hero_cflags", np.uint8, (MAX_HEROES,)),  # CF_* bits (combat.py): this round's attack and cleanup facts
    ("hero_target", np.int8, (MAX_HEROES,)),  # foe the hero targets this round (Targeting Token, L709); -1
    ("placed", np.int8, (MAX_HEROES, 3)),     # SECRET in Tactics: cubes placed [BOX_MIGHT, BOX_ATTACK, BOX_MANEUVER]; they stay counted in ``cubes`` healthy (L714-L718)
    ("placed_cross", np.int8, (MAX_HEROES, 3)),  # SECRET in Tactics: of ``placed``, the cubes of the other kind: Speed Cubes in might boxes, Might Cubes in speed boxes (L1308-L1314, L1482, L1504)
    ("evade_to", np.int16, (MAX_HEROES,)),    # the clearing at the far end of the path the hero evaded onto; -1 (L703, L481)
    ("foe_wounds", np.int8, (NUM_MONSTER_CHIPS + NUM_NATIVE_CHIPS,)),     # pink cubes on foe f (a Monster chip, then the Native chips), cleared at the end of combat (L785, L811)
    ("foe_target", np.int8, (NUM_MONSTER_CHIPS + NUM_NATIVE_CHIPS,)),     # hero foe f challenges and so targets this round; -1 (L688, L708, L1006)
    ("foe_extra", np.uint8, (NUM_MONSTER_CHIPS + NUM_NATIVE_CHIPS,)),     # bit p: hero p is an added target of its multi-target attack (L728)
    ("foe_flags", np.uint8, (NUM_MONSTER_CHIPS + NUM_NATIVE_CHIPS,)),     # FF_* bits (combat.py): its attack this round resolved, striking now, lured
    ("foe_wound_by", np.int8, (NUM_MONSTER_CHIPS + NUM_NATIVE_CHIPS, MAX_HEROES)),  # Shared Fame (optional, L1150): wound cubes hero p put on foe f this combat
    ("native_flipped", np.int8, (NUM_NATIVE_CHIPS,)),  # 1 = the Native chip's back side is up (L726, L1005)
    ("mon_taker", np.int8, (NUM_MONSTER_CHIPS,)),   # seat that killed and keeps the chip; meaningful when mon_clearing is MON_TAKEN (L799)
    ("native_taker", np.int8, (NUM_NATIVE_CHIPS,)), # seat that killed the Native; meaningful when native_clearing is NATIVE_TAKEN (L799, L1005)
    ("card_damaged", np.int8, (NUM_CARDS,)),  # 1 = a pink Status Cube on the armour card: damaged (L762; repaired by trade, L565)
    ("card_thrown", np.int8, (NUM_CARDS,)),   # 1 = thrown this combat, beside its owner's board (card_where CW_REMOVED, card_owner the thrower) (L930, L812)
    ("atk_foe", np.int8),                    # foe whose attack is being resolved; -1 (L738)
    ("atk_victims", np.uint8),               # bit p: hero p is still to be struck by that attack
    ("atk_victim", np.int8),                 # hero being struck now; -1
    ("atk_stage", np.int8),                  # AS_* (combat.py): how far the strike on atk_victim is
    ("atk_armor", np.int16),                 # the armour card atk_victim takes the hit on; -1 none (L751)
    ("atk_hurt", np.int8),                   # AS_HURT: the hit's damage, its Ranged Attack Dice counted after their rerolls (L753)
    # --- Player vs. Player (optional, L1172-L1192); public but ``hero_aim`` (SECRET in Tactics, like ``placed``)
    ("atk_by", np.int8),                     # 1 + the hero whose weapon attack on the hero atk_victim is being resolved; 0 none
    ("atk_dmg", np.int8),                    # that attack's base damage: its weapon's cubes (the Air Sword's might, a Fireball's 2) and base bonus, less its hero's Weakness (L744, L750);
                                             # while a hero's weapon attack's dice may be rerolled, the cubes on his weapon alone (``combat.hero_attack``)
    ("atk_swords", np.int8),                 # its swords (L751)
    ("atk_ranged", np.int8),                 # 1: a ranged or thrown attack, the Ranged Attack Dice roll (L753)
    ("atk_aim", np.int8),                    # AIMB_* + 1 of the aim box that attack's cube lies in; 0 unaimed (L1188)
    ("hero_challenge", np.int8, (MAX_HEROES,)),  # 1 + the hero this hero challenges this round, 1 + MAX_HEROES + the
                                                  # Monster another hero controls he challenges; 0 none (L1182)
    ("hero_aim", np.int8, (MAX_HEROES,)),    # SECRET in Tactics: 1 + AIMB_* of the aim box holding his Speed Cube; 0 none (L1186)
    ("challenge_cubes", np.int8, (MAX_HEROES,)),  # of placed[p, BOX_MANEUVER], the Speed Cubes he placed in the open as he challenged a hero this round (L1182-L1184); public even in Tactics
    ("challenge_pos", np.int8),              # index into turn_order of the next hero asked to challenge a hero (PH_CHALLENGE, L1182)
    ("pvp_block", np.int8),                  # 1 + the hero now offered to block the active hero (PH_HERO_BLOCK); 0 none (L1176)
    # --- magic outside combat (rules/magic.py): Spell Cards, Learn, Enchant, curses, L203-L205, L536-L580, L1014-L1107
    # SECRET: a Spell Card in a hero's known spells or under its Spell Book is
    # that hero's alone (starting spells may be kept secret until used, L205;
    # attached spells are face down, seen by their holder, L1424-L1426); the
    # other seats see how many. The Spell deck's order is never seen.
    ("spell_where", np.int8, (NUM_SPELLS,)),    # SPW_* (constants)
    ("spell_owner", np.int16, (NUM_SPELLS,)),   # its hero (SPW_KNOWN) or Spell Book / Scroll card (SPW_ATTACHED); -1
    ("curses", np.uint8, (MAX_HEROES,)),        # bit k: the hero holds lasting curse k (CURSE_IDS; not cumulative, L1107); public
    ("spells_read", np.uint8, (NUM_CARDS,)),    # bit p: hero p revealed this Merchant's Spell Book and read its spells (L1424)
    ("tile_enchant", np.int8, (NUM_TILES,)),    # colour of the Magic Cube on the tile (enchanted, L575); -1 none
    ("learn_spell", np.int16),                  # the spell the active hero's last action tried to learn; -1 (consecutive learns reroll, L546)
    ("learn_dice", np.int8, (2,)),              # LEARN_* faces its Learn Dice showed
    ("enchant_done", np.int8),                  # consecutive Enchant Actions the active hero has taken toward its tile (3 enchant it, L572)
    ("enchant_colour", np.int8),                # the colour of those Enchant Actions' Magic Cube; -1
    # --- spells cast in combat (rules/spells.py), L706-L781, L1018-L1065, L1486-L1597
    # SECRET: while ``combat_step`` is CS_TACTICS, a hero's ``cast_card``,
    # ``cast_cubes`` and ``cast_wound`` are its own, like ``placed`` (L714, L724).
    # A target code is a foe's index, DOOR_FOE for the Massive Door, or
    # AIM_HERO + q for hero q (rules/base.py).
    ("more_targets", np.int8, (MAX_HEROES, MAX_AIMS - 1)),  # further target codes the hero's spell aims at this round (Fireball, L1562: foes, and heroes with Player vs. Player); -1
    ("cast_card", np.int16, (MAX_HEROES,)),     # SECRET in Tactics: the Spell Card it casts this round; -1 (L723)
    ("cast_cubes", np.int8, (MAX_HEROES, NUM_COLOURS)),  # SECRET in Tactics: Magic Cubes on that card by colour (counted healthy)
    ("cast_wound", np.int8, (MAX_HEROES,)),     # SECRET in Tactics: colour of the cube on its wound-symbol box; -1 none (L779)
    ("cast_stage", np.int8, (MAX_HEROES,)),     # CAST_* (rules/spells.py): how far this round's cast is
    ("cast_any", np.int8, (MAX_HEROES,)),       # multi-colour boxes of the card still to cover (PH_SPELL_CUBE, L723)
    ("cast_aim", np.int8),                      # the targeted spell being cast: the index (spells.aims) of the target it strikes now,
                                                # its roll to hit or Ranged Attack Dice waiting on a Dust of Destiny
    ("cast_hits", np.int8),                     # its targets hit so far (Discord takes effect only if both are, L1596)
    ("chasm_by", np.int16),                     # the target code of the caster of the Fiery Chasm being resolved (a hero, the Demon, L1508)
    ("chasm_speed", np.int8),                   # its attack speed
    ("chasm_pos", np.int8),                     # its next victim: Monster chip i, then the hero NUM_FOES + i in Turn Order
                                                # (a roll of its Hit Dice may wait on a Dust of Destiny)
    ("cast_turn", np.uint8, (MAX_HEROES,)),     # bit 0: it cast Heal this turn (once per turn, L1576)
    ("cast_asked", np.uint8),                   # bit q: hero q, a target of the targeted spell now cast, was asked to accept its hit (PH_ACCEPT, L1032)
    ("cast_accepted", np.uint8),                # bit q: ... and accepted it: it hits him without a roll
    ("spell_on", np.int8, (NUM_SPELLS,)),       # target code of the card's spell while it lasts (L1040-L1046); -1; public
    ("spell_shown", np.uint8, (NUM_SPELLS,)),   # 1 once the card was cast: the table has seen whose it is (L1020)
    ("dispel_card", np.int16),                  # the permanent Spell Card the active hero asks to remove from another hero (PH_DISPEL_ASK, L568); -1
    ("spell_mark", np.int8, (NUM_SPELLS,)),     # a lasting spell's own mark: Life Armor damaged, Disorient's stages (spells.py)
    ("peace", np.int8),                         # 1 once Peace was cast: the combat ends at once (L1582)
    ("atk_venom", np.int8),                     # 1 while the struck hero owes Envenom's extra wound (L1530)
    ("foe_curses", np.uint8, (NUM_MONSTER_CHIPS + NUM_NATIVE_CHIPS,)),  # bit k: the chip holds lasting curse k (the Curse spell, L1500); public
    ("foe_ctrl", np.int8, (NUM_MONSTER_CHIPS + NUM_NATIVE_CHIPS,)),   # 1 + the hero controlling foe f (Rule Undead, Elemental, L1506, L1550): it counts as a hero in combat (L692); 0 none (rules: strike.controller); public
    ("ctrl_flags", np.uint8, (NUM_MONSTER_CHIPS + NUM_NATIVE_CHIPS,)),  # CTRL_* bits (rules/base.py) of a controlled foe; public
    ("foe_vs", np.int8, (NUM_MONSTER_CHIPS + NUM_NATIVE_CHIPS,)),     # 1 + the foe f fights this round among the chips: a controlled Monster it challenges, or a controlled Monster's target (L688, L710); 0 none (strike.versus); public
    ("foe_extra_vs", np.int8, (NUM_MONSTER_CHIPS + NUM_NATIVE_CHIPS, MAX_EXTRA_TARGETS)),  # 1 + a controlled Monster that is an added target of foe f's multi-target attack this round (L728, L692); 0 none; public
    ("ctrl_foe", np.int8),                      # 1 + the controlled foe whose target, side or pending attack its controller decides (PH_CTRL_*); 0 none
    # --- treasures' powers (rules/treasures.py), L916, L1280-L1484; all public
    ("gift_cubes", np.int8, (MAX_HEROES, NUM_CUBE_KINDS)),  # cubes of each CUBE_* kind the hero holds because an equipped card gives them (L1304, L1332)
    ("gift_wounded", np.int8, (NUM_CUBE_KINDS,)),  # 1 while the one card giving CUBE_* kind g lies unequipped holding its cube wounded: equipped again, it gives it wounded (Interpretations, "Cubes a treasure gives")
    ("cubes_gained", np.int8, (MAX_HEROES,)),   # Action Cubes received for good from one-time cards (Tomes, Potions, L1384-L1386, L1458-L1472)
    ("free_used", np.uint16, (MAX_HEROES,)),    # bit FREE_*: the Symbol's free action of that kind is spent this turn (L1432-L1448)
    ("use_card", np.int16),                     # the one-time card whose colour choice is pending (PH_CUBE_COLOUR); -1
    ("use_from", np.int8),                      # Alchemist's Mixture: the Magic Cube colour being replaced (L1284); -1
    ("spell_moved", np.uint8),                  # bit p: hero p was moved by a spell in this battle phase; entering's effects wait for the combats' end (L485)
    ("teleport_target", np.int16),              # the target code (spells.py) a Teleport hit, its tile to choose (PH_TELEPORT_TILE, L1522); -1
    ("lich_vapor", np.uint8, (MAX_HEROES,)),    # LICH_VAPOR_* bits (rules/base.py): the Lich's Vapor Form on the hero, in play / active (L1270, L1536)
    ("tentacle_on", np.int16, (NUM_TENTACLE_CARDS, 4)),  # the target code (a foe; a hero, AIM_HERO + q, with Player vs. Player) each tentacle of Tentacles card i (rules TENTACLE_CARDS) holds; TENT_NONE / TENT_LEFT (L1518)
    ("tentacle_hit", np.int8, (NUM_TENTACLE_CARDS, 4)),  # TENT_*: that tentacle's roll: unrolled, miss, -1 attack speed, -1 maneuver (L1518)
    ("tentacle_new", np.uint8),                 # bit i: card i's tentacles were placed this round: a hidden caster rolls to stay hidden (L1518)
    ("tentacle_card", np.int8),                 # the Tentacles card (TENTACLE_CARDS index) whose tentacles are being placed (PH_TENTACLE); -1
    ("earth_tile", np.int16),                   # the Map Tile a Move Earth is turning, its side and turn to choose (PH_EARTH_TURN, L1546); -1
    ("flight_until", np.int16, (MAX_HEROES,)),  # the turn through whose Action Phase a Potion of Flight lets the hero fly (L1380); 0 none
    ("turn_powers", np.uint8, (MAX_HEROES,)),   # TP_* bits (rules/treasures.py): a treasure's power of this turn: the Shadow Cloak's reroll spent (L1408), the Thief's Lucky Coin waiting for a Loot Action (L1454)
    ("card_cube", np.int8, (NUM_CARDS,)),      # SECRET in Tactics: 1 + the colour of the Magic Cube on this equipped card this round (L1288, L1410); 0 none
    ("treasure_combat", np.uint8, (MAX_HEROES,)),  # TC_* bits (rules/treasures.py): a treasure's effect lasting this combat (Potion of Energy, L1378)
    # --- missions, titles and the Outlaw Tokens they give and take (rules/missions.py), L322-L332, L564-L567, L1067-L1122
    # SECRET: a Mission Card in a hero's backpack lies face down: which card it
    # is belongs to its holder (L564); the other seats see how many. A
    # Merchant's listed missions are seen by a Look, like its stock (L558).
    # The Mission Deck's order is never seen. Everything else here is public.
    ("mission_where", np.int8, (NUM_MISSIONS,)),   # MW_* (constants)
    ("mission_owner", np.int8, (NUM_MISSIONS,)),   # its Merchant (MW_MERCHANT) or hero (MW_HERO); -1
    ("mission_order", np.int8, (NUM_MISSIONS,)),   # MW_DECK: its place from the top of the Mission Deck; -1
    ("missions_taken", np.int8),                   # cards taken in the commerce under way's Take Missions step (at most 2, L564)
    ("missions_done", np.int8, (MAX_HEROES,)),     # missions the hero has completed (L1079; a title's missions>=N)
    ("kills", np.int8, (MAX_HEROES, NUM_MONSTER_KINDS)),   # Monsters of each kind the hero killed, credited as for Fame (L799)
    ("native_kills", np.int8, (MAX_HEROES, len(NATIVE_GROUPS))),  # Natives of each Native Group the hero killed (L1115)
    ("sites_looted", np.int8, (MAX_HEROES, NUM_SITES)),    # 1 = the hero made a successful Loot Action at the Treasure Site
    ("tiles_entered", np.int8, (MAX_HEROES, NUM_TILES)),   # 1 = the hero has stood in the Map Tile
    ("civ_side", np.int8, (len(CIV_CARD_IDS),)),   # side up of each Civilization Card, 0/1; -1 not in play (L180)
    ("title_claims", np.int8, (MAX_HEROES, NUM_TITLES)),  # times the hero claimed each title (L567)
    ("title_taken", np.int8, (NUM_TITLES,)),       # 1 = the small box holds a pink cube: claimed for the game (L567)
    # --- rerolls (rules/treasures.py, rules/spells.py: PH_REROLL), L1214, L1330, L1342, L1528; all public
    ("roll_dice", np.int16, (2,)),   # the pending roll's dice, as its kind reads them (ROLL_*, rules/base.py): Loot Die faces (0 the
                                     # grabby hand); a clearing drawn; HIT_*; a Ranged Attack Die's change; ...; -1 past roll_n
    ("roll_target", np.int16),       # its context: the pile looted (ROLL_LOOT), the spell's target code (ROLL_GATE, ROLL_TELEPORT,
                                     # ROLL_DESTINATION), the search's target (ROLL_SEARCH), the spell learned (ROLL_LEARN), the haggle
                                     # number (ROLL_HAGGLE), 1 at equal speeds (ROLL_STRUCK, ROLL_ATTACK), the damage before the dice
                                     # (ROLL_RANGED), the Monster symbols ignored (ROLL_HIDE), a Curse spell's target (ROLL_CURSE:
                                     # a foe, or AIM_HERO + a hero), the Shrine's pile (ROLL_WRAITH); -1
    ("roll_then", np.int16),         # what it goes on to once it applies: ATTACK_* (ROLL_ATTACK, ROLL_RANGED), HIDE_* (ROLL_HIDE),
                                     # DEST_* (ROLL_DESTINATION; ROLL_CURSE of a Curse spell on a hero or a foe), the Monster casting
                                     # (ROLL_STRUCK of a Monster's spell); -1
    ("roll_kind", np.int8),          # ROLL_* (rules/base.py): the roll waiting on PH_REROLL before it applies
    ("seen_then", np.int8),          # SEEN_* (rules/base.py): the look that saw a Cursed Treasure, resumed once its curse applies; -1
    ("roll_n", np.int8),             # its dice (1 or 2; the Lucky Coin's loot rolls one, L1454); 0 none
    ("roll_span", np.int8),          # faces one of its dice may show (a reroll is offered only with more than one)
    ("roll_used", np.uint8),         # bit RR_* (the first party's), NUM_RR_SOURCES + RR_* (the second's): that source rerolled this roll already
    ("roll_party", np.int8, (2,)),   # the heroes party to the roll, asked in this order: the active hero / caster, then the target hero; -1
    ("roll_stage", np.int8),         # the index of roll_party asked now
    ("roll_chips", np.int16, (3,)),  # a fight among the chips whose Hit Dice or Ranged Attack Dice wait (ATTACK_CHIP; a Shape Shifted hero's
                                     # chip one of them, L1564): the foe striking, the foe struck, the next added chip to strike; -1
    # --- scenario tests: loaded chance (rules/base.py::roll)
    ("loaded", np.int8, (16,)),     # raw results of the next rolls
    ("loaded_count", np.int8),      # how many of ``loaded`` are set
    ("loaded_pos", np.int8),        # how many of them were used
]
STATE_DTYPE = np.dtype(STATE_FIELDS)


def _assert_no_padding(dt):
    total = sum(dt.fields[n][0].itemsize for n in dt.names)
    assert total == dt.itemsize, "state dtype has padding bytes"


_assert_no_padding(STATE_DTYPE)
