"""Pillow images of the games: sheets, dice, the On Board track, the table view and the
final scoreboard; :mod:`.describe` says what each shows in words (alt text).

Every function is synchronous and pure (game data in, PNG bytes out); callers run them
off the event loop with ``asyncio.to_thread``.

The modules import only those below them (tests/test_import_graph.py checks that there
is no circle), from the bottom up:

- :mod:`.fonts`, :mod:`.pool`, :mod:`.describe` (words only): Pillow and the rules;
- :mod:`.theme` (colours, fonts, geometry, :func:`.theme.blend`) and :mod:`.png`;
- :mod:`.palette`: the fixed palettes, the leaderboard's colours among them;
- :mod:`.canvas`: the drawing surface and its caches;
- :mod:`.icons`, then :mod:`.parts`: shapes and the pieces every sheet shares;
- :mod:`.compact` (the small sheets, :class:`.compact.Surface`), :mod:`.dice`,
  :mod:`.qwinto_sheet`, :mod:`.board`;
- :mod:`.sheet`, :mod:`.table`, :mod:`.leaderboard`, then :mod:`.scoreboard`;
- :mod:`.example` (positions for tests and screenshots) at the top.
"""

from .board import render_board
from .compact import latest_between, latest_from_moves
from .dice import render_dice
from .scoreboard import render_scoreboard
from .sheet import render_sheet
from .table import render_table

__all__ = ["latest_between", "latest_from_moves", "render_board", "render_dice",
           "render_scoreboard", "render_sheet", "render_table"]
