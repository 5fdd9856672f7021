"""Topito's answers in the players' words and the page's buttons (solver/web.py:
`explain`, `form`). A plan's moves are podium moves, whoever makes them."""

from __future__ import annotations

from typing import Any

from solver.web import Explained, applicable, cut_words, explain_by, listing, offer

#: The page's `reachable`: a card met within this many moves (two turns of each of two
#: players, less one).
PAGE_WITHIN = 3
#: The page's `race`: A*'s moves (about 5 s), where the CLI's 500,000 take about 12 s.
PAGE_RACE_NODES = 200_000


def _game() -> Any:
    from models.topito.game import GAME

    return GAME


def marks(move: dict[str, Any]) -> list[str]:
    """The block taken and the podium it goes to."""
    return [move["block"], move["target"]]


def hint(position: dict[str, Any], answer: dict[str, Any]) -> Explained:
    """The best move with the hint's reasons; cards met before moving first."""
    shout = (f"Photo time first: {listing(answer['met_now'])} met now. "
             if answer.get("met_now") else "")
    best = answer.get("best")
    if best is None:
        return Explained(f"{shout}No move to make.".strip(), "none")
    complete = answer.get("complete", True) and not answer.get("cut_by_time")
    text = (f"{shout}Best: {best['move']} — {best['reasons']}"
            f"{'' if complete else ' (some distances left undecided by the work budget)'}."
            f"{cut_words(answer)}")
    moves = [m["move"] for m in answer["moves"]]
    return Explained(text, "best found", moves, marks(best))


def _count(n: int) -> str:
    return f"{n} move{'s' if n != 1 else ''}"


def _plan_answer(position: dict[str, Any], answer: dict[str, Any], found: str
                 ) -> Explained:
    """A plan of `plan`/`reachable`: the moves, each applying after the one before."""
    steps = [m["move"] for m in answer["plan"]]
    plan = applicable(_game(), position, steps)
    text = f"{found}: {', '.join(steps)}." if steps else f"{found}: met already."
    return Explained(text + cut_words(answer), "proven", plan[:1],
                     marks(answer["plan"][0]) if plan else [], plan)


def _cards(answer: dict[str, Any]) -> str:
    cards = answer["cards"]
    joint = " or " if answer.get("mode") == "any" else " and "
    return joint.join(cards) if len(cards) <= 3 else \
        f"{'any' if answer.get('mode') == 'any' else 'all'} of {len(cards)} cards"


def plan(position: dict[str, Any], answer: dict[str, Any]) -> Explained:
    """The fewest moves that meet the card(s), proven; or none within the search."""
    if answer["status"] == "optimal":
        met = listing(answer.get("met_at_end") or answer["cards"])
        return _plan_answer(position, answer, f"{met} can be met in "
                            f"{_count(len(answer['plan']))} (proven fewest)")
    if answer["status"] == "infeasible":
        return Explained(f"Proven: no plan of at most {answer['max_moves']} moves meets "
                         f"{_cards(answer)}.", "proven")
    return Explained(f"Not decided within the work budget: {_cards(answer)} needs at "
                     f"least {answer['lower_bound']} moves.{cut_words(answer)}")


def reachable(position: dict[str, Any], answer: dict[str, Any]) -> Explained:
    within = answer["within"]
    if answer["reachable"] is True:
        return _plan_answer(position, answer, f"Yes (proven): {_cards(answer)} can be met "
                            f"within {_count(within)}, in {len(answer['plan'])}")
    if answer["reachable"] is False:
        return Explained(f"Proven: {_cards(answer)} cannot be met within "
                         f"{_count(within)}.", "proven")
    return Explained(f"Not decided within the work budget: at least "
                     f"{answer['lower_bound']} moves.{cut_words(answer)}")


def race(position: dict[str, Any], answer: dict[str, Any]) -> Explained:
    """The fewest moves to a win (or to a seat's last card), every hand and the deck
    read."""
    if answer["status"] != "optimal":
        if answer["status"] == "infeasible":
            return Explained(f"Proven: no line of at most {answer['max_moves']} moves "
                             "ends the game (all-seeing).", "proven")
        return Explained(f"Not decided within the work budget: at least "
                         f"{answer['lower_bound']} moves.{cut_words(answer)}")
    line = answer["line"]
    steps = [s["move"] for s in line]
    plan = applicable(_game(), position, steps)
    who = (f"seat {answer['seat']} has played its {answer['cards_to_win']} cards"
           if answer.get("seat") else
           f"the game ends, won by seat {listing([str(s) for s in answer['winners']])}")
    moves = ", ".join(f"{s['move']} (seat {s['seat']})" for s in line)
    text = f"Proven, all-seeing: at the earliest {who} after {_count(answer['fewest'])}: " \
           f"{moves}."
    first = [s for s in line[:1] if plan]
    return Explained(text, "proven", plan[:1],
                     marks(_move_parts(first[0]["move"])) if first else [], plan)


def _move_parts(move: str) -> dict[str, str]:
    """The block and the target podium of 'move Bear+Cat red -> blue' or 'put Fox on
    yellow'."""
    words = move.split()
    if words[0] == "put":
        return {"block": words[1], "target": words[-1]}
    return {"block": words[1].split("+")[0], "target": words[-1]}


EXPLAIN = {"hint": hint, "plan": plan, "reachable": reachable, "race": race}


def explain(verb: str, position: dict[str, Any], answer: dict[str, Any]) -> Explained:
    return explain_by(EXPLAIN, verb, position, answer)


def _on_turn(position: dict[str, Any]) -> int:
    """The seat on turn, from 0 (`on_turn` counts from 1, the older `turn` from 0)."""
    if isinstance(position.get("turn"), int):
        return position["turn"]
    seat = position.get("on_turn", 1)
    return seat - 1 if isinstance(seat, int) else 0


def form(position: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """`plan` and `reachable` ask for the known cards in the hand of the seat on turn;
    `race` reads every hand and the deck in order (offered when the file has them)."""
    hands = position.get("hands") if isinstance(position.get("hands"), list) else []
    seat = _on_turn(position)
    hand = hands[seat] if 0 <= seat < len(hands) and isinstance(hands[seat], list) else []
    cards = [c for c in hand if isinstance(c, str) and c.strip() not in ("", "?")]
    mine = {"cards": "; ".join(cards)} if cards else {}
    whose = f"seat {seat + 1}'s hand"
    everything = isinstance(position.get("deck"), list) and bool(hands) and all(
        isinstance(h, list) and "?" not in h for h in hands)
    return {
        "hint": offer("Hint"),
        "plan": offer(f"Fewest moves to a card of {whose}" if cards else
                      f"Fewest moves to a card (no known card in {whose})", mine,
                      offered=bool(cards)),
        "reachable": offer(f"Can a card of {whose} be met within {PAGE_WITHIN} moves?"
                           if cards else f"Can a card be met? (no known card in {whose})",
                           {**mine, "within": str(PAGE_WITHIN)}, offered=bool(cards)),
        "race": offer("Fewest moves to a win (all-seeing)" if everything else
                      "Fewest moves to a win (needs every hand and the deck in order)",
                      {"nodes": str(PAGE_RACE_NODES)}, offered=everything),
    }
