"""Tippi Toppi – Hoch Hinaus!'s answers in the players' words and the page's buttons
(solver/web.py: `explain`, `form`). The game is played together: "we" win or lose."""

from __future__ import annotations

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

#: The page's "Can we still win?": greedy games (the hint without its SAT look-ahead)
#: play a sample in about 5 s where the hint's own games take about 1.5 s each.
PAGE_SAMPLES = 12
PAGE_POLICY = "greedy"
PAGE_SECONDS = 20  # a cap only: the 12 games take about 8 s on one core


#: `achievable --tiles`, as the answer says it
TILES = {"hand": "with the tiles in the hands", "known": "with the hands and the reserve "
         "as they are", "any": "with any tiles not on the board"}


def _game() -> Any:
    from models.hoch_hinaus.game import GAME

    return GAME


def placement_words(placement: dict[str, Any]) -> str:
    """'T32: V4 on C4, P2 on C3, a gap filler on C1 first'."""
    faces = placement.get("faces") or ["?", "?"]
    words = f"{placement['tile']}: {faces[0]} on {placement['on'][0]}, {faces[1]} on " \
            f"{placement['on'][1]}"
    if placement.get("filler"):
        words += f", a gap filler on {placement['filler']} first"
    return words


def marks(placement: dict[str, Any]) -> list[str]:
    """The spaces a placement covers (its gap filler's first)."""
    filler = [placement["filler"]] if placement.get("filler") else []
    return [*filler, *(s for s in placement["on"] if s not in filler)]


def hint(position: dict[str, Any], answer: dict[str, Any]) -> Explained:
    """The best placement, ranked by the hint's score over sampled deals."""
    best = answer["options"][0]
    place = best["placement"]
    does = (f"it fulfils {listing(best['fulfils'])}" if best.get("fulfils")
            else "it fulfils no task yet")
    if best.get("wins"):
        does = "it wins the game"
    sampled = (f"{answer['samples']} deals of the unseen tiles sampled"
               if not answer.get("open_hands") else "every hand read (all-seeing)")
    text = (f"Best: place {placement_words(place)}; {does} (best of {answer['legal']} "
            f"placements by the hint's score, {sampled}).{cut_words(answer)}")
    moves = [o["placement"]["text"] for o in answer["options"]]
    return Explained(text, "estimate" if not answer.get("open_hands") else "best found",
                     moves, marks(place))


def _line(position: dict[str, Any], texts: list[str]) -> list[str]:
    return applicable(_game(), position, texts)


def achievable(position: dict[str, Any], answer: dict[str, Any]) -> Explained:
    """Yes with the placements that do it, or no with the tasks that block each other."""
    tasks, within = answer["tasks"], answer["within"]
    sure = "proven" if answer.get("proven") else "none"
    if answer["answer"] == "yes":
        steps = [s["placement"]["text"] for s in answer["witness"]]
        plan = _line(position, steps)
        first = answer["witness"][0]["placement"] if steps else None
        text = (f"Yes ({sure}): {listing(tasks)} can be done within {within} placements "
                f"{TILES.get(answer['tiles'], '')}: "
                + "; then ".join(steps) + "." + cut_words(answer))
        return Explained(text, sure, plan[:1], marks(first) if plan else [], plan)
    text = cannot_all(tasks, answer, "done",
                      f"within {within} placements {TILES.get(answer['tiles'], '')}")
    return Explained(text, sure)


def reachable(position: dict[str, Any], answer: dict[str, Any]) -> Explained:
    """Can we still win: a sampled chance, or proven with a winning line."""
    if answer["method"] == "sampled":
        policy = answer.get("policy") or "hint"
        text = win_chance(answer["rate"], f"games sampled, played by the {policy} policy")
        return Explained(text + cut_words(answer), "estimate")
    won = {"won": True, "lost": False}.get(answer["answer"])
    steps = [s["placement"]["text"] for s in answer["line"]] if won else []
    plan = _line(position, steps) if won else []
    first = answer["line"][0]["placement"] if plan else None
    return proven_or_not(answer, won, steps, "placements", "; then ", plan,
                         marks(first) if first else [])


EXPLAIN = {"hint": hint, "achievable": achievable, "reachable": reachable}


def explain(verb: str, position: dict[str, Any], answer: dict[str, Any]) -> Explained:
    return explain_by(EXPLAIN, verb, position, answer)


def form(position: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """'Can we still win?' on a small sample of quick games (the CLI's 16 games of the
    hint policy take a minute)."""
    within = verb_default("hoch-hinaus", "achievable", "within")
    hands = position.get("hands") if isinstance(position.get("hands"), list) else []
    hidden = any(not isinstance(h, list) or "?" in h for h in hands)
    return {
        "hint": offer("Hint"),
        # a hidden hand: the tasks with any tiles not on the board (a hand is not needed)
        "achievable": offer(f"Can the open tasks be done within {within} placements"
                            + (" with any tiles?" if hidden else "?"),
                            {"tiles": "any"} if hidden else {}),
        "reachable": offer(f"Can we still win? ({PAGE_SAMPLES} quick sampled games)",
                           {"samples": str(PAGE_SAMPLES), "policy": PAGE_POLICY,
                            "time-limit": str(PAGE_SECONDS)}),
    }
