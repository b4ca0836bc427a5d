"""The store's JSON: compact, strict, the text ``json.dumps`` makes (floats may spell an
exponent shorter), and what a read of it finds."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest

from bot.store.records import dump_json, encoded

VALUES: list[Any] = [
    None,
    0,
    -3,
    2**62,
    1.5,
    "red",
    'é ✓ "quoted"\n',
    [],
    {},
    {"turn": 4, "sheets": {"1": {"red": [2, 3], "locked": True}}, "dice": [1, 6]},
    [{"kind": "cross", "row": "blue", "number": 12}, None, [1.25, False]],
]


@pytest.mark.parametrize("value", VALUES)
def test_the_text_is_what_json_dumps_makes(value: Any) -> None:
    expected = json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    assert dump_json(value) == expected
    assert json.loads(dump_json(value)) == value


@pytest.mark.parametrize("value", [float("nan"), {"a": [float("inf")]}, -float("inf")])
def test_values_no_database_takes_are_refused(value: Any) -> None:
    with pytest.raises(ValueError, match="JSON compliant"):
        dump_json(value)


def test_what_json_cannot_encode_is_refused() -> None:
    with pytest.raises(TypeError, match="not JSON serializable"):
        dump_json({"a": object()})


def test_threads_encoding_at_once_each_get_their_own_text() -> None:
    values = [{"thread": n, "rows": list(range(n, n + 50))} for n in range(8)]
    found: dict[int, list[str]] = {}

    def encode(n: int) -> None:
        found[n] = [dump_json(values[n]) for _ in range(300)]

    threads = [threading.Thread(target=encode, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(
        texts == [json.dumps(values[n], separators=(",", ":"))] * 300 for n, texts in found.items()
    )


@pytest.mark.parametrize(
    "value",
    [*VALUES, {1: "a", 2: [3]}, (1, 2), {"t": (3, {4: 5})}, {"deadline": 1.5e-7, "big": 1e22}],
)
def test_encoded_gives_the_text_and_what_reading_it_finds(value: Any) -> None:
    text, found = encoded(value)
    assert json.loads(text) == json.loads(
        json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    )
    assert found == json.loads(text)


def test_what_encoded_reads_back_is_a_value_of_its_own() -> None:
    state = {"sheets": {"1": [2, 3]}, "end_reason": None}
    _, found = encoded(state)
    assert found == state and found is not state and found["sheets"] is not state["sheets"]


def test_what_orjson_cannot_read_back_takes_jsons_way() -> None:
    assert encoded({1: "a"}) == ('{"1":"a"}', {"1": "a"})  # keys become strings
    assert encoded((1, [2])) == ("[1,[2]]", [1, [2]])
