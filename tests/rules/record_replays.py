"""Record ``data/replays.json``: seeded games of every variant played with random legal
moves, as the rules played them when the file was written (see test_replays.py).

    python -m tests.rules.record_replays

It records only the cases the file does not hold yet: the games already recorded are
the guarantee that stored games and replays stay as they were, so they are never
recorded again.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

from bot.rules import Event, Game, new_game

DATA = Path(__file__).parent / "data" / "replays.json"

# (variant, players, seed, options, solo, dice_version)
CASES: tuple[tuple[str, tuple[int, ...], int, dict[str, Any], bool, int], ...] = (
    ("classic", (7,), 11, {}, True, 2),
    ("classic", (1, 2), 12, {}, False, 2),
    ("classic", (1, 2), 13, {}, False, 1),
    ("classic", (5, 4, 3), 14, {}, False, 2),
    ("classic", (1, 2, 3, 4, 5), 15, {}, False, 2),
    ("longo", (7,), 21, {}, True, 2),
    ("longo", (1, 2), 22, {}, False, 2),
    ("longo", (1, 2, 3, 4), 23, {}, False, 1),
    ("longo", (9, 8, 7, 6, 5), 24, {}, False, 2),
    ("onboard", (7,), 31, {"board": "A"}, True, 2),
    ("onboard", (1, 2), 32, {"board": "A"}, False, 2),
    ("onboard", (1, 2, 3), 33, {"board": "B"}, False, 2),
    ("onboard", (4, 3, 2, 1), 34, {"board": "B"}, False, 1),
    ("qwinto", (7,), 41, {}, True, 2),
    ("qwinto", (1, 2), 42, {}, False, 2),
    ("qwinto", (1, 2, 3), 43, {}, False, 1),
    ("qwinto", (3, 1, 2, 5, 4), 44, {}, False, 2),
    ("classic", (1, 2), 16, {}, False, 3),
    ("longo", (7,), 25, {}, True, 3),
    ("longo", (1, 2, 3), 26, {}, False, 3),
    ("onboard", (1, 2), 35, {"board": "A"}, False, 3),
    ("qwinto", (1, 2), 45, {}, False, 3),
    # Version 4, in games where a row closes and turns follow (seeds chosen so).
    ("classic", (7,), 277, {}, True, 4),
    ("classic", (1, 2, 3), 101, {}, False, 4),
    ("longo", (7,), 27, {}, True, 4),
    ("longo", (1, 2), 317, {}, False, 4),
    ("onboard", (1, 2), 128, {"board": "B"}, False, 4),
    ("qwinto", (1, 2, 3), 46, {}, False, 4),
)


def canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def events_json(events: list[Event]) -> list[Any]:
    return [[e.kind, e.player, e.data] for e in events]


def state_digest(game: Game, events: list[Event], digest: Any) -> None:
    """Fold one step into ``digest``: the game's JSON, its decision, scores, every
    player's legal moves, and the events of the step."""
    decision = game.decision()
    digest.update(
        canonical(
            {
                "json": game.to_json(),
                "decision": [
                    decision.phase,
                    decision.turn,
                    decision.active,
                    sorted(decision.waiting),
                ],
                "legal": {str(p): [m.to_json() for m in game.legal_moves(p)] for p in game.players},
                "scores": scores_json(game),
                "events": events_json(events),
            }
        ).encode()
    )


def scores_json(game: Game) -> dict[str, Any]:
    return {
        str(p): [s.rows, s.penalties, s.penalty_points, s.bonus, s.total]
        for p, s in game.scores().items()
    }


def record(
    variant: str,
    players: tuple[int, ...],
    seed: int,
    options: dict[str, Any],
    solo: bool,
    dice_version: int,
) -> dict[str, Any]:
    rng = random.Random(seed)
    game = new_game(variant, players, seed, options, solo, dice_version)
    digest = hashlib.sha256()
    state_digest(game, [], digest)
    moves: list[Any] = []
    events: list[Any] = []
    while not game.finished:
        player = rng.choice(sorted(game.decision().waiting))
        move = rng.choice(game.legal_moves(player))
        game, happened = game.apply(player, move)
        moves.append([player, move.to_json()])
        events.append(events_json(happened))
        state_digest(game, happened, digest)
    return {
        "variant": variant,
        "players": list(players),
        "seed": seed,
        "options": options,
        "solo": solo,
        "dice_version": dice_version,
        "moves": moves,
        "events": events,
        "final": game.to_json(),
        "scores": scores_json(game),
        "ranking": [[s.rank, s.player, s.total] for s in game.ranking()],
        "digest": digest.hexdigest(),
    }


def main() -> None:
    games = json.loads(DATA.read_text()) if DATA.exists() else []
    held = {(g["variant"], tuple(g["players"]), g["seed"], g["dice_version"]) for g in games}
    added = [record(*case) for case in CASES if case[:3] + case[5:] not in held]
    DATA.write_text(canonical(games + added) + "\n")
    print(
        f"{len(added)} games added, {len(games) + len(added)} in all, {DATA.stat().st_size:,} bytes"
    )


if __name__ == "__main__":
    main()
