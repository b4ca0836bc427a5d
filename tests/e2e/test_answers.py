"""The bot takes what its answers made from Discord's answers to them (the callback's
``?with_response``, a follow-up's ``?wait``): no request follows an interaction's only
to read back what it got, and every answer it reads is as Discord describes it."""

from __future__ import annotations

import pytest

from bot.sandbox import Sandbox
from bot.sandbox.autoplay import (
    OPEN_SHEET,
    edits_of,
    moves,
    play_to_end,
    seeded_policy,
    wait_for_turn,
)
from bot.sandbox.records import Call, InteractionRecord
from bot.sandbox.validation import OpenApiValidator, unavailable

CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"
FOLLOW_UP = "/webhooks/{webhook_id}/{webhook_token}"
REPLY, DEFERRED_REPLY, DEFERRED_UPDATE, UPDATE = 4, 5, 6, 7


def through(sb: Sandbox, record: InteractionRecord) -> list[Call]:
    """The requests made with ``record``'s interaction id or token."""
    return [c for c in sb.server.calls if record.token in c.path or f"/{record.id}/" in c.path]


async def test_a_lobby_is_one_request_whose_answer_gives_the_id_kept(sb: Sandbox) -> None:
    ana, ben = sb.member("Ana"), sb.member("Ben")
    before = len(sb.server.calls)

    opened = await ana.slash("qwixx", "start", variant="classic")

    lobby, sent = opened.message, sb.server.calls[before:]
    assert [(c.endpoint, c.body["type"]) for c in sent] == [(f"POST {CALLBACK}", REPLY)]
    assert sent[0].answer["resource"]["message"]["id"] == str(lobby.id)
    await ben.click(lobby, label="Join")
    edited = len(edits_of(sb, lobby))
    await ben.slash("qwixx", "leave")  # the lobby is edited by the id the answer gave
    await sb.wait_for(lambda: len(edits_of(sb, lobby)) > edited)
    assert "Ben" not in lobby.content
    assert not [c for c in sb.server.calls if c.method == "GET" and "/messages" in c.path]


async def test_a_sheet_is_a_deferral_and_a_follow_up_a_move_one_update(sb: Sandbox) -> None:
    ana, ben = sb.member("Ana"), sb.member("Ben")
    lobby = (await ana.slash("qwixx", "start", variant="classic")).message
    await ben.click(lobby, label="Join")
    await ana.click(lobby, label="Start")
    turn = await wait_for_turn(sb)

    opened = await ana.click(turn, label=OPEN_SHEET)

    sheet, sent = opened.message, through(sb, opened.interaction)
    assert [(c.endpoint, c.body and c.body.get("type")) for c in sent] == [
        (f"POST {CALLBACK}", DEFERRED_UPDATE),
        (f"POST {FOLLOW_UP}", None),
    ]
    assert sent[1].query.get("wait") in ("1", "true") and sent[1].answer["id"] == str(sheet.id)
    moved = await ana.click(sheet, custom_id=moves(sheet)[0].custom_id)
    sent = through(sb, moved.interaction)
    assert [(c.endpoint, c.body["type"]) for c in sent] == [(f"POST {CALLBACK}", UPDATE)]
    assert sent[0].answer["resource"]["message"]["id"] == str(sheet.id)


@pytest.mark.openapi
async def test_every_answer_the_bot_reads_is_as_discord_describes_it(sb: Sandbox) -> None:
    validator = OpenApiValidator.load()
    assert validator is not None, unavailable()
    ana, ben = sb.member("Ana"), sb.member("Ben")
    lobby = (await ana.slash("qwixx", "start", variant="classic")).message
    await ben.click(lobby, label="Join")
    await ana.click(lobby, label="Start")
    await wait_for_turn(sb)
    await ana.slash("qwixx", "sheet")  # a deferred reply
    await play_to_end(sb, [ana, ben], seeded_policy(3))

    calls = sb.server.calls
    answered = {c.body["type"] for c in calls if c.route == CALLBACK}
    assert answered >= {REPLY, DEFERRED_REPLY, DEFERRED_UPDATE, UPDATE}
    wrong = [
        (c.endpoint, c.status, str(problem))
        for c in calls
        if c.status is not None
        and c.answer is not None
        and (problem := validator.validate_answer(c.method, c.route, c.status, c.answer))
    ]
    assert wrong == []
    assert all(c.status == 200 and c.answer is not None for c in calls if c.route == CALLBACK)
