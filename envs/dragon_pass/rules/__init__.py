"""Dragon Pass's rules core (numba), one module per part of the rulebook, in
the order of what calls what (``envs/README.md``): ``base`` (the counters'
factors, the printed tables, dice, stacks, zones of control, the cost of a
step, the action space), ``minors`` (Minor Independents: the Spirit of
Movement, the Alchemical Transformer, the Dwarf Luck Table, the Tusk
Riders' blood sacrifice), ``moon`` (the Red Moon, the Glowline and the
cyclic factors), ``marathon`` (18.9: who plays first, the half movement,
replacements bought with Diplomacy Points), ``dragons`` (dragonfights, the Glowline's negation,
Hungry Jack's summons, dragons and Jack brought in by alliances), ``fetch`` (the dragon
sent off the West edge to fetch Hungry Jack), ``setup`` (the scenarios and deployment), ``zombies`` (Delecti's zombies:
the chain's move, new zombies rising, Delecti's alliance), ``puppeteers`` (the
Puppeteers' Illusory Armies), ``hydra`` (the Hydra's MgF and its feeding), ``giantmaster`` (giants
attacked by a player, Argrath's Giantmaster),
``movement`` (the movement phase and arranging stacks), ``quake`` (the
Earth-Shaker's Cult's earthquake: its fracture lines), ``pillar``
(Cragspider's Pillar of Fire: its triangle), ``ethilrist``
(Sir Ethilrist's Hound and its Doom Run, the Cloak of Darkness, Keener
Than), ``magic``
(spirits and agents committed, chaotic, physical and spirit magic, magical
support), ``exotic`` (the Exotic Magic Phase, the Bat's hunger, the storms),
``alliance`` (the Diplomacy Segment and the Alliance Phase: Diplomacy Points,
alliances, emissaries, replacements), ``combat`` (battles,
missile fire, melee, retreats, advances), ``giants`` (the giants' Random
Movement Phase and battles, the dinosaurs' setup), ``events`` (the Random
Events Option), ``turns`` (the player-turn, the
rally phase, book-keeping, victory), ``driver`` (the sequence of play)."""
from .base import *  # noqa: F401,F403
from .minors import *  # noqa: F401,F403
from .moon import *  # noqa: F401,F403
from .marathon import *  # noqa: F401,F403
from .dragons import *  # noqa: F401,F403
from .fetch import *  # noqa: F401,F403
from .setup import *  # noqa: F401,F403
from .zombies import *  # noqa: F401,F403
from .puppeteers import *  # noqa: F401,F403
from .hydra import *  # noqa: F401,F403
from .giantmaster import *  # noqa: F401,F403
from .movement import *  # noqa: F401,F403
from .quake import *  # noqa: F401,F403
from .pillar import *  # noqa: F401,F403
from .ethilrist import *  # noqa: F401,F403
from .magic import *  # noqa: F401,F403
from .exotic import *  # noqa: F401,F403
from .alliance import *  # noqa: F401,F403
from .combat import *  # noqa: F401,F403
from .giants import *  # noqa: F401,F403
from .events import *  # noqa: F401,F403
from .turns import *  # noqa: F401,F403
from .driver import *  # noqa: F401,F403
