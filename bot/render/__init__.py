"""Pillow images of the games: sheets, dice, the On Board track, the table view and the
final scoreboard; :mod:`.describe` says what each shows in words (alt text).

Every function is synchronous and pure (game data in, PNG bytes out); callers run them
off the event loop with ``asyncio.to_thread``.
"""

from .board import render_board
from .compact import latest_between, latest_from_moves
from .dice import render_dice
from .scoreboard import render_scoreboard
from .sheet import render_sheet
from .table import render_table

__all__ = ["latest_between", "latest_from_moves", "render_board", "render_dice",
           "render_scoreboard", "render_sheet", "render_table"]
