"""Property tests: random legal On Board games keep the rules of RULES.md §3."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, Phase, given, note, settings
from hypothesis import strategies as st

from bot.rules import PASS, Event, Move, game_from_json, new_game, replay
from bot.rules.onboard import OnBoardGame

MAX_MOVES = 1500


def snapshot(game: OnBoardGame) -> dict:
    return json.loads(json.dumps(game.to_json()))


def choose(game: OnBoardGame, rnd: random.Random, keen: float | None) -> tuple[int, Move]:
    """A random waiting player and a move.

    ``keen`` is how often they cross or move at all (picking the cross that skips least, and
    mostly racing in action 3). ``None`` plays carefully: crosses skipping at most one
    number, and the farthest move in action 3 — such games mostly end at the finish.
    """
    player = rnd.choice(sorted(game.decision().waiting))
    moves = game.legal_moves(player)
    assert moves and moves[-1] == PASS and len(moves) == len(set(moves))
    options = moves[:-1]
    if not options or (keen is not None and rnd.random() > keen):
        return player, PASS
    if game.phase == "action3" and (keen is None or rnd.random() < 0.7):
        return player, max(options, key=lambda m: m.number or 0)  # race to the finish
    best = min(options, key=lambda m: len(game.skipped_by(player, m)))
    if keen is None and len(game.skipped_by(player, best)) > 1:
        return player, PASS
    return player, best


def check_move(
    before: OnBoardGame, after: OnBoardGame, player: int, move: Move, events: list[Event]
) -> None:
    """Pawns move only in action 3, forward over 1-5 free fields, onto a legal field."""
    moved = [e for e in events if e.kind == "pawn_moved"]
    if move.kind != "pawn":
        assert not moved
        assert all(
            after.pawns[p] == before.pawns[p]
            for p in before.players
            if p != player or after.turn == before.turn
        )
        return
    assert before.phase == "action3" and player == before.active
    assert len(moved) == 1
    data = moved[0].data
    start, to = before.pawns[player], data["to"]
    assert after.pawns[player] == to and data["from"] == start
    others = {before.pawns[p] for p in before.players if p != player} - {0}
    free = [q for q in range(start + 1, to + 1) if q not in others]
    assert free[-1] == to and len(free) == move.number and 1 <= move.number <= 5
    field = before.board.field(to)
    assert field is not None and (field.colour, field.number) == (move.row, data["number"])
    crossed_before = field.number in before.sheets[player].crossed[field.colour]
    crossed_now = [e for e in events if e.kind == "crossed" and e.player == player]
    assert data["crosses"] == bool(crossed_now) == (not crossed_before)
    assert field.number in after.sheets[player].crossed[field.colour]


def check_state(game: OnBoardGame) -> None:
    on_track = [pos for pos in game.pawns.values() if pos != 0]
    assert len(on_track) == len(set(on_track)), "one pawn per field, except the start"
    assert all(0 <= pos <= game.board.last for pos in game.pawns.values())
    for player, score in game.scores().items():
        assert score.bonus == game.board.bonus(game.pawns[player])
    if game.phase == "action3" and not game.finished:
        assert game.decision().waiting == {game.active}
        assert game.legal_moves(game.active) != [PASS], "nothing to choose: skipped"


class Turns:
    """Follows the events: penalty iff the active player crossed nothing in the whole turn;
    after the finish is announced, every other player has exactly one more turn."""

    def __init__(self, game: OnBoardGame) -> None:
        self.active = game.active
        self.turn = game.turn
        self.crossed = False
        self.penalised = False
        self.finish_turn: int | None = None
        self.actives_after: list[int] = []
        self.players = game.players

    def follow(self, events: list[Event]) -> None:
        for event in events:
            if event.kind == "crossed" and event.player == self.active:
                self.crossed = True
            elif event.kind == "penalty":
                assert event.player == self.active and not self.penalised
                self.penalised = True
            elif event.kind == "finish_reached":
                assert self.finish_turn is None, "the end is announced once"
                assert event.player == self.active
                self.finish_turn = self.turn
                assert event.data["last_turn"] == self.turn + len(self.players) - 1
            elif event.kind == "turn":
                assert self.penalised == (not self.crossed)
                self.turn += 1
                self.active, self.crossed, self.penalised = event.player, False, False
                if self.finish_turn is not None:
                    self.actives_after.append(event.player)
            elif event.kind == "game_over":
                self.game_over(event.data["reason"])

    def game_over(self, reason: str) -> None:
        if reason == "board_finish":
            assert self.finish_turn is not None
            assert self.turn == self.finish_turn + len(self.players) - 1
            assert self.penalised == (not self.crossed)
            finisher = self.players[(self.finish_turn - 1) % len(self.players)]
            assert sorted(self.actives_after) == sorted(p for p in self.players if p != finisher)
        elif reason == "penalties":
            assert self.penalised
        if self.finish_turn is not None:
            assert self.turn <= self.finish_turn + len(self.players) - 1


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.large_base_example],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
@given(
    seed=st.integers(min_value=0, max_value=2**64),
    count=st.integers(min_value=2, max_value=4),
    board=st.sampled_from(["A", "B"]),
    rnd=st.randoms(use_true_random=False),
    keen=st.sampled_from([None, 0.5, 0.9, 1.0]),
)
def test_random_legal_games_keep_the_rules(
    seed: int, count: int, board: str, rnd: random.Random, keen: float | None
) -> None:
    players = list(range(10, 10 + count))
    game = new_game("onboard", players, seed, {"board": board})
    assert isinstance(game, OnBoardGame)
    turns = Turns(game)
    log: list[tuple[int, Move]] = []
    try:
        for _ in range(MAX_MOVES):
            if game.finished:
                break
            player, move = choose(game, rnd, keen)
            log.append((player, move))
            before = snapshot(game)
            after, events = game.apply(player, move)
            assert snapshot(game) == before, "apply must not mutate the game"
            turns.follow(events)
            check_move(game, after, player, move, events)
            check_state(after)
            assert game_from_json(snapshot(after)).to_json() == after.to_json()
            restored, restored_events = game_from_json(before).apply(player, move)
            assert restored.to_json() == after.to_json() and restored_events == events
            game = after
    except AssertionError:
        note(f"moves: {[(p, m.to_json()) for p, m in log]}")
        raise
    assert game.finished, f"game not over after {MAX_MOVES} moves"
    assert game.end_reason in ("rows_locked", "penalties", "board_finish")
    assert replay("onboard", players, seed, {"board": board}, log).to_json() == game.to_json()
