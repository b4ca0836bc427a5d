"""The move profile of ``python -m benchmarks.bench_bot --profile``: where time is put."""

from __future__ import annotations

import cProfile
import json
import time

from benchmarks.bench_bot import Click, by_package, package_of, profiling


def test_each_function_is_put_under_its_package() -> None:
    assert package_of("/v/lib/python3.11/site-packages/discord/message.py", "f") == "discord"
    assert package_of("/src/qwixx-bot/bot/cogs/writer.py", "edit") == "bot.cogs"
    assert package_of("/src/qwixx-bot/bot/durations.py", "f") == "bot.durations"
    assert package_of("/usr/lib/python3.11/asyncio/events.py", "f").endswith("(asyncio)")
    assert package_of("/usr/lib/python3.11/json/decoder.py", "f") == "the standard library"
    assert package_of("~", "<method 'send' of '_socket.socket' objects>").startswith("built-ins")


def profiled_click(rounds: int) -> Click:
    profile = cProfile.Profile(time.thread_time)
    with profiling(profile):
        for _ in range(rounds):
            json.loads(json.dumps(list(range(1_000))))
    return Click("move", profile=profile)


def test_the_clicks_profiles_are_summed_and_their_shares_add_up() -> None:
    one, two = profiled_click(100), profiled_click(900)
    alone = float(by_package([profiled_click(100)])[-1].split()[0])
    lines = by_package([one, two])
    shares = [float(line.split()[2].rstrip("%")) for line in lines[:-1]]
    assert 90.0 <= sum(shares) <= 100.0
    assert any("json" in line or "built-ins" in line for line in lines)
    assert lines[-1].endswith("in all, the event loop's thread a click")
    assert float(lines[-1].split()[0]) > alone  # a mean of 100 and 900 rounds: five times 100


def test_without_a_profile_nothing_is_profiled() -> None:
    with profiling(None):
        json.dumps([1, 2, 3])
    assert by_package([]) == ["  0.00 ms   in all, the event loop's thread a click"]
