"""The driver: the sequence of play and the dispatch of decisions (the
template's, ``envs/README.md``).

``advance`` runs forced and chance-only steps until some seat must decide;
``fill_mask`` and ``do_action`` hand the pending decision (``phase``) to its
part's ``mask_*`` and ``act_*``. A game is the deployment (``setup.py``),
then game-turns -- the Diplomacy Segment in the Full Game (``alliance.py``),
with the Random Events Option the Random Events Segment (``events.py``) --
of two player-turns each -- with giants on the map the Random Movement
Phase (``giants.py``), in the Full Game the Alliance Phase (``alliance.py``),
movement (``movement.py``), exotic magic (``exotic.py``), combat
(``combat.py``), rally -- and the book-keeping phase (``turns.py``).
"""
import numpy as np

from dragongym.envs.core.jit import rules_jit
from ..constants import (
    ST_ALLIANCE, ST_BOOKKEEPING, ST_COMBAT, ST_DEPLOY, ST_DIPLOMACY, ST_EXOTIC, ST_MOVEMENT, ST_RALLY, ST_TURN_START,
    ST_RANDOM_EVENTS, ST_RANDOM_MOVE,
)
from ..state import STATE_DTYPE
from .base import (
    SCENARIO_PLAYERS, NUM_ACTIONS, PH_ADVANCE, PH_ADVANCE_EXT, PH_ADVANCE_HEX, PH_ARRANGE, PH_BATTLE, PH_BATTLE_ADD, PH_CASUALTY,
    PH_DEPLOY, PH_ESCAPE_HEX, PH_MISSILE_CASUALTY, PH_MISSILE_CHOICE, PH_MISSILE_TARGET, PH_MOVE, PH_MOVE_GROUP,
    PH_NONE, PH_RETREAT, PH_RETREAT_HEX, PH_SCAPEGOAT, PH_ENTER_HEX, PH_FORCE_MARCH, PH_MOON,
    PH_COMMIT, PH_COMMIT_HEX, PH_SAVE, PH_MAGIC_CASUALTY, PH_SUPPORT, PH_SUPPORT_HEX, PH_EXOTIC, PH_EXOTIC_TARGET,
    PH_HUNGER, PH_SUMMON_HEX, PH_ASSASSIN, PH_REVEAL, PH_FREEZE, PH_FRACTURE, PH_PILLAR, PH_ZOMBIE_RISE, PH_ZOMBIE_MARCH,
    PH_DIPLOMACY, PH_REPLACE, PH_ALLIANCE, PH_ALLY_SETUP, PH_KEENER, PH_SACRIFICE, PH_AUCTION, PH_SPEED, PH_ALCHEMY, PH_ALCHEMY_FACTOR,
    PH_PUPPET_DODGE, PH_HYDRA_FEED, PH_DRAGONFIGHT, PH_JACK, PH_JACK_AID, PH_EVENT_REMOVE, PH_EVENT_REPLACE, PH_GIANT_STEP, PH_PURCHASE,
)
from .alliance import (
    act_alliance, act_ally_setup, act_diplomacy, act_keener, act_replace, alliance_phase, diplomacy_segment,
    mask_alliance, mask_ally_setup, mask_diplomacy, mask_keener, mask_replace, act_sacrifice, mask_sacrifice,
    act_auction, mask_auction,
)
from .combat import (
    act_advance, act_advance_ext, act_advance_hex, act_battle, act_battle_add, act_casualty, act_missile_casualty,
    act_missile_choice, act_missile_target, act_retreat, act_retreat_hex, act_scapegoat, combat_phase,
    mask_advance, mask_scapegoat,
    mask_advance_ext, mask_advance_hex, mask_battle, mask_battle_add, mask_casualty, mask_missile_casualty,
    mask_missile_choice, mask_missile_target, mask_retreat, mask_retreat_hex,
)
from .movement import (
    act_arrange, act_enter_hex, act_force_march, act_move, act_move_group, act_summon_hex, mask_arrange,
    mask_enter_hex, mask_force_march, mask_move, mask_move_group, mask_summon_hex, movement_phase,
    act_freeze, mask_freeze,
)
from .exotic import (
    act_assassin, act_exotic, act_exotic_target, act_hunger, exotic_phase, mask_assassin, mask_exotic,
    mask_exotic_target, mask_hunger,
)
from .magic import (
    act_reveal, mask_reveal, act_commit, act_commit_hex, act_magic_casualty, act_save, act_support, act_support_hex, mask_commit,
    mask_commit_hex, mask_magic_casualty, mask_save, mask_support, mask_support_hex,
)
from .ethilrist import run_wild
from .moon import act_moon, mask_moon
from .quake import act_fracture, mask_fracture
from .pillar import act_pillar, mask_pillar
from .zombies import act_zombie_march, act_zombie_rise, mask_zombie_march, mask_zombie_rise, raise_zombie
from .minors import act_alchemy, act_alchemy_factor, act_speed, mask_alchemy, mask_alchemy_factor, mask_speed
from .puppeteers import act_puppet_dodge, illusions_dispelled, mask_puppet_dodge, place_illusory_armies
from .hydra import act_hydra_feed, mask_hydra_feed
from .marathon import act_purchase, mask_purchase
from .setup import SCENARIO_INDEPENDENTS, act_deploy, deploy_round, mask_deploy, setup_scenario
from .dragons import act_dragonfight, act_jack, act_jack_aid, mask_dragonfight, mask_jack, mask_jack_aid
from .giants import act_giant_step, mask_giant_step, place_dinosaurs, random_movement_phase
from .giantmaster import giant_reverts
from .events import (
    act_event_remove, act_event_replace, mask_event_remove, mask_event_replace, random_events_due,
    random_events_segment,
)
from .turns import act_escape_hex, bookkeeping, mask_escape_hex, rally_phase, start_player_turn

BLANK = np.zeros(1, dtype=STATE_DTYPE)   # a zeroed record to reset from

# error codes of apply_action
E_OK, E_RANGE, E_ILLEGAL, E_OVER = 0, 1, 2, 3


@rules_jit
def fill_mask(S, b, mask):
    """mask[a] = 1 iff action a is legal for ``to_play`` now. Returns the count."""
    s = S[b]
    for a in range(NUM_ACTIONS):
        mask[a] = 0
    if s['status'] != 0:
        return 0
    ph = int(s['phase'])
    p = int(s['to_play'])
    if ph == PH_DEPLOY:
        mask_deploy(S, b, p, mask)
    elif ph == PH_MOVE:
        mask_move(S, b, p, mask)
    elif ph == PH_MOVE_GROUP:
        mask_move_group(S, b, p, mask)
    elif ph == PH_ARRANGE:
        mask_arrange(S, b, p, mask)
    elif ph == PH_BATTLE:
        mask_battle(S, b, p, mask)
    elif ph == PH_BATTLE_ADD:
        mask_battle_add(S, b, p, mask)
    elif ph == PH_MISSILE_TARGET:
        mask_missile_target(S, b, p, mask)
    elif ph == PH_MISSILE_CHOICE:
        mask_missile_choice(S, b, p, mask)
    elif ph == PH_MISSILE_CASUALTY:
        mask_missile_casualty(S, b, p, mask)
    elif ph == PH_RETREAT:
        mask_retreat(S, b, p, mask)
    elif ph == PH_RETREAT_HEX:
        mask_retreat_hex(S, b, p, mask)
    elif ph == PH_CASUALTY:
        mask_casualty(S, b, p, mask)
    elif ph == PH_ADVANCE:
        mask_advance(S, b, p, mask)
    elif ph == PH_ADVANCE_HEX:
        mask_advance_hex(S, b, p, mask)
    elif ph == PH_ADVANCE_EXT:
        mask_advance_ext(S, b, p, mask)
    elif ph == PH_ESCAPE_HEX:
        mask_escape_hex(S, b, p, mask)
    elif ph == PH_SCAPEGOAT:
        mask_scapegoat(S, b, p, mask)
    elif ph == PH_ENTER_HEX:
        mask_enter_hex(S, b, p, mask)
    elif ph == PH_FORCE_MARCH:
        mask_force_march(S, b, p, mask)
    elif ph == PH_MOON:
        mask_moon(S, b, p, mask)
    elif ph == PH_COMMIT:
        mask_commit(S, b, p, mask)
    elif ph == PH_COMMIT_HEX:
        mask_commit_hex(S, b, p, mask)
    elif ph == PH_SAVE:
        mask_save(S, b, p, mask)
    elif ph == PH_MAGIC_CASUALTY:
        mask_magic_casualty(S, b, p, mask)
    elif ph == PH_SUPPORT:
        mask_support(S, b, p, mask)
    elif ph == PH_SUPPORT_HEX:
        mask_support_hex(S, b, p, mask)
    elif ph == PH_EXOTIC:
        mask_exotic(S, b, p, mask)
    elif ph == PH_EXOTIC_TARGET:
        mask_exotic_target(S, b, p, mask)
    elif ph == PH_HUNGER:
        mask_hunger(S, b, p, mask)
    elif ph == PH_SUMMON_HEX:
        mask_summon_hex(S, b, p, mask)
    elif ph == PH_ASSASSIN:
        mask_assassin(S, b, p, mask)
    elif ph == PH_REVEAL:
        mask_reveal(S, b, p, mask)
    elif ph == PH_FREEZE:
        mask_freeze(S, b, p, mask)
    elif ph == PH_SPEED:
        mask_speed(S, b, p, mask)
    elif ph == PH_ALCHEMY:
        mask_alchemy(S, b, p, mask)
    elif ph == PH_ALCHEMY_FACTOR:
        mask_alchemy_factor(S, b, p, mask)
    elif ph == PH_FRACTURE:
        mask_fracture(S, b, p, mask)
    elif ph == PH_PILLAR:
        mask_pillar(S, b, p, mask)
    elif ph == PH_DIPLOMACY:
        mask_diplomacy(S, b, p, mask)
    elif ph == PH_REPLACE:
        mask_replace(S, b, p, mask)
    elif ph == PH_ALLIANCE:
        mask_alliance(S, b, p, mask)
    elif ph == PH_ALLY_SETUP:
        mask_ally_setup(S, b, p, mask)
    elif ph == PH_KEENER:
        mask_keener(S, b, p, mask)
    elif ph == PH_SACRIFICE:
        mask_sacrifice(S, b, p, mask)
    elif ph == PH_AUCTION:
        mask_auction(S, b, p, mask)
    elif ph == PH_ZOMBIE_RISE:
        mask_zombie_rise(S, b, p, mask)
    elif ph == PH_ZOMBIE_MARCH:
        mask_zombie_march(S, b, p, mask)
    elif ph == PH_PUPPET_DODGE:
        mask_puppet_dodge(S, b, p, mask)
    elif ph == PH_HYDRA_FEED:
        mask_hydra_feed(S, b, p, mask)
    elif ph == PH_DRAGONFIGHT:
        mask_dragonfight(S, b, p, mask)
    elif ph == PH_JACK:
        mask_jack(S, b, p, mask)
    elif ph == PH_JACK_AID:
        mask_jack_aid(S, b, p, mask)
    elif ph == PH_EVENT_REMOVE:
        mask_event_remove(S, b, p, mask)
    elif ph == PH_EVENT_REPLACE:
        mask_event_replace(S, b, p, mask)
    elif ph == PH_GIANT_STEP:
        mask_giant_step(S, b, p, mask)
    elif ph == PH_PURCHASE:
        mask_purchase(S, b, p, mask)
    count = 0
    for a in range(NUM_ACTIONS):
        count += int(mask[a])
    return count


@rules_jit
def do_action(S, b, a):
    """Carry out legal action a of the pending decision through its part's
    ``act_*``; True if that posed the next decision itself."""
    s = S[b]
    ph = int(s['phase'])
    p = int(s['to_play'])
    s['phase'] = PH_NONE
    if ph == PH_DEPLOY:
        return act_deploy(S, b, p, a)
    elif ph == PH_MOVE:
        return act_move(S, b, p, a)
    elif ph == PH_MOVE_GROUP:
        return act_move_group(S, b, p, a)
    elif ph == PH_ARRANGE:
        return act_arrange(S, b, p, a)
    elif ph == PH_BATTLE:
        return act_battle(S, b, p, a)
    elif ph == PH_BATTLE_ADD:
        return act_battle_add(S, b, p, a)
    elif ph == PH_MISSILE_TARGET:
        return act_missile_target(S, b, p, a)
    elif ph == PH_MISSILE_CHOICE:
        return act_missile_choice(S, b, p, a)
    elif ph == PH_MISSILE_CASUALTY:
        return act_missile_casualty(S, b, p, a)
    elif ph == PH_RETREAT:
        return act_retreat(S, b, p, a)
    elif ph == PH_RETREAT_HEX:
        return act_retreat_hex(S, b, p, a)
    elif ph == PH_CASUALTY:
        return act_casualty(S, b, p, a)
    elif ph == PH_ADVANCE:
        return act_advance(S, b, p, a)
    elif ph == PH_ADVANCE_HEX:
        return act_advance_hex(S, b, p, a)
    elif ph == PH_ADVANCE_EXT:
        return act_advance_ext(S, b, p, a)
    elif ph == PH_ESCAPE_HEX:
        return act_escape_hex(S, b, p, a)
    elif ph == PH_SCAPEGOAT:
        return act_scapegoat(S, b, p, a)
    elif ph == PH_ENTER_HEX:
        return act_enter_hex(S, b, p, a)
    elif ph == PH_FORCE_MARCH:
        return act_force_march(S, b, p, a)
    elif ph == PH_MOON:
        return act_moon(S, b, p, a)
    elif ph == PH_COMMIT:
        return act_commit(S, b, p, a)
    elif ph == PH_COMMIT_HEX:
        return act_commit_hex(S, b, p, a)
    elif ph == PH_SAVE:
        return act_save(S, b, p, a)
    elif ph == PH_MAGIC_CASUALTY:
        return act_magic_casualty(S, b, p, a)
    elif ph == PH_SUPPORT:
        return act_support(S, b, p, a)
    elif ph == PH_SUPPORT_HEX:
        return act_support_hex(S, b, p, a)
    elif ph == PH_EXOTIC:
        return act_exotic(S, b, p, a)
    elif ph == PH_EXOTIC_TARGET:
        return act_exotic_target(S, b, p, a)
    elif ph == PH_HUNGER:
        return act_hunger(S, b, p, a)
    elif ph == PH_SUMMON_HEX:
        return act_summon_hex(S, b, p, a)
    elif ph == PH_ASSASSIN:
        return act_assassin(S, b, p, a)
    elif ph == PH_REVEAL:
        return act_reveal(S, b, p, a)
    elif ph == PH_FREEZE:
        return act_freeze(S, b, p, a)
    elif ph == PH_SPEED:
        return act_speed(S, b, p, a)
    elif ph == PH_ALCHEMY:
        return act_alchemy(S, b, p, a)
    elif ph == PH_ALCHEMY_FACTOR:
        return act_alchemy_factor(S, b, p, a)
    elif ph == PH_FRACTURE:
        return act_fracture(S, b, p, a)
    elif ph == PH_PILLAR:
        return act_pillar(S, b, p, a)
    elif ph == PH_DIPLOMACY:
        return act_diplomacy(S, b, p, a)
    elif ph == PH_REPLACE:
        return act_replace(S, b, p, a)
    elif ph == PH_ALLIANCE:
        return act_alliance(S, b, p, a)
    elif ph == PH_ALLY_SETUP:
        return act_ally_setup(S, b, p, a)
    elif ph == PH_KEENER:
        return act_keener(S, b, p, a)
    elif ph == PH_SACRIFICE:
        return act_sacrifice(S, b, p, a)
    elif ph == PH_AUCTION:
        return act_auction(S, b, p, a)
    elif ph == PH_ZOMBIE_RISE:
        return act_zombie_rise(S, b, p, a)
    elif ph == PH_ZOMBIE_MARCH:
        return act_zombie_march(S, b, p, a)
    elif ph == PH_PUPPET_DODGE:
        return act_puppet_dodge(S, b, p, a)
    elif ph == PH_HYDRA_FEED:
        return act_hydra_feed(S, b, p, a)
    elif ph == PH_DRAGONFIGHT:
        return act_dragonfight(S, b, p, a)
    elif ph == PH_JACK:
        return act_jack(S, b, p, a)
    elif ph == PH_JACK_AID:
        return act_jack_aid(S, b, p, a)
    elif ph == PH_EVENT_REMOVE:
        return act_event_remove(S, b, p, a)
    elif ph == PH_EVENT_REPLACE:
        return act_event_replace(S, b, p, a)
    elif ph == PH_GIANT_STEP:
        return act_giant_step(S, b, p, a)
    elif ph == PH_PURCHASE:
        return act_purchase(S, b, p, a)
    return False


@rules_jit
def advance(S, b):
    """Run the sequence of play until some seat must decide or the game ends."""
    s = S[b]
    while True:
        if s['status'] != 0:
            s['to_play'] = -1
            s['phase'] = PH_NONE
            return
        illusions_dispelled(S, b)     # an Illusory Army beside an enemy dragon or superhero (L890)
        giant_reverts(S, b)           # a giant Argrath has left is no one's again (L686)
        if s['doom_pending']:
            # Ethilrist fell in combat or exotic magic: his Hound's Doom Run before
            # play goes on (L754); the phase then asks again what it asked
            run_wild(S, b)
            continue
        if s['zombies_owed']:
            # units fell beside Delecti or a zombie: the new zombies rise before
            # play goes on (L821); the phase then asks again what it asked
            if raise_zombie(S, b):
                return
            continue
        st = int(s['stage'])
        s['phase'] = PH_NONE
        s['to_play'] = -1
        if st == ST_DEPLOY:
            if deploy_round(S, b):
                return
        elif st == ST_TURN_START:
            if random_events_due(S, b):
                s['stage'] = ST_RANDOM_EVENTS      # the Random Events Segment opens the game-turn (L174)
            else:
                start_player_turn(S, b)
        elif st == ST_RANDOM_EVENTS:
            if random_events_segment(S, b):
                return
        elif st == ST_RANDOM_MOVE:
            if random_movement_phase(S, b):
                return
        elif st == ST_MOVEMENT:
            if movement_phase(S, b):
                return
        elif st == ST_EXOTIC:
            if exotic_phase(S, b) and not s['doom_pending']:
                return
        elif st == ST_COMBAT:
            if combat_phase(S, b) and not s['doom_pending'] and not s['zombies_owed']:
                return
        elif st == ST_RALLY:
            if rally_phase(S, b):
                return
        elif st == ST_BOOKKEEPING:
            bookkeeping(S, b)
        elif st == ST_DIPLOMACY:
            if diplomacy_segment(S, b):
                return
        elif st == ST_ALLIANCE:
            if alliance_phase(S, b):
                return
        else:
            return


@rules_jit
def settle(S, b, mask):
    """Leave ``mask`` holding the legal actions of the position reached; with
    ``auto_single``, first apply every lone legal action. Returns the count."""
    s = S[b]
    while True:
        m = fill_mask(S, b, mask)
        if m != 1 or not s['auto_single'] or s['status'] != 0:
            return m
        a = 0
        while mask[a] == 0:
            a += 1
        s['decisions'] += 1
        posed = do_action(S, b, a)
        illusions_dispelled(S, b)     # whatever moved: an Illusory Army beside an enemy dragon or superhero (L890)
        giant_reverts(S, b)           # whatever moved: a giant Argrath has left is no one's again (L686)
        if not posed:
            advance(S, b)


@rules_jit
def apply_trusted(S, b, a, mask):
    """Apply action a, known to be legal; ``mask`` then holds the next
    position's legal actions, whose count is returned."""
    s = S[b]
    s['decisions'] += 1
    posed = do_action(S, b, a)
    illusions_dispelled(S, b)         # whatever moved: an Illusory Army beside an enemy dragon or superhero (L890)
    giant_reverts(S, b)               # whatever moved: a giant Argrath has left is no one's again (L686)
    if not posed:
        advance(S, b)
    return settle(S, b, mask)


@rules_jit
def apply_action(S, b, a, mask):
    """Check and apply action a for game b. Returns an E_* code; on error the
    record is untouched."""
    s = S[b]
    if s['status'] != 0:
        return E_OVER
    if a < 0 or a >= NUM_ACTIONS:
        return E_RANGE
    fill_mask(S, b, mask)
    if mask[a] == 0:
        return E_ILLEGAL
    apply_trusted(S, b, a, mask)
    return E_OK


@rules_jit
def reset_game(S, b, seed, scenario, screening, auto_single, max_turns, random_events):
    """Zero record b and set up scenario ``scenario`` up to its first decision;
    play stops after ``max_turns`` game-turns if that is sooner than its end;
    ``random_events`` 1: the Random Events Option (L950)."""
    S[b] = BLANK[0]
    s = S[b]
    s['seed'] = seed
    s['scenario'] = scenario
    s['num_players'] = SCENARIO_PLAYERS[scenario]     # three in 18.8 (L303)
    s['screening'] = screening
    s['auto_single'] = auto_single
    s['random_events'] = random_events
    setup_scenario(S, b)
    if SCENARIO_INDEPENDENTS[scenario]:
        place_dinosaurs(S, b)           # the dinosaurs, before any other units (L835)
        place_illusory_armies(S, b)     # the Puppeteers' 5 Illusory Armies stand from the start (L886)
    if max_turns < s['max_turns']:
        s['max_turns'] = max_turns
    advance(S, b)
    mask = np.empty(NUM_ACTIONS, dtype=np.int8)
    settle(S, b, mask)
