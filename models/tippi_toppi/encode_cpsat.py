"""CP-SAT encoding of K plays and of the task language (the twin of encode_sat.py).

Per play t and pile p the top card is an integer colour col[t][p] and number num[t][p]
with one-hot Booleans channelled to them; the top after a play is the played card's
colour and number (a linear sum over the play Booleans) on its pile and unchanged
elsewhere. Tasks are linear constraints enforced by their literal h (h -> task holds).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ortools.sat.python import cp_model

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
from solver.counting import cpsat_count_literal

BoolVar = cp_model.IntVar


@dataclass
class CpTops:
    col: list[cp_model.IntVar]
    num: list[cp_model.IntVar]
    colb: list[list[BoolVar]]
    numb: list[dict[int, BoolVar]]
    _cache: dict = field(default_factory=dict)


def new_tops(m: cp_model.CpModel, rules: Rules, name: str) -> CpTops:
    col, num, colb, numb = [], [], [], []
    for p in range(rules.piles):
        c = m.new_int_var(0, len(rules.colours) - 1, f"{name} col {p}")
        n = m.new_int_var(min(rules.numbers), max(rules.numbers), f"{name} num {p}")
        cb = [m.new_bool_var("") for _ in rules.colours]
        nb = {k: m.new_bool_var("") for k in rules.numbers}
        m.add_exactly_one(cb)
        m.add_exactly_one(nb.values())
        m.add(c == sum(i * b for i, b in enumerate(cb)))
        m.add(n == sum(k * b for k, b in nb.items()))
        col.append(c)
        num.append(n)
        colb.append(cb)
        numb.append(nb)
    return CpTops(col, num, colb, numb)


def fix_tops(m: cp_model.CpModel, tv: CpTops, tops: tuple[Card, ...]) -> None:
    for p, (c, n) in enumerate(tops):
        m.add(tv.col[p] == c)
        m.add(tv.num[p] == n)


def _match(m: cp_model.CpModel, tv: CpTops, f: Filter, p: int, n: int | None,
           rules: Rules) -> cp_model.LinearExpr | BoolVar | int:
    """Boolean: pile p's top matches f (and shows n if n is given)."""
    key = (f, p, n)
    if key in tv._cache:
        return tv._cache[key]
    colours = range(len(rules.colours)) if f.colours is None else sorted(f.colours)
    numbers = rules.numbers if f.numbers is None else sorted(f.numbers)
    if n is not None:
        numbers = [n] if n in numbers else []
    cok = sum(tv.colb[p][c] for c in colours)
    nok = sum(tv.numb[p][k] for k in numbers)
    y = m.new_bool_var("")
    m.add(y <= cok)
    m.add(y <= nok)
    m.add(y >= cok + nok - 1)
    tv._cache[key] = y
    return y


def _count(m: cp_model.CpModel, tv: CpTops, f: Filter, rules: Rules) -> list[BoolVar]:
    return [_match(m, tv, f, p, None, rules) for p in range(rules.piles)]


def _sum(m: cp_model.CpModel, tv: CpTops, f: Filter, rules: Rules) -> cp_model.LinearExpr:
    return sum(k * _match(m, tv, f, p, k, rules)
               for p in range(rules.piles) for k in rules.numbers)


def task_lit(m: cp_model.CpModel, task: Task, tv: CpTops, rules: Rules) -> BoolVar:
    """A Boolean h with h -> task holds on the tops tv."""
    h = m.new_bool_var("task")
    piles = range(rules.piles)
    if isinstance(task, CountTask):
        m.add_implication(h, cpsat_count_literal(m, _count(m, tv, task.filter, rules),
                                                 task.count))
    elif isinstance(task, AllTask):
        m.add_bool_and(_count(m, tv, task.filter, rules)).only_enforce_if(h)
    elif isinstance(task, SumTask):
        if not task.filter.is_all:
            m.add(sum(_count(m, tv, task.filter, rules)) >= 1).only_enforce_if(h)
        s = _sum(m, tv, task.filter, rules)
        op, k = task.count.op, task.count.k
        m.add(s == k if op == "exactly" else s >= k if op == "at least" else s <= k
              ).only_enforce_if(h)
    elif isinstance(task, CompareTask):
        for f in (task.left, task.right):
            if not f.is_all:
                m.add(sum(_count(m, tv, f, rules)) >= 1).only_enforce_if(h)
        if task.measure == "sum":
            a, b = _sum(m, tv, task.left, rules), _sum(m, tv, task.right, rules)
        else:
            a, b = sum(_count(m, tv, task.left, rules)), sum(_count(m, tv, task.right, rules))
        rel = {"equal": a == b, "double": a == 2 * b, "greater": a >= b + 1}[task.relation]
        m.add(rel).only_enforce_if(h)
    elif isinstance(task, AdjacentTask):
        fa, fb = _count(m, tv, task.a, rules), _count(m, tv, task.b, rules)
        pairs = [(i, j) for i in piles for j in piles if i != j
                 and ((i, j) in rules.neighbours) == (task.mode != "apart")]
        if task.mode == "none":
            for i, j in pairs:
                m.add_bool_or([fa[i].Not(), fb[j].Not()]).only_enforce_if(h)
        else:
            zs = []
            for i, j in pairs:
                z = m.new_bool_var("")
                m.add_implication(z, fa[i])
                m.add_implication(z, fb[j])
                zs.append(z)
            m.add_bool_or(zs).only_enforce_if(h)
    elif isinstance(task, SameAdjacentTask):
        xs = tv.col if task.attribute == 0 else tv.num
        if task.negated:
            for i, j in rules.adjacent:
                m.add(xs[i] != xs[j]).only_enforce_if(h)
        else:
            zs = []
            for i, j in rules.adjacent:
                z = m.new_bool_var("")
                m.add(xs[i] == xs[j]).only_enforce_if(z)
                zs.append(z)
            m.add_bool_or(zs).only_enforce_if(h)
    elif isinstance(task, DistinctTask):
        xs = tv.col if task.attribute == 0 else tv.num
        for i in piles:
            for j in piles:
                if i < j:
                    m.add(xs[i] == xs[j] if task.same else xs[i] != xs[j]).only_enforce_if(h)
    elif isinstance(task, RunTask):
        if task.length == 0:
            for i in range(rules.piles - 1):
                m.add(tv.num[i] < tv.num[i + 1]).only_enforce_if(h)
        else:
            lo, hi = min(rules.numbers), max(rules.numbers)
            starts = []
            for s in range(lo, hi - task.length + 2):
                r = m.new_bool_var("")
                for v in range(s, s + task.length):
                    m.add_bool_or([tv.numb[p][v] for p in piles]).only_enforce_if(r)
                starts.append(r)
            m.add_bool_or(starts).only_enforce_if(h)
    else:  # pragma: no cover - every kind of task is encoded above
        raise TypeError(f"no CP-SAT encoding for {type(task).__name__}")
    return h


@dataclass
class CpPlan:
    tops: list[CpTops]
    x: dict[tuple[int, int, int], BoolVar]
    switches: list[BoolVar]


def encode_plan(m: cp_model.CpModel, problem: PlanProblem, rules: Rules) -> CpPlan:
    """The plan as a CP-SAT model; switch k -> target k holds after some play."""
    K = problem.steps
    tops = [new_tops(m, rules, f"t{t}") for t in range(K + 1)]
    fix_tops(m, tops[0], problem.tops)
    x: dict[tuple[int, int, int], BoolVar] = {}
    idle = [m.new_bool_var(f"idle {t}") for t in range(K + 1)]
    for t in range(1, K + 1):
        step = []
        for i, inst in enumerate(problem.instances):
            if problem.usable(t, i):
                c, n = inst.card
                for p in range(rules.piles):
                    v = m.new_bool_var(f"x {t} {i} {p}")
                    x[(t, i, p)] = v
                    step.append(v)
                    m.add_bool_or([tops[t - 1].colb[p][c], tops[t - 1].numb[p][n]]
                                  ).only_enforce_if(v)
        m.add_exactly_one(step + [idle[t]])
        if t < K:
            m.add_implication(idle[t], idle[t + 1])
    for i in range(len(problem.instances)):
        m.add_at_most_one([v for (t, j, p), v in x.items() if j == i])
    for t in range(1, K + 1):
        prev, cur = tops[t - 1], tops[t]
        for p in range(rules.piles):
            plays = [(v, problem.instances[i].card) for (tt, i, pp), v in x.items()
                     if tt == t and pp == p]
            on = m.new_bool_var("")
            m.add(sum(v for v, _ in plays) == on)
            m.add(cur.col[p] == sum(c * v for v, (c, _) in plays)).only_enforce_if(on)
            m.add(cur.num[p] == sum(n * v for v, (_, n) in plays)).only_enforce_if(on)
            m.add(cur.col[p] == prev.col[p]).only_enforce_if(on.Not())
            m.add(cur.num[p] == prev.num[p]).only_enforce_if(on.Not())
    switches = []
    for k, task in enumerate(problem.targets):
        first = 0 if problem.may_hold_now[k] else 1
        hs = [task_lit(m, task, tops[t], rules) for t in range(first, K + 1)]
        s = m.new_bool_var(f"switch {k}")
        m.add_bool_or(hs).only_enforce_if(s)
        switches.append(s)
    return CpPlan(tops, x, switches)


def decode_moves(solver: cp_model.CpSolver, plan: CpPlan, problem: PlanProblem
                 ) -> list[tuple[Card, int]]:
    moves = []
    for t in range(1, problem.steps + 1):
        for (tt, i, p), v in plan.x.items():
            if tt == t and solver.value(v):
                moves.append((problem.instances[i].card, p))
    return moves
