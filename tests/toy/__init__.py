"""A toy sixth game, in a package of its own: solver/ knows it only through its
registry entry, and it gets its commands, its web API routes, the schemas of its
answers and its page from its declarations alone (docs/architecture.md shows it as the
example of adding a game).

Over the top: cards 1-4, two of each; two players hold two cards each, hidden from each
other; the rest is a face-down deck. On your turn play a card onto the common total and
draw one (if the deck has any). Whoever pushes the total over 10 loses; when both hands
run out first, nobody wins.

Its modules have the roles of a real game's: `game` (the description), `verbs` (its own
verbs), `answers` (their functions and answer types), `render` (its view), `web` (what
the web page needs).
"""

from solver.registry import GameEntry

ENTRY = GameEntry("over-the-top", "Over the top (toy)", "tests.toy",
                  "a card game of ten points, to test the machinery.")
