"""``qwixx-bot demo``: a whole game against the stand-in, a transcript and the images."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.__main__ import main
from bot.sandbox.demo import run_demo


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


def test_the_demo_command_refuses_a_wrong_player_count(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["demo", "--players", "9"])
    assert exit_.value.code == 2
    assert "--players: Qwixx is for 2-5 players, got 9" in capsys.readouterr().err


def test_the_demo_command_refuses_an_unknown_variant(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["demo", "--variant", "yahtzee"])
    assert "invalid choice: 'yahtzee'" in capsys.readouterr().err
