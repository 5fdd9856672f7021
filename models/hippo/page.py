"""Hippo's answers in the players' words and the page's buttons (solver/web.py:
`explain`, `form`). A move is one roll's placements ('2 green, 10 red'); a roll is its
dice ('6,4,2')."""

from __future__ import annotations

import random
from typing import Any

from solver.web import Explained, applicable, cut_words, explain_by, listing, offer, percent

#: The page's `plan`: this many rolls, the position's own first (if thrown), the rest
#: sampled from PLAN_SEED (the same for every position: the label names them).
PLAN_ROLLS = 4
PLAN_SEED = 0
#: ... and CP-SAT's work (deterministic seconds; the CLI's default is 10).
PLAN_WORK = 3.0
#: The page's `finish`: DP steps (about 80,000 a second: under 10 s).
FINISH_STEPS = 600_000


def _game() -> Any:
    from models.hippo.game import GAME

    return GAME


def _turns(n: int) -> str:
    return f"{n} turn{'s' if n != 1 else ''}"


def roll_text(roll: list[int]) -> str:
    return ",".join(str(d) for d in roll)


def move_text(placements: list[str]) -> str:
    return ", ".join(placements)


def lanes(placements: list[str]) -> list[str]:
    """The lanes a roll's placements go to ('10 red' -> '10'), once each."""
    return list(dict.fromkeys(p.split()[0] for p in placements))


def _rolled(position: dict[str, Any], roll: list[int]) -> bool:
    """Whether the position's dice show `roll` (then its placements apply now)."""
    thrown = position.get("roll")
    return isinstance(thrown, list) and sorted(thrown) == sorted(roll)


def best(position: dict[str, Any], answer: dict[str, Any]) -> Explained:
    """The placement that sheds the most chips this turn (bonus roll averaged exactly)."""
    top = answer["options"][0] if answer["options"] else None
    roll = roll_text(answer["roll"])
    if top is None:
        return Explained(f"No placement for the roll {roll}.", "proven")
    won = " and wins" if top.get("won") else ""
    bonus = f", expected {top['expected_shed']:g} with the bonus roll" \
        if top.get("bonus_roll") else ""
    text = (f"Best for {answer['player'].capitalize()}'s roll {roll}: "
            f"{move_text(top['placements'])}{won} — sheds {top['shed_now']} chip{'s' if top['shed_now'] != 1 else ''} "
            f"now{bonus} ({'proven' if answer.get('proven') else 'best found'}).")
    certainty = "proven" if answer.get("proven") else "best found"
    if not _rolled(position, answer["roll"]):  # asked with --roll: throw it first
        plan = applicable(_game(), position, [roll, move_text(top["placements"])])
        return Explained(text + f" Throw {roll} first.", certainty, [], [], plan)
    moves = [move_text(o["placements"]) for o in answer["options"]]
    return Explained(text, certainty, moves, lanes(top["placements"]))


def plan(position: dict[str, Any], answer: dict[str, Any]) -> Explained:
    """The placements for known rolls, the board staying as the player leaves it (a solo
    puzzle); what applies at the table is this turn's (with its bonus roll)."""
    steps = answer["steps"]
    rolls = " ".join(roll_text(s["roll"]) for s in steps)
    player = answer["player"]
    who = player.capitalize()
    if answer.get("emptied"):
        outcome = f"{who} empties the stock in {_turns(answer['turns'])}"
    else:
        outcome = (f"{who} sheds {answer['chips_shed']} chips at most, "
                   f"{answer['chips_left']} left")
    sure = "proven" if answer.get("proven") else "best found"
    said = "; ".join(f"roll {roll_text(s['roll'])}: {move_text(s['placements'])}"
                     for s in steps)
    text = (f"With the rolls {rolls}, {outcome} ({sure}, if the board stays as {player} "
            f"leaves it): {said}.{cut_words(answer)}")
    texts: list[str] = []
    for i, s in enumerate(steps):
        if not (i == 0 and _rolled(position, s["roll"])):
            texts.append(roll_text(s["roll"]))
        texts.append(move_text(s["placements"]))
    # this turn only: the others move between the player's turns
    line = applicable(_game(), position, texts, keep=lambda p: p.get("to_move") == player)
    first = steps[0]["placements"] if steps else []
    moves = line[:1] if line and _rolled(position, steps[0]["roll"]) else []
    return Explained(text, sure, moves, lanes(first) if moves else [], line)


def finish(position: dict[str, Any], answer: dict[str, Any]) -> Explained:
    """The exact chance to empty the stock within N own turns, the others not moving."""
    player, turns = answer["player"].capitalize(), answer["turns"]
    within = f"within {_turns(turns)}"
    if answer.get("proven") and answer.get("chance") is not None:
        by = [f"{percent(b['chance'])} within {_turns(b['turns'])}"
              for b in answer["by_turns"] if b["turns"] < turns]
        best_case = answer.get("best_case_turns")
        text = (f"{player} empties the stock {within} with a chance of "
                f"{percent(answer['chance'])} (exact, if the others do not interfere)"
                + (f"; {listing(by)}" if by else "")
                + (f"; at best in {_turns(best_case)}." if best_case else "."))
        return Explained(text, "proven")
    bounds = answer.get("bounds")
    if bounds:
        return Explained(f"{player} empties the stock {within} with a chance between "
                         f"{percent(bounds['at_least'])} and {percent(bounds['at_most'])} "
                         f"(proven bounds; stopped by the {bounds['stopped_by']})."
                         f"{cut_words(answer)}", "estimate")
    return Explained(f"Not decided within the work budget.{cut_words(answer)}")


EXPLAIN = {"best": best, "plan": plan, "finish": finish}


def explain(verb: str, position: dict[str, Any], answer: dict[str, Any]) -> Explained:
    return explain_by(EXPLAIN, verb, position, answer)


def page_rolls(position: dict[str, Any]) -> tuple[list[list[int]], int]:
    """The page's rolls for `plan`: the position's roll if thrown, then rolls sampled
    from PLAN_SEED; and how many were sampled."""
    from models.hippo.rules import load_rules

    rules = load_rules(None)
    thrown = position.get("roll")
    rolls = [list(thrown)] if isinstance(thrown, list) and thrown else []
    rng = random.Random(PLAN_SEED)
    sampled = PLAN_ROLLS - len(rolls)
    rolls += [sorted((rng.randint(1, rules.faces) for _ in range(rules.dice)),
                     reverse=True) for _ in range(sampled)]
    return rolls, sampled


def form(position: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """`best` needs the dice thrown (set them, or roll at random); `plan` plans for the
    thrown roll and sampled rolls to come, and says so."""
    thrown = position.get("roll")
    rolled = isinstance(thrown, list) and bool(thrown)
    rolls, sampled = page_rolls(position)
    said = " ".join(roll_text(r) for r in rolls)
    whose = ("the first thrown, the rest sampled" if rolled else "all sampled")
    return {
        "best": offer(f"Best placement for {roll_text(thrown)}" if rolled else
                      "Best placement (throw or set the dice first)", offered=rolled),
        "plan": offer(f"Plan for the rolls {said} ({whose}: type your own)",
                      {"rolls": said, "work": f"{PLAN_WORK:g}"}),
        "finish": offer(f"Chance to finish within "
                        f"{_default_turns()} turns", {"steps": str(FINISH_STEPS)}),
    }


def _default_turns() -> int:
    from solver.web import verb_default

    return int(verb_default("hippo", "finish", "turns"))
