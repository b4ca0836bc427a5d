"""What the stand-in answers an interaction callback: with ``?with_response`` the
``InteractionCallbackResponse`` of Discord's OpenAPI description (the message a reply
or an update made as its resource), without it nothing (204)."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from bot.sandbox import Sandbox
from bot.sandbox.messages import numbered
from bot.sandbox.records import InteractionRecord, StoredMessage
from bot.sandbox.validation import OpenApiValidator, unavailable

CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"
COMMAND, COMPONENT = 2, 3
REPLY, DEFERRED_REPLY, DEFERRED_UPDATE, UPDATE = 4, 5, 6, 7
GO = {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "go"}]}


async def clicked(sb: Sandbox) -> tuple[InteractionRecord, StoredMessage]:
    """A click of Ana's on a button of the bot's message (no bot answers it)."""
    message = await sb.server.messages.create(
        sb.channel.id, {"content": "ready", "components": [GO]}, []
    )
    data = {"custom_id": "go", "component_type": 2}
    ana = sb.member("Ana").record
    return await sb.server.interactions.open(COMPONENT, ana, sb.channel, data, message), message


async def commanded(sb: Sandbox) -> InteractionRecord:
    """A slash command of Ana's (no bot answers it)."""
    data = {"id": "1", "name": "demo", "type": 1}
    return await sb.server.interactions.open(COMMAND, sb.member("Ana").record, sb.channel, data)


async def callback(
    sb: Sandbox, record: InteractionRecord, body: dict[str, Any], with_response: bool = True
) -> tuple[int, Any]:
    """POST the callback as a client does: its status and JSON answer (None: no body)."""
    url = f"{sb.server.base_url}/interactions/{record.id}/{record.token}/callback"
    query = {"with_response": "true"} if with_response else {}
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, json=body, params=query) as response,
    ):
        answer = await response.json() if response.content_length else None
        return response.status, answer


def validator() -> OpenApiValidator:
    found = OpenApiValidator.load()
    assert found is not None, unavailable()
    return found


@pytest.mark.openapi
@pytest.mark.parametrize("kind", [REPLY, DEFERRED_REPLY])
async def test_a_reply_answers_with_the_message_it_made(sb: Sandbox, kind: int) -> None:
    record = await commanded(sb)
    body = {"type": kind, "data": {"content": "hello"} if kind == REPLY else {}}

    status, answer = await callback(sb, record, body)

    assert status == 200
    assert validator().validate_answer("POST", CALLBACK, status, answer) is None
    made = sb.server.world.messages[record.original_id or 0]
    assert answer["interaction"]["id"] == str(record.id)
    assert answer["interaction"]["response_message_id"] == str(made.id)
    assert answer["interaction"]["response_message_loading"] is (kind == DEFERRED_REPLY)
    if kind == REPLY:
        assert answer["resource"]["type"] == REPLY
        assert answer["resource"]["message"]["id"] == str(made.id)
        assert answer["resource"]["message"]["content"] == "hello"
    else:  # the "thinking" message is named, but it is no resource (types 4, 7, 12 only)
        assert "resource" not in answer


@pytest.mark.openapi
async def test_an_update_answers_with_the_message_it_wrote(sb: Sandbox) -> None:
    record, message = await clicked(sb)

    status, answer = await callback(sb, record, {"type": UPDATE, "data": {"content": "gone"}})

    assert status == 200
    assert validator().validate_answer("POST", CALLBACK, status, answer) is None
    assert answer["resource"]["type"] == UPDATE
    assert answer["resource"]["message"]["id"] == str(message.id)
    assert answer["resource"]["message"]["content"] == "gone"
    assert answer["interaction"]["response_message_id"] == str(message.id)


@pytest.mark.openapi
async def test_a_deferred_update_answers_with_the_interaction_alone(sb: Sandbox) -> None:
    record, message = await clicked(sb)

    status, answer = await callback(sb, record, {"type": DEFERRED_UPDATE})

    assert status == 200
    assert validator().validate_answer("POST", CALLBACK, status, answer) is None
    assert answer["interaction"]["id"] == str(record.id) and "resource" not in answer
    assert "response_message_id" not in answer["interaction"]
    assert message.content == "ready"


@pytest.mark.openapi
def test_a_deferral_given_as_a_resource_is_not_what_discord_answers() -> None:
    # What the stand-in answered before: Discord's resource is a reply's, an update's or
    # an activity's (types 4, 7, 12), never a deferral's.
    interaction = {"id": "1", "type": COMPONENT}
    wrong = {"interaction": interaction, "resource": {"type": DEFERRED_UPDATE}}

    problem = validator().validate_answer("POST", CALLBACK, 200, wrong)

    assert problem is not None and problem.where == ("resource", "type")
    assert validator().validate_answer("POST", CALLBACK, 200, {"interaction": interaction}) is None


@pytest.mark.parametrize("kind", [REPLY, DEFERRED_UPDATE, UPDATE])
async def test_without_the_query_a_callback_answers_nothing(sb: Sandbox, kind: int) -> None:
    record, _ = await clicked(sb)
    body = {"type": kind} if kind == DEFERRED_UPDATE else {"type": kind, "data": {"content": "hi"}}

    status, answer = await callback(sb, record, body, with_response=False)

    assert (status, answer) == (204, None)
    assert record.callback_type == kind
    assert sb.server.calls[-1].answer is None


async def test_the_answer_is_recorded_with_its_call(sb: Sandbox) -> None:
    record, _ = await clicked(sb)

    _, answer = await callback(sb, record, {"type": UPDATE, "data": {"content": "gone"}})

    call = sb.server.calls[-1]
    assert call.route == CALLBACK and call.status == 200 and call.answer == answer


def test_components_without_an_id_are_numbered_in_reading_order() -> None:
    row = {"type": 1, "components": [{"type": 2, "custom_id": "a"}, {"type": 2, "id": 2}]}
    section = {"type": 9, "components": [{"type": 10}], "accessory": {"type": 2}}

    found = numbered([row, section])

    assert [found[0]["id"], *(c["id"] for c in found[0]["components"])] == [1, 3, 2]
    assert [found[1]["id"], found[1]["components"][0]["id"], found[1]["accessory"]["id"]] == [
        4,
        5,
        6,
    ]
    assert "id" not in row  # the body itself is left as it came
