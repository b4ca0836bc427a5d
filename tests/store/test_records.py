"""The record helpers of the click path: a changed copy, and the JSON decoder."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from bot.records.games import state_text
from bot.store.records import changed, dump_json, game_from_row, load_json

ROW = (
    1,
    2,
    3,
    None,
    4,
    "classic",
    '{"rules":{}}',
    7,
    "[4,5]",
    '{"turn":1}',
    "running",
    3,
    1.0,
    2.0,
    None,
    60,
    1.5,
    61.5,
    0,
    '{"away":[]}',
    2,
    "{}",
    None,
)


@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"state": {"turn": 2}, "version": 4, "updated_at": 9.0},
        {"status": "finished", "finished_at": 9.0, "presence": {"away": [5]}, "deadline": None},
    ],
)
def test_changed_is_replace(changes: dict[str, Any]) -> None:
    record = game_from_row(ROW)
    copy = changed(record, changes)
    assert copy == replace(record, **changes) and copy is not record
    assert record == game_from_row(ROW)  # the original is left as it was


def test_changed_refuses_a_name_that_is_no_field() -> None:
    with pytest.raises(KeyError):
        changed(game_from_row(ROW), {"colour": "red"})


@pytest.mark.parametrize(
    "value",
    [
        None,
        0,
        -(2**63),
        2**63 - 1,
        1.5,
        1e-7,
        'é ✓ "quoted"\n😀',
        [],
        {},
        {"sheets": {"1": {"red": [2, 3], "locked": True}}, "end_reason": None},
    ],
)
def test_load_json_reads_what_json_reads(value: Any) -> None:
    text = dump_json(value)
    assert load_json(text) == json.loads(text) == value


def test_a_stored_record_keeps_its_state_as_text_and_decodes_each_read() -> None:
    record = game_from_row(ROW)
    assert state_text(record) == '{"turn":1}'
    first, second = record.state, record.state
    assert first == second == {"turn": 1} and first is not second  # each read its own
    assert state_text(changed(record, {"version": 4})) == '{"turn":1}'  # not decoded
    assert changed(record, {"state": {"turn": 2}}).state == {"turn": 2}
    copy = replace(record, version=4)
    assert copy.state == {"turn": 1} and copy == changed(record, {"version": 4})
    assert repr(record).count("'turn': 1") == 1


def test_a_record_made_with_a_state_keeps_that_state() -> None:
    record = replace(game_from_row(ROW), state={"turn": 5})
    assert state_text(record) is None and record.state == {"turn": 5}
    assert replace(record, state=None).state is None
