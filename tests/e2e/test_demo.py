"""``qwixx-bot demo``: a whole game against the stand-in, a transcript and the images."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.__main__ import main
from bot.sandbox.demo import run_demo
from bot.sandbox.validation import unavailable


async def test_the_demo_plays_a_whole_game_and_keeps_the_images(tmp_path: Path) -> None:
    lines: list[str] = []
    count = await run_demo("classic", 2, tmp_path / "out", seed=3, print_line=lines.append)
    text = "\n".join(lines)
    assert "Ana: /qwixx start variant:classic" in text
    assert "**Turn 1** · 🎲 @Ana is active" in text
    assert "final scores" in text and ("wins" in text or "share the win" in text)
    assert "<@" not in text  # mentions are shown as names
    files = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert len(files) == count > 3
    assert files[0] == "001-dice.png" and files[-1].endswith("scoreboard.png")
    assert "problems" not in text
    # Checked against Discord's description where it is found, else it says so.
    assert ("not checked against Discord's API description" in text) == \
        (unavailable() is not None)
    assert "<t:" not in text and "⏳ Decide in 24 hours." in text  # times read as times


async def test_the_demo_seats_computers_and_shows_the_channel_after_the_game(
        tmp_path: Path) -> None:
    lines: list[str] = []
    count = await run_demo("classic", 1, tmp_path / "out", seed=5, print_line=lines.append,
                           computers=2, level="hard")
    text = "\n".join(lines)
    live, after = text.split("===== The channel after the game =====")
    assert live.count("Ana presses Add computer player") == 2
    assert "Ana picks 🤖 Computer 2: Hard in" in live
    assert "Players (1/5): @Ana" in live  # the lobby as it was posted
    assert "final scores" in after and "🤖 Computer 1" in after
    # Each message once, in its newest version: the lobby has started, turns are over.
    assert after.count("**Turn 1** ·") == 1 and "**Turn 1** · @Ana was active" in after
    assert "started with @Ana, 🤖 Computer 1, 🤖 Computer 2" in after
    assert "[Open my sheet]" not in after and "Decide in" not in after
    assert "[Rematch]" in after and "<scoreboard.png>" in after
    assert count == len(list((tmp_path / "out").iterdir())) > 3


def test_the_demo_command_refuses_a_wrong_player_count(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["demo", "--players", "9"])
    assert exit_.value.code == 2
    assert "--players: Qwixx is for 2-5 players, got 9" in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "error"), [
    (["--players", "1", "--computers", "5"], "--players: Qwixx is for 2-5 players, got 6 "
                                             "(1 + 5 computers)"),
    (["--players", "0", "--computers", "2"], "--players: 1-6 simulated members, got 0"),
    (["--level", "hard"], "--level: only with --computers"),
    (["--computers", "1", "--level", "expert"], "invalid choice: 'expert'"),
])
def test_the_demo_command_refuses_wrong_seats(
        argv: list[str], error: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["demo", *argv])
    assert exit_.value.code == 2
    assert error in capsys.readouterr().err


def test_the_demo_command_refuses_an_unknown_variant(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["demo", "--variant", "yahtzee"])
    assert "invalid choice: 'yahtzee'" in capsys.readouterr().err
