"""Asking less: standing choices, decisions ahead, members away, a decision's time run
out — through the service, on both backends. Every decision stored is checked by
replaying the move log through the rules, never by the code that made it."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.records.plans import Step
from bot.records.prefs import Prefs
from bot.records.seats import Seats
from bot.rules import PASS, Move
from bot.service.errors import ServiceError
from bot.service.games import GameService
from bot.service.review import review_game
from bot.store import Store
from tests.fakes import FakeClock
from tests.service.helpers import play_randomly

GUILD, OTHER_GUILD, CHANNEL, ANA, BEN, CEM = 1, 2, 100, 11, 22, 33
HOUR = 3600.0


async def started(
    service: GameService,
    *players: int,
    variant: str = "classic",
    channel: int = CHANNEL,
    guild: int = GUILD,
) -> int:
    record = await service.lobby.open(guild, channel, players[0], variant)
    for player in players[1:]:
        await service.lobby.join(record.id, player)
    await service.lobby.start(record.id, players[0])
    return record.id


async def moves(service: GameService, game_id: int) -> list[tuple[int, str]]:
    return [(m.player_id, m.source) for m in await service.store.games.moves(game_id)]


async def replays_to_the_stored_game(service: GameService, game_id: int) -> None:
    """The move log, replayed through the rules (which refuse any illegal move), gives the
    state the store holds: no decision was made that the rules did not allow."""
    replayed = await service.keeper.replay(game_id)
    stored = (await service.keeper.read(game_id)).game
    assert stored is not None and replayed.to_json() == stored.to_json()


async def test_a_game_takes_the_peoples_standing_choices_with_it(service: GameService) -> None:
    await service.members.change(BEN, others="safe")
    await service.members.change(CEM, others="computer")
    game_id = await started(service, ANA, BEN, CEM)
    current = await service.keeper.read(game_id)
    assert current.game is not None
    assert current.game.decision().waiting == {ANA}, "only the active player is asked"
    assert await moves(service, game_id) == [(BEN, "standing_safe"), (CEM, "standing_hard")]
    assert Seats.of(current.record).prefs_of(BEN).others == "safe"
    rules = [e.data["rule"] for e in (await service.keeper.events(game_id)) if e.kind == "auto"]
    assert rules == ["safe", "computer"]
    await replays_to_the_stored_game(service, game_id)


async def plan_ready(service: GameService) -> tuple[int, Move]:
    """A game (seed 4321) in which Ana, active, chose a white sum and has a coloured
    option foreseen; Ben and Cem are asked (no standing choices)."""
    game_id = await started(service, ANA, BEN, CEM)
    game = (await service.keeper.read(game_id)).game
    assert game is not None
    for first in game.legal_moves(ANA):
        foreseen = game.foresee(ANA, [first])
        if foreseen is not None and foreseen.turn == 1:
            options = [m for m in foreseen.legal_moves(ANA) if m != PASS]
            if options:
                await service.turns.move(game_id, ANA, 1, "action1", first)
                return game_id, options[0]
    raise AssertionError("no coloured option foreseen at seed 4321")


async def test_a_plan_is_made_when_its_moment_comes(service: GameService) -> None:
    game_id, second = await plan_ready(service)
    await service.turns.plan(game_id, ANA, 1, (Step("action2", second),))
    planned = Seats.of((await service.keeper.read(game_id)).record).plans
    assert ANA in planned
    await service.turns.move(game_id, BEN, 1, "action1", PASS)
    await service.turns.move(game_id, CEM, 1, "action1", PASS)
    game = (await service.keeper.read(game_id)).game
    assert game is not None and game.turn == 2, "nobody was asked for action 2"
    log = await service.store.games.moves(game_id)
    assert (log[-1].player_id, log[-1].move, log[-1].source) == (ANA, second.to_json(), "ahead")
    told = [e for e in await service.keeper.events(game_id) if e.kind == "ahead"]
    assert [(e.player, e.data["applied"]) for e in told] == [(ANA, True)]
    assert Seats.of((await service.keeper.read(game_id)).record).plans == {}
    await replays_to_the_stored_game(service, game_id)


async def test_a_new_white_sum_choice_ends_the_plan(service: GameService) -> None:
    game_id, second = await plan_ready(service)
    await service.turns.plan(game_id, ANA, 1, (Step("action2", second),))
    await service.turns.move(game_id, ANA, 1, "action1", PASS)
    assert Seats.of((await service.keeper.read(game_id)).record).plans == {}


async def test_a_plan_whose_first_moment_came_is_made_and_keeps_the_rest(
    service: GameService,
) -> None:
    """Ben and Cem decided while Ana chose ahead: her coloured die is made as her move at
    once, and the step after it stays her plan (Qwinto: the throw, then its rule)."""
    game_id = await started(service, ANA, BEN, variant="qwinto")
    game = (await service.keeper.read(game_id)).game
    assert game is not None and game.decision().phase == "roll" and game.active == ANA
    throw = (Step("roll", game.legal_moves(ANA)[-1]), Step("reroll", rule="keep"))
    await service.turns.plan(game_id, ANA, 1, throw)
    log = await service.store.games.moves(game_id)
    assert [(m.player_id, m.move["kind"], m.source) for m in log] == [
        (ANA, "roll", "player"),
        (ANA, "keep", "ahead"),
    ]
    after = (await service.keeper.read(game_id)).game
    assert after is not None and after.decision().phase == "place"
    await replays_to_the_stored_game(service, game_id)


async def test_deciding_later_drops_the_plan(service: GameService) -> None:
    game_id, second = await plan_ready(service)
    assert (await service.turns.unplan(game_id, ANA)).kind == "same", "no plan yet"
    await service.turns.plan(game_id, ANA, 1, (Step("action2", second),))
    assert (await service.turns.unplan(game_id, ANA)).changed
    assert Seats.of((await service.keeper.read(game_id)).record).plans == {}
    await service.turns.move(game_id, BEN, 1, "action1", PASS)
    await service.turns.move(game_id, CEM, 1, "action1", PASS)
    game = (await service.keeper.read(game_id)).game
    assert game is not None and game.decision().waiting == {ANA}, "asked, as she chose"
    with pytest.raises(ServiceError) as refused:
        await service.turns.unplan(game_id, 99)
    assert refused.value.key == "error.not_player"


@pytest.mark.parametrize(
    "steps, key",
    [
        ((), "error.plan_empty"),
        ((Step("action2", Move("cross", "red", 99)),), "error.plan_illegal"),
        ((Step("action3", PASS),), "error.plan_illegal"),
    ],
)
async def test_plans_the_rules_will_not_allow_are_refused(
    service: GameService, steps: tuple[Step, ...], key: str
) -> None:
    game_id, _ = await plan_ready(service)
    with pytest.raises(ServiceError) as refused:
        await service.turns.plan(game_id, ANA, 1, steps)
    assert refused.value.key == key


async def test_only_the_active_player_plans_and_only_after_their_white_sum(
    service: GameService,
) -> None:
    game_id = await started(service, ANA, BEN, CEM)
    with pytest.raises(ServiceError) as refused:
        await service.turns.plan(game_id, BEN, 1, (Step("action2", PASS),))
    assert refused.value.key == "error.plan_not_yours"
    with pytest.raises(ServiceError) as refused:
        await service.turns.plan(game_id, ANA, 1, (Step("action2", PASS),))
    assert refused.value.key == "error.plan_first"


async def test_a_choice_for_one_game_applies_at_once_and_stays(service: GameService) -> None:
    game_id = await started(service, ANA, BEN, CEM)
    await service.turns.choose_for_game(game_id, BEN, others="computer")
    assert [p for p, _ in await moves(service, game_id)] == [BEN]
    await service.members.change(BEN, others="ask", dm=True)
    prefs = Seats.of((await service.keeper.read(game_id)).record).prefs_of(BEN)
    assert (prefs.others, prefs.dm, prefs.own) == ("computer", True, {"others"})
    with pytest.raises(ServiceError) as refused:
        await service.turns.choose_for_game(game_id, BEN, dm=True)
    assert refused.value.key == "prefs.not_for_one_game"


async def test_new_defaults_reach_the_running_games_on_every_server(
    service: GameService,
) -> None:
    here = await started(service, ANA, BEN, CEM)
    there = await started(service, BEN, ANA, guild=OTHER_GUILD, channel=200)
    await service.members.change(ANA, others="safe")
    for game_id in (here, there):
        assert Seats.of((await service.keeper.read(game_id)).record).prefs_of(ANA).others == "safe"
    # In the game on the other server Ana is not active: her standing choice answered.
    assert (ANA, "standing_safe") in await moves(service, there)


async def test_the_inbox_holds_every_server_newest_wait_first(
    service: GameService, clock: FakeClock
) -> None:
    here = await started(service, ANA, BEN)
    clock.now += HOUR
    there = await started(service, BEN, ANA, guild=OTHER_GUILD, channel=200)
    waiting = [s.record.id for s in await service.turns.waiting_anywhere(ANA)]
    assert waiting == [there, here]
    assert await service.turns.waiting_anywhere(CEM) == []


async def test_away_until_a_day_the_game_does_not_wait(
    service: GameService, clock: FakeClock
) -> None:
    await service.members.change(CEM, away_until=clock.now + 24 * HOUR, others="safe")
    game_id = await started(service, CEM, ANA, BEN)
    game = (await service.keeper.read(game_id)).game
    assert game is not None and CEM not in game.decision().waiting
    assert {s for p, s in await moves(service, game_id) if p == CEM} == {"away_until"}
    await replays_to_the_stored_game(service, game_id)


async def test_time_run_out_with_the_hard_computers_choice(
    service: GameService, clock: FakeClock
) -> None:
    await service.members.change(BEN, timeout="computer")
    game_id = await started(service, ANA, BEN, CEM)
    clock.now += 25 * HOUR
    fired = await service.deadlines.fire(game_id)
    assert fired is not None
    sources = dict(await moves(service, game_id))
    assert sources[BEN] == "timeout_hard" and sources[CEM] == "expired"
    expired = [e.data for e in await service.keeper.events(game_id) if e.kind == "expired"]
    assert expired == [{"players": [ANA, BEN, CEM], "hard": [BEN]}], (
        "the channel tells Ben's move as the computer's, not as nothing"
    )
    await replays_to_the_stored_game(service, game_id)


async def test_decisions_made_without_asking_are_left_out_of_reviews_and_the_game_counts(
    service: GameService,
) -> None:
    """Ben lets the Hard computer answer on Ana's turns and Ana crosses only what skips
    nothing on his: each one's review rates their own decisions alone (accuracy and
    the costliest moves), and the game counts for both, won and lost."""
    await service.members.change(ANA, others="safe")
    await service.members.change(BEN, others="computer")
    game_id = await started(service, ANA, BEN)
    await play_randomly(service, game_id, random.Random(5))
    log = await service.store.games.moves(game_id)
    ruled = {m.seq for m in log if m.source in ("standing_safe", "standing_hard")}
    by_hand = {m.seq for m in log if m.source == "player"}
    assert ruled and by_hand
    record = (await service.keeper.read(game_id)).record
    review = review_game(record, log)
    assert {r.seq for r in review.rated} <= by_hand
    assert review.decisions(ANA) and review.decisions(BEN)
    history = await service.store.stats.history(GUILD)
    assert [(g.game_id, g.counted) for g in history] == [(game_id, True)]
    assert not any(line.stand_in for line in history[0].lines)


async def test_members_preferences_refused_by_name(service: GameService) -> None:
    with pytest.raises(ServiceError) as refused:
        await service.members.change(ANA, others="sometimes")
    assert refused.value.key == "prefs.unknown_choice"
    with pytest.raises(ServiceError) as refused:
        await service.members.change(ANA, colour="red")
    assert refused.value.key == "prefs.unknown_choice"
    assert await service.members.prefs(ANA) == Prefs()


EXAMPLES = itertools.count(1)
CHOICES = st.fixed_dictionaries(
    {
        "others": st.sampled_from(["ask", "safe", "computer"]),
        "timeout": st.sampled_from(["pass", "computer"]),
        "fallback": st.sampled_from(["ask", "pass"]),
    }
)


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    variant=st.sampled_from(["classic", "longo", "onboard", "qwinto"]),
    choices=st.lists(CHOICES, min_size=3, max_size=3),
    seed=st.integers(0, 2**31),
)
@example(  # everyone's time runs out until too few seats are left: the game is abandoned
    variant="onboard",
    choices=[{"others": "ask", "timeout": "pass", "fallback": "ask"}] * 3,
    seed=157,
)
async def test_random_games_with_random_standing_choices_stay_within_the_rules(
    store: Store, clock: FakeClock, variant: str, choices: list[dict[str, str]], seed: int
) -> None:
    """Whole games where each person has random standing choices and the active player
    plans ahead at random, some decisions left to run out: every stored decision
    replays through the rules (none was applied that they did not allow at its moment),
    and nobody was asked what their standing choice answers."""
    rng = random.Random(seed)
    service = GameService(store, seeds=lambda: seed, clock=clock)
    example = next(EXAMPLES)  # the store is shared by the examples: seats of their own
    people = [ANA + example * 100, BEN + example * 100, CEM + example * 100]
    for person, chosen in zip(people, choices, strict=True):
        await service.members.change(person, **chosen)
    game_id = await started(service, *people, variant=variant, channel=CHANNEL + example)
    for _ in range(400):
        current = await service.keeper.read(game_id)
        game = current.game
        assert game is not None
        if current.record.status != "running":  # finished, or too few seats left
            assert game.finished or current.record.status == "abandoned"
            break
        decision = game.decision()
        for person in decision.waiting:
            standing = Seats.of(current.record).prefs_of(person).answers_others(variant)
            if person != decision.active and decision.phase in game.simultaneous_phases:
                assert standing == "ask", "a standing choice answers this"
        if rng.random() < 0.1:
            clock.now += 25 * HOUR
            await service.deadlines.fire(game_id)
            continue
        person = sorted(decision.waiting)[0]
        move = rng.choice(game.legal_moves(person))
        await service.turns.move(game_id, person, game.turn, decision.phase, move)
        after = (await service.keeper.read(game_id)).game
        if (
            variant != "qwinto"
            and person == decision.active
            and after is not None
            and after.turn == game.turn
            and after.decision().phase == decision.phase
        ):
            foreseen = after.foresee(person, [move])
            options = [] if foreseen is None else foreseen.legal_moves(person)
            if foreseen is not None and foreseen.turn == game.turn and options:
                option = rng.choice(options)
                await service.turns.plan(
                    game_id, person, game.turn, (Step(foreseen.decision().phase, option),)
                )
    await replays_to_the_stored_game(service, game_id)
