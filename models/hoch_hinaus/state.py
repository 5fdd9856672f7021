"""A whole game of Hoch Hinaus!: the board, the tasks (open, the draw pile, the bonus
tasks under their gap fillers, completed), the hands and the reserve, and its turns:
place (an optional gap filler, then a tile) - fulfil - draw.

What a player does not know is None: a tile in another player's hand, a task of the
face-down draw pile or under a bonus task's gap fillers, a task turned up whose face
chance has yet to show. A reserve of unknown order (`reserve_known` False) holds only
its size. Drawing from it, and turning up an unknown task, are chance events: the turn
stops there (`chance_due`) until `apply_action` (or `turn`) is given the outcome. A
dealt game knows everything, so its turns never stop.

A `Position` is what lies where and what of it is known; a `GameState` is a position
with the engine (legal placements, the turn's steps, chance). Both are immutable: every
move gives a new state (`apply_action` and `turn`: a whole turn or a chance outcome;
the rulebook's steps one by one: `placed`, `fulfilled`, `drawn`; the first two at once:
`before_draw`), and a state's lists and board are never changed once it is made (`but`
makes a changed copy). Legality is checked here and only here (`check_move`,
`check_placement`, `check_outcome`). Each move is worked out on a private working copy
(`_Turn`), frozen into the new state.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal, Self

from models.hoch_hinaus.board import Action, Board, action_text
from models.hoch_hinaus.rules import Rules
from solver.errors import BadInput

if TYPE_CHECKING:
    from models.hoch_hinaus.tasks import Catalogue, Task

    #: A player's placement, a tile drawn (its id) or a task turned up.
    Move = Action | str | Task

Status = Literal["playing", "won", "lost"]

#: The draw into a hand with unknown tiles ('?'): the tile drawn is not seen (a chance
#: outcome of its own, in place of a tile's id).
UNSEEN = "?"

#: What the rulebook's difficulty table (first game 14 ... champions 22) counts: the
#: draw pile alone, as its setup says ("count out tasks and form a face-down draw pile
#: with them"; "pile"), or the open tasks and the draw pile together ("total").
TASK_COUNTS = ("pile", "total")


@dataclass(frozen=True)
class Bonus:
    """A face-down bonus task with the gap fillers lying on it."""

    task: Task | None  # None: unknown (or gone, once its last gap filler is taken)
    fillers: int


class _Views:
    """What a state and the engine's working copy (`_Turn`) both read of their fields."""

    rules: Rules
    board: Board
    open: list[Task | None]
    bonus: list[Bonus]
    hands: list[list[str | None]]
    reserve: list[str | None]
    on_turn: int
    pros: bool
    status: Status
    draw_due: bool
    spare_fillers: int

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def board_only(self) -> bool:
        return not self.hands

    @property
    def fillers_left(self) -> int:
        return sum(b.fillers for b in self.bonus) + self.spare_fillers

    @property
    def task_due(self) -> bool:
        """A task was turned up whose face chance has yet to show."""
        for t in self.open:  # (a loop: this is asked in every turn of the searches)
            if t is None:
                return True
        return False

    @property
    def chance_due(self) -> bool:
        return self.draw_due or self.task_due

    def stuck(self) -> bool:
        """The player on turn of a game in play cannot place any tile they may hold: a
        known one, or (for an unknown tile) any tile not seen anywhere."""
        if self.status != "playing" or not self.hands:
            return False
        return not self.board.can_place(self.may_hold(self.on_turn), self.pros,
                                        self.fillers_left > 0)

    def may_hold(self, seat: int) -> list[str]:
        """The tiles `seat` may place: their known tiles, and with an unknown tile in
        the hand every tile not seen anywhere (rules order after the known ones)."""
        hand = self.hands[seat]
        known = [t for t in hand if t is not None]
        if len(known) == len(hand):
            return known
        return list(dict.fromkeys([*known, *self.unseen_tiles()]))

    def unseen_tiles(self) -> list[str]:
        """The tiles nobody is known to hold (rules order): in hidden hands, in an
        unordered reserve, or out of the game."""
        known = set(self.board.tiles_used())
        known.update(t for h in self.hands for t in h if t is not None)
        known.update(t for t in self.reserve if t is not None)
        return [t.id for t in self.rules.tiles if t.id not in known]

    def draw_unseen(self) -> bool:
        """The tile due to be drawn goes into a hand with unknown tiles: the reader of
        the position, who does not see that hand, does not see it either."""
        return self.draw_due and bool(self.hands) and None in self.hands[self.on_turn]


@dataclass(frozen=True)
class Position(_Views):
    """What lies where, and what of it is known (see the module's docstring for what
    None means): the information half of a `GameState`, which adds the engine. Never
    changed once made, its lists and board included (`but` makes a changed copy).

    A state without hands is a board file: every tile not on the board may be placed,
    its gap fillers are `spare_fillers` (on no bonus task), and it is never won or lost.
    `on_turn` is the seat on turn from 0 (files and answers count from 1).
    """

    rules: Rules
    board: Board
    open: list[Task | None]
    draw_pile: list[Task | None]
    bonus: list[Bonus]
    hands: list[list[str | None]]
    reserve: list[str | None]
    completed: list[Task] = field(default_factory=list)
    on_turn: int = 0
    pros: bool = False
    reserve_known: bool = True
    status: Status = "playing"
    turns: int = 0
    draw_due: bool = False  # the player on turn still draws from the unordered reserve
    spare_fillers: int = 0
    catalogue: Catalogue | None = None  # where unknown tasks come from

    def but(self, **changes: Any) -> Self:
        """The same state with some fields replaced (a new state; this one is kept)."""
        return replace(self, **changes)

    # ------------------------------------------------------------------ what is known

    @property
    def everything_known(self) -> bool:
        return ((self.reserve_known or not self.reserve) and not self.chance_due
                and all(t is not None for h in self.hands for t in h)
                and all(t is not None for t in self.draw_pile)
                and all(b.task is not None or b.fillers == 0 for b in self.bonus))

    def unseen_tasks(self) -> list[Task]:
        """The catalogue's tasks not known to be anywhere (catalogue order, as a
        multiset): face down in the game or out of it."""
        if self.catalogue is None:
            return []
        known = Counter(t for t in (*self.open, *self.draw_pile, *self.completed)
                        if t is not None)
        known.update(b.task for b in self.bonus if b.task is not None)
        out = []
        for t in self.catalogue.tasks:
            if known[t] > 0:
                known[t] -= 1
            else:
                out.append(t)
        return out

    def hidden_tiles(self) -> int:
        """Tile places whose tile is unknown: hidden hand tiles and an unordered reserve."""
        return (sum(t is None for h in self.hands for t in h)
                + (0 if self.reserve_known else len(self.reserve)))

    def hidden_tasks(self) -> int:
        """Task places whose task is unknown (draw pile, bonus tasks, turned up)."""
        return (sum(t is None for t in self.draw_pile) + sum(t is None for t in self.open)
                + sum(1 for b in self.bonus if b.task is None and b.fillers > 0))

    def observation(self, player: int) -> Self:
        """What `player` knows: the board, the open and completed tasks, the gap fillers,
        their own hand; not the other hands, the reserve's order, the draw pile or the
        bonus tasks (all face down)."""
        hands = [list(h) if s == player else [None] * len(h)
                 for s, h in enumerate(self.hands)]
        changes: dict[str, Any] = {}
        if self.reserve:
            changes = {"reserve": [None] * len(self.reserve), "reserve_known": False}
        return replace(self, hands=hands, draw_pile=[None] * len(self.draw_pile),
                       bonus=[Bonus(None, b.fillers) for b in self.bonus], **changes)


class GameState(Position):
    """A position with the rules at work: the legal placements, the checks of a move
    (the only ones) and the states after a move (new ones)."""

    # ------------------------------------------------------------------ moves

    def tiles_to_place(self, unseen: bool = False) -> list[str]:
        """The hand of the player on turn; a board file: every tile not on the board.
        A hand with unknown tiles: BadInput, or with `unseen` the tiles it may hold
        (`may_hold`: an unknown tile is any tile not seen anywhere)."""
        if self.board_only:
            used = set(self.board.tiles_used())
            return [t.id for t in self.rules.tiles if t.id not in used]
        hand = self.hands[self.on_turn]
        if unseen:
            return self.may_hold(self.on_turn)
        if any(t is None for t in hand):
            raise BadInput(f"the hand of player {self.on_turn + 1} (on turn) is unknown "
                           "('?'): its placements cannot be listed")
        return list(hand)  # type: ignore[arg-type]

    def legal_actions(self, unseen: bool = False) -> list[Action]:
        """Every placement of the player on turn (none at a chance event or the end).
        A hand with unknown tiles: BadInput, or with `unseen` the placements of every
        tile it may hold (placing one reveals it)."""
        if self.status != "playing" or self.chance_due:
            return []
        return self.board.placements(self.tiles_to_place(unseen), self.pros,
                                     self.fillers_left > 0)

    def is_terminal(self) -> bool:
        if self.status != "playing":
            return True
        return self.board_only and not self.chance_due and not self.board.can_place(
            self.tiles_to_place(), self.pros, self.fillers_left > 0)

    def chance_outcomes(self) -> list[tuple[str | Task, float]]:
        """At a chance event: each tile that may be drawn, or each task that may be
        turned up, with its probability (any unseen one, by symmetry); a draw into a hand
        with unknown tiles: the one outcome UNSEEN (the tile is not seen)."""
        if self.draw_unseen():
            return [(UNSEEN, 1.0)]
        if self.draw_due:
            tiles = self.unseen_tiles()
            return [(t, 1 / len(tiles)) for t in tiles]
        if self.task_due:
            counts = Counter(self.unseen_tasks())
            total = sum(counts.values())
            return [(t, n / total) for t, n in counts.items()]
        return []

    # ------------------------------------------------------------------ the checks

    def check_placement(self, a: Action) -> None:
        """BadInput naming why `a` may not be placed now (step 1 of a turn: the optional
        gap filler, then the tile), whatever the turn's stage."""
        r = self.rules
        if not isinstance(a, Action):
            raise BadInput(f"'{a}' is not a placement")
        if self.board_only:
            if a.tile not in self.tiles_to_place():
                raise BadInput(f"tile {a.tile} is not a tile of the set off the board")
        elif a.tile is None or a.tile not in self.hands[self.on_turn]:
            if a.tile is None or None not in self.hands[self.on_turn]:
                raise BadInput(f"tile {a.tile} is not in the hand of player "
                               f"{self.on_turn + 1}")
            if a.tile not in self.unseen_tiles():  # an unknown tile revealed as a.tile
                raise BadInput(f"player {self.on_turn + 1} cannot hold tile {a.tile}: "
                               "it is seen elsewhere (on the board or in a known hand)")
        for s in (a.first, a.second):
            if not (isinstance(s, int) and 0 <= s < r.n_spaces):
                raise BadInput(f"a tile on space {s!r}: no such space")
        if a.filler is not None:
            if not (isinstance(a.filler, int) and 0 <= a.filler < r.n_spaces):
                raise BadInput(f"a gap filler on space {a.filler!r}: no such space")
            if self.fillers_left == 0:
                raise BadInput("no gap filler is left")
        tile = r.tile_by_id[a.tile]
        why = self.board.why_not_after(a.filler, a.first, a.second, tile.faces, self.pros)
        if why is not None:
            raise BadInput(f"illegal placement {action_text(r, a)}: {why}")

    def check_outcome(self, outcome: object) -> None:
        """BadInput naming why `outcome` is not an outcome of the chance event due."""
        if self.draw_unseen():
            if outcome != UNSEEN:
                raise BadInput(f"player {self.on_turn + 1}'s hand is unknown: the tile "
                               f"drawn is not seen (draw {UNSEEN})")
        elif self.draw_due:
            if not isinstance(outcome, str) or outcome not in self.unseen_tiles():
                raise BadInput(f"'{outcome}' is not an unseen tile: it cannot be drawn")
        elif self.task_due:
            if isinstance(outcome, (str, Action)) or outcome not in self.unseen_tasks():
                raise BadInput(f"'{_text(outcome)}' is not an unseen task of the "
                               "catalogue: it cannot be turned up")
        else:
            raise BadInput("no chance event is due here")

    def check_move(self, move: object) -> None:
        """BadInput naming why `move` is not legal now: a whole turn's placement, or the
        outcome of the chance event due."""
        if self.chance_due:
            self.check_outcome(move)
            return
        if not isinstance(move, Action):
            raise BadInput(f"'{_text(move)}' is not a placement (no chance event is due)")
        if self.status != "playing":
            raise BadInput(f"the game is over ({self.status})")
        self.check_placement(move)

    # ------------------------------------------------------------------ new states

    def turn(self, move: Move) -> tuple[GameState, list[Task]]:
        """The state after `move` and the tasks it fulfilled: a placement's whole turn
        (place, fulfil, draw; it stops at a chance event: an unknown task turned up, a
        draw from the unordered reserve), or the outcome of the chance event due, after
        which the turn goes on. BadInput naming why if it is not legal here."""
        self.check_move(move)
        work = _Turn(self)
        if self.draw_due:
            work.draw_tile(move)  # type: ignore[arg-type]
            return work.state(), []
        if self.task_due:
            work.open[work.open.index(None)] = move  # type: ignore[call-overload]
        else:
            work.place(move)  # type: ignore[arg-type]
        done = work.after_placement()
        return work.state(), done

    def apply_action(self, move: Move) -> GameState:
        """The state after `move` (a new one; this one is unchanged)."""
        return self.turn(move)[0]

    def placed(self, a: Action) -> GameState:
        """Step 1 of a turn: the gap filler (if any) and the tile laid, nothing else
        (BadInput naming why if `a` may not be placed)."""
        self.check_placement(a)
        work = _Turn(self)
        work.place(a)
        return work.state()

    def fulfilled(self, memo: dict[Task, bool] | None = None
                  ) -> tuple[GameState, list[Task]]:
        """Step 2: every fulfilled open task discarded, new ones turned up until 4 are
        open, newly turned-up tasks that are fulfilled at once discarded; the state and
        the tasks fulfilled. The game is won when no task is open and the draw pile is
        empty. Stops when an unknown task is turned up. `memo`: which tasks hold on this
        very board, kept across calls by a caller that plays the same board with
        different task piles."""
        work = _Turn(self)
        done = work.fulfil(memo)
        return work.state(), done

    def before_draw(self, a: Action, memo: dict[Task, bool] | None = None
                    ) -> tuple[GameState, list[Task]]:
        """Steps 1 and 2 at once, `placed` then `fulfilled` (`memo` as there): the state
        before the draw and the tasks fulfilled (what the hint judges a placement by)."""
        self.check_placement(a)
        work = _Turn(self)
        work.place(a)
        done = work.fulfil(memo)
        return work.state(), done

    def drawn(self) -> GameState:
        """Step 3: a tile drawn (if the reserve has one), then the next player's turn; a
        player on turn who cannot place a tile loses the game for everyone. From an
        unordered reserve the draw waits for chance (`draw_due`)."""
        work = _Turn(self)
        work.draw()
        return work.state()

    def filler_taken(self) -> GameState:
        """A gap filler taken (BadInput if none is left): from the first bonus task
        that has one; the last one taken puts that task face down on the draw pile (face
        up if fewer than 4 are open). Then the spare ones."""
        if self.fillers_left == 0:
            raise BadInput("no gap filler is left")
        work = _Turn(self)
        work.take_filler()
        return work.state()

    def judged(self) -> GameState:
        """The state with the game lost if the player on turn cannot place a tile
        (nothing is judged while a chance event is due, mid-turn)."""
        if self.chance_due or not self.stuck():
            return self
        return replace(self, status="lost")

    def determinise(self, rng: random.Random) -> GameState:
        """A state with every unknown drawn at random, uniformly: the hidden tiles (other
        hands, the reserve in an order) from the unseen tiles, the unknown tasks from the
        catalogue tasks not seen. A turn stopped at a chance event is then finished."""
        hands = [list(h) for h in self.hands]
        reserve, reserve_known = self.reserve, self.reserve_known
        hidden = [(s, i) for s, h in enumerate(hands) for i, t in enumerate(h) if t is None]
        if not reserve_known or hidden:
            pool: list = self.unseen_tiles()
            rng.shuffle(pool)
            for s, i in hidden:
                hands[s][i] = pool.pop()
            if not reserve_known:
                reserve, reserve_known = pool[:len(reserve)], True
        pool = self.unseen_tasks()
        rng.shuffle(pool)
        draw_pile = [t if t is not None else pool.pop() for t in self.draw_pile]
        open_ = [t if t is not None else pool.pop() for t in self.open]
        bonus = [Bonus(pool.pop(), b.fillers) if b.task is None and b.fillers > 0 else b
                 for b in self.bonus]
        g = replace(self, hands=hands, reserve=list(reserve), reserve_known=reserve_known,
                    draw_pile=draw_pile, open=open_, bonus=bonus)
        if not self.chance_due:
            return g
        work = _Turn(g)
        if self.draw_due:  # the reserve's order is known now: its first tile is drawn
            work.draw_due = False
            work.draw()
        else:
            work.after_placement()
        return work.state()


class _Turn(_Views):
    """The engine's working copy of a state for one move: the rulebook's steps change it
    in place, unchecked (`GameState` checks every move first), and `state` freezes it."""

    def __init__(self, s: GameState) -> None:
        self.rules, self.board = s.rules, s.board.copy()
        self.open, self.draw_pile = list(s.open), list(s.draw_pile)
        self.bonus, self.hands = list(s.bonus), [list(h) for h in s.hands]
        self.reserve, self.completed = list(s.reserve), list(s.completed)
        self.on_turn, self.pros, self.reserve_known = s.on_turn, s.pros, s.reserve_known
        self.status, self.turns, self.draw_due = s.status, s.turns, s.draw_due
        self.spare_fillers, self.catalogue = s.spare_fillers, s.catalogue

    def state(self) -> GameState:
        return GameState(self.rules, self.board, self.open, self.draw_pile, self.bonus,
                         self.hands, self.reserve, self.completed, self.on_turn, self.pros,
                         self.reserve_known, self.status, self.turns, self.draw_due,
                         self.spare_fillers, self.catalogue)

    def take_filler(self) -> None:
        for i, b in enumerate(self.bonus):
            if b.fillers > 0:
                if b.fillers > 1:
                    self.bonus[i] = Bonus(b.task, b.fillers - 1)
                    return
                if len(self.open) < self.rules.open_tasks:
                    self.open.append(b.task)
                else:
                    self.draw_pile.insert(0, b.task)
                self.bonus[i] = Bonus(None, 0)
                return
        self.spare_fillers -= 1

    def place(self, a: Action) -> None:
        if a.filler is not None:
            self.take_filler()
            self.board.place_filler(a.filler)
        self.board.place_tile(self.rules.tile_by_id[a.tile], a.first, a.second)
        if self.hands:
            hand = self.hands[self.on_turn]
            hand.remove(a.tile if a.tile in hand else None)  # else an unknown one revealed

    def fulfil(self, memo: dict[Task, bool] | None = None) -> list[Task]:
        from models.hoch_hinaus.tasks import holds as holds_on

        visible = self.board.visible()
        if memo is None:
            memo = {}

        def holds(rules: Rules, t: Task, visible: list) -> bool:
            if t not in memo:
                memo[t] = holds_on(rules, t, visible)
            return memo[t]

        done: list[Task] = []
        while True:
            while len(self.open) < self.rules.open_tasks and self.draw_pile:
                self.open.append(self.draw_pile.pop(0))
            if self.task_due:
                break
            now = [t for t in self.open if holds(self.rules, t, visible)]
            if not now:
                break
            for t in now:
                self.open.remove(t)
            done.extend(now)
        self.completed.extend(done)
        if not self.open and not self.draw_pile and not self.board_only:
            self.status = "won"
        return done

    def draw(self) -> None:
        if self.hands and self.reserve:
            if not self.reserve_known:
                self.draw_due = True
                return
            self.hands[self.on_turn].append(self.reserve.pop(0))
        self.pass_turn()

    def draw_tile(self, tile: str) -> None:
        """The draw from the unordered reserve, of `tile` (UNSEEN: a tile not seen);
        then the next player's turn."""
        self.hands[self.on_turn].append(None if tile == UNSEEN else tile)
        self.reserve.pop()
        self.draw_due = False
        self.pass_turn()

    def pass_turn(self) -> None:
        if self.hands:
            self.on_turn = (self.on_turn + 1) % self.players
        self.turns += 1
        if self.stuck():
            self.status = "lost"

    def after_placement(self) -> list[Task]:
        done = self.fulfil()
        if self.status == "playing" and not self.task_due:
            self.draw()
        return done


def _text(move: object) -> str:
    text = getattr(move, "text", None)
    return text() if callable(text) else str(move)


def new_game(rules: Rules, catalogue: Catalogue, players: int, difficulty: str,
             rng: random.Random, side: str = "blue", pros: bool = False,
             task_count: str = "pile") -> GameState:
    """Set up a game as the rulebook says: 4 bonus tasks with their gap fillers, 4 open
    tasks, a draw pile by difficulty (`task_count` "pile": the table's number; "total":
    the table's number less the open tasks), 3 tiles per player, the rest as reserve
    (every pile in its dealt order)."""
    if not 1 <= players <= 4:
        raise BadInput("1 to 4 players")
    if difficulty not in rules.difficulty:
        raise BadInput(f"unknown difficulty '{difficulty}' "
                       f"(one of {', '.join(rules.difficulty)})")
    if task_count not in TASK_COUNTS:
        raise BadInput(f"task count '{task_count}': one of {', '.join(TASK_COUNTS)}")
    tasks = list(catalogue.tasks)
    n_bonus, n_open = len(rules.bonus_fillers), rules.open_tasks
    n_pile = rules.difficulty[difficulty] - (n_open if task_count == "total" else 0)
    if n_pile < 0:
        raise BadInput(f"difficulty '{difficulty}' counts {rules.difficulty[difficulty]} "
                       f"tasks, fewer than the {n_open} open ones")
    need = n_bonus + n_open + n_pile
    if len(tasks) < need:
        raise BadInput(f"the catalogue has {len(tasks)} tasks, the game needs {need}")
    rng.shuffle(tasks)
    bonus = [Bonus(tasks.pop(), n) for n in rules.bonus_fillers]
    open_ = [tasks.pop() for _ in range(n_open)]
    pile: list[Task | None] = [tasks.pop() for _ in range(n_pile)]
    tiles = [t.id for t in rules.tiles]
    rng.shuffle(tiles)
    hands: list[list[str | None]] = [[tiles.pop() for _ in range(rules.hand_size)]
                                     for _ in range(players)]
    return GameState(rules, Board(rules, side), list(open_), pile, bonus, hands,
                     list(tiles), pros=pros, catalogue=catalogue)

