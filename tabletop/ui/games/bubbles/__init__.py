"""The bubble game on the touchscreen (RULINGS MECS-8): make the target from flying bubbles.

Red number bubbles and blue sign bubbles drift and bounce; a blue one that touches a red
one sticks to it. The child drags a free red bubble onto a stuck pair (or taps it, then
taps the pair: that works on every touchscreen and is how the tests play), the three pop
and the answer shows; the target in the background scores a point. After the round
(60 s by default) the child types a name for the scoreboard, and the one results scene
(:class:`~tabletop.ui.results.GameResults`) shows the score, its place on the
scoreboard and every hit.

Modules: :mod:`.setup` (the one setup form :data:`SETUP`: round length, rules, the
scoreboard; :class:`Scoreboard`), :mod:`.play` (the round without pygame: the model,
:mod:`tabletop.games.bubbles`, stepped with fixed steps from ``ctx.clock``, and a
finger's moves), :mod:`.scene` (:class:`BubbleScene`, on the one table base) and
:mod:`.demo` (``tabletop demo --game bubbles``).

Touch targets: setup ``time.30`` ``time.60`` ``time.90`` ``rules`` ``start`` ``back`` (seat
1's button starts too); round ``bubble.<id>`` (one per bubble), ``undo`` (behind the
teacher PIN), ``rules``, ``leave``; results ``home`` ``again``. Dragging uses ``Drag`` /
``Release`` events.
"""

from tabletop.ui.games.bubbles.demo import run_demo
from tabletop.ui.games.bubbles.play import BubblePlay
from tabletop.ui.games.bubbles.scene import BubbleScene
from tabletop.ui.games.bubbles.setup import SETUP, Scoreboard, rules_pages, scoreboard, setup_scene

__all__ = [
    "SETUP",
    "BubblePlay",
    "BubbleScene",
    "Scoreboard",
    "rules_pages",
    "run_demo",
    "scoreboard",
    "setup_scene",
]
