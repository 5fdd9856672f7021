"""What the web page needs of a game beyond its verbs: each game declares it once in its
package's `web.py` as `WEB`, a `GameWeb`, and `toppi serve` (solver/serve/) builds the
game's page from it and the verbs' declarations. solver/ names no game.

The clickable things of a picture come from the game's renderer: it marks them on the
SVG it draws (`Svg.hit(kind, id, ...)`: a cell `c3`, a space `A2`, a pile `2`, a card
`G6`, a block `Bear`, a podium `red`, a lane `7`), so a click is matched against the
words of the legal moves.
"""

from __future__ import annotations

import copy
import functools
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from solver.errors import ToppiError


def piece(ident: str, label: str | None = None, colour: str | None = None,
          colour2: str | None = None) -> dict[str, Any]:
    """A piece of an editor's picker: its word in the position file, its label, its
    colours."""
    out: dict[str, Any] = {"id": ident, "label": label or ident}
    if colour:
        out["colour"] = colour
    if colour2:
        out["colour2"] = colour2
    return out


def solution_steps(data: dict[str, Any]) -> list[Any]:
    """A puzzle file's stated solution, step by step (most games: `solution`)."""
    return list(data.get("solution") or [])


def step_word(step: Any) -> Any:
    """A step reduced to what the player chooses (most games: its text)."""
    return str(step).strip().lower()


def without_solution(data: dict[str, Any]) -> dict[str, Any]:
    """The puzzle file as posed: without its solution."""
    return {k: v for k, v in data.items() if k != "solution"}


@dataclass
class Edited:
    """What a click on the picture did to the position in the editor: a new position,
    or a new tool chosen (a block picked up), or nothing yet (one more click needed);
    `note` is what the page says."""

    position: dict[str, Any] | None = None
    tool: str | None = None
    note: str = ""


def tool(ident: str, label: str | None = None, action: bool = False) -> dict[str, Any]:
    """An item of the editor's palette: a piece to place (the tool), or an action done
    at once with the tool in hand (`action`)."""
    return {"id": ident, "label": label or ident, "action": action}


def no_palette(data: dict[str, Any]) -> list[dict[str, Any]]:
    return []


def no_edit(data: dict[str, Any], chosen: str | None, clicks: list[tuple[str, str]]
            ) -> Edited:
    return Edited(note="nothing is placed on this picture by clicking")


# ---------------------------------------------------------------- answers in words

#: How sure an answer is, as the page says it.
Certainty = Literal["proven", "estimate", "best found", "none"]


@dataclass
class Explained:
    """An answer in the game's words (`POST /api/<game>/explain`): one sentence with its
    certainty; the moves it names, best first, in the game's notation (the hint's move
    first; each one applies to the position asked about); the ids of the picture's
    clickable things (`Svg.hit`) the first move touches; a plan's moves in order, each
    applying after the one before."""

    text: str
    certainty: Certainty = "none"
    moves: list[str] = field(default_factory=list)
    marks: list[str] = field(default_factory=list)
    plan: list[str] = field(default_factory=list)


Explainer = Callable[[dict[str, Any], dict[str, Any]], Explained]


def percent(x: float) -> str:
    """A probability as the page says it: 38 %, 0.4 %, 100 %."""
    value = 100 * x
    return f"{value:.1f} %" if 0 < value < 1 or 99 < value < 100 else f"{value:.0f} %"


def listing(items: list[str], most: int = 4) -> str:
    """'a, b and c'; past `most` items, 'a, b, c, d and 3 more'."""
    items = [str(i) for i in items]
    if len(items) > most:
        return ", ".join(items[:most]) + f" and {len(items) - most} more"
    return " and ".join([", ".join(items[:-1]), items[-1]]) if len(items) > 1 else \
        "".join(items)


def cannot_all(tasks: list[str], answer: dict[str, Any], done: str, within: str) -> str:
    """'Proven: a and b cannot all be fulfilled within 6 plays; a alone cannot.': tasks
    that cannot be done, with the smallest set that blocks (the answer's `core`).
    `done`: the game's word ('done', 'fulfilled'); `within`: its bound in words."""
    core = answer.get("core") or []
    blocked = ""
    if len(core) == 1 and len(tasks) > 1:
        blocked = f"; {core[0]} alone cannot"
    elif 1 < len(core) < len(tasks):
        blocked = f"; {listing(core)} already cannot all be {done} together"
    cannot = f"cannot be {done}" if len(tasks) == 1 else f"cannot all be {done}"
    return (f"{'Proven' if answer.get('proven') else 'Not shown'}: {listing(tasks)} "
            f"{cannot} {within.strip()}{blocked}.{cut_words(answer)}")


def proven_or_not(answer: dict[str, Any], won: bool | None, steps: list[str], unit: str,
                  joiner: str, plan: list[str], marks: list[str]) -> Explained:
    """An exact "can we still win?": the winning line (`steps`, in `unit`s, with its
    `plan` and the first step's `marks`), proven lost, or not decided (`won` None)."""
    if won:
        text = f"Proven: we can still win, in {len(steps)} {unit}: {joiner.join(steps)}."
        return Explained(text, "proven", plan[:1], marks, plan)
    if won is False:
        return Explained("Proven: no line wins.", "proven")
    return Explained(f"Not decided within the work budget.{cut_words(answer)}")


def cut_words(answer: dict[str, Any]) -> str:
    """' Cut by the time limit.' for an answer the time limit cut."""
    return " Cut by the time limit." if answer.get("cut_by_time") else ""


def win_chance(rate: dict[str, Any], sampled: str) -> str:
    """A sampled chance of winning with its 95 % interval: 'You can still win: about
    38 % (26-51 %), 40 deals sampled.' (`sampled`: what the trials were)."""
    won, trials = rate["successes"], rate["trials"]
    low, high = percent(rate["low"]).removesuffix(" %"), percent(rate["high"])
    if trials == 0:
        return f"Nothing was sampled: no estimate ({sampled})."
    if won == 0:
        return (f"No sampled game was won (0 of {trials} {sampled}): the chance to win is "
                f"likely under {high}.")
    if won == trials:
        return (f"You can still win: every sampled game was won ({trials} {sampled}), the "
                f"chance is likely over {percent(rate['low'])}.")
    return (f"You can still win: about {percent(rate['rate'])} ({low}-{high}), "
            f"{trials} {sampled}.")


def _common_show(position: dict[str, Any], answer: dict[str, Any]) -> Explained:
    status, who = str(answer.get("status", "")), answer.get("to_move")
    if status == "playing" and who not in (None, "chance"):
        text = f"Player {who} to move."
    elif status:
        text = status[:1].upper() + status[1:] + "."
    else:
        text = "The position as the rules read it."
    unknown = answer.get("unknown") or []
    if unknown:
        text += f" Unknown to the player on turn: {listing(unknown, 3)}."
    return Explained(text)


def _common_moves(position: dict[str, Any], answer: dict[str, Any]) -> Explained:
    outcomes = answer.get("chance_outcomes") or []
    if answer.get("to_move") == "chance" or (outcomes and not answer.get("moves")):
        texts = [o.get("text", "") for o in outcomes]
        return Explained(f"Chance acts next: {len(texts)} outcomes "
                         f"({listing(texts, 5)}).")
    texts = [m.get("text", "") for m in answer.get("moves") or []]
    if not texts:
        return Explained("No legal move here.")
    return Explained(f"{len(texts)} legal move{'s' if len(texts) != 1 else ''} for "
                     f"player {answer.get('to_move')}: {listing(texts, 5)}.")


COMMON_EXPLAINERS: dict[str, Explainer] = {"show": _common_show, "moves": _common_moves}


def plain_explain(verb: str, position: dict[str, Any], answer: dict[str, Any]
                  ) -> Explained:
    """An answer in words without a game's own: the shared verbs (`show`, `moves`), an
    error's line, else the answer's status as far as it says one."""
    if isinstance(answer.get("error"), str):
        return Explained(answer["error"])
    if verb in COMMON_EXPLAINERS:
        return COMMON_EXPLAINERS[verb](position, answer)
    status = str(answer.get("status", answer.get("answer", "")))
    if answer.get("proven") is True or status in ("optimal", "proven"):
        return Explained(f"{verb}: proven.{cut_words(answer)}", "proven")
    if status == "estimate":
        return Explained(f"{verb}: an estimate.{cut_words(answer)}", "estimate")
    if status == "feasible":
        return Explained(f"{verb}: the best found.{cut_words(answer)}", "best found")
    return Explained(f"{verb}: answered.{cut_words(answer)}")


def explain_by(explainers: dict[str, Explainer], verb: str, position: dict[str, Any],
               answer: dict[str, Any]) -> Explained:
    """A game's `explain`: its own explainer of the verb, else `plain_explain`."""
    if verb in explainers and not isinstance(answer.get("error"), str):
        return explainers[verb](position, answer)
    return plain_explain(verb, position, answer)


def applicable(game: Any, data: dict[str, Any], moves: list[str],
               keep: Callable[[dict[str, Any]], bool] | None = None) -> list[str]:
    """The longest start of `moves` that the rules engine applies one after the other
    from the position `data` (a chance move by its outcome's text); with `keep`, it
    stops after the first move whose position fails `keep` (the player's turn over)."""
    from solver.errors import ToppiError
    from solver.game import CHANCE

    try:
        state = game.read(default_rules(game), data, "position file")
    except ToppiError:
        return []
    done: list[str] = []
    for move in moves:
        try:
            if game.is_terminal(state):
                break
            if game.current_player(state) == CHANCE:
                actions = [game.parse_action(state, move)]
            else:
                actions = game.matching_actions(state, move)
            if len(actions) != 1:
                break
            state = game.apply_action(state, actions[0])
        except ToppiError:
            break
        done.append(move)
        if keep is not None and not keep(game.write(state)):
            break
    return done


# ---------------------------------------------------------------- the page's forms

#: The shared verbs' buttons in the player's words.
COMMON_LABELS = {"show": "What the rules read", "moves": "Legal moves",
                 "solve": "Solve a puzzle (library page)"}


def offer(label: str, values: dict[str, str | bool] | None = None, offered: bool = True
          ) -> dict[str, Any]:
    """A verb's button on the game page: whether it is offered, its label, the option
    values it is asked with (by the option names of `GET /api/<game>`)."""
    return {"offered": offered, "label": label, "values": dict(values or {})}


def verb_default(game: str, verb: str, param: str) -> Any:
    """A verb's own default of one parameter, by its name or option (as its declaration
    gives it)."""
    from solver.registry import entry

    return next(p.default for p in entry(game).verb(verb).params
                if param in (p.name, p.option))


def no_form(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {}


@dataclass(frozen=True)
class GameWeb:
    """A game's web companion.

    hint: the verb of the play mode's Hint button.
    example: the page's first position: a file under the game's folder of shipped
        positions (`puzzles/<game>/`), or a function giving the position's text.
    first_position: turns that file's text into the first position (default: as is).
    editor(): the fields of the position file edited with pickers beside the picture
        and their pieces (see docs/serve.md): {"fields": [...], "pieces": {...}}.
    vocabulary(data): what the page offers to write a step of the puzzle `data`.
    picture_words: per group of words, the pattern of the picture's texts naming them.
    steps(data) / step_key(step) / posed(data): a puzzle file's solution step by step,
        a step reduced to what the player chooses, the puzzle without its solution.
    palette(data): the editor's tools for the position `data` (`tool(...)` items),
        ending with `setup_actions()` (`new game`, `clear board`).
    edit(data, tool, clicks): the position after the clicks on the picture (each
        (kind, id) of a marked thing, or ("action", id) of a palette action) made with
        `tool` in hand: an `Edited`. A piece laid comes out of its stock, draw pile or
        reserve, so a click keeps the position valid where it can; else the position
        comes with the engine's line (`settled`).
    explain(verb, position, answer): the verb's answer on the position in the game's
        words, with the moves it names and what to mark on the picture: an `Explained`.
    form(position): the page's buttons for the position, by verb (`offer(...)`: label,
        offered, option values that answer quickly without typing); a verb left out
        gets the default button (its name, no values; offered unless it reads a puzzle).
    """

    hint: str
    example: str | Callable[[], str]
    editor: Callable[[], dict[str, Any]]
    vocabulary: Callable[[dict[str, Any]], dict[str, Any]]
    picture_words: dict[str, str] = field(default_factory=dict)
    first_position: Callable[[str], str] | None = None
    steps: Callable[[dict[str, Any]], list[Any]] = solution_steps
    step_key: Callable[[Any], Any] = step_word
    posed: Callable[[dict[str, Any]], dict[str, Any]] = without_solution
    palette: Callable[[dict[str, Any]], list[dict[str, Any]]] = no_palette
    edit: Callable[[dict[str, Any], str | None, list[tuple[str, str]]], Edited] = no_edit
    explain: Callable[[str, dict[str, Any], dict[str, Any]], Explained] = plain_explain
    form: Callable[[dict[str, Any]], dict[str, dict[str, Any]]] = no_form

    def check(self, data: dict[str, Any], steps: list[Any]) -> dict[str, Any]:
        """Is `steps` the puzzle's solution? (A puzzle has exactly one.)"""
        want = [self.step_key(s) for s in self.steps(data)]
        got = [self.step_key(s) for s in steps]
        right = 0
        for a, b in zip(got, want, strict=False):
            if a != b:
                break
            right += 1
        solved = bool(want) and got == want
        return {"solved": solved, "steps": len(got), "needed": len(want),
                "message": "Solved: that is the one solution." if solved else
                (f"Not yet: {len(got)} of {len(want)} steps given." if got == want[:len(got)]
                 else "Not the solution: try again (or reveal it).")}


def default_rules(game: Any) -> Any:
    """A game's built-in rules data, with its data options at their defaults (what the
    page's editor offers pieces from)."""
    return game.load_rules(None, **{p.name: p.default for p in game.data_options})


# ---------------------------------------------------------------- set-up by clicking

#: The palette actions every game's editor answers: the game's start position for the
#: position's players and variant, and its board emptied (everything on it back in the
#: stock, deck or unseen pieces).
NEW_GAME, CLEAR_BOARD = "new game", "clear board"

#: How the engine names the page's position in its lines (as `toppi serve` reads it).
WHERE = "position file position.json"


def setup_actions() -> list[dict[str, Any]]:
    """The palette's `new game` and `clear board` actions."""
    return [tool(NEW_GAME, action=True), tool(CLEAR_BOARD, action=True)]


@functools.cache
def rules_of(game: Any) -> Any:
    """`default_rules(game)`, read once per game (an edit reads the position every click)."""
    return default_rules(game)


def problem(game: Any, data: dict[str, Any]) -> str | None:
    """The engine's line on the position `data` (what `show` would say), or None when
    the engine reads it."""
    try:
        game.read(rules_of(game), copy.deepcopy(data), WHERE)
    except ToppiError as exc:
        return str(exc)
    return None


def settled(game: Any, data: dict[str, Any], note: str = "") -> Edited:
    """The edited position, with the engine's line when it does not read yet: the page
    shows it and the next click may mend it (a click is never dropped)."""
    line = problem(game, data)
    if line is None:
        return Edited(position=data, note=note)
    return Edited(position=data, note=f"the position is not valid yet: {line}"
                  + (f" ({note})" if note else ""))


def deal_rng() -> random.Random:
    """The random stream of a `new game` deal (tests replace it to deal one game)."""
    return random.Random()


def started(game: Any, setup: dict[str, Any], seat: int = 0) -> dict[str, Any]:
    """A new game's position file as `seat` sees it at the table: the game dealt as
    `play` deals it (`Game.new_game`), then what that seat may know
    (`Game.observation`: other hands unknown, face-down piles unordered)."""
    rules = rules_of(game)
    state = game.new_game(rules, setup, deal_rng())
    return game.write(game.observation(state, seat))


def guarded(edit: Callable[[dict[str, Any], str | None, list[tuple[str, str]]], Edited]
            ) -> Callable[[dict[str, Any], str | None, list[tuple[str, str]]], Edited]:
    """An edit that answers a position it cannot change (a field of the wrong type
    typed into the text, an unknown click) with a note, never an exception."""
    @functools.wraps(edit)
    def run(data: dict[str, Any], chosen: str | None, clicks: list[tuple[str, str]]
            ) -> Edited:
        if not clicks:
            return Edited(note="nothing clicked")
        try:
            return edit(data, chosen, clicks)
        except ToppiError as exc:
            return Edited(note=str(exc))
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            return Edited(note="this position's text has a field the editor cannot "
                               "change by clicking: correct it in the text first")
    return run
