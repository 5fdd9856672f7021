"""The best placement for the player on turn, with ranked alternatives and reasons.

Every legal placement (hand tile, spaces, which way round, gap filler or not) is played
with the rules engine: tasks fulfilled now (newly turned-up known tasks too),
whether the next player could still place a tile (a dead end loses the game), and how
far each other open task is from holding. The best candidates are then checked with the
SAT model: which of the remaining open tasks stay achievable within a few placements
(with any tile not on the board), one incremental solver for all candidates.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from models.hoch_hinaus.board import Action, PlacementJson, action_json
from models.hoch_hinaus.budgets import HINT_CONFLICTS as CONFLICTS
from models.hoch_hinaus.budgets import HINT_TOP
from models.hoch_hinaus.encode import CnfLogic, StepModel
from models.hoch_hinaus.state import GameState
from models.hoch_hinaus.tasks import Task
from solver import cut_decisions
from solver.answers import Capped
from solver.backends.sat import IncrementalSat
from solver.deadline import NO_DEADLINE, Deadline
from solver.errors import TimeLimitReached
from solver.progress import live_status
from solver.stats import mean_error


def distance(rules: Any, task: Task, visible: Sequence) -> int:
    """How many spaces would at least have to change for the task to hold (0: holds);
    a cheap guide, not a proof."""
    m1 = [task.pred.matches(f, h) for f, h in visible] if task.kind != "distinct" else None
    m2 = [task.pred2.matches(f, h) for f, h in visible] if task.kind == "more" else None

    def one(line: Sequence[int]) -> int:
        if task.kind == "count":
            n, c = sum(m1[s] for s in line), task.count
        elif task.kind == "distinct":
            i = 0 if task.what == "colours" else 1
            n = len({visible[s][0][i] for s in line if visible[s][0] is not None})
            c = task.count
        elif task.kind == "more":
            return max(0, sum(m2[s] for s in line) - sum(m1[s] for s in line) + 1)
        else:
            n = len({visible[s][1] for s in line if m1[s]})
            c = task.count
        if c.op == "exactly":
            return abs(n - c.k)
        if c.op == "at least":
            return max(0, c.k - n)
        return max(0, n - c.k)

    ds = [one(line) for line in task.region.lines(rules)]
    return sum(ds) if task.region.quant == "every" else min(ds)


@dataclass
class HintOption:
    """One placement and what it leads to. With hidden information (other hands, the
    reserve's order, face-down tasks) the figures that depend on it are means over the
    hint's samples (shared by every placement); with everything known they are exact."""

    placement: PlacementJson
    fulfils: list[str]  # fulfilled for sure (open tasks the player sees)
    dead_end: bool  # the next player cannot place a tile (in every sample)
    uses_filler: bool
    releases_task: bool
    distance: float  # mean over the samples
    dead_end_chance: float = 0.0  # share of the samples in which the next player is stuck
    win_chance: float = 0.0
    more_fulfilled: float = 0.0  # mean tasks turned up and fulfilled at once besides
    achievable: int | None = None  # remaining open tasks achievable one by one (any tile)
    together: bool | None = None  # all remaining open tasks achievable together (any tile)
    achievable_hands: float | None = None  # the same with the next players' hands (mean)
    together_hands: float | None = None  # share of the samples
    unproven: int = 0  # look-ahead answers left open by the conflict budget
    remaining: int = 0
    score: float = 0.0
    spread: float = 0.0  # standard error of the score over the samples (0: exact)
    samples: int = 0  # the draws it was judged on (fewer for the clearly worse ones)
    reason: str = ""
    wins: bool = False
    # the placement itself (not in the JSON; Any: the schema describes the document only)
    action: Any = field(default=None, metadata={"json_skip": True})


@dataclass
class HintResult(Capped):
    """The ranked placements. The look-ahead's work is counted: `checked` candidates,
    each SAT check within `conflicts` conflicts; `cut_by_time`: the time limit stopped it
    before the `top` candidates were checked (the rest keep their engine score)."""

    player: int
    options: list[HintOption]
    legal: int
    checked: int
    horizon: int
    seconds: float
    note: str = ""
    samples: int = 0  # determinizations of what the player cannot see (0: all known)
    seed: int = 0
    conflicts: int = 0  # the conflict budget of each SAT check of the look-ahead


def _evaluate(game: GameState, a: Action, memo: dict | None = None
              ) -> tuple[HintOption, GameState]:
    """The placement played and its tasks fulfilled (before the draw); `memo` (per
    placement) keeps what holds on the board after it and the tasks' distances, for the
    draws of the same move."""
    memo = {} if memo is None else memo
    g, done = game.before_draw(a, memo.setdefault("holds", {}))
    # (the fulfil step leaves the bonus tasks as the placement left them)
    released = (sum(1 for b in g.bonus if b.fillers > 0)
                < sum(1 for b in game.bonus if b.fillers > 0))
    r = game.rules
    nxt = (g.on_turn + 1) % g.players if g.players else 0
    hand = list(g.hands[nxt]) if g.hands else []
    if g.players == 1 and g.reserve_known and g.reserve:
        hand.append(g.reserve[0])
    # a hand with unknown tiles may hold any unseen tile: never judged a dead end
    dead = (g.status != "won" and None not in hand
            and not g.board.can_place(hand, g.pros, g.fillers_left > 0))
    vis = g.board.visible()
    far = memo.setdefault("distance", {})
    for t in g.open:
        if t is not None and t not in far:
            far[t] = distance(r, t, vis)
    dist = sum(far[t] for t in g.open if t is not None)
    won = g.status == "won"
    opt = HintOption(action_json(r, a), [t.text(r) for t in done], dead, a.filler is not None,
                     released, dist, float(dead), float(won),
                     remaining=sum(1 for t in g.open if t is not None), wins=won, action=a)
    return opt, g


def _cheap_score(o: HintOption) -> float:
    # fulfilling now and avoiding dead ends come first, whatever the look-ahead adds
    return (10000 * o.win_chance + 100 * (len(o.fulfils) + o.more_fulfilled)
            - 1000 * o.dead_end_chance - 0.5 * o.distance
            - 0.3 * o.uses_filler - 4 * o.releases_task)


def _next_hand(g: GameState, d: GameState) -> list[str]:
    """The hand of the next player after the move: from the draw `d` (the state before
    the move with every unknown drawn) and `g` (the state after it)."""
    nxt = (g.on_turn + 1) % g.players
    if g.players == 1:
        hand = [t for t in g.hands[0] if t is not None]
        return hand + d.reserve[:1]
    return d.hands[nxt]  # type: ignore[return-value]


def _sampled(opt: HintOption, g: GameState, draws: list[GameState], a: Action,
             stuck: dict, memo: dict) -> None:
    """Fill in the figures of `opt` that depend on what the player cannot see, as means
    over the determinizations `draws` (before the move); `g` is the state after the move
    as the player sees it. Without an unknown task turned up only the next hand is
    unknown: only whether it can be placed is judged per draw (`stuck` caches it)."""
    scores = []
    if g.task_due or g.status == "won":
        dead = won = more = dist = 0.0
        for d in draws:
            o, _ = _evaluate(d, a, memo)
            o.more_fulfilled = len(o.fulfils) - len(opt.fulfils)
            o.fulfils = opt.fulfils
            scores.append(_cheap_score(o))
            dead += o.dead_end
            won += o.wins
            more += o.more_fulfilled
            dist += o.distance
        k = len(draws)
        opt.dead_end_chance, opt.win_chance = dead / k, won / k
        opt.more_fulfilled, opt.distance = more / k, dist / k
    else:
        board, fillers = g.board, g.fillers_left > 0
        key0 = (board.key(), fillers)  # what can_place reads besides the hand
        dead_count = 0
        for d in draws:
            hand = _next_hand(g, d)
            key = (key0, frozenset(hand))
            if key not in stuck:
                stuck[key] = not board.can_place(hand, g.pros, fillers)
            opt.dead_end_chance = float(stuck[key])
            dead_count += stuck[key]
            scores.append(_cheap_score(opt))
        opt.dead_end_chance = dead_count / len(draws)
    k = opt.samples = len(draws)
    opt.dead_end, opt.wins = opt.dead_end_chance == 1, opt.win_chance == 1
    opt.score, opt.spread = mean_error(scores)


#: Successive halving over the draws: every placement is judged on the first draws, the
#: best SECOND_ROUND of them on all.
FIRST_DRAWS = 4
SECOND_ROUND = 24


class Lookahead:
    """One incremental SAT model of `horizon` placements with any free tile, started from
    any board by assumptions; task literals are built once per task."""

    def __init__(self, game: GameState, horizon: int, conflicts: int = CONFLICTS) -> None:
        self.game, self.horizon = game, horizon
        r = game.rules
        self.logic = CnfLogic()
        top = max(game.board.height(s) for s in range(r.n_spaces))
        free = [t.id for t in r.tiles]
        self.model = StepModel(r, self.logic, horizon, [free] * horizon, game.pros,
                               top + 2 + 2 * horizon, True)
        self.task_lit: dict[Task, int] = {}
        self.solver = IncrementalSat(self.logic.b)
        self.budget = conflicts  # per check: the answer is the same on any machine

    def lit(self, task: Task) -> int:
        if task not in self.task_lit:
            self.task_lit[task] = self.model.fulfilled_within(task)
        return self.task_lit[task]

    def _solve(self, assumptions: list[int], deadline: Deadline) -> bool | None:
        """Satisfiable? None when the conflict budget ran out (unproven);
        TimeLimitReached past the deadline."""
        if deadline.passed():
            raise TimeLimitReached("the hint's look-ahead reached its time limit")
        try:
            return self.solver.solve_limited(assumptions, conflicts=self.budget) is not None
        except TimeLimitReached:  # the conflict budget ran out
            return None

    def check(self, g: GameState, mode: str, deadline: Deadline,
              tasks: list[Task] | None = None) -> tuple[int, int, bool | None]:
        """(tasks proven achievable one by one, tasks unproven, all together: True/False
        or None if unproven) after a move: g is the game after place and fulfil, before
        the draw; `tasks`: the tasks checked (default: the open ones of g). mode any: any
        tile not on the board; hand: the next players' hands as
        they are (plus the drawn tile if the reserve order is known), each placement by
        the player on turn then; a hand with unknown tiles may use any unseen tile."""
        if tasks is None:
            tasks = [t for t in g.open if t is not None]
        base = self.model.init_lits(g.board) + [
            self.model.fillers_at_most(min(g.fillers_left, self.horizon))]
        if mode == "hand" and g.hands:
            hands = [list(h) for h in g.hands]
            if g.reserve_known and g.reserve:
                hands[g.on_turn].append(g.reserve[0])
            unseen = set(g.unseen_tiles())
            for step in range(self.horizon):
                allowed = set(hands[(g.on_turn + 1 + step) % len(hands)])
                if None in allowed:
                    allowed |= unseen
                base += [-u for tid, u in self.model.use[step].items() if tid not in allowed]
        lits = [self.lit(t) for t in tasks]
        together = self._solve(base + lits, deadline)
        if together:
            return len(tasks), 0, True
        answers = [self._solve(base + [x], deadline) for x in lits]
        return answers.count(True), answers.count(None), together

    def close(self) -> None:
        self.solver.close()


def _rank(game: GameState, acts: list[Action], draws: list[GameState], known: bool,
          rng: random.Random | None) -> tuple[list[HintOption], dict[int, GameState],
                                              dict[int, dict]]:
    """Every placement played and judged without the look-ahead, best first (equal
    boards after equal moves merged), with the state after each (`after`) and the
    memos of its draws, both by the option's id."""
    plain = [a for a in acts if a.filler is None]
    with_filler = [a for a in acts if a.filler is not None]
    seen: dict[tuple, HintOption] = {}
    after: dict[int, GameState] = {}
    stuck: dict[tuple, bool] = {}
    memos: dict[int, dict] = {}
    for a in plain + with_filler:
        opt, g = _evaluate(game, a)
        key = (g.board.key(), a.tile, a.filler is not None)
        if key in seen:
            continue
        if known:
            opt.score = _cheap_score(opt)
        else:
            memos[id(opt)] = {}
            _sampled(opt, g, draws[:FIRST_DRAWS], a, stuck, memos[id(opt)])
        seen[key] = opt
        after[id(opt)] = g
    options = list(seen.values())
    if rng is not None:
        rng.shuffle(options)  # ties broken at random (stable sort keeps it)
    options.sort(key=lambda o: -o.score)
    if not known and len(draws) > FIRST_DRAWS:
        # every draw only for the placements that can still be the best
        for o in options[:SECOND_ROUND]:
            _sampled(o, after[id(o)], draws, o.action, stuck, memos[id(o)])
        options.sort(key=lambda o: -o.score)
    return options, after, memos


def _look_ahead(la: Lookahead, o: HintOption, g: GameState, draws: list[GameState],
                memo: dict | None, deadline: Deadline) -> None:
    """The look-ahead's figures of one option (`g`: the state after it as the player
    sees it; the next hands checked in `draws`, or in `g` with none), and its score
    raised by them. TimeLimitReached past the deadline (nothing changed then)."""
    if o.wins or not o.remaining:
        o.achievable, o.together = 0, True
        o.achievable_hands, o.together_hands = 0, 1.0
    else:
        a = la.check(g, "any", deadline)
        ahead = [_evaluate(d, o.action, memo)[1] for d in draws] or [g]
        # the open tasks the player sees, in every draw
        known_open = [t for t in g.open if t is not None]
        hands = [la.check(h, "hand", deadline, known_open) for h in ahead]
        o.achievable, o.unproven, o.together = a[0], a[1], a[2]
        o.achievable_hands = sum(h[0] for h in hands) / len(hands)
        o.together_hands = sum(bool(h[2]) for h in hands) / len(hands)
        o.unproven += sum(h[1] for h in hands)
    # unproven answers count half
    o.score += (o.achievable + 2 * bool(o.together) + 3 * o.achievable_hands
                + 2 * o.together_hands + 0.5 * o.unproven)


def hint(game: GameState, horizon: int = 2, top: int = HINT_TOP,
         deadline: Deadline = NO_DEADLINE, lookahead: bool = True,
         rng: random.Random | None = None, actions: list[Action] | None = None,
         samples: int = 16, seed: int = 0, lookahead_samples: int = 4,
         conflicts: int = CONFLICTS) -> HintResult:
    """Rank the legal placements of the player on turn (best first) from what `game`
    holds. What it leaves unknown (other hands, the reserve's order, face-down tasks) is
    drawn `samples` times (seeded by `seed`; the same draws for every placement) and
    the placements are judged by their means; with everything known the judgement is
    exact. The SAT look-ahead checks the `top` candidates: with any tile (from what the
    player sees) and with the next players' hands (in `lookahead_samples` of the draws),
    each SAT call within `conflicts` conflicts, so the ranking is a function of the
    position, the options and the seed. `deadline` only caps the look-ahead
    (`cut_by_time` when it stopped it). `rng` breaks ties at random; `actions`: the
    legal placements if the caller has them."""
    start = time.monotonic()  # the status line's clock
    acts = game.legal_actions() if actions is None else actions
    if not acts:
        if not game.hands:
            note = "no legal placement"
        elif game.status == "won":
            note = "the game is already won"
        else:
            note = "no tile can be placed: the game is lost"
        return HintResult(game.on_turn + 1, [], 0, 0, horizon, 0.0, note,
                          conflicts=conflicts)
    known = game.everything_known
    draw_rng = random.Random(seed)
    draws = [game] if known else [game.determinise(draw_rng) for _ in range(samples)]
    options, after, memos = _rank(game, acts, draws, known, rng)
    checked, cut = 0, False
    if lookahead and horizon > 0:
        la = Lookahead(game, horizon, conflicts)
        with live_status("look-ahead", deadline.left(), unit="candidates",
                         since=start) as status:
            try:
                for o in options[:top]:
                    try:
                        _look_ahead(la, o, after[id(o)],
                                    [] if known else draws[:lookahead_samples],
                                    memos.get(id(o)), deadline)
                    except TimeLimitReached:
                        cut = True
                        break
                    checked += 1
                    status.step(checked, min(top, len(options)))
            finally:
                la.close()
        head = sorted(options[:checked], key=lambda o: -o.score)
        options = head + options[checked:]
    for o in options:
        o.reason = _reason(o, game, horizon, len(draws) if not known else 0)
    note = (f"cut by the time limit: the look-ahead checked {checked} of "
            f"{min(top, len(options))} candidates" if cut else "")
    return HintResult(game.on_turn + 1, options, len(acts), checked, horizon,
                      round(time.monotonic() - start, 3), note,
                      0 if known else len(draws), seed, conflicts, cut_by_time=cut)


def _share(x: float, samples: int) -> str:
    return f"{round(x * samples)} of {samples} samples"


def _reason(o: HintOption, game: GameState, horizon: int, samples: int) -> str:
    parts = []
    if o.wins:
        parts.append("wins the game")
    elif o.win_chance:
        parts.append(f"wins the game in {_share(o.win_chance, samples)}")
    if o.fulfils:
        parts.append(f"fulfils {len(o.fulfils)}: " + "; ".join(o.fulfils))
    if o.more_fulfilled:
        parts.append(f"{o.more_fulfilled:.2g} more on average from tasks turned up")
    if o.dead_end:
        parts.append("DEAD END: the next player could not place a tile" +
                     (f" (in all {samples} samples)" if samples else ""))
    elif o.dead_end_chance:
        parts.append("the next player could not place a tile (the game lost) in "
                     + _share(o.dead_end_chance, samples))
    if o.achievable is not None and o.remaining:
        if o.together_hands == 1:
            hands = f"all {o.remaining} together"
        elif samples:
            hands = f"{o.achievable_hands:.2g} of {o.remaining} on average"
        else:
            hands = f"{o.achievable_hands:g} of {o.remaining}"
        anyt = (f"all {o.remaining} together" if o.together else
                f"{o.achievable} of {o.remaining}")
        who = "the next hands" + (" (sampled)" if samples else "")
        parts.append(f"other open tasks achievable within {horizon} placements: {hands} "
                     f"with {who}, {anyt} with any tiles" +
                     (f" ({o.unproven} answers unproven)" if o.unproven else ""))
    if o.uses_filler:
        parts.append("uses a gap filler" + (" (releases a bonus task)" if o.releases_task
                                            else ""))
    parts.append(f"distance to the open tasks {o.distance:.3g}")
    return "; ".join(parts)


def policy_action(game: GameState, rng: random.Random, policy: str,
                  hint_time: float | None = None, actions: list[Action] | None = None,
                  samples: int = 16, conflicts: int = CONFLICTS,
                  deadline: Deadline = NO_DEADLINE) -> Action | None:
    """The action a policy plays from `game` (an observation, or the whole state for
    an all-seeing reference): random (a legal placement at random), greedy (the hint's
    ranking without the SAT look-ahead) or hint (with it, its top 4 candidates, each SAT
    check within `conflicts`); the unknowns drawn `samples` times, seeded from `rng`.
    `hint_time`: a cap in seconds on the hint's look-ahead per move; None (the default):
    none, the look-ahead is bounded by its conflict budget alone, so the move depends
    on the position and rng only (the same on any machine, under any load); `deadline`
    caps it too. `actions`: the legal placements, if known."""
    if policy == "random":
        acts = game.legal_actions() if actions is None else actions
        return rng.choice(acts) if acts else None
    res = hint(game, lookahead=policy == "hint", rng=rng, top=HINT_TOP,
               deadline=deadline.sooner(hint_time),
               actions=actions, samples=samples, seed=rng.getrandbits(32),
               conflicts=conflicts)
    cut_decisions.count(res.cut_by_time)  # a simulated game says it was cut
    return res.options[0].action if res.options else None
