"""A whole game of Hoch Hinaus!: the board, the tasks (open, the draw pile, the bonus
tasks under their gap fillers, completed), the hands and the reserve, and its turns:
place (an optional gap filler, then a tile) - fulfil - draw.

What a player does not know is None: a tile in another player's hand, a task of the
face-down draw pile or under a bonus task's gap fillers, a task turned up whose face
chance has yet to show. A reserve of unknown order (`reserve_known` False) holds only
its size. Drawing from it, and turning up an unknown task, are chance events: the turn
stops there (`chance_due`) until `resolve_in_place` (or `apply_action`) gives the
outcome. A dealt game knows everything, so its turns never stop.

A `Position` is what lies where and what of it is known; a `GameState` is a position
with the engine (legal placements, the turn's steps, chance). `apply_action` and `turn`
return a new state. The searches' hot loops change a copy in place with
`play_in_place` (a whole turn) or the rulebook's steps `place`, `fulfil` and `draw`.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Self

from models.hoch_hinaus.board import Action, Board, action_text
from models.hoch_hinaus.rules import Rules
from solver.errors import BadInput

if TYPE_CHECKING:
    from models.hoch_hinaus.tasks import Catalogue, Task

    #: A player's placement, a tile drawn (its id) or a task turned up.
    Move = Action | str | Task

Status = Literal["playing", "won", "lost"]

#: What the rulebook's difficulty table (first game 14 ... champions 22) counts: the
#: draw pile alone, as its setup says ("count out tasks and form a face-down draw pile
#: with them"; "pile"), or the open tasks and the draw pile together ("total").
TASK_COUNTS = ("pile", "total")


@dataclass
class Bonus:
    """A face-down bonus task with the gap fillers lying on it."""

    task: Task | None  # None: unknown (or gone, once its last gap filler is taken)
    fillers: int


@dataclass
class Position:
    """What lies where, and what of it is known (see the module's docstring for what
    None means): the information half of a `GameState`, which adds the engine.

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

    def copy(self) -> Self:
        return type(self)(self.rules, self.board.copy(), list(self.open),
                         list(self.draw_pile), [Bonus(b.task, b.fillers) for b in self.bonus],
                         [list(h) for h in self.hands], list(self.reserve),
                         list(self.completed), self.on_turn, self.pros, self.reserve_known,
                         self.status, self.turns, self.draw_due, self.spare_fillers,
                         self.catalogue)

    # ------------------------------------------------------------------ what is known

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

    @property
    def everything_known(self) -> bool:
        return ((self.reserve_known or not self.reserve) and not self.chance_due
                and all(t is not None for h in self.hands for t in h)
                and all(t is not None for t in self.draw_pile)
                and all(b.task is not None or b.fillers == 0 for b in self.bonus))

    def unseen_tiles(self) -> list[str]:
        """The tiles nobody is known to hold (rules order): in hidden hands, in an
        unordered reserve, or out of the game."""
        known = set(self.board.tiles_used())
        known.update(t for h in self.hands for t in h if t is not None)
        known.update(t for t in self.reserve if t is not None)
        return [t.id for t in self.rules.tiles if t.id not in known]

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
        g = self.copy()
        g.hands = [h if s == player else [None] * len(h) for s, h in enumerate(g.hands)]
        if g.reserve:
            g.reserve = [None] * len(g.reserve)
            g.reserve_known = False
        g.draw_pile = [None] * len(g.draw_pile)
        for b in g.bonus:
            b.task = None
        return g


class GameState(Position):
    """A position with the rules at work: the legal placements, the turn's steps (in
    place, for the searches' hot loops) and the states after a move (new ones)."""

    # ------------------------------------------------------------------ moves

    def tiles_to_place(self) -> list[str]:
        """The hand of the player on turn; a board file: every tile not on the board."""
        if self.board_only:
            used = set(self.board.tiles_used())
            return [t.id for t in self.rules.tiles if t.id not in used]
        hand = self.hands[self.on_turn]
        if any(t is None for t in hand):
            raise BadInput(f"the hand of player {self.on_turn + 1} (on turn) is unknown "
                           "('?'): its placements cannot be listed")
        return hand  # type: ignore[return-value]

    def legal_actions(self) -> list[Action]:
        """Every placement of the player on turn (none at a chance event or the end)."""
        if self.status != "playing" or self.chance_due:
            return []
        return self.board.placements(self.tiles_to_place(), self.pros, self.fillers_left > 0)

    def is_terminal(self) -> bool:
        if self.status != "playing":
            return True
        return self.board_only and not self.chance_due and not self.board.can_place(
            self.tiles_to_place(), self.pros, self.fillers_left > 0)

    def chance_outcomes(self) -> list[tuple[str | Task, float]]:
        """At a chance event: each tile that may be drawn, or each task that may be
        turned up, with its probability (any unseen one, by symmetry)."""
        if self.draw_due:
            tiles = self.unseen_tiles()
            return [(t, 1 / len(tiles)) for t in tiles]
        if self.task_due:
            counts = Counter(self.unseen_tasks())
            total = sum(counts.values())
            return [(t, n / total) for t, n in counts.items()]
        return []

    # ------------------------------------------------------------------ turns (in place)

    def take_filler(self) -> None:
        """Take a gap filler from the first bonus task that has one; the last one taken
        puts that task face down on the draw pile (face up if fewer than 4 are open).
        Then the spare ones."""
        for b in self.bonus:
            if b.fillers > 0:
                b.fillers -= 1
                if b.fillers == 0:
                    if len(self.open) < self.rules.open_tasks:
                        self.open.append(b.task)
                    else:
                        self.draw_pile.insert(0, b.task)
                    b.task = None
                return
        if self.spare_fillers > 0:
            self.spare_fillers -= 1
            return
        raise BadInput("no gap filler is left")

    def place(self, a: Action) -> None:
        """Step 1 of a turn (checked): the optional gap filler, then the tile. Every
        check comes first, so an illegal placement changes nothing (not even the gap
        fillers left): a BadInput names why."""
        r = self.rules
        if not isinstance(a, Action):
            raise BadInput(f"'{a}' is not a placement")
        if self.board_only:
            if a.tile not in self.tiles_to_place():
                raise BadInput(f"tile {a.tile} is not a tile of the set off the board")
            hand = None
        else:
            hand = self.hands[self.on_turn]
            if a.tile is None or a.tile not in hand:
                raise BadInput(f"tile {a.tile} is not in the hand of player "
                               f"{self.on_turn + 1}")
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
        if a.filler is not None:
            self.take_filler()
            self.board.place_filler(a.filler)
        self.board.place_tile(tile, a.first, a.second)
        if hand is not None:
            hand.remove(a.tile)

    def fulfil(self, memo: dict[Task, bool] | None = None) -> list[Task]:
        """Step 2: discard every fulfilled open task, turn up new ones until 4 are open,
        and discard newly turned-up tasks that are fulfilled at once. Returns the tasks
        fulfilled; the game is won when no task is open and the draw pile is empty. Stops
        when an unknown task is turned up (chance shows it; then fulfil again). `memo`:
        which tasks hold on this very board, kept across calls by a caller that plays
        the same board with different task piles."""
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
        """Step 3: draw a tile (if the reserve has one); then the next player's turn. A
        player on turn who cannot place a tile loses the game for everyone. From an
        unordered reserve the draw waits for chance (`draw_due`)."""
        if self.hands and self.reserve:
            if not self.reserve_known:
                self.draw_due = True
                return
            self.hands[self.on_turn].append(self.reserve.pop(0))
        self.pass_turn()

    def pass_turn(self) -> None:
        if self.hands:
            self.on_turn = (self.on_turn + 1) % self.players
        self.turns += 1
        self._judge_stuck()

    def check_lost(self) -> None:
        """Lost when the player on turn cannot place a tile (a hand with unknown tiles
        cannot be judged: it is taken as able); nothing is judged mid-turn."""
        if not self.chance_due:
            self._judge_stuck()

    def _judge_stuck(self) -> None:
        if self.status != "playing" or not self.hands:
            return
        hand = self.hands[self.on_turn]
        if any(t is None for t in hand):
            return
        if not self.board.can_place(hand, self.pros,  # type: ignore[arg-type]
                                    self.fillers_left > 0):
            self.status = "lost"

    def play_in_place(self, a: Action) -> list[Task]:
        """A player's whole turn, in place: place, fulfil, draw. Returns the tasks
        fulfilled. Stops at a chance event (an unknown task turned up, a draw from the
        unordered reserve). BadInput if the placement is not legal (nothing changed)."""
        if self.status != "playing":
            raise BadInput(f"the game is over ({self.status})")
        if self.chance_due:
            raise BadInput("chance acts first: " + ("a tile is drawn" if self.draw_due
                                                   else "a task is turned up"))
        self.place(a)
        return self._after_placement()

    def _after_placement(self) -> list[Task]:
        done = self.fulfil()
        if self.status == "playing" and not self.task_due:
            self.draw()
        return done

    def resolve_in_place(self, outcome: str | Task) -> list[Task]:
        """The chance event due, in place: the tile drawn or the task turned up; then
        the turn goes on. Returns the tasks fulfilled meanwhile."""
        if self.draw_due:
            if not isinstance(outcome, str) or outcome not in self.unseen_tiles():
                raise BadInput(f"'{outcome}' is not an unseen tile: it cannot be drawn")
            self.hands[self.on_turn].append(outcome)
            self.reserve.pop()
            self.draw_due = False
            self.pass_turn()
            return []
        if self.task_due:
            if isinstance(outcome, (str, Action)) or outcome not in self.unseen_tasks():
                raise BadInput(f"'{_text(outcome)}' is not an unseen task of the "
                               "catalogue: it cannot be turned up")
            self.open[self.open.index(None)] = outcome
            return self._after_placement()
        raise BadInput("no chance event is due here")

    def act_in_place(self, move: Move) -> list[Task]:
        """A placement, or the outcome of the chance event due, in place."""
        if self.chance_due:
            return self.resolve_in_place(move)  # type: ignore[arg-type]
        if not isinstance(move, Action):
            raise BadInput(f"'{_text(move)}' is not a placement (no chance event is due)")
        return self.play_in_place(move)

    # ------------------------------------------------------------------ new states

    def turn(self, move: Move) -> tuple[GameState, list[Task]]:
        """The state after `move` (a new one; this one is unchanged) and the tasks it
        fulfilled. BadInput if it is not legal here."""
        after = self.copy()
        done = after.act_in_place(move)
        return after, done

    def apply_action(self, move: Move) -> GameState:
        """The state after `move` (a new one; this one is unchanged)."""
        return self.turn(move)[0]

    def determinise(self, rng: random.Random) -> GameState:
        """A copy with every unknown drawn at random, uniformly: the hidden tiles (other
        hands, the reserve in an order) from the unseen tiles, the unknown tasks from the
        catalogue tasks not seen. A turn stopped at a chance event is then finished."""
        g = self.copy()
        hidden = [(s, i) for s, h in enumerate(g.hands) for i, t in enumerate(h) if t is None]
        if not g.reserve_known or hidden:
            pool: list = g.unseen_tiles()
            rng.shuffle(pool)
            for s, i in hidden:
                g.hands[s][i] = pool.pop()
            if not g.reserve_known:
                g.reserve = pool[:len(g.reserve)]
                g.reserve_known = True
        task_due = g.task_due
        pool = g.unseen_tasks()
        rng.shuffle(pool)
        g.draw_pile = [t if t is not None else pool.pop() for t in g.draw_pile]
        g.open = [t if t is not None else pool.pop() for t in g.open]
        for b in g.bonus:
            if b.task is None and b.fillers > 0:
                b.task = pool.pop()
        if g.draw_due:
            g.draw_due = False
            g.hands[g.on_turn].append(g.reserve.pop(0))
            g.pass_turn()
        elif task_due:
            g._after_placement()
        return g


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

