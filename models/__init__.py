"""One package per game: rules engine, task language, encodings and queries.

`GAMES` is the registry's table (solver/registry.py): each game's id, title and
package, given once. A game's package holds the same modules for the same roles: see
docs/architecture.md.
"""

from solver.registry import GameEntry

GAMES = (
    GameEntry("take-it-higher", "Take it Higher!", "models.take_it_higher",
              "score sheets, boards, proven maximal scores."),
    GameEntry("hoch-hinaus", "Tippi Toppi – Hoch Hinaus!", "models.hoch_hinaus",
              "legal placements, tasks, achievability, hints."),
    GameEntry("tippi-toppi", "Tippi Toppi (card game)", "models.tippi_toppi",
              "tasks, achievability, hints, can we still win."),
    GameEntry("topito", "Topito", "models.topito",
              "shortest plans to a card, hints, reachability, unique puzzles."),
    GameEntry("hippo", "Hippo", "models.hippo",
              "options of a roll, the best placement, plans for known rolls, finishing "
              "chances, simulated games."),
)
