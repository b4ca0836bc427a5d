"""A tournament's public messages in words: the sign-up message, each round's message,
the standings (text, and the lines of their image), the podium, the server's list.

Each is a function of the stored tournament and its standings (the core's pure
:func:`bot.tournament.standings`), written in the current language, and fits one
Discord message (2,000 characters of text; 4,000 in a card, whose blocks are
:func:`fitted`'s): a long list is cut where it must, and says how many it leaves out
and where to see them. The sign-up message and the standings have a text form too,
for those posted before cards. People are mentions (Discord shows each reader the names);
the image, which cannot show mentions, gets display names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

from bot.channel.cards import CARD_TEXT, Card
from bot.durations import format_duration
from bot.i18n.words import plural, t, whole
from bot.render.lines import BoardTable
from bot.render.standings_lines import standings_rows
from bot.rules import VARIANTS
from bot.tournament import TournamentStanding, points_text, skipped_points
from bot.tournament.records import Tournament, TournamentRecord
from bot.tournament.settings import MOST_PLAYERS

MESSAGE_LIMIT = 2000  # Discord's limit for a message's content
MEDALS = ("🥇", "🥈", "🥉")
DROPPED = CARD_TEXT // 4
"""The characters a round's message gives those dropped at check-in."""


def mention(player: int) -> str:
    return f"<@{player}>"


def points(value: Fraction) -> str:
    """``7``, ``4½``: points as written, digits grouped the language's way."""
    return points_text(value, whole)


def points_words(value: Fraction) -> str:
    """``1 point``, ``4½ points``: in the language's plural form (a fraction takes the
    form CLDR gives fractions, ``other``)."""
    if value.denominator == 1:
        return plural("unit.point", int(value))
    return t("unit.point.other", count=points(value))


def place_points(t_: Tournament | TournamentRecord) -> str:
    return " · ".join(str(p) for p in t_.settings.place_points)


def title_of(variant: str) -> str:
    cls = VARIANTS.get(variant)
    return cls.title if cls else variant


def fitted(
    head: Sequence[str],
    items: Sequence[str],
    tail: Sequence[str],
    more: Callable[[int], str],
    limit: int = MESSAGE_LIMIT,
) -> tuple[str, ...]:
    """``head``, as many of ``items`` as fit before ``tail`` in ``limit`` characters
    and ``more(left out)`` for the rest: three blocks of lines (an empty one left out),
    which a message joins line by line and a card shows apart."""
    fixed = sum(len(line) + 1 for line in (*head, *tail))
    shown: list[str] = []
    for k, item in enumerate(items):
        rest = len(items) - k - 1
        room = limit - fixed - len(item) - 1 - (len(more(rest)) + 1 if rest else 0)
        if sum(len(line) + 1 for line in shown) > room:
            return blocks(head, [*shown, more(len(items) - k)], tail)
        shown.append(item)
    return blocks(head, shown, tail)


def blocks(*parts: Sequence[str]) -> tuple[str, ...]:
    """Each part's lines as a block (an empty part left out)."""
    return tuple("\n".join(part) for part in parts if part)


def text(parts: Sequence[str]) -> str:
    """A message's blocks as its text: their lines, in order."""
    return "\n".join(parts)


def listed(names: Sequence[str], more_key: str, room: int, sep: str = ", ") -> str:
    """``names`` joined by ``sep`` within ``room`` characters, then "and N more"."""
    text = ""
    for k, name in enumerate(names):
        rest = len(names) - k - 1
        joined = f"{text}{sep}{name}" if text else name
        tail = t(more_key, count=rest) if rest else ""
        if len(joined) + len(tail) + 2 > room:
            return f"{text} {t(more_key, count=len(names) - k)}".strip()
        text = joined
    return text


# --- the sign-up message -------------------------------------------------------
def signup_content(tournament: Tournament, now: float) -> str:
    """The sign-up message as text (as posted before cards)."""
    return text(signup_blocks(tournament, now, MESSAGE_LIMIT))


def signup_card(tournament: Tournament, now: float) -> Card:
    """The sign-up message as a card: its title, its settings, then how it starts and
    who signed up (as many as a card holds)."""
    return Card(signup_blocks(tournament, now, CARD_TEXT))


def signup_blocks(tournament: Tournament, now: float, limit: int) -> tuple[str, ...]:
    """What the sign-up message shows, in ``limit`` characters: the settings, how it
    starts, who signed up; once closed, how it ended up."""
    record, settings = tournament.record, tournament.settings
    title = [
        t(
            "tournament.signup.title",
            name=record.name,
            title=title_of(settings.variant),
            host=mention(record.host_id),
        )
    ]
    rules = [
        t(
            "tournament.signup.format",
            rounds=plural("unit.round", settings.rounds),
            size=settings.table_size,
            smallest=settings.smallest,
            turn_time=format_duration(settings.turn_time),
            points=place_points(tournament),
        ),
        t(
            "tournament.signup.repeats_avoided"
            if settings.avoid_repeats
            else "tournament.signup.repeats_allowed"
        ),
        t(
            "tournament.signup.computers"
            if settings.computers
            else "tournament.signup.no_computers"
        ),
    ]
    room = limit - len(text([*title, *rules])) - 1  # the line break before the status
    return blocks(title, rules, signup_status(tournament, now, room))


def signup_status(tournament: Tournament, now: float, room: int) -> list[str]:
    """How the sign-up starts and who signed up, in ``room`` characters; once closed,
    how it ended up."""
    record, settings = tournament.record, tournament.settings
    count = len(tournament.entrants)
    if record.status == "cancelled":
        late = settings.deadline is not None and (record.finished_at or 0) >= settings.deadline
        return [
            t("tournament.signup.void", count=count, least=settings.fewest_players)
            if late
            else t("tournament.signup.cancelled")
        ]
    if record.status != "signup":
        return [t("tournament.signup.closed", count=count)]
    lines = []
    if settings.deadline is not None:
        lines.append(
            t(
                "tournament.signup.deadline",
                when=f"<t:{settings.deadline}:f>",
                relative=f"<t:{settings.deadline}:R>",
            )
        )
    else:
        lines.append(
            t(
                "tournament.signup.manual",
                host=mention(record.host_id),
                least=settings.fewest_players,
            )
        )
    opens = settings.check_in_opens
    if opens is not None:
        if now < opens:
            lines.append(t("tournament.signup.check_in", relative=f"<t:{opens}:R>"))
        else:
            checked = sum(e.checked_in for e in tournament.entrants)
            lines.append(t("tournament.signup.check_in_open", checked=checked, count=count))
    if not count:
        return [*lines, t("tournament.signup.nobody")]
    head = t("tournament.signup.players", count=count, most=MOST_PLAYERS, names="")
    room -= sum(len(line) + 1 for line in lines) + len(head)
    marked = [
        mention(e.player) + (" ✅" if opens is not None and e.checked_in else "")
        for e in tournament.entrants
    ]
    names = listed(marked, "tournament.signup.more", room)
    return [*lines, t("tournament.signup.players", count=count, most=MOST_PLAYERS, names=names)]


def signup_actions(tournament: Tournament, now: float) -> tuple[str, ...]:
    """The sign-up message's buttons: none once closed."""
    record, settings = tournament.record, tournament.settings
    if record.status != "signup":
        return ()
    actions = ["join", "leave"]
    opens = settings.check_in_opens
    if opens is not None and now >= opens:
        actions.append("checkin")
    if settings.deadline is None:
        actions.append("start")
    return tuple(actions)


# --- a round -------------------------------------------------------------------
def seated_by(tournament: Tournament, number: int) -> str:
    """What round ``number``'s seating orders by (:func:`bot.tournament.next_round`):
    round 1 by the ratings the leaderboard shows; later rounds by the standings, cut
    into tables in order unless keeping opponents apart moves someone down."""
    settings = tournament.settings
    if number == 1:
        return t("tournament.round.first", title=title_of(settings.variant))
    if settings.avoid_repeats:
        return t("tournament.round.later_apart")
    return t("tournament.round.later")


def round_card(tournament: Tournament, number: int, dropped: Sequence[int] = ()) -> Card:
    """Round ``number``'s message: how it was seated, each table with its thread and
    players (as many tables as a card holds), who sits out (and, in round 1, who was
    dropped at check-in)."""
    record, settings = tournament.record, tournament.settings
    round_ = tournament.seated[number - 1]
    threads = {t_.number: t_.thread_id for t_ in tournament.tables_of(number)}
    head = [
        t(
            "tournament.round.title",
            name=record.name,
            round=number,
            rounds=settings.rounds,
            tables=plural("unit.table", len(round_.tables)),
        ),
        seated_by(tournament, number),
    ]
    if number > 1 and settings.avoid_repeats:
        head.append(
            t("tournament.round.no_repeats")
            if not round_.repeats
            else t("tournament.round.repeats", pairs=plural("unit.pair_again", round_.repeats))
        )
    tables = []
    for table in round_.tables:
        thread = threads.get(table.number)
        people = " ".join(mention(p) for p in table.players)
        if table.computers:
            people += " " + t(
                "tournament.round.computers",
                count=plural("unit.hard_computer", table.computers),
            )
        tables.append(
            t(
                "tournament.round.table",
                number=table.number,
                thread=f"<#{thread}>" if thread else "—",
                players=people,
            )
        )
    tail = []
    if round_.byes:
        tail.append(
            t(
                "tournament.round.sits_out",
                points=points_words(skipped_points(settings.place_points)),
                names=" ".join(mention(p) for p in round_.byes),
            )
        )
    if dropped:  # up to all but two who signed up: a quarter of the card at most
        names = listed([mention(p) for p in dropped], "tournament.signup.more", DROPPED, " ")
        tail.append(t("tournament.round.dropped", names=names))
    last = number == settings.rounds
    tail.append(
        t(
            "tournament.round.footer_last" if last else "tournament.round.footer",
            turn_time=format_duration(settings.turn_time),
        )
    )
    return Card(
        fitted(
            head,
            tables,
            tail,
            lambda n: t("tournament.round.more", tables=plural("unit.table", n)),
            CARD_TEXT,
        )
    )


# --- the standings -------------------------------------------------------------
def notes(line: TournamentStanding) -> list[str]:
    """What a standings line says after the figures: a withdrawal, decisions that ran
    out, games played as away, rounds sat out."""
    found = []
    if line.withdrawn_after is not None:
        found.append(t("tournament.standings.withdrew", round=line.withdrawn_after))
    if line.timeouts:
        found.append(plural("tournament.standings.ran_out", line.timeouts))
    if line.away:
        found.append(t("tournament.standings.away"))
    if line.byes:
        found.append(t("tournament.standings.sat_out"))
    return found


def standings_title(tournament: Tournament) -> str:
    record, settings = tournament.record, tournament.settings
    number = record.rounds
    if record.status == "finished":
        return t(
            "tournament.standings.final",
            name=record.name,
            rounds=plural("unit.round", settings.rounds),
        )
    tables = tournament.tables_of(number)
    done = sum(table.result is not None for table in tables)
    if number <= 1 and not done:
        return t("tournament.standings.start", name=record.name, rounds=settings.rounds)
    if done == len(tables):
        return t(
            "tournament.standings.title", name=record.name, round=number, rounds=settings.rounds
        )
    return t(
        "tournament.standings.playing",
        name=record.name,
        round=number,
        rounds=settings.rounds,
        done=done,
        tables=len(tables),
    )


def image_subtitle(tournament: Tournament, count: int) -> str:
    """Where the tournament stands, under the image's title."""
    record, settings = tournament.record, tournament.settings
    if record.status == "finished":
        return t(
            "tournament.image.final", rounds=plural("unit.round", settings.rounds), count=count
        )
    tables = tournament.tables_of(record.rounds)
    return t(
        "tournament.image.subtitle",
        round=record.rounds,
        rounds=settings.rounds,
        done=sum(table.result is not None for table in tables),
        tables=len(tables),
        count=count,
    )


def standings_line(line: TournamentStanding, played: bool) -> str:
    """One place: a medal once anyone has played, the figures, then what befell them."""
    medal = MEDALS[line.place - 1] + " " if played and line.place <= len(MEDALS) else ""
    text = medal + t(
        "tournament.standings.line",
        place=line.place,
        name=mention(line.player),
        points=points_words(line.points),
        opponents=points(line.opponents),
        score=whole(line.score),
    )
    said = notes(line)
    return f"{text} · _{' · '.join(said)}_" if said else text


def standings_content(
    tournament: Tournament, lines: Sequence[TournamentStanding], limit: int = MESSAGE_LIMIT
) -> str:
    """The standings as text: every place as far as ``limit`` characters hold them."""
    return text(standings_blocks(tournament, lines, limit))


def standings_card(tournament: Tournament, lines: Sequence[TournamentStanding]) -> Card:
    """The standings as a card: the title, the image under it, every place as far as a
    card holds them, and how points are given."""
    return Card(standings_blocks(tournament, lines, CARD_TEXT))


def standings_blocks(
    tournament: Tournament, lines: Sequence[TournamentStanding], limit: int
) -> tuple[str, ...]:
    """The standings' title, places and footer, in ``limit`` characters."""
    played = any(s.games or s.byes for s in lines)
    footer = t(
        "tournament.standings.footer",
        points=place_points(tournament),
        bye=points(skipped_points(tournament.settings.place_points)),
    )
    return fitted(
        [standings_title(tournament)],
        [standings_line(line, played) for line in lines],
        [footer],
        lambda n: t("tournament.standings.more", count=n),
        limit,
    )


def standings_for(tournament: Tournament, lines: Sequence[TournamentStanding], viewer: int) -> str:
    """The standings as one member asks for them: with their own line at the end when
    the places shown stop before it."""
    text = standings_content(tournament, lines)
    mine = next((line for line in lines if line.player == viewer), None)
    if mine is None or mention(viewer) in text:
        return text
    own = standings_line(mine, played=True)
    return standings_content(tournament, lines, MESSAGE_LIMIT - len(own) - 1) + "\n" + own


def standings_table(
    tournament: Tournament,
    lines: Sequence[TournamentStanding],
    names: Mapping[int, str],
    viewer: int | None = None,
) -> BoardTable:
    """The standings image's words (:func:`bot.render.render_standings` draws them):
    names and figures only, so that every name keeps its size on a phone; what befell a
    player (a withdrawal, a decision run out) is in the text beside it."""
    return BoardTable(
        t("tournament.image.title", name=tournament.record.name),
        image_subtitle(tournament, len(lines)),
        "#",
        t("tournament.image.player"),
        (
            t("tournament.image.points"),
            t("tournament.image.opponents"),
            t("tournament.image.score"),
        ),
        standings_rows(lines, names, viewer),
        t("tournament.image.footer"),
        sorted_column=0,
    )


# --- the end -------------------------------------------------------------------
def podium_card(tournament: Tournament, lines: Sequence[TournamentStanding]) -> Card:
    """The final message: the podium (every line of places 1 to 3: ties share one)."""
    settings = tournament.settings
    head = t(
        "tournament.podium.title",
        name=tournament.record.name,
        rounds=plural("unit.round", settings.rounds),
        count=len(lines),
    )
    places = [
        t(
            "tournament.podium.place",
            medal=MEDALS[line.place - 1],
            name=mention(line.player),
            points=points_words(line.points),
        )
        for line in lines
        if line.place <= len(MEDALS)
    ]
    return Card(
        fitted(
            [head],
            places,
            [t("tournament.podium.footer")],
            lambda n: t("tournament.standings.more", count=n),
            CARD_TEXT,
        )
    )


def thread_name(tournament: Tournament, round: int, table: int) -> str:
    """A table's thread (Discord allows 100 characters)."""
    return t("tournament.thread", name=tournament.record.name, round=round, table=table)[:100]


def list_line(tournament: Tournament, lines: Sequence[TournamentStanding]) -> str:
    """One tournament in the server's list."""
    record, settings = tournament.record, tournament.settings
    count = len(tournament.entrants)
    if record.status == "signup":
        state = t("tournament.list.signup", count=count)
    elif record.status == "running":
        state = t(
            "tournament.list.running", round=record.rounds, rounds=settings.rounds, count=count
        )
    elif record.status == "finished":
        winners = " ".join(mention(s.player) for s in lines if s.place == 1)
        state = t(
            "tournament.list.finished", date=f"<t:{int(record.finished_at or 0)}:d>", winner=winners
        )
    else:
        state = t("tournament.list.cancelled")
    return t(
        "tournament.list.line",
        name=record.name,
        title=title_of(settings.variant),
        channel=f"<#{record.channel_id}>",
        state=state,
    )
