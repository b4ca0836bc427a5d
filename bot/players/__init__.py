"""Computer players: pure functions of (game, player, rng) that pick a legal move.

Three levels, for every variant: ``easy`` (a few rules of thumb), ``normal`` (plans the
whole turn with a simple rating of the sheet) and ``hard`` (plans the whole turn with
a learned or carefully estimated rating, see :mod:`bot.players.qwixx_player` and
:mod:`bot.players.qwinto_player`). Every level decides only among
``game.legal_moves(player)`` and is deterministic for a given ``rng`` state (it breaks
exact ties). ``hard``'s decision takes at most some 5 ms of CPU time (p99 in games of
2-5, and alone), most of it looking a roll ahead. In
head-to-head games ``hard`` beats ``normal`` and ``normal`` beats ``easy`` in three games
out of four or more in every variant (``benchmarks/bench_players.py``).

:func:`hint` tells what ``hard`` would do and why. Computer seats have negative ids, so
they never collide with Discord users.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from bot.i18n.words import t
from bot.rules import PASS, Game, Move

LEVELS = ("easy", "normal", "hard")
DEFAULT_LEVEL = "easy"


def is_computer(player: int) -> bool:
    return player < 0


def computer_seat(number: int) -> int:
    """The id of the ``number``-th computer seat of a game (1, 2, …)."""
    return -number


def computer_name(player: int) -> str:
    return t("player.computer", number=-player)  # in the language being written


@dataclass(frozen=True)
class Option:
    """A legal move as ``hard`` sees it."""

    move: Move
    value: float  # the player's expected final score if they make it (and play on well);
    # for ``hard`` Qwixx in games of two or more: the expected margin over the best opponent
    risk: float  # the chance, 0-1, that it ends the turn with a penalty or failed throw


@dataclass(frozen=True)
class Hint:
    """What ``hard`` would do now and why; ``text`` says it in one plain sentence."""

    move: Move
    options: tuple[Option, ...]  # every legal move in hard's order; options[0].move == move
    text: str

    @property
    def gain(self) -> float:
        """Expected points the move is worth over the next in ``hard``'s order (0 if none)."""
        return lead(self.options)

    @property
    def risk(self) -> float:
        return self.options[0].risk

    @property
    def surer(self) -> bool:
        return surer(self.options)


def choose(game: Game, player: int, rng: random.Random, level: str = DEFAULT_LEVEL) -> Move:
    """The move ``player`` makes at ``level`` ("easy", "normal" or "hard").

    Call it only when ``player`` is waited for (``game.decision().waiting``).
    """
    if level == "easy":
        from bot.players import easy  # the players' modules load at a computer's first move

        return easy.choose(game, player, rng)
    options = rate(game, player, level)
    top = [o for o in options if o.value >= options[0].value - 1e-9]
    return top[rng.randrange(len(top))].move if len(top) > 1 else top[0].move


def rate(game: Game, player: int, level: str) -> list[Option]:
    """Every legal move of ``player`` rated at ``level`` ("normal" or "hard"), best first."""
    if level not in LEVELS[1:]:
        raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
    if game.variant == "qwinto":
        from bot.players import qwinto_player

        return [Option(m, v, r) for m, v, r in qwinto_player.rate_moves(game, player, level)]
    from bot.players import qwixx_player

    return [
        Option(r.move, r.value, float(r.penalty))
        for r in qwixx_player.rate_moves(game, player, level)
    ]


def hint(game: Game, player: int) -> Hint:
    """What ``hard`` would do for ``player`` now, with the figures to explain it.

    Pure and deterministic (exact ties go to the first move the rules list). Call it
    only when ``player`` is waited for.
    """
    options = tuple(rate(game, player, "hard"))
    if not options:
        raise ValueError(f"player {player} has nothing to decide")
    from bot.players.qwixx_model import SETTLE

    if game.variant in SETTLE and len(game.players) > 1:
        options = as_margins(game, player, options)
    loss = "failed throw" if game.variant == "qwinto" else "penalty"
    margin = game.variant != "qwinto" and len(game.players) > 1
    return Hint(options[0].move, options, explain(options, loss, margin))


def as_margins(game: Game, player: int, options: tuple[Option, ...]) -> tuple[Option, ...]:
    """``hard``'s options in its order, each with the margin it expects: a game a move
    ends counts its final margin as it is, not as ``hard`` weighs it against games that
    go on (:class:`~bot.players.qwixx_model.Settle`), which would overstate it."""
    from bot.players import qwixx_player

    margins = {r.move: r.value for r in qwixx_player.rate_moves(game, player, "hard", False)}
    return tuple(replace(o, value=margins[o.move]) for o in options)


def lead(options: tuple[Option, ...]) -> float:
    """How much the best option is worth over the next (never below 0: a move ``hard``
    prefers for ending the game may show a smaller margin than playing on)."""
    return max(0.0, options[0].value - options[1].value) if len(options) > 1 else 0.0


def surer(options: tuple[Option, ...]) -> bool:
    """``hard`` prefers its move to the next though that expects a larger margin: it wins
    more surely (it ends the game in the lead, or the other would end it behind)."""
    return len(options) > 1 and options[0].value < options[1].value


def explain(options: tuple[Option, ...], loss: str, margin: bool = False) -> str:
    best = options[0]
    expected = (
        f"about {best.value:.0f} points expected"
        if not margin
        else f"about {abs(best.value):.0f} points "
        f"{'ahead' if best.value >= 0 else 'behind'} expected"
    )
    text = f"{describe(best.move).capitalize()}: {expected}"
    if surer(options):
        text += f", a better chance to win than {describe(options[1].move)}"
    elif len(options) > 1:
        text += f", {lead(options):.1f} more than {describe(options[1].move)}"
    risky = [o for o in options[1:] if o.risk >= 0.5]
    if best.risk >= 0.05:
        text += f"; {best.risk:.0%} risk of a {loss}"
    elif risky:
        text += f"; {describe(risky[0].move)} would risk a {loss}"
    return text + "."


def describe(move: Move) -> str:
    """A move in a few plain words (the interface has its own wording)."""
    if move == PASS:
        return "pass"
    if move.kind in ("cross", "lucky"):
        return f"cross {move.row} {move.number}" + (" (lucky)" if move.kind == "lucky" else "")
    if move.kind == "pawn":
        return f"move the pawn {move.number} to {move.row}"
    if move.kind == "roll":
        return "roll " + " + ".join(move.dice)
    if move.kind == "place":
        return f"write in {move.row}, column {move.number}"
    return move.kind.replace("reroll", "re-roll")
