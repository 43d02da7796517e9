"""A hand-written Dragons Down bot (``"dragons_down.heuristic"``, the game's
``heuristic_agent``).

It reads the position through the documented view
(:mod:`dragongym.envs.dragons_down.view`) and the public fields of the
record (its own hero, the realm, the chips on the map), never the other
seats' face-down cards, the piles' order or the future dice.
"""
import numpy as np

from dragongym.agents.base import Agent
from dragongym.envs.dragons_down import data as D
from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down import view as V
from dragongym.envs.dragons_down.constants import (
    CLASS_IDS, CLEARINGS_PER_TILE, CUBE_MAGIC, CUBE_MIGHT, CUBE_SPEED, CW_HERO, LINEAGE_IDS, MONSTER_IDS,
    NUM_MONSTER_CHIPS, SB_LEGENDARY, SPELL_IDS, T_BACKPACK,
)

LINEAGES = ("human", "dwarf", "halfling", "elf")
"""Lineage preference: the sturdy ones first."""
CLASSES = ("knight", "barbarian", "warrior", "archer", "rogue", "cleric", "druid", "sorcerer", "conjurer",
           "enchanter", "illusionist", "warlock")
"""Class preference: fighters first (its spells serve a hero that has them; a fighter wins more)."""
LATE = 3
"""Turns before the last in which the hero heads for civilization and retires."""


class DragonsDownHeuristic(Agent):
    """Plays Dragons Down like a careful adventurer, deciding per pending phase.

    Strategy:

    * **Hero**: a Human or Dwarf fighter (Knight, Barbarian, Warrior first).
    * **Action phase**: rests when hurt (a wounded Heart, or two wounded
      cubes); loots a found pile in its clearing; searches for a site it stands
      on; explores where it can; otherwise walks toward the nearest clearing of
      a tile it has not seen, or a site or body it knows of, avoiding clearings
      with more monsters than it can face; in the last turns walks back to the
      nearest Civilization Location and waits there to retire; sells what lies
      in its backpack when at a Merchant.
    * **Reactions**: hides from a block, and at the end of activation when the
      monsters outnumber what it can beat.
    * **Combat**: targets the monster with the least health (never a Native,
      who would turn hostile); fills its weapon's might boxes, then splits
      Speed between attack and maneuver; evades when outmatched; takes hits on
      armour; wounds spare Speed and Magic Cubes before Might and Hearts.
    * **One-time cards**: reads a Tome and drinks a Potion of Might or
      Maneuver at once (a cube for good), a Potion of Healing when hurt, a
      Potion of Relief when cursed, a Potion of Energy in its first combat,
      the King's Pardon when an Outlaw in civilization; a Tome of Wizardry's
      colour is that of a known spell. In Hero Tactics it puts a Magic Cube
      on each treasure that takes one and serves (after its weapon's might,
      before speed).
    * **Missions and titles**: completes a mission or claims a title
      whenever a Trade Action can (the best reward first); at a Merchant
      listing missions, with fewer than two in hand, looks and takes those
      whose tasks ask little of it (tiles to walk into, sites to loot, weak
      Monsters; never Natives), the best paid first; counts a mission's
      place and task tiles among the clearings it walks toward; past two at
      the end of its turn discards the least worth; takes a Quest's pardon.
    * **Retirement**: retires late in the game, or in the Legendary race once
      its Fame would bring it to 20 LP.
    * Anything else: a uniformly random legal action.
    """

    name = "dragons_down.heuristic"
    uses_state = True

    def __init__(self, game=None):
        self.game = game

    def act(self, obs, mask, rng):
        legal = np.flatnonzero(mask)
        return int(rng.choice(legal))

    def act_state(self, game, state, player, rng):
        rec = state[0]
        mask = game.mask_of(state)
        legal = [int(a) for a in np.flatnonzero(mask)]
        if len(legal) == 1:
            return legal[0]
        ph = int(rec["phase"])
        a = mission_choice(state, rec, int(player), set(legal), ph)
        if a is not None and a in legal:
            return int(a)
        choose = _PHASES.get(ph)
        if ph == R.PH_ACTION:
            a = choose_action(rec, int(player), set(legal), rng, mission_goals(state, rec, int(player)))
            if a is not None and a in legal:
                return int(a)
            calm = [x for x in legal if not R.A_SEAT <= x < R.A_SEAT + R.MAX_HEROES]   # never a Hero Block
            if calm:
                return int(rng.choice(calm))
        elif choose is not None:
            a = choose(rec, int(player), set(legal), rng)
            if a is not None and a in legal:
                return int(a)
        return int(rng.choice(legal))


# ---------------------------------------------------------------- missions and titles (L564-L567, L1071, L1083)
def mission_choice(state, rec, p, legal, ph):
    """The decisions of missions and titles, or None to leave the phase to
    its chooser. Reads the hero's own cards, the Merchant's cards only once
    looked at (the mask offers no other), and the public deeds."""
    if ph == R.PH_ACTION:
        if R.A_DO + R.DO_TRADE in legal and (_deals(state, p) or _missions_wanted(state, rec, p)):
            return R.A_DO + R.DO_TRADE
        return None
    if ph == R.PH_TRADE_WITH:
        deals = _deals(state, p)
        if deals:
            return max(deals, key=lambda a: _deal_value(a))
        if _missions_wanted(state, rec, p):
            return _first(legal, [R.A_MERCHANT + m for m in _listing_merchants(state, rec, p)])
        return None
    if ph in (R.PH_COMMERCE, R.PH_TAKE_MISSION):
        takes = [a for a in _block(legal, R.A_MISSION, R.NUM_MISSIONS)
                 if _mission_effort(state, p, a - R.A_MISSION) <= EFFORT_LIMIT]
        if takes and R.missions_held(state, 0, p) < R.MAX_HELD_MISSIONS:
            return max(takes, key=lambda a: _mission_value(state, p, a - R.A_MISSION))
        if ph == R.PH_TAKE_MISSION:
            return R.A_DO + R.DO_DONE
        if R.A_STEP + R.STEP_LOOK in legal and _missions_wanted(state, rec, p):
            return R.A_STEP + R.STEP_LOOK
        return None
    if ph == R.PH_MISSION_LIMIT:
        return min(_block(legal, R.A_MISSION, R.NUM_MISSIONS),
                   key=lambda a: _mission_value(state, p, a - R.A_MISSION))
    if ph == R.PH_PARDON:
        return R.A_ANSWER + R.ANSWER_ACCEPT
    return None


def _deals(state, p):
    """The missions hero p may complete and titles he may claim now."""
    out = np.zeros(R.MAX_MISSION_OPTIONS, dtype=np.int64)
    return [int(a) for a in out[:R.mission_options(state, 0, p, out, 0)]]


def _deal_value(a):
    if a >= R.A_TITLE:
        i = a - R.A_TITLE
        return 10 * int(R.TITLE_REWARD[i, 0]) + int(R.TITLE_REWARD[i, 1]) - int(R.TITLE_PRICE[i]) // 2
    k = a - R.A_MISSION
    return 10 * int(R.MISSION_REWARD[k, 1]) + int(R.MISSION_REWARD[k, 2]) + int(R.MISSION_REWARD[k, 0]) // 2


TASK_EFFORT = {R.TASK_ENTER: 10, R.TASK_LOOT: 20, R.TASK_KILL_NATIVE: 1000}
"""What a task still to do costs this bot, per step: a tile to walk into, a
site to loot; a Native it never attacks (they turn the clearing hostile).
A kill costs ``KILL_EFFORT`` of the easiest kind the task counts."""
KILL_EFFORT = np.array([10 * D.REALM.monsters[m].health + (60 if D.REALM.monsters[m].kind in ("leader", "guardian")
                                                              else 0) for m in MONSTER_IDS])
"""Monster kind -> what killing one costs this bot: its health, and much
more for a leader or a guardian."""
EFFORT_LIMIT = 60
"""The bot takes a mission that asks no more of it than this."""


def _mission_effort(state, p, k):
    """What Mission Card k's tasks still ask of hero p (``TASK_EFFORT``)."""
    effort = 0
    for j in range(R.MAX_TASKS):
        done, need = R.task_progress(state, 0, p, k, j)
        if done >= need:
            continue
        verb = int(R.TASK_VERB[k, j])
        if verb == R.TASK_KILL:
            step = int(KILL_EFFORT[R.TASK_KINDS[k, j] != 0].min())
        else:
            step = TASK_EFFORT[verb]
        effort += step * (need - done)
    return effort


def _mission_value(state, p, k):
    """How well Mission Card k suits hero p: its reward less what its tasks
    still ask of him."""
    return _deal_value(R.A_MISSION + k) - _mission_effort(state, p, k)


def mission_goals(state, rec, p):
    """Clearings hero p's missions send him to: the place of one whose tasks
    are done (to complete it), the tiles its enter tasks name and the sites
    its loot tasks name that he knows of (to do them)."""
    goals = set()
    for k in range(R.NUM_MISSIONS):
        if int(rec["mission_where"][k]) != R.MW_HERO or int(rec["mission_owner"][k]) != p:
            continue
        if R.tasks_met(state, 0, p, k):
            pack = int(R.MISSION_AT_CIV[k])
            if pack >= 0 and int(rec["civ_clearing"][pack]) >= 0:
                goals.add(int(rec["civ_clearing"][pack]))
            elif pack < 0:
                goals.update(c for c in V.clearings(rec) if int(R.MISSION_AT_MERCHANT[k]) in V.merchants_at(rec, c))
            continue
        for j in range(R.MAX_TASKS):
            done, need = R.task_progress(state, 0, p, k, j)
            t = int(R.TASK_TARGET[k, j])
            if done >= need or t < 0:
                continue
            if R.TASK_VERB[k, j] == R.TASK_ENTER and int(rec["tile_where"][t]) == R.TW_PLACED:
                goals.update(t * CLEARINGS_PER_TILE + i for i in range(CLEARINGS_PER_TILE))
            elif R.TASK_VERB[k, j] == R.TASK_LOOT and int(rec["site_found"][p, t]):
                goals.add(int(rec["site_clearing"][t]))
    goals.discard(int(rec["hero_clearing"][p]))
    return goals


def _listing_merchants(state, rec, p):
    """The Merchants here listing a mission the bot would take -- or any
    mission, while it has not looked at their cards."""
    out = []
    for m in range(R.NUM_MERCHANTS):
        if not R.merchant_here(state, 0, p, m):
            continue
        looked = R.has_looked(state, 0, p, m)
        if any(int(rec["mission_where"][k]) == R.MW_MERCHANT and int(rec["mission_owner"][k]) == m
               and (not looked or _mission_effort(state, p, k) <= EFFORT_LIMIT) for k in range(R.NUM_MISSIONS)):
            out.append(m)
    return out


def _missions_wanted(state, rec, p):
    """Fewer than two missions in hand and a Merchant here lists one worth taking."""
    return R.missions_held(state, 0, p) < R.MAX_HELD_MISSIONS and bool(_listing_merchants(state, rec, p))


# ---------------------------------------------------------------- helpers
def _first(legal, candidates):
    for a in candidates:
        if a in legal:
            return a
    return None


def _block(legal, base, size):
    return [a for a in legal if base <= a < base + size]


def strength(rec, p):
    """A rough fighting value of p's hero: healthy Hearts, Might and Speed."""
    return int(rec["hearts"][p, 0]) + int(rec["cubes"][p, 0, CUBE_MIGHT]) + int(rec["cubes"][p, 0, CUBE_SPEED])


def threat(rec, c):
    """How dangerous the monsters in clearing c look (their printed health)."""
    total = 0
    for m in np.flatnonzero(rec["mon_clearing"] == c):
        total += int(R.FOE_HEALTH[m])
    return total


def outmatched(rec, p):
    c = int(rec["hero_clearing"][p])
    return c >= 0 and threat(rec, c) > strength(rec, p)


def _last_turn(rec):
    """The game's last turn (``rules/fate.py::last_turn``, read from the record)."""
    if int(rec["sandbox"]) == SB_LEGENDARY and int(rec["num_players"]) > 1:
        return int(rec["max_turns"])
    return min(int(rec["max_turns"]), 30)


def is_late(rec):
    return int(rec["turn"]) >= _last_turn(rec) - LATE


def civ_clearings(rec):
    return {int(c) for c in rec["civ_clearing"] if int(c) >= 0}


def step_toward(rec, p, goals, legal):
    """The legal move (A_CLEARING + c) on a shortest path from p's clearing to
    one of ``goals``, or None."""
    start = int(rec["hero_clearing"][p])
    if start < 0 or not goals:
        return None
    prev = {start: None}
    frontier = [start]
    found = None
    while frontier and found is None:
        nxt = []
        for c in frontier:
            for n in V.neighbours(rec, c, p):
                if n not in prev:
                    prev[n] = c
                    if n in goals:
                        found = n
                        break
                    nxt.append(n)
            if found is not None:
                break
        frontier = nxt
    if found is None:
        return None
    c = found
    while prev[c] != start:
        c = prev[c]
    a = R.A_CLEARING + c
    return a if a in legal else None


# ---------------------------------------------------------------- set-up
def choose_lineage(rec, p, legal, rng):
    return _first(legal, [R.A_LINEAGE + LINEAGE_IDS.index(x) for x in LINEAGES])


def choose_class(rec, p, legal, rng):
    return _first(legal, [R.A_CLASS + CLASS_IDS.index(x) for x in CLASSES])


def choose_side(rec, p, legal, rng):
    return _first(legal, [R.A_SIDE])


# ---------------------------------------------------------------- the action phase
def _use_card(rec, p, legal):
    """A one-time card worth using now (L916): one that gives a cube for good,
    heals a hurt hero, lifts curses or pardons; never the Alchemist's
    Mixture (a swap of colours the bot has no use for)."""
    hurt = int(rec["hearts"][p, 1]) > 0 or sum(int(x) for x in rec["cubes"][p, 1]) >= 2
    for a in _block(legal, R.A_CARD, len(rec["card_where"])):
        k = int(R.CARD_KIND[a - R.A_CARD])
        if int(R.KIND_GRANTS[k]) >= 0 or k in (R.POTION_OF_RELIEF, R.KINGS_PARDON, R.POTION_OF_ENERGY) \
                or (k == R.POTION_OF_HEALING and hurt):
            return a
    return None


def choose_use_colour(rec, p, legal, rng):
    """A Tome of Wizardry's colour: that of a known spell, else the commonest it holds."""
    known = [int(R.SPELL_COLOUR[int(R.SPELL_KIND[sp])]) for sp in range(R.NUM_SPELLS)
             if int(rec["spell_where"][sp]) == R.SPW_KNOWN and int(rec["spell_owner"][sp]) == p]
    for colour in known:
        if R.A_CUBE + CUBE_MAGIC + colour in legal:
            return R.A_CUBE + CUBE_MAGIC + colour
    return max(legal, key=lambda a: (int(rec["cubes"][p, :, a - R.A_CUBE].sum()), -a))


def choose_cube_colour(rec, p, legal, rng):
    card = int(rec["use_card"])
    if card >= 0 and int(R.KIND_TAKES[R.CARD_KIND[card]]) >= 0:      # a Kaftan's cube: the commonest colour
        return max(legal, key=lambda a: (int(rec["cubes"][p, 0, a - R.A_CUBE]), -a))
    if card >= 0:
        return choose_use_colour(rec, p, legal, rng)
    return None


def choose_action(rec, p, legal, rng, errands=()):
    use = _use_card(rec, p, legal)
    if use is not None:
        return use
    c = int(rec["hero_clearing"][p])
    moves = _block(legal, R.A_CLEARING, R.A_DO - R.A_CLEARING)
    if c < 0:                                                   # entering the map
        return int(rng.choice(moves)) if moves else None
    hurt = int(rec["hearts"][p, 1]) > 0 or sum(int(x) for x in rec["cubes"][p, 1]) >= 2
    if hurt and not (is_late(rec) and c not in civ_clearings(rec)):
        a = _first(legal, [R.A_DO + R.DO_LONG_REST, R.A_DO + R.DO_SHORT_REST, R.A_DO + R.DO_QUICK_REST])
        if a is not None:
            return a
    if is_late(rec):
        civ = civ_clearings(rec)
        if c in civ:
            return _first(legal, [R.A_DO + R.DO_TRADE, R.A_DO + R.DO_PASS]) \
                if _has_spare_cards(rec, p) else R.A_DO + R.DO_PASS
        a = step_toward(rec, p, civ, legal)
        if a is not None:
            return a
    if R.A_DO + R.DO_TRADE in legal and int(rec["curses"][p]) and int(rec["gold"][p]) >= R.REMOVE_PRICE \
            and c in civ_clearings(rec):
        return R.A_DO + R.DO_TRADE                              # L568: a curse removed pays
    learns = _block(legal, R.A_SPELL, R.NUM_SPELLS)
    if learns and not outmatched(rec, p):                       # L542: 1 LP and 5 Fame; a curse is the risk
        return learns[0]
    if R.A_DO + R.DO_LOOT in legal:
        coin = next((a for a in _block(legal, R.A_CARD, len(rec["card_where"]))
                     if int(R.CARD_KIND[a - R.A_CARD]) == R.THIEFS_LUCKY_COIN), None)
        return coin if coin is not None else R.A_DO + R.DO_LOOT     # L1454: one die, more grabby hands
    searches = _block(legal, R.A_SEARCH_SITE, R.A_TARGET - R.A_SEARCH_SITE)
    if searches:
        return searches[0]
    if R.A_DO + R.DO_TRADE in legal and V.merchants_at(rec, c) and _has_spare_cards(rec, p):
        return R.A_DO + R.DO_TRADE
    explores = _block(legal, R.A_EXPLORE, 6)
    if explores and not outmatched(rec, p):
        return int(rng.choice(explores))
    safe = [a for a in moves if threat(rec, a - R.A_CLEARING) <= strength(rec, p)]
    goals = set(errands)                                         # a mission's place or task
    for t in V.placed_tiles(rec):
        if not int(rec["tile_revealed"][t]):
            goals.update(t * CLEARINGS_PER_TILE + k for k in range(CLEARINGS_PER_TILE))
    for pile in range(len(rec["site_clearing"])):
        sc = int(rec["site_clearing"][pile])
        if sc >= 0 and sc != c and (not int(rec["site_found"][p, pile]) or V.pile_size(rec, pile) > 0):
            goals.add(sc)
    a = step_toward(rec, p, goals, set(safe))
    if a is not None:
        return a
    if safe:
        return int(rng.choice(safe))
    return _first(legal, [R.A_DO + R.DO_PASS])


def _has_spare_cards(rec, p):
    """p has cards face down in its backpack (worth selling)."""
    return bool(((rec["card_where"] == CW_HERO) & (rec["card_owner"] == p) & (rec["card_slot"] == T_BACKPACK)).any())


def choose_heal(rec, p, legal, rng):
    return _first(legal, [R.A_HEAL + R.HEAL_HEART, R.A_HEAL + CUBE_MIGHT, R.A_HEAL + CUBE_SPEED])


def choose_hide(rec, p, legal, rng):
    return R.A_DO + (R.DO_HIDE if outmatched(rec, p) else R.DO_STAY)


def choose_block(rec, p, legal, rng):
    return R.A_DO + R.DO_HIDE


def choose_equip(rec, p, legal, rng):
    """Equip a card just gained where it may go (not the backpack)."""
    targets = [a for a in _block(legal, R.A_TARGET, R.NUM_TARGETS) if a != R.A_TARGET + T_BACKPACK]
    if targets:
        return targets[0]
    reveal = _block(legal, R.A_CARD, len(rec["card_where"]))
    return reveal[0] if reveal else R.A_TARGET + T_BACKPACK


def choose_done(rec, p, legal, rng):
    return _first(legal, [R.A_DO + R.DO_DONE, R.A_DO + R.DO_STAY, R.A_DO + R.DO_PASS])


def choose_enter(rec, p, legal, rng):
    moves = _block(legal, R.A_CLEARING, R.A_DO - R.A_CLEARING)
    return moves[0] if moves else None


def choose_retire(rec, p, legal, rng):
    lp = int(rec["lp"][p]) + int(rec["fame"][p]) // 10
    if is_late(rec) or (int(rec["sandbox"]) == SB_LEGENDARY and lp >= 20):
        return R.A_DO + R.DO_RETIRE
    return R.A_DO + R.DO_STAY


# ---------------------------------------------------------------- loot and trade
def choose_keep(rec, p, legal, rng):
    cards = _block(legal, R.A_CARD, len(rec["card_where"]))
    return max(cards, key=lambda a: int(R.KIND_PRICE[R.CARD_KIND[a - R.A_CARD]])) if cards else None


def choose_trade_with(rec, p, legal, rng):
    own = [a for a in _block(legal, R.A_UNCURSE, R.MAX_HEROES * R.NUM_CURSES) if (a - R.A_UNCURSE) // R.NUM_CURSES == p]
    if own:
        return own[0]
    return _first(legal, _block(legal, R.A_MERCHANT, R.NUM_MERCHANTS))


def choose_uncurse(rec, p, legal, rng):
    """L568: go on removing one's own curses; not the others' (Gold is LP)."""
    own = [a for a in _block(legal, R.A_UNCURSE, R.MAX_HEROES * R.NUM_CURSES) if (a - R.A_UNCURSE) // R.NUM_CURSES == p]
    return own[0] if own else R.A_DO + R.DO_DONE


def choose_start_spell(rec, p, legal, rng):
    return int(rng.choice(_block(legal, R.A_SPELL, R.NUM_SPELLS)))


def choose_commerce(rec, p, legal, rng):
    if R.A_STEP + R.STEP_SELL in legal and _has_spare_cards(rec, p):
        return R.A_STEP + R.STEP_SELL
    return R.A_DO + R.DO_DONE


def choose_sell(rec, p, legal, rng):
    for a in _block(legal, R.A_CARD, len(rec["card_where"])):
        if int(rec["card_slot"][a - R.A_CARD]) == T_BACKPACK:
            return a
    return R.A_DO + R.DO_DONE


def choose_answer(rec, p, legal, rng):
    return R.A_ANSWER + R.ANSWER_REFUSE


# ---------------------------------------------------------------- combat
def choose_unhide(rec, p, legal, rng):
    return R.A_DO + (R.DO_STAY if outmatched(rec, p) else R.DO_UNHIDE)


def choose_evade(rec, p, legal, rng):
    if outmatched(rec, p):
        moves = _block(legal, R.A_CLEARING, R.A_DO - R.A_CLEARING)
        if moves:
            return moves[0]
    return R.A_DO + R.DO_STAY


def choose_target(rec, p, legal, rng):
    foes = [a for a in _block(legal, R.A_FOE, R.NUM_FOES) if a - R.A_FOE < NUM_MONSTER_CHIPS
            and int(rec["foe_ctrl"][a - R.A_FOE]) == 0]       # never his own Elemental or ruled undead (L1506, L1550)
    me = R.A_SEAT + p
    hurt = int(rec["hearts"][p, 1]) > 0 and _knows_castable(rec, p, ("heal",))
    cursed = int(rec["curses"][p]) != 0 and _knows_castable(rec, p, ("break_spells",))
    if me in legal and (hurt or cursed):
        return me                             # heal himself when hurt, lift his curses when cursed
    if not foes:
        # alone with the Chamber's closed Massive Door: strike it open, to loot the Chamber
        return _first(legal, [R.A_DO + R.DO_DOOR, R.A_DO + R.DO_PASS])
    return min(foes, key=lambda a: (int(R.FOE_HEALTH[a - R.A_FOE]), a))


def choose_lure(rec, p, legal, rng):
    """Optional Luring: a hero with three healthy Hearts or more draws the
    weakest Monster onto himself, so that it is the one he fights; a hurt one
    lures none."""
    foes = _block(legal, R.A_FOE, R.NUM_FOES)
    if not foes or int(rec["hearts"][p, 0]) < 3:
        return _first(legal, [R.A_DO + R.DO_PASS])
    return min(foes, key=lambda a: (int(R.FOE_HEALTH[a - R.A_FOE]), a))


CAST_AT_FOES = ("fireball", "turn_undead", "tentacles", "affliction", "disorient", "hesitation", "curse")
"""Spells the bot casts at the foe it targets, best first: Fireball beats a
weapon blow; the others only when it has no weapon to strike with."""
CAST_ON_SELF = ("heal", "break_spells")
"""Spells the bot casts on itself when it targeted itself (hurt, or cursed), best first."""


def _knows_castable(rec, p, names):
    ids = {SPELL_IDS.index(n) for n in names}
    return any(int(rec["spell_where"][sp]) == R.SPW_KNOWN and int(rec["spell_owner"][sp]) == p
               and int(R.SPELL_KIND[sp]) in ids and int(rec["spell_on"][sp]) < 0 for sp in range(R.NUM_SPELLS))


def _cast(legal, names):
    casts = {SPELL_IDS[int(R.SPELL_KIND[a - R.A_SPELL])]: a for a in _block(legal, R.A_SPELL, R.NUM_SPELLS)}
    for name in names:
        if name in casts:
            return casts[name]
    return None


def choose_tactics(rec, p, legal, rng):
    """Cast before placing speed: at a foe, Fireball always and the other
    attack spells when no weapon can strike; on itself, the best ward. Then
    might, then speed cubes."""
    use = _use_card(rec, p, legal)
    if use is not None:
        return use
    might = _first(legal, [R.A_BOX + R.BOX_MIGHT, R.A_CROSS + R.BOX_MIGHT])
    if int(rec["cast_card"][p]) < 0:
        if int(rec["hero_target"][p]) == R.AIM_HERO + p:
            a = _cast(legal, CAST_ON_SELF)
        else:
            a = _cast(legal, CAST_AT_FOES[:1] if might is not None else CAST_AT_FOES)
        if a is not None:
            return a
    if might is not None:                                   # a Speed Cube only where a Might Cube may not go
        return might
    cubed = [a for a in _block(legal, R.A_CARD, len(rec["card_where"]))
             if int(R.KIND_TAKES[R.CARD_KIND[a - R.A_CARD]]) >= 0
             and int(R.KIND_MIXES[R.CARD_KIND[a - R.A_CARD], 0]) < 0]   # the Bowl of Mixing only reshapes his colours
    if cubed:                                               # a Magic Cube on a treasure that serves this round
        return cubed[0]
    speed = [a for a in (R.A_BOX + R.BOX_ATTACK, R.A_BOX + R.BOX_MANEUVER) if a in legal]
    if not speed:                                           # Might Cubes in speed boxes: altered, or no Speed Cube left
        speed = [a for a in (R.A_CROSS + R.BOX_ATTACK, R.A_CROSS + R.BOX_MANEUVER) if a in legal]
    if speed:
        return int(rng.choice(speed))
    return _first(legal, [R.A_DO + R.DO_DONE])


def choose_more_targets(rec, p, legal, rng):
    foes = _block(legal, R.A_FOE, R.NUM_FOES)
    return min(foes, key=lambda a: (int(R.FOE_HEALTH[a - R.A_FOE]), a)) if foes else R.A_DO + R.DO_DONE


def choose_spell_cube(rec, p, legal, rng):
    """The colour it has most of (keeping the rarer ones for coloured boxes)."""
    return max(legal, key=lambda a: (int(rec["cubes"][p, 0, a - R.A_CUBE]), -a))


def choose_ctrl_target(rec, p, legal, rng):
    """His controlled Monster (L710) strikes the Monster nearest death."""
    foes = _block(legal, R.A_FOE, R.NUM_FOES)
    if not foes:
        return R.A_DO + R.DO_PASS
    return min(foes, key=lambda a: (int(R.FOE_HEALTH[a - R.A_FOE]) - int(rec["foe_wounds"][a - R.A_FOE]), a))


def choose_ctrl_side(rec, p, legal, rng):
    """The side of his controlled Monster's chip (L710) that deals the most damage."""
    f = int(rec["ctrl_foe"]) - 1
    def hurt(a):
        s = a - R.A_SIDE
        return int(R.FOE_SIDE[f, s, R.SD_DAMAGE]) + int(R.FOE_SIDE[f, s, R.SD_SWORDS]), -s
    return max([a for a in legal if R.A_SIDE <= a < R.A_SIDE + 2], key=hurt)


def choose_shape(rec, p, legal, rng):
    """Shape Shift (L1564; it never casts it, but may be asked by a forced
    play): the Monster with the most health, then the first."""
    return max(legal, key=lambda a: (int(R.FOE_HEALTH[a - R.A_FOE]), -a))


def choose_ctrl_keep(rec, p, legal, rng):
    """Rule Undead (L1506): cancel the attack of the Monster just ruled (it would strike a hero)."""
    return R.A_ANSWER + R.ANSWER_REFUSE


def choose_accept(rec, p, legal, rng):
    """A spell aimed at it (L1032): accept the hit of one that aids (a friend's
    Teleport, Vapor Form, Break Spells); refuse a harmful one (Player vs.
    Player, L1174: Fireball, Curse, Confuse, ...), which must then roll to hit."""
    casters = [q for q in range(int(rec["num_players"])) if int(rec["cast_stage"][q]) == R.CAST_ASKING]
    aids = all(int(R.SPELL_AIDS[R.SPELL_KIND[int(rec["cast_card"][q])]]) for q in casters)
    return R.A_ANSWER + (R.ANSWER_ACCEPT if aids else R.ANSWER_REFUSE)


def choose_dispel_ask(rec, p, legal, rng):
    """L568: a hero keeps the permanent spells heroes aimed at him to aid
    him; a Dark Matter on him (his cubes swapped) he lets go."""
    harmful = int(R.SPELL_KIND[int(rec["dispel_card"])]) == R.SP_DARK_MATTER
    return R.A_ANSWER + (R.ANSWER_ACCEPT if harmful else 1 - R.ANSWER_ACCEPT)


def choose_teleport_tile(rec, p, legal, rng):
    """Teleport (L1522): a foe to the farthest tile, a hero to the nearest
    tile with a Civilization Location (else his own)."""
    t = int(rec["teleport_target"])
    here = int(rec["hero_clearing"][p]) // 6
    def dist(a):
        u = a - R.A_TILE
        dq = int(rec["tile_q"][u]) - int(rec["tile_q"][here])
        dr = int(rec["tile_r"][u]) - int(rec["tile_r"][here])
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2
    if t < R.NUM_FOES:
        return max(legal, key=lambda a: (dist(a), -a))
    civ = {c // 6 for c in civ_clearings(rec)}
    return min(legal, key=lambda a: (a - R.A_TILE not in civ, dist(a), a))


def choose_tentacle(rec, p, legal, rng):
    """Tentacles (L1518): on the fastest foe attacking him, else the first foe."""
    foes = _block(legal, R.A_FOE, R.NUM_FOES)
    if not foes:
        return legal[0]
    mine = [a for a in foes if int(rec["foe_target"][a - R.A_FOE]) == p]
    return (mine or foes)[0]


def choose_earth_tile(rec, p, legal, rng):
    """Move Earth (L1546), cast by someone else's choice of spell: its own tile."""
    own = R.A_TILE + int(rec["hero_clearing"][p]) // 6
    return own if own in legal else legal[0]


def choose_earth_turn(rec, p, legal, rng):
    """Move Earth: the tile stays as it lies (always legal, L1546)."""
    u = int(rec["earth_tile"])
    kept = R.A_TURN + int(rec["tile_side"][u]) * 6 + int(rec["tile_rot"][u])
    return kept if kept in legal else legal[0]


def choose_activate(rec, p, legal, rng):
    """Activation (L695): its permanent spells on the foes of this combat."""
    for a in _block(legal, R.A_SPELL, R.NUM_SPELLS):
        t = int(rec["spell_on"][a - R.A_SPELL])
        if 0 <= t < R.NUM_FOES:
            return a
    return R.A_DO + R.DO_DONE


def choose_no_pvp(rec, p, legal, rng):
    """Player vs. Player (L1172): the bot never challenges, blocks or
    aims at a hero: it passes (challenge no one, no more cubes, no block)."""
    return _first(legal, [R.A_DO + R.DO_PASS, R.A_DO + R.DO_DONE])


def choose_armor(rec, p, legal, rng):
    cards = _block(legal, R.A_CARD, len(rec["card_where"]))
    return cards[0] if cards else None


def choose_wound(rec, p, legal, rng):
    """Spare Speed and Magic Cubes first; the Guard Charm before a Might Cube or a Heart."""
    charm = [a for a in _block(legal, R.A_CARD, len(rec["card_where"]))
             if int(R.CARD_KIND[a - R.A_CARD]) == R.GUARD_CHARM]
    order = [R.A_HEAL + CUBE_SPEED] + [R.A_HEAL + CUBE_MAGIC + k for k in range(R.HEAL_HEART - CUBE_MAGIC)] + \
        [R.A_BOX + R.BOX_MANEUVER, R.A_BOX + R.BOX_ATTACK, R.A_CROSS + R.BOX_MIGHT] + charm + \
        [R.A_CROSS + R.BOX_MANEUVER, R.A_CROSS + R.BOX_ATTACK] + \
        [R.A_HEAL + CUBE_MIGHT, R.A_BOX + R.BOX_MIGHT, R.A_HEAL + R.HEAL_HEART]
    return _first(legal, order)


def choose_reroll(rec, p, legal, rng):
    """A roll waiting on rerolls (PH_REROLL): the Loot Dice are rolled again
    while they take no card -- the higher die (the one counting) by the
    Gage, else both by Divination, the Dust of Destiny last (it is spent for
    good); a roll that takes a card stands. A Learn Die showing a curse is
    rolled again with the Dust (a curse costs more than the Dust), and so
    is the Curse Table's curse on him (asked only where it would touch him;
    one his own Curse spell rolled for a foe or a hero stands), and a
    hit on him -- a Monster's, or a hero's in a duel -- when he has two
    healthy Hearts or fewer (both dice: the likelier miss). Other failed
    rolls (his own attack, search, hide, haggle, ...) stand, the Dust kept,
    but for a retiring Outlaw's symbol and blank: the blank is rolled again;
    random clearings and the Summoning Dice are no better or worse: they
    stand."""
    done = R.A_DO + R.DO_DONE
    both = R.A_REROLL + R.RR_DUST * R.REROLL_WAYS + R.MAX_ROLL_DICE
    kind = int(rec["roll_kind"])
    struck = kind == R.ROLL_STRUCK or (kind == R.ROLL_ATTACK and int(rec["roll_party"][1]) == p)
    if struck and int(rec["hearts"][p, 0]) <= 2 and both in legal:
        return both
    mine = int(rec["roll_target"]) in (-1, R.AIM_HERO + p)     # a curse on himself, not one his Curse spell rolled
    if kind == R.ROLL_CURSE and mine and R.A_REROLL + R.RR_DUST * R.REROLL_WAYS in legal:
        return R.A_REROLL + R.RR_DUST * R.REROLL_WAYS
    if kind == R.ROLL_OUTLAW:            # retiring, the Dust leaves with him: a symbol and a blank's blank (never worse)
        for k in range(int(rec["roll_n"])):
            a = R.A_REROLL + R.RR_DUST * R.REROLL_WAYS + k
            if int(rec["roll_dice"][k]) == 0 and a in legal:
                return a
    if int(rec["roll_kind"]) == R.ROLL_LEARN:
        for k in range(int(rec["roll_n"])):
            a = R.A_REROLL + R.RR_DUST * R.REROLL_WAYS + k
            if int(rec["roll_dice"][k]) == R.LEARN_CURSE and a in legal:
                return a
    if int(rec["roll_kind"]) != R.ROLL_LOOT:
        return done if done in legal else legal[0]
    pile = int(rec["roll_target"])
    size = V.pile_size(rec, pile) if pile >= 0 else 0
    n = int(rec["roll_n"])
    dice = [int(rec["roll_dice"][i]) for i in range(n)]
    if max(dice) == 0 or max(dice) <= size:
        return done if done in legal else legal[0]
    high = max(range(n), key=lambda i: dice[i])
    both = n > 1 and min(dice) > size
    order = []
    for src in (R.RR_GAGE, R.RR_DIVINATION, R.RR_DUST):
        base = R.A_REROLL + src * R.REROLL_WAYS
        order += [base + R.MAX_ROLL_DICE, base + high] if both and src != R.RR_GAGE else [base + high]
    for a in order:
        if a in legal:
            return a
    return done if done in legal else legal[0]


_PHASES = {
    R.PH_LINEAGE: choose_lineage, R.PH_CLASS: choose_class, R.PH_LINEAGE_SIDE: choose_side,
    R.PH_CLASS_SIDE: choose_side, R.PH_ACTION: choose_action, R.PH_HEAL: choose_heal,
    R.PH_HIDE: choose_hide, R.PH_BLOCK: choose_block, R.PH_GAINED: choose_equip, R.PH_ALERT: choose_done,
    R.PH_EXPLORE_ENTER: choose_enter, R.PH_RETIRE: choose_retire,
    R.PH_RECEIVED: choose_equip, R.PH_LOOT_KEEP: choose_keep, R.PH_TRADE_WITH: choose_trade_with,
    R.PH_COMMERCE: choose_commerce, R.PH_SELL: choose_sell, R.PH_SWAP_OFFER: choose_done,
    R.PH_SWAP_ANSWER: choose_answer, R.PH_BUY: choose_done, R.PH_UNHIDE: choose_unhide,
    R.PH_EVADE: choose_evade, R.PH_TARGET: choose_target, R.PH_LURE: choose_lure, R.PH_TACTICS: choose_tactics,
    R.PH_ARMOR: choose_armor, R.PH_WOUND: choose_wound, R.PH_ADJUST: choose_done, R.PH_REARM: choose_done,
    R.PH_START_SPELL: choose_start_spell, R.PH_UNCURSE: choose_uncurse,
    R.PH_MORE_TARGETS: choose_more_targets, R.PH_SPELL_CUBE: choose_spell_cube, R.PH_ACCEPT: choose_accept, R.PH_DISPEL_ASK: choose_dispel_ask,
    R.PH_CUBE_COLOUR: choose_cube_colour, R.PH_TELEPORT_TILE: choose_teleport_tile, R.PH_ACTIVATE: choose_activate,
    R.PH_CHALLENGE: choose_no_pvp, R.PH_CHALLENGE_CUBE: choose_no_pvp, R.PH_HERO_BLOCK: choose_no_pvp,
    R.PH_EARTH_TILE: choose_earth_tile, R.PH_EARTH_TURN: choose_earth_turn, R.PH_TENTACLE: choose_tentacle,
    R.PH_REROLL: choose_reroll,
    R.PH_CTRL_TARGET: choose_ctrl_target, R.PH_CTRL_SIDE: choose_ctrl_side, R.PH_CTRL_KEEP: choose_ctrl_keep,
    R.PH_SHAPE: choose_shape,
}


# ---------------------------------------------------------------- search hooks
from dragongym.agents.search_hooks import register_prior_only, register_value  # noqa: E402
from dragongym.envs.dragons_down.constants import HS_ACTIVE, HS_WAITING  # noqa: E402
from dragongym.envs.dragons_down.rules.fate import FAME_PER_LP, LEGEND_TARGET  # noqa: E402

LP_SCALE = 1.0
"""Legend Points over which a lead between two heroes counts fully: a seat
ahead of another by ``LP_SCALE`` gets ``tanh(1) = 0.76`` of that pairing's
win (see :func:`evaluate`)."""


def evaluate(state):
    """Per-seat value of a Dragons Down position in the reward scale (exact
    ``rewards`` once the game is over), used by MCTS at its depth cap; it reads
    only the heroes' public Legend Points and Fame (:func:`standings_batch`).

    Several heroes: the seats rank by LP (L121), so a seat's value is its mean
    pairwise lead, ``mean over q != p of tanh((x_p - x_q) / LP_SCALE)``: the
    rank's position value (+1 first .. -1 last, ties averaged) once the
    leads are clear, summing to 0. A lone hero wins by ending with any LP
    (Open Realm, Explore the Realm) or by retiring with 20 (Legendary):
    ``1 - 2 exp(-2 x / target)``, -1 with no LP, about +0.73 at the target and
    rising towards +1 beyond it (more LP is the solo game's score)."""
    rec = state[0]
    n = int(rec["num_players"])
    if int(rec["status"]) != 0:
        return np.asarray(rec["rewards"][:n], dtype=np.float64)
    return seat_values_batch(state)[0, :n]


def seat_values_batch(states):
    """:func:`evaluate`'s value of a running game for every seat of every record
    of ``states`` (``[B]`` records) at once, ``float64 [B, seats]`` (seats
    beyond a game's ``num_players`` hold no meaning): the one formula behind
    MCTS's value and the trainer's shaping."""
    x = standings_batch(states)
    n = states["num_players"].astype(np.int64)
    playing = np.arange(x.shape[1])[None, :] < n[:, None]
    lead = np.where(playing[:, None, :], np.tanh((x[:, :, None] - x[:, None, :]) / LP_SCALE), 0.0)
    several = lead.sum(axis=2) / np.maximum(n - 1, 1)[:, None]
    target = np.where(states["sandbox"].astype(np.int64) == SB_LEGENDARY, float(LEGEND_TARGET), 1.0)
    alone = 1.0 - 2.0 * np.exp(-2.0 * x / target[:, None])
    return np.where((n == 1)[:, None], alone, several)


register_value("dragons_down", evaluate)


def standings_batch(states):
    """Each seat's Legend Points as the game stands, in LP, for every record of
    ``states`` (``[B]`` records), ``float64 [B, seats]``: the best of the heroes
    it has set aside (``best``) and of its hero in play, the latter counted with
    its Fame as it would retire now (1 LP for each 10 Fame, the rest as a
    fraction); seats beyond a game's ``num_players`` stand at 0. Public: every
    seat sees the heroes' LP and Fame."""
    best = states["best"][:, :, 0].astype(np.float64)
    x = np.where(states["best"][:, :, 0] >= 0, best, 0.0)
    hero = states["hero_state"]
    in_play = (hero == HS_ACTIVE) | (hero == HS_WAITING)
    now = states["lp"].astype(np.float64) + states["fame"].astype(np.float64) / FAME_PER_LP
    x = np.where(in_play, np.maximum(x, now), x)
    playing = np.arange(x.shape[1])[None, :] < states["num_players"].astype(np.int64)[:, None]
    return np.where(playing, x, 0.0)


def legend_lead_potential(state, seat):
    """Shaping potential of ``seat`` (the game's ``shaping_potential``): its
    value in :func:`evaluate` while the game runs, 0 once it is over (the
    trainer adds the outcome itself). With several heroes that is its mean
    pairwise lead in Legend Points and Fame, ``tanh`` of each lead of 1 LP
    (public facts only); alone, ``1 - 2 exp(-2 x / target)`` of its own LP."""
    if int(state[0]["status"]) != 0:
        return 0.0
    return float(evaluate(state)[int(seat)])


def legend_lead_potential_batch(states, seats):
    """:func:`legend_lead_potential` of ``seats[b]`` in each record ``states[b]``
    (``float64 [B]``), in one pass over the batch (the game's
    ``shaping_potential_batch``)."""
    value = seat_values_batch(states)[np.arange(len(states)), np.asarray(seats, dtype=np.int64)]
    return np.where(states["status"].astype(np.int64) != 0, 0.0, value)

PRIOR_ONLY_PHASES = frozenset((
    R.PH_ACTION, R.PH_TILE_CHOOSE, R.PH_TILE_SPOT, R.PH_TILE_TURN, R.PH_LINEAGE, R.PH_LINEAGE_SIDE, R.PH_CLASS,
    R.PH_CLASS_SIDE, R.PH_CUBE_COLOUR, R.PH_START_SPELL, R.PH_HEAL, R.PH_ALERT, R.PH_ALERT_TARGET, R.PH_GAINED,
    R.PH_RECEIVED, R.PH_TARGET, R.PH_MORE_TARGETS, R.PH_TACTICS, R.PH_SPELL_CUBE, R.PH_ARMOR, R.PH_WOUND,
    R.PH_ADJUST, R.PH_ADJUST_TARGET, R.PH_REARM))
"""Decisions MCTS leaves to the heuristic (``prior_only``): each action of a
turn (move, search, loot, explore, rest, trade), the set-up (map tiles, the
hero's cards and starting spell), each cube and box of a combat round's Hero
Tactics, each target, wound and armour hit, each card moved between
equipment positions, each cube healed -- nine in ten of a game's decisions.
Each is a step of a plan the heuristic makes over several turns (walking to
a site, an errand of a mission) whose worth a search cut at a few decisions
cannot see; searched, the actions were worse than the heuristic's (MCTS
won 6 of 20 games against it, agents/EVAL.md). The search keeps the
reactions and bargains whose stakes show at once: hiding, blocking,
evading, luring, retiring, entering a new tile, commerce, swaps, missions,
rerolls, spells' choices."""


def prior_only(state):
    """True where MCTS with ``prior_only`` plays the heuristic's pick without
    search: the pending decision's phase is in :data:`PRIOR_ONLY_PHASES`."""
    return int(state[0]["phase"]) in PRIOR_ONLY_PHASES


register_prior_only("dragons_down", prior_only)
