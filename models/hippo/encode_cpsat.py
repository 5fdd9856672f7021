"""CP-SAT model of a solo plan: a known sequence of rolls, the board staying as the
player leaves it between turns.

Rolls are thrown in the given order; a roll that put a chip into Mr. Hippo's lane and
was not itself a bonus roll makes the next roll that turn's bonus roll. The model picks
one placement order (lane sequence) per roll and follows the pool chip by chip:

- the colours that matter to the player are only "own" and "other": other players'
  colours are interchangeable for the player's stock (whoever gets a kicked-out chip
  back, it is not the player), so each field of a lane is empty, own or other, and the
  stock is (own chips, other chips due); a chip placed is "other" exactly when the stock
  still holds due other colours (they must go first);
- under the next-turn reading (the default) the stock also holds the other chips taken
  during the turn (`fresh`): not due before the player's next turn, so while no other
  chip is due the player chooses for each chip own or fresh (`pick_fresh`); penalties
  add to `fresh`, and a roll that begins a turn makes them due. Under at-once they are
  due at once and the model is the one without `fresh`;
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

from models.hippo.dice import roll_sequences
from models.hippo.state import GameState


@dataclass
class PlanModel:
    """The model and what is needed to read a plan back."""

    model: cp_model.CpModel
    sequences: list[tuple[tuple[int, ...], ...]]  # per roll: the lane sequences
    select: list[list[cp_model.IntVar]]  # per roll, per sequence
    live: list[cp_model.IntVar]  # the stock is not empty before this roll
    bonus: list  # this roll is a bonus roll (bool var or constant)
    # per roll, per die: a fresh other chip is placed by choice (bool var; 0 where the
    # reading or the dice leave no choice)
    pick_fresh: list[list]
    stock_after: list  # own + other chips after each roll
    finish: cp_model.IntVar  # turns used if the stock is emptied, else rolls + 1
    big: int  # objective = finish * big + chips left


def build(state: GameState, rolls: list[tuple[int, ...]]) -> PlanModel:
    """The CP-SAT model of the plan for the player on turn in `state`."""
    b = _Builder(state)
    for k, roll in enumerate(rolls):
        b.add_roll(k, roll)
    return b.done(len(rolls))


class _Builder:
    """The model grown roll by roll, die by die: the lanes' fields and the stock as
    they stand before the next chip."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        rules = self.rules = state.rules
        me = state.to_move
        self.m = cp_model.CpModel()
        cap = self.cap = rules.capacity
        self.total = rules.chips * state.players
        self.next_turn = rules.next_turn
        own0 = state.stocks[me][me]
        fresh0 = sum(state.fresh) if self.next_turn else 0
        other0 = state.stock_size(me) - own0 - fresh0
        # lane fields as (own, other) 0/1 values or bool variables, bottom first
        self.own_fields: dict[int, list] = {}
        self.other_fields: dict[int, list] = {}
        for lane in range(1, rules.lanes + 1):
            if lane == rules.hippo:
                continue
            content = state.lanes[lane]
            self.own_fields[lane] = [int(i < len(content) and content[i] == me)
                                     for i in range(cap)]
            self.other_fields[lane] = [int(i < len(content) and content[i] != me)
                                       for i in range(cap)]
        # the stock (own chips, other colours' chips) before the next die's chip
        self.stock_own: cp_model.LinearExprT = own0
        self.stock_other: cp_model.LinearExprT = other0
        self.stock_fresh: cp_model.LinearExprT = fresh0  # stays 0 under at-once
        self.sequences: list = []
        self.select: list = []
        self.live: list = []
        self.bonus: list = []
        self.stock_after: list = []
        self.pick_fresh: list[list] = []
        self.last_done = None
        self.is_bonus: object = int(state.bonus)
        self.turns_terms: list = []

    def add_roll(self, k: int, roll: tuple[int, ...]) -> None:
        """Roll k: one order chosen while the stock is not empty, a turn begun unless it
        is a bonus roll, each die's chip placed, the stock after it."""
        m, is_bonus = self.m, self.is_bonus
        seqs = roll_sequences(self.rules, tuple(sorted(roll)))
        self.sequences.append(seqs)
        is_live = m.new_bool_var(f"live{k}")
        if self.last_done is None:
            m.add(is_live == 1)
        else:
            m.add(is_live == 1 - self.last_done)
        self.live.append(is_live)
        chosen = [m.new_bool_var(f"order{k}_{q}") for q in range(len(seqs))]
        m.add(sum(chosen) == is_live)
        self.select.append(chosen)
        self.bonus.append(is_bonus)
        new_turn = m.new_bool_var(f"newturn{k}")  # a turn starts with this roll
        if isinstance(is_bonus, int):
            m.add(new_turn == is_live * (1 - is_bonus))
        else:
            m.add(new_turn <= is_live)
            m.add(new_turn <= 1 - is_bonus)
            m.add(new_turn >= is_live - is_bonus)
        self.turns_terms.append(new_turn)
        if self.next_turn:
            # a roll that begins a turn makes the other chips taken before it due
            if isinstance(is_bonus, int):
                if not is_bonus:
                    self.stock_other, self.stock_fresh = self.stock_other + self.stock_fresh, 0
            else:
                moved = m.new_int_var(0, self.total, f"due{k}")
                m.add(moved == self.stock_fresh).only_enforce_if(is_bonus.Not())
                m.add(moved == 0).only_enforce_if(is_bonus)
                self.stock_other, self.stock_fresh = (self.stock_other + moved,
                                                      self.stock_fresh - moved)
        picks: list = []
        self.pick_fresh.append(picks)
        into_hippo: list = []  # a chip of this roll goes into Mr. Hippo's lane
        for j in range(self.rules.dice):
            lanes_of_die: dict[int, list] = {}  # lane -> orders putting die j's chip there
            for q, seq in enumerate(seqs):
                if len(seq) > j:
                    lanes_of_die.setdefault(seq[j], []).append(chosen[q])
            if lanes_of_die:
                self._add_die(k, j, lanes_of_die, picks, into_hippo)
        self._end_roll(k, into_hippo)

    def _add_die(self, k: int, j: int, lanes_of_die: dict[int, list], picks: list,
                 into_hippo: list) -> None:
        """Die j's chip: which lane it goes into, its colour, the lanes and the stock
        after it."""
        m, total, cap = self.m, self.total, self.cap
        holds_any = m.new_bool_var(f"holds{k}_{j}")  # a chip is left to place
        own_held = m.new_int_var(0, total, f"own_held{k}_{j}")
        other_held = m.new_int_var(0, total, f"other_held{k}_{j}")
        m.add(own_held == self.stock_own)  # the stock when this die's chip is placed
        m.add(other_held == self.stock_other)
        held: cp_model.LinearExprT = own_held + other_held
        fresh_held = None
        if self.next_turn:
            fresh_held = m.new_int_var(0, total, f"fresh_held{k}_{j}")
            m.add(fresh_held == self.stock_fresh)
            held = held + fresh_held
        m.add(held >= 1).only_enforce_if(holds_any)
        m.add(held == 0).only_enforce_if(holds_any.Not())
        # other colours in the stock go first: this chip is one of them
        other_first = m.new_bool_var(f"other_first{k}_{j}")
        m.add(other_held >= 1).only_enforce_if(other_first)
        m.add(other_held == 0).only_enforce_if(other_first.Not())
        goes_into = {}  # lane -> this die's chip goes into it
        for lane, sels in lanes_of_die.items():
            goes = m.new_bool_var(f"goes{k}_{j}_{lane}")
            want = sum(sels)
            m.add(goes <= want)
            m.add(goes <= holds_any)
            m.add(goes >= want + holds_any - 1)
            goes_into[lane] = goes
        placed = sum(goes_into.values())
        # an other colour's chip was placed
        placed_other = m.new_bool_var(f"placed_other{k}_{j}")
        m.add(placed_other <= placed)
        m.add(placed_other <= other_first)
        m.add(placed_other >= placed + other_first - 1)
        placed_own = placed - placed_other
        chip_other: cp_model.LinearExprT = other_first  # the chip placed is other
        pick: object = 0
        if fresh_held is not None:
            pick, placed_own, chip_other = self._pick(k, j, placed, placed_other, other_first,
                                                      own_held, fresh_held)
        picks.append(pick)
        # chips the penalty gives back to the stock
        taken_own = m.new_int_var(0, cap + 1, f"taken_own{k}_{j}")
        taken_other = m.new_int_var(0, cap + 1, f"taken_other{k}_{j}")
        penalties = []
        for lane, goes in goes_into.items():
            if lane == self.rules.hippo:
                into_hippo.append(goes)
                continue
            penalties.append(self._add_lane(k, j, lane, goes, chip_other, taken_own,
                                            taken_other))
        if penalties:
            no_penalty = m.new_bool_var(f"no_penalty{k}_{j}")
            m.add(sum(penalties) + no_penalty == 1)
            m.add(taken_own == 0).only_enforce_if(no_penalty)
            m.add(taken_other == 0).only_enforce_if(no_penalty)
        else:
            m.add(taken_own == 0)
            m.add(taken_other == 0)
        self.stock_own = own_held - placed_own + taken_own
        if fresh_held is not None:  # chips taken now wait for the next turn
            self.stock_other = other_held - placed_other
            self.stock_fresh = fresh_held - pick + taken_other
        else:
            self.stock_other = other_held - placed_other + taken_other

    def _pick(self, k: int, j: int, placed: cp_model.LinearExprT,
              placed_other: cp_model.IntVar, other_first: cp_model.IntVar,
              own_held: cp_model.IntVar, fresh_held: cp_model.IntVar) -> tuple:
        """Next turn: with no other chip due the chip is own or a fresh other chip, as
        the player likes: (pick, own chips placed, the chip placed is other)."""
        m = self.m
        pick = m.new_bool_var(f"pick_fresh{k}_{j}")
        fresh_any = m.new_bool_var(f"fresh_any{k}_{j}")
        m.add(fresh_held >= 1).only_enforce_if(fresh_any)
        m.add(fresh_held == 0).only_enforce_if(fresh_any.Not())
        own_any = m.new_bool_var(f"own_any{k}_{j}")
        m.add(own_held >= 1).only_enforce_if(own_any)
        m.add(own_held == 0).only_enforce_if(own_any.Not())
        m.add(pick <= placed)
        m.add(pick <= 1 - other_first)
        m.add(pick <= fresh_any)
        placed_own = placed - placed_other - pick
        m.add(placed_own <= own_any)
        return pick, placed_own, other_first + pick

    def _add_lane(self, k: int, j: int, lane: int, goes: cp_model.IntVar,
                  chip_other: cp_model.LinearExprT, taken_own: cp_model.IntVar,
                  taken_other: cp_model.IntVar) -> cp_model.IntVar:
        """The lane's fields after die j's chip (pushed in, or the penalty); the chips
        the penalty takes. Returns the penalty's variable."""
        m, cap = self.m, self.cap
        own_field, other_field = self.own_fields[lane], self.other_fields[lane]
        penalty = m.new_bool_var(f"penalty{k}_{j}_{lane}")
        pushed = m.new_bool_var(f"pushed{k}_{j}_{lane}")
        m.add(penalty + pushed == goes)
        m.add(penalty <= own_field[cap - 1])
        m.add(pushed <= 1 - own_field[cap - 1])
        own_next = [m.new_bool_var(f"own{k}_{j}_{lane}_{i}") for i in range(cap)]
        other_next = [m.new_bool_var(f"other{k}_{j}_{lane}_{i}") for i in range(cap)]
        keeps = 0 if self.rules.penalty_takes_placed else 1  # fields left after it
        for i in range(cap):
            m.add(own_next[i] == own_field[i]).only_enforce_if(goes.Not())
            m.add(other_next[i] == other_field[i]).only_enforce_if(goes.Not())
            if i >= keeps:
                m.add(own_next[i] == 0).only_enforce_if(penalty)
                m.add(other_next[i] == 0).only_enforce_if(penalty)
        if keeps:
            m.add(own_next[0] == 1 - chip_other).only_enforce_if(penalty)
            m.add(other_next[0] == chip_other).only_enforce_if(penalty)
        m.add(own_next[0] == 1 - chip_other).only_enforce_if(pushed)
        m.add(other_next[0] == chip_other).only_enforce_if(pushed)
        for i in range(cap - 1):
            m.add(own_next[i + 1] == own_field[i]).only_enforce_if(pushed)
            m.add(other_next[i + 1] == other_field[i]).only_enforce_if(pushed)
        # the penalty takes the lane's chips, and the chip placed unless it stays
        m.add(taken_own == sum(own_field) + (1 - chip_other) * (1 - keeps)
              ).only_enforce_if(penalty)
        m.add(taken_other == sum(other_field) + chip_other * (1 - keeps)
              ).only_enforce_if(penalty)
        self.own_fields[lane], self.other_fields[lane] = own_next, other_next
        return penalty

    def _end_roll(self, k: int, into_hippo: list) -> None:
        """The stock after roll k, whether it is empty, and whether the next roll is a
        bonus roll (this one put a chip into Mr. Hippo's lane and was not itself one)."""
        m, is_bonus = self.m, self.is_bonus
        after = m.new_int_var(0, self.total, f"stock{k}")
        m.add(after == self.stock_own + self.stock_other + self.stock_fresh)
        self.stock_after.append(after)
        done = m.new_bool_var(f"done{k}")
        m.add(after == 0).only_enforce_if(done)
        m.add(after >= 1).only_enforce_if(done.Not())
        self.last_done = done
        hippo_used = sum(into_hippo) if into_hippo else 0
        next_bonus = m.new_bool_var(f"bonus{k + 1}")
        if isinstance(is_bonus, int):
            m.add(next_bonus == hippo_used * (1 - is_bonus))
        else:
            m.add(next_bonus <= hippo_used)
            m.add(next_bonus <= 1 - is_bonus)
            m.add(next_bonus >= hippo_used - is_bonus)
        self.is_bonus = next_bonus

    def done(self, n: int) -> PlanModel:
        """The objective over n rolls: fewest turns, then fewest chips left."""
        m, last_done = self.m, self.last_done
        assert last_done is not None
        finish = m.new_int_var(0, n + 1, "finish")
        # a pending bonus roll belongs to turn 1
        used = sum(self.turns_terms) + int(self.state.bonus)
        m.add(finish == used).only_enforce_if(last_done)
        m.add(finish == n + 1).only_enforce_if(last_done.Not())
        big = self.total + 1
        m.minimize(finish * big + self.stock_after[-1])
        return PlanModel(m, self.sequences, self.select, self.live, self.bonus,
                         self.pick_fresh, self.stock_after, finish, big)
