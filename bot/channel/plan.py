"""What a game's channel should show: a pure projection of the stored game.

:func:`plan` takes what the store knows (the game, its events by turn, what the channel
shows now) and answers with the writes that bring the channel up to date, as data:
posts, edits and deletions, with their texts, which images and buttons they carry, whom
they may ping and the nonce that makes a repeated post harmless. It knows nothing of
Discord; the publisher carries the plan out, within the write budget.

Every text comes from :mod:`bot.channel.story`: a turn's message is one text from its post
to its finish (:func:`~bot.channel.story.turn_message`), so a line once shown stays.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from bot.channel import story
from bot.channel.cards import FORM, Card, card
from bot.channel.dice import TEXT, Faces, showing
from bot.channel.texts import end_content, message_link
from bot.i18n.words import t, whole
from bot.players import is_computer
from bot.records.games import GameRecord, StoredEvent
from bot.records.options import Options
from bot.records.seats import Seats
from bot.records.stats import REVIEW_DUE
from bot.rules import Game

Events = Mapping[int, Sequence[StoredEvent]]
"""A game's stored events by turn."""


def by_turn(events: Sequence[StoredEvent]) -> defaultdict[int, list[StoredEvent]]:
    """``events`` grouped by their turn."""
    grouped: defaultdict[int, list[StoredEvent]] = defaultdict(list)
    for event in events:
        grouped[event.turn].append(event)
    return grouped


Image = Literal["dice", "board", "scoreboard"]
DUE = REVIEW_DUE
"""``Shown.review`` while the final message waits for the game's review (the store reads
it to catch the channel up)."""
Buttons = Literal["turn", "end"]


@dataclass
class Shown:
    """What a game's channel shows, as stored with the game."""

    turn: int | None = None
    """The turn of the live message; None while it is the lobby message."""
    pinged: list[int] = field(default_factory=list)
    """Who was mentioned in this turn (at most once a turn)."""
    files: str = ""
    """Which images the live message carries (so unchanged ones are not re-uploaded)."""
    ended: bool = False
    since: int | None = None
    """The first turn the live message tells: it opens with the turns before its own
    that nobody was asked in."""
    notes: list[list[Any]] = field(default_factory=list)
    """``[message_id, [players], phase]``: reminders and calls, to go once those players
    decided in that phase."""
    review: str | None = None
    """The people's accuracies on the final message: :data:`DUE` (posted before the
    game's review was stored: edited once it is), ``shown``, or None (no final message
    yet, or one posted before games were reviewed, which is left as it is)."""
    end: dict[str, Any] | None = None
    """While the review is due: what the final message was made of (``preface``,
    ``wins``, ``best``, ``ratings``), so that its edit says the same and more."""
    direct: dict[str, list[Any]] = field(default_factory=dict)
    """The game's direct messages: each person's newest, as
    :class:`bot.channel.direct.Sent` stores it."""
    form: str = ""
    """How the live message was posted: :data:`~bot.channel.cards.FORM` as a card, ""
    as text (before cards: it is edited as text until the game's next message)."""

    @classmethod
    def of(cls, record: GameRecord) -> Shown:
        return cls.from_json(record.shown)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Shown:
        return cls(
            data.get("turn"),
            list(data.get("pinged", [])),
            data.get("files", ""),
            bool(data.get("ended", False)),
            data.get("since"),
            [list(note) for note in data.get("notes", [])],
            data.get("review"),
            data.get("end"),
            {str(p): list(sent) for p, sent in data.get("direct", {}).items()},
            data.get("form", ""),
        )

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "turn": self.turn,
            "pinged": self.pinged,
            "files": self.files,
            "ended": self.ended,
            "since": self.since,
            "notes": self.notes,
        }
        if self.review is not None:
            data["review"] = self.review
        if self.end is not None:
            data["end"] = self.end
        if self.direct:
            data["direct"] = self.direct
        if self.form:
            data["form"] = self.form
        return data


@dataclass(frozen=True)
class Post:
    """A new message."""

    content: str
    nonce: str | None
    """Discord posts a nonce once (a post repeated after a crash does not appear twice);
    None for a post that is never repeated (a reminder)."""
    images: tuple[Image, ...] = ()
    buttons: Buttons | None = None
    pinged: tuple[int, ...] = ()
    live: bool = False
    """It becomes the game's live message (a turn's, or the final scoreboard)."""
    call: str | None = None
    """A call to players whose decision opened (the phase): it may go as a public
    follow-up of a click, and is deleted once they decided."""
    card: Card | None = None
    """The message laid out as a card (None: as text)."""


@dataclass(frozen=True)
class Edit:
    """A new version of one of the game's messages."""

    message_id: int
    content: str
    images: tuple[Image, ...] | None = None
    """None: the images stay as they are; ``()``: none any more."""
    buttons: Buttons | None = None
    signature: str = ""
    """Which images the message then shows."""
    final: bool = False
    """A finished turn: it is not edited again."""
    card: Card | None = None
    """The message laid out as a card, as it was posted (None: as text)."""


@dataclass(frozen=True)
class Delete:
    """A reminder or call whose decision is made."""

    message_id: int
    note: tuple[Any, ...]


Step = Post | Edit | Delete


@dataclass(frozen=True)
class Channel:
    """What the projection needs to know of one game."""

    record: GameRecord
    game: Game
    shown: Shown
    events: Events
    away: Collection[int] = ()
    wins: Mapping[int, int] | None = None
    """Each winner's wins on the server, for the final message."""
    best: int | None = None
    """A solo game's personal best before it, for the final message."""
    ratings: Mapping[int, tuple[str, int]] | None = None
    """Each rated person's rating after the game as read and its change, for the final
    message."""
    accuracies: Mapping[int, float] | None = None
    """The people's accuracies once the game's review is stored (None: not yet)."""
    faces: Faces = field(default_factory=lambda: TEXT)
    """The dice's emojis the bot has (:mod:`bot.channel.dice`; none: dice as text)."""
    now: float = 0.0
    """The time of the plan: nobody is mentioned in their quiet hours."""
    direct: bool = False
    """Whether the bot sends direct messages: those who chose them are not mentioned."""


def reminder(record: GameRecord, data: Mapping[str, Any]) -> Post | None:
    """The post of a reminder whose event carries ``data`` (who still has to decide,
    the deadline), with a link to the turn: a call of its own, which reaches those whose
    direct message told them of the decision too (None: nobody to remind)."""
    pinged = tuple(data["players"])
    if not pinged:
        return None
    link = message_link(record) if record.message_id else ""
    names = story.mentions(data["players"])
    text = t("turn.reminder", names=names, deadline=int(data["deadline"]), link=link)
    return Post(text, None, pinged=pinged)


def reminded(shown: Shown, game: Game | None, sent: int, post: Post) -> Shown:
    """What the channel shows once reminder ``post`` is ``sent``: those it called are
    called in this turn, and the note deletes it once they decided."""
    if game is not None and shown.turn == game.turn:
        shown.pinged += [p for p in post.pinged if p not in shown.pinged]
    shown.notes.append([sent, list(post.pinged), game.decision().phase if game else ""])
    return shown


def away(record: GameRecord) -> Collection[int]:
    """The players of ``record`` who are away (their seats decide for them)."""
    return Seats.of(record).away


def unmentioned(channel: Channel, calls: bool = True) -> set[int]:
    """The people the channel names without mentioning now: those in their quiet hours
    (called when these end), and (``calls``: of a decision) those whom a direct message
    reaches instead."""
    seats = Seats.of(channel.record)
    return {
        p
        for p, prefs in seats.prefs.items()
        if prefs.quiet_now(channel.now) or (calls and channel.direct and prefs.by_dm)
    }


def humans(players: Sequence[int]) -> list[int]:
    return [p for p in players if not is_computer(p)]


def dice_signature(game: Game) -> str:
    """Which dice lie on the table (so that an image already shown is not sent again)."""
    dice = game.dice_on_table()
    return "dice:" + ",".join(f"{c}{v}" for c, v in dice.items()) if dice else ""


def pawns_moved(game: Game, events: Events) -> int:
    """How many pawns moved in this turn and the one before (On Board)."""
    return sum(
        e.kind == "pawn_moved" for turn in (game.turn - 1, game.turn) for e in events.get(turn, [])
    )


def live_images(game: Game, events: Events) -> tuple[tuple[Image, ...], str]:
    """The images of the open turn, and a signature saying which they are: the dice on
    the table, and On Board's board once a pawn moved this turn or the last (a finished
    turn keeps none: its words tell the dice and the moves)."""
    moved = pawns_moved(game, events)
    images: tuple[Image, ...] = ("dice",) if game.dice_on_table() else ()
    if moved:
        return (*images, "board"), dice_signature(game) + f"|board:{game.turn}.{moved}"
    return images, dice_signature(game)


def turn_card(
    game: Game,
    turn: int,
    content: str,
    deadline: float | None,
    over: bool = False,
    away: Collection[int] = (),
    opened: float | None = None,
    events: Sequence[StoredEvent] = (),
) -> Card:
    """The message of ``turn`` as a card: in its active player's colour, an open turn's
    images under what it asks (above who decides, the scores and the deadline), a
    finished one compact. An open turn's dice are its image: the line of the same dice
    (told from the turn's ``events``) is left out, so the card shows them once; a
    finished turn, without its image, keeps the line."""
    seat = game.players.index(story.active_in(game, turn))
    open_turn = story.is_open(game, turn, over)
    tail = story.live_tail(game, deadline, away, opened) if open_turn else 0
    shown_line = story.dice_line(events) if open_turn and game.dice_on_table() else None
    if shown_line is not None:
        lines = content.splitlines()
        content = "\n".join(lines[: lines.index(shown_line)] + lines[lines.index(shown_line) + 1 :])
    return card(content, seat, tail)


def open_turn(
    record: GameRecord, game: Game, events: Events, since: int, away: Collection[int]
) -> tuple[str, Card]:
    """The open turn's message (from turn ``since`` on) and its card, posted or edited."""
    content = story.turn_message(
        game, events, since, game.turn, record.deadline, away, opened=record.stage_started
    )
    return content, turn_card(
        game,
        game.turn,
        content,
        record.deadline,
        away=away,
        opened=record.stage_started,
        events=events.get(game.turn, ()),
    )


def end_card(game: Game, content: str) -> Card:
    """The final message as a card in the winner's colour: the scoreboard right under
    its title, then the ranking (with the ratings), the winner, the wins and the
    accuracies."""
    lines = content.splitlines()
    title = t("end.title", title=game.title)
    after = next((len(lines) - i - 1 for i in reversed(range(len(lines))) if lines[i] == title), 0)
    return card(content, game.players.index(game.ranking()[0].player), after)


def as_shown(shown: Shown, laid_out: Card) -> Card | None:
    """``laid_out`` for an edit of the live message if it was posted as a card; None
    (text) for one posted before cards, which keeps its form."""
    return laid_out if shown.form == FORM else None


def ending(record: GameRecord, shown: Shown) -> bool:
    """Whether the next plan posts the final scoreboard (it needs ``wins`` and ``best``)."""
    return record.status == "finished" and not shown.ended


def review_due(record: GameRecord, shown: Shown) -> bool:
    """Whether the next plan may show the people's accuracies (it needs ``accuracies``):
    the final message is still to be posted, or waits for them."""
    return ending(record, shown) or (record.status == "finished" and shown.review == DUE)


def end_facts(channel: Channel, preface: Sequence[str]) -> dict[str, Any]:
    """What the final message is made of, as stored with the game (JSON)."""
    return {
        "preface": list(preface),
        "wins": {str(p): n for p, n in (channel.wins or {}).items()},
        "best": channel.best,
        "ratings": {str(p): list(r) for p, r in (channel.ratings or {}).items()},
    }


def as_posted(rating: str | int) -> str:
    """A rating as the final message was posted with it: as read, or, stored before
    ratings were read on their own scale, the number it then showed."""
    return rating if isinstance(rating, str) else whole(rating)


def accuracies_shown(channel: Channel, shown: Shown) -> list[Step]:
    """The final message edited once to show the accuracies stored since it was posted."""
    if shown.review != DUE or channel.accuracies is None:
        return []
    facts, shown.review, shown.end = shown.end or {}, "shown", None
    if not channel.accuracies or not channel.record.message_id:
        return []
    game = channel.game
    content = end_content(
        channel.game,
        facts.get("preface", ()),
        {int(p): int(n) for p, n in facts.get("wins", {}).items()},
        facts.get("best"),
        {int(p): (as_posted(r[0]), int(r[1])) for p, r in facts.get("ratings", {}).items()},
        channel.accuracies,
        Options.of(channel.record.options),
    )
    laid_out = as_shown(shown, end_card(game, content))
    images: tuple[Image, ...] | None = ("scoreboard",) if laid_out else None
    return [Edit(channel.record.message_id, content, images, "end", shown.files, card=laid_out)]


def plan(channel: Channel) -> tuple[list[Step], Shown]:
    """The writes that bring the channel of ``channel.game`` up to the stored game, and
    what it shows once they are done (the publisher adds the ids only Discord knows)."""
    with showing(channel.faces):
        return planned(channel)


def planned(channel: Channel) -> tuple[list[Step], Shown]:
    """:func:`plan`, its dice written with the faces it was given."""
    record, game, events, away = channel.record, channel.game, channel.events, channel.away
    shown = replace(
        channel.shown,
        pinged=list(channel.shown.pinged),
        notes=[list(n) for n in channel.shown.notes],
        direct={p: list(sent) for p, sent in channel.shown.direct.items()},
    )
    ended = record.status != "running"
    steps: list[Step] = []
    if (
        shown.turn is not None
        and record.message_id
        and not shown.ended
        and (shown.turn < game.turn or ended)
    ):
        content = story.turn_message(
            game, events, shown.since or shown.turn, shown.turn, None, away, over=ended
        )
        compact = as_shown(shown, turn_card(game, shown.turn, content, None, over=True))
        steps.append(Edit(record.message_id, content, (), None, "", final=True, card=compact))
    steps += clear_notes(game, shown, ended)
    first_unseen = 1 if shown.turn is None else shown.turn + 1
    if ended:
        if shown.ended:
            return [*steps, *accuracies_shown(channel, shown)], shown
        shown.ended = True
        finished = record.status == "finished"
        last = game.turn + 1 if finished else game.turn  # an abandoned turn was not played out
        since, apart = tell_apart(record, game, events, range(first_unseen, last), away)
        preface = story.played_out_lines(game, events, range(since, last))
        steps += apart
        if finished:
            quiet = unmentioned(channel, calls=False)
            content = end_content(
                game,
                preface,
                channel.wins,
                channel.best,
                channel.ratings,
                channel.accuracies,
                Options.of(record.options),
            )
            steps.append(
                Post(
                    content,
                    f"qx{record.id}end",
                    ("scoreboard",),
                    "end",
                    tuple(p for p in humans(game.players) if p not in quiet),
                    live=True,
                    card=end_card(game, content),
                )
            )
            shown.form = FORM
            if channel.accuracies is None:  # the review is worked out meanwhile
                shown.review, shown.end = DUE, end_facts(channel, preface)
            else:
                shown.review = "shown"
            return steps, shown
        told = [
            *preface,
            *(
                [story.finished_turn(game, game.turn, events[game.turn])]
                if first_unseen <= game.turn and events.get(game.turn)
                else []
            ),
        ]
        if told:
            steps.append(history(story.fit(told[:-1], told[-1]), f"qx{record.id}over"))
        return steps, shown
    if shown.turn != game.turn:
        since, apart = tell_apart(record, game, events, range(first_unseen, game.turn), away)
        silent = unmentioned(channel)
        ping = tuple(
            p
            for p in humans(list(dict.fromkeys([*story.deciders(game), game.active])))
            if p not in silent
        )
        images, signature = live_images(game, events)
        content, laid_out = open_turn(record, game, events, since, away)
        steps += [
            *apart,
            Post(content, f"qx{record.id}t{game.turn}", images, "turn", ping, True, card=laid_out),
        ]
        shown.turn, shown.since, shown.pinged, shown.files = game.turn, since, list(ping), signature
        shown.form = FORM
        return steps, shown
    assert record.message_id is not None
    images, signature = live_images(game, events)
    content, laid_out = open_turn(record, game, events, shown.since or game.turn, away)
    edited = as_shown(shown, laid_out)
    steps.append(
        Edit(
            record.message_id,
            content,
            images if signature != shown.files or edited else None,
            "turn",
            signature,
            card=edited,
        )
    )
    shown.files = signature
    steps += call_newcomers(record, game, shown, unmentioned(channel))
    return steps, shown


SUMMED_UP_AFTER = 10
"""More turns than this that the channel never showed (Discord was away, or the
computers played many turns in one go) are told in one summary rather than a line each."""


def tell_apart(
    record: GameRecord, game: Game, events: Events, turns: range, away: Collection[int] = ()
) -> tuple[int, list[Step]]:
    """Turns the channel never showed, before the next message. Played without anyone
    being asked, they open it, a line each; the oldest of them, when they would crowd
    it, are posted first in messages of their own (so no line is ever cut). Missed in
    an outage, people may have played them: each is posted whole, as a finished turn
    reads; so is each, when a person decided in one of them before the channel showed
    it (a person ``away`` now is taken as away then: a rule decided for their seat).
    More than :data:`SUMMED_UP_AFTER` of them are summed up instead, in as few
    messages as fit. The first turn the next message tells, and those posts."""
    begun = [turn for turn in turns if events.get(turn)]
    missed = outage(record, events, begun)
    if len(begun) > SUMMED_UP_AFTER:
        lines = story.summary_lines(game, events, begun, missed)
        return turns.stop, [
            history(text, f"qx{record.id}s{begun[0]}.{index}")
            for index, text in enumerate(story.chunks(lines))
        ]
    if missed or any(story.decided_by_hand(events[turn], away) for turn in begun):
        told = [story.finished_turn(game, turn, events[turn]) for turn in begun]
        return turns.stop, [
            history(text, f"qx{record.id}e{begun[0]}.{index}")
            for index, text in enumerate(story.chunks(told, between="\n\n"))
        ]
    lines = story.played_out_lines(game, events, begun)
    apart = story.overflow(lines)
    posts: list[Step] = [
        history(text, f"qx{record.id}e{begun[0]}.{index}")
        for index, text in enumerate(story.chunks(lines[:apart]))
    ]
    return (begun[apart] if apart < len(begun) else turns.stop), posts


def history(text: str, nonce: str) -> Post:
    """A post of turns already played (told apart, summed up, or an abandoned game's
    last): a card of text alone, in no seat's colour, as the channel's other messages."""
    return Post(text, nonce, card=card(text))


def outage(record: GameRecord, events: Events, turns: Sequence[int]) -> bool:
    """Whether ``turns`` went unshown because the channel could not be updated: a write
    failed or the bot was down (the store marks the game behind), or a decision asked of
    someone ran out in a turn the channel never showed."""
    return record.behind_since is not None or any(
        e.kind == "expired" for turn in turns for e in events.get(turn, [])
    )


def clear_notes(game: Game, shown: Shown, ended: bool) -> list[Step]:
    """Reminders and calls go once what they asked for is done: every player they named
    has decided, or their decision or turn is over."""
    decision, kept = game.decision(), []
    steps: list[Step] = []
    for note in shown.notes:
        message_id, players, phase = note
        if (
            ended
            or shown.turn != game.turn
            or phase != decision.phase
            or not decision.waiting & set(players)
        ):
            steps.append(Delete(message_id, tuple(note)))
        else:
            kept.append(note)
    shown.notes = kept  # the publisher keeps those it could not delete, too
    return steps


def call_newcomers(
    record: GameRecord, game: Game, shown: Shown, silent: Collection[int] = ()
) -> list[Step]:
    """Mention, once a turn, a player whose decision opened after the turn's post, or
    whose quiet hours held the mention back (``silent``: who is not mentioned now)."""
    new = [p for p in humans(story.deciders(game)) if p not in shown.pinged and p not in silent]
    if not new:
        return []
    shown.pinged += new
    phase = game.decision().phase
    text = t("turn.ping", names=story.mentions(new), turn=game.turn, link=message_link(record))
    return [Post(text, f"qx{record.id}t{game.turn}{phase}"[:25], pinged=tuple(new), call=phase)]
