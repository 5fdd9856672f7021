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


def new_tops(logic: Any, rules: Rules) -> TopsVars:
    col = [[logic.var() for _ in rules.colours] for _ in range(rules.piles)]
    num = [{n: logic.var() for n in rules.numbers} for _ in range(rules.piles)]
    for p in range(rules.piles):
        logic.exactly_one(col[p])
        logic.exactly_one(list(num[p].values()))
    return TopsVars(col, num)


def fix_tops(logic: Any, top_vars: TopsVars, tops: tuple[Card, ...]) -> None:
    for p, (c, n) in enumerate(tops):
        logic.clause([top_vars.col[p][c]])
        logic.clause([top_vars.num[p][n]])


def tops_of(value: Callable[[Lit], bool], top_vars: TopsVars, rules: Rules) -> tuple[Card, ...]:
    """The top cards a solution gives `top_vars` (value(lit) -> bool)."""
    return tuple((next(c for c, x in enumerate(top_vars.col[p]) if value(x)),
                  next(n for n, x in top_vars.num[p].items() if value(x)))
                 for p in range(rules.piles))


def filter_lit(logic: Any, top_vars: TopsVars, f: Filter, p: int) -> Lit:
    """A literal equal to 'the top of pile p matches f' (both directions)."""
    key = (f, p)
    if key not in top_vars.filters:
        parts = []
        if f.colours is not None:
            parts.append(logic.or_([top_vars.col[p][c] for c in sorted(f.colours)]))
        if f.numbers is not None:
            parts.append(logic.or_([top_vars.num[p][n] for n in sorted(f.numbers)]))
        if not parts:
            parts = [logic.true]
        top_vars.filters[key] = logic.and_(parts)
    return top_vars.filters[key]


def _units(logic: Any, top_vars: TopsVars, f: Filter, rules: Rules) -> list[Lit]:
    """Unary literals whose count is the sum of the tops matching f: for each pile and
    k = 1..max, 'the top matches f and shows at least k'."""
    out = []
    for p in range(rules.piles):
        fl = filter_lit(logic, top_vars, f, p)
        for k in range(1, max(rules.numbers) + 1):
            at_least = [top_vars.num[p][n] for n in rules.numbers if n >= k]
            out.append(logic.and_([fl, logic.or_(at_least)]))
    return out


def _present(logic: Any, top_vars: TopsVars, f: Filter, rules: Rules, h: Lit,
             implied: bool = False) -> None:
    """h -> some pile matches f: the "present" reading of comparisons asks it of every
    group a sum or comparison names. As worded it is written only where the task implies
    it anyway (`implied`: a sum that cannot be 0, the larger side of "greater"), so
    those tasks keep the clauses, and the puzzle ratings' CaDiCaL effort, they had under
    either reading."""
    if (implied or rules.comparisons == "present") and not f.is_all:
        logic.clause([logic.neg(h), *(filter_lit(logic, top_vars, f, p) for p in range(rules.piles))])


def task_lit(logic: Any, task: Task, top_vars: TopsVars, rules: Rules) -> Lit:
    """A literal h with h -> task holds on the tops top_vars."""
    piles = range(rules.piles)
    neg = logic.neg
    h = logic.var()
    if isinstance(task, CountTask):
        logic.clause([neg(h), logic.count([filter_lit(logic, top_vars, task.filter, p) for p in piles],
                                  task.count)])
    elif isinstance(task, AllTask):
        for p in piles:
            logic.clause([neg(h), filter_lit(logic, top_vars, task.filter, p)])
    elif isinstance(task, SumTask):
        _present(logic, top_vars, task.filter, rules, h, not task.count.holds(0))
        logic.clause([neg(h), logic.count(_units(logic, top_vars, task.filter, rules), task.count)])
    elif isinstance(task, CompareTask):
        _compare_task(logic, task, top_vars, rules, h)
    elif isinstance(task, AdjacentTask):
        _adjacent_task(logic, task, top_vars, rules, h)
    elif isinstance(task, SameAdjacentTask):
        _same_adjacent_task(logic, task, top_vars, rules, h)
    elif isinstance(task, DistinctTask):
        _distinct_task(logic, task, top_vars, rules, h)
    elif isinstance(task, RunTask):
        _run_task(logic, task, top_vars, rules, h)
    else:  # pragma: no cover - every kind of task is encoded above
        raise TypeError(f"no encoding for {type(task).__name__}")
    return h


# Each kind of task below writes its clauses on h (h -> the task holds), in the order
# they always had: the clauses decide the puzzle ratings' CaDiCaL effort.

def _compare_task(logic: Any, task: CompareTask, top_vars: TopsVars, rules: Rules,
                  h: Lit) -> None:
    piles = range(rules.piles)
    _present(logic, top_vars, task.left, rules, h, task.relation == "greater")
    _present(logic, top_vars, task.right, rules, h)
    if task.measure == "sum":
        left = _units(logic, top_vars, task.left, rules)
        right = _units(logic, top_vars, task.right, rules)
    else:
        left = [filter_lit(logic, top_vars, task.left, p) for p in piles]
        right = [filter_lit(logic, top_vars, task.right, p) for p in piles]
    _compare(logic, h, left, right, task.relation)


def _adjacent_task(logic: Any, task: AdjacentTask, top_vars: TopsVars, rules: Rules,
                   h: Lit) -> None:
    neg = logic.neg
    n = rules.piles
    pairs = [(i, j) for i in range(n) for j in range(n) if i != j
             and ((i, j) in rules.neighbours) == (task.mode != "apart")]
    if task.mode == "none":
        for i, j in pairs:
            logic.clause([neg(h), neg(filter_lit(logic, top_vars, task.a, i)),
                      neg(filter_lit(logic, top_vars, task.b, j))])
    else:
        zs = []
        for i, j in pairs:
            z = logic.var()
            logic.clause([neg(z), filter_lit(logic, top_vars, task.a, i)])
            logic.clause([neg(z), filter_lit(logic, top_vars, task.b, j)])
            zs.append(z)
        logic.clause([neg(h), *zs])


def _same_adjacent_task(logic: Any, task: SameAdjacentTask, top_vars: TopsVars,
                        rules: Rules, h: Lit) -> None:
    neg = logic.neg
    values = _attribute(top_vars, task.attribute)
    if task.negated:
        for i, j in rules.adjacent:
            for v in values[i]:
                logic.clause([neg(h), neg(values[i][v]), neg(values[j][v])])
    else:
        zs = []
        for i, j in rules.adjacent:
            for v in values[i]:
                z = logic.var()
                logic.clause([neg(z), values[i][v]])
                logic.clause([neg(z), values[j][v]])
                zs.append(z)
        logic.clause([neg(h), *zs])


def _distinct_task(logic: Any, task: DistinctTask, top_vars: TopsVars, rules: Rules,
                   h: Lit) -> None:
    neg = logic.neg
    piles = range(rules.piles)
    values = _attribute(top_vars, task.attribute)
    for i in piles:
        for j in piles:
            if i < j:
                for v in values[i]:
                    if task.same:
                        logic.clause([neg(h), neg(values[i][v]), values[j][v]])
                    else:
                        logic.clause([neg(h), neg(values[i][v]), neg(values[j][v])])


def _run_task(logic: Any, task: RunTask, top_vars: TopsVars, rules: Rules, h: Lit) -> None:
    neg = logic.neg
    piles = range(rules.piles)
    if task.length == 0:
        for i in range(rules.piles - 1):
            for a in rules.numbers:
                logic.clause([neg(h), neg(top_vars.num[i][a]),
                          *(top_vars.num[i + 1][c] for c in rules.numbers if c > a)])
    else:
        starts = []
        lo, hi = min(rules.numbers), max(rules.numbers)
        for s in range(lo, hi - task.length + 2):
            r = logic.var()
            for v in range(s, s + task.length):
                logic.clause([neg(r), *(top_vars.num[p][v] for p in piles)])
            starts.append(r)
        logic.clause([neg(h), *starts])


def _attribute(top_vars: TopsVars, attribute: int) -> list[dict[int, Lit]]:
    if attribute == 0:
        return [dict(enumerate(row)) for row in top_vars.col]
    return top_vars.num


# "at least j" beyond a counter's range: constants, dropped from or satisfying a clause
_TRUE, _FALSE = object(), object()


def _compare(logic: Any, h: Lit, a_lits: list[Lit], b_lits: list[Lit], relation: str) -> None:
    """h -> (count of a_lits) relation (count of b_lits), with relation equal / double /
    greater, through counters whose outputs say 'at least j'."""
    na, nb = len(a_lits), len(b_lits)
    a = logic.at_least_outputs(a_lits, na)  # a[j-1] <-> A >= j
    c = logic.at_least_outputs(b_lits, nb)

    def ge(outs: list[Lit], j: int) -> Any:
        if j <= 0:
            return _TRUE
        return outs[j - 1] if j <= len(outs) else _FALSE

    def neg(x: Any) -> Any:
        return _FALSE if x is _TRUE else _TRUE if x is _FALSE else logic.neg(x)

    def clause(*lits: Any) -> None:
        if any(x is _TRUE for x in lits):
            return
        logic.clause([x for x in lits if x is not _FALSE])

    if relation == "equal":
        for j in range(1, max(na, nb) + 1):
            clause(logic.neg(h), neg(ge(a, j)), ge(c, j))
            clause(logic.neg(h), neg(ge(c, j)), ge(a, j))
    elif relation == "double":  # A = 2B  <=>  for all j: B >= j <-> A >= 2j-1 <-> A >= 2j
        for j in range(1, max(na, nb) + 1):
            clause(logic.neg(h), neg(ge(c, j)), ge(a, 2 * j))
            clause(logic.neg(h), neg(ge(a, 2 * j - 1)), ge(c, j))
    else:  # A > B  <=>  for all j: B >= j -> A >= j+1, and A >= 1
        clause(logic.neg(h), ge(a, 1))
        for j in range(1, nb + 1):
            clause(logic.neg(h), neg(ge(c, j)), ge(a, j + 1))


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


def encode_plays(logic: Any, problem: PlanProblem, rules: Rules) -> PlanVars:
    """The K plays alone: legal plays, the tops they leave, idle steps at the end."""
    K = problem.steps
    neg = logic.neg
    tops = [new_tops(logic, rules) for _ in range(K + 1)]
    fix_tops(logic, tops[0], problem.tops)
    x: dict[tuple[int, int, int], Lit] = {}
    idle = [logic.var() for _ in range(K + 1)]
    for t in range(1, K + 1):
        step = []
        for i, inst in enumerate(problem.instances):
            if problem.usable(t, i):
                for p in range(rules.piles):
                    v = logic.var()
                    x[(t, i, p)] = v
                    step.append(v)
                    # legal: the card matches the top by colour or number
                    c, n = inst.card
                    logic.clause([neg(v), tops[t - 1].col[p][c], tops[t - 1].num[p][n]])
        logic.exactly_one(step + [idle[t]])
        if t < K:
            logic.clause([neg(idle[t]), idle[t + 1]])  # idle steps only at the end
    for i in range(len(problem.instances)):
        logic.at_most_one([v for (t, j, p), v in x.items() if j == i])
    for t in range(1, K + 1):
        prev, cur = tops[t - 1], tops[t]
        for p in range(rules.piles):
            plays = [(v, problem.instances[i].card) for (tt, i, pp), v in x.items()
                     if tt == t and pp == p]
            on = [logic.or_([v for v, _ in plays])] if plays else []
            for v, (c, n) in plays:
                logic.clause([neg(v), cur.col[p][c]])
                logic.clause([neg(v), cur.num[p][n]])
            for c in range(len(rules.colours)):
                logic.clause([neg(prev.col[p][c]), cur.col[p][c], *on])
            for n in rules.numbers:
                logic.clause([neg(prev.num[p][n]), cur.num[p][n], *on])
    return PlanVars(tops, x, idle, [], [])


def encode_plan(logic: Any, problem: PlanProblem, rules: Rules) -> PlanVars:
    """The plan; switch k (assumed or asserted true) demands target k hold after some
    play 0..K (0 only for targets that may already hold)."""
    plan = encode_plays(logic, problem, rules)
    for k, task in enumerate(problem.targets):
        first = 0 if problem.may_hold_now[k] else 1
        hs = [task_lit(logic, task, plan.tops[t], rules) for t in range(first, problem.steps + 1)]
        s = logic.var()
        logic.clause([logic.neg(s), *hs])
        plan.holds.append(hs)
        plan.switches.append(s)
    return plan


def encode_game(logic: Any, problem: PlanProblem, rules: Rules, open_tasks: list[Task],
                task_pile: list[Task]) -> tuple[PlanVars, Lit]:
    """The rest of a game with everything known: returns the plays' variables and a
    literal `won` (every task fulfilled after the last play).

    done[T][t] -> T was fulfilled by play t: it was done before, or it lay open at t and
    holds at t. The open tasks lie open from the start; task j of the pile (1-based) is
    turned up as soon as j of the tasks before it (the open ones and pile tasks 1..j-1)
    are fulfilled, which is what the rulebook's "draw until four lie open" amounts to,
    cascades in one play included. One-way implications suffice: a model's `done` can
    only claim fulfilments that really happen (tested against a search of the game)."""
    plan = encode_plays(logic, problem, rules)
    neg = logic.neg
    K = problem.steps
    tasks = list(open_tasks) + list(task_pile)
    n_open = len(open_tasks)
    true = logic.true
    done: list[list[Lit]] = []
    for j, task in enumerate(tasks):
        row = [neg(true)]  # nothing is done before the first play (open tasks do not hold)
        for t in range(1, K + 1):
            d = logic.var()
            if j < n_open:
                up = true
            else:
                earlier = [done[i][t] for i in range(j)]
                up = logic.count(earlier, Count("at least", j - n_open + 1))
            h = task_lit(logic, task, plan.tops[t], rules)
            # d -> done before, or (up and holds now)
            now = logic.var()
            logic.clause([neg(now), up])
            logic.clause([neg(now), h])
            logic.clause([neg(d), row[t - 1], now])
            row.append(d)
        done.append(row)
        plan.holds.append(row)
    won = logic.var()
    for row in done:
        logic.clause([neg(won), row[K]])
    return plan, won


def decode_moves(value: Callable[[Lit], bool], plan: PlanVars, problem: PlanProblem
                 ) -> list[tuple[Card, int]]:
    """The plays of a solution, in order: (card, pile); value(lit) -> bool."""
    moves = []
    for t in range(1, problem.steps + 1):
        for (tt, i, p), v in plan.x.items():
            if tt == t and value(v):
                moves.append((problem.instances[i].card, p))
    return moves


def block_line(logic: Any, plan: PlanVars, problem: PlanProblem,
               line: tuple[tuple[Card, int], ...]) -> None:
    """A clause "one of plays 1..logic differs from `line` (card or pile)": it blocks the
    line and every solution that merely continues it."""
    ys = []
    for t, (card, pile) in enumerate(line, 1):
        y = logic.var()
        for (tt, i, p), v in plan.x.items():
            if tt == t and p == pile and problem.instances[i].card == card:
                logic.clause([logic.neg(v), y])
        ys.append(y)
    logic.clause([logic.neg(y) for y in ys])


def sat_value(model: set[int]) -> Callable[[int], bool]:
    """value(lit) of a PySAT model (its true literals)."""
    return model.__contains__


def cpsat_value(solver: Any) -> Callable[[Any], bool]:
    """value(lit) of a CP-SAT solution."""
    return lambda lit: bool(solver.boolean_value(lit))
