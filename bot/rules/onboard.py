"""Qwixx On Board (RULES.md §3): classic Qwixx plus a track with one pawn per player.

After actions 1 and 2 the active player may take **action 3**: move their pawn forward
1-5 *free* fields (fields with another pawn are skipped and not counted; the start
field holds any number of pawns; never past the last field), onto a field whose
coloured number they cross now by the normal rules or have already crossed.

Moves in action 3: ``Move("pawn", row=<colour of the landing field>, number=<steps>)``
(encoded ``pawn.green.5``), or ``PASS`` to stay. :meth:`OnBoardGame.pawn_target` tells
where a number of steps lands and whether landing there crosses a number.

The penalty is taken at the end of the turn, only if the active player crossed nothing
in all three actions. When the active player's pawn reaches the finish area (the last
five fields), the end is announced (``finish_reached``); every other player then has
exactly one more turn as active player and the game ends (``board_finish``). The usual
ends (second locked row, fourth penalty) still end the game at once. Each pawn's field
bonus is added to its player's score.

The board comes in through the options: ``{"board": "A"}`` names a shipped board (read
by :func:`bot.rules.boards.load_board`, cached), and tests may pass a :class:`Board`
itself. The game keeps the board's data in its state, so a saved game does not depend
on the board files.
"""

from __future__ import annotations

from typing import Any, ClassVar

from .base import DICE_VERSION, Event, Move, RuleError, Score, make_event, score_of
from .boards import COLOURS, DEFAULT_BOARD, Board, BoardError, Field, load_board
from .qwixx import ROWS, QwixxGame, Sheet, triangle

assert COLOURS == ROWS, "a board's bits (Board.track) follow the sheet's rows"
PAWN = "pawn"  # (the Qwixx core's _apply names it too)
ACTION3 = "action3"
MAX_STEPS = 5
START = 0
PAWN_MOVES = {
    (colour, steps): Move(PAWN, colour, steps)  # shared: moves are immutable
    for colour in ROWS
    for steps in range(1, MAX_STEPS + 1)
}
STEPS = {
    colour: {steps: PAWN_MOVES[colour, steps] for steps in range(1, MAX_STEPS + 1)}
    for colour in ROWS
}  # PAWN_MOVES by colour, then steps (no key tuple to make)


class OnBoardGame(QwixxGame):
    __slots__ = ("board", "final_turn", "finish_by", "pawns")
    variant = "onboard"
    title = "Qwixx On Board"
    min_players = 2
    max_players = 4
    active_phases: ClassVar[tuple[str, ...]] = ("action2", ACTION3)
    ends_after_a_turn = True  # the final round (_turn_end_reason)
    has_board = True

    def __init__(
        self,
        players: list[int],
        seed: int,
        options: dict[str, Any],
        dice_version: int = DICE_VERSION,
    ) -> None:
        self.board = board_option(options.get("board", DEFAULT_BOARD))
        self.pawns: dict[int, int] = {p: START for p in players}
        self.final_turn: int | None = None  # the last turn to be played, once announced
        self.finish_by: int | None = None  # who reached the finish area first
        super().__init__(players, seed, {**options, "board": self.board.name}, dice_version)

    # --- questions the interface asks ------------------------------------
    def pawn_target(self, player: int, steps: int) -> tuple[int, Field, bool] | None:
        """Where ``steps`` free fields take ``player``'s pawn: its position (1-40), the
        field there, and whether landing there crosses a number now.

        None when fewer than ``steps`` free fields lie ahead. ``crosses`` False means the
        move is legal only if that number is already crossed on the player's sheet (see
        :meth:`legal_moves`).
        """
        position = self.landing(player, steps)
        if position is None:
            return None
        return self._target_at(player, position)

    def _target_at(self, player: int, position: int) -> tuple[int, Field, bool]:
        target = self.board.fields[position - 1]
        colour, _, bit = self.board.track[position - 1]  # _can_cross, on the compact sheet
        crosses = self.sheets[player].allow >> bit & 1 == 1 and colour not in self.closed
        return position, target, crosses

    def landing(self, player: int, steps: int) -> int | None:
        """The position ``steps`` free fields ahead of ``player``'s pawn, if there is one."""
        if steps < 1:
            return None
        pawns, last = self.pawns, self.board.last
        taken = pawns.values()  # the player's own pawn, like START, lies behind
        position = pawns[player]
        while steps:
            position += 1
            if position > last:
                return None
            if position not in taken:
                steps -= 1
        return position

    def bonus(self, player: int) -> int:
        """The bonus under ``player``'s pawn (0 on the start field)."""
        return self.board.bonus(self.pawns[player])

    def pawn_positions(self) -> dict[int, int]:
        return dict(self.pawns)

    def last_turn(self) -> int | None:
        return self.final_turn

    @property
    def final_round(self) -> bool:
        """The end has been announced: the last turns are being played."""
        return self.final_turn is not None

    def skipped_by(self, player: int, move: Move) -> list[int]:
        if move.kind == PAWN:
            target = self.pawn_target(player, move.number or 0)
            if target is None or not target[2]:
                return []
            return super().skipped_by(player, Move("cross", target[1].colour, target[1].number))
        return super().skipped_by(player, move)

    # --- legality --------------------------------------------------------
    def _pawn_moves(self, player: int, first: bool = False) -> list[Move]:
        """The pawn's moves: onto a field whose number the sheet has crossed, or may cross
        now (the sheet's compact state, as in the crossings; a test holds them to it)."""
        sheet, closed, pawns = self.sheets[player], self.closed, self.pawns
        # The fields' numbers the sheet may cross now, or has crossed:
        reach = (
            sheet.allow & self.rules.row_bits[tuple(closed)] if closed else sheet.allow
        ) | sheet.marks
        position = pawns[player]
        taken = pawns.values()  # as in landing: the player's own pawn lies behind
        moves: list[Move] = []
        steps = 0
        # The fields within reach: MAX_STEPS free ones, other pawns' fields among them.
        for colour, _, bit in self.board.track[position : position + MAX_STEPS + len(pawns) - 1]:
            position += 1
            if position in taken:
                continue
            steps += 1
            if reach >> bit & 1:
                moves.append(STEPS[colour][steps])
                if first:
                    break
            if steps == MAX_STEPS:
                break
        return moves

    _later_moves = _pawn_moves  # action 3, the only phase after action 2

    # --- applying --------------------------------------------------------
    def _move_pawn(self, player: int, move: Move) -> list[Event]:
        target = self.pawn_target(player, move.number or 0)
        if target is None:
            raise RuleError(f"malformed pawn move {move}")
        position, field, crosses = target
        start = self.pawns[player]
        events = [
            make_event(
                (
                    "pawn_moved",
                    player,
                    {
                        "from": start,
                        "to": position,
                        "steps": move.number,
                        "row": field.colour,
                        "number": field.number,
                        "bonus": field.bonus,
                        "crosses": crosses,
                    },
                )
            )
        ]
        locked = crosses and self._cross(player, move, events, field.colour, field.number)
        self.pawns = {**self.pawns, player: position}
        if position >= self.board.finish_from and self.final_turn is None:  # in_finish
            self.final_turn = self.turn + len(self.players) - 1
            self.finish_by = player
            events.append(
                make_event(
                    ("finish_reached", player, {"position": position, "last_turn": self.final_turn})
                )
            )
        if locked:
            self._close_locked_rows(events)
        self._after_action(events)
        return events

    def _target(self, player: int, move: Move) -> tuple[str, int]:
        if move.kind == PAWN:
            target = self.pawn_target(player, move.number or 0)
            if target is None:
                raise RuleError(f"malformed pawn move {move}")
            return target[1].colour, target[1].number
        return super()._target(player, move)

    def _turn_end_reason(self) -> str | None:
        if self.final_turn is not None and self.turn >= self.final_turn:
            return "board_finish"
        return None

    # --- scoring ---------------------------------------------------------
    def _score(self, player: int, sheet: Sheet) -> Score:
        return score_of(
            player,
            {r: triangle(sheet.crosses(r)) for r in ROWS},
            sheet.penalties,
            bonus=self.bonus(player),
        )

    # --- serialisation ---------------------------------------------------
    def _state_json(self) -> dict[str, Any]:
        return {
            **super()._state_json(),
            "board": self.board.to_json(),
            "pawns": {str(p): pos for p, pos in self.pawns.items()},
            "final_turn": self.final_turn,
            "finish_by": self.finish_by,
        }

    def _load_state(self, data: dict[str, Any]) -> None:
        super()._load_state(data)
        self.board = Board.from_json(data["board"], "saved game's board")
        self.pawns = {int(p): pos for p, pos in data["pawns"].items()}
        self.final_turn = data["final_turn"]
        self.finish_by = data["finish_by"]


def board_option(value: Any) -> Board:
    """The board an option names (a shipped board's name), or the board itself."""
    if isinstance(value, Board):
        return value
    if not isinstance(value, str):
        raise RuleError(f"the board option must be a board name, not {value!r}")
    try:
        return load_board(value)
    except BoardError as error:
        raise RuleError(str(error)) from None


__all__ = ["ACTION3", "MAX_STEPS", "PAWN", "START", "OnBoardGame", "board_option"]
