"""Playing a tournament's tables through the service, and recounting a tournament from
its stored games, for the tournament tests."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection

from bot.players import is_computer
from bot.records.options import Options
from bot.rules import PASS, Move
from bot.rules import replay as replay_game
from bot.service.games import GameService
from bot.store import Store
from bot.tournament import Entrant, SeatResult, TableResult, TournamentStanding, standings
from bot.tournament.records import Tournament
from tests.fakes import FakeClock

THREADS = 9_000  # thread ids the service tests give tables: 9000 + 10 * round + table


async def open_round(service: GameService, tournament_id: int) -> Tournament:
    """Settle the tournament, then open every table of its round in a thread of its own
    (what the desk does, without Discord)."""
    tournaments = service.tournaments
    t = await tournaments.settle(tournament_id)
    for table in t.tables_of(t.record.rounds):
        if table.thread_id is None:
            await tournaments.claim_thread(t, table, THREADS + 10 * table.round + table.number)
    t = await tournaments.read(tournament_id)
    for table in t.tables_of(t.record.rounds):
        await tournaments.open_table(t, table)
    return await tournaments.read(tournament_id)


async def pass_to_end(
    service: GameService, game_id: int, clock: FakeClock, late: Collection[int] = ()
) -> None:
    """Every person at the game passes every decision until it ends, but ``late``, who
    let their first decision run out (the clock moves past the deadline)."""
    waited = set(late)
    for _ in range(5_000):
        current = await service.keeper.read(game_id)
        if not current.record.is_active or current.game is None:
            return
        game = current.game
        decision = game.decision()
        people = sorted(p for p in decision.waiting if not is_computer(p))
        if waited & set(people):
            clock.now = (current.record.deadline or clock.now) + 1
            await service.deadlines.fire(game_id)
            waited.clear()
            continue
        if not people:  # an away seat the timer answers for
            await service.deadlines.fire(game_id)
            continue
        try:
            await service.turns.move(game_id, people[0], game.turn, decision.phase, PASS)
        except Exception as error:  # an away seat: its stand-in decides on the next fire
            if getattr(error, "key", "") != "error.not_your_decision":
                raise
            await service.deadlines.fire(game_id)
    raise AssertionError(f"game {game_id} did not end")


async def recount(
    store: Store, t: Tournament, through: int | None = None
) -> list[TournamentStanding]:
    """The standings recounted from the stored games (of rounds 1 to ``through``, else
    all): each table's game replayed from its seed and move log, ranked by the rules,
    its seats' away and run-out decisions read from who made each move; then the core's
    pure standings."""
    last = t.record.rounds if through is None else through
    results = []
    for table in t.tables:
        if table.game_id is None or table.round > last:
            continue
        record = await store.games.get(table.game_id)
        assert record is not None
        if record.status != "finished":
            continue
        moves = await store.games.moves(record.id)
        game = replay_game(
            record.variant,
            record.players,
            record.seed,
            record.options.get("rules", {}),
            [(m.player_id, Move.from_json(m.move)) for m in moves],
            solo=Options.of(record.options).solo,
        )
        assert game.to_json() == record.state and game.finished
        made_for = {m.player_id for m in moves if m.source in ("away", "stand_in")}
        ran_out = Counter(
            p
            for event in await store.games.events(record.id)
            if event.kind == "expired"
            for p in event.data["players"]
        )
        seats = tuple(
            SeatResult(
                s.player,
                s.total,
                s.rank,
                is_computer(s.player),
                s.player in made_for or s.player in record.presence.get("away", []),
                ran_out[s.player],
            )
            for s in game.ranking()
        )
        results.append(TableResult(table.round, table.number, seats))
    entrants = [Entrant(e.player, e.withdrawn_after) for e in t.entrants]
    return standings(t.settings, entrants, t.seated[:last], results)
