"""The toy game's own verb: `left`, how far the total is from the limit and which
cards are still safe to play."""

from __future__ import annotations

from solver.params import flag_param
from solver.verbs import Verb

VERBS = (
    Verb("left", "How many points are left below the limit, and the cards of the player "
         "to move that stay under it.", "tests.toy.answers:left",
         params=(flag_param("strict", "Count a total equal to the limit as over it."),),
         answer="tests.toy.answers:LeftAnswer", show="tests.toy.render:show_left",
         web="pool"),
)
