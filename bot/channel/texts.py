"""The channel's words that are not a turn's story: links and the final message.

Pure text from the stored game, like :mod:`bot.channel.story`: no Discord here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.channel.cards import Card, card
from bot.channel.story import fit, mention, mentions
from bot.i18n.words import change, ordinal, percent, plural, signed, t
from bot.players import is_computer
from bot.records.games import GameRecord
from bot.records.options import Options
from bot.rules import VARIANTS, Game


def message_link(record: GameRecord) -> str:
    return f"https://discord.com/channels/{record.guild_id}/{record.channel_id}/{record.message_id}"


def seat_name(player: int, options: Options) -> str:
    """A person's mention, or a computer's name with its level: ``🤖 Computer 1 (Hard)``."""
    if not is_computer(player):
        return mention(player)
    return t("lobby.computer", name=mention(player), level=t(f"level.{options.level(player)}"))


def lobby_closed_content(record: GameRecord, key: str, by: int) -> str:
    """A lobby that closed: why, and who was in it (the computers with their levels); a
    game it started that will not count for the leaderboard says so, and why."""
    title, options = VARIANTS[record.variant].title, Options.of(record.options)
    text = t(
        key,
        title=title,
        names=", ".join(seat_name(p, options) for p in record.players),
        name=mention(by),
    )
    if key != "lobby.started":
        return text
    people = sum(not is_computer(p) for p in record.players)
    notes = [
        t("lobby.uncounted.people") if people < 2 and not options.solo else "",
        t("lobby.uncounted.hints") if options.hints else "",
    ]
    return "\n".join([text, *filter(None, notes)])


def lobby_closed_card(content: str) -> Card:
    """A closed lobby (:func:`lobby_closed_content`) as a card: why it closed, its notes
    (if any) below."""
    return card(content, tail=len(content.splitlines()) - 1)


def end_content(
    game: Game,
    preface: Iterable[str] = (),
    wins: Mapping[int, int] | None = None,
    best: int | None = None,
    ratings: Mapping[int, tuple[str, int]] | None = None,
    accuracies: Mapping[int, float] | None = None,
    options: Options | None = None,
) -> str:
    """The ranking (a computer named with its level, from ``options``), the winner named,
    and (``wins``) each winner's count on this server; a solo game instead sets its score
    against the personal best ``best`` (None: the player's first), for nobody wins a game
    played alone. ``ratings``: each rated person's rating after the game and its change,
    shown on their line; ``accuracies``: each person's accuracy against Hard, in a line
    of their own."""
    ranking = game.ranking()
    lines = [t("end.title", title=game.title)]
    if len(game.players) == 1:
        lines += [
            t("end.solo.score", name=mention(game.players[0]), total=signed(ranking[0].total)),
            solo_verdict(game.title, ranking[0].total, best),
            *accuracy_line(game, accuracies),
        ]
        return fit(list(preface), "\n".join(lines))
    winners = [s.player for s in ranking if s.rank == 1]
    rated, seats = ratings or {}, options or Options()
    lines += [
        t(
            "end.line_rated",
            rank=s.rank,
            name=mention(s.player),
            total=signed(s.total),
            rating=rated[s.player][0],
            change=change(rated[s.player][1]),
        )
        if s.player in rated
        else t("end.line", rank=s.rank, name=seat_name(s.player, seats), total=signed(s.total))
        for s in ranking
    ]
    lines.append(t("end.winner", names=mentions(winners), verb=plural("end.verb", len(winners))))
    lines += [
        t("end.wins", name=mention(p), nth=ordinal(n)) for p, n in (wins or {}).items() if n > 0
    ]
    lines += accuracy_line(game, accuracies)
    return fit(list(preface), "\n".join(lines))


def accuracy_line(game: Game, accuracies: Mapping[int, float] | None) -> list[str]:
    """The people's accuracies in the ranking's order (none: no line)."""
    shown = [
        t("review.end.person", name=mention(s.player), accuracy=percent(accuracies[s.player]))
        for s in game.ranking()
        if accuracies and s.player in accuracies
    ]
    return [t("review.end.accuracy", accuracies=" · ".join(shown))] if shown else []


def solo_verdict(title: str, total: int, best: int | None) -> str:
    """A solo score against the personal best before it."""
    if best is None:
        return t("end.solo.first", title=title, total=signed(total))
    if total > best:
        return t("end.solo.record", total=signed(total), best=signed(best))
    if total == best:
        return t("end.solo.equal", best=signed(best))
    return t("end.solo.below", best=signed(best), gap=best - total)
