"""Rows as records: the ``games`` and ``moves`` columns read, their JSON written and
decoded (the records themselves are :mod:`bot.records`'s)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import fields
from json.encoder import (  # type: ignore[attr-defined]  # typeshed omits the C encoder
    c_make_encoder,
    encode_basestring,
)
from operator import attrgetter
from typing import Any, Final

import orjson

from bot.records.games import STATE_SLOT, GameRecord, MoveRecord, Timing, stored_state


def timing_columns(timing: Timing | None) -> dict[str, Any]:
    """The ``games`` columns a timing sets (none when ``timing`` is None)."""
    if timing is None:
        return {}
    return {
        "stage_started": timing.stage_started,
        "deadline": timing.deadline,
        "reminders": timing.reminders,
        "next_due": timing.next_due,
    }


_FIELDS: Final = tuple(f.name for f in fields(GameRecord))
_FIELD_AT: Final = {name: i for i, name in enumerate(_FIELDS)}
_STATE_AT: Final = _FIELD_AT["state"]
_other_values: Final = attrgetter(*(name for name in _FIELDS if name != "state"))


def changed(record: GameRecord, changes: dict[str, Any]) -> GameRecord:
    """``dataclasses.replace(record, **changes)`` in a quarter of its time (it runs
    once per click); a state kept as text stays text."""
    values = list(_other_values(record))
    values.insert(_STATE_AT, STATE_SLOT.__get__(record, GameRecord))
    for name, value in changes.items():
        values[_FIELD_AT[name]] = value
    return GameRecord(*values)


GAME_COLUMNS: Final = (
    "id, guild_id, channel_id, message_id, host_id, variant, options, seed, players, "
    "state, status, version, created_at, updated_at, finished_at, turn_time, stage_started, "
    "deadline, reminders, presence, shown_version, shown, behind_since"
)
MOVE_COLUMNS: Final = "game_id, seq, player_id, move, created_at, source"


_ENCODER: Final = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False)
_C_ENCODE: Final = (
    None
    if c_make_encoder is None
    else c_make_encoder(
        None, _ENCODER.default, encode_basestring, None, ":", ",", False, False, False
    )
)
"""json's C encoder, made once (``json.dumps`` with options builds it, and an encoder,
on every call; a click encodes about six values). Made without the table of values
being encoded, which is what makes it safe to share between threads: a value that
contains itself raises :class:`RecursionError` rather than :class:`ValueError`."""


def _strict_json(value: Any) -> str:
    if _C_ENCODE is None:
        return _ENCODER.encode(value)
    return "".join(_C_ENCODE(value, 0))


def encoded(value: Any) -> tuple[str, Any]:
    """``value`` as strict, compact JSON (NaN/Infinity rejected, so any backend accepts
    it), and the value a read of that text finds.

    orjson writes the text, several times faster than :mod:`json`, whenever that text
    reads back as ``value`` itself, which is then exactly what :mod:`json` writes
    (floats aside, that may spell an exponent shorter: ``1e-7``). Whatever does not
    (NaN, which orjson writes as ``null``; keys that are not strings; a tuple; a value
    :mod:`json` refuses) takes :mod:`json`'s way, with its text or its error.
    """
    try:
        text = orjson.dumps(value)
    except orjson.JSONEncodeError:
        pass
    else:
        found = orjson.loads(text)
        if found == value:
            return text.decode(), found
    strict = _strict_json(value)
    return strict, load_json(strict)


def dump_json(value: Any) -> str:
    """:func:`encoded`'s text alone."""
    return encoded(value)[0]


load_json: Final[Callable[[str], Any]] = orjson.loads
"""Decode stored JSON: orjson reads what :func:`dump_json` writes (integers within
64 bits, as every stored one is) to the same values as :func:`json.loads`, in a fifth
of the time; a game's state is decoded after every write and every read the record
cache misses."""


def game_from_row(row: Any) -> GameRecord:
    """Build a :class:`GameRecord` from a row selected with :data:`GAME_COLUMNS`."""
    (gid, guild, channel, message, host, variant, options, seed, players,
     state, status, version, created, updated, finished, turn_time, stage_started,
     deadline, reminders, presence, shown_version, shown, behind_since) = row  # fmt: skip
    return GameRecord(
        id=gid,
        guild_id=guild,
        channel_id=channel,
        message_id=message,
        host_id=host,
        variant=variant,
        options=load_json(options),
        seed=seed,
        players=load_json(players),
        state=stored_state(state),
        status=status,
        version=version,
        created_at=created,
        updated_at=updated,
        finished_at=finished,
        turn_time=turn_time,
        stage_started=stage_started,
        deadline=deadline,
        reminders=reminders,
        presence=load_json(presence),
        shown_version=shown_version,
        shown=load_json(shown),
        behind_since=behind_since,
    )


def move_from_row(row: Any) -> MoveRecord:
    """Build a :class:`MoveRecord` from a row selected with :data:`MOVE_COLUMNS`."""
    game_id, seq, player_id, move, created, source = row
    return MoveRecord(game_id, seq, player_id, load_json(move), created, source)
