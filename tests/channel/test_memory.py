"""What a process remembers of what each channel shows."""

from __future__ import annotations

from dataclasses import replace

from bot.channel.memory import Memory
from bot.records.games import StoredEvent
from tests.cogs.records import game_record


def event(seq: int, turn: int) -> StoredEvent:
    return StoredEvent(seq=seq, turn=turn, kind="passed", player=7, data={})


RECORD = game_record([7, 8], status="running", version=4)


def test_a_record_agrees_until_another_writer_shows_the_game() -> None:
    memory = Memory()
    assert memory.agrees(RECORD)  # nothing remembered: nothing to disagree with
    memory.remember(RECORD.id, (RECORD.shown_version, RECORD.message_id, RECORD.shown))
    assert memory.agrees(RECORD)
    assert not memory.agrees(replace(RECORD, shown={"turn": 2}))
    assert memory.last(RECORD.id) == (RECORD.shown_version, RECORD.message_id, RECORD.shown)


def test_kept_events_serve_only_a_change_that_follows_on() -> None:
    memory = Memory()
    memory.keep_events(RECORD, 2, [event(1, 1), event(2, 2), event(3, 2)])
    assert [e.seq for e in memory.events(RECORD.id, 2, 4, [event(3, 2), event(4, 3)]) or []] == [
        2,
        3,
        4,
    ]
    assert memory.events(RECORD.id, 2, 3, [event(4, 3)]) is None  # a version missed
    assert memory.events(RECORD.id, 1, 4, []) is None  # an earlier turn not kept
    assert memory.events(RECORD.id, 2, None, []) is None  # the change's events unknown
    assert memory.events(99, 2, 4, []) is None


def test_kept_events_are_let_go_when_too_many_games_are_kept() -> None:
    memory = Memory(kept=2)
    for game_id in (1, 2, 3):
        memory.keep_events(replace(RECORD, id=game_id), 1, [event(game_id, 1)])
    assert memory.events(1, 1, 4, []) is None
    assert [e.seq for e in memory.events(3, 1, 4, []) or []] == [3]


def test_a_message_written_the_same_is_known_until_its_final_write() -> None:
    memory = Memory()
    written = ("Turn 3", "dice", True)
    assert not memory.shows(9, written)
    memory.wrote(9, written)
    assert memory.shows(9, written) and not memory.shows(9, ("Turn 3", "dice", False))
    memory.wrote(9, written, final=True)
    assert not memory.shows(9, written)


def test_a_channel_behind_is_read_afresh_until_caught_up() -> None:
    memory = Memory()
    memory.fell_behind(5)
    assert memory.behind(5)
    memory.caught_up(5)
    assert not memory.behind(5)


def test_forgetting_a_game_lets_go_of_its_shown_and_events() -> None:
    memory = Memory()
    memory.remember(RECORD.id, (4, 3, {}))
    memory.keep_events(RECORD, 1, [event(1, 1)])
    memory.forget(RECORD.id)
    assert memory.last(RECORD.id) is None and memory.events(RECORD.id, 1, 4, []) is None
