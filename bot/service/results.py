"""What a game's end records: each person's seat, score, place and win, and whether the
game counts (:mod:`bot.store.stats` keeps them, in the transaction of the end)."""

from __future__ import annotations

from collections.abc import Collection

from bot.players import is_computer
from bot.records.games import GameResults, PlayerResult
from bot.rules import Game


def game_results(
    game: Game,
    *,
    counted: bool = True,
    practice: bool = False,
    hints: bool = False,
    stand_in: Collection[int] = (),
) -> GameResults:
    """The results to record with ``game``'s end: per player score, rank and win.

    A game counts for statistics when it ended with a ranking of at least two
    people (computer seats are ranked in the game, not recorded) and nothing keeps
    it out (``counted`` False: solo practice, hints); any other end is kept in the
    history only. The seats in ``stand_in`` were played by a computer for a while:
    their results count for nobody.
    """
    ranking = game.ranking()
    seats = {player: seat for seat, player in enumerate(game.players)}
    if sorted(s.player for s in ranking) != sorted(game.players):
        return GameResults(
            turns=game.turn, players=(), counted=False, practice=practice, hints=hints
        )
    lines = tuple(
        PlayerResult(s.player, seats[s.player], s.total, s.rank, s.rank == 1, s.player in stand_in)
        for s in ranking
        if not is_computer(s.player)
    )  # people's stats only
    return GameResults(
        turns=game.turn,
        players=lines,
        counted=counted and game.finished and len(lines) >= 2,
        practice=practice,
        hints=hints,
    )
