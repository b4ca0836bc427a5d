"""The fast paths of the rules core agree with the plain definitions they replace.

``apply`` copies only what a move changes, validates with ``_allows`` instead of listing
every legal move, the crossing checks inline the span rule, and the dice come from
``roll``; each must behave exactly like the obvious version: a deep copy,
``move in legal_moves``, ``_can_cross``, ``randint``.
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest

from bot.rules import PASS, VARIANTS, Game, Move, new_game
from bot.rules.base import dice_rng, roll
from bot.rules.dice import throw
from bot.rules.longo import LongoGame
from bot.rules.onboard import MAX_STEPS, OnBoardGame
from bot.rules.qwinto import COLUMNS, ROW_COLUMNS, ROWS, QwintoSheet
from bot.rules.qwixx import ROWS as QWIXX_ROWS
from bot.rules.qwixx import QwixxGame
from tests.positions import reposition

PLAYERS = {"classic": (1, 2, 3), "longo": (1, 2), "onboard": (1, 2, 3), "qwinto": (1, 2, 3)}


def snapshot(game: Game) -> str:
    return json.dumps(game.to_json(), sort_keys=True)


def random_games(variant: str, count: int) -> list[list[Game]]:
    """``count`` complete games with random legal moves, every position kept."""
    games = []
    for seed in range(count):
        rng = random.Random(seed)
        game = new_game(variant, PLAYERS[variant], seed)
        positions = [game]
        while not game.finished:
            player = rng.choice(sorted(game.decision().waiting))
            game, _ = game.apply(player, rng.choice(game.legal_moves(player)))
            positions.append(game)
        games.append(positions)
    return games


def candidate_moves(game: Game) -> list[Move]:
    """Every move anyone may make now, and near misses of them."""
    moves = {m for p in game.players for m in game.legal_moves(p)} | {PASS}
    near = {Move(m.kind, m.row, (m.number or 0) + d, m.dice) for m in moves for d in (-1, 1)}
    near |= {Move("cross", row, n) for row in ("red", "blue", "purple") for n in (2, 7, 12)}
    return sorted(moves | near, key=repr)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_apply_never_mutates_any_position_of_a_random_game(variant: str) -> None:
    for positions in random_games(variant, 6):
        before = [snapshot(g) for g in positions]
        for game in positions:  # every position applied again, the other way too
            for player in sorted(game.decision().waiting):
                for move in game.legal_moves(player):
                    game.apply(player, move)
        assert [snapshot(g) for g in positions] == before


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_allows_agrees_with_legal_moves(variant: str) -> None:
    for positions in random_games(variant, 4):
        for game in positions:
            if game.finished:
                continue
            for player in game.players:
                legal = game.legal_moves(player)
                for move in candidate_moves(game):
                    assert game._allows(player, move) == (move in legal), (player, move)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_new_game_equals_its_json_round_trip_at_every_position(variant: str) -> None:
    for positions in random_games(variant, 3):
        for game in positions:
            again = type(game).from_json(json.loads(json.dumps(game.to_json())))
            assert snapshot(again) == snapshot(game)
            for player in game.players:
                assert again.legal_moves(player) == game.legal_moves(player)


def test_a_new_game_shares_exactly_the_sheets_its_move_left_alone() -> None:
    for positions in random_games("classic", 3):
        for game, after in itertools.pairwise(positions):
            for player, sheet in after.sheets.items():
                same = sheet.to_json() == game.sheets[player].to_json()
                assert (sheet is game.sheets[player]) == same


@pytest.mark.parametrize("faces", [6, 8])
def test_roll_draws_what_randint_draws(faces: int) -> None:
    dice = ("white1", "white2", "red", "yellow", "green", "blue")
    for turn in range(50):
        expected = dice_rng(9, "turn", turn)
        assert roll(dice_rng(9, "turn", turn), dice, faces) == {
            d: expected.randint(1, faces) for d in dice
        }


def test_free_fields_agree_with_can_write() -> None:
    rng = random.Random(5)
    for _ in range(300):
        written: dict[str, dict[int, int]] = {r: {} for r in ROWS}
        for _ in range(rng.randint(0, 14)):
            row, column, number = rng.choice(ROWS), rng.choice(COLUMNS), rng.randint(1, 18)
            if QwintoSheet({r: dict(f) for r, f in written.items()}).can_write(row, column, number):
                written[row][column] = number
        sheet = QwintoSheet(written)
        for row in ROWS:
            for number in range(1, 19):
                assert sheet.free_fields(row, number) == [
                    c for c in ROW_COLUMNS[row] if sheet.can_write(row, c, number)
                ]


@pytest.mark.parametrize("variant", ["classic", "longo", "onboard"])
def test_crossings_agree_with_can_cross(variant: str) -> None:
    """The inlined crossing loop gives what ``_can_cross`` (the span rule) allows."""
    for positions in random_games(variant, 4):
        for game in positions:
            if game.finished:
                continue
            assert isinstance(game, QwixxGame)
            dice = game.dice
            for player in game.players:
                sheet = game.sheets[player]
                total = dice["white1"] + dice["white2"]
                white = [
                    Move("cross", row, total)
                    for row in QWIXX_ROWS
                    if game._can_cross(sheet, row, total)
                ]
                coloured = [
                    Move("cross", row, n)
                    for row in QWIXX_ROWS
                    if row in dice
                    for n in sorted({dice["white1"] + dice[row], dice["white2"] + dice[row]})
                    if game._can_cross(sheet, row, n)
                ]
                assert game._crossings(player, False) == white
                assert game._crossings(player, True) == coloured
                assert game._crossings(player, True, first=True) == coloured[:1]


class Unslotted(QwixxGame):
    """A subclass without __slots__ (as tests write them): its instances get a dict, and
    it keeps state of its own there."""

    variant = "unslotted"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.note = "kept"


@pytest.mark.parametrize("cls", [*VARIANTS.values(), Unslotted])
def test_a_copy_shares_every_attribute_but_owns_no_sheet(cls: type[Game]) -> None:
    game = cls([1, 2], 3, {})
    assert (getattr(game, "note", None) == "kept") == (cls is Unslotted)
    twin = game._copy()
    names = [
        n for k in type(game).__mro__ for n in k.__dict__.get("__slots__", ()) if n != "__dict__"
    ]
    assert len(names) > 7 and "_own" in names
    for name in names:
        if name != "_own":
            assert getattr(twin, name) is getattr(game, name), name
    assert twin._own is None and game._own == {1, 2}
    assert getattr(twin, "note", None) == getattr(game, "note", None)
    assert type(twin) is cls


def test_a_caller_may_still_set_attributes_on_a_game() -> None:
    game = new_game("classic", [1, 2], 3)
    game.legal_moves = lambda player: [PASS]  # type: ignore[method-assign]
    assert game.legal_moves(1) == [PASS]
    assert "legal_moves" not in vars(new_game("classic", [1, 2], 3))  # others untouched
    assert "legal_moves" not in vars(game._copy())  # a copy is the rules' state alone


def tight_move(game: Game, player: int, rng: random.Random) -> Move:
    """Mostly a cross that skips the fewest numbers (so that rows fill and lock), else
    any legal move."""
    moves = game.legal_moves(player)
    crosses = [m for m in moves if m != PASS]
    if not crosses or rng.random() < 0.2:
        return rng.choice(moves)
    fewest = min(len(game.skipped_by(player, m)) for m in crosses)
    return rng.choice([m for m in crosses if len(game.skipped_by(player, m)) == fewest])


@pytest.mark.parametrize("variant", ["classic", "longo", "onboard"])
@pytest.mark.parametrize("version", [1, 2, 4])
def test_every_turn_rolls_what_throw_derives(variant: str, version: int) -> None:
    """The turn's throw, written out inline, rolls what :func:`throw` derives, closed rows
    left out (``events`` of each move carry every turn's dice)."""
    turns = short = 0
    for seed in range(8):
        rng = random.Random(seed)
        game = new_game(variant, PLAYERS[variant], seed, dice_version=version)
        assert isinstance(game, QwixxGame)
        rows = [d for d in game.dice if d not in ("white1", "white2")]
        while not game.finished:
            player = min(game.decision().waiting)
            before = game
            game, events = game.apply(player, tight_move(game, player, rng))
            closed = list(before.closed)
            for event in events:  # a move may end several turns, a row closing in any
                if event.kind == "die_removed":
                    closed.append(event.data["row"])
                if event.kind == "turn":
                    in_play = ["white1", "white2", *(r for r in rows if r not in closed)]
                    short += len(in_play) < 6
                    assert event.data["dice"] == throw(
                        version,
                        in_play,
                        game.rules.faces,
                        seed,
                        "turn",
                        event.data["turn"],
                        among=["white1", "white2", *rows],
                    )
                    turns += 1
    assert turns > 100 and short > 0  # some throws after a row closed


def pawn_moves_by_target(game: OnBoardGame, player: int) -> list[Move]:
    """The steps whose landing field :meth:`pawn_target` says crosses now or holds a number
    already crossed (the plain definition)."""
    expected = []
    for steps in range(1, MAX_STEPS + 1):
        target = game.pawn_target(player, steps)
        if target is not None:
            _, field, crosses = target
            if crosses or field.number in game.sheets[player].crossed[field.colour]:
                expected.append(Move("pawn", field.colour, steps))
    return expected


def test_pawn_moves_agree_with_pawn_target() -> None:
    """On Board's action 3 (the span rule inline) offers what ``pawn_target`` allows."""
    checked = 0
    for positions in random_games("onboard", 6):
        for game in positions:
            assert isinstance(game, OnBoardGame)
            for player in game.players:
                expected = pawn_moves_by_target(game, player)
                assert game._pawn_moves(player) == expected
                assert game._pawn_moves(player, first=True) == expected[:1]
                checked += bool(expected)
    assert checked > 100


@pytest.mark.parametrize("closed", [[], ["red"], ["green", "blue"]])
def test_pawn_moves_agree_with_pawn_target_near_locks_and_closed_rows(closed: list[str]) -> None:
    """Every pawn position, with rows crossed up to (not) enough to lock and rows closed."""
    start = new_game("onboard", (1, 2), 3)
    assert isinstance(start, OnBoardGame)
    numbers, last = start.rules.row_numbers, start.board.last
    end = "rows_locked" if len(closed) >= 2 else None  # two closed rows end the game
    for count in (0, 3, 4, 5):
        crossed = {row: list(numbers[row][:count]) for row in QWIXX_ROWS}
        for at in range(last):
            game = reposition(
                start,
                closed=closed,
                end_reason=end,
                sheets={1: crossed},
                pawns={1: at, 2: min(at + 2, last)},
            )
            assert isinstance(game, OnBoardGame)
            assert game._pawn_moves(1) == pawn_moves_by_target(game, 1), (count, at)


def test_lucky_moves_agree_with_the_spans() -> None:
    """Longo's lucky moves (the span rule inline): the first crossable number of each open
    row with something left to cross, in the rows with the fewest crosses."""
    checked = 0
    for positions in random_games("longo", 8):
        for played in positions:
            # The same sheets, with blue and red closed too (and so the game over).
            closing = reposition(
                played,
                closed=[
                    *played.closed,
                    *(row for row in ("blue", "red") if row not in played.closed),
                ],
                end_reason=played.end_reason or "rows_locked",
            )
            for game, player in itertools.product((played, closing), played.players):
                assert isinstance(game, LongoGame)
                sheet = game.sheets[player]
                spans = game._spans(sheet)
                fewest = min((sheet.crosses(row) for row in spans), default=0)
                expected = [
                    Move("lucky", row, game.rules.row_numbers[row][start])
                    for row, (start, _) in spans.items()
                    if sheet.crosses(row) == fewest
                ]
                assert game.lucky_moves(player) == expected
                checked += len(expected) > 1
    assert checked > 50
