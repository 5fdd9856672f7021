"""K plays of Tippi Toppi and the task language as one Boolean model, for PySAT and
CP-SAT.

The model is written once against the logic interface of solver/logic.py: `CnfLogic`
(PySAT clauses) and `CpLogic` (CP-SAT). On a `CnfLogic` wrapping a `CnfBuilder` the
clauses are exactly those of solver/counting.py's encodings written on the builder, so
the witnesses found and the CaDiCaL effort behind the puzzle ratings replay exactly.

Per play t and pile p the top card is one-hot in colour (col[p][c]) and number
(num[p][n]). x[t,i,p] = card instance i goes on pile p in play t; at most one play per
step, idle steps only at the end; each instance at most once; a play must match the
pile's top by colour or number. A task's literal h implies the task holds on those tops
(h -> task): enough for "can it be fulfilled", and tested both ways against the engine
(h can be true exactly when the task holds).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from models.tippi_toppi.encode import PlanProblem
from models.tippi_toppi.rules import Card, Rules
from models.tippi_toppi.tasks import (
    AdjacentTask,
    AllTask,
    CompareTask,
    CountTask,
    DistinctTask,
    Filter,
    RunTask,
    SameAdjacentTask,
    SumTask,
    Task,
)
from solver.counting import Count

Lit = Any  # a literal of the logic in use (an int for PySAT, a BoolVar for CP-SAT)


@dataclass
class TopsVars:
    """Literals of the top cards at one moment: col[p][c] and num[p][n] (n = number)."""

    col: list[list[Lit]]
    num: list[dict[int, Lit]]
    filters: dict = field(default_factory=dict)


def new_tops(L: Any, rules: Rules) -> TopsVars:
    col = [[L.var() for _ in rules.colours] for _ in range(rules.piles)]
    num = [{n: L.var() for n in rules.numbers} for _ in range(rules.piles)]
    for p in range(rules.piles):
        L.exactly_one(col[p])
        L.exactly_one(list(num[p].values()))
    return TopsVars(col, num)


def fix_tops(L: Any, tv: TopsVars, tops: tuple[Card, ...]) -> None:
    for p, (c, n) in enumerate(tops):
        L.clause([tv.col[p][c]])
        L.clause([tv.num[p][n]])


def tops_of(value: Callable[[Lit], bool], tv: TopsVars, rules: Rules) -> tuple[Card, ...]:
    """The top cards a solution gives `tv` (value(lit) -> bool)."""
    return tuple((next(c for c, x in enumerate(tv.col[p]) if value(x)),
                  next(n for n, x in tv.num[p].items() if value(x)))
                 for p in range(rules.piles))


def filter_lit(L: Any, tv: TopsVars, f: Filter, p: int) -> Lit:
    """A literal equal to 'the top of pile p matches f' (both directions)."""
    key = (f, p)
    if key not in tv.filters:
        parts = []
        if f.colours is not None:
            parts.append(L.or_([tv.col[p][c] for c in sorted(f.colours)]))
        if f.numbers is not None:
            parts.append(L.or_([tv.num[p][n] for n in sorted(f.numbers)]))
        if not parts:
            parts = [L.true]
        tv.filters[key] = L.and_(parts)
    return tv.filters[key]


def _units(L: Any, tv: TopsVars, f: Filter, rules: Rules) -> list[Lit]:
    """Unary literals whose count is the sum of the tops matching f: for each pile and
    k = 1..max, 'the top matches f and shows at least k'."""
    out = []
    for p in range(rules.piles):
        fl = filter_lit(L, tv, f, p)
        for k in range(1, max(rules.numbers) + 1):
            at_least = [tv.num[p][n] for n in rules.numbers if n >= k]
            out.append(L.and_([fl, L.or_(at_least)]))
    return out


def _present(L: Any, tv: TopsVars, f: Filter, rules: Rules, h: Lit) -> None:
    """h -> some pile matches f (a sum or comparison naming a group needs one)."""
    if not f.is_all:
        L.clause([L.neg(h), *(filter_lit(L, tv, f, p) for p in range(rules.piles))])


def task_lit(L: Any, task: Task, tv: TopsVars, rules: Rules) -> Lit:
    """A literal h with h -> task holds on the tops tv."""
    piles = range(rules.piles)
    neg = L.neg
    h = L.var()
    if isinstance(task, CountTask):
        L.clause([neg(h), L.count([filter_lit(L, tv, task.filter, p) for p in piles],
                                  task.count)])
    elif isinstance(task, AllTask):
        for p in piles:
            L.clause([neg(h), filter_lit(L, tv, task.filter, p)])
    elif isinstance(task, SumTask):
        _present(L, tv, task.filter, rules, h)
        L.clause([neg(h), L.count(_units(L, tv, task.filter, rules), task.count)])
    elif isinstance(task, CompareTask):
        _present(L, tv, task.left, rules, h)
        _present(L, tv, task.right, rules, h)
        if task.measure == "sum":
            left = _units(L, tv, task.left, rules)
            right = _units(L, tv, task.right, rules)
        else:
            left = [filter_lit(L, tv, task.left, p) for p in piles]
            right = [filter_lit(L, tv, task.right, p) for p in piles]
        _compare(L, h, left, right, task.relation)
    elif isinstance(task, AdjacentTask):
        n = rules.piles
        pairs = [(i, j) for i in range(n) for j in range(n) if i != j
                 and ((i, j) in rules.neighbours) == (task.mode != "apart")]
        if task.mode == "none":
            for i, j in pairs:
                L.clause([neg(h), neg(filter_lit(L, tv, task.a, i)),
                          neg(filter_lit(L, tv, task.b, j))])
        else:
            zs = []
            for i, j in pairs:
                z = L.var()
                L.clause([neg(z), filter_lit(L, tv, task.a, i)])
                L.clause([neg(z), filter_lit(L, tv, task.b, j)])
                zs.append(z)
            L.clause([neg(h), *zs])
    elif isinstance(task, SameAdjacentTask):
        values = _attribute(tv, task.attribute)
        if task.negated:
            for i, j in rules.adjacent:
                for v in values[i]:
                    L.clause([neg(h), neg(values[i][v]), neg(values[j][v])])
        else:
            zs = []
            for i, j in rules.adjacent:
                for v in values[i]:
                    z = L.var()
                    L.clause([neg(z), values[i][v]])
                    L.clause([neg(z), values[j][v]])
                    zs.append(z)
            L.clause([neg(h), *zs])
    elif isinstance(task, DistinctTask):
        values = _attribute(tv, task.attribute)
        for i in piles:
            for j in piles:
                if i < j:
                    for v in values[i]:
                        if task.same:
                            L.clause([neg(h), neg(values[i][v]), values[j][v]])
                        else:
                            L.clause([neg(h), neg(values[i][v]), neg(values[j][v])])
    elif isinstance(task, RunTask):
        if task.length == 0:
            for i in range(rules.piles - 1):
                for a in rules.numbers:
                    L.clause([neg(h), neg(tv.num[i][a]),
                              *(tv.num[i + 1][c] for c in rules.numbers if c > a)])
        else:
            starts = []
            lo, hi = min(rules.numbers), max(rules.numbers)
            for s in range(lo, hi - task.length + 2):
                r = L.var()
                for v in range(s, s + task.length):
                    L.clause([neg(r), *(tv.num[p][v] for p in piles)])
                starts.append(r)
            L.clause([neg(h), *starts])
    else:  # pragma: no cover - every kind of task is encoded above
        raise TypeError(f"no encoding for {type(task).__name__}")
    return h


def _attribute(tv: TopsVars, attribute: int) -> list[dict[int, Lit]]:
    if attribute == 0:
        return [dict(enumerate(row)) for row in tv.col]
    return tv.num


# "at least j" beyond a counter's range: constants, dropped from or satisfying a clause
_TRUE, _FALSE = object(), object()


def _compare(L: Any, h: Lit, a_lits: list[Lit], b_lits: list[Lit], relation: str) -> None:
    """h -> (count of a_lits) relation (count of b_lits), with relation equal / double /
    greater, through counters whose outputs say 'at least j'."""
    na, nb = len(a_lits), len(b_lits)
    a = L.at_least_outputs(a_lits, na)  # a[j-1] <-> A >= j
    c = L.at_least_outputs(b_lits, nb)

    def ge(outs: list[Lit], j: int) -> Any:
        if j <= 0:
            return _TRUE
        return outs[j - 1] if j <= len(outs) else _FALSE

    def neg(x: Any) -> Any:
        return _FALSE if x is _TRUE else _TRUE if x is _FALSE else L.neg(x)

    def clause(*lits: Any) -> None:
        if any(x is _TRUE for x in lits):
            return
        L.clause([x for x in lits if x is not _FALSE])

    if relation == "equal":
        for j in range(1, max(na, nb) + 1):
            clause(L.neg(h), neg(ge(a, j)), ge(c, j))
            clause(L.neg(h), neg(ge(c, j)), ge(a, j))
    elif relation == "double":  # A = 2B  <=>  for all j: B >= j <-> A >= 2j-1 <-> A >= 2j
        for j in range(1, max(na, nb) + 1):
            clause(L.neg(h), neg(ge(c, j)), ge(a, 2 * j))
            clause(L.neg(h), neg(ge(a, 2 * j - 1)), ge(c, j))
    else:  # A > B  <=>  for all j: B >= j -> A >= j+1, and A >= 1
        clause(L.neg(h), ge(a, 1))
        for j in range(1, nb + 1):
            clause(L.neg(h), neg(ge(c, j)), ge(a, j + 1))


# --------------------------------------------------------------------------- plays

@dataclass
class PlanVars:
    """The variables of a K-play plan: tops[t] (t = 0..K), plays x[(t, i, p)], idle[t];
    one switch per target and the literals of "target k holds after play t"."""

    tops: list[TopsVars]
    x: dict[tuple[int, int, int], Lit]
    idle: list[Lit]
    switches: list[Lit]
    holds: list[list[Lit]]


def encode_plays(L: Any, problem: PlanProblem, rules: Rules) -> PlanVars:
    """The K plays alone: legal plays, the tops they leave, idle steps at the end."""
    K = problem.steps
    neg = L.neg
    tops = [new_tops(L, rules) for _ in range(K + 1)]
    fix_tops(L, tops[0], problem.tops)
    x: dict[tuple[int, int, int], Lit] = {}
    idle = [L.var() for _ in range(K + 1)]
    for t in range(1, K + 1):
        step = []
        for i, inst in enumerate(problem.instances):
            if problem.usable(t, i):
                for p in range(rules.piles):
                    v = L.var()
                    x[(t, i, p)] = v
                    step.append(v)
                    # legal: the card matches the top by colour or number
                    c, n = inst.card
                    L.clause([neg(v), tops[t - 1].col[p][c], tops[t - 1].num[p][n]])
        L.exactly_one(step + [idle[t]])
        if t < K:
            L.clause([neg(idle[t]), idle[t + 1]])  # idle steps only at the end
    for i in range(len(problem.instances)):
        L.at_most_one([v for (t, j, p), v in x.items() if j == i])
    for t in range(1, K + 1):
        prev, cur = tops[t - 1], tops[t]
        for p in range(rules.piles):
            plays = [(v, problem.instances[i].card) for (tt, i, pp), v in x.items()
                     if tt == t and pp == p]
            on = [L.or_([v for v, _ in plays])] if plays else []
            for v, (c, n) in plays:
                L.clause([neg(v), cur.col[p][c]])
                L.clause([neg(v), cur.num[p][n]])
            for c in range(len(rules.colours)):
                L.clause([neg(prev.col[p][c]), cur.col[p][c], *on])
            for n in rules.numbers:
                L.clause([neg(prev.num[p][n]), cur.num[p][n], *on])
    return PlanVars(tops, x, idle, [], [])


def encode_plan(L: Any, problem: PlanProblem, rules: Rules) -> PlanVars:
    """The plan; switch k (assumed or asserted true) demands target k hold after some
    play 0..K (0 only for targets that may already hold)."""
    pv = encode_plays(L, problem, rules)
    for k, task in enumerate(problem.targets):
        first = 0 if problem.may_hold_now[k] else 1
        hs = [task_lit(L, task, pv.tops[t], rules) for t in range(first, problem.steps + 1)]
        s = L.var()
        L.clause([L.neg(s), *hs])
        pv.holds.append(hs)
        pv.switches.append(s)
    return pv


def encode_game(L: Any, problem: PlanProblem, rules: Rules, open_tasks: list[Task],
                task_pile: list[Task]) -> tuple[PlanVars, Lit]:
    """The rest of a game with everything known: returns the plays' variables and a
    literal `won` (every task fulfilled after the last play).

    done[T][t] -> T was fulfilled by play t: it was done before, or it lay open at t and
    holds at t. The open tasks lie open from the start; task j of the pile (1-based) is
    turned up as soon as j of the tasks before it (the open ones and pile tasks 1..j-1)
    are fulfilled, which is what the rulebook's "draw until four lie open" amounts to,
    cascades in one play included. One-way implications suffice: a model's `done` can
    only claim fulfilments that really happen (tested against a search of the game)."""
    pv = encode_plays(L, problem, rules)
    neg = L.neg
    K = problem.steps
    tasks = list(open_tasks) + list(task_pile)
    n_open = len(open_tasks)
    true = L.true
    done: list[list[Lit]] = []
    for j, task in enumerate(tasks):
        row = [neg(true)]  # nothing is done before the first play (open tasks do not hold)
        for t in range(1, K + 1):
            d = L.var()
            if j < n_open:
                up = true
            else:
                earlier = [done[i][t] for i in range(j)]
                up = L.count(earlier, Count("at least", j - n_open + 1))
            h = task_lit(L, task, pv.tops[t], rules)
            # d -> done before, or (up and holds now)
            now = L.var()
            L.clause([neg(now), up])
            L.clause([neg(now), h])
            L.clause([neg(d), row[t - 1], now])
            row.append(d)
        done.append(row)
        pv.holds.append(row)
    won = L.var()
    for row in done:
        L.clause([neg(won), row[K]])
    return pv, won


def decode_moves(value: Callable[[Lit], bool], pv: PlanVars, problem: PlanProblem
                 ) -> list[tuple[Card, int]]:
    """The plays of a solution, in order: (card, pile); value(lit) -> bool."""
    moves = []
    for t in range(1, problem.steps + 1):
        for (tt, i, p), v in pv.x.items():
            if tt == t and value(v):
                moves.append((problem.instances[i].card, p))
    return moves


def block_line(L: Any, pv: PlanVars, problem: PlanProblem,
               line: tuple[tuple[Card, int], ...]) -> None:
    """A clause "one of plays 1..L differs from `line` (card or pile)": it blocks the
    line and every solution that merely continues it."""
    ys = []
    for t, (card, pile) in enumerate(line, 1):
        y = L.var()
        for (tt, i, p), v in pv.x.items():
            if tt == t and p == pile and problem.instances[i].card == card:
                L.clause([L.neg(v), y])
        ys.append(y)
    L.clause([L.neg(y) for y in ys])


def sat_value(model: set[int]) -> Callable[[int], bool]:
    """value(lit) of a PySAT model (its true literals)."""
    return model.__contains__


def cpsat_value(solver: Any) -> Callable[[Any], bool]:
    """value(lit) of a CP-SAT solution."""
    return lambda lit: bool(solver.boolean_value(lit))
