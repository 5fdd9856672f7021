"""Topito puzzles: a position and a card; find the one shortest plan (exactly K moves).

A puzzle states the stacks, the previous player's last move (the no-reversal rule is in
force for the first move), a deck card and K. Its solution is the plan of K moves that
meets the card; no plan is shorter and no other plan has K moves.

The deeper types (puzzle_types.py) ask more than one card: all of 2-3 cards at the same
moment ("all"), or photo time for a hand of four, each card met at some moment
("hand"); any type may name blocks that may not be moved ("banned"). A plan is a move
sequence in every type. Their proposals come from puzzle_search.deep_candidates +
screen_deep (random stacks, random card sets, the K-move plans cut to one by the last
move and the banned blocks); the check from scratch is the same loop's search.

Proposals come from puzzle_search.py (walk_back + screen_position): random stacks walked
K moves backwards, every deck card screened on one incremental SAT planner, the last
move chosen so the no-reversal rule forbids a competing first move.
The shared loop (solver/generate.py) then searches each proposal from scratch: the
shortest plan, and a second plan of the same length with the first one blocked (SAT), or
every shortest plan read back from an exact layered search (BFS).
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import time
from dataclasses import dataclass
from typing import Any

from models.topito.bfs import bfs_plan, shortest_plans
from models.topito.positions import blocks_dict, check_fields, parse_move, read_blocks
from models.topito.puzzle_types import (
    CARD_COUNTS,
    TYPES,
    Ask,
    ask_lit,
    replay,
    shortest_ask_plans,
)
from models.topito.rules import (
    Card,
    Goal,
    Rules,
    load_deck,
    load_rules,
    parse_card,
    with_order_cards,
)
from models.topito.state import Move, State, format_move, locate, move_dict
from models.topito.verbs import BACKENDS
from solver.deadline import Deadline
from solver.errors import BadInput, TimeLimitReached
from solver.generate import Rating, Search, as_features
from solver.io import expect
from solver.io import field as json_field
from solver.puzzles import DIFFICULTIES
from solver.store import smallest_form

# plan length per difficulty (unique puzzles of 4+ moves practically never exist with
# the 48-card deck: docs/topito.md, "Generate")
MOVES = {"easy": 1, "medium": 2, "hard": 3}
# the same for the deeper types (all, hand, or with banned blocks)
DEEP_MOVES = {"easy": 3, "medium": 4, "hard": 5}
# longest plan a hand-made puzzle is searched for
MAX_MOVES = 12
# difficulty = 10 x moves + 0.5 x plausible first moves + effort (SAT conflicts / 100,
# or BFS states / 10000); thresholds from the features of 26 unique proposals
# (docs/puzzles.md): the length decides, the other features order within it
RATING = Rating({"moves": 10.0, "plausible_first_moves": 0.5, "effort": 1.0},
                medium=23.0, hard=36.0)

Solution = tuple[Move, ...]


@dataclass(frozen=True)
class Puzzle:
    """The start (stacks and last move), the card, and K (None: the shortest length,
    for hand-made puzzles that do not state it); for the deeper types the type, the
    other cards and the blocks that may not be moved (puzzle_types.Ask)."""

    state: State
    card: Card
    moves: int | None = None
    type: str = "card"
    others: tuple[Card, ...] = ()
    banned: tuple[int, ...] = ()

    @property
    def cards(self) -> tuple[Card, ...]:
        return (self.card, *self.others)

    @property
    def ask(self) -> Ask:
        return Ask(self.type, self.cards, self.banned)

    @property
    def classic(self) -> bool:
        """One card and no ban: the original kind, searched by the original code."""
        return self.type == "card" and not self.banned


class TopitoPuzzles:
    """The PuzzleKind of Topito for solver.generate.

    moves: with `generate --moves K` every proposal has a K-move plan whatever the
    difficulty asked; the difficulty then does not filter (the label is the one asked,
    the rating score is still measured and written).
    puzzle_type, bans: what `generate` proposes (`--type card|all|hand`, `--bans N`
    blocks that may not be moved); the deeper types take K from DEEP_MOVES and never
    filter by the rating either (its thresholds were set on one-card puzzles)."""

    def __init__(self, rules: Rules, deck: list[Card], backend: str = "sat",
                 time_limit: float = 20.0, moves: int | None = None,
                 puzzle_type: str = "card", bans: int = 0) -> None:
        if backend not in BACKENDS:
            raise BadInput(f"unknown backend '{backend}' ({', '.join(BACKENDS)})")
        if moves is not None and moves < 1:
            raise BadInput("--moves must be at least 1")
        if puzzle_type not in TYPES:
            raise BadInput(f"unknown puzzle type '{puzzle_type}' ({', '.join(TYPES)})")
        if not 0 <= bans <= 2:
            raise BadInput("--bans must be 0, 1 or 2")
        self.rules = rules
        self.deck = deck
        self.backend = backend
        self.time_limit = time_limit
        self.moves = moves
        self.puzzle_type = puzzle_type
        self.bans = bans
        self.rating = RATING
        # the author fixed the length (or the type does): every unique puzzle is kept,
        # labelled as asked
        self.any_difficulty = moves is not None or puzzle_type != "card" or bans > 0

    def propose(self, rng: random.Random, difficulty: str) -> Puzzle:
        """Random stacks walked K moves back; the first deck card whose K-move plan
        looks unique (SAT screening); failing that, a card the search will reject."""
        if difficulty not in DIFFICULTIES:
            raise BadInput(f"unknown difficulty '{difficulty}'")
        if self.puzzle_type != "card" or self.bans:
            return self._propose_deep(rng, difficulty)
        k = self.moves if self.moves is not None else MOVES[difficulty]
        from models.topito.puzzle_search import screen_position, walk_back

        base, cards = walk_back(self.rules, self.deck, rng, k)
        try:
            found = screen_position(base, cards, k, Deadline.after(self.time_limit))
        except TimeLimitReached:
            found = None
        if found is None:  # stated as a K-move puzzle, it is "none" or "several"
            return Puzzle(base, cards[0], k)
        state, card, _ = found
        return Puzzle(state, card, k)

    def _propose_deep(self, rng: random.Random, difficulty: str) -> Puzzle:
        """Random stacks and random card sets of the type; the first set whose K-move
        plans the last move and `bans` banned blocks cut to one (SAT screening);
        failing that, the first set, which the search will reject."""
        from models.topito.puzzle_search import deep_candidates, screen_deep

        k = self.moves if self.moves is not None else DEEP_MOVES[difficulty]
        base, combos = deep_candidates(self.rules, self.deck, rng, self.puzzle_type, k)
        try:
            found = screen_deep(base, self.puzzle_type, combos, k, self.bans, rng,
                                Deadline.after(self.time_limit))
        except TimeLimitReached:
            found = None
        if found is None:
            state, cards, banned = base, combos[0], ()
        else:
            state, cards, banned, _ = found
        return Puzzle(state, cards[0], k, self.puzzle_type, cards[1:], banned)

    # ------------------------------------------------------------------ search
    def search(self, puzzle: Puzzle, limit: int) -> Search[Solution]:
        """The shortest plan; with limit >= 2 a second one of the same length (the
        first blocked). A shortest length other than the stated K: no solution."""
        start = time.perf_counter()
        max_moves = puzzle.moves if puzzle.moves is not None else MAX_MOVES
        if not puzzle.classic:
            search = self._search_ask_sat if self.backend == "sat" else self._search_ask_bfs
            found, complete, effort = search(puzzle.state, puzzle.ask, max_moves, limit)
        elif self.backend == "sat":
            goal = Goal((puzzle.card,))
            found, complete, effort = self._search_sat(puzzle.state, goal, max_moves, limit)
        else:
            goal = Goal((puzzle.card,))
            found, complete, effort = self._search_bfs(puzzle.state, goal, max_moves, limit)
        if not found and puzzle.moves is None:
            complete = False  # no plan within MAX_MOVES says nothing about longer ones
        if puzzle.moves is not None and found and len(found[0]) != puzzle.moves:
            found, complete = [], True  # shorter than stated: no K-move shortest plan
        return Search(found, complete, round(time.perf_counter() - start, 3), work=effort)

    def _search_sat(self, state: State, goal: Goal, max_moves: int, limit: int
                    ) -> tuple[list[Solution], bool, float]:
        from models.topito.encode_sat import SatPlanner
        from models.topito.puzzle_search import other_plan

        deadline = Deadline.after(self.time_limit)
        # no symmetry breaking: plans are counted
        with SatPlanner(state) as planner:
            found: list[Solution] = []
            try:
                for t in range(max_moves + 1):
                    planner.extend(t)
                    model = planner.solve([planner.goal_lit(goal, t)], deadline)
                    if model is None:
                        continue
                    first = planner.moves_of(model, t)
                    found.append(tuple(first))
                    if limit < 2:
                        return found, True, self._conflicts(planner)
                    second = other_plan(planner, goal, t, first, deadline)
                    if second is not None:
                        found.append(tuple(second))
                        return found, False, self._conflicts(planner)
                    return found, True, self._conflicts(planner)
            except TimeLimitReached:
                return found, False, self._conflicts(planner)
            return found, True, self._conflicts(planner)  # no plan within max_moves (proven)

    def _search_ask_sat(self, state: State, ask: Ask, max_moves: int, limit: int
                        ) -> tuple[list[Solution], bool, float]:
        """_search_sat for any type: the planner forbids the banned blocks' moves and
        the goal literal is the type's (puzzle_types.ask_lit)."""
        from models.topito.encode_sat import SatPlanner

        deadline = Deadline.after(self.time_limit)
        with SatPlanner(state, banned=ask.banned) as planner:
            found: list[Solution] = []
            try:
                for t in range(max_moves + 1):
                    planner.extend(t)
                    g = ask_lit(planner, ask, t)
                    model = planner.solve([g], deadline)
                    if model is None:
                        continue
                    first = planner.moves_of(model, t)
                    found.append(tuple(first))
                    if limit >= 2:  # a second plan of t moves, the first one blocked
                        act = planner.v(("block-plan", tuple(first)))
                        planner.cnf.clause([-act] + [-planner.mv(m.block, m.target, i)
                                                     for i, m in enumerate(first)])
                        model = planner.solve([act, g], deadline)
                        if model is not None:
                            found.append(tuple(planner.moves_of(model, t)))
                            return found, False, self._conflicts(planner)
                    return found, True, self._conflicts(planner)
            except TimeLimitReached:
                return found, False, self._conflicts(planner)
            return found, True, self._conflicts(planner)

    def _search_ask_bfs(self, state: State, ask: Ask, max_moves: int, limit: int
                        ) -> tuple[list[Solution], bool, float]:
        out = shortest_ask_plans(state, ask, max_moves, max(limit, 1),
                                 Deadline.after(self.time_limit))
        effort = out.nodes / 10000
        plans = [tuple(p) for p in out.plans]
        if out.status == "unknown":
            return [], False, effort
        if out.status == "infeasible":
            return [], True, effort
        return plans, len(plans) < max(limit, 1) or limit < 2, effort

    @staticmethod
    def _conflicts(planner: Any) -> float:
        return planner.sat.solver.accum_stats().get("conflicts", 0) / 100

    def _search_bfs(self, state: State, goal: Goal, max_moves: int, limit: int
                    ) -> tuple[list[Solution], bool, float]:
        out = shortest_plans(state, goal, max_moves, max(limit, 1), Deadline.after(self.time_limit))
        effort = out.nodes / 10000
        plans = [tuple(p) for p in out.plans]
        if out.status == "unknown":
            return [], False, effort
        if out.status == "infeasible":
            return [], True, effort
        return plans, len(plans) < max(limit, 1) or limit < 2, effort

    # ------------------------------------------------------------------ features
    def features(self, puzzle: Puzzle, solution: Solution, search: Search[Solution]
                 ) -> dict[str, float]:
        """K; the first moves after which the card is at most K moves away (the
        solution's move, 1 move closer, and the moves that lose just one move — with a
        unique plan only the solution's move stays K-1 away, so the count of those
        would always be 1); the back-end's effort for the search."""
        k = len(solution)
        plausible = (self.plausible(puzzle.state, puzzle.card, k) if puzzle.classic
                     else self.plausible_ask(puzzle.state, puzzle.ask, k))
        return as_features(moves=k, plausible_first_moves=plausible, effort=search.work)

    def plausible(self, state: State, card: Card, k: int) -> int:
        """How many legal first moves leave the card at most `k` moves away."""
        goal = Goal((card,))
        moves = state.legal_actions()
        if self.backend == "bfs":
            return sum(1 for m in moves
                       if bfs_plan(state.apply_action(m), goal, k).length is not None)
        from models.topito.encode_sat import SatPlanner

        deadline = Deadline.after(self.time_limit)
        count = 0
        with SatPlanner(state) as planner:
            planner.extend(k + 1)
            for m in moves:
                a = planner.mv(m.block, m.target, 0)
                if any(planner.solve([a, planner.goal_lit(goal, t)], deadline) is not None
                       for t in range(1, k + 2)):
                    count += 1
        return count

    def plausible_ask(self, state: State, ask: Ask, k: int) -> int:
        """`plausible` for any type: the legal first moves (the banned blocks' left
        out) after which the puzzle is still at most `k` moves away."""
        moves = [m for m in state.legal_actions() if m.block not in ask.banned]
        if self.backend == "bfs":
            count = 0
            for m in moves:
                after = state.apply_action(m)
                mask = ask.met_mask(after.stacks, ask.start_mask(state))
                if ask.done(after.stacks, mask) or shortest_ask_plans(
                        after, ask, k, 1, mask=mask).status == "optimal":
                    count += 1
            return count
        from models.topito.encode_sat import SatPlanner

        count = 0
        with SatPlanner(state, banned=ask.banned) as planner:
            planner.extend(k + 1)
            for m in moves:
                a = planner.mv(m.block, m.target, 0)
                for t in range(1, k + 2):
                    try:  # --time-limit per solver call (a 5-move hand takes ~100 calls)
                        found = planner.solve([a, ask_lit(planner, ask, t)],
                                              Deadline.after(self.time_limit))
                    except TimeLimitReached:
                        found = set()  # not ruled out in time: counted as plausible
                    if found is not None:
                        count += 1
                        break
        return count

    # ------------------------------------------------------------------ text
    def steps(self, puzzle: Puzzle, solution: Solution) -> list[str]:
        """The moves in words, replayed through the rules engine (each checked legal)."""
        state, out = puzzle.state, []
        for m in solution:
            out.append(format_move(self.rules, m, state.stacks))
            state = state.apply_action(m)
        return out

    def end_state(self, puzzle: Puzzle, solution: Solution) -> State:
        state = puzzle.state
        for m in solution:
            state = state.apply_action(m)
        return state


# --------------------------------------------------------------------------- files

PUZZLE_FIELDS = ("card", "all", "hand", "banned", "moves", "solution", "rating", "unique",
                 "order_cards")
# the field that holds the cards of each type
TYPE_FIELDS = {"card": "card", "all": "all", "hand": "hand"}


def puzzle_to_dict(kind: TopitoPuzzles, puzzle: Puzzle, solution: Solution | None = None,
                   rating: dict[str, Any] | None = None) -> dict[str, Any]:
    """A position file (toppi topito plan/show read it too) with a `puzzle` part: the
    card (`card`; `all` or `hand`: a list of cards), the blocks that may not be moved
    (`banned`, only when there are some), K, and optionally the solution (moves in the
    last_move form) and the rating."""
    data = blocks_dict(puzzle.state)
    rules = kind.rules
    part: dict[str, Any] = {}
    if puzzle.type == "card":
        part["card"] = puzzle.card.text(rules)
    else:
        part[TYPE_FIELDS[puzzle.type]] = [c.text(rules) for c in puzzle.cards]
    if puzzle.banned:
        part["banned"] = [rules.characters[b] for b in puzzle.banned]
    k = puzzle.moves if puzzle.moves is not None else (
        len(solution) if solution is not None else None)
    if k is not None:
        part["moves"] = k
    if solution is not None:
        part["solution"] = [move_dict(rules, m) for m in solution]
    if rating is not None:
        part["rating"] = rating
    data["puzzle"] = part
    return data


def _read_cards(rules: Rules, part: dict[str, Any], where: str) -> tuple[str, list[Card]]:
    """The type and the cards of a puzzle part: exactly one of card / all / hand."""
    given = [t for t in TYPES if TYPE_FIELDS[t] in part]
    if len(given) != 1:
        what = "none" if not given else " and ".join(f"'{TYPE_FIELDS[t]}'" for t in given)
        raise BadInput(f"{where}: give exactly one of 'card' (one card), 'all' (cards "
                       f"met at once) or 'hand' (each card met at some moment), not {what}")
    kind = given[0]
    w = f"{where}.{TYPE_FIELDS[kind]}"
    if kind == "card":
        return kind, [parse_card(rules, expect(part["card"], str, w), w)]
    low, high = CARD_COUNTS[kind]
    texts = expect(part[TYPE_FIELDS[kind]], list, w)
    if not low <= len(texts) <= high:
        raise BadInput(f"{w}: {low} to {high} cards, got {len(texts)}")
    cards = [parse_card(rules, expect(t, str, f"{w}[{i}]"), f"{w}[{i}]")
             for i, t in enumerate(texts)]
    if len(set(cards)) != len(cards):
        raise BadInput(f"{w}: a card is named twice")
    return kind, cards


def _read_banned(rules: Rules, part: dict[str, Any], where: str) -> tuple[int, ...]:
    w = f"{where}.banned"
    names = expect(part.get("banned", []), list, w)
    banned = tuple(rules.block(expect(x, str, f"{w}[{i}]"), f"{w}[{i}]")
                   for i, x in enumerate(names))
    if len(set(banned)) != len(banned):
        raise BadInput(f"{w}: a character is named twice")
    if len(banned) >= rules.n_blocks:
        raise BadInput(f"{w}: at least one character must be free to move")
    return banned


def puzzle_from_dict(kind: TopitoPuzzles, data: Any, where: str
                     ) -> tuple[Puzzle, Solution | None]:
    """A puzzle and its stated solution (None when the file has none), each checked
    with a one-line BadInput."""
    rules = kind.rules
    check_fields(data, where)
    state = read_blocks(rules, data, where)
    part = json_field(data, "puzzle", dict, where, None)
    if part is None:
        raise BadInput(f"{where}: no 'puzzle' part (the card, and K)")
    unknown = sorted(k for k in part if k not in PUZZLE_FIELDS)
    if unknown:
        raise BadInput(f"{where}.puzzle: unknown field '{unknown[0]}' "
                       f"(fields: {', '.join(PUZZLE_FIELDS)})")
    # a file may say how its order card, if written as printed, is to be read (solve,
    # check-unique and sheet have no --order-cards: the file carries its own reading)
    reading = part.get("order_cards")
    if reading is not None:
        reading = expect(reading, str, f"{where}.puzzle.order_cards")
    reader = with_order_cards(rules, reading, f"{where}.puzzle.order_cards")
    ptype, cards = _read_cards(reader, part, f"{where}.puzzle")
    banned = _read_banned(rules, part, f"{where}.puzzle")
    moves = part.get("moves")
    if moves is not None and (isinstance(moves, bool) or not isinstance(moves, int)
                              or not 1 <= moves <= MAX_MOVES):
        raise BadInput(f"{where}.puzzle.moves: a whole number from 1 to {MAX_MOVES}")
    met = [c for c in cards if c.met(state.stacks)]
    # one card, or a hand (photo time would play it at once): none met at the start;
    # all at once: not all of them
    if met and (ptype != "all" or len(met) == len(cards)):
        text = met[0].text(rules) if len(met) == 1 else "; ".join(c.text(rules) for c in met)
        raise BadInput(f"{where}: the card{'s' if len(met) > 1 else ''} '{text}' "
                       f"{'are' if len(met) > 1 else 'is'} met already")
    puzzle = Puzzle(state, cards[0], moves, ptype, tuple(cards[1:]), banned)
    solution = None
    if part.get("solution") is not None:
        w = f"{where}.puzzle.solution"
        items = expect(part["solution"], list, w)
        solution = tuple(parse_move(rules, item, f"{w}[{i}]") for i, item in enumerate(items))
        if moves is not None and len(solution) != moves:
            raise BadInput(f"{w}: {len(solution)} moves, but the puzzle states {moves}")
        for i, m in enumerate(solution):
            if m.block in banned:
                raise BadInput(f"{w}[{i}]: {rules.characters[m.block]} may not be moved")
            why = state.why_illegal(m)
            if why is not None:
                raise BadInput(f"{w}[{i}]: {why}")
            state = state.apply_action(m)
        _, when = replay(puzzle.state, puzzle.ask, solution)
        missed = [c for c, t in zip(cards, when, strict=True) if t < 0]
        if missed:
            text = missed[0].text(rules)
            raise BadInput(f"{w}: " + (
                f"the moves never meet the card '{text}'" if ptype == "hand" else
                f"after the moves '{text}' is not met (all the cards at once)"
                if ptype == "all" else f"the moves do not meet the card '{text}'"))
    return puzzle, solution


# --------------------------------------------------------------------------- commands

def _make_kind(rules_path: str | None, backend: str, time_limit: float,
               moves: int | None = None, order_cards: str | None = None,
               puzzle_type: str | None = None, bans: int | None = None,
               **_: Any) -> TopitoPuzzles:
    rules = load_rules(rules_path, order_cards)
    return TopitoPuzzles(rules, load_deck(rules), backend, time_limit, moves,
                         puzzle_type or "card", bans or 0)


def _read(kind: TopitoPuzzles, data: Any, where: str) -> tuple[Puzzle, Solution | None]:
    return puzzle_from_dict(kind, data, where)


def _write(kind: TopitoPuzzles, puzzle: Puzzle, solution: Solution | None,
           rating: dict[str, Any] | None) -> dict[str, Any]:
    return puzzle_to_dict(kind, puzzle, solution, rating)


def _solution_text(kind: TopitoPuzzles, puzzle: Puzzle, solution: Solution) -> str:
    return "; ".join(f"{i}. {s}" for i, s in enumerate(kind.steps(puzzle, solution), 1))


def _picture(kind: TopitoPuzzles, puzzle: Puzzle, solution: Solution, reveal: bool) -> Any:
    from models.topito.render import puzzle_svg  # pictures only when asked for

    return puzzle_svg(kind, puzzle, solution, reveal)


def _terminal(kind: TopitoPuzzles, puzzle: Puzzle, solution: Solution, reveal: bool) -> Any:
    from models.topito.render import puzzle_text

    return puzzle_text(kind, puzzle, solution, reveal)


def podium_symmetries(rules: Rules, *cards: Card) -> list[tuple[int, ...]]:
    """The relabellings of the podiums that leave a puzzle's meaning unchanged: a move
    goes from any podium to any other, so every permutation, kept when it fixes the
    podiums the podium cards name. Identity first."""
    return [perm for perm in itertools.permutations(range(rules.n_podiums))
            if all(c.kind != "podium" or perm[c.podium] == c.podium for c in cards)]


def mapped_move(move: Move, perm: tuple[int, ...]) -> Move:
    """A move with its podiums relabelled."""
    return Move(move.block, None if move.source is None else perm[move.source],
                perm[move.target])


def mapped_puzzle(puzzle: Puzzle, perm: tuple[int, ...]) -> Puzzle:
    """The same puzzle with the stack on podium i moved to podium perm[i] (and the last
    move with it)."""
    state = puzzle.state
    stacks = [()] * len(state.stacks)
    for i, stack in enumerate(state.stacks):
        stacks[perm[i]] = stack
    last = None if state.last is None else mapped_move(state.last, perm)
    return dataclasses.replace(puzzle, state=dataclasses.replace(
        state, stacks=tuple(stacks), last=last))


def canonical_puzzle(kind: Any, puzzle: Puzzle) -> str:
    """The puzzle's canonical form for the store's de-duplication: the smallest JSON of
    the puzzle over the podium relabellings that keep its meaning (`podium_symmetries`)."""
    return smallest_form(puzzle_to_dict(kind, mapped_puzzle(puzzle, perm))
                         for perm in podium_symmetries(kind.rules, *puzzle.cards))


class PuzzleSteps:
    """A puzzle solved move by move on the web page (solver.puzzles.PuzzleSteps): each
    move judged by the rules engine (the no-reversal rule included), K moves at most."""

    open = False  # a step is one move: never half made

    def __init__(self, kind: TopitoPuzzles, puzzle: Puzzle, solution: Solution) -> None:
        self.kind, self.puzzle, self.solution = kind, puzzle, solution
        self.state = puzzle.state
        self.made: list[str] = []

    def step(self, step: Any) -> None:
        """A move {"block", "to"} ("from" may be left out: where the block is)."""
        rules, k = self.kind.rules, len(self.solution)
        if len(self.made) == k:
            raise BadInput(f"the puzzle asks for {k} move{'s' * (k != 1)}, no more")
        expect(step, dict, "move")
        block = rules.block(json_field(step, "block", str, "move"), "move.block")
        if "from" not in step:
            at = locate(self.state.stacks, block)
            step = {**step, "from": "out" if at is None else rules.podiums[at[0]]}
            if at is not None and str(step.get("to", "")).strip().lower() == step["from"]:
                raise BadInput(f"{rules.characters[block]} is on {step['from']} already")
        move = parse_move(rules, step, "move")
        if move.block in self.puzzle.banned:
            raise BadInput(f"the {rules.characters[move.block]} may not be moved")
        text = format_move(rules, move, self.state.stacks)
        last = self.state.last
        if (move.block, move.target) == self.state.ban and last is not None:
            raise BadInput(f"{text} reverses the last move ({format_move(rules, last)}): "
                           "the rules forbid it")
        why = self.state.why_illegal(move)
        if why is not None:
            raise BadInput(f"{text}: {why}")
        self.made.append(text)
        self.state = self.state.apply_action(move)

    def picture(self) -> Any:
        from models.topito.render import puzzle_steps_svg

        return puzzle_steps_svg(self.kind, self.puzzle, self.solution, self.state.stacks,
                                self.made)

    def prompt(self) -> str:
        k, n = len(self.solution), len(self.made)
        if n == k:
            return f"{k} move{'s' * (k != 1)} made: check your answer."
        return f"Move {n + 1} of {k}: click a block, then the podium it goes to."


def puzzle_game() -> Any:
    """The shared puzzle verbs' description of Topito puzzles; verbs.py declares them
    with generate's own options (`--moves K`...), passed on to `_make_kind`."""
    from solver.puzzles import PuzzleGame

    return PuzzleGame("topito", BACKENDS, _make_kind, _read, _write, _solution_text,
                      _picture, _terminal, canonical=canonical_puzzle, knowledge=_knowledge,
                      stepper=PuzzleSteps)


def _knowledge(kind: Any, puzzle: Puzzle) -> dict[str, Any]:
    """What solving a puzzle knows: the stacks, the last move and the card(s) (and the
    blocks that may not be moved); it hides nothing (no other hand or deck takes
    part)."""
    cards = "the card" if puzzle.type == "card" else "the cards"
    ban = ["the blocks that may not be moved"] if puzzle.banned else []
    return {"knows": ["the stacks on the podiums", "the last move", cards, *ban],
            "unknown": [], "all_seeing": False}
