"""Factions: the Gather toy game (``tests/core/toygames.py``) with its three
seats as named roles (``seats_are_roles``), the way Dragon Pass's factions
are. The rules are Gather's; the seats are ``north``, ``east``, ``south``."""
import dataclasses

from tests.core.toygames import Gather

FACTION_ROLES = ("north", "east", "south")


class Factions(Gather):
    name = "factions"

    def spec_for(self, config):
        return dataclasses.replace(Gather.spec_for(self, config), name="factions", roles=FACTION_ROLES,
                                   seats_are_roles=True)


FACTIONS = Factions()
