"""What the bot loads only when it first needs it, not with ``bot.app``: Pillow and the
drawing code at the first image, Babel's catalogue reader at the first language other
than English, its number and date formatting at the first number or day written,
OpenSkill at the first rating, the computer players' models at a computer's first move
(together some 7.8 MB of a process that has done none of these yet)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFERRED = (
    "PIL",
    "bot.render.canvas",
    "bot.render.fonts",
    "babel.messages",
    "babel.dates",
    "babel.numbers",
    "openskill",
    "bot.players.qwixx_player",
    "bot.players.qwinto_player",
)


def loaded(code: str) -> set[str]:
    """The modules of :data:`DEFERRED` loaded after ``code``, in a fresh interpreter."""
    script = f"import sys\n{code}\nprint(' '.join(m for m in {DEFERRED!r} if m in sys.modules))"
    found = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.split()
    return set(found)


def test_the_bot_imports_without_the_drawing_code_babels_formatting_openskill_and_players() -> None:
    assert loaded("import discord, bot.app\nfrom bot.service.games import GameService") == set()


def test_each_is_loaded_at_its_first_use() -> None:
    assert loaded(
        "import bot.app\nfrom bot.render import render_dice\n"
        "render_dice({'white1': 3, 'white2': 4})"
    ) == {"PIL", "bot.render.canvas", "bot.render.fonts"}
    numbers = loaded("import bot.app\nfrom bot.i18n.words import whole\nwhole(1234)")
    assert "babel.numbers" in numbers and "babel.messages" not in numbers and "PIL" not in numbers
    assert loaded("import bot.app\nfrom bot.i18n import catalogue\ncatalogue('de')") >= {
        "babel.messages"
    }
    rated = (
        "import bot.app\nfrom bot.service.ratings import RankedSeat, rate\n"
        "rate([RankedSeat(1, 1), RankedSeat(2, 2)], {})"
    )
    assert loaded(rated) == {"openskill"}
    moved = (
        "import bot.app, random\nfrom bot.rules import new_game\nfrom bot.players import choose\n"
        "game = new_game('classic', [-1, 2], 1)\nchoose(game, -1, random.Random(1), 'hard')"
    )
    assert loaded(moved) == {"bot.players.qwixx_player"}
