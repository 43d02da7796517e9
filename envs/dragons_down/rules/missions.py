"""Mission Cards (L328-L332, L564-L566, L1067-L1087), the titles of the
Civilization Cards (L322-L326, L567) and the Outlaw Tokens missions give and
take (L1109-L1122).

A Hero takes up to two Mission Cards in a commerce's Take Missions step
(PH_COMMERCE, PH_TAKE_MISSION), holds them face down, may discard any in his
action phase (PH_ACTION, no action spent) and keeps at most two at the end
of his turn (PH_MISSION_LIMIT); then every Merchant lists missions again
(``tokens.refill_missions``). A mission is completed, or a title claimed, as
one Trade Action (``mission_options`` joins ``trade.trade_options``). What a
Hero did counts whenever he did it, before taking the card too (L1079): his
kills, Native kills, successful loots and the tiles he stood in are kept for
the hero (``note_*``), a new hero starting from nothing.
"""
from dragongym.envs.core.jit import rules_jit
from ..constants import (
    MAX_HELD_MISSIONS, MAX_HEROES, MW_DONE, MW_HERO, MW_MERCHANT, NUM_MISSIONS, NUM_MONSTER_CHIPS, NUM_NATIVE_CHIPS,
    NUM_SITES, NUM_TITLES, CLEARINGS_PER_TILE, HS_ACTIVE,
)
from .base import (
    A_ANSWER, A_MISSION, A_TITLE, ANSWER_ACCEPT, ANSWER_REFUSE, CIV_GROUP, CIV_LIMIT, CIV_PACK, MAX_TASKS, MISSION_AT_CIV,
    MISSION_AT_MERCHANT, MISSION_BONUS, MISSION_DIE_FAME, MISSION_DIE_GOLD, MISSION_DISCARD, MISSION_KIND,
    MISSION_REWARD, MK_ATROCITY, MK_QUEST, NATIVE_GROUP_OF, PH_MISSION_LIMIT, PH_PARDON, TASK_COUNT, TASK_ENTER,
    TASK_KILL, TASK_KILL_NATIVE, TASK_KINDS, TASK_LOOT, TASK_TARGET, TASK_VERB, TITLE_CARD, TITLE_NEED, TITLE_OUTLAW,
    TITLE_PRICE, TITLE_REWARD, TITLE_SIDE, TITLE_SMALL, CURSE_MISFORTUNE, TRADE_CHIP_KIND, pose, roll,
)
from .equipment import hero_attribute
from .tokens import merchant_here, refill_missions, discard_mission_card, has_looked
from .magic import CHARM_BONUS, charmed, curse_held

MAX_MISSION_OPTIONS = NUM_MISSIONS + NUM_TITLES
"""Trade Actions of this part a hero may have at once: a mission to complete
or a title to claim."""


# ================================================================ what a Hero has done (L1079)
@rules_jit
def note_kill(S, b, f, p):
    """Hero p is credited with killing foe f (a Monster chip, then the Native
    chips; L799, L1596): counted for his missions (kill, kill_native) and
    titles (kills>=N)."""
    s = S[b]
    if f < NUM_MONSTER_CHIPS:
        k = int(TRADE_CHIP_KIND[f])
        if s['kills'][p, k] < 127:
            s['kills'][p, k] += 1
    elif f < NUM_MONSTER_CHIPS + NUM_NATIVE_CHIPS:
        g = int(NATIVE_GROUP_OF[f - NUM_MONSTER_CHIPS])
        if s['native_kills'][p, g] < 127:
            s['native_kills'][p, g] += 1


@rules_jit
def note_loot(S, b, p, pile):
    """Hero p made a successful Loot Action at pile ``pile`` (a Treasure
    Site; a body is no site), or found the Secret Cache (L1244)."""
    if pile < NUM_SITES:
        S[b]['sites_looted'][p, pile] = 1


@rules_jit
def note_tiles_entered(S, b):
    """Every hero on the map has stood in the Map Tile of his clearing
    (checked after each decision, so every way of arriving counts)."""
    s = S[b]
    for p in range(MAX_HEROES):
        c = int(s['hero_clearing'][p])
        if c >= 0 and s['hero_state'][p] == HS_ACTIVE:
            s['tiles_entered'][p, c // CLEARINGS_PER_TILE] = 1


@rules_jit
def monster_kills(S, b, p):
    """Monsters hero p has killed (a title's kills>=N; Natives not counted)."""
    s = S[b]
    n = 0
    for k in range(s['kills'].shape[1]):
        n += int(s['kills'][p, k])
    return n


@rules_jit
def task_progress(S, b, p, k, j):
    """How much of task j of Mission Card k hero p has done, and how much it
    asks: (done, needed); done >= needed when it is met."""
    s = S[b]
    verb = TASK_VERB[k, j]
    need = int(TASK_COUNT[k, j])
    if verb == TASK_KILL:
        n = 0
        for i in range(s['kills'].shape[1]):
            if TASK_KINDS[k, j, i]:
                n += int(s['kills'][p, i])
        return n, need
    if verb == TASK_KILL_NATIVE:
        return int(s['native_kills'][p, TASK_TARGET[k, j]]), need
    if verb == TASK_LOOT:
        return int(s['sites_looted'][p, TASK_TARGET[k, j]]), 1
    if verb == TASK_ENTER:
        return int(s['tiles_entered'][p, TASK_TARGET[k, j]]), 1
    return 0, 0


@rules_jit
def tasks_met(S, b, p, k):
    """Hero p has done every task of Mission Card k (L1079)."""
    for j in range(MAX_TASKS):
        done, need = task_progress(S, b, p, k, j)
        if done < need:
            return False
    return True


# ================================================================ holding Mission Cards (L564, L1071)
@rules_jit
def missions_held(S, b, p):
    """Mission Cards in hero p's backpack."""
    s = S[b]
    n = 0
    for k in range(NUM_MISSIONS):
        if s['mission_where'][k] == MW_HERO and s['mission_owner'][k] == p:
            n += 1
    return n


@rules_jit
def takeable(S, b, p, m, k):
    """Hero p, doing commerce with Merchant m, may take its Mission Card k:
    it lists k and p knows its cards (L558, as for buying)."""
    s = S[b]
    return s['mission_where'][k] == MW_MERCHANT and s['mission_owner'][k] == m and has_looked(S, b, p, m)


@rules_jit
def any_takeable(S, b, p, m):
    """Hero p may take some Mission Card of Merchant m (``takeable``)."""
    for k in range(NUM_MISSIONS):
        if takeable(S, b, p, m, k):
            return True
    return False


@rules_jit
def mask_take_missions(S, b, p, m, mask):
    """A_MISSION + k for each Mission Card of Merchant m hero p may take."""
    for k in range(NUM_MISSIONS):
        if takeable(S, b, p, m, k):
            mask[A_MISSION + k] = 1


@rules_jit
def take_mission(S, b, p, k):
    """L564: the card goes face down into hero p's backpack."""
    s = S[b]
    s['mission_where'][k] = MW_HERO
    s['mission_owner'][k] = p
    s['missions_taken'] += 1


@rules_jit
def discard_mission(S, b, p, k):
    """L1071: hero p discards Mission Card k face up; its mandatory reward or
    penalty applies, a penalty taking no more than he has."""
    s = S[b]
    s['gold'][p] = max(int(s['gold'][p]) + int(MISSION_DISCARD[k, 0]), 0)
    s['lp'][p] = max(int(s['lp'][p]) + int(MISSION_DISCARD[k, 1]), 0)
    s['fame'][p] = max(int(s['fame'][p]) + int(MISSION_DISCARD[k, 2]), 0)
    discard_mission_card(S, b, k)


@rules_jit
def mask_discard_missions(S, b, p, mask):
    """A_MISSION + k for each Mission Card hero p holds: in his action phase
    he may discard it (L1071), no action spent; at the end of his turn he
    must discard down to two (PH_MISSION_LIMIT)."""
    s = S[b]
    for k in range(NUM_MISSIONS):
        if s['mission_where'][k] == MW_HERO and s['mission_owner'][k] == p:
            mask[A_MISSION + k] = 1


@rules_jit
def act_mission_limit(S, b, p, a):
    """PH_MISSION_LIMIT: discard that card; the end of the turn is checked again."""
    discard_mission(S, b, p, a - A_MISSION)
    return False


@rules_jit
def end_turn_missions(S, b, p):
    """The end of hero p's turn (L564, L1071): past two Mission Cards he
    discards one at a time (PH_MISSION_LIMIT); then every Merchant lists
    missions again. True if a decision is posed."""
    s = S[b]
    if s['hero_state'][p] == HS_ACTIVE and missions_held(S, b, p) > MAX_HELD_MISSIONS:
        return pose(S, b, PH_MISSION_LIMIT, p)
    refill_missions(S, b)
    return False


# ================================================================ completing a mission (L566, L1077-L1087)
@rules_jit
def at_mission_place(S, b, p, k):
    """Hero p stands where Mission Card k is completed: its Civilization
    Location, or in a Merchant's clearing (L566, L1079)."""
    s = S[b]
    pack = int(MISSION_AT_CIV[k])
    if pack >= 0:
        return s['civ_clearing'][pack] >= 0 and s['hero_clearing'][p] == s['civ_clearing'][pack]
    return merchant_here(S, b, p, int(MISSION_AT_MERCHANT[k]))


@rules_jit
def completable(S, b, p, k):
    """Hero p may spend a Trade Action completing Mission Card k: he holds it,
    has done its tasks and is at its place (L1079)."""
    s = S[b]
    return s['mission_where'][k] == MW_HERO and s['mission_owner'][k] == p and at_mission_place(S, b, p, k) \
        and tasks_met(S, b, p, k)


@rules_jit
def mission_dice(S, b, p, k):
    """L1081: one Mission Die per icon of the mission's bonus attribute on
    hero p's Lineage and Class Cards (and the cards adding one), two more
    under Charm (L1592), one less under Misfortune (curses.txt), never below
    none."""
    n = hero_attribute(S, b, p, int(MISSION_BONUS[k]))
    if charmed(S, b, p):
        n += CHARM_BONUS
    if curse_held(S, b, p, CURSE_MISFORTUNE):
        n -= 1
    return max(n, 0)


@rules_jit
def complete_mission(S, b, p, k):
    """L1079-L1085: hero p receives the card's Gold, LP and Fame and the sum
    of his Mission Dice; an Atrocity gives him an Outlaw Token (L1116); the
    card leaves the game. After a Quest he may discard an Outlaw Token he
    already holds (PH_PARDON, L1083). True if that is posed."""
    s = S[b]
    s['gold'][p] += MISSION_REWARD[k, 0]
    s['lp'][p] += MISSION_REWARD[k, 1]
    s['fame'][p] += MISSION_REWARD[k, 2]
    for _ in range(mission_dice(S, b, p, k)):
        face = roll(S, b, MISSION_DIE_GOLD.shape[0])
        s['gold'][p] += MISSION_DIE_GOLD[face]
        s['fame'][p] += MISSION_DIE_FAME[face]
    s['mission_where'][k] = MW_DONE
    s['mission_owner'][k] = -1
    if s['missions_done'][p] < 127:
        s['missions_done'][p] += 1
    if MISSION_KIND[k] == MK_ATROCITY and s['outlaw'][p] < 127:
        s['outlaw'][p] += 1
    if MISSION_KIND[k] == MK_QUEST and s['outlaw'][p] > 0:
        return pose(S, b, PH_PARDON, p)
    return False


@rules_jit
def mask_pardon(S, b, p, mask):
    """Legal actions of PH_PARDON: discard an Outlaw Token or keep it."""
    mask[A_ANSWER + ANSWER_ACCEPT] = 1
    mask[A_ANSWER + ANSWER_REFUSE] = 1


@rules_jit
def act_pardon(S, b, p, a):
    """PH_PARDON: ANSWER_ACCEPT discards one Outlaw Token (L1083)."""
    if a == A_ANSWER + ANSWER_ACCEPT:
        S[b]['outlaw'][p] -= 1
    return False


# ================================================================ titles (L322-L326, L567)
@rules_jit
def group_present(S, b, p, g):
    """A Native of Native Group g stands in hero p's clearing (L567)."""
    s = S[b]
    for i in range(NUM_NATIVE_CHIPS):
        if NATIVE_GROUP_OF[i] == g and s['native_clearing'][i] == s['hero_clearing'][p]:
            return True
    return False


@rules_jit
def side_claims(S, b, p, card, side):
    """Titles hero p has claimed on that side of Civilization Card ``card``,
    each claim of a large box counted once (L326)."""
    s = S[b]
    n = 0
    for i in range(NUM_TITLES):
        if TITLE_CARD[i] == card and TITLE_SIDE[i] == side:
            n += int(s['title_claims'][p, i])
    return n


@rules_jit
def title_requirements_met(S, b, p, i):
    """Hero p meets title i's requirements and can pay its price (L567)."""
    s = S[b]
    if s['fame'][p] < TITLE_NEED[i, 0] or s['lp'][p] < TITLE_NEED[i, 1]:
        return False
    if monster_kills(S, b, p) < TITLE_NEED[i, 2] or s['missions_done'][p] < TITLE_NEED[i, 3]:
        return False
    if TITLE_OUTLAW[i] >= 0 and (s['outlaw'][p] > 0) != (TITLE_OUTLAW[i] == 1):
        return False
    return s['gold'][p] >= TITLE_PRICE[i]


@rules_jit
def claimable(S, b, p, i):
    """Hero p may spend a Trade Action claiming title i: its side of the card
    is up, he stands at the card's Civilization Location with a Native of
    its Group, a small box is still free, the side's limit is not reached,
    and he meets its requirements (L326, L567)."""
    s = S[b]
    card = int(TITLE_CARD[i])
    side = int(TITLE_SIDE[i])
    if s['civ_side'][card] != side:
        return False
    c = int(s['civ_clearing'][CIV_PACK[card]])
    if c < 0 or s['hero_clearing'][p] != c or not group_present(S, b, p, int(CIV_GROUP[card])):
        return False
    if TITLE_SMALL[i] and s['title_taken'][i]:
        return False
    if CIV_LIMIT[card, side] > 0 and side_claims(S, b, p, card, side) >= CIV_LIMIT[card, side]:
        return False
    return title_requirements_met(S, b, p, i)


@rules_jit
def claim_title(S, b, p, i):
    """L567: a pink cube on the title; hero p pays its price and receives its
    reward."""
    s = S[b]
    s['gold'][p] -= TITLE_PRICE[i]
    s['lp'][p] += TITLE_REWARD[i, 0]
    s['fame'][p] += TITLE_REWARD[i, 1]
    s['title_claims'][p, i] += 1
    if TITLE_SMALL[i]:
        s['title_taken'][i] = 1


# ================================================================ as Trade Actions (L566, L567)
@rules_jit
def mission_options(S, b, p, out, n):
    """Append to ``out[n:]`` the Trade Actions of this part hero p may take
    now -- A_MISSION + k to complete mission k, A_TITLE + i to claim title i
    -- and return the new count."""
    for k in range(NUM_MISSIONS):
        if completable(S, b, p, k):
            out[n] = A_MISSION + k
            n += 1
    for i in range(NUM_TITLES):
        if claimable(S, b, p, i):
            out[n] = A_TITLE + i
            n += 1
    return n


@rules_jit
def mission_trade(S, b, p, a):
    """Hero p's Trade Action completes mission a - A_MISSION or claims title
    a - A_TITLE. True if a decision is posed."""
    if a >= A_TITLE:
        claim_title(S, b, p, a - A_TITLE)
        return False
    return complete_mission(S, b, p, a - A_MISSION)
