"""The move profile of ``python -m benchmarks.bench_bot --profile``: where time is put."""

from __future__ import annotations

import json

from benchmarks.bench_bot import Profiled, package_of


def test_each_function_is_put_under_its_package() -> None:
    assert package_of("/v/lib/python3.11/site-packages/discord/message.py", "f") == "discord"
    assert package_of("/src/qwixx-bot/bot/cogs/writer.py", "edit") == "bot.cogs"
    assert package_of("/src/qwixx-bot/bot/durations.py", "f") == "bot.durations"
    assert package_of("/usr/lib/python3.11/asyncio/events.py", "f").endswith("(asyncio)")
    assert package_of("/usr/lib/python3.11/json/decoder.py", "f") == "the standard library"
    assert package_of("~", "<method 'send' of '_socket.socket' objects>").startswith("built-ins")


def test_only_the_moves_are_profiled_and_shares_add_up() -> None:
    profiled = Profiled()
    with profiled.during("open"):
        json.dumps(list(range(10_000)))
    assert not profiled.by_package(1)[:-1]  # nothing but the total: nothing was profiled
    with profiled.during("move"):
        for _ in range(200):
            json.loads(json.dumps(list(range(1_000))))
    lines = profiled.by_package(2)
    shares = [float(line.split()[2].rstrip("%")) for line in lines[:-1]]
    assert 90.0 <= sum(shares) <= 100.0
    assert any("json" in line or "built-ins" in line for line in lines)
    assert lines[-1].endswith("in all, the event loop's thread a move")
