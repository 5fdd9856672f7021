"""Tippi Toppi's answers in the players' words and the page's buttons (solver/web.py:
`explain`, `form`). The game is played together: "we" win or lose."""

from __future__ import annotations

import re
from typing import Any

from solver.web import (
    Explained,
    applicable,
    cannot_all,
    cut_words,
    explain_by,
    listing,
    offer,
    proven_or_not,
    verb_default,
    win_chance,
)

#: A play as the game writes it: [pN:]CARD>PILE
PLAY = re.compile(r"^(?:p(\d+):)?([A-Za-z]\d+)>(\d+)$")


#: `achievable --cards`, as the answer says it
CARDS = {"hand": "with the cards in your hand", "hands": "with the cards in every hand",
         "known": "with every hand and the draw pile as they are"}


def _game() -> Any:
    from models.tippi_toppi.game import GAME

    return GAME


def play_parts(play: str) -> tuple[str, str]:
    """(card, pile) of a play: 'p1:G2>2' -> ('G2', '2')."""
    found = PLAY.match(play.strip())
    if found is None:
        raise ValueError(f"'{play}' is not a play (CARD>PILE)")
    return found.group(2), found.group(3)


def play_words(play: str) -> str:
    card, pile = play_parts(play)
    return f"{card} on pile {pile}"


def hint(position: dict[str, Any], answer: dict[str, Any]) -> Explained:
    """The best-scored play, with what it does."""
    options = answer["options"]
    if not options:
        return Explained(f"Player {answer['player']} has no card to play.", "proven")
    best = options[0]
    if best.get("fulfils"):
        does = f": it fulfils {listing(best['fulfils'])}"
    elif best.get("in_reach"):
        does = f": it brings {listing(best['in_reach'])} within reach"
    else:
        does = ""
    seen = ("every hand read (all-seeing)" if answer.get("open_hands") else
            f"{answer['samples']} deals of the unseen cards sampled"
            if answer.get("samples") else "the unseen cards counted exactly")
    text = (f"Best: play {play_words(best['play'])}{does} (hint score {best['score']:g}, "
            f"{seen}).")
    return Explained(text, "best found", [o["play"] for o in options],
                     list(play_parts(best["play"])))


def achievable(position: dict[str, Any], answer: dict[str, Any]) -> Explained:
    """Yes with the plays that do it, or no with the tasks that block each other."""
    targets, within = answer["targets"], answer["within"]
    sure = "proven" if answer.get("proven") else "none"
    if answer["answer"] == "yes":
        plays = answer["plays"]
        plan = applicable(_game(), position, plays)
        text = (f"Yes ({sure}): {listing(targets)} can be fulfilled within {within} plays "
                f"{CARDS.get(answer['cards'], '')}: {', '.join(plays)}.{cut_words(answer)}")
        return Explained(text, sure, plan[:1],
                         list(play_parts(plan[0])) if plan else [], plan)
    text = cannot_all(targets, answer, "fulfilled",
                      f"within {within} plays {CARDS.get(answer['cards'], '')}")
    return Explained(text, sure)


def reachable(position: dict[str, Any], answer: dict[str, Any]) -> Explained:
    """Can we still win: a sampled chance, or proven with a winning line."""
    if answer["method"] == "sampling":
        text = win_chance(answer["rate"], "deals sampled, played by the hint policy")
        return Explained(text + cut_words(answer), "estimate")
    won = {"yes": True, "no": False}.get(answer["answer"])
    line = answer["line"] if won else []
    plan = applicable(_game(), position, line) if won else []
    return proven_or_not(answer, won, line, "plays", ", ", plan,
                         list(play_parts(plan[0])) if plan else [])


EXPLAIN = {"hint": hint, "achievable": achievable, "reachable": reachable}


def explain(verb: str, position: dict[str, Any], answer: dict[str, Any]) -> Explained:
    return explain_by(EXPLAIN, verb, position, answer)


def form(position: dict[str, Any]) -> dict[str, dict[str, Any]]:
    within = verb_default("tippi-toppi", "achievable", "within")
    samples = verb_default("tippi-toppi", "reachable", "samples")
    # without every hand and the draw pile in order only the player's own cards are known
    hands = position.get("hands") if isinstance(position.get("hands"), list) else []
    known = isinstance(position.get("draw_pile"), list) and all(
        isinstance(h, list) and "?" not in h for h in hands)
    return {
        "hint": offer("Hint"),
        "achievable": offer(f"Can the open tasks be done within {within} plays"
                            + ("?" if known else " with my cards?"),
                            {} if known else {"cards": "hand"}),
        "reachable": offer(f"Can we still win? ({samples} sampled deals)"),
    }
