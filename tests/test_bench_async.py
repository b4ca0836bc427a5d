"""The pace benchmark's simulation (``benchmarks/bench_async.py``) holds to its model:
two games of each variant with two people, checked against what the store kept."""

from __future__ import annotations

import asyncio
import dataclasses
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from benchmarks.bench_async import ORDER, measure
from benchmarks.pace.behaviours import Planned, Today
from benchmarks.pace.figures import Figures
from benchmarks.pace.people import DAY, HOUR, MINUTE, Model, Person, asleep_together
from benchmarks.pace.session import Session
from benchmarks.pace.table import RAN_OUT, GameLog
from bot.channel.story import mention
from bot.records.games import MoveRecord

SEED = 7
GAMES = 2


@dataclass
class Played:
    logs: list[GameLog]
    moves: dict[int, list[MoveRecord]]
    """Each game's moves as the store kept them."""


def play(folder: Path, model: Model, variants: tuple[str, ...], players: int = 2) -> Played:
    async def run() -> Played:
        played = Played([], {})
        async with Session(folder, SEED, model) as session:
            for variant in variants:
                for index in range(GAMES):
                    for behaviour in (Today(), Planned()):
                        log = await session.play(behaviour, variant, players, index)
                        played.logs.append(log)
                        moves = await session.service.store.games.moves(log.game_id)
                        played.moves[log.game_id] = moves
        return played

    return asyncio.run(run())


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return play(tmp_path_factory.mktemp("pace"), Model(), ORDER)


@pytest.fixture(scope="module")
def rarely(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """People who look once a waking day: decisions run out, reminders go."""
    return play(tmp_path_factory.mktemp("rarely"), Model(looks=1.0), ("classic",), players=3)


def by_hand(moves: list[MoveRecord]) -> list[tuple[int, float]]:
    return [(m.player_id, m.created_at) for m in moves if m.source == "player"]


def test_every_game_finishes(played: Played) -> None:
    assert [log.status for log in played.logs] == ["finished"] * len(ORDER) * GAMES * 2
    assert {log.variant for log in played.logs} == set(ORDER)
    assert all(0 < log.days < 60 for log in played.logs)


def test_the_decisions_counted_are_the_moves_stored(played: Played) -> None:
    """Each decision taken by hand is a move stored as the player's, or (the new
    behaviour) a choice ahead, stored later as made ahead, or told as not made."""
    for log in played.logs:
        moves = played.moves[log.game_id]
        stored = by_hand(moves)
        taken = [d for d in log.decided if d.taps[-1] != "ahead"]
        assert [(d.member, d.at) for d in taken] == stored
        assert Counter(d.member for d in taken) == Counter(p for p, _ in stored)
        assert set(p for p, _ in stored) == set(log.members)
        ahead = [d for d in log.decided if d.taps[-1] == "ahead"]
        made = [m for m in moves if m.source in ("ahead", "ahead_fallback")]
        rethrows = [m for m in made if m.move["kind"] in ("keep", "reroll")]
        made = [m for m in made if m not in rethrows]
        assert len(made) <= len(ahead)
        for move in made:
            assert any(d.member == move.player_id and d.at <= move.created_at for d in ahead)
        throws = [d for d in taken if d.phase == "roll"]
        for move in rethrows:  # Qwinto's re-throw rule, chosen with the throw
            assert any(d.member == move.player_id and d.at <= move.created_at for d in throws)
        if log.behaviour == "today":
            assert not ahead and not made and not rethrows
        assert log.expired == {
            m: sum(r.player_id == m and r.source in RAN_OUT for r in played.moves[log.game_id])
            for m in log.members
        }


def test_nobody_decides_outside_a_look(played: Played) -> None:
    model = Model()
    for log in played.logs:
        taps = {(d.member, d.at): len(d.taps) for d in log.decided}
        for member, at in by_hand(played.moves[log.game_id]):
            began = at - taps[(member, at)] * model.tap_seconds
            assert any(
                look.member == member and look.start <= began < look.end for look in log.looks
            ), f"game {log.game_id}: {member} decided at {at} outside their looks"


def test_nobody_looks_at_night(played: Played) -> None:
    for log in played.logs:
        people = {p.member: p for p in log.people}
        assert all(people[look.member].awake(look.start) for look in log.looks)
        assert all(look.end - look.start >= Model().look_seconds for look in log.looks)


def test_notifications_are_new_messages_that_mention_and_may_ping(played: Played) -> None:
    notified = 0
    for log in played.logs:
        for written in log.written:
            if written.kind in ("edit", "delete"):
                assert written.notified == ()
            elif written.kind == "direct":  # a direct message notifies its reader alone
                assert written.notified == (written.to,)
                continue
            for member in written.notified:
                assert member in written.pinged and mention(member) in written.content
            notified += len(written.notified)
    assert notified > 0


def test_a_look_a_notification_brought_follows_one_within_half_an_hour(played: Played) -> None:
    brought = 0
    for log in played.logs:
        for look in (look for look in log.looks if look.notified):
            brought += 1
            assert any(
                look.member in w.notified and look.start - 30 * MINUTE <= w.at <= look.start
                for w in log.written
            ), f"game {log.game_id}: a look of {look.member} at {look.start} nothing brought"
    assert brought > 0


def test_a_wait_is_the_game_waiting_on_people_none_of_whom_looks(played: Played) -> None:
    for log in played.logs:
        assert log.waits
        for wait, after in zip(log.waits, log.waits[1:], strict=False):
            assert wait.start < wait.end <= after.start
        for wait in log.waits:
            assert wait.ended_by in ("look", "notified look", "deadline")
            assert not any(
                look.member in wait.waiting and wait.start < look.start < wait.end
                for look in log.looks
            )
            assert 0 <= wait.night <= wait.seconds
        assert sum(w.seconds for w in log.waits) <= log.end - log.start


def test_running_out_of_time_is_what_the_bot_does(rarely: Played) -> None:
    """A wait only a deadline ended ends with the bot's own passes, as stored; each
    reminder the timer sent notified the people it names."""
    deadlines = [w for log in rarely.logs for w in log.waits if w.ended_by == "deadline"]
    assert deadlines, "nobody ran out of time: the checks below check nothing"
    for log in rarely.logs:
        expired = {m.created_at for m in rarely.moves[log.game_id] if m.source in RAN_OUT}
        assert {w.end for w in log.waits if w.ended_by == "deadline"} <= expired
    reminders = [w for log in rarely.logs for w in log.written if w.content.startswith("⏰")]
    assert reminders
    assert all(w.kind == "post" and w.notified == w.pinged for w in reminders)


def test_the_same_seed_gives_the_same_figures() -> None:
    def run(seed: int) -> list[list[Figures]]:
        return asyncio.run(measure(seed, ("qwinto",), (2,), [Today(), Planned()], {}, 1))

    first, again, other = run(SEED), run(SEED), run(SEED + 1)
    assert repr(first) == repr(again)  # repr: a figure may be nan, unequal to itself
    assert repr(first[0][0]) != repr(other[0][0])
    today, new = first[0]
    assert repr(dataclasses.replace(new, behaviour="today")) != repr(today)


def test_nobody_is_asked_what_a_standing_choice_answers(played: Played) -> None:
    """In the new behaviour every member lets the Hard computer choose on other people's
    turns: nobody decides by hand but in their own turn, and the moves made for them
    say by which rule."""
    for log in played.logs:
        if log.behaviour != "new":
            continue
        seats = log.members
        for decided in log.decided:
            assert decided.member == seats[(decided.turn - 1) % len(seats)]
        sources = {m.source for m in played.moves[log.game_id]}
        assert "standing_hard" in sources and "expired" not in sources


def test_a_person_looks_four_times_a_waking_day_and_never_at_night() -> None:
    person = Person(1, -2.5 * HOUR, Model(), "rate")
    when, looks = 0.0, []
    for _ in range(20_000):
        when = person.next_look(when)
        looks.append(when)
    assert all(person.awake(t) for t in looks)
    assert 3.9 < len(looks) / (looks[-1] / DAY) < 4.1
    local = Counter(int(person.local(t) // HOUR) for t in looks)
    assert set(local) == set(range(7, 23))  # 07:00-23:00 local


def test_a_notification_brings_a_look_once_in_three_within_half_an_hour() -> None:
    person = Person(1, 0.0, Model(), "notices")
    noon, night = 12 * HOUR, 2 * HOUR
    brought = [person.notified(noon) for _ in range(30_000)]
    came = [t for t in brought if t is not None]
    assert 0.32 < len(came) / len(brought) < 0.345
    assert all(noon <= t <= noon + 30 * MINUTE for t in came)
    assert all(person.notified(night) is None for _ in range(1_000))


def test_the_night_of_a_wait_is_the_time_everyone_waited_on_sleeps() -> None:
    utc, east = Person(1, 0.0, Model(), "a"), Person(2, 3 * HOUR, Model(), "b")
    evening, morning = 20 * HOUR, DAY + 10 * HOUR
    assert asleep_together([utc], evening, morning) == pytest.approx(8 * HOUR)  # 23-07
    assert asleep_together([east], evening, morning) == pytest.approx(8 * HOUR)  # 20-04
    assert asleep_together([utc, east], evening, morning) == pytest.approx(5 * HOUR)
    assert asleep_together([utc], 8 * HOUR, 22 * HOUR) == 0
