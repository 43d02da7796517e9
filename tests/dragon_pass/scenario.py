"""Hand-built Dragon Pass positions for scenario tests.

``Position(scenario)`` is a game of that scenario with the map emptied: every
counter the scenario deploys lies in the dead pile until ``put`` places it.
Start a phase with ``movement(force)`` or ``combat(force)``; load the dice
with ``dice(*faces)`` (the next d6 results, in the order the rules roll
them); then ``act("...")`` as a player would (the test fails if that names no
legal action), read ``legal()``, ``phase``, ``to_play``, ``where(unit)``,
``stack(hex)``. Every ``act`` first runs ``GAME.check_state`` on the
position, so a test can only play from sound positions. Only the game's one
compiled entry point is used (``kernel.run_batch``), so the tests compile
nothing more.

Units are named by their id with the copy (``"cc_lancers#2"``) or, for a
kind with one counter, its id (``"argrath"``); hexes by their rulebook
number (``"3124"``).
"""
import numpy as np

from dragongym.envs.dragon_pass import rules as R
from dragongym.envs.dragon_pass.constants import (
    UW_HOLDING, FORCES, SCENARIO_ROLES, SIDE_BACK, ST_COMBAT, ST_MOVEMENT, UNIT_IDS, UW_DEAD, UW_ENTERING, UW_MAP,
)
from dragongym.envs.dragon_pass.data import MAP
from dragongym.envs.dragon_pass.game import GAME

LUNAR, SARTAR, TARSH = "lunar", "sartar", "tarsh"
INDEPENDENTS = "independents"
"""18.6's second player (seat 1, as Sartar is elsewhere)."""


def seat(force):
    """The seat of a player name: lunar 0; sartar or independents 1; tarsh 2."""
    return 1 if force == INDEPENDENTS else FORCES.index(force)


def unit(name):
    """The unit index of ``name`` (``"cc_lancers#2"``, ``"argrath"``)."""
    return UNIT_IDS.index(name)


def hexi(name):
    return MAP.hex_index(name)


class Position:
    def __init__(self, scenario="18.1", screening=False, auto_single=False, seed=1, moon=None):
        self.config = GAME.make_config(scenario=scenario, screening=screening, auto_single=auto_single)
        self.S = GAME.new_states(1)
        GAME.reset(self.S, np.array([seed], np.uint64), self.config)
        s = self.S[0]
        for u in range(len(UNIT_IDS)):
            if s["unit_where"][u] != 0:
                # spirits and agents wait in their holding boxes (L416)
                s["unit_where"][u] = UW_HOLDING if R.U_MAGICIAN[u] >= 0 or R.U_ASSASSIN[u] else UW_DEAD
                s["unit_hex"][u] = -1
        s["turn"] = 1
        s["stage"] = ST_MOVEMENT
        s["phase"] = R.PH_NONE
        if moon is not None:                    # the Red Moon's phase, by id (rules.MOON_PHASE_IDS)
            s["moon"] = R.MOON_PHASE_IDS.index(moon)

    @property
    def s(self):
        return self.S[0]

    # ------------------------------------------------------------ building
    def put(self, name, where, disrupted=False):
        """Counter ``name`` on top of the stack at hex ``where``."""
        u = unit(name)
        s = self.s
        s["unit_where"][u] = UW_MAP
        s["unit_hex"][u] = hexi(where)
        s["unit_order"][u] = s["order_clock"]
        s["order_clock"] += 1
        s["unit_side"][u] = SIDE_BACK if disrupted else 0
        if disrupted:
            s["unit_disrupted_at"][u] = s["player_turn"]
        return u

    def entering(self, name, zone):
        """Counter ``name`` off the board, to enter by edge ``zone`` (constants.ENTRY_*)."""
        u = unit(name)
        s = self.s
        s["unit_where"][u] = UW_ENTERING
        s["unit_hex"][u] = -1
        s["unit_entry"][u] = zone
        return u

    def control(self, fortress, force):
        from dragongym.envs.dragon_pass.board import FORTRESS_NAMES
        self.s["fortress_owner"][FORTRESS_NAMES.index(fortress)] = seat(force)

    def dice(self, *faces):
        """The next d6 rolls show ``faces``."""
        s = self.s
        n = len(faces)
        s["loaded"][:n] = [f - 1 for f in faces]
        s["loaded_count"] = n
        s["loaded_pos"] = 0

    def _active(self, force, player_turn):
        s = self.s
        f = seat(force)
        n = len(SCENARIO_ROLES[int(s["scenario"])])
        # the first force of the game-turn such that ``force`` plays player-turn ``player_turn``
        s["first_force"] = (f - (player_turn - 1)) % n
        s["player_turn"] = player_turn
        s["turn"] = (player_turn + n - 1) // n
        s["active"] = f
        s["to_play"] = f
        return f

    def movement(self, force, player_turn=1):
        """The start of ``force``'s movement phase (every unit's MF in points)."""
        s = self.s
        f = self._active(force, player_turn)
        for u in range(len(UNIT_IDS)):
            s["unit_flags"][u] = 0
            s["unit_road"][u] = 0
            mf = R.SPIRIT_OF_MOVEMENT_MF if u == R.SPIRIT_OF_MOVEMENT else R.U_MF[u, s["unit_side"][u]]   # L896
            s["unit_mp"][u] = 2 * mf if s["unit_force"][u] == f else 0
        s["stage"] = ST_MOVEMENT
        s["sel_hex"] = -1
        s["sm_asked"] = 1             # past the start: the Spirit of Movement stays (L898),
        s["alchemy_asked"] = 1        # the Alchemical Transformer's unit is named (L857)
        s["phase"] = R.PH_MOVE
        return self

    def combat(self, force, player_turn=1):
        """The start of ``force``'s combat phase (the first battle to announce)."""
        s = self.s
        self._active(force, player_turn)
        for u in range(len(UNIT_IDS)):
            s["unit_flags"][u] = 0
        s["stage"] = ST_COMBAT
        s["step"] = 0
        s["phase"] = R.PH_BATTLE
        if R.SCENARIO_MAGIC[int(s["scenario"])]:
            # phase A first (L496): posed, or passed over as the rules do when no
            # spirit or agent can be committed
            s["magic_kind"] = 1
            s["phase"] = R.PH_COMMIT
            if self.legal() == ["commit no more spirits or agents"]:
                self.act("commit no more spirits or agents")
        return self

    def cf(self, name):
        """Unit ``name``'s CF as the rules read it now (cyclic values where it
        stands, L662; halves kept), from its own side's observation."""
        from dragongym.envs.dragon_pass import observe as O
        u = unit(name)
        obs = np.zeros((1, O.OBS_SIZE), np.float32)
        GAME.observe(self.S, np.array([int(R.U_FORCE[u])], np.int64), obs)
        return round(float(obs[0, O.UNITS_OFF + u * O.UNIT_FEATURES + O.U_CF]) * 20) / 2

    def fought(self, *hexes):
        """The stacks at ``hexes`` have fought a battle earlier in this combat phase (L516)."""
        from dragongym.envs.dragon_pass.constants import UF_USED
        s = self.s
        for where in hexes:
            for name in self.stack(where):
                s["unit_flags"][unit(name)] |= UF_USED

    # ------------------------------------------------------------ playing
    def check(self):
        problem = GAME.check_state(self.S)
        assert problem == "", problem

    def legal(self):
        mask = GAME.mask_of(self.S)
        return [GAME.action_to_string(self.S, int(a)) for a in np.flatnonzero(mask)]

    def act(self, text):
        self.check()
        a = GAME.string_to_action(self.S, text)
        errors = np.zeros(1, np.int8)
        GAME.step(self.S, np.array([a], np.int32), errors)
        assert errors[0] == 0, GAME.error_message(errors[0])
        return self

    def acts(self, *texts):
        for t in texts:
            self.act(t)
        return self

    @property
    def phase(self):
        return int(self.s["phase"])

    @property
    def to_play(self):
        p = int(self.s["to_play"])
        return SCENARIO_ROLES[int(self.s["scenario"])][p] if p >= 0 else None

    def where(self, name):
        u = unit(name)
        if int(self.s["unit_where"][u]) != UW_MAP:
            return {0: "out", 1: "pool", 3: "dead", 4: "escaping", 5: "entering", 6: "holding box",
                    7: f"committed to {MAP.hex_id(int(self.s['unit_hex'][u]))}",
                    8: f"supporting {MAP.hex_id(int(self.s['unit_hex'][u]))}"}[int(self.s["unit_where"][u])]
        return MAP.hex_id(int(self.s["unit_hex"][u]))

    def disrupted(self, name):
        return int(self.s["unit_side"][unit(name)]) == SIDE_BACK

    def mp(self, name):
        """Movement points left (halves counted as .5)."""
        return int(self.s["unit_mp"][unit(name)]) / 2

    def stack(self, where):
        """Unit ids at hex ``where``, top first."""
        h = hexi(where)
        s = self.s
        units = [u for u in range(len(UNIT_IDS)) if s["unit_where"][u] == UW_MAP and s["unit_hex"][u] == h]
        return [UNIT_IDS[u] for u in sorted(units, key=lambda u: -int(s["unit_order"][u]))]

    def name(self, u_name):
        """The unit's name in action strings."""
        from dragongym.envs.dragon_pass.view import unit_name
        return unit_name(unit(u_name), self.s)
