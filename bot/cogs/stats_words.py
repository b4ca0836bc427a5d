"""The statistics in words: the leaderboard's image table and alt text, a member's
stats fields, and the history's lines. Pure text from the service's figures."""

from __future__ import annotations

from bot.i18n.words import decimal, inline, percent, plural, signed, t
from bot.records.daily import DailyBest
from bot.records.stats import Accuracy, HistoryGame, PracticeBest
from bot.render.lines import BoardRow, BoardTable
from bot.rules import VARIANTS
from bot.service.daily import DailyRecord
from bot.service.rated import RatingBoard, RatingLine
from bot.service.ratings import PROVISIONAL, START, Rating, read
from bot.service.stats import BoardLine, Leaderboard, PlayerStats, Rates, VariantStats

RATING_COLUMNS = ("rating", "games")
COLUMNS = ("games", "wins", "rate", "average", "best")  # the leaderboard's value columns
ALT_TEXT = 1024  # Discord's limit for an attachment's description


def title_of(variant: str | None) -> str:
    """A variant's title (``None``: every game), even for a variant no longer offered."""
    if variant is None:
        return t("leaderboard.all_games")
    cls = VARIANTS.get(variant)
    return cls.title if cls else variant


def win_rate(line: Rates) -> str:
    """``50%``, ``50 %``, ``%50``: as the reader's language writes it."""
    return percent(line.win_rate)


def average(line: Rates) -> str:
    """``12.5`` or ``12,5``."""
    return decimal(line.average, 1)


def date(timestamp: float) -> str:
    """A date each reader sees in their own format (Discord timestamp markup)."""
    return f"<t:{int(timestamp)}:d>"


def board_values(line: BoardLine) -> tuple[str, ...]:
    """The value columns as the image prints them (with a typographic minus)."""
    values = (str(line.games), str(line.wins), win_rate(line), average(line), str(line.best))
    return tuple(v.replace("-", "−") for v in values)


def listed(board: Leaderboard) -> list[BoardLine]:
    """The top lines in the order shown: by rank; within a shared rank by higher win
    rate, then more games (as ranked), then higher average and best score."""
    return sorted(
        board.lines,
        key=lambda line: (line.rank or 0, -line.win_rate, -line.games, -line.average, -line.best),
    )


def standing(line: BoardLine, sort: str) -> bool:
    """Whether ``line`` has a real standing to show with a medal: wins or a win rate to
    rank by (no medal for nobody's zero wins); any average or best score is one."""
    if line.rank is None:
        return False
    if sort == "wins":
        return line.wins > 0
    if sort == "rate":
        return line.win_rate > 0
    return True


def board_table(board: Leaderboard, caller: int) -> BoardTable:
    """What the leaderboard image shows."""
    rows = [
        BoardRow(
            str(line.rank),
            line.name or t("stats.unknown_player"),
            board_values(line),
            you=line.player_id == caller,
            leader=line.rank == 1 and standing(line, board.sort),
            medal=standing(line, board.sort),
        )
        for line in listed(board)
    ]
    if board.own is not None:
        own = board.own
        rank = str(own.rank) if own.rank is not None else t("leaderboard.unranked")
        rows.append(
            BoardRow(
                rank,
                own.name or t("stats.unknown_player"),
                board_values(own),
                you=True,
                detached=True,
                medal=standing(own, board.sort),
            )
        )
    return BoardTable(
        title=t(
            "leaderboard.image_title",
            scope=title_of(board.variant),
            period=t(f"period.{board.period}"),
        ),
        subtitle=t(
            "leaderboard.subtitle", sort=inline(t(f"sort.{board.sort}")), count=board.ranked
        ),
        rank_header=t("column.rank"),
        name_header=t("column.player"),
        headers=tuple(t(f"column.{c}") for c in COLUMNS),
        rows=tuple(rows),
        footer=footer(board),
        sorted_column=COLUMNS.index(board.sort),
    )


def footer(board: Leaderboard) -> str:
    """The minimum-games rule, always stated; with who it left out on a rate sort."""
    rule = t("leaderboard.rule", min=board.min_games)
    if board.sort in ("rate", "average") and board.unranked:
        rule += " " + t("leaderboard.left_out", count=board.unranked, min=board.min_games)
    return rule


def alt_text(board: Leaderboard) -> str:
    """The leaderboard in words, for screen readers (and tests)."""
    lines = [
        t(
            "leaderboard.alt_title",
            scope=title_of(board.variant),
            period=inline(t(f"period.{board.period}")),
            sort=inline(t(f"sort.{board.sort}")),
        )
    ]
    shown = [*listed(board), *([board.own] if board.own else [])]
    for line in shown:
        rank = str(line.rank) if line.rank is not None else t("leaderboard.unranked")
        lines.append(
            t(
                "leaderboard.alt_line",
                rank=rank,
                name=line.name or t("stats.unknown_player"),
                games=line.games,
                wins=line.wins,
                rate=win_rate(line),
                average=average(line),
                best=line.best,
            )
        )
    lines.append(footer(board))
    text = "\n".join(lines)
    return text if len(text) <= ALT_TEXT else text[: ALT_TEXT - 1] + "…"


def rating_values(line: RatingLine) -> tuple[str, ...]:
    """A rating as read (``?``: provisional) and the games it rests on."""
    return read(line.rating), str(line.rating.games)


def rating_table(board: RatingBoard, caller: int) -> BoardTable:
    """What the rating leaderboard's image shows."""
    rows = [
        BoardRow(
            str(line.rank),
            line.name or t("stats.unknown_player"),
            rating_values(line),
            you=line.player_id == caller,
            leader=line.rank == 1,
        )
        for line in board.lines
    ]
    if board.own is not None:
        own = board.own
        rows.append(
            BoardRow(
                str(own.rank),
                own.name or t("stats.unknown_player"),
                rating_values(own),
                you=True,
                detached=True,
            )
        )
    return BoardTable(
        title=t("leaderboard.image_title", scope=title_of(board.variant), period=t("period.all")),
        subtitle=t("leaderboard.subtitle", sort=inline(t("sort.rating")), count=board.ranked),
        rank_header=t("column.rank"),
        name_header=t("column.player"),
        headers=tuple(t(f"column.{c}") for c in RATING_COLUMNS),
        rows=tuple(rows),
        footer=t("leaderboard.rating_rule", min=PROVISIONAL, start=START),
        sorted_column=0,
    )


def rating_alt_text(board: RatingBoard) -> str:
    """The rating leaderboard in words."""
    lines = [
        t(
            "leaderboard.alt_title",
            scope=title_of(board.variant),
            period=inline(t("period.all")),
            sort=inline(t("sort.rating")),
        )
    ]
    for line in [*board.lines, *([board.own] if board.own else [])]:
        mark = f" ({t('leaderboard.provisional')})" if line.rating.provisional else ""
        lines.append(
            t(
                "leaderboard.alt_rating_line",
                rank=line.rank,
                name=line.name or t("stats.unknown_player"),
                rating=read(line.rating),
                mark=mark,
                games=line.rating.games,
            )
        )
    lines.append(t("leaderboard.rating_rule", min=PROVISIONAL, start=START))
    text = "\n".join(lines)
    return text if len(text) <= ALT_TEXT else text[: ALT_TEXT - 1] + "…"


def stats_field(
    stats: VariantStats, accuracy: Accuracy | None = None, rating: Rating | None = None
) -> tuple[str, str]:
    """A variant's field (or all games'): the counted games' figures, the last scores,
    the average accuracy and the rating (``?``: provisional) when there are any."""
    name = t("stats.overall") if stats.variant is None else title_of(stats.variant)
    value = t(
        "stats.figures",
        games=stats.games,
        wins=stats.wins,
        rate=win_rate(stats),
        average=average(stats),
        best=stats.best,
    )
    if stats.last:
        value += "\n" + last_scores(stats.last)
    if accuracy is not None:
        value += "\n" + t(
            "stats.accuracy",
            accuracy=percent(accuracy.accuracy),
            games=plural("stats.reviewed_games", accuracy.games),
        )
    if rating is not None:
        value += "\n" + t(
            "stats.rating",
            rating=read(rating),
            games=plural("stats.rated_games", rating.games),
        )
    return name, value


def practice_line(best: PracticeBest, stats: PlayerStats, where: str = "practice") -> str:
    """A variant's uncounted games (``where``: solo practice, or the other uncounted
    games); with the variant's average accuracy if it is shown here (see
    :func:`accuracy_shown`)."""
    line = t(
        "stats.practice_line",
        title=title_of(best.variant),
        best=signed(best.best),
        games=best.games,
        last=signed(best.last),
    )
    accuracy = stats.accuracy(best.variant)
    if accuracy is None or accuracy_shown(stats).get(best.variant) != where:
        return line
    return (
        line
        + " · "
        + t(
            "stats.accuracy",
            accuracy=percent(accuracy.accuracy),
            games=plural("stats.reviewed_games", accuracy.games),
        )
    )


def accuracy_shown(stats: PlayerStats) -> dict[str, str]:
    """Where each variant's average accuracy is shown, once: with its counted games,
    else its solo practice, else its other uncounted games."""
    shown: dict[str, str] = {}
    for where, variants in (
        ("counted", [v.variant for v in stats.variants]),
        ("practice", [p.variant for p in stats.practice]),
        ("uncounted", [p.variant for p in stats.uncounted]),
    ):
        for variant in variants:
            if variant is not None:
                shown.setdefault(variant, where)
    return shown


def stats_footer(stats: PlayerStats, first: str = "stats.footer") -> str:
    """What the figures count (``first``: where they come from), and how accuracy and
    rating are read when shown."""
    parts = [t(first)]
    if stats.practice:
        parts.append(t("stats.practice_footer"))
    if stats.uncounted:
        parts.append(t("stats.uncounted_footer"))
    overall = stats.overall is not None  # its field shows the average over every variant
    if stats.accuracies and (overall or set(stats.accuracies) & set(accuracy_shown(stats))):
        parts.append(t("stats.accuracy_footer"))
    if stats.overall is not None and stats.ratings:
        parts.append(t("stats.rating_footer", min=PROVISIONAL, start=START))
    return " ".join(parts)


def last_scores(scores: tuple[int, ...]) -> str:
    """``Last game: −4`` or ``Last 3 games: 12 · −4 · 30`` (newest first), in the
    language's plural form, with a typographic minus."""
    shown = " · ".join(f"−{-s}" if s < 0 else str(s) for s in scores)
    if len(scores) == 1:
        return t("stats.last_game", score=shown)
    return f"{plural('stats.last_games', len(scores))} {shown}"


def history_line(number: int, game: HistoryGame) -> str:
    scores = " · ".join(
        t(
            "history.score",
            name=f"<@{line.player_id}>",
            score=line.score,
            mark=t("history.winner") if line.won else "",
        )
        + (" " + t("history.stand_in") if line.stand_in else "")
        for line in game.lines
    )
    text = t(
        "history.line",
        number=number,
        date=date(game.finished_at),
        title=title_of(game.variant),
        turns=game.turns,
        scores=scores,
    )
    flags = ("daily", "hints") if game.daily else ("practice", "hints")
    marks = [t(f"history.{flag}") for flag in flags if getattr(game, flag)]
    if game.tournament:
        marks.append(t("history.tournament", name=game.tournament, round=game.round))
    if not game.counted and not marks:
        marks.append(t("history.not_counted"))
    return " ".join([text, *marks])


def daily_field(record: DailyRecord) -> tuple[str, str]:
    """A member's daily challenge, every day and server together: per variant the days
    finished, the best and the average score; the streak."""
    lines = [daily_line(best) for best in record.bests]
    lines.append(t("stats.daily_streak", days=plural("unit.day", record.streak)))
    return t("stats.daily"), "\n".join(lines)


def daily_line(best: DailyBest) -> str:
    return t(
        "stats.daily_line",
        title=title_of(best.variant),
        days=plural("unit.day", best.days),
        best=signed(best.best),
        average=decimal(best.average, 1).replace("-", "−"),  # a true minus, as the best's
    )
