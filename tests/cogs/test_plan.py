"""The channel's plan, without Discord: whole games through the service, kept in sync by
the publisher through a writer whose channel is only a list of texts, compared with the
transcripts in ``tests/cogs/golden/`` (``QWIXX_GOLDEN=update`` rewrites them after a
deliberate change; read the diff before committing it). Each game is shown twice: from
the game as read at each sync, and from each change as the service made it (the sync of
a click, which reads nothing): both read the same."""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from bot.channel.plan import DUE, Channel, Delete, Edit, Post, Shown, plan
from bot.channel.publisher import Publisher
from bot.i18n import using
from bot.records.games import GameRecord, StoredEvent
from bot.records.stats import REVIEW_DUE
from bot.rules import Event, Game, new_game
from bot.service.games import GameService
from bot.service.keeper import GameKeeper
from bot.service.outcome import Outcome
from bot.service.review import ReviewKeeper
from bot.store import Store
from tests.cogs.moving import random_move
from tests.cogs.records import game_record
from tests.positions import position

GOLDEN = Path(__file__).parent / "golden"
HOST = 111


@dataclass
class Message:
    content: str
    images: tuple[str, ...] = ()
    buttons: str | None = None


@dataclass
class FakeChannel:
    """Messages by id, in the order they were posted; deleted ones are gone. It is the
    publisher's :class:`~bot.channel.writer.Writer`."""

    messages: dict[int, Message] = field(default_factory=dict)
    writes: int = 0
    edits: dict[int, int] = field(default_factory=dict)
    """Edits per message."""

    def posted(self, step: Post) -> int:
        self.writes += 1
        message_id = 1000 + len(self.messages) + self.writes
        self.messages[message_id] = Message(step.content, step.images, step.buttons)
        return message_id

    def edited(self, step: Edit) -> None:
        self.writes += 1
        self.edits[step.message_id] = self.edits.get(step.message_id, 0) + 1
        old = self.messages[step.message_id]
        images = old.images if step.images is None else step.images
        self.messages[step.message_id] = Message(step.content, images, step.buttons)

    def deleted(self, step: Delete) -> None:
        self.writes += 1
        del self.messages[step.message_id]

    def carry_out(self, steps: list[object], shown: Shown) -> int | None:
        """``steps`` written as the publisher writes them; the new live message's id."""
        live = None
        for step in steps:
            if isinstance(step, Delete):
                self.deleted(step)
            elif isinstance(step, Edit):
                self.edited(step)
            else:
                assert isinstance(step, Post)
                message_id = self.posted(step)
                if step.live:
                    live = message_id
                elif step.call is not None:
                    shown.notes.append([message_id, list(step.pinged), step.call])
        return live

    async def post(self, record: GameRecord, game: Game | None, step: Post) -> int:
        return self.posted(step)

    async def edit(self, record: GameRecord, game: Game | None, step: Edit) -> None:
        self.edited(step)

    async def delete(self, record: GameRecord, step: Delete) -> bool:
        self.deleted(step)
        return True

    def locale(self, guild_id: int) -> str | None:
        return None

    def transcript(self) -> str:
        parts = []
        for message in self.messages.values():
            extras = [f"<{image}.png>" for image in message.images]
            extras += [f"[{message.buttons} buttons]"] if message.buttons else []
            parts.append("\n".join([message.content, *([" ".join(extras)] if extras else [])]))
        return "\n\n".join(parts) + "\n"


class Showing:
    """A game's channel kept in sync by the publisher, from the game as read at each sync
    or (``changes``) from each change as the service made it."""

    def __init__(self, service: GameService, channel: FakeChannel, changes: bool) -> None:
        publisher: Publisher = Publisher(service.channel, channel, settle=0.0)
        if changes:
            publisher.started = None  # its first catch-up done: it may trust a change
        self.publisher = publisher
        self.changes = changes

    async def sync(self, outcome: Outcome) -> None:
        if self.changes:
            self.publisher.told(outcome)
        await self.publisher.sync(outcome.record.id, outcome if self.changes else None)


async def play(tmp_path: Path, variant: str, seed: int, changes: bool = False) -> FakeChannel:
    store = await Store.open(tmp_path / "plan.db")
    service = GameService(store, seeds=lambda: seed, clock=lambda: 1_000_000.0)
    channel, rng = FakeChannel(), random.Random(seed)
    showing = Showing(service, channel, changes)
    try:
        record = await service.lobby.open(1, 2, HOST, variant)
        for _ in range(2):
            record = await service.lobby.add_computer(record.id, HOST)
        outcome = await service.lobby.start(record.id, HOST)
        with using("en-US"):
            while True:
                await showing.sync(outcome)
                game = outcome.game
                assert game is not None
                if game.finished:  # reviewed after its end is shown, then shown again
                    await showing.publisher.reviewed()
                    break
                outcome = await random_move(service, outcome, rng)
    finally:
        await store.close()
    return channel


@pytest.mark.parametrize("changes", [False, True], ids=["as read", "from its changes"])
@pytest.mark.parametrize("variant", ["classic", "longo", "onboard", "qwinto"])
async def test_a_whole_game_reads_as_its_golden_transcript(
    tmp_path: Path, variant: str, changes: bool
) -> None:
    channel = await play(tmp_path, variant, seed=3, changes=changes)
    golden = GOLDEN / f"{variant}.txt"
    if os.environ.get("QWIXX_GOLDEN") == "update" and not changes:
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(channel.transcript(), encoding="utf-8")
    assert channel.transcript() == golden.read_text(encoding="utf-8")


async def test_a_sync_from_a_change_reads_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Shown from its changes, a whole game costs the channel one read of its events (the
    start's, whose turn opened in the lobby's change) and one of the game and its events
    again for the final message's accuracies (a sync of the review, not of a click)."""
    reads: list[str] = []
    for name in ("read", "events"):
        method = getattr(GameKeeper, name)

        async def counted(
            self: GameKeeper, *args: Any, _name: str = name, _method: Any = method
        ) -> Any:
            reads.append(_name)
            return await _method(self, *args)

        monkeypatch.setattr(GameKeeper, name, counted)
    await play(tmp_path, "classic", seed=3, changes=True)
    assert sorted(reads) == ["events", "events", "read"]


async def test_a_reminder_after_a_sync_left_to_the_next_change_is_deleted_in_time(
    tmp_path: Path,
) -> None:
    """A sync that only edited leaves what the channel shows to the game's next change; a
    reminder sent meanwhile is noted on top of that, so the move it asked for deletes it."""
    store = await Store.open(tmp_path / "remind.db")
    service = GameService(store, seeds=lambda: 3, clock=lambda: 1_000_000.0)
    channel, rng = FakeChannel(), random.Random(3)
    showing = Showing(service, channel, changes=True)
    try:
        lobby = await service.lobby.open(1, 2, HOST, "classic")
        await service.lobby.add_computer(lobby.id, HOST)
        outcome = await service.lobby.start(lobby.id, HOST)
        with using("en-US"):
            await showing.sync(outcome)
            while True:  # until a sync only edits: its shown waits for the next change
                game = outcome.game
                assert game is not None and not game.finished
                outcome = await service.turns.move(
                    lobby.id,
                    HOST,
                    game.turn,
                    game.decision().phase,
                    rng.choice(game.legal_moves(HOST)),
                )
                await showing.sync(outcome)
                stored = (await service.keeper.read(lobby.id)).record
                if stored.shown_version < stored.version and HOST in (
                    outcome.game.decision().waiting if outcome.game else ()
                ):
                    break
            reminder = Event("reminder", None, {"players": [HOST], "deadline": 1_000_600})
            await showing.publisher.remind(replace(outcome, events=[reminder]))
            sent = max(channel.messages)
            assert "<@111>" in channel.messages[sent].content
            game = outcome.game
            assert game is not None
            outcome = await service.turns.move(
                lobby.id, HOST, game.turn, game.decision().phase, game.legal_moves(HOST)[0]
            )
            await showing.sync(outcome)
            assert sent not in channel.messages  # decided: the reminder went
    finally:
        await store.close()


@pytest.mark.parametrize("variant", ["classic", "qwinto"])
async def test_after_the_game_only_the_scoreboard_has_an_image_or_a_button(
    tmp_path: Path, variant: str
) -> None:
    messages = list((await play(tmp_path, variant, seed=8)).messages.values())
    assert [m.images for m in messages[:-1]] == [()] * (len(messages) - 1)
    assert [m.buttons for m in messages[:-1]] == [None] * (len(messages) - 1)
    assert messages[-1].images == ("scoreboard",) and messages[-1].buttons == "end"
    assert "<t:" not in "\n".join(m.content for m in messages)


def test_the_store_and_the_plan_name_the_waiting_review_alike() -> None:
    assert DUE == REVIEW_DUE


def test_a_final_message_keeps_its_ratings_as_posted_when_its_accuracies_come() -> None:
    """The accuracies' edit repeats the ratings the post showed: as read, or as numbers
    stored before ratings were read on their own scale (posted then as such)."""
    game = new_game("classic", [HOST, 222], seed=3)
    record = game_record([HOST, 222], status="finished")
    for stored, told in (([1234, 23], "rating 1,234 (+23)"), (["1562?", 62], "rating 1562? (+62)")):
        facts = {"preface": [], "wins": {}, "best": None, "ratings": {str(HOST): stored}}
        shown = Shown(turn=None, ended=True, review=DUE, end=facts)
        with using("en-US"):
            steps, after = plan(Channel(record, game, shown, {}, accuracies={HOST: 0.5}))
        [edit] = steps
        assert isinstance(edit, Edit) and told in edit.content and "🎯" in edit.content
        assert after.review == "shown" and after.end is None


async def test_the_final_message_is_edited_once_to_show_the_accuracies(tmp_path: Path) -> None:
    channel = await play(tmp_path, "classic", seed=3)
    end_id, end = list(channel.messages.items())[-1]
    assert channel.edits.get(end_id) == 1
    lines = end.content.splitlines()
    assert lines[0] == "🏁 **Qwixx** — final scores"
    accuracy = lines[-1]
    assert accuracy.startswith("🎯 Accuracy against the Hard computer player's choices: <@111> ")
    assert accuracy.endswith("%") and "Computer" not in accuracy  # people only
    assert end.images == ("scoreboard",) and end.buttons == "end"


async def test_a_review_stored_before_the_end_is_shown_goes_into_the_final_post(
    tmp_path: Path,
) -> None:
    store = await Store.open(tmp_path / "early.db")
    service = GameService(store, seeds=lambda: 5, clock=lambda: 1_000_000.0)
    channel, rng = FakeChannel(), random.Random(5)
    try:
        record = await service.lobby.open(1, 2, HOST, "classic")
        record = await service.lobby.add_computer(record.id, HOST)
        outcome = await service.lobby.start(record.id, HOST)
        with using("en-US"):
            while outcome.game is not None and not outcome.game.finished:
                outcome = await random_move(service, outcome, rng)
            assert await ReviewKeeper(store).keep(outcome.record)
            publisher = Publisher(service.channel, channel, settle=0.0)
            before = channel.writes
            await publisher.sync(record.id)
            end = list(channel.messages.values())[-1]
            assert "🎯 Accuracy" in end.content
            shown = Shown.of((await service.keeper.read(record.id)).record)
            assert shown.review == "shown" and shown.end is None
            posted = channel.writes - before
            await publisher.sync(record.id)  # nothing more to show
            assert channel.writes - before == posted
            assert service.endings._reviewing == {}  # nothing left to review
    finally:
        await store.close()


def catch_up(
    behind_since: float | None, last: int = 22, status: str = "running"
) -> list[Post | Edit]:
    """The writes that catch a channel up on turns 11..``last``, played while it showed
    turn 10: the channel fell behind in an outage (``behind_since``) or the computers
    played them out in one go (None); ``status``: the game's, once they were played."""
    players = [HOST, -1, -2]
    game = position("classic", players, seed=1, turn=last + 1)
    record = GameRecord(
        id=7,
        guild_id=1,
        channel_id=2,
        message_id=3,
        host_id=HOST,
        variant="classic",
        options={"rules": {}},
        seed=1,
        players=players,
        state=game.to_json(),
        status=status,
        version=40,  # type: ignore[arg-type]
        created_at=0.0,
        updated_at=0.0,
        finished_at=None,
        shown_version=20,
        behind_since=behind_since,
    )
    events = {
        turn: [
            StoredEvent(turn * 10, turn, "turn", players[(turn - 1) % 3], {"turn": turn}),
            StoredEvent(
                turn * 10 + 1, turn, "crossed", -1, {"row": "red", "number": 2, "phase": "action1"}
            ),
        ]
        for turn in range(10, last + 2)
    }
    with using("en-US"):
        steps, _ = plan(Channel(record, game, Shown(turn=10, since=10), events))
    return [step for step in steps if isinstance(step, (Post, Edit))]


def run_of_turns(behind_since: float | None) -> list[str]:
    return [
        step.content for step in catch_up(behind_since) if isinstance(step, Post) and not step.live
    ]


def test_a_run_of_unshown_turns_says_why_it_is_summed_up() -> None:
    """Twelve turns the computers played in one go are not an outage; after a failed
    write they are."""
    run = run_of_turns(None)
    assert run[0].startswith(
        "**Turns 11–22** were played out in one go — only the computers had a move:"
    )
    assert "could not be updated" not in "\n".join(run)
    outage = run_of_turns(1_000_000.0)
    assert outage[0].startswith(
        "**Turns 11–22** were played while the channel could not be updated:"
    )


def test_turns_missed_in_an_outage_are_told_whole_not_as_played_out() -> None:
    """People may have played the turns the channel missed: each is posted as a finished
    turn reads, and none says that nobody was asked."""
    steps = catch_up(1_000_000.0, last=13)
    posts = [step.content for step in steps if isinstance(step, Post) and not step.live]
    text = "\n".join(posts)
    assert [line for line in text.splitlines() if line.startswith("**Turn ")] == [
        f"**Turn {turn}** · {who} was active"
        for turn, who in ((11, "🤖 Computer 1"), (12, "🤖 Computer 2"), (13, f"<@{HOST}>"))
    ]
    assert " — " not in text
    live = next(step for step in steps if isinstance(step, Post) and step.live)
    assert live.content.startswith("**Turn 14** · 🎲"), "the live turn opens its own message"


def test_an_abandoned_games_last_turn_stops_asking() -> None:
    """Its message is finished like any turn that is over: no call, no clock, nobody
    deciding."""
    steps = catch_up(None, last=9, status="abandoned")
    final = next(step for step in steps if isinstance(step, Edit))
    assert final.final and final.content.startswith(f"**Turn 10** · <@{HOST}> was active")
    assert "Deciding" not in final.content and "is active" not in final.content


@pytest.mark.parametrize(("behind_since", "last"), [(None, 21), (1_000_000.0, 13)])
def test_turns_told_apart_are_cards_of_their_text_in_no_seats_colour(
    behind_since: float | None, last: int
) -> None:
    """Summed up, or told whole after an outage: each post of past turns is a card that
    says exactly its text, as the channel's other messages are cards."""
    posts = [s for s in catch_up(behind_since, last=last) if isinstance(s, Post) and not s.live]
    assert posts
    for post in posts:
        assert post.card is not None and post.card.accent is None and not post.images
        assert post.card.text.splitlines() == [
            line for line in post.content.splitlines() if line.strip()
        ]
