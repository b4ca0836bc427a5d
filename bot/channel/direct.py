"""What a game's direct messages should show: a pure projection, as the channel's plan is.

A member who chose direct messages (``dm``, and Discord takes them) gets one for each
wait — each decision of theirs with a real choice that the game waits for — when it
opens, or when their quiet hours end: the game and where it is played, what it waits
for and by when, and a link to the game's live message; the writer adds their sheet
and their choices as buttons, the sheet's own, so that one tap decides with the same
checks. When the wait ends (they decided, the turn moved on, time ran out, the game
ended) the message is edited to say what happened, without buttons. A new wait is a
new message: one notification each, never a stream. When the game ends, each person's
newest message says so once more: how it ended and, finished, the final scores, with a
link to how the channel ends it. A letter speaks to its reader ("You crossed 🟥 Red 5"),
naming the others as the channel does. A choice made in a phase everyone
decides in at once is secret until all have: the letter says its reader chose, except
where it goes on to what they may decide ahead (:func:`goes_on`).

What the direct messages show is stored with the game (:attr:`~bot.channel.plan.Shown.direct`),
so that a restart neither repeats nor forgets one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from bot.channel import story
from bot.channel.dice import TEXT, Faces, showing
from bot.channel.names import addressing, mentions
from bot.channel.plan import Events
from bot.channel.texts import message_link, seat_name
from bot.i18n.words import plural, signed, t
from bot.records.games import ENDED_STATUSES, GameRecord, StoredEvent
from bot.records.options import Options
from bot.records.seats import Seats
from bot.rules import Game

Place = tuple[str, str]
"""A game's server and channel, by name."""
DECISIONS = ("crossed", "passed", "placed", "pawn_moved", "rolled", "auto", "ahead")
"""The events that tell a person's decision in one phase (their own, or made for them)."""


State = Literal["open", "chosen", "closed", "ended"]
"""A direct message's wait: ``open`` (its buttons up), ``chosen`` (the person chose in a
phase everyone decides in at once, secret until all have: its buttons are gone, what
happened is told once the phase is over), ``closed`` (it says what happened), ``ended``
(it says what happened and how the game ended: the last edit it gets)."""
STATES: tuple[State, ...] = ("open", "chosen", "closed", "ended")


@dataclass(frozen=True)
class Sent:
    """A person's newest direct message of a game, as stored: where it is, the wait it
    is for, and how far that wait is."""

    channel_id: int
    message_id: int
    turn: int
    phase: str
    state: State = "open"

    @classmethod
    def of(cls, data: Sequence[Any]) -> Sent:
        state: State = next((s for s in STATES if s == data[4]), "closed")
        return cls(int(data[0]), int(data[1]), int(data[2]), str(data[3]), state)

    def to_json(self) -> list[Any]:
        return [self.channel_id, self.message_id, self.turn, self.phase, self.state]


@dataclass(frozen=True)
class Letter:
    """A new direct message to ``person`` for their wait in ``turn`` and ``phase``:
    ``content`` above their sheet and choices."""

    person: int
    content: str
    turn: int
    phase: str
    nonce: str
    """Discord posts a nonce once: a letter repeated after a crash is not sent twice."""


@dataclass(frozen=True)
class Closing:
    """``person``'s direct message, ``sent``, whose wait ended: ``content`` says what
    happened (or, a choice still secret, that they chose); its buttons go, its sheet
    stays."""

    person: int
    sent: Sent
    content: str


Mail = Letter | Closing


@dataclass(frozen=True)
class Mailbox:
    """What the projection needs to know of one game's direct messages."""

    record: GameRecord
    """The game as stored, its live message as the channel now shows it."""
    game: Game
    sent: Mapping[int, Sent]
    """Each person's newest direct message of the game."""
    events: Events
    """The game's stored events by turn, from the first turn of an open message on."""
    now: float
    place: Place | None = None
    """The server's and channel's names, if known (else the link says where)."""
    faces: Faces = field(default_factory=lambda: TEXT)


def stored(data: Mapping[str, Sequence[Any]]) -> dict[int, Sent]:
    """:attr:`~bot.channel.plan.Shown.direct` as read."""
    return {int(person): Sent.of(sent) for person, sent in data.items()}


def storable(sent: Mapping[int, Sent]) -> dict[str, list[Any]]:
    """What :attr:`~bot.channel.plan.Shown.direct` stores of ``sent``."""
    return {str(person): s.to_json() for person, s in sorted(sent.items())}


def unreached(record: GameRecord) -> set[int]:
    """The people of ``record`` whose direct messages Discord refuses, not told so yet."""
    prefs = Seats.of(record).prefs
    return {p for p, mine in prefs.items() if mine.dm_blocked and not mine.dm_blocked_told}


def waits(record: GameRecord, game: Game) -> dict[int, tuple[int, str]]:
    """Who the running game waits for with a real choice: their wait's turn and phase."""
    if record.status != "running" or game.finished:
        return {}
    wait = (game.turn, game.decision().phase)
    return dict.fromkeys(story.deciders(game), wait)


def ended(record: GameRecord) -> bool:
    """Whether ``record``'s game is over (finished or abandoned)."""
    return record.status in ENDED_STATUSES


def letters(box: Mailbox) -> tuple[list[Mail], dict[int, Sent]]:
    """The direct messages that bring ``box``'s game's up to date: the open ones whose
    wait ended are closed (once the game is over, every person's newest one tells the
    end, whatever it said before), and each person it now waits for who chose direct messages
    (Discord taking them) and is not in their quiet hours gets one for that wait, unless
    they had it; and every person's newest direct message once they are written (the
    publisher adds those of the letters, whose ids only Discord knows)."""
    with showing(box.faces):
        return lettered(box)


def lettered(box: Mailbox) -> tuple[list[Mail], dict[int, Sent]]:
    """:func:`letters`, its dice written with the faces it was given."""
    record, game, now = box.record, box.game, box.now
    seats, waiting = Seats.of(record), waits(record, game)
    sent, mail = dict(box.sent), list[Mail]()
    over = ended(record)
    for person, was in sorted(box.sent.items()):
        if was.state == "ended" or (
            not over
            and (
                was.state == "closed"
                or (was.state == "open" and waiting.get(person) == (was.turn, was.phase))
            )
        ):
            continue
        with addressing(person):
            told = happened(box, person, was)
        if over:
            mail.append(Closing(person, was, closed(box, was, told, person)))
            sent[person] = replace(was, state="ended")
        elif told or not secret(box, person, was):
            mail.append(Closing(person, was, closed(box, was, told)))
            sent[person] = replace(was, state="closed")
        elif was.state == "open" and not goes_on(box, person):
            mail.append(Closing(person, was, closed(box, was, [t("dm.chosen")])))
            sent[person] = replace(was, state="chosen")
    for person, (turn, phase) in sorted(waiting.items()):
        prefs, newest = seats.prefs_of(person), sent.get(person)
        if newest is not None and (newest.turn, newest.phase) == (turn, phase):
            continue  # one message a wait
        if prefs.by_dm and not prefs.quiet_now(now) and not prefs.away(now):
            nonce = f"qx{record.id}d{turn}{phase}"[:25]
            with addressing(person):
                mail.append(Letter(person, opened(box), turn, phase, nonce))
    return mail, sent


def header(box: Mailbox, turn: int) -> str:
    """``🎲 Qwixx on Sandbox Guild in #general, turn 5``: the game and where it is."""
    title = box.game.title
    if box.place is None:
        return t("dm.header", title=title, turn=turn)
    guild, channel = box.place
    return t("dm.header_at", title=title, guild=guild, channel=channel, turn=turn)


def opened(box: Mailbox) -> str:
    """A new wait's message: the game, the dice thrown, what it waits for and by when,
    the link."""
    game, record = box.game, box.record
    asks = t(f"sheet.phase.{game.decision().phase}", total=game.dice_total() or "")
    thrown = [
        line
        for e in box.events.get(game.turn, [])
        if e.kind == "rolled" or (e.kind == "turn" and "dice" in e.data)
        for line in story.event_lines(e, [], game.variant)
    ]
    lines = [header(box, game.turn), *thrown[-1:], t("dm.asks", phase=asks)]
    lines += story.deadline_lines(record.deadline)
    return "\n".join([*lines, t("dm.link", link=message_link(record))])


def closed(box: Mailbox, sent: Sent, told: Sequence[str], person: int = 0) -> str:
    """An ended wait's message: what happened (``told``), how the game ended if it did
    (told to ``person``: :func:`end_lines`), else that the decision is over; and the
    link (once the game is over, to how the channel ends it)."""
    end = end_lines(box, person)
    lines = [*told, *end] or [t("dm.over")]
    link = t("dm.end.link" if end else "dm.link", link=message_link(box.record))
    return "\n".join([header(box, sent.turn), *lines, link])


def end_lines(box: Mailbox, person: int) -> list[str]:
    """How the game ended, as a letter to ``person`` tells it (none while it runs): why,
    from its stored end; then, finished, the final scores as the channel's final message
    gives them, its reader's own line and win spoken to them."""
    record, game = box.record, box.game
    if not ended(record):
        return []
    why = [
        line
        for turn in sorted(box.events)
        for e in box.events[turn]
        if e.kind == "game_over"
        for line in story.event_lines(e, [], game.variant)
    ] or [t("dm.end.over")]
    if record.status != "finished":
        return why
    ranking, options = game.ranking(), Options.of(record.options)
    if len(game.players) == 1:
        return [
            *why,
            t("end.title", title=game.title),
            t("dm.end.solo", total=signed(ranking[0].total)),
        ]
    lines = [
        t("dm.end.line", rank=s.rank, total=signed(s.total))
        if s.player == person
        else t("end.line", rank=s.rank, name=seat_name(s.player, options), total=signed(s.total))
        for s in ranking
    ]
    winners = [s.player for s in ranking if s.rank == 1]
    others = [p for p in winners if p != person]
    if person not in winners:
        won = t("end.winner", names=mentions(winners), verb=plural("end.verb", len(winners)))
    else:
        won = t("dm.end.won_with", names=mentions(others)) if others else t("dm.end.won")
    return [*why, t("end.title", title=game.title), *lines, won]


def happened(box: Mailbox, person: int, sent: Sent) -> list[str]:
    """What the turn's story tells of ``person``'s wait: their decision (made by them,
    ahead, or for them) and those they chose ahead with it, their time running out,
    their seat going; or that they kept Qwinto's throw (which the story tells as the
    throw, and the writing after it)."""
    turn = box.events.get(sent.turn, [])
    ahead = {phase_of(e) for e in turn if e.kind == "ahead" and e.player == person}
    told = [
        e
        for e in turn
        if (e.player == person and (phase_of(e) == sent.phase or phase_of(e) in ahead))
        or (e.kind == "expired" and person in e.data["players"])
        or (e.kind == "away" and e.player == person)
    ]
    if not told and sent.phase == "reroll" and placing(box, sent.turn):
        return [t("you.kept")]
    return story.story(told, box.game.variant)


def placing(box: Mailbox, turn: int) -> bool:
    """Whether Qwinto's writing began in ``turn`` (its throw final)."""
    game = box.game
    return (game.turn, game.decision().phase) == (turn, "place") or any(
        phase_of(e) == "place" for e in box.events.get(turn, [])
    )


def secret(box: Mailbox, person: int, sent: Sent) -> bool:
    """Whether ``person`` chose in their wait's phase, which is still open: everyone
    decides in it at once, and no choice is told before all are made."""
    game = box.game
    return (
        box.record.status == "running"
        and (game.turn, game.decision().phase) == (sent.turn, sent.phase)
        and game.chosen_move(person) is not None
    )


def goes_on(box: Mailbox, person: int) -> bool:
    """Whether ``person``'s letter, once they chose in a phase still open, goes on to what
    they may decide ahead (the sheet's page after the choice: the Qwixx family's active
    player, their coloured die; in Qwinto, anyone's next throw): it keeps what their
    click left it, until the phase is over."""
    game = box.game
    return game.variant == "qwinto" or person == game.decision().active


def phase_of(event: StoredEvent) -> str | None:
    """The phase a decision's event, or a rule's or a choice made ahead's, is about
    (None: it is none of these)."""
    return (story.decided_in(event) or None) if event.kind in DECISIONS else None
