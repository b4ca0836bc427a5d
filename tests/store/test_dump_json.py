"""The store's JSON: compact, strict, the same text ``json.dumps`` makes."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest

from bot.store.records import dump_json

VALUES: list[Any] = [
    None, 0, -3, 2**62, 1.5, "red", "é ✓ \"quoted\"\n", [], {},
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
    assert all(texts == [json.dumps(values[n], separators=(",", ":"))] * 300
               for n, texts in found.items())
