"""Dragons Down's rules core (numba), one module per part of the rulebook, in
the order of what calls what (``envs/README.md``): ``base`` (tables, dice,
seats, the action space), ``realm`` (the Map Tiles), ``equipment`` (the Hero
Board's cards, Spell Books' spells), ``tokens`` (tokens on entering a tile),
``fate`` (death, retirement, new heroes, the end and victory),
``activation`` (monster activation), ``magic`` (Spell Cards, starting
spells, Learn, Enchant, curses), ``treasures`` (the treasures' powers),
``setup`` (the realm's set-up and hero
selection), ``missions`` (Mission Cards, titles, the Outlaw Tokens they give
and take), ``trade`` (Loot and Trade), ``actions`` (the action phase),
``strike`` (who fights, hits, damage, wounds and death), ``spells`` (the
spells cast in combat and what each does), ``combat`` (the steps of a
Combat Round), ``driver`` (the sequence of play)."""
from .base import *  # noqa: F401,F403
from .realm import *  # noqa: F401,F403
from .equipment import *  # noqa: F401,F403
from .tokens import *  # noqa: F401,F403
from .fate import *  # noqa: F401,F403
from .activation import *  # noqa: F401,F403
from .magic import *  # noqa: F401,F403
from .treasures import *  # noqa: F401,F403
from .setup import *  # noqa: F401,F403
from .missions import *  # noqa: F401,F403
from .trade import *  # noqa: F401,F403
from .actions import *  # noqa: F401,F403
from .strike import *  # noqa: F401,F403
from .spells import *  # noqa: F401,F403
from .combat import *  # noqa: F401,F403
from .driver import *  # noqa: F401,F403
