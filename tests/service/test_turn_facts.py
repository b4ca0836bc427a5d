"""The facts the channel's story is told from, as the service stores them with the moves:
each turn's scores at that turn's end, and which passes were made by a player who could
have done something else."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest

from bot.rules import PASS, Game, Move, new_game
from bot.service.games import GameService
from bot.service.play import Play
from tests.fakes import FakeClock
from tests.positions import position

ANA, BEN, CEM = 11, 22, 33


def crowded(variant: str) -> Game:
    """Three sheets crossed up to the last three numbers of every row: most white sums
    and colour sums cross nothing, so many turns need no decision at all."""
    rules = new_game(variant, [ANA, BEN, CEM], seed=1)
    rows = {row: rules.rules.numbers(row)[:-3] for row in ("red", "yellow", "green", "blue")}
    return position(variant, [ANA, BEN, CEM], seed=7, sheets=dict.fromkeys((ANA, BEN, CEM), rows))


def passed_through(game: Game) -> tuple[list[tuple[int, str, int | None, dict[str, Any]]], int]:
    """Everyone passes, move by move, until the game ends: the stored event rows, and the
    most turns one move began (the rules' "turn" events)."""
    rows: list[tuple[int, str, int | None, dict[str, Any]]] = []
    most = 0
    while not game.finished:
        play = Play(game)
        play.apply(min(game.decision().waiting), PASS, "player")
        events = play.event_rows()
        most = max(most, sum(kind == "turn" for _, kind, _, _ in events))
        rows += events
        game = play.game
    return rows, most


@pytest.mark.parametrize("variant", ["classic", "longo"])
def test_each_turn_tells_the_scores_at_its_own_end(variant: str) -> None:
    """Nobody crosses anything, so a score moves only by its penalties: the totals at a
    turn's end are the starting totals less 5 for each penalty taken up to that turn, and
    never those of the turns the rules played out right after it in the same move."""
    game = crowded(variant)
    start = {p: s.total for p, s in game.scores().items()}
    rows, most = passed_through(game)
    assert most >= 2, "some move played several turns out (the case told here)"
    penalties: dict[int, int] = defaultdict(int)
    told: dict[int, dict[int, int]] = {}
    for turn, kind, player, data in rows:
        if kind == "penalty":
            assert player is not None
            penalties[player] += 1
        elif kind == "scores":
            assert turn not in told, f"turn {turn} tells its scores once"
            told[turn] = {int(p): s for p, s in data["totals"].items()}
            assert told[turn] == {p: start[p] - 5 * penalties[p] for p in start}, turn
    assert sorted(told) == sorted({turn for turn, *_ in rows}), "every turn has its scores"


def test_a_pass_is_marked_when_the_player_could_have_crossed() -> None:
    """White 2 + 3: BEN and CEM are past 5 in every row, ANA may cross red 5. ANA passes
    with a move open; BEN and CEM pass because they must."""
    game = position(
        "classic",
        [ANA, BEN, CEM],
        seed=1,
        dice={"white1": 2, "white2": 3, "red": 1, "yellow": 1, "green": 1, "blue": 1},
        sheets={
            ANA: "yellow: 6 | green: 4 | blue: 4",
            BEN: "red: 6 | yellow: 6 | green: 4 | blue: 4",
            CEM: "red: 6 | yellow: 6 | green: 4 | blue: 4",
        },
    )
    play = Play(game)
    for player in (ANA, BEN, CEM):
        play.apply(player, PASS, "computer")
    passes = {
        player: data
        for _, kind, player, data in play.event_rows()
        if kind == "passed" and data["phase"] == "action1"
    }
    assert passes[ANA].get("had_move") is True
    assert "had_move" not in passes[BEN] and "had_move" not in passes[CEM]


def test_the_active_players_own_pass_is_marked_only_with_a_choice() -> None:
    """Action 2: ANA, active, passes with a colour cross open (red 1 + white 2 = 3)."""
    game = position(
        "classic",
        [ANA, BEN],
        seed=1,
        phase="action2",
        dice={"white1": 2, "white2": 3, "red": 1, "yellow": 6, "green": 6, "blue": 6},
    )
    assert Move("cross", "red", 3) in game.legal_moves(ANA)
    play = Play(game)
    play.apply(ANA, PASS, "player")
    passes = [
        data
        for _, kind, _, data in play.event_rows()
        if kind == "passed" and data["phase"] == "action2"
    ]
    assert passes == [{"phase": "action2", "had_move": True}]


async def test_a_seat_that_goes_away_is_told_in_the_turn_its_third_decision_ran_out(
    service: GameService, clock: FakeClock
) -> None:
    """ANA never decides: her third run-out is her own turn's last decision, which ends
    that turn; she goes away in that turn, not in the next one."""
    record = await service.lobby.open(1, 100, ANA, "classic")
    await service.lobby.join(record.id, BEN)
    await service.lobby.start(record.id, ANA)
    for _ in range(20):
        outcome = await service.keeper.read(record.id)
        game = outcome.game
        assert game is not None
        if ANA in outcome.record.presence.get("away", []):
            break
        if BEN in game.decision().waiting:
            await service.turns.move(record.id, BEN, game.turn, game.decision().phase, PASS)
        else:
            clock.now += 86400
            assert await service.deadlines.fire(record.id) is not None
    stored = await service.store.games.events(record.id)
    ran_out = [e.turn for e in stored if e.kind == "expired" and ANA in e.data["players"]]
    assert [e.turn for e in stored if e.kind == "away"] == [ran_out[2]]
    assert any(e.kind == "turn" and e.turn > ran_out[2] for e in stored), (
        "the run-out ended its turn (the case told here)"
    )
