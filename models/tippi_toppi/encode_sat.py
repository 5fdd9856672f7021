"""CNF encoding (PySAT) of K plays and of the task language.

Per play t and pile p the top card is one-hot in colour (col[t][p][c]) and number
(num[t][p][n]). x[t,i,p] = card instance i goes on pile p in play t; at most one play per
step, idle steps only at the end; each instance at most once; a play must match the
pile's top by colour or number. A task's literal h implies the task holds on those tops
(h -> task): enough for "can it be fulfilled", and tested both ways against the engine
(h can be true exactly when the task holds).
"""

from __future__ import annotations

from dataclasses import dataclass, field

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
from solver.backends.sat import CnfBuilder
from solver.counting import Count, count_literal, counter_outputs


@dataclass
class TopsVars:
    """Literals of the top cards at one moment: col[p][c] and num[p][n] (n = number)."""

    col: list[list[int]]
    num: list[dict[int, int]]
    _filters: dict = field(default_factory=dict)


def new_tops(b: CnfBuilder, rules: Rules, name: object) -> TopsVars:
    col = [[b.var((name, "col", p, c)) for c in range(len(rules.colours))]
           for p in range(rules.piles)]
    num = [{n: b.var((name, "num", p, n)) for n in rules.numbers} for p in range(rules.piles)]
    for p in range(rules.piles):
        b.exactly_one(col[p])
        b.exactly_one(list(num[p].values()))
    return TopsVars(col, num)


def fix_tops(b: CnfBuilder, tv: TopsVars, tops: tuple[Card, ...]) -> None:
    for p, (c, n) in enumerate(tops):
        b.clause([tv.col[p][c]])
        b.clause([tv.num[p][n]])


def filter_lit(b: CnfBuilder, tv: TopsVars, f: Filter, p: int) -> int:
    """A literal equal to 'the top of pile p matches f' (both directions)."""
    key = (f, p)
    if key not in tv._filters:
        parts = []
        if f.colours is not None:
            parts.append(b.or_lit([tv.col[p][c] for c in sorted(f.colours)]))
        if f.numbers is not None:
            parts.append(b.or_lit([tv.num[p][n] for n in sorted(f.numbers)]))
        if not parts:
            t = b.var(("counting-true",))
            b.clause([t])
            parts = [t]
        tv._filters[key] = b.and_lit(parts)
    return tv._filters[key]


def _units(b: CnfBuilder, tv: TopsVars, f: Filter, rules: Rules) -> list[int]:
    """Unary literals whose count is the sum of the tops matching f: for each pile and
    k = 1..max, 'the top matches f and shows at least k'."""
    out = []
    for p in range(rules.piles):
        fl = filter_lit(b, tv, f, p)
        for k in range(1, max(rules.numbers) + 1):
            at_least = [tv.num[p][n] for n in rules.numbers if n >= k]
            out.append(b.and_lit([fl, b.or_lit(at_least)]))
    return out


def _present(b: CnfBuilder, tv: TopsVars, f: Filter, rules: Rules, h: int) -> None:
    if not f.is_all:
        b.clause([-h, *(filter_lit(b, tv, f, p) for p in range(rules.piles))])


def task_lit(b: CnfBuilder, task: Task, tv: TopsVars, rules: Rules) -> int:
    """A literal h with h -> task holds on the tops tv."""
    piles = range(rules.piles)
    h = b.fresh()
    if isinstance(task, CountTask):
        b.implies(h, count_literal(b, [filter_lit(b, tv, task.filter, p) for p in piles],
                                   task.count))
    elif isinstance(task, AllTask):
        for p in piles:
            b.implies(h, filter_lit(b, tv, task.filter, p))
    elif isinstance(task, SumTask):
        _present(b, tv, task.filter, rules, h)
        b.implies(h, count_literal(b, _units(b, tv, task.filter, rules), task.count))
    elif isinstance(task, CompareTask):
        _present(b, tv, task.left, rules, h)
        _present(b, tv, task.right, rules, h)
        if task.measure == "sum":
            a_lits = _units(b, tv, task.left, rules)
            b_lits = _units(b, tv, task.right, rules)
        else:
            a_lits = [filter_lit(b, tv, task.left, p) for p in piles]
            b_lits = [filter_lit(b, tv, task.right, p) for p in piles]
        _compare(b, h, a_lits, b_lits, task.relation)
    elif isinstance(task, AdjacentTask):
        n = rules.piles
        pairs = [(i, j) for i in range(n) for j in range(n) if i != j
                 and ((i, j) in rules.neighbours) == (task.mode != "apart")]
        if task.mode == "none":
            for i, j in pairs:
                b.clause([-h, -filter_lit(b, tv, task.a, i), -filter_lit(b, tv, task.b, j)])
        else:
            zs = []
            for i, j in pairs:
                z = b.fresh()
                b.implies(z, filter_lit(b, tv, task.a, i))
                b.implies(z, filter_lit(b, tv, task.b, j))
                zs.append(z)
            b.clause([-h, *zs])
    elif isinstance(task, SameAdjacentTask):
        values = _attribute(tv, task.attribute)
        if task.negated:
            for i, j in rules.adjacent:
                for v in values[i]:
                    b.clause([-h, -values[i][v], -values[j][v]])
        else:
            zs = []
            for i, j in rules.adjacent:
                for v in values[i]:
                    z = b.fresh()
                    b.implies(z, values[i][v])
                    b.implies(z, values[j][v])
                    zs.append(z)
            b.clause([-h, *zs])
    elif isinstance(task, DistinctTask):
        values = _attribute(tv, task.attribute)
        for i in piles:
            for j in piles:
                if i < j:
                    for v in values[i]:
                        if task.same:
                            b.clause([-h, -values[i][v], values[j][v]])
                        else:
                            b.clause([-h, -values[i][v], -values[j][v]])
    elif isinstance(task, RunTask):
        if task.length == 0:
            for i in range(rules.piles - 1):
                for a in rules.numbers:
                    b.clause([-h, -tv.num[i][a],
                              *(tv.num[i + 1][c] for c in rules.numbers if c > a)])
        else:
            starts = []
            lo, hi = min(rules.numbers), max(rules.numbers)
            for s in range(lo, hi - task.length + 2):
                r = b.fresh()
                for v in range(s, s + task.length):
                    b.clause([-r, *(tv.num[p][v] for p in piles)])
                starts.append(r)
            b.clause([-h, *starts])
    else:  # pragma: no cover - every kind of task is encoded above
        raise TypeError(f"no SAT encoding for {type(task).__name__}")
    return h


def _attribute(tv: TopsVars, attribute: int) -> list[dict[int, int]]:
    if attribute == 0:
        return [dict(enumerate(row)) for row in tv.col]
    return tv.num


def _compare(b: CnfBuilder, h: int, a_lits: list[int], b_lits: list[int], relation: str
             ) -> None:
    """h -> (count of a_lits) relation (count of b_lits), with relation equal / double /
    greater, through counters whose outputs say 'at least j'."""
    na, nb = len(a_lits), len(b_lits)
    a = counter_outputs(b, a_lits, na)  # a[j-1] <-> A >= j
    c = counter_outputs(b, b_lits, nb)

    def ge(outs: list[int], j: int) -> int | None:  # literal of "at least j", None = true
        if j <= 0:
            return None
        return outs[j - 1] if j <= len(outs) else 0  # 0 stands for false

    def clause(*lits: int | None) -> None:
        # None is true (clause satisfied); 0 is false (dropped)
        if any(x is None for x in lits):
            return
        b.clause([x for x in lits if x != 0])

    def neg(x: int | None) -> int | None:
        if x is None:
            return 0
        return None if x == 0 else -x
    if relation == "equal":
        for j in range(1, max(na, nb) + 1):
            clause(-h, neg(ge(a, j)), ge(c, j))
            clause(-h, neg(ge(c, j)), ge(a, j))
    elif relation == "double":  # A = 2B  <=>  for all j: B >= j <-> A >= 2j-1 <-> A >= 2j
        for j in range(1, max(na, nb) + 1):
            clause(-h, neg(ge(c, j)), ge(a, 2 * j))
            clause(-h, neg(ge(a, 2 * j - 1)), ge(c, j))
    else:  # A > B  <=>  for all j: B >= j -> A >= j+1, and A >= 1
        clause(-h, ge(a, 1))
        for j in range(1, nb + 1):
            clause(-h, neg(ge(c, j)), ge(a, j + 1))


# --------------------------------------------------------------------------- plays

@dataclass
class PlanVars:
    """The variables of a K-play plan: tops[t] (t = 0..K), plays x[(t, i, p)], idle[t]."""

    tops: list[TopsVars]
    x: dict[tuple[int, int, int], int]
    idle: list[int]
    switches: list[int]
    holds: list[list[int]]


def encode_plan(b: CnfBuilder, problem: PlanProblem, rules: Rules) -> PlanVars:
    """The plan's clauses; switch k (assumed true) demands target k hold after some play
    0..K (0 only for targets that may already hold)."""
    pv = encode_plays(b, problem, rules)
    for k, task in enumerate(problem.targets):
        first = 0 if problem.may_hold_now[k] else 1
        hs = [task_lit(b, task, pv.tops[t], rules) for t in range(first, problem.steps + 1)]
        s = b.var(("switch", k))
        b.clause([-s, *hs])
        pv.holds.append(hs)
        pv.switches.append(s)
    return pv


def encode_plays(b: CnfBuilder, problem: PlanProblem, rules: Rules) -> PlanVars:
    """The K plays alone: legal plays, the tops they leave, idle steps at the end."""
    K = problem.steps
    tops = [new_tops(b, rules, ("tops", t)) for t in range(K + 1)]
    fix_tops(b, tops[0], problem.tops)
    x: dict[tuple[int, int, int], int] = {}
    idle = [b.var(("idle", t)) for t in range(K + 1)]
    for t in range(1, K + 1):
        step = []
        for i, inst in enumerate(problem.instances):
            if problem.usable(t, i):
                for p in range(rules.piles):
                    v = b.var(("x", t, i, p))
                    x[(t, i, p)] = v
                    step.append(v)
                    # legal: the card matches the top by colour or number
                    c, n = inst.card
                    b.clause([-v, tops[t - 1].col[p][c], tops[t - 1].num[p][n]])
        b.exactly_one(step + [idle[t]])
        if t < K:
            b.implies(idle[t], idle[t + 1])  # idle steps only at the end
    for i in range(len(problem.instances)):
        b.at_most([v for (t, j, p), v in x.items() if j == i], 1)
    for t in range(1, K + 1):
        prev, cur = tops[t - 1], tops[t]
        for p in range(rules.piles):
            plays = [(v, problem.instances[i].card) for (tt, i, pp), v in x.items()
                     if tt == t and pp == p]
            on = b.or_lit([v for v, _ in plays]) if plays else None
            for v, (c, n) in plays:
                b.implies(v, cur.col[p][c])
                b.implies(v, cur.num[p][n])
            for c in range(len(rules.colours)):
                b.clause([-prev.col[p][c], cur.col[p][c]] + ([on] if on else []))
            for n in rules.numbers:
                b.clause([-prev.num[p][n], cur.num[p][n]] + ([on] if on else []))
    return PlanVars(tops, x, idle, [], [])


def encode_game(b: CnfBuilder, problem: PlanProblem, rules: Rules, open_tasks: list[Task],
                task_pile: list[Task]) -> tuple[PlanVars, int]:
    """The rest of a game with everything known: returns the plays' variables and a
    literal `won` (every task fulfilled after the last play).

    done[T][t] -> T was fulfilled by play t: it was done before, or it lay open at t and
    holds at t. The open tasks lie open from the start; task j of the pile (1-based) is
    turned up as soon as j of the tasks before it (the open ones and pile tasks 1..j-1)
    are fulfilled, which is what the rulebook's "draw until four lie open" amounts to,
    cascades in one play included. One-way implications suffice: a model's `done` can
    only claim fulfilments that really happen (tested against a search of the game)."""
    pv = encode_plays(b, problem, rules)
    K = problem.steps
    tasks = list(open_tasks) + list(task_pile)
    n_open = len(open_tasks)
    true = b.var(("counting-true",))
    b.clause([true])
    done: list[list[int]] = []
    for j, task in enumerate(tasks):
        row = [-true]  # nothing is done before the first play (open tasks do not hold)
        for t in range(1, K + 1):
            d = b.fresh()
            if j < n_open:
                up = true
            else:
                earlier = [done[i][t] for i in range(j)]
                up = count_literal(b, earlier, Count("at least", j - n_open + 1))
            h = task_lit(b, task, pv.tops[t], rules)
            # d -> done before, or (up and holds now)
            now = b.fresh()
            b.implies(now, up)
            b.implies(now, h)
            b.clause([-d, row[t - 1], now])
            row.append(d)
        done.append(row)
        pv.holds.append(row)
    won = b.var(("won",))
    for row in done:
        b.implies(won, row[K])
    return pv, won


def decode_moves(model: set[int], pv: PlanVars, problem: PlanProblem
                 ) -> list[tuple[Card, int]]:
    """The plays of a model, in order: (card, pile)."""
    moves = []
    for t in range(1, problem.steps + 1):
        for (tt, i, p), v in pv.x.items():
            if tt == t and v in model:
                moves.append((problem.instances[i].card, p))
    return moves
