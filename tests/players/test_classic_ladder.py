"""Learning the classic margin tables further from the shipped ones (``--resume``)."""

from __future__ import annotations

from bot.players.learn_versus import train
from bot.players.qwixx_model import load_versus


def test_resuming_starts_from_copies_of_the_shipped_tables() -> None:
    tables = train("classic", 0, 1, resume=True)
    for key, role in ((True, "active"), (False, "passive")):
        for learned, shipped in zip(tables[key], load_versus("classic", role), strict=True):
            assert learned is not shipped
            assert learned.rows == shipped.rows and learned.bias == shipped.bias
            assert learned.games == shipped.games


def test_resuming_moves_the_tables_a_little_and_counts_the_games() -> None:
    own = train("classic", 12, 1, resume=True)[True][0]
    shipped = load_versus("classic", "active")[0]
    assert own.games == shipped.games + 12
    moved = [
        abs(a - b)
        for p, q in zip(own.rows, shipped.rows, strict=True)
        for r, s in zip(p, q, strict=True)
        for x, y in zip(r, s, strict=True)
        for a, b in zip(x, y, strict=True)
    ]
    assert 0 < max(moved) < 1  # small steps from where the shipped tables stand
