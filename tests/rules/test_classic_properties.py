"""Property tests: random legal classic games keep every invariant of RULES.md §1."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, Phase, given, note, settings
from hypothesis import strategies as st

from bot.rules import PASS, Event, Move, game_from_json, new_game, replay
from bot.rules.qwixx import QwixxGame
from tests.positions import position

from .helpers import ROWS, TRIANGLE, numbers, roll

MAX_MOVES = 2000
WHITE = ("white1", "white2")


def snapshot(game: QwixxGame) -> dict:
    return json.loads(json.dumps(game.to_json()))


class Tracker:
    """Follows the events of a game to check who may cross what, and who is penalised."""

    def __init__(self, game: QwixxGame) -> None:
        self.seed = game.seed
        self.turn = game.turn
        self.active = game.active
        self.dice = dict(game.dice)
        self.crossed_in: dict[tuple[int, str], list[int]] = {}  # (player, phase) per turn
        self.penalised = False
        self.intents: dict[int, Move] = {}  # action-1 choices made so far, last one counts
        self.check_roll(self.dice, game.turn, game.closed)

    def intend(self, game: QwixxGame, player: int, move: Move) -> None:
        if game.phase == "action1":
            self.intents[player] = move

    def end_of_turn(self, game_over: str | None) -> None:
        crossed = any(p == self.active for p, _ in self.crossed_in)
        if game_over == "rows_locked":
            # Ended in action 1 (no penalty) or by the active player's lock in action 2.
            assert not self.penalised
        else:
            assert self.penalised == (not crossed), "penalty iff the active crossed nothing"

    def check_roll(self, dice: dict[str, int], turn: int, closed: list[str]) -> None:
        in_play = [*WHITE, *(r for r in ROWS if r not in closed)]
        assert list(dice) == in_play, "dice of locked rows must not be rolled"
        assert all(1 <= v <= 6 for v in dice.values())
        assert dice == roll(self.seed, turn, in_play)

    def follow(self, before: QwixxGame, after: QwixxGame, events: list[Event]) -> None:
        closed = list(before.closed)
        for event in events:
            if event.kind == "turn":
                assert not self.intents, "every action-1 choice is applied"
                self.end_of_turn(None)
                self.penalised = False
                self.turn += 1
                assert event.data["turn"] == self.turn
                assert event.player == after.players[(self.turn - 1) % len(after.players)]
                self.active = event.player
                self.dice = dict(event.data["dice"])
                self.check_roll(self.dice, self.turn, closed)
                self.crossed_in = {}
            elif event.kind == "crossed":
                phase, row, number = event.data["phase"], event.data["row"], event.data["number"]
                key = (event.player, phase)
                assert key not in self.crossed_in, "one cross per player per action"
                self.crossed_in[key] = [number]
                if phase == "action1":
                    assert number == self.dice["white1"] + self.dice["white2"]
                    intent = self.intents.pop(event.player, PASS)
                    assert intent == Move("cross", row, number), "the last choice counts"
                else:
                    assert phase == "action2"
                    assert event.player == self.active, "action 2 is the active player's"
                    assert row not in closed, "a removed die cannot be used"
                    assert len(closed) < 2, "two locked rows end the game before action 2"
                    assert number in {self.dice[w] + self.dice[row] for w in WHITE}
            elif event.kind == "passed" and event.data["phase"] == "action1":
                assert self.intents.pop(event.player, PASS) == PASS
            elif event.kind == "game_over":
                self.end_of_turn(event.data["reason"])
            elif event.kind == "die_removed":
                assert event.data["row"] not in closed
                closed.append(event.data["row"])
            elif event.kind == "penalty":
                assert event.player == self.active, "only the active player is penalised"
                assert (self.active, "action1") not in self.crossed_in
                assert (self.active, "action2") not in self.crossed_in
                assert not self.penalised
                self.penalised = True
        assert closed == after.closed
        assert self.turn == after.turn


def expected_moves(game: QwixxGame, player: int) -> set[Move]:
    """The legal moves, worked out from RULES.md §1 independently of the core."""
    if game.finished:
        return set()
    if game.phase == "action1":
        sums = {row: {game.dice["white1"] + game.dice["white2"]} for row in ROWS}
    elif player == game.active:
        sums = {
            row: {game.dice[w] + game.dice[row] for w in WHITE}
            for row in ROWS
            if row not in game.closed
        }
    else:
        return set()
    moves = {PASS}
    for row, totals in sums.items():
        if row in game.closed:
            continue
        printed = numbers(row)
        crossed = game.sheets[player].crossed[row]
        after = printed.index(crossed[-1]) + 1 if crossed else 0
        for total in totals:
            if printed.index(total) < after:
                continue
            if total == printed[-1] and len(crossed) < 5:
                continue
            moves.add(Move("cross", row, total))
    return moves


def check_state(before: QwixxGame, after: QwixxGame, events: list[Event]) -> None:
    for player in after.players:
        old, new = before.sheets[player], after.sheets[player]
        for row in ROWS:
            printed = numbers(row)
            crossed = new.crossed[row]
            indices = [printed.index(n) for n in crossed]
            assert indices == sorted(set(indices)), "crosses go strictly left to right"
            assert crossed[: len(old.crossed[row])] == old.crossed[row], "crosses never vanish"
            if row in before.closed:
                assert crossed == old.crossed[row], "nothing is crossed in a closed row"
            last = printed[-1]
            if last in crossed:
                assert crossed[-1] == last
                assert len(crossed) - 1 >= 5, "locking needs 5 earlier crosses"
                assert row in after.closed
            assert (row in new.locks) == (last in crossed)
        assert new.penalties - old.penalties == sum(
            1 for e in events if e.kind == "penalty" and e.player == player
        )
        assert 0 <= new.penalties <= 4
        score = after.scores()[player]
        rows = {r: TRIANGLE[len(new.crossed[r]) + (r in new.locks)] for r in ROWS}
        assert score.rows == rows
        assert score.total == sum(rows.values()) - 5 * new.penalties
    for player in after.players:
        assert set(after.legal_moves(player)) == expected_moves(after, player)
    ranking = after.ranking()
    totals = {p: s.total for p, s in after.scores().items()}
    for standing in ranking:
        assert standing.total == totals[standing.player]
        assert standing.rank == 1 + sum(t > standing.total for t in totals.values())
    assert after.closed[: len(before.closed)] == before.closed
    assert len(after.closed) <= 3
    if after.finished:
        assert after.decision().waiting == frozenset()
        if after.end_reason == "rows_locked":
            assert len(after.closed) >= 2
        else:
            assert after.end_reason == "penalties"
            assert any(s.penalties == 4 for s in after.sheets.values())
        assert [e.kind for e in events].count("game_over") == 1
    else:
        # A locked row's die has left the game at once, in every phase.
        assert list(after.dice) == [*WHITE, *(r for r in ROWS if r not in after.closed)]
        assert len(after.closed) < 2
        assert all(s.penalties < 4 for s in after.sheets.values())
        assert after.phase in ("action1", "action2")
        assert after.decision().waiting, "an unfinished game always waits for someone"
        if after.phase == "action1":
            for player in after.players:
                if after.legal_moves(player) == [PASS]:
                    assert player not in after.decision().waiting, "nothing to choose: auto-pass"
        if after.phase == "action2":
            assert after.decision().waiting == {after.active}
            assert after.legal_moves(after.active) != [PASS], "nothing to choose: auto-pass"


def choose(
    game: QwixxGame, rnd: random.Random, style: int | None, active_crossed: bool
) -> tuple[int, Move]:
    """A random waiting player (sometimes one changing their action-1 choice) and a move.

    ``style`` None picks any legal move; an int plays "carefully": the cross that skips the
    fewest numbers, usually passing when it would skip more than ``style`` numbers (but not
    in an action 2 that would otherwise cost a penalty). Careful games reach locks, shared
    locks and three-row endings; random ones mostly end by penalties.
    """
    decision = game.decision()
    if decision.phase == "action1" and game.chosen and rnd.random() < 0.15:
        player = rnd.choice(sorted(game.chosen))  # change a choice already made
    else:
        player = rnd.choice(sorted(decision.waiting))
    moves = game.legal_moves(player)
    assert moves, "a waited-for player always has a move"
    assert moves[-1] == PASS
    assert len(moves) == len(set(moves)), "legal moves are deduplicated"
    if style is None:
        return player, rnd.choice(moves)
    crosses = [m for m in moves if m != PASS]
    if not crosses:
        return player, PASS
    best = min(crosses, key=lambda m: len(game.skipped_by(player, m)))
    avoid_penalty = game.phase == "action2" and not active_crossed
    if not avoid_penalty and len(game.skipped_by(player, best)) > style and rnd.random() < 0.8:
        return player, PASS
    return player, best


# A whole game draws a few hundred random choices: its smallest input is large by nature,
# and shrinking it takes minutes, so a failure reports the drawn game and its move log as is.
@settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.large_base_example],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
@given(
    seed=st.integers(min_value=0, max_value=2**64),
    count=st.integers(min_value=2, max_value=5),
    rnd=st.randoms(use_true_random=False),
    style=st.sampled_from([None, 0, 1, 2]),
)
def test_random_legal_games_keep_the_rules(
    seed: int, count: int, rnd: random.Random, style: int | None
) -> None:
    players = list(range(100, 100 + count))
    game = new_game("classic", players, seed)
    assert isinstance(game, QwixxGame)
    tracker = Tracker(game)
    log: list[tuple[int, Move]] = []
    try:
        for _ in range(MAX_MOVES):
            if game.finished:
                break
            active_crossed = (game.active, "action1") in tracker.crossed_in
            player, move = choose(game, rnd, style, active_crossed)
            log.append((player, move))
            tracker.intend(game, player, move)
            before = snapshot(game)
            after, events = game.apply(player, move)
            assert snapshot(game) == before, "apply must not mutate the game"
            tracker.follow(game, after, events)
            check_state(game, after, events)
            if after.phase == "action1":
                assert after.decision().waiting == {
                    p
                    for p in players
                    if p not in tracker.intents and after.legal_moves(p) != [PASS]
                }
            # JSON round trip, and the restored game plays on identically.
            assert game_from_json(snapshot(after)).to_json() == after.to_json()
            restored, restored_events = game_from_json(before).apply(player, move)
            assert restored.to_json() == after.to_json()
            assert restored_events == events
            game = after
    except AssertionError:
        note(f"moves: {[(p, m.to_json()) for p, m in log]}")
        note(f"last state: {game.to_json()}")
        raise
    assert game.finished, f"game not over after {MAX_MOVES} moves"
    assert game.end_reason in ("rows_locked", "penalties")
    again = replay("classic", players, seed, None, log)
    assert again.to_json() == game.to_json()
    ranking = game.ranking()
    assert sorted(s.player for s in ranking) == players
    assert [s.total for s in ranking] == sorted((s.total for s in ranking), reverse=True)


@settings(max_examples=100, deadline=None)
@given(
    counts=st.fixed_dictionaries({r: st.integers(min_value=0, max_value=10) for r in ROWS}),
    locks=st.sets(st.sampled_from(ROWS)),
    penalties=st.integers(min_value=0, max_value=4),
)
def test_score_is_the_triangle_table_minus_penalties(
    counts: dict[str, int], locks: set[str], penalties: int
) -> None:
    crossed: dict[str, list[int]] = {}
    expected = {}
    locked = []
    for row, count in counts.items():
        printed = numbers(row)
        if row in locks and count >= 5:
            # ``count`` numbers, then the last number and its lock symbol.
            crossed[row] = [*printed[:count], printed[-1]]
            locked.append(row)
            expected[row] = TRIANGLE[count + 2]
        else:
            crossed[row] = printed[: min(count, 10)]
            expected[row] = TRIANGLE[min(count, 10)]
    # Locked rows are closed; two closed rows or a fourth penalty have ended the game.
    end = "rows_locked" if len(locked) >= 2 else "penalties" if penalties == 4 else None
    game = position(
        "classic",
        (1, 2),
        sheets={1: {**crossed, "penalties": penalties}},
        closed=locked,
        end_reason=end,
    )
    assert sorted(game.sheets[1].locks) == sorted(locked)
    score = game.scores()[1]
    assert score.rows == expected
    assert score.penalty_points == -5 * penalties
    assert score.total == sum(expected.values()) - 5 * penalties
