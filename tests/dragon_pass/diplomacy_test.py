"""Diplomacy and alliances (L975-L1003, L1133-L1137; rules/alliance.py), in
the Full Game (18.7, L295-L301).

At the start of each game-turn each player receives Diplomacy Points --
none while the enemy occupies his capital, 1 fewer for each allied
capital the enemy occupies -- takes the replacements his dead piles give,
and assigns points to the Major Independents in secret. In his Alliance
Phase the active player calls out a Major and his points: more than the
other player's, and at least its price, wins the alliance; denied, the
other player, if he assigned more, gains 5 DP with it. Emissaries seek the
Minor Independents by the Emissary Table. An allied Major's units are set
up in its territory, enemy units in its capital eliminated, and keep to
the territory in the movement phase that follows; active units
trespassing into a neutral Major's territory give the other player 1 DP.
"""
import numpy as np

from dragongym.envs.dragon_pass import rules as R
from dragongym.envs.dragon_pass.constants import ST_ALLIANCE
from dragongym.envs.dragon_pass.data import MAP
from dragongym.envs.dragon_pass.game import GAME
from dragongym.envs.dragon_pass.unitdata import FACTIONS

from .scenario import LUNAR, SARTAR, Position, hexi, seat, unit

EXILES = R.MAJORS.index("exiles")
DRAGONEWTS = R.MAJORS.index("dragonewts")
BLACK_HORSE = R.MAJORS.index("black_horse")
CRAGSPIDER = R.MAJORS.index("cragspider")
ANDROGEUS = R.MAJORS.index("androgeus")
_SKIP = ("end the Exotic Magic Phase", "commit no more spirits or agents", "fight no more battles",
         "give no more magical support")


def full_game(**kw):
    """An 18.7 position, the map empty (scenario.Position)."""
    return Position("18.7", moon="full", **kw)


def skip(p):
    """Let the phases with nothing to do pass until a decision of diplomacy
    (18.9's purchases too), alliance or movement is asked."""
    while p.phase not in (R.PH_DIPLOMACY, R.PH_REPLACE, R.PH_PURCHASE, R.PH_ALLIANCE, R.PH_ALLY_SETUP,
                          R.PH_KEENER, R.PH_MOVE):
        texts = [t for t in p.legal() if t in _SKIP]
        assert texts, p.legal()
        p.act(texts[0])
    return p


def new_game_turn(p, turn, first=LUNAR):
    """The game-turn ``turn`` begins: the second player ends his movement
    phase of the game-turn before, and play goes on to its Diplomacy
    Segment (L170)."""
    s = p.s
    second = SARTAR if first == LUNAR else LUNAR
    p.movement(second, player_turn=2 * (turn - 1))
    s["first_force"] = seat(first)
    p.act("end the movement phase")
    return skip(p)


def alliance_phase(p, force, player_turn=1):
    """``force``'s Alliance Phase begins (its player-turn's first phase, L176)."""
    s = p.s
    p.movement(force, player_turn=player_turn)
    s["stage"] = ST_ALLIANCE
    s["step"] = 1
    s["phase"] = R.PH_ALLIANCE
    s["majors_sought"] = 0
    return p


def end_alliances(p):
    """The active player ends his Alliance Phase (it ends by itself once he has
    nothing left to seek)."""
    if "end the Alliance Phase" in p.legal():
        p.act("end the Alliance Phase")
    assert p.phase == R.PH_MOVE
    return p


def assign(p, force, major, points):
    """``force`` has assigned ``points`` DP to ``major`` (a rules.MAJORS name)."""
    p.s["dp_assigned"][seat(force), R.MAJORS.index(major)] = points


def test_rule_dp_diplomacy_points_each_game_turn_and_the_capitals():
    """L299: 25 DP on every game-turn after the first; L989: no DP while the
    enemy occupies one's capital (Furthest); L990: 1 fewer for each allied
    capital the enemy occupies, never below zero."""
    p = full_game()
    p.put("nf_tarsh_warriors#1", "0404")          # Furthest (the Lunar capital) held by the Lunars
    p.put("cm_town_militia#1", "3727")           # Boldhome held by Sartar
    new_game_turn(p, 2)
    assert list(p.s["dp"][:2]) == [25, 25]
    # the Exiles and the Grazelanders are Sartar's, their capitals held by Lunar units
    p = full_game()
    for k in ("exiles", "grazelanders"):
        p.s["faction_ally"][R.MAJORS.index(k)] = seat(SARTAR)
    p.put("nf_tarsh_warriors#1", "1921")           # Wintertop, the Exiles' capital
    p.put("nf_tarsh_warriors#2", "1229")           # Rich Post, the Grazelanders'
    p.put("cm_town_militia#1", "0404")           # and a Sartar unit in Furthest
    new_game_turn(p, 2)
    assert list(p.s["dp"][:2]) == [0, 23]
    # the penalty never takes a player below zero
    p = full_game()
    p.s["dp_next"][seat(SARTAR)] = -30
    new_game_turn(p, 2)
    assert list(p.s["dp"][:2]) == [25, 0]


def test_rule_dp_diplomacy_assignment_is_secret_and_simultaneous():
    """L977: players secretly allocate DPs simultaneously in the Diplomacy
    Segment: the first player assigns, then the second, whose observation
    shows nothing of the first's assignment; points not assigned are kept
    (Interpretations 92)."""
    from dragongym.envs.dragon_pass import observe as O
    from dragongym.envs.dragon_pass.game import GAME
    p = full_game()
    new_game_turn(p, 2)
    assert p.phase == R.PH_DIPLOMACY and p.to_play == LUNAR
    before = np.zeros((1, O.OBS_SIZE), np.float32)
    GAME.observe(p.S, np.array([seat(SARTAR)]), before)
    p.acts("assign 10 DP to Dragonewts", "assign 10 DP to Dragonewts", "assign 1 DP to Exiles")
    p.act("assign no more Diplomacy Points this game-turn (keep 4)")
    assert p.to_play == SARTAR and p.phase == R.PH_DIPLOMACY
    after = np.zeros((1, O.OBS_SIZE), np.float32)
    GAME.observe(p.S, np.array([seat(SARTAR)]), after)
    flat = O.FLAT_OFF
    changed = np.flatnonzero(before[0, flat:] != after[0, flat:])
    # only the pending decision and whose it is changed for Sartar
    assert all(O.F_PHASE <= i < O.F_ATT_TOTAL or i == O.F_ACTIVE for i in changed), changed
    assert int(p.s["dp_assigned"][seat(LUNAR), DRAGONEWTS]) == 20 and int(p.s["dp"][seat(LUNAR)]) == 4
    p.act("assign 1 DP to Exiles")
    p.act("assign no more Diplomacy Points this game-turn (keep 24)")
    assert int(p.s["dp"][seat(SARTAR)]) == 24      # kept for later game-turns


def test_rule_dp_alliance_granted_to_the_higher_assignment_at_its_price():
    """L979, L985, L1002: the active player calls out an independent and his
    points; if the inactive player has assigned fewer, the alliance is
    granted. The Exiles cost 20 DP: with less, the alliance cannot be sought
    (Interpretations 93)."""
    p = full_game()
    p.put("cm_town_militia#1", "3727")
    alliance_phase(p, SARTAR, player_turn=2)
    assign(p, SARTAR, "exiles", 19)
    assert "seek Exiles's alliance with 19 DP" not in p.legal()
    assign(p, SARTAR, "exiles", 22)
    assign(p, LUNAR, "exiles", 21)
    p.act("seek Exiles's alliance with 22 DP")
    assert int(p.s["faction_ally"][EXILES]) == seat(SARTAR)
    assert int(p.s["dp_announced"][seat(SARTAR), EXILES]) == 22          # called out: public
    assert p.phase == R.PH_ALLY_SETUP and p.to_play == SARTAR             # his units to set up


def test_rule_dp_alliance_denied_gives_the_higher_bidder_5_dp():
    """L979, L985: if the inactive player assigned more, the alliance is
    denied and he gains 5 DP with that independent; with equal points it is
    denied, and no one gains."""
    p = full_game()
    alliance_phase(p, LUNAR)
    assign(p, LUNAR, "androgeus", 12)
    assign(p, SARTAR, "androgeus", 14)
    p.act("seek Androgeus's alliance with 12 DP")
    assert int(p.s["faction_ally"][ANDROGEUS]) == -1
    assert int(p.s["dp_assigned"][seat(SARTAR), ANDROGEUS]) == 19
    assert "seek Androgeus's alliance with 12 DP" not in p.legal()     # once an Alliance Phase
    p = full_game()
    alliance_phase(p, LUNAR)
    assign(p, LUNAR, "androgeus", 14)
    assign(p, SARTAR, "androgeus", 14)
    p.act("seek Androgeus's alliance with 14 DP")
    assert int(p.s["faction_ally"][ANDROGEUS]) == -1
    assert int(p.s["dp_assigned"][seat(SARTAR), ANDROGEUS]) == 14


def test_rule_dp_alliance_results_capital_occupants_and_set_up_in_territory():
    """L987: enemy units in the capital when the independent is allied are
    eliminated (heroes may escape), herds among them captured; the
    independent's units are set up anywhere in their territory, never with
    inactive units; its spirits wait in their holding boxes (L416)."""
    p = full_game()
    p.put("nf_tarsh_warriors#1", "1921")           # a Lunar unit in Wintertop, the Exiles' capital
    p.put("nf_tarsh_warriors#2", "2020")           # another in their territory
    alliance_phase(p, SARTAR, player_turn=2)
    assign(p, SARTAR, "exiles", 20)
    p.act("seek Exiles's alliance with 20 DP")
    assert p.where("nf_tarsh_warriors#1") == "dead"
    assert p.where("nf_tarsh_warriors#2") == "2020"
    assert p.where("earth_shakers_cult_spirit") == "holding box"
    assert p.where("exiles_assassin") == "holding box"
    options = {t.rsplit(" at ", 1)[1] for t in p.legal()}
    exiles = {MAP.hex_id(h) for h in range(len(MAP.ids)) if R.HEX_MAJOR[h] == EXILES}
    assert options == exiles - {"2020"}
    while p.phase == R.PH_ALLY_SETUP:
        p.act(p.legal()[0])
    assert all(MAP.hex_id(int(p.s["unit_hex"][u])) in exiles for u in range(len(R.U_FACTION))
               if R.U_FACTION[u] == EXILES and int(p.s["unit_where"][u]) == 2)
    assert p.phase == R.PH_ALLIANCE or p.phase == R.PH_MOVE


def test_rule_dp_alliance_the_dragonewts_take_their_cities_and_move_at_once():
    """L740, L987: the dragonewts are placed on their home cities; inactive
    units in the cities are eliminated; unlike other Independents they can
    move outside their cities on the turn they are allied."""
    p = full_game()
    city2 = MAP.hex_id(int(R.CITY_HEX[1]))
    p.put("cm_town_militia#1", city2)
    alliance_phase(p, LUNAR)
    assign(p, LUNAR, "dragonewts", 45)
    p.act("seek Dragonewts's alliance with 45 DP")
    assert p.where("cm_town_militia#1") == "dead"
    for u in range(len(R.U_HOME_CITY)):
        if R.U_HOME_CITY[u] >= 0 and R.U_MAGICIAN[u] < 0:
            assert int(p.s["unit_hex"][u]) == int(R.CITY_HEX[R.U_HOME_CITY[u]])
    end_alliances(p)
    beaked = unit("dn_beaked#1")
    h = int(p.s["unit_hex"][beaked])
    p.act(f"select the stack at {MAP.hex_id(h)}")
    p.act(f"move {p.name('dn_beaked#1')} with the group")
    outside = [t for t in p.legal() if t.startswith("move") and "to" in t
               and R.HEX_MAJOR[hexi(t.rsplit(" ", 1)[1])] != DRAGONEWTS]
    assert outside                                   # he may leave his city at once


def test_rule_dp_alliance_a_majors_units_keep_to_their_territory_in_their_first_movement():
    """L987: a major independent's units cannot be moved outside their
    territory in the first movement phase after they are allied."""
    p = full_game()
    alliance_phase(p, SARTAR, player_turn=2)
    assign(p, SARTAR, "exiles", 20)
    p.act("seek Exiles's alliance with 20 DP")
    while p.phase == R.PH_ALLY_SETUP:
        name = p.legal()[0].split(" at ")[0][len("set up "):]
        p.act(f"set up {name} at 1619")
    end_alliances(p)
    p.act("select the stack at 1619")
    p.act(f"move {p.name('ex_infantry#1')} with the group")
    steps = [t for t in p.legal() if t.startswith("move") and " to " in t]
    assert steps and all(R.HEX_MAJOR[hexi(t.rsplit(" ", 1)[1])] == EXILES for t in steps)
    assert not any(t.endswith("to 1618") for t in steps)       # 1618 lies outside Wintertop Mountain


def test_rule_dp_alliance_the_grazelanders_herds_are_their_allys_own_and_stay_his_left_alone():
    """L592, L985: the Grazelanders' horse herds, set up by their new ally, are
    his own (not captured): one set up alone is still his at the end of the
    movement phase (Interpretations 51)."""
    p = full_game()
    alliance_phase(p, SARTAR, player_turn=2)
    assign(p, SARTAR, "grazelanders", 15)
    p.act("seek Grazelanders's alliance with 15 DP")
    herd_hex = None
    while p.phase == R.PH_ALLY_SETUP:
        legal = p.legal()
        name = legal[0].split(" at ")[0][len("set up "):]
        if name == p.name("horse_herds#1"):
            herd_hex = legal[-1].rsplit(" ", 1)[1]
            p.act(legal[-1])
        else:
            p.act(legal[0])
    assert herd_hex is not None and p.stack(herd_hex) == ["horse_herds#1"]
    p.act("end the movement phase")
    assert int(p.s["unit_force"][unit("horse_herds#1")]) == seat(SARTAR)
    assert p.stack(herd_hex) == ["horse_herds#1"]


def test_rule_dp_alliance_ethilrist_brings_the_hound_and_keener_than_goes_to_the_enemy():
    """L750, L756: when set up, the Hound must be stacked with Ethilrist; when
    a player allies Ethilrist, the opposing player takes control of Keener
    Than and places him in any of his stacks."""
    p = full_game()
    p.put("nf_tarsh_warriors#1", "1406")
    p.put("nf_tarsh_warriors#2", "0612")
    alliance_phase(p, SARTAR, player_turn=2)
    assign(p, SARTAR, "black_horse", 25)
    p.act("seek Ethilrist's alliance with 25 DP")
    assert p.where("keener_than") == "pool"
    while p.phase == R.PH_ALLY_SETUP:
        p.act(p.legal()[0])
    assert p.where("hell_hound") == p.where("ethilrist")
    assert p.phase == R.PH_KEENER and p.to_play == LUNAR
    assert sorted(p.legal()) == ["Keener Than joins the stack at 0612", "Keener Than joins the stack at 1406"]
    p.act("Keener Than joins the stack at 0612")
    assert p.where("keener_than") == "0612" and int(p.s["unit_force"][unit("keener_than")]) == seat(LUNAR)


def test_rule_dp_alliance_cragspiders_black_dragon_and_androgeus_force_march():
    """L768: the Black Dragon is placed on the Dragonrest near Cliffhome when
    Cragspider is allied, destroying the enemy units there (L344,
    Interpretations 104). L800: Androgeus force marches into play, from the
    south edge of Sartar if allied by Sartar (Interpretations 96)."""
    p = full_game()
    rest = MAP.hex_id(MAP.dragonrests["black"])
    p.put("nf_tarsh_warriors#1", rest)                  # a Lunar unit on the dragonrest (L344)
    alliance_phase(p, SARTAR, player_turn=2)
    assign(p, SARTAR, "cragspider", 25)
    assign(p, SARTAR, "androgeus", 10)
    p.act("seek Cragspider's alliance with 25 DP")
    assert p.where("black_dragon") == rest and p.where("nf_tarsh_warriors#1") == "dead"
    while p.phase == R.PH_ALLY_SETUP:
        p.act(p.legal()[0])
    p.act("seek Androgeus's alliance with 10 DP")
    assert p.where("androgeus") == "entering"
    end_alliances(p)
    p.act(f"bring {p.name('androgeus')} onto the board")
    edges = {t.split(" enters at ")[1] for t in p.legal()}
    assert edges and all(int(h[2:]) == MAP.rows and R.HEX_SARTAR[hexi(h)] for h in edges)


def test_rule_dp_trespassing_gives_the_inactive_player_1_dp():
    """L991: for each active unit that moves through or ends its movement in a
    neutral major independent's territory, the inactive player receives 1
    DP; no penalty for units that begin in the territory and move out
    (Interpretations 94)."""
    p = full_game()
    p.put("nf_tarsh_warriors#1", "1618")
    p.movement(LUNAR)
    name = p.name("nf_tarsh_warriors#1")
    p.acts("select the stack at 1618", f"move {name} with the group", f"move {name} from 1618 to 1619")
    assert list(p.s["dp"][:2]) == [0, 1]
    p.act(f"move {name} from 1619 to 1618")
    p.act(f"move {name} from 1618 to 1619")
    assert list(p.s["dp"][:2]) == [0, 1]                  # once a movement phase for each unit
    p = full_game()
    p.put("nf_tarsh_warriors#2", "1619")
    p.movement(LUNAR)
    name = p.name("nf_tarsh_warriors#2")
    p.acts("select the stack at 1619", f"move {name} with the group", f"move {name} from 1619 to 1618")
    assert list(p.s["dp"][:2]) == [0, 0]                  # it began inside and moved out


def test_rule_dp_emissary_table():
    """L997-L1000, L1137: an emissary at the hex where a minor independent
    resides rolls: 1-2 denied, the emissary and his stack eliminated; 3
    denied; 4-6 granted, the independent's units set up (the Sun Dome
    Templars at their temple, Interpretations 95). Allied units cannot be
    emissaries."""
    for roll, templars, emissary in ((1, "out", "dead"), (3, "out", "2631"), (5, "2631", "2631")):
        p = full_game()
        p.put("cm_town_militia#1", "2631")
        p.put("cm_town_militia#2", "2631")
        alliance_phase(p, SARTAR, player_turn=2)
        p.dice(roll)
        p.act(f"{p.name('cm_town_militia#1')} goes as an emissary at 2631")
        assert p.where("sun_dome_templars#1") == templars
        assert p.where("cm_town_militia#1") == emissary and p.where("cm_town_militia#2") == emissary
    assert int(p.s["faction_ally"][FACTIONS.index("sun_dome_templars")]) == seat(SARTAR)
    # a unit of an allied independent is no emissary
    p = full_game()
    p.s["faction_ally"][EXILES] = seat(SARTAR)
    p.put("ex_infantry#1", "2631")
    p.s["unit_force"][unit("ex_infantry#1")] = seat(SARTAR)
    alliance_phase(p, SARTAR, player_turn=2)
    assert not any("emissary" in t for t in p.legal())


def test_rule_dp_replacements_from_the_dead_piles():
    """L299: for every 2 dead infantry, 1 infantry replacement; for every 3
    dead cavalry, 1 cavalry replacement; Lunar replacements appear in
    Furthest. A player may delay them (L474)."""
    p = full_game()
    for name in ("nf_tarsh_warriors#1", "nf_tarsh_warriors#2", "nf_tarsh_warriors#3"):
        assert p.where(name) == "dead"
    p.s["dead_count"][seat(LUNAR)] = [3, 2]          # 3 dead infantry, 2 dead cavalry
    new_game_turn(p, 2)
    assert p.phase == R.PH_REPLACE and p.to_play == LUNAR
    offered = [t for t in p.legal() if t.endswith("comes back as a replacement")]
    assert offered and all(R.U_REPLACEABLE[unit_of(p, t)] == 0 for t in offered)
    back = unit_name_of(p, offered[0])
    p.act(offered[0])
    assert p.where(back) == "0404"
    assert p.phase != R.PH_REPLACE or p.to_play != LUNAR          # 3 dead infantry: one replacement


def unit_of(p, text):
    return GAME.string_to_action(p.S, text) - R.A_UNIT


def unit_name_of(p, text):
    from dragongym.envs.dragon_pass.constants import UNIT_IDS
    return UNIT_IDS[unit_of(p, text)]


def test_rule_dp_assassin_dp_lost_and_gained_next_turn():
    """L932-L947: a captured assassin costs 4 DP next turn (scouting) or 5
    (getaway), a killed one 2 or 3; a successful assassination gains 3."""
    from .exotic_test import choose, exotic
    for faces, kill, dp in (((1,), False, -4), ((2,), False, -2), ((3, 6, 1), True, 3 - 5),
                            ((3, 6, 2), True, 3 - 3), ((3, 1, 6), False, 0)):
        p = full_game()
        p.put("cm_town_militia#1", "2014")
        p.put("nf_tarsh_warriors#1", "2020")
        p.dice(*faces)
        exotic(p, SARTAR, player_turn=2)
        choose(p, "Sartar Assassin", "uses its exotic magic")
        p.act(f"{p.name('sartar_assassin')} scouts the stack at 2020")
        if len(faces) > 1:
            p.act(f"{p.name('sartar_assassin')} tries to kill {p.name('nf_tarsh_warriors#1')}")
        assert (p.where("nf_tarsh_warriors#1") == "dead") == kill
        skip(p)                                      # on to the next game-turn's Diplomacy Segment
        assert int(p.s["turn"]) == 2 and int(p.s["dp"][seat(SARTAR)]) == 25 + dp
    # 18.5 uses the assassins without the usual DP penalty (L271)
    p = Position("18.5", moon="full")
    p.put("cm_town_militia#1", "2014")
    p.put("nf_tarsh_warriors#1", "2015")
    p.dice(1)
    exotic(p, SARTAR, player_turn=2)
    choose(p, "Sartar Assassin", "uses its exotic magic")
    p.act(f"{p.name('sartar_assassin')} scouts the stack at 2015")
    assert p.where("sartar_assassin") == "dead" and int(p.s["dp_next"][seat(SARTAR)]) == 0


def test_rule_dp_qa_diplomacy_points_are_as_written_no_deduction_for_fortresses():
    """L1032 (Q&A): "I also deduct 1 DP for each originally friendly fortress
    held by the enemy ... is it correct? A. No, the rule is correct as
    written": only the capitals count (L989, L990)."""
    from dragongym.envs.dragon_pass.board import FORTRESS_NAMES
    p = full_game()
    for k, name in enumerate(FORTRESS_NAMES):
        if R.FORTRESS_SARTAR[k] and int(R.FORTRESS_HEX[k]) != int(R.FORCE_CAPITAL[seat(SARTAR)]):
            p.s["fortress_owner"][k] = seat(LUNAR)
    new_game_turn(p, 2)
    assert list(p.s["dp"][:2]) == [25, 25]


def test_rule_dp_dragonewts_travel_the_roads_through_the_exiles_territory_without_penalty():
    """L744, L482: dragonewts can move through Exiles' territory using a
    dragonewt road with no DP penalty; an ordinary step into it is
    trespassing (L991)."""
    p = full_game()
    p.s["faction_ally"][DRAGONEWTS] = seat(LUNAR)
    for name in ("dn_beaked#1", "dn_beaked#2"):
        p.s["unit_force"][unit(name)] = seat(LUNAR)
    p.put("dn_beaked#1", "1615")
    p.put("dn_beaked#2", "2117")
    p.movement(LUNAR)
    name = p.name("dn_beaked#1")
    p.acts("select the stack at 1615", f"move {name} with the group",
           f"move {name} by dragonewt road from 1615 to 1918")
    assert p.where("dn_beaked#1") == "1918" and list(p.s["dp"][:2]) == [0, 0]   # Shaker's Temple, Wintertop Mountain
    p.act("stop at 1918")
    name = p.name("dn_beaked#2")
    p.acts("select the stack at 2117", f"move {name} with the group", f"move {name} from 2117 to 2118")
    assert R.HEX_MAJOR[hexi("2118")] == EXILES and list(p.s["dp"][:2]) == [0, 1]


def test_rule_dp_the_black_dragon_moves_the_turn_cragspider_is_allied_but_keeps_to_her_territory():
    """L768, L987: the Black Dragon may move in the turn Cragspider is allied,
    but it cannot leave Cragspider's territory on that turn."""
    p = full_game()
    alliance_phase(p, LUNAR)
    assign(p, LUNAR, "cragspider", 25)
    p.act("seek Cragspider's alliance with 25 DP")
    while p.phase == R.PH_ALLY_SETUP:
        p.act(p.legal()[0])
    end_alliances(p)
    rest = MAP.hex_id(MAP.dragonrests["black"])
    p.acts(f"select the stack at {rest}", f"move {p.name('black_dragon')} with the group")
    steps = [t.rsplit(" ", 1)[1] for t in p.legal() if t.startswith("move") and " to " in t]
    assert steps and all(R.HEX_MAJOR[hexi(h)] == CRAGSPIDER for h in steps)
    assert int(p.s["unit_mp"][unit("black_dragon")]) > 0


_PASS = ("assign no more", "take no more", "end the", "fight no more battles", "commit no more",
         "give no more", "the cavalry moves")


def play_to(p, done):
    """Pass every decision (no points assigned, no move, no battle) until ``done(p)``."""
    while not done(p):
        p.act(next(t for t in p.legal() if t.startswith(_PASS)))
    return p


def test_rule_dp_alliance_ironhoof_allied_freezes_the_cavalry_from_his_controllers_next_player_turn():
    """L784: "the player that controls Ironhoof must announce this at the start
    of his player-turn segment": allied in the Alliance Phase (which follows
    that start, L176-L177), Ironhoof cannot freeze the cavalry in the movement
    phase of the same player-turn; at the start of his controller's next
    player-turn he can (Interpretations 185)."""
    p = full_game()
    p.put("cc_lancers#1", "1010")                     # Lunar cavalry (L786)
    alliance_phase(p, SARTAR, player_turn=2)
    assign(p, SARTAR, "half_beasts", 15)
    p.act("seek Ironhoof's alliance with 15 DP")
    while p.phase == R.PH_ALLY_SETUP:
        p.act(p.legal()[0])
    assert int(p.s["faction_ally"][R.MAJORS.index("half_beasts")]) == seat(SARTAR) and p.where("ironhoof") != "out"
    assert p.phase == R.PH_MOVE and p.to_play == SARTAR
    assert not any("Ironhoof" in t for t in p.legal())
    play_to(p, lambda p: int(p.s["player_turn"]) == 4 and p.to_play == SARTAR)
    assert p.phase == R.PH_FREEZE
    p.act("Ironhoof freezes every cavalry unit this game-turn")
    assert int(p.s["freeze_turn"]) == int(p.s["turn"]) == 2


def test_rule_dp_alliance_the_exiles_and_cragspider_bring_their_exotic_magic_to_their_ally():
    """L720, L776: the Earth-Shaker's Cult unleashes its earthquake in "its
    Exotic Magic phase" -- its ally's, once the Exiles are allied (L985); L764:
    Cragspider's Pillar of Fire likewise. Both are offered in Sartar's Exotic
    Magic Phase of the player-turn Sartar allied them (18.7 gives both sides
    one, L299), their spirits waiting in their holding boxes (L416)."""
    p = full_game()
    alliance_phase(p, SARTAR, player_turn=2)
    assign(p, SARTAR, "exiles", 20)
    assign(p, SARTAR, "cragspider", 25)
    p.act("seek Exiles's alliance with 20 DP")
    while p.phase == R.PH_ALLY_SETUP:
        p.act(p.legal()[0])
    p.act("seek Cragspider's alliance with 25 DP")
    while p.phase == R.PH_ALLY_SETUP:
        p.act(p.legal()[0])
    assert p.where("earth_shakers_cult_spirit") == "holding box" and p.where("cragspider_spirit") == "holding box"
    assert p.phase == R.PH_MOVE
    p.act("end the movement phase")
    assert p.phase == R.PH_EXOTIC and p.to_play == SARTAR
    assert any("Earth Shaker's Cult" in t and "uses its exotic magic" in t for t in p.legal())
    assert any("Cragspider" in t and "uses its exotic magic" in t for t in p.legal())


def test_rule_dp_the_first_emissary_to_delecti_allies_him_and_becomes_zombie_1():
    """L817-L819: normal emissary rules do not apply: the first emissary sent to
    Delecti automatically gains an alliance with him, is eliminated and
    replaced by zombie 1; a hero used to ally Delecti makes no heroic escape."""
    p = full_game()
    p.put("cm_town_militia#1", "2423")
    p.put("harrek", "2423")
    alliance_phase(p, SARTAR, player_turn=2)
    p.act(f"{p.name('harrek')} goes as an emissary at 2423")
    assert int(p.s["faction_ally"][FACTIONS.index("delecti")]) == seat(SARTAR)
    assert p.where("harrek") == "dead"                   # no heroic escape
    assert p.where("delecti") == "2423" and p.where("zombies#1") == "2423"
    assert p.where("cm_town_militia#1") == "2423"
    assert int(p.s["unit_force"][unit("zombies#1")]) == seat(SARTAR)
    assert not any("emissary" in t for t in p.legal())    # allied: no second emissary


def test_rule_dp_an_emissary_at_the_dwarf_mine_rolls_dwarf_luck_again_and_again():
    """L853-L866, L1034 (Q&A): an emissary at the Dwarf Mine rolls on the Dwarf
    Luck Table instead of the Emissary Table: 2-3 a Stone Man, 6 the Dwarf
    allies (his other gifts lost); 1 slays the emissary alone; the Dwarf Luck
    may be rolled more than once (a second emissary the same phase)."""
    p = full_game()
    for name in ("cm_town_militia#1", "cm_town_militia#2", "cm_town_militia#3"):
        p.put(name, "2612")
    alliance_phase(p, SARTAR, player_turn=2)
    p.dice(2, 1, 6)
    p.act(f"{p.name('cm_town_militia#1')} goes as an emissary at 2612")
    assert p.where("stone_men#1") == "2612" and int(p.s["unit_force"][unit("stone_men#1")]) == seat(SARTAR)
    assert int(p.s["unit_mp"][unit("stone_men#1")]) > 0                # it moves this turn (L993)
    p.act(f"{p.name('cm_town_militia#2')} goes as an emissary at 2612")
    assert p.where("cm_town_militia#2") == "dead" and p.where("cm_town_militia#1") == "2612"
    p.act(f"{p.name('cm_town_militia#3')} goes as an emissary at 2612")
    assert p.where("dwarf") == "2612" and int(p.s["faction_ally"][FACTIONS.index("dwarf")]) == seat(SARTAR)
    assert p.where("alchemical_transformer") == "dead"                 # his remaining gifts are lost
    assert p.where("stone_men#1") == "2612"


def test_rule_dp_dwarf_luck_4_the_cannon_cult_5_the_transformer_and_nothing_once_given_away():
    """L859-L866, L855: 4 gives the Cannon Cult (its agent to its holding box,
    L416), 5 the Alchemical Transformer, each on top of the emissary's stack
    (Interpretations 120); "if all of the gifts of the indicated type have
    already been given away, the emissary receives nothing": a second 5, and
    a 3 once both Stone Men are given, leave the emissary and his stack as
    they were. A 1 slays only the emissary, and a hero or superhero slain
    attempts a heroic escape."""
    p = full_game()
    p.put("harrek", "2612")
    for k in (1, 2, 3, 4):
        p.put(f"cm_town_militia#{k}", "2612")
    for name in ("stone_men#1", "stone_men#2"):
        p.put(name, "3030")                                         # both Stone Men given away before
        p.s["unit_force"][unit(name)] = seat(LUNAR)
    alliance_phase(p, SARTAR, player_turn=2)
    p.dice(4, 5, 5, 3)
    p.act(f"{p.name('cm_town_militia#1')} goes as an emissary at 2612")
    assert p.stack("2612")[0] == "cannon_cult" and int(p.s["unit_force"][unit("cannon_cult")]) == seat(SARTAR)
    assert p.where("cannon_cult_agent") == "holding box"
    assert int(p.s["unit_force"][unit("cannon_cult_agent")]) == seat(SARTAR)
    p.act(f"{p.name('cm_town_militia#2')} goes as an emissary at 2612")
    assert p.stack("2612")[0] == "alchemical_transformer"
    assert int(p.s["unit_force"][unit("alchemical_transformer")]) == seat(SARTAR)
    before = p.stack("2612")
    p.act(f"{p.name('cm_town_militia#3')} goes as an emissary at 2612")     # a 5 again: nothing
    assert p.stack("2612") == before
    p.act(f"{p.name('cm_town_militia#4')} goes as an emissary at 2612")     # a 3, no Stone Man left: nothing
    assert p.stack("2612") == before and sorted(p.stack("3030")) == ["stone_men#1", "stone_men#2"]
    assert int(p.s["faction_ally"][FACTIONS.index("dwarf")]) == -1 and p.where("dwarf") != "2612"
    # 1: a hero or superhero slain by the Dwarf attempts a heroic escape (L855)
    p.dice(1)
    p.act(f"{p.name('harrek')} goes as an emissary at 2612")
    assert p.where("harrek") == "escaping" and p.where("cm_town_militia#4") == "2612"


def test_rule_dp_the_tusk_riders_are_allied_by_blood_sacrifice():
    """L906-L908: a magician present with any other unit at the Ivory Plinth
    sacrifices it; on a 1 the alliance is rejected and both are eliminated
    (the magician a hero may escape), on 2-6 the Tusk Riders appear in the hex."""
    for roll, allied in ((1, False), (2, True)):
        p = full_game()
        p.put("bh_shamans#1", "2802")
        p.put("cm_town_militia#1", "2802")
        alliance_phase(p, SARTAR, player_turn=2)
        # the lone magician is not offered: no other magician would sacrifice him
        assert f"{p.name('bh_shamans#1')} is offered to the Tusk Riders at 2802" not in p.legal()
        p.dice(roll)
        p.act(f"{p.name('cm_town_militia#1')} is offered to the Tusk Riders at 2802")
        assert p.phase == R.PH_SACRIFICE and p.to_play == SARTAR
        p.act(f"{p.name('bh_shamans#1')} sacrifices {p.name('cm_town_militia#1')} to the Tusk Riders")
        assert p.where("cm_town_militia#1") == "dead"
        assert (int(p.s["faction_ally"][FACTIONS.index("tusk_riders")]) == seat(SARTAR)) == allied
        assert (p.where("tusk_riders#1") == "2802") == allied
        assert (p.where("bh_shamans#1") == "dead") == (not allied)
    # a lone magician has no one to sacrifice
    p = full_game()
    p.put("bh_shamans#1", "2802")
    alliance_phase(p, SARTAR, player_turn=2)
    assert not any("Tusk Riders" in t for t in p.legal())


def test_rule_dp_blood_sacrifice_a_sacrificed_superhero_makes_no_escape_a_hero_magician_does():
    """L908: a hero or superhero sacrificed "cannot attempt heroic escapes";
    on a 1 the magician is eliminated too -- "if the magician was a hero, he
    can attempt a heroic escape" (L642): the Red Emperor sacrifices Jar-eel
    and is rejected."""
    p = full_game()
    p.put("jar_eel", "2802")
    p.put("red_emperor", "2802")
    alliance_phase(p, LUNAR)
    p.dice(1)
    p.act(f"{p.name('jar_eel')} is offered to the Tusk Riders at 2802")
    p.act(f"{p.name('red_emperor')} sacrifices {p.name('jar_eel')} to the Tusk Riders")
    assert p.where("jar_eel") == "dead" and p.where("red_emperor") == "escaping"
    assert int(p.s["faction_ally"][FACTIONS.index("tusk_riders")]) == -1 and p.where("tusk_riders#1") != "2802"


def illusions_at_start(p):
    """The Puppeteers' 5 Illusory Armies back at their locations, no one's, as
    18.7 sets them up (the Position empties the map)."""
    for k, u in enumerate(R.ILLUSORY_ARMIES):
        name = R.UNIT_IDS[int(u)]
        p.put(name, MAP.hex_id(int(R.PUPPETEER_HOMES[k])))
        p.s["unit_force"][int(u)] = -1


def test_rule_dp_the_puppeteers_cup_then_the_emissary_table():
    """L886: when an emissary is in one of the 5 Puppeteer locations, a counter
    is drawn from the cup: a blank removes that Illusory Army; the Puppeteers
    drawn are in the hex, every Illusory Army removed, and the emissary rolls
    on the Emissary Table; failing, all further attempts must be made from
    the hex where they were found."""
    p = full_game()
    illusions_at_start(p)
    p.put("cm_town_militia#1", "1325")
    p.put("cm_town_militia#2", "2315")
    p.put("cm_town_militia#3", "3216")
    alliance_phase(p, SARTAR, player_turn=2)
    p.dice(2)                                             # a blank
    p.act(f"{p.name('cm_town_militia#1')} goes as an emissary at 1325")
    assert p.stack("1325") == ["cm_town_militia#1"] and int(p.s["puppet_blanks"]) == 1
    p.dice(1, 3)                                          # the Puppeteers, then an Emissary Table 3: denied
    p.act(f"{p.name('cm_town_militia#2')} goes as an emissary at 2315")
    assert p.where("puppeteer_troop") == "2315" and int(p.s["unit_force"][unit("puppeteer_troop")]) == -1
    assert all(p.where(R.UNIT_IDS[int(u)]) != "3216" for u in R.ILLUSORY_ARMIES)
    assert not any("emissary" in t for t in p.legal())   # only from 2315 now: not from 3216
    p = full_game()
    illusions_at_start(p)
    p.put("cm_town_militia#1", "2308")
    alliance_phase(p, SARTAR, player_turn=2)
    p.dice(1, 5)
    p.act(f"{p.name('cm_town_militia#1')} goes as an emissary at 2308")
    assert p.where("puppeteer_troop") == "2308" and int(p.s["unit_force"][unit("puppeteer_troop")]) == seat(SARTAR)
    assert int(p.s["faction_ally"][FACTIONS.index("puppeteers")]) == seat(SARTAR)


def test_rule_dp_the_hydra_allied_rolls_its_mgf():
    """L878-L880: the Hydra allied by an emissary at Hydra Hill (0314); once
    allied a die gives its chaotic MgF, and it cannot move until fed as many
    units."""
    p = full_game()
    p.put("nf_tarsh_warriors#1", "0314")
    alliance_phase(p, LUNAR)
    p.dice(6, 4)
    p.act(f"{p.name('nf_tarsh_warriors#1')} goes as an emissary at 0314")
    assert p.where("hydra") == "0314" and int(p.s["unit_force"][unit("hydra")]) == seat(LUNAR)
    assert int(p.s["hydra_mgf"]) == -4 and int(p.s["hydra_hunger"]) == 4


def test_rule_dp_a_dragon_allied_by_an_emissary_at_its_dragonrest():
    """L839-L841: the red, green and brown dragons are allied by the normal
    emissary rules at their dragonrests; allied, a dragon appears there and
    can move and attack in the same turn."""
    rest = MAP.hex_id(MAP.dragonrests["red"])
    p = full_game()
    p.put("nf_tarsh_warriors#1", rest)
    alliance_phase(p, LUNAR)
    p.dice(4)
    p.act(f"{p.name('nf_tarsh_warriors#1')} goes as an emissary at {rest}")
    assert p.where("red_dragon") == rest and int(p.s["unit_force"][unit("red_dragon")]) == seat(LUNAR)
    assert int(p.s["unit_mp"][unit("red_dragon")]) > 0
    assert p.where("nf_tarsh_warriors#1") == rest


def through_diplomacy(p):
    """Both players keep their Diplomacy Points this Diplomacy Segment."""
    while p.phase == R.PH_DIPLOMACY:
        p.act(next(t for t in p.legal() if t.startswith("assign no more")))
    return p


def test_rule_dp_random_event_13_androgeus_allies_the_highest_offer_so_far():
    """L959: Androgeus allies to the side that has offered him the most
    Diplomacy Points so far; both sides announce what they assigned; a tie
    allies no one."""
    p = full_game()
    p.s["random_events"] = 1
    assign(p, LUNAR, "androgeus", 8)
    assign(p, SARTAR, "androgeus", 6)
    p.dice(1, 3)
    new_game_turn(p, 2)
    through_diplomacy(p)
    assert int(p.s["event_roll"]) == 13
    assert int(p.s["faction_ally"][ANDROGEUS]) == seat(LUNAR) and p.where("androgeus") == "entering"
    assert list(p.s["dp_announced"][:2, ANDROGEUS]) == [8, 6]
    p = full_game()
    p.s["random_events"] = 1
    assign(p, LUNAR, "androgeus", 6)
    assign(p, SARTAR, "androgeus", 6)
    p.dice(1, 3)
    new_game_turn(p, 2)
    through_diplomacy(p)
    assert int(p.s["faction_ally"][ANDROGEUS]) == -1


def test_rule_dp_random_event_12_the_dragonewts_go_to_the_higher_secret_offer():
    """L958: both players secretly write the DP they will give to ally the
    Dragonewts, no more than they are still to receive; the higher offer
    gains the alliance (equal: neither) and gives every DP received until it
    is paid; points assigned before do not count toward it."""
    from dragongym.envs.dragon_pass import observe as O
    p = full_game()
    p.s["random_events"] = 1
    assign(p, LUNAR, "dragonewts", 20)
    p.dice(1, 2)
    new_game_turn(p, 2)
    through_diplomacy(p)
    assert p.phase == R.PH_AUCTION and p.to_play == LUNAR
    p.acts("offer 10 DP more for the Dragonewts", "offer 5 DP more for the Dragonewts")
    p.act("write the offer for the Dragonewts: 15 DP")
    assert p.to_play == SARTAR
    obs = np.zeros((1, O.OBS_SIZE), np.float32)
    GAME.observe(p.S, np.array([seat(SARTAR)]), obs)
    assert obs[0, O.FLAT_OFF + O.F_AUCTION + 1] == 0          # the Lunar offer is not shown yet
    p.act("offer 10 DP more for the Dragonewts")
    p.act("write the offer for the Dragonewts: 10 DP")
    assert int(p.s["faction_ally"][DRAGONEWTS]) == seat(LUNAR)
    assert int(p.s["dp_debt"][seat(LUNAR)]) == 15                # the 20 assigned before do not count
    GAME.observe(p.S, np.array([seat(SARTAR)]), obs)
    assert obs[0, O.FLAT_OFF + O.F_AUCTION + 1] == np.float32(15 / 50)   # shown once both are written
    # the next game-turn's 25 DP pay the debt first
    held = int(p.s["dp"][seat(LUNAR)])
    new_game_turn(p, 3)
    assert int(p.s["dp_debt"][seat(LUNAR)]) == 0 and int(p.s["dp"][seat(LUNAR)]) == held + 10
    # no offer above the points still to come: in game-turn 13 of 14, 25
    p = full_game()
    p.s["random_events"] = 1
    p.dice(1, 2)
    new_game_turn(p, 13)
    through_diplomacy(p)
    p.acts("offer 10 DP more for the Dragonewts", "offer 10 DP more for the Dragonewts",
           "offer 5 DP more for the Dragonewts")
    assert p.legal() == ["write the offer for the Dragonewts: 25 DP"]


def test_hidden_variants_deal_the_secret_points_and_offers_anew():
    """A player's assigned Diplomacy Points (L979) and his written offer for the
    Dragonewts (L958) are his secrets: the other seat's hidden variants
    (``GAME.hidden_variants``) deal them anew -- totals and called-out figures
    kept -- and leave that seat's observation unchanged."""
    from dragongym.envs.dragon_pass import observe as O
    p = full_game()
    p.s["random_events"] = 1
    assign(p, LUNAR, "dragonewts", 20)
    assign(p, LUNAR, "exiles", 7)
    p.s["dp_announced"][seat(LUNAR), EXILES] = 5
    p.dice(1, 2)
    new_game_turn(p, 2)
    through_diplomacy(p)
    p.acts("offer 10 DP more for the Dragonewts", "write the offer for the Dragonewts: 10 DP")
    assert p.phase == R.PH_AUCTION and p.to_play == SARTAR
    rng = np.random.default_rng(0)
    me = np.array([seat(SARTAR)])
    seen = np.zeros((1, O.OBS_SIZE), np.float32)
    GAME.observe(p.S, me, seen)
    total = int(p.s["dp"][seat(LUNAR)]) + int(p.s["dp_assigned"][seat(LUNAR)].sum())
    dealt, offers = set(), set()
    for v in GAME.hidden_variants(p.S, seat(SARTAR), rng, count=8):
        obs = np.zeros((1, O.OBS_SIZE), np.float32)
        GAME.observe(v, me, obs)
        assert np.array_equal(obs, seen)
        r = v[0]
        assert int(r["dp"][seat(LUNAR)]) + int(r["dp_assigned"][seat(LUNAR)].sum()) == total
        assert int(r["dp_assigned"][seat(LUNAR), EXILES]) >= 5          # called out: never less
        dealt.add(tuple(int(x) for x in r["dp_assigned"][seat(LUNAR)]))
        offers.add(int(r["auction_bid"][seat(LUNAR)]))
    assert len(dealt) > 1 and len(offers) > 1                           # the secrets really vary
