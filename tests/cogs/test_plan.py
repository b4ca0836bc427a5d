"""The channel's plan, without Discord: whole games through the service, the plan carried
out on a channel that is only a list of texts, compared with the transcripts in
``tests/cogs/golden/`` (``QWIXX_GOLDEN=update`` rewrites them after a deliberate change;
read the diff before committing it)."""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.channel.plan import DUE, Channel, Delete, Edit, Post, Shown, ending, plan, review_due
from bot.channel.publisher import by_turn
from bot.i18n import using
from bot.players import is_computer
from bot.rules.positions import position
from bot.service.games import GameService
from bot.service.memo import load_game
from bot.service.play import Seats
from bot.service.review import ReviewKeeper
from bot.service.types import GameRecord, Store, StoredEvent
from bot.store.stats import DUE as STORED_DUE

GOLDEN = Path(__file__).parent / "golden"
HOST = 111


@dataclass
class Message:
    content: str
    images: tuple[str, ...] = ()
    buttons: str | None = None


@dataclass
class FakeChannel:
    """Messages by id, in the order they were posted; deleted ones are gone."""

    messages: dict[int, Message] = field(default_factory=dict)
    writes: int = 0
    edits: dict[int, int] = field(default_factory=dict)
    """Edits per message."""

    def carry_out(self, steps: list[object], shown: Shown) -> int | None:
        live = None
        for step in steps:
            self.writes += 1
            if isinstance(step, Delete):
                del self.messages[step.message_id]
            elif isinstance(step, Edit):
                self.edits[step.message_id] = self.edits.get(step.message_id, 0) + 1
                old = self.messages[step.message_id]
                images = old.images if step.images is None else step.images
                self.messages[step.message_id] = Message(step.content, images, step.buttons)
            else:
                assert isinstance(step, Post)
                message_id = 1000 + len(self.messages) + self.writes
                self.messages[message_id] = Message(step.content, step.images, step.buttons)
                if step.live:
                    live = message_id
                elif step.call is not None:
                    shown.notes.append([message_id, list(step.pinged), step.call])
        return live

    def transcript(self) -> str:
        parts = []
        for message in self.messages.values():
            extras = [f"<{image}.png>" for image in message.images]
            extras += [f"[{message.buttons} buttons]"] if message.buttons else []
            parts.append("\n".join([message.content, *([" ".join(extras)] if extras else [])]))
        return "\n\n".join(parts) + "\n"


async def sync(service: GameService, channel: FakeChannel, game_id: int) -> None:
    """What the publisher does, minus Discord."""
    record = (await service.get(game_id)).record
    if record.shown_version >= record.version:
        return
    game, shown = load_game(record), Shown.of(record)
    assert game is not None
    events = by_turn(await service.events(game_id, shown.since or shown.turn or 0))
    wins, best = ({}, None)
    if ending(record, shown):
        wins = {p: await service.wins_on_server(record.guild_id, p) for p in game.players}
    accuracies = await service.store.reviewed(game_id) if review_due(record, shown) else None
    steps, after = plan(
        Channel(
            record, game, shown, events, Seats.of(record).away, wins, best, accuracies=accuracies
        )
    )
    live = channel.carry_out(steps, after)
    await service.set_shown(game_id, record.version, live or record.message_id, after.to_json())


async def play(tmp_path: Path, variant: str, seed: int) -> FakeChannel:
    store = await Store.open(tmp_path / "plan.db")
    service = GameService(store, seeds=lambda: seed, clock=lambda: 1_000_000.0)
    channel, rng = FakeChannel(), random.Random(seed)
    try:
        record = await service.open_lobby(1, 2, HOST, variant)
        for _ in range(2):
            record = await service.add_computer(record.id, HOST)
        await service.start(record.id, HOST)
        with using("en-US"):
            while True:
                await sync(service, channel, record.id)
                game = (await service.get(record.id)).game
                assert game is not None
                if game.finished:  # reviewed after its end is shown, then shown again
                    await ReviewKeeper(store).keep((await service.get(record.id)).record)
                    await sync(service, channel, record.id)
                    break
                waiting = [p for p in sorted(game.decision().waiting) if not is_computer(p)]
                await service.act(
                    record.id,
                    waiting[0],
                    game.turn,
                    game.decision().phase,
                    rng.choice(game.legal_moves(waiting[0])),
                )
    finally:
        await store.close()
    return channel


@pytest.mark.parametrize("variant", ["classic", "longo", "onboard", "qwinto"])
async def test_a_whole_game_reads_as_its_golden_transcript(tmp_path: Path, variant: str) -> None:
    channel = await play(tmp_path, variant, seed=3)
    golden = GOLDEN / f"{variant}.txt"
    if os.environ.get("QWIXX_GOLDEN") == "update":
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(channel.transcript(), encoding="utf-8")
    assert channel.transcript() == golden.read_text(encoding="utf-8")


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
    assert DUE == STORED_DUE


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
        record = await service.open_lobby(1, 2, HOST, "classic")
        record = await service.add_computer(record.id, HOST)
        await service.start(record.id, HOST)
        with using("en-US"):
            while True:
                game = (await service.get(record.id)).game
                assert game is not None
                if game.finished:
                    break
                waiting = [p for p in sorted(game.decision().waiting) if not is_computer(p)]
                await service.act(
                    record.id,
                    waiting[0],
                    game.turn,
                    game.decision().phase,
                    rng.choice(game.legal_moves(waiting[0])),
                )
            finished = (await service.get(record.id)).record
            assert await ReviewKeeper(store).keep(finished)
            before = channel.writes
            await sync(service, channel, record.id)
            end = list(channel.messages.values())[-1]
            assert "🎯 Accuracy" in end.content
            shown = Shown.of((await service.get(record.id)).record)
            assert shown.review == "shown" and shown.end is None
            posted = channel.writes - before
            await sync(service, channel, record.id)  # nothing more to show
            assert channel.writes - before == posted
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
