"""Forged and garbled components, clicked through the stand-in: answered, never applied."""

from __future__ import annotations

import copy
import logging

import pytest

from bot.i18n import using
from bot.i18n.words import t
from bot.sandbox import Sandbox
from bot.sandbox.autoplay import OPEN_SHEET, wait_for_turn
from bot.sandbox.driver import BUTTON, COMPONENT, STRING_SELECT
from bot.sandbox.records import StoredMessage

REFUSED = "not one this bot can read"


async def started(sb: Sandbox) -> StoredMessage:
    ana, ben = sb.member("Ana"), sb.member("Ben")
    lobby = (await ana.slash("qwixx", "start", variant="classic")).message
    await ben.click(lobby, label="Join")
    await ana.click(lobby, label="Start")
    return await wait_for_turn(sb)


def forged(message: StoredMessage, label: str, custom_id: str) -> StoredMessage:
    """``message`` as a tampered client would show it: one button carries ``custom_id``."""
    copied = copy.deepcopy(message)
    copied.find_component(label=label)["custom_id"] = custom_id
    return copied


async def moves_stored(sb: Sandbox, game: int) -> int:
    store = sb.bot.store  # type: ignore[union-attr]
    return len(await store.games.moves(game))


@pytest.mark.parametrize(
    "tail",
    [
        "{turn}:action1:cross.red.x",
        "{turn}:action1:cross.red.-5",
        "{turn}:action1:cross..red",
        "{turn}:bogus",
        "lobby:dance",
        "{turn}:action1:cross.red.5:extra",
        "{turn}",
    ],
)
async def test_garbled_ids_are_answered_politely(
    sb: Sandbox, tail: str, caplog: pytest.LogCaptureFixture
) -> None:
    turn = await started(sb)
    game, number = turn.find_component(label=OPEN_SHEET)["custom_id"].split(":")[1:3]
    before = await moves_stored(sb, int(game))
    custom_id = f"qx:{game}:" + tail.format(turn=number)
    with caplog.at_level(logging.WARNING):
        clicked = await sb.member("Ben").click(forged(turn, "Pass", custom_id), custom_id=custom_id)
    assert clicked.failed is None
    assert len(clicked.ephemeral) == 1 and REFUSED in clicked.ephemeral[0].content
    assert await moves_stored(sb, int(game)) == before
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


@pytest.mark.parametrize(
    "custom_id",
    [
        f"qx:{'1' * 40}:1:sheet",
        "qx:9223372036854775808:1:pass",
        f"qx:1:{'9' * 30}:pass",
        f"qx:{'4' * 40}:lobby:join",
        "qx:٣:1:sheet",
        "qx:",
        "qx:1:2:3:4:5:6",
        f"qx:{'7' * 40}:final",
        "qx:9999999999999999999:final",
        "qx:share:stats:9999999999999999999",
        f"qx:{'8' * 25}:rematch",
    ],
)
async def test_ids_out_of_range_or_shape_are_answered(sb: Sandbox, custom_id: str) -> None:
    turn = await started(sb)
    clicked = await sb.member("Ana").click(forged(turn, "Pass", custom_id), custom_id=custom_id)
    assert clicked.failed is None
    assert len(clicked.ephemeral) == 1 and REFUSED in clicked.ephemeral[0].content


@pytest.mark.parametrize("custom_id", ["hello world", "QX:1:1:pass", "qx", "sheet"])
async def test_ids_not_of_the_bots_form_are_answered_in_the_members_language(
    sb: Sandbox, custom_id: str
) -> None:
    """A tampered client's id, on the message it forged and on the genuine message."""
    turn = await started(sb)
    game = int(turn.find_component(label=OPEN_SHEET)["custom_id"].split(":")[1])
    before = await moves_stored(sb, game)
    ben = sb.member("Ben", locale="de")
    with using("de"):
        german = t("error.bad_button")
    on_forged = await ben.click(forged(turn, "Pass", custom_id), custom_id=custom_id)
    data = {"custom_id": custom_id, "component_type": BUTTON}
    on_genuine = await ben._act(COMPONENT, sb.channel, data, turn)
    for clicked in (on_forged, on_genuine):
        assert clicked.failed is None
        assert [m.content for m in clicked.ephemeral] == [german]
    assert await moves_stored(sb, game) == before


async def test_a_well_formed_move_of_another_phase_is_refused_by_the_game(sb: Sandbox) -> None:
    turn = await started(sb)
    game, number = turn.find_component(label=OPEN_SHEET)["custom_id"].split(":")[1:3]
    custom_id = f"qx:{game}:{number}:zzz:cross.red.5"
    clicked = await sb.member("Ben").click(forged(turn, "Pass", custom_id), custom_id=custom_id)
    assert clicked.failed is None and len(clicked.ephemeral) == 1
    assert "already over" in clicked.ephemeral[0].content


async def test_genuine_buttons_still_get_one_answer(sb: Sandbox) -> None:
    turn = await started(sb)
    passed = await sb.member("Ben").click(turn, label="Pass")
    assert passed.failed is None
    assert not [m for m in passed.ephemeral if REFUSED in m.content]


async def test_a_select_value_that_was_not_offered_is_refused(sb: Sandbox) -> None:
    """A raw interaction, as a tampered client could send it, on a forged select."""
    turn = await started(sb)
    game, number = turn.find_component(label=OPEN_SHEET)["custom_id"].split(":")[1:3]
    menu = copy.deepcopy(turn)
    component = {
        "type": STRING_SELECT,
        "custom_id": f"qx:{game}:{number}:action1:pick-red",
        "options": [{"label": "5", "value": "cross.red.5"}],
    }
    menu.components.append({"type": 1, "components": [component]})
    ben = sb.member("Ben")
    data = {
        "custom_id": component["custom_id"],
        "component_type": STRING_SELECT,
        "values": ["cross.red.6"],
    }
    clicked = await ben._act(COMPONENT, sb.channel, data, menu)
    assert clicked.failed is None
    assert len(clicked.ephemeral) == 1 and REFUSED in clicked.ephemeral[0].content


async def test_a_button_copied_into_another_channel_is_refused(sb: Sandbox) -> None:
    turn = await started(sb)
    game = int(turn.find_component(label=OPEN_SHEET)["custom_id"].split(":")[1])
    elsewhere = copy.deepcopy(turn)  # the same buttons, shown in another channel
    elsewhere.channel_id = sb.channel_named("games").id
    before = await moves_stored(sb, game)
    for label in ("Pass", OPEN_SHEET):
        clicked = await sb.member("Ben").click(elsewhere, label=label)
        assert clicked.failed is None
        assert "another channel" in clicked.ephemeral[-1].content
    assert await moves_stored(sb, game) == before
