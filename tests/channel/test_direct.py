"""A game's direct messages as a projection, and the channel's mentions beside them:
whole games through the service, projected without Discord. One letter a wait, closed
with what happened; none in quiet hours, none to closed DMs; nobody mentioned in their
quiet hours, nor where a letter reaches them instead."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import AsyncIterator, Mapping
from dataclasses import replace
from pathlib import Path

import pytest

from bot.channel.direct import Closing, Letter, Mailbox, Sent, letters, storable, stored
from bot.channel.plan import Channel, Post, Shown, plan
from bot.i18n import using
from bot.i18n.words import signed
from bot.records.games import StoredEvent
from bot.records.seats import Seats
from bot.rules import PASS, Move
from bot.service.games import GameService
from bot.service.outcome import Snapshot
from bot.store import Store
from tests.fakes import FakeClock, at

GUILD, CHANNEL, ANA, BEN = 1, 100, 11, 22
NIGHT = (23 * 60, 7 * 60)
PLACE = ("Friday Club", "qwixx")
YELLOW_8 = Move("cross", "yellow", 8)
"""A move Ana has in the first turn of seed 4321 (white sum 8)."""


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(at(7, 12))


@pytest.fixture
async def service(tmp_path: Path, clock: FakeClock) -> AsyncIterator[GameService]:
    async with Store(tmp_path / "direct.db", clock=clock) as store:
        yield GameService(store, seeds=lambda: 4321, clock=clock)


async def started(service: GameService, variant: str = "classic", **prefs: object) -> int:
    """Ana's and Ben's game, Ana having chosen ``prefs``; its turn message is 3."""
    if prefs:
        await service.members.change(ANA, **prefs)
    record = await service.lobby.open(GUILD, CHANNEL, ANA, variant)
    await service.lobby.join(record.id, BEN)
    await service.lobby.start(record.id, ANA)
    await service.keeper.set_message(record.id, 3)
    return record.id


async def events_of(service: GameService, game_id: int) -> Mapping[int, list[StoredEvent]]:
    grouped: defaultdict[int, list[StoredEvent]] = defaultdict(list)
    for event in await service.keeper.events(game_id):
        grouped[event.turn].append(event)
    return grouped


async def project(
    service: GameService,
    game_id: int,
    sent: Mapping[int, Sent] | None = None,
    now: float | None = None,
    place: tuple[str, str] | None = PLACE,
) -> tuple[list[Closing | Letter], dict[int, Sent], Snapshot]:
    current = await service.keeper.read(game_id)
    assert current.game is not None
    box = Mailbox(
        current.record,
        current.game,
        sent or {},
        await events_of(service, game_id),
        service.clock() if now is None else now,
        place,
    )
    with using("en-US"):
        mail, after = letters(box)
    return mail, after, current


def delivered(mail: list[Closing | Letter], sent: Mapping[int, Sent]) -> dict[int, Sent]:
    """``sent`` once ``mail``'s letters are posted (as the publisher notes them)."""
    after = dict(sent)
    for number, item in enumerate(mail):
        if isinstance(item, Letter):
            after[item.person] = Sent(500 + item.person, 9000 + number, item.turn, item.phase)
    return after


# --- the letters --------------------------------------------------------------------
async def test_a_wait_gets_one_letter_saying_where_what_by_when_and_the_link(
    service: GameService,
) -> None:
    game_id = await started(service, dm=True)
    mail, _, current = await project(service, game_id)
    assert mail == [
        Letter(
            ANA,
            "\n".join(
                [
                    "🎲 **Qwixx** on **Friday Club**, #qwixx — turn 1",
                    "🎲 ⚪3 ⚪5 🟥4 🟨6 🟩4 🟦3 · white sum **8**",
                    "Your decision: action 1 (white sum 8).",
                    f"⏳ Decide <t:{int(current.record.deadline or 0)}:R>.",
                    f"🔗 The game: https://discord.com/channels/{GUILD}/{CHANNEL}/3",
                ]
            ),
            1,
            "action1",
            f"qx{game_id}d1action1",
        )
    ], "Ben chose no direct messages"


async def test_where_the_game_is_played_unknown_the_link_says_it(service: GameService) -> None:
    game_id = await started(service, dm=True)
    mail, _, _ = await project(service, game_id, place=None)
    assert isinstance(mail[0], Letter)
    assert mail[0].content.splitlines()[0] == "🎲 **Qwixx**, turn 1"
    assert "https://discord.com/channels/" in mail[0].content.splitlines()[-1]


async def test_one_letter_a_wait_even_from_what_a_restart_reads(service: GameService) -> None:
    game_id = await started(service, dm=True)
    mail, sent, _ = await project(service, game_id)
    sent = delivered(mail, sent)
    stored_again = stored(Shown.from_json(Shown(direct=storable(sent)).to_json()).direct)
    assert stored_again == sent
    again, after, _ = await project(service, game_id, stored_again)
    assert again == [] and after == sent


async def test_a_choice_closes_its_letter_and_says_what_it_was_once_told(
    service: GameService,
) -> None:
    """Ana, active, crosses her white sum while Ben still decides: her letter stays as her
    click left it (it goes on to her coloured die, chosen ahead); once the action is
    over it says what she did, and her coloured dice, a new wait, get a letter of their
    own. On Ben's turn her white sum, chosen while he still decides, is secret until he
    has: her letter loses its buttons and says she chose."""
    game_id = await started(service, dm=True)
    mail, sent, _ = await project(service, game_id)
    sent = delivered(mail, sent)
    link = f"🔗 The game: https://discord.com/channels/{GUILD}/{CHANNEL}/3"
    head = "🎲 **Qwixx** on **Friday Club**, #qwixx — turn 1"
    await service.turns.move(game_id, ANA, 1, "action1", YELLOW_8)
    mail, sent, _ = await project(service, game_id, sent)
    assert mail == [] and sent[ANA].state == "open", "her letter goes on to her choice ahead"
    await service.turns.move(game_id, BEN, 1, "action1", PASS)
    mail, after, current = await project(service, game_id, sent)
    assert current.game is not None and current.game.decision().phase == "action2"
    closing, letter = mail
    assert isinstance(closing, Closing) and closing.content == "\n".join(
        [head, "Action 1: You crossed 🟨 Yellow 8", link]
    )
    assert isinstance(letter, Letter) and (letter.turn, letter.phase) == (1, "action2")
    assert "Your decision: action 2 (white + colour)." in letter.content
    assert after[ANA].state == "closed"
    sent = delivered(mail, after)
    await service.turns.move(game_id, ANA, 1, "action2", PASS)
    mail, sent, current = await project(service, game_id, sent)
    sent = delivered(mail, sent)
    assert current.game is not None and current.game.decision().active == BEN
    assert {ANA, BEN} <= current.game.decision().waiting, "Ben's turn: both decide"
    await service.turns.move(game_id, ANA, 2, "action1", PASS)
    mail, sent, _ = await project(service, game_id, sent)
    chose = "✅ You have chosen: your choice is told here once everyone has decided."
    assert [(m.person, m.content.splitlines()[1]) for m in mail if isinstance(m, Closing)] == [
        (ANA, chose)
    ]
    assert sent[ANA].state == "chosen"
    assert (await project(service, game_id, sent))[0] == [], "said once"


async def test_qwintos_throw_is_told_and_so_is_keeping_it(service: GameService) -> None:
    """Ana, active, rolls the orange die, then keeps the throw: each is a wait of its own,
    and each letter says what she did."""
    game_id = await started(service, "qwinto", dm=True)
    sent: dict[int, Sent] = {}
    written: list[Closing | Letter] = []
    for move in (Move("roll", dice=("orange",)), Move("keep"), None):
        mail, sent, current = await project(service, game_id, sent)
        sent, written = delivered(mail, sent), written + mail
        assert current.game is not None
        if move is not None:
            await service.turns.move(game_id, ANA, 1, current.game.decision().phase, move)
    orange = current.game.dice_on_table()["orange"]
    assert [m.content.splitlines()[1] for m in written if isinstance(m, Closing)] == [
        f"🎲 You rolled 🟧{orange} = {orange}",
        "You kept the throw.",
    ]
    assert [m.phase for m in written if isinstance(m, Letter)] == ["roll", "reroll", "place"]


async def test_time_running_out_is_what_the_letter_says_then(
    service: GameService, clock: FakeClock
) -> None:
    game_id = await started(service, dm=True)
    mail, sent, current = await project(service, game_id)
    sent = delivered(mail, sent)
    clock.now = current.record.deadline or 0
    await service.deadlines.fire(game_id)
    mail, _, _ = await project(service, game_id, sent)
    closing = mail[0]
    assert isinstance(closing, Closing)
    assert closing.content.splitlines()[1:-1] == [
        "⏰ Your time ran out: nothing crossed this time.",
        "Action 1: You passed",
    ]


async def test_a_game_abandoned_closes_its_letters_saying_so(service: GameService) -> None:
    game_id = await started(service, dm=True)
    mail, sent, _ = await project(service, game_id)
    sent = delivered(mail, sent)
    await service.turns.abandon(CHANNEL, ANA, can_manage=False)
    mail, after, _ = await project(service, game_id, sent)
    assert [m.content.splitlines()[1:] for m in mail] == [
        [
            "🏁 The game was abandoned.",
            f"🔗 How the game ended: https://discord.com/channels/{GUILD}/{CHANNEL}/3",
        ]
    ]
    assert after[ANA].state == "ended"
    assert (await project(service, game_id, after))[0] == [], "told once"


async def played_out(service: GameService, game_id: int) -> Snapshot:
    """Everyone passes until a fourth penalty ends the game."""
    current = await service.keeper.read(game_id)
    while current.game is not None and not current.game.finished:
        game = current.game
        person = min(game.decision().waiting)
        current = await service.turns.move(game_id, person, game.turn, game.decision().phase, PASS)
    return current


async def ended_after_a_cross(
    service: GameService,
) -> tuple[int, dict[int, Sent], list[Closing | Letter]]:
    """Ana, who chose letters, crosses 🟨 Yellow 8 in turn 1 (her letter closed saying
    so), then everyone passes until the game ends, its final message 77: the game, Ana's
    letters as noted before the end, and what her cross closed."""
    game_id = await started(service, dm=True)
    mail, sent, _ = await project(service, game_id)
    sent = delivered(mail, sent)
    await service.turns.move(game_id, ANA, 1, "action1", YELLOW_8)
    await service.turns.move(game_id, BEN, 1, "action1", PASS)
    mail, sent, _ = await project(service, game_id, sent)
    await played_out(service, game_id)
    await service.keeper.set_message(game_id, 77)  # the final message, now the live one
    return game_id, sent, mail


async def test_the_last_letter_says_how_the_game_ended_speaking_to_its_reader(
    service: GameService,
) -> None:
    """Ana's letter of turn 1 was closed long before the end; when the game ends it says
    so once more: what she did, why the game ended, the final scores with her own line
    and win (or not) spoken to her, and a link to the final message (the live one)."""
    game_id, sent, _ = await ended_after_a_cross(service)
    assert sent[ANA].state == "closed"
    mail, after, final = await project(service, game_id, sent)
    assert final.game is not None and final.record.status == "finished"
    ranking = final.game.ranking()
    lines = {s.player: f"{s.rank}. {'You' if s.player == ANA else f'<@{BEN}>'}" for s in ranking}
    [closing] = mail
    assert isinstance(closing, Closing) and closing.content.splitlines() == [
        "🎲 **Qwixx** on **Friday Club**, #qwixx — turn 1",
        "Action 1: You crossed 🟨 Yellow 8",
        "🏁 A fourth penalty: game over.",
        "🏁 **Qwixx** — final scores",
        *(f"{lines[s.player]} — {signed(s.total)}" for s in ranking),
        "🏆 You win!" if ranking[0].player == ANA else f"🏆 <@{BEN}> wins!",
        f"🔗 How the game ended: https://discord.com/channels/{GUILD}/{CHANNEL}/77",
    ]
    assert after[ANA].state == "ended"
    assert (await project(service, game_id, after))[0] == [], "told once"


async def test_no_letter_in_quiet_hours_one_when_they_end(
    service: GameService, clock: FakeClock
) -> None:
    clock.now = at(7, 2)
    game_id = await started(service, dm=True, quiet=NIGHT)
    mail, _, _ = await project(service, game_id)
    assert mail == []
    mail, _, _ = await project(service, game_id, now=at(7, 7))
    assert [m.person for m in mail] == [ANA]


@pytest.mark.parametrize("prefs", [{}, {"dm": False}], ids=["never chosen", "turned off"])
async def test_no_letter_to_whoever_did_not_choose_them(
    service: GameService, prefs: dict[str, object]
) -> None:
    game_id = await started(service, **prefs)
    assert (await project(service, game_id))[0] == []


async def test_no_letter_to_closed_direct_messages(service: GameService) -> None:
    game_id = await started(service, dm=True)
    await service.members.dms_closed(ANA)
    assert (await project(service, game_id))[0] == []


# --- the channel's mentions ----------------------------------------------------------
async def turn_post(service: GameService, game_id: int, now: float, direct: bool = True) -> Post:
    """The first turn's post as the plan makes it at ``now``."""
    current = await service.keeper.read(game_id)
    assert current.game is not None
    with using("en-US"):
        steps, _ = plan(
            Channel(
                replace(current.record, shown={}),
                current.game,
                Shown(),
                await events_of(service, game_id),
                now=now,
                direct=direct,
            )
        )
    post = steps[-1]
    assert isinstance(post, Post) and post.live
    return post


async def test_the_turn_names_but_does_not_ping_whom_a_letter_reaches(
    service: GameService,
) -> None:
    game_id = await started(service, dm=True)
    post = await turn_post(service, game_id, service.clock())
    assert post.pinged == (BEN,)
    assert f"<@{ANA}>" in post.content
    without = await turn_post(service, game_id, service.clock(), direct=False)
    assert set(without.pinged) == {ANA, BEN}, "a bot that sends no letters mentions everyone"


async def test_the_turn_does_not_ping_the_quiet_and_calls_them_when_they_wake(
    service: GameService, clock: FakeClock
) -> None:
    clock.now = at(7, 2)
    game_id = await started(service, quiet=NIGHT)
    post = await turn_post(service, game_id, clock.now)
    assert post.pinged == (BEN,) and f"<@{ANA}>" in post.content
    current = await service.keeper.read(game_id)
    assert current.game is not None
    shown = Shown(turn=1, since=1, pinged=[BEN])
    for now, called in ((at(7, 6, 59), []), (at(7, 7), [ANA])):
        with using("en-US"):
            steps, after = plan(
                Channel(
                    current.record,
                    current.game,
                    shown,
                    await events_of(service, game_id),
                    now=now,
                )
            )
        calls = [s for s in steps if isinstance(s, Post)]
        assert [list(c.pinged) for c in calls] == ([called] if called else [])
    assert after.pinged == [BEN, ANA]


async def test_a_member_whose_letters_are_refused_is_pinged(service: GameService) -> None:
    game_id = await started(service, dm=True)
    await service.members.dms_closed(ANA)
    post = await turn_post(service, game_id, service.clock())
    assert set(post.pinged) == {ANA, BEN}
    assert Seats.of((await service.keeper.read(game_id)).record).prefs_of(ANA).dm


async def test_the_final_scores_call_everyone_but_the_sleeping(
    service: GameService, clock: FakeClock
) -> None:
    """Everyone passes until Ana's fourth penalty ends the game at night: its final
    scores mention Ben (whose letters do not stand in for the end) but not Ana."""
    clock.now = at(7, 2)
    await service.members.change(BEN, dm=True)
    game_id = await started(service, quiet=NIGHT)
    current = await service.keeper.read(game_id)
    while current.game is not None and not current.game.finished:
        game = current.game
        person = min(game.decision().waiting)
        current = await service.turns.move(game_id, person, game.turn, game.decision().phase, PASS)
    with using("en-US"):
        steps, _ = plan(
            Channel(
                current.record,
                current.game,
                Shown(turn=1, since=1),
                await events_of(service, game_id),
                wins={},
                ratings={},
                accuracies={},
                now=clock.now,
                direct=True,
            )
        )
    final = [s for s in steps if isinstance(s, Post) and s.live]
    assert [f.pinged for f in final] == [(BEN,)]
