"""The fate of heroes (L801-L838): hero death and the body left behind,
retirement, starting a new hero, the end of the game; victory and its
tie-breaks (L113-L121, L141, L157-L168).

A seat plays one hero at a time and may have several in a game: when its
hero dies or retires, it makes a new one for the next turn (L829). Each hero
that leaves play leaves its standing -- LP, Fame, Epic Treasures, Treasures,
Gold (the victory order, L121) -- and the seat keeps the best standing of its
heroes (``best``): "the Hero with the most Legend Points wins, even if
deceased" (Interpretations).
"""
import numpy as np

from dragongym.envs.core.jit import local_array, rules_jit
from ..constants import (
    CW_CLEARING, CW_HERO, CW_REMOVED, CW_SITE, HS_ACTIVE, HS_DEAD, HS_NONE, HS_RETIRED, HS_WAITING, MAX_HEROES,
    NUM_CARDS, NUM_CLASSES, NUM_PACKS, NUM_SITES, SB_LEGENDARY, ST_HEROES, ST_OVER, ST_TURN_START,
    NUM_SPELLS, SPELL_START, SPW_ATTACHED, SPW_DISCARD, SPW_KNOWN, SPW_START,
)
from .base import (
    AIM_HERO, SPELL_FROM, CARD_KIND, KIND_BACKPACK_SPECIAL, KIND_EPIC, KIND_TREASURE, MONSTER_DIE_SYMBOL, PH_NONE, PH_RETIRE, A_DO, DO_RETIRE,
    DO_STAY, pose, roll, shape_off, ROLL_OUTLAW, dust_roll, OUTLAW_AT_DEATH, OUTLAW_AT_END, OUTLAW_CHOSEN,
)
from .equipment import settle_gifts
from .tokens import discard_missions_of

LEGEND_TARGET = 20
"""Solo Legendary: retire with this many LP to win (L168); the multi-player
race's number is the record's ``legend_target`` (20 unless agreed, L166)."""
EPIC_TARGET = 30
"""Legendary solo: retiring with this many LP is an Epic victory (L168)."""
RULES_LENGTH = 30
"""Open Realm, Explore the Realm and solo Legendary last 30 turns (L117, L137, L162)."""
FAME_PER_LP = 10
"""Each 10 Fame discarded gives 1 LP on death and retirement (L803, L819)."""


# ================================================================ standing
@rules_jit
def hero_standing(S, b, p, out):
    """The standing of p's hero now into ``out[:5]``: LP, Fame, Epic
    Treasures and Treasures it possesses, Gold (L121's order)."""
    s = S[b]
    epics = 0
    treasures = 0
    for c in range(NUM_CARDS):
        if s['card_where'][c] == CW_HERO and s['card_owner'][c] == p:
            k = int(CARD_KIND[c])
            epics += int(KIND_EPIC[k])
            treasures += int(KIND_TREASURE[k])
    out[0] = int(s['lp'][p])
    out[1] = int(s['fame'][p])
    out[2] = epics
    out[3] = treasures
    out[4] = int(s['gold'][p])


@rules_jit
def better_standing(x, y):
    """``x`` ranks above ``y`` (lexicographically: LP, then the tie-breaks, L121)."""
    for i in range(5):
        if x[i] != y[i]:
            return x[i] > y[i]
    return False


@rules_jit
def set_aside_hero(S, b, p):
    """p's hero leaves play (L803, L825): its standing is the seat's if it
    is its best so far, and its Class Card is set aside for the game."""
    s = S[b]
    now = local_array(5, np.int64)
    hero_standing(S, b, p, now)
    if s['best'][p, 0] < 0 or better_standing(now, s['best'][p]):
        for i in range(5):
            s['best'][p, i] = now[i]
    s['class_gone'] = s['class_gone'] | (1 << int(s['hero_class'][p]))
    s['hero_clearing'][p] = -1
    s['hero_status'][p] = 0
    discard_missions_of(S, b, p)          # L805 (and a retired hero's too, Interpretations)


# ================================================================ hero death (L801-L805)
@rules_jit
def kill_hero(S, b, p):
    """L803: a killed hero discards half its Fame (rounded down) and gets
    1 LP for each 10 Fame of the rest it can discard, then rolls for its
    Outlaw Tokens (L1666-L1671, Interpretations); its standing is set aside
    (L121: it may still win). L805: its possessions and Gold become its
    body, a pile in the clearing where it died, searched for and looted like a
    Treasure Site."""
    s = S[b]
    if s['hero_state'][p] != HS_ACTIVE and s['hero_state'][p] != HS_WAITING:
        return
    c = int(s['hero_clearing'][p])
    fame = int(s['fame'][p])
    fame -= fame // 2
    s['lp'][p] += fame // FAME_PER_LP
    s['fame'][p] = fame % FAME_PER_LP
    outlaw_rolls(S, b, p, int(s['outlaw'][p]), OUTLAW_AT_DEATH)
    set_aside_hero(S, b, p)
    lay_body(S, b, p, c)
    settle_gifts(S, b, p)                 # the cubes his treasures gave go with them (L1304)
    end_hero_spells(S, b, p)
    s['hero_state'][p] = HS_DEAD


@rules_jit
def end_hero_spells(S, b, p):
    """Hero p leaves play: the spells on him end with him (L1048, L1058),
    and so do those he cast, whose cards leave with him (L805)."""
    s = S[b]
    for sp in range(NUM_SPELLS):
        mine = s['spell_where'][sp] == SPW_KNOWN and s['spell_owner'][sp] == p
        if s['spell_on'][sp] == AIM_HERO + p or (mine and s['spell_on'][sp] >= 0):
            s['spell_on'][sp] = -1
            s['spell_mark'][sp] = 0
    shape_off(S, b, p)                    # L1568: his Shape Shift's chip returns to the tray
    s['lich_vapor'][p] = 0


@rules_jit
def remove_card(S, b, c):
    """Card c leaves the game; the spells under a Spell Book or Scroll go to
    the Spell deck's discard pile with it (L1424)."""
    s = S[b]
    s['card_where'][c] = CW_REMOVED
    s['card_owner'][c] = -1
    s['card_slot'][c] = -1
    for sp in range(NUM_SPELLS):
        if s['spell_where'][sp] == SPW_ATTACHED and s['spell_owner'][sp] == c:
            s['spell_where'][sp] = SPW_DISCARD
            s['spell_owner'][sp] = -1


@rules_jit
def lay_body(S, b, p, c):
    """L805: p's possessions, shuffled, face down with its Gold in clearing
    c: the pile NUM_SITES + p, found by no one yet; a Backpack Special card
    lies face up in the clearing instead (L960). A body the seat's earlier
    hero left and no one emptied is gone (Interpretations: one body per seat)."""
    s = S[b]
    pile = NUM_SITES + p
    for k in range(NUM_CARDS):
        if s['card_where'][k] == CW_SITE and s['card_owner'][k] == pile:
            remove_card(S, b, k)
    order = local_array(NUM_CARDS, np.int64)
    n = 0
    for k in range(NUM_CARDS):
        if s['card_where'][k] == CW_HERO and s['card_owner'][k] == p:
            if KIND_BACKPACK_SPECIAL[CARD_KIND[k]] and c >= 0:     # L960: face up in the clearing
                s['card_where'][k] = CW_CLEARING
                s['card_owner'][k] = c
                s['card_slot'][k] = -1
                s['card_revealed'][k] = 1
                continue
            order[n] = k
            n += 1
    for i in range(n - 1, 0, -1):                                  # shuffled (Fisher-Yates)
        j = roll(S, b, i + 1)
        x = order[i]
        order[i] = order[j]
        order[j] = x
    for i in range(n):
        k = int(order[i])
        s['card_where'][k] = CW_SITE
        s['card_owner'][k] = pile
        s['card_slot'][k] = i
    s['site_gold'][pile] = s['gold'][p]
    s['gold'][p] = 0
    s['site_opened'][pile] = 0
    for q in range(MAX_HEROES):
        s['site_found'][q, pile] = 0
    s['site_clearing'][pile] = c if (n > 0 or s['site_gold'][pile] > 0) and c >= 0 else -1


@rules_jit
def outlaw_rolls(S, b, p, n, then):
    """L821-L824, L1669-L1671: two Monster Dice for each of n of p's Outlaw
    Tokens (``outlaw_result``). Rolled at retirement and at death, after the
    Fame is converted (Interpretations). In a retirement -- one he chose in
    the Fate phase (OUTLAW_CHOSEN) or the end of the game's (OUTLAW_AT_END,
    L833) -- a roll short of two symbols first waits on his Dust of Destiny
    (ROLL_OUTLAW, L1330: the roll is his, as the active Hero; ``roll_target``
    the tokens left after it, ``roll_then`` the retirement's kind); at death
    (OUTLAW_AT_DEATH) the rolls fall as they are: his possessions, the Dust
    among them, are his body (L805; Interpretations). True if a decision is
    posed."""
    for i in range(n):
        first = int(MONSTER_DIE_SYMBOL[roll(S, b, MONSTER_DIE_SYMBOL.shape[0])])
        second = int(MONSTER_DIE_SYMBOL[roll(S, b, MONSTER_DIE_SYMBOL.shape[0])])
        if then != OUTLAW_AT_DEATH and first + second < 2 and \
                dust_roll(S, b, ROLL_OUTLAW, 2, MONSTER_DIE_SYMBOL.shape[0], n - 1 - i, then, first, second, p):
            return True
        outlaw_result(S, b, p, first, second)
    return False


@rules_jit
def outlaw_result(S, b, p, first, second):
    """An Outlaw Token's Monster Dice (1 a symbol) apply (L822-L824): two
    symbols +1 LP; one symbol -1 LP, or with no LP all the Fame left is
    lost; two blanks nothing."""
    s = S[b]
    if first + second == 2:
        s['lp'][p] += 1
    elif first + second == 1:
        if s['lp'][p] > 0:
            s['lp'][p] -= 1
        else:
            s['fame'][p] = 0


# ================================================================ retirement (L815-L825)
@rules_jit
def in_civilization(S, b, p):
    """Hero p stands in a Civilization Location (L817)."""
    s = S[b]
    c = s['hero_clearing'][p]
    if c < 0:
        return False
    for k in range(NUM_PACKS):
        if s['civ_clearing'][k] == c:
            return True
    return False


@rules_jit
def retire_hero(S, b, p, on_last_turn, forced):
    """L819: 1 LP for each 10 Fame discarded, the rest kept as a tie-breaker;
    L820: 1 LP more for a living legend retiring on the last turn; L821: the
    Outlaw rolls; L825: the hero is set aside with its LP and Fame (its
    possessions with it). The Legendary race is won by the first to retire
    with 20 LP (multi-player: ``legend_target``, L166); solo, 30 LP is an
    Epic victory (L166, L168). A hero who chooses to retire in the Fate phase
    retires before the game ends, the last turn's included; the retirements
    ``forced`` by the end of the game (L833) are the end itself and win no
    race (L168's "before the game ends"; Interpretations). True if a
    decision is posed (an Outlaw roll waiting on his Dust of Destiny)."""
    s = S[b]
    fame = int(s['fame'][p])
    s['lp'][p] += fame // FAME_PER_LP
    s['fame'][p] = fame % FAME_PER_LP
    if on_last_turn:
        s['lp'][p] += 1
    if outlaw_rolls(S, b, p, int(s['outlaw'][p]), OUTLAW_AT_END if forced else OUTLAW_CHOSEN):
        return True                      # a roll waits on his Dust: ``retired`` after it
    retired(S, b, p, forced)
    return False


@rules_jit
def retired(S, b, p, forced):
    """Hero p's retirement ends, his Outlaw rolls made: the Legendary race
    (L166, L168), then he is set aside with his LP and Fame (L825), his
    possessions with him (``retire_hero``)."""
    s = S[b]
    target = LEGEND_TARGET if s['num_players'] == 1 else int(s['legend_target'])
    if not forced and s['sandbox'] == SB_LEGENDARY and s['legend'] < 0 and s['lp'][p] >= target:
        s['legend'] = p
        if s['num_players'] == 1 and s['lp'][p] >= EPIC_TARGET:
            s['epic_victory'] = 1
    set_aside_hero(S, b, p)
    for k in range(NUM_CARDS):
        if s['card_where'][k] == CW_HERO and s['card_owner'][k] == p:
            remove_card(S, b, k)
    settle_gifts(S, b, p)
    s['gold'][p] = 0
    end_hero_spells(S, b, p)
    s['hero_state'][p] = HS_RETIRED


@rules_jit
def mask_retire(S, b, p, mask):
    """Legal actions of PH_RETIRE: A_DO + DO_RETIRE or A_DO + DO_STAY."""
    mask[A_DO + DO_RETIRE] = 1
    mask[A_DO + DO_STAY] = 1


@rules_jit
def act_retire(S, b, p, a):
    """PH_RETIRE: retire now, or stay (on the last turn, to be retired by the
    end of the game, L833)."""
    if a == A_DO + DO_RETIRE:
        return retire_hero(S, b, p, int(S[b]['turn']) >= last_turn(S, b), False)
    return False


# ================================================================ the end of the battle phase
@rules_jit
def last_turn(S, b):
    """The turn after which the game ends: the rules' 30 (L117, L137, L162),
    or ``max_turns`` if that is shorter; multi-player Legendary has no length
    of its own (L161) and runs to ``max_turns``."""
    s = S[b]
    if s['sandbox'] == SB_LEGENDARY and s['num_players'] > 1:
        return int(s['max_turns'])
    return min(int(s['max_turns']), RULES_LENGTH)


@rules_jit
def fate_phase(S, b):
    """After combat (L813): heroes in a Civilization Location may retire, in
    Turn Order (L817); then the game ends -- on its last turn, or when a
    Legendary hero has retired with 20 LP -- or each seat whose hero died or
    retired makes a new one, who begins play next turn (L829). True if a
    decision is posed.

    On the last turn the choice is posed in the Legendary sandbox only: a
    hero retiring then retires before the game ends and may win the race
    (L168), where the end's own retirement (L833) wins nothing. Elsewhere
    retiring now and being retired by the end score the same -- a living
    legend either way (L820), in a Civilization Location with no Fame lost
    -- so the game retires him with everyone else and asks nothing."""
    s = S[b]
    n = int(s['num_players'])
    final = int(s['turn']) >= last_turn(S, b)
    ask = not final or s['sandbox'] == SB_LEGENDARY
    while ask and s['fate_pos'] < n and s['legend'] < 0:
        p = int(s['turn_order'][s['fate_pos']])
        s['fate_pos'] += 1
        if p >= 0 and s['hero_state'][p] == HS_ACTIVE and in_civilization(S, b, p):
            return pose(S, b, PH_RETIRE, p)
    s['fate_pos'] = 0
    if final or s['legend'] >= 0:
        return end_game(S, b)
    start_new_heroes(S, b)
    return False


@rules_jit
def start_new_heroes(S, b):
    """L829: each seat (in Turn Order) whose hero died or retired makes a new
    hero by the set-up's rules, while an unused Class Card is left for it
    (the Class Cards of the heroes set aside are not; Interpretations)."""
    s = S[b]
    n = int(s['num_players'])
    free = 0
    for i in range(NUM_CLASSES):
        used = (s['class_gone'] >> i) & 1
        for q in range(n):
            if s['hero_class'][q] == i and (s['hero_state'][q] == HS_ACTIVE or s['hero_state'][q] == HS_WAITING):
                used = 1
        if not used:
            free += 1
    for q in range(MAX_HEROES):
        s['hero_order'][q] = -1
    m = 0
    for i in range(n):
        p = int(s['turn_order'][i])
        if p >= 0 and (s['hero_state'][p] == HS_DEAD or s['hero_state'][p] == HS_RETIRED) and m < free:
            clear_hero(S, b, p)
            s['hero_order'][m] = p
            m += 1
    if m > 0:
        s['heroes_chosen'] = 0
        s['stage'] = ST_HEROES
    else:
        s['stage'] = ST_TURN_START


@rules_jit
def clear_deeds(S, b, p):
    """A new hero has done nothing yet for missions and titles (L1079, L567):
    no kills, loots, tiles stood in, missions completed or titles claimed."""
    s = S[b]
    s['missions_done'][p] = 0
    for i in range(s['kills'].shape[1]):
        s['kills'][p, i] = 0
    for i in range(s['native_kills'].shape[1]):
        s['native_kills'][p, i] = 0
    for i in range(s['sites_looted'].shape[1]):
        s['sites_looted'][p, i] = 0
    for i in range(s['tiles_entered'].shape[1]):
        s['tiles_entered'][p, i] = 0
    for i in range(s['title_claims'].shape[1]):
        s['title_claims'][p, i] = 0


@rules_jit
def clear_hero(S, b, p):
    """Empty seat p's Hero Board for a new hero (L829): no cards chosen, no
    cubes, no LP, Fame or Gold, nothing discovered, no spells (the learned
    ones discarded, the starting ones set aside again, L805), no curses."""
    s = S[b]
    s['hero_state'][p] = HS_NONE
    s['hero_lineage'][p] = -1
    s['lineage_side'][p] = -1
    s['hero_class'][p] = -1
    s['class_side'][p] = -1
    s['cubes_taken'][p] = 0
    s['hearts'][p, 0] = 0
    s['hearts'][p, 1] = 0
    for i in range(s['cubes'].shape[2]):
        s['cubes'][p, 0, i] = 0
        s['cubes'][p, 1, i] = 0
    for i in range(s['gift_cubes'].shape[1]):
        s['gift_cubes'][p, i] = 0
    s['cubes_gained'][p] = 0
    s['free_used'][p] = 0
    s['treasure_combat'][p] = 0
    s['turn_powers'][p] = 0
    s['flight_until'][p] = 0
    s['lp'][p] = 0
    s['fame'][p] = 0
    s['gold'][p] = 0
    s['outlaw'][p] = 0
    s['hero_status'][p] = 0
    s['hero_clearing'][p] = -1
    s['actions_used'][p] = 0
    s['search_target'][p] = -1
    s['search_dice'][p, 0] = 0
    s['search_dice'][p, 1] = 0
    for i in range(s['hidden_found'].shape[1]):
        s['hidden_found'][p, i] = 0
    for i in range(s['site_found'].shape[1]):
        s['site_found'][p, i] = 0
    clear_deeds(S, b, p)
    s['heroes_made'][p] += 1
    end_hero_spells(S, b, p)
    for sp in range(NUM_SPELLS):          # L805: spells known go: learned ones discarded, starting ones set aside
        if s['spell_where'][sp] == SPW_KNOWN and s['spell_owner'][sp] == p:
            s['spell_shown'][sp] = 0
            s['spell_where'][sp] = SPW_START if SPELL_FROM[sp] == SPELL_START else SPW_DISCARD
            s['spell_owner'][sp] = -1
    s['curses'][p] = 0                    # a curse is the hero's, not the seat's


# ================================================================ the end of the game (L831-L838)
@rules_jit
def end_game(S, b):
    """L833-L836: every surviving hero retires -- normally in a Civilization
    Location, otherwise after losing half its Fame (rounded down) -- and
    victory is decided (L121, L166-L168): see ``rank_seats``. An Outlaw
    roll of these retirements may wait on its hero's Dust of Destiny
    (OUTLAW_AT_END): the end runs again once it has applied, the heroes
    already retired left as they are. True if a decision is posed."""
    s = S[b]
    n = int(s['num_players'])
    for i in range(n):
        p = int(s['turn_order'][i]) if s['turn_order'][i] >= 0 else i
        if s['hero_state'][p] == HS_ACTIVE or s['hero_state'][p] == HS_WAITING:
            if not in_civilization(S, b, p):
                s['fame'][p] -= s['fame'][p] // 2
            if retire_hero(S, b, p, s['legend'] < 0, True):
                return True
    rank_seats(S, b)
    s['stage'] = ST_OVER
    s['phase'] = PH_NONE
    s['to_play'] = -1
    return False


@rules_jit
def rank_seats(S, b):
    """The outcome. Multi-player: seats ranked by their best hero's LP, then
    Fame, Epic Treasures, Treasures and Gold (L121); a Legendary race's first
    to retire with 20 LP ranks first (L166). Solo: won (rank 1) by a
    Legendary retirement with 20 LP (L168), in the other sandboxes by ending
    with any LP; lost (rank 2) otherwise. ``score`` is each seat's LP. A game
    cut short by ``max_turns`` before its rules end it is truncated: a draw for
    all seats (solo: lost unless won)."""
    s = S[b]
    n = int(s['num_players'])
    legendary = s['sandbox'] == SB_LEGENDARY
    truncated = s['legend'] < 0 and ((legendary and n > 1) or int(s['turn']) < RULES_LENGTH)
    s['status'] = 2 if truncated else 1
    for p in range(n):
        s['score'][p] = float(s['best'][p, 0])
    if n == 1:
        won = s['legend'] == 0 if legendary else (s['best'][0, 0] > 0 and not truncated)
        s['rank'][0] = 1 if won else 2
        s['rewards'][0] = 1.0 if won else -1.0
        return
    for p in range(n):
        r = 1
        if truncated:
            r = 1
        elif s['legend'] >= 0:
            if p != s['legend']:
                r = 2
                for q in range(n):
                    if q != p and q != s['legend'] and better_standing(s['best'][q], s['best'][p]):
                        r += 1
        else:
            for q in range(n):
                if q != p and better_standing(s['best'][q], s['best'][p]):
                    r += 1
        s['rank'][p] = r
    for p in range(n):                           # position values +1 .. -1, ties averaged
        r = int(s['rank'][p])
        tied = 0
        for q in range(n):
            if s['rank'][q] == r:
                tied += 1
        total = 0                                # sum of (n - 1 - 2 pos): exact, 0 for a full tie
        for pos in range(r - 1, r - 1 + tied):
            total += n - 1 - 2 * pos
        s['rewards'][p] = total / (tied * (n - 1))
