"""Pillow images of the games: sheets, dice, the On Board track and the final scoreboard.

Every function is synchronous and pure (game data in, PNG bytes out); callers run them
off the event loop with ``asyncio.to_thread``.
"""

from .board import render_board
from .dice import render_dice
from .scoreboard import render_scoreboard
from .sheet import render_sheet

__all__ = ["render_board", "render_dice", "render_scoreboard", "render_sheet"]
