"""Property tests: random legal Qwinto games keep every invariant of RULES.md §4."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.rules import PASS, Event, Move, game_from_json, new_game, replay
from bot.rules.qwinto import QwintoGame, QwintoSheet

from .helpers import derived

COLOURS = ("orange", "yellow", "purple")
# RULES.md §4 table, independent of the module: row -> (number-field columns, pentagons).
FIELDS = {
    "orange": ([2, 3, 4, 6, 7, 8, 9, 10, 11], (3, 7)),
    "yellow": ([1, 2, 3, 4, 5, 7, 8, 9, 10], (8,)),
    "purple": ([0, 1, 2, 3, 5, 6, 7, 8, 9], (2, 9)),
}
TRIPLES = (2, 3, 7, 8, 9)


def turn_bound(players: int) -> int:
    """A player is active at most 27 times writing and 4 times failing."""
    return players * (27 + 4)


def move_bound(players: int) -> int:
    # roll, keep/reroll, one choice per player and at most two changed choices per turn.
    return turn_bound(players) * (2 + players + 2)


def snapshot(game: QwintoGame) -> dict:
    return json.loads(json.dumps(game.to_json()))


def expected_dice(seed: int, turn: int, attempt: int, colours: tuple[str, ...]) -> dict:
    return derived(colours, 6, seed, "turn", turn, attempt, version=4, among=COLOURS)


def expected_score(fields: dict[str, dict[int, int]], failed: int) -> tuple[dict, int, int]:
    rows = {}
    for row in COLOURS:
        columns = FIELDS[row][0]
        full = all(c in fields[row] for c in columns)
        rows[row] = fields[row][columns[-1]] if full else len(fields[row])
    bonus = 0
    for column in TRIPLES:
        if all(column in fields[r] for r in COLOURS):
            (pentagon,) = [r for r in COLOURS if column in FIELDS[r][1]]
            bonus += fields[pentagon][column]
    return rows, bonus, sum(rows.values()) + bonus - 5 * failed


class Tracker:
    """Follows the events to check dice, sums, who writes and who fails a throw."""

    def __init__(self, game: QwintoGame) -> None:
        self.seed = game.seed
        self.turn = 1
        self.rolled: tuple[str, ...] = ()
        self.total = 0
        self.attempts: list[int] = []

    def follow(
        self, before: QwintoGame, move: Move, after: QwintoGame, events: list[Event]
    ) -> None:
        placed: set[int] = set()
        for event in events:
            if event.kind == "rolled":
                if move.kind == "roll":
                    assert event.data["attempt"] == 0 and not self.attempts
                    self.rolled = move.dice
                else:
                    assert move.kind == "reroll"
                    assert event.data["attempt"] == 1 and self.attempts == [0]
                dice = event.data["dice"]
                assert tuple(dice) == self.rolled, "a re-roll throws exactly the same dice"
                assert dice == expected_dice(
                    self.seed, self.turn, event.data["attempt"], self.rolled
                )
                self.total = event.data["total"]
                assert self.total == sum(dice.values())
                self.attempts.append(event.data["attempt"])
            elif event.kind == "placed":
                assert event.data["number"] == self.total
                assert event.data["row"] in self.rolled, "only rolled colours"
                assert event.player not in placed, "one field per player per throw"
                placed.add(event.player)
            elif event.kind == "passed":
                assert event.player not in placed
                placed.add(-1 - event.player)
            elif event.kind == "failed_throw":
                assert event.player == before.active, "only the active player fails a throw"
                assert event.player not in placed
                assert event.data["count"] == after.sheets[event.player].failed
            elif event.kind == "turn":
                self.turn += 1
                assert event.data == {"turn": self.turn}
                assert event.player == after.active
                self.attempts = []
                self.rolled = ()
        if placed:  # a throw was resolved: every player wrote or passed exactly once
            assert {p if p >= 0 else -1 - p for p in placed} == set(before.players)
            assert len(placed) == len(before.players)
            failed = [e.player for e in events if e.kind == "failed_throw"]
            assert failed == ([] if before.active in placed else [before.active])
        assert self.turn == after.turn


def check_state(before: QwintoGame, after: QwintoGame, events: list[Event]) -> None:
    for player in after.players:
        old, new = before.sheets[player], after.sheets[player]
        for row in COLOURS:
            written = new.fields[row]
            assert set(written) <= set(FIELDS[row][0]), "blank and outside fields stay empty"
            values = [written[c] for c in sorted(written)]
            assert values == sorted(set(values)), "rows strictly increase"
            assert all(1 <= v <= 18 for v in values)
            assert old.fields[row].items() <= written.items(), "numbers never change"
        for column in range(12):
            in_column = [new.fields[r][column] for r in COLOURS if column in new.fields[r]]
            assert len(in_column) == len(set(in_column)), "no number twice in a column"
        assert new.failed - old.failed == sum(
            1 for e in events if e.kind == "failed_throw" and e.player == player
        )
        assert 0 <= new.failed <= 4
        score = after.scores()[player]
        rows, bonus, total = expected_score(new.fields, new.failed)
        assert (score.rows, score.bonus, score.total) == (rows, bonus, total)
        assert score.penalty_points == -5 * new.failed
    full_rows = max(
        sum(all(c in s.fields[r] for c in FIELDS[r][0]) for r in COLOURS)
        for s in after.sheets.values()
    )
    failed = max(s.failed for s in after.sheets.values())
    if after.finished:
        assert after.decision().waiting == frozenset()
        assert [e.kind for e in events].count("game_over") == 1
        assert events[-1] == Event("game_over", None, {"reason": after.end_reason})
        if after.end_reason == "two_rows":
            assert full_rows >= 2
        else:
            assert after.end_reason == "failed_throws"
            assert full_rows < 2 and failed == 4
    else:
        assert full_rows < 2 and failed < 4
        decision = after.decision()
        assert decision.phase == after.phase in ("roll", "reroll", "place")
        assert decision.waiting, "an unfinished game always waits for someone"
        if after.phase == "place":
            assert set(after.chosen) | decision.waiting == set(after.players)
            for player in decision.waiting:
                assert after.legal_moves(player) != [PASS], "nothing to write: auto-pass"
        else:
            assert decision.waiting == {after.active}
            assert after.chosen == {}


def sum_odds(dice: int) -> dict[int, float]:
    """The distribution of the sum of ``dice`` six-sided dice."""
    odds = {0: 1.0}
    for _ in range(dice):
        nxt: dict[int, float] = {}
        for total, p in odds.items():
            for face in range(1, 7):
                nxt[total + face] = nxt.get(total + face, 0.0) + p / 6
        odds = nxt
    return odds


SUM_ODDS = {k: sum_odds(k) for k in (1, 2, 3)}


def distance(row: str, column: int, number: int) -> float:
    """How far ``column`` is from where ``number`` would sit in an evenly filled row."""
    return abs(FIELDS[row][0].index(column) - (number - 1) / 17 * 8)


def good_totals(game: QwintoGame, player: int, style: int) -> dict[str, set[int]]:
    """Per row, the sums ``player`` could write within ``style`` fields of their place."""
    sheet = game.sheets[player]
    return {
        row: {
            n
            for n in range(1, 19)
            if any(
                sheet.can_write(row, c, n) and distance(row, c, n) <= style for c in FIELDS[row][0]
            )
        }
        for row in COLOURS
    }


def choose(
    game: QwintoGame, rnd: random.Random, style: int | None, changes: dict[int, int]
) -> tuple[int, Move]:
    """A random waiting player (sometimes one changing their choice) and a move.

    ``changes`` counts changed choices per turn: at most two, so that even a degenerate
    random source (hypothesis shrinks towards 0.0) cannot keep a throw open for ever.

    ``style`` None picks any legal move. An int plays "carefully": the active player rolls
    the dice most likely to give a sum that fits well and re-rolls a poor one; everyone
    writes into the field whose place in its row best matches the number, and the others
    pass when it is more than ``style`` fields off. Careful games complete rows and often
    end by two rows, random ones by failed throws.
    """
    decision = game.decision()
    changing = decision.phase == "place" and game.chosen and changes.get(game.turn, 0) < 2
    if changing and rnd.random() < 0.15:
        changes[game.turn] = changes.get(game.turn, 0) + 1
        player = rnd.choice(sorted(game.chosen))
    else:
        player = rnd.choice(sorted(decision.waiting))
    moves = game.legal_moves(player)
    assert moves, "a waited-for player always has a move"
    assert len(moves) == len(set(moves)), "legal moves are deduplicated"
    if decision.phase == "roll":
        assert len(moves) == 7 and all(m.kind == "roll" and m.dice for m in moves)
    if style is None:
        return player, rnd.choice(moves)
    if decision.phase == "roll":
        good = good_totals(game, player, style)

        def chance(move: Move) -> float:
            fits = set().union(*(good[c] for c in move.dice))
            return sum(p for t, p in SUM_ODDS[len(move.dice)].items() if t in fits)

        return player, max(moves, key=lambda m: (chance(m), rnd.random()))
    if decision.phase == "reroll":
        good = good_totals(game, player, style)
        fits = any(game.total in good[c] for c in game.rolled)
        return player, Move("keep") if fits else Move("reroll")
    assert moves[-1] == PASS
    fields = moves[:-1]
    if not fields:
        return player, PASS
    best = min(fields, key=lambda m: distance(m.row or "", m.number or 0, game.total))
    off = distance(best.row or "", best.number or 0, game.total)
    if off > style and player != game.active and rnd.random() < 0.9:
        return player, PASS
    return player, best


# A whole game draws hundreds of random choices: its smallest input is large by nature.
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.large_base_example])
@given(
    seed=st.integers(min_value=0, max_value=2**64),
    count=st.integers(min_value=2, max_value=6),
    rnd=st.randoms(use_true_random=False),
    style=st.sampled_from([None, 1, 2, 3]),
)
def test_random_legal_games_keep_the_rules(
    seed: int, count: int, rnd: random.Random, style: int | None
) -> None:
    players = list(range(100, 100 + count))
    game = new_game("qwinto", players, seed)
    assert isinstance(game, QwintoGame)
    tracker = Tracker(game)
    log: list[tuple[int, Move]] = []
    changes: dict[int, int] = {}
    for _ in range(move_bound(count)):
        if game.finished:
            break
        player, move = choose(game, rnd, style, changes)
        before = snapshot(game)
        after, events = game.apply(player, move)
        assert snapshot(game) == before, "apply must not mutate the game"
        tracker.follow(game, move, after, events)
        check_state(game, after, events)
        data = snapshot(after)
        assert game_from_json(data).to_json() == after.to_json()
        restored, restored_events = game_from_json(before).apply(player, move)
        assert restored.to_json() == after.to_json()
        assert restored_events == events
        log.append((player, move))
        game = after
    assert game.finished, "the game must end within the bound"
    assert game.turn <= turn_bound(count) + 1
    assert game.end_reason in ("two_rows", "failed_throws")
    again = replay("qwinto", players, seed, None, log)
    assert again.to_json() == game.to_json()
    ranking = game.ranking()
    assert sorted(s.player for s in ranking) == players
    assert [s.total for s in ranking] == sorted((s.total for s in ranking), reverse=True)


@settings(max_examples=200, deadline=None)
@given(
    data=st.data(),
    row=st.sampled_from(COLOURS),
    number=st.integers(min_value=1, max_value=18),
)
def test_can_write_is_exactly_the_two_writing_rules(
    data: st.DataObject, row: str, number: int
) -> None:
    """Random valid sheets: a field is offered iff writing there keeps the sheet valid."""
    written: dict[str, dict[int, int]] = {r: {} for r in COLOURS}
    for _ in range(data.draw(st.integers(min_value=0, max_value=20))):
        r = data.draw(st.sampled_from(COLOURS))
        c = data.draw(st.sampled_from(FIELDS[r][0]))
        n = data.draw(st.integers(min_value=1, max_value=18))
        if QwintoSheet({row: dict(f) for row, f in written.items()}).can_write(r, c, n):
            written[r][c] = n
    sheet = QwintoSheet(written)
    for column in range(-1, 13):
        ok = column in FIELDS[row][0] and column not in sheet.fields[row]
        if ok:
            trial = {r: dict(f) for r, f in sheet.fields.items()}
            trial[row][column] = number
            values = [trial[row][c] for c in sorted(trial[row])]
            in_column = [trial[r][column] for r in COLOURS if column in trial[r]]
            ok = values == sorted(set(values)) and len(in_column) == len(set(in_column))
        assert sheet.can_write(row, column, number) == ok, (row, column, number)


def test_careful_games_reach_both_endings() -> None:
    """Fixed games: the property test's strategies really cover both ways to end."""
    reasons: dict[str, int] = {}
    for trial in range(40):
        rnd = random.Random(trial)
        count = 2 + trial % 5
        game = new_game("qwinto", list(range(count)), trial)
        assert isinstance(game, QwintoGame)
        changes: dict[int, int] = {}
        for _ in range(move_bound(count)):
            if game.finished:
                break
            player, move = choose(game, rnd, 3, changes)
            after, events = game.apply(player, move)
            check_state(game, after, events)
            game = after
        assert game.end_reason is not None
        reasons[game.end_reason] = reasons.get(game.end_reason, 0) + 1
        if len(reasons) == 2:
            break
    assert set(reasons) == {"two_rows", "failed_throws"}
