"""Which warnings the conformance suite tolerates, each with its reason.

Everything a test runs is recorded (``simplefilter("always")``); any warning
not matched here fails the test, so PettingZoo's checks for NaN and infinite
observations, out-of-bound spaces and the like are heard.

What PettingZoo 1.27's ``api_test`` emits for our adapters (checked by
running it on every game): the two Dict warnings below, once per agent and
once per observation, and, for games whose seats are roles, the naming
advice. It does *not* emit "Action mask numpy array is all zeros" for agents
off move: ``test_observation`` rebinds ``observation`` to the Dict's
``"observation"`` entry before its ``"action_mask"`` branch, so a mask inside a
Dict observation is never checked at all; ``outcomes_test.py`` checks masks
itself. That warning is therefore not allowed here: if it ever appears it is
news.
"""
import contextlib
import re
import warnings
from dataclasses import dataclass


@dataclass(frozen=True)
class Allowed:
    category: type
    message: str          # a regular expression, matched from the start
    reason: str
    only_if: str = ""     # "seats_are_roles": allowed only where the spec says so


ALLOWED = (
    Allowed(UserWarning, r"Observation is not a NumPy array$",
            "api_test warns on every Dict observation; ours is Dict(observation, action_mask) "
            "by design, the PettingZoo convention for masked actions (its classic envs do the same)"),
    Allowed(UserWarning, r"Observation space for each agent probably should be gymnasium\.spaces\.box "
                         r"or gymnasium\.spaces\.discrete$",
            "the same Dict observation space, warned about once per agent"),
    Allowed(UserWarning, r'We recommend agents to be named in the format <descriptor>_<number>',
            "seats that are roles carry the role names (GameSpec.seats_are_roles), not player_i",
            only_if="seats_are_roles"),
)


def unexplained(caught, spec=None):
    """The recorded warnings that no :data:`ALLOWED` entry explains, as text."""
    out = []
    for w in caught:
        ok = False
        for rule in ALLOWED:
            if rule.only_if == "seats_are_roles" and not (spec is not None and spec.seats_are_roles):
                continue
            if issubclass(w.category, rule.category) and re.match(rule.message, str(w.message)):
                ok = True
                break
        if not ok:
            out.append(f"{w.category.__name__}: {w.message} ({w.filename}:{w.lineno})")
    return out


@contextlib.contextmanager
def only_allowed_warnings(spec=None):
    """Record every warning inside the block; fail on one outside :data:`ALLOWED`."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield caught
    bad = unexplained(caught, spec)
    assert not bad, "unexpected warnings:\n" + "\n".join(dict.fromkeys(bad))
