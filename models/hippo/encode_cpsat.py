"""CP-SAT model of a solo plan: a known sequence of rolls, the board staying as the
player leaves it between turns.

Rolls are thrown in the given order; a roll that put a chip into Mr. Hippo's lane and
was not itself a bonus roll makes the next roll that turn's bonus roll. The model picks
one placement order (lane sequence) per roll and follows the pool chip by chip:

- the colours that matter to the player are only "own" and "other": other players'
  colours are interchangeable for the player's stock (whoever gets a kicked-out chip
  back, it is not the player), so each field of a lane is empty, own or other, and the
  stock is (own chips, other chips); a chip placed is "other" exactly when the stock
  still holds other colours (they must go first);
- a chip entering a full lane whose top chip is the player's own is the penalty: the
  lane is emptied and all its chips plus the one placed go to the player's stock (with
  penalty_takes_placed_chip false the placed chip stays in the lane);
- the stock running out ends the plan (the player has won), later dice are unused.

Objective (lexicographic, one integer): fewest own turns until the stock is empty, else
(the stock cannot be emptied with these rolls) the fewest chips left.
Fields a roll can never reach keep the previous step's variables, so the model only
grows with the lanes the rolls can touch.
"""

from __future__ import annotations

from dataclasses import dataclass

from ortools.sat.python import cp_model

from models.hippo.rules import GameState, roll_sequences


@dataclass
class PlanModel:
    """The model and what is needed to read a plan back."""

    model: cp_model.CpModel
    sequences: list[tuple[tuple[int, ...], ...]]  # per roll: the lane sequences
    select: list[list[cp_model.IntVar]]  # per roll, per sequence
    live: list[cp_model.IntVar]  # the stock is not empty before this roll
    bonus: list  # this roll is a bonus roll (bool var or constant)
    stock_after: list  # own + other chips after each roll
    finish: cp_model.IntVar  # turns used if the stock is emptied, else rolls + 1
    big: int  # objective = finish * big + chips left


def build(state: GameState, rolls: list[tuple[int, ...]]) -> PlanModel:
    """The CP-SAT model of the plan for the player on turn in `state`."""
    rules = state.rules
    me = state.to_move
    m = cp_model.CpModel()
    cap = rules.capacity
    total = rules.chips * state.players
    own0 = state.stocks[me][me]
    other0 = state.stock_size(me) - own0
    # lane fields as (own, other) 0/1 values or bool variables, bottom first
    own_f: dict[int, list] = {}
    oth_f: dict[int, list] = {}
    for lane in range(1, rules.lanes + 1):
        if lane == rules.hippo:
            continue
        content = state.lanes[lane]
        own_f[lane] = [int(i < len(content) and content[i] == me) for i in range(cap)]
        oth_f[lane] = [int(i < len(content) and content[i] != me) for i in range(cap)]

    E: cp_model.LinearExprT = own0
    F: cp_model.LinearExprT = other0
    sequences, select, live, bonus, stock_after = [], [], [], [], []
    prev_done = None
    b_k: object = int(state.bonus)
    turns_terms = []
    for k, roll in enumerate(rolls):
        seqs = roll_sequences(rules, tuple(sorted(roll)))
        sequences.append(seqs)
        lv = m.new_bool_var(f"live{k}")
        if prev_done is None:
            m.add(lv == 1)
        else:
            m.add(lv == 1 - prev_done)
        live.append(lv)
        sel = [m.new_bool_var(f"sel{k}_{q}") for q in range(len(seqs))]
        m.add(sum(sel) == lv)
        select.append(sel)
        bonus.append(b_k)
        tb = m.new_bool_var(f"newturn{k}")  # a turn starts with this roll
        if isinstance(b_k, int):
            m.add(tb == lv * (1 - b_k))
        else:
            m.add(tb <= lv)
            m.add(tb <= 1 - b_k)
            m.add(tb >= lv - b_k)
        turns_terms.append(tb)
        used7 = []
        for j in range(rules.dice):
            intend: dict[int, list] = {}
            for q, seq in enumerate(seqs):
                if len(seq) > j:
                    intend.setdefault(seq[j], []).append(sel[q])
            if not intend:
                continue
            has = m.new_bool_var(f"has{k}_{j}")
            Ev = m.new_int_var(0, total, f"E{k}_{j}")
            Fv = m.new_int_var(0, total, f"F{k}_{j}")
            m.add(Ev == E)
            m.add(Fv == F)
            m.add(Ev + Fv >= 1).only_enforce_if(has)
            m.add(Ev + Fv == 0).only_enforce_if(has.Not())
            fore = m.new_bool_var(f"fore{k}_{j}")
            m.add(Fv >= 1).only_enforce_if(fore)
            m.add(Fv == 0).only_enforce_if(fore.Not())
            acts = {}
            for lane, sels in intend.items():
                a = m.new_bool_var(f"a{k}_{j}_{lane}")
                want = sum(sels)
                m.add(a <= want)
                m.add(a <= has)
                m.add(a >= want + has - 1)
                acts[lane] = a
            placed = sum(acts.values())
            pf = m.new_bool_var(f"pf{k}_{j}")  # an other-colour chip was placed
            m.add(pf <= placed)
            m.add(pf <= fore)
            m.add(pf >= placed + fore - 1)
            po = placed - pf
            taken_own = m.new_int_var(0, cap + 1, f"tm{k}_{j}")
            taken_oth = m.new_int_var(0, cap + 1, f"to{k}_{j}")
            pens = []
            for lane, a in acts.items():
                if lane == rules.hippo:
                    used7.append(a)
                    continue
                own_now, oth_now = own_f[lane], oth_f[lane]
                pen = m.new_bool_var(f"pen{k}_{j}_{lane}")
                push = m.new_bool_var(f"push{k}_{j}_{lane}")
                m.add(pen + push == a)
                m.add(pen <= own_now[cap - 1])
                m.add(push <= 1 - own_now[cap - 1])
                M2 = [m.new_bool_var(f"M{k}_{j}_{lane}_{i}") for i in range(cap)]
                O2 = [m.new_bool_var(f"O{k}_{j}_{lane}_{i}") for i in range(cap)]
                keeps = 0 if rules.penalty_takes_placed else 1  # fields left after it
                for i in range(cap):
                    m.add(M2[i] == own_now[i]).only_enforce_if(a.Not())
                    m.add(O2[i] == oth_now[i]).only_enforce_if(a.Not())
                    if i >= keeps:
                        m.add(M2[i] == 0).only_enforce_if(pen)
                        m.add(O2[i] == 0).only_enforce_if(pen)
                if keeps:
                    m.add(M2[0] == 1 - fore).only_enforce_if(pen)
                    m.add(O2[0] == fore).only_enforce_if(pen)
                m.add(M2[0] == 1 - fore).only_enforce_if(push)
                m.add(O2[0] == fore).only_enforce_if(push)
                for i in range(cap - 1):
                    m.add(M2[i + 1] == own_now[i]).only_enforce_if(push)
                    m.add(O2[i + 1] == oth_now[i]).only_enforce_if(push)
                placed_own = (1 - fore) * (1 - keeps)
                m.add(taken_own == sum(own_now) + placed_own).only_enforce_if(pen)
                m.add(taken_oth == sum(oth_now) + fore * (1 - keeps)).only_enforce_if(pen)
                own_f[lane], oth_f[lane] = M2, O2
                pens.append(pen)
            if pens:
                no_pen = m.new_bool_var(f"nopen{k}_{j}")
                m.add(sum(pens) + no_pen == 1)
                m.add(taken_own == 0).only_enforce_if(no_pen)
                m.add(taken_oth == 0).only_enforce_if(no_pen)
            else:
                m.add(taken_own == 0)
                m.add(taken_oth == 0)
            E = Ev - po + taken_own
            F = Fv - pf + taken_oth
        after = m.new_int_var(0, total, f"S{k}")
        m.add(after == E + F)
        stock_after.append(after)
        done = m.new_bool_var(f"done{k}")
        m.add(after == 0).only_enforce_if(done)
        m.add(after >= 1).only_enforce_if(done.Not())
        prev_done = done
        # the next roll is a bonus roll when this one used lane 7 and was not one
        u = sum(used7) if used7 else 0
        nb = m.new_bool_var(f"bonus{k + 1}")
        if isinstance(b_k, int):
            m.add(nb == u * (1 - b_k))
        else:
            m.add(nb <= u)
            m.add(nb <= 1 - b_k)
            m.add(nb >= u - b_k)
        b_k = nb
    assert prev_done is not None
    n = len(rolls)
    finish = m.new_int_var(0, n + 1, "finish")
    used = sum(turns_terms) + int(state.bonus)  # a pending bonus roll belongs to turn 1
    m.add(finish == used).only_enforce_if(prev_done)
    m.add(finish == n + 1).only_enforce_if(prev_done.Not())
    big = total + 1
    m.minimize(finish * big + stock_after[-1])
    return PlanModel(m, sequences, select, live, bonus, stock_after, finish, big)
