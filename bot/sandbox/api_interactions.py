"""REST endpoints for interaction callbacks and the follow-up webhook."""

from __future__ import annotations

from typing import Any

from .interactions import Interactions
from .messages import Messages
from .records import (
    COMPONENTS_V2,
    EPHEMERAL,
    LOADING,
    SUPPRESS_EMBEDS,
    SUPPRESS_NOTIFICATIONS,
    USER_INSTALL,
    VOICE_MESSAGE,
    InteractionRecord,
    StoredMessage,
)
from .rest import ApiError, ApiRequest, Rest, UploadedFile
from .world import World

CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"
WEBHOOK = "/webhooks/{webhook_id}/{webhook_token}"
ORIGINAL = WEBHOOK + "/messages/@original"
WEBHOOK_MESSAGE = WEBHOOK + "/messages/{message_id}"
MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE = 4, 5, 6, 7
AUTOCOMPLETE, MODAL = 8, 9
COMPONENT, MODAL_SUBMIT = 3, 5
COMMAND_MESSAGE_TYPE = 20
USER_INSTALL_FOLLOWUPS = 5
"""Follow-ups an interaction may create when only a user install authorizes it."""
RESPONSE_FLAGS = (
    SUPPRESS_EMBEDS | EPHEMERAL | SUPPRESS_NOTIFICATIONS | VOICE_MESSAGE | COMPONENTS_V2
)
"""The message flags a response or follow-up may set (Discord drops the others)."""


class InteractionEndpoints:
    """Callbacks (types 4–9) and follow-ups, with Discord's rules about which are allowed."""

    def __init__(self, world: World, messages: Messages, interactions: Interactions) -> None:
        self.world = world
        self.messages = messages
        self.interactions = interactions

    def register(self, rest: Rest) -> None:
        """Add the handlers to ``rest`` (no bot token needed: the URL carries one)."""
        rest.add("POST", CALLBACK, self.callback, auth=False)
        rest.add("POST", WEBHOOK, self.followup, auth=False)
        for template in (ORIGINAL, WEBHOOK_MESSAGE):
            rest.add("GET", template, self.get_message, auth=False)
            rest.add("PATCH", template, self.edit_message, auth=False)
            rest.add("DELETE", template, self.delete_message, auth=False)

    # -- callbacks ---------------------------------------------------------------

    async def callback(self, request: ApiRequest) -> dict[str, Any] | None:
        """Acknowledge an interaction; answers ``{interaction, resource}`` with ?with_response."""
        record = self.interactions.for_callback(
            int(request.params["interaction_id"]), request.params["interaction_token"]
        )
        body = request.json()
        kind = body.get("type")
        data = body.get("data") or {}
        message = await self._apply(record, kind, data, request.files)
        record.callback_type = kind
        record.acknowledged_at = self.world.clock.now()
        self.world.notify()
        if not request.flag("with_response"):
            return None
        return self._callback_reply(record, kind, message)

    async def _apply(
        self, record: InteractionRecord, kind: Any, data: dict[str, Any], files: list[UploadedFile]
    ) -> StoredMessage | None:
        if kind == MESSAGE:
            return await self._new_response(record, {**data, "flags": _flags(record, data)}, files)
        if kind == DEFERRED_MESSAGE:
            flags = (_flags(record, data) & EPHEMERAL) | LOADING
            return await self._new_response(record, {"flags": flags}, [])
        if kind in (DEFERRED_UPDATE, UPDATE):
            return await self._update_clicked(record, kind, data, files)
        if kind == AUTOCOMPLETE and record.type == 4:
            record.autocomplete = list(data.get("choices") or [])
            return None
        if kind == MODAL and record.type in (2, COMPONENT):
            record.modal = data
            return None
        raise ApiError(
            400,
            "Interaction callback type is not valid for this interaction",
            50035,
            kind="bad_callback",
            detail=f"callback type {kind} for type {record.type}",
        )

    async def _new_response(
        self, record: InteractionRecord, data: dict[str, Any], files: list[UploadedFile]
    ) -> StoredMessage:
        ephemeral = bool(data["flags"] & EPHEMERAL)
        message = await self.messages.create(
            record.channel_id,
            data,
            files,
            visible_to=record.user_id if ephemeral else None,
            interaction_id=record.id,
            webhook_id=self.world.application_id,
            type=COMMAND_MESSAGE_TYPE if record.type == 2 else 0,
        )
        record.original_id = message.id
        return message

    async def _update_clicked(
        self, record: InteractionRecord, kind: int, data: dict[str, Any], files: list[UploadedFile]
    ) -> StoredMessage:
        if record.type not in (COMPONENT, MODAL_SUBMIT) or record.message_id is None:
            raise ApiError(
                400,
                "Interaction callback type is not valid for this interaction",
                50035,
                kind="bad_callback",
                detail=f"type {kind} needs a component interaction",
            )
        message = self.world.messages[record.message_id]
        record.original_id = message.id
        if kind == UPDATE:
            await self.messages.edit(message, data, files)
        return message

    def _callback_reply(
        self, record: InteractionRecord, kind: Any, message: StoredMessage | None
    ) -> dict[str, Any]:
        """The answer to ``?with_response``: the interaction, and the message a reply
        (type 4) made or an update (type 7) wrote as ``resource``. A deferred reply
        names its "thinking" message only; a deferral or any other type has no resource
        (Discord's ``InteractionCallbackResponse``)."""
        interaction: dict[str, Any] = {
            "id": str(record.id),
            "type": record.type,
            "response_message_loading": kind == DEFERRED_MESSAGE,
            "response_message_ephemeral": bool(message and message.ephemeral),
        }
        if message is not None and kind in (MESSAGE, DEFERRED_MESSAGE, UPDATE):
            interaction["response_message_id"] = str(message.id)
        answer: dict[str, Any] = {"interaction": interaction}
        if message is not None and kind in (MESSAGE, UPDATE):
            answer["resource"] = {"type": kind, "message": self.messages.payload(message)}
        return answer

    # -- follow-up webhook -------------------------------------------------------

    def _record(self, request: ApiRequest) -> InteractionRecord:
        return self.interactions.for_webhook(
            int(request.params["webhook_id"]), request.params["webhook_token"]
        )

    async def followup(self, request: ApiRequest) -> dict[str, Any] | None:
        """A follow-up; the first one after a deferred reply replaces the "thinking" message."""
        record = self._record(request)
        record.answered = True
        body = request.json()
        original = self.world.messages.get(record.original_id or 0)
        if original is not None and original.loading and record.callback_type == DEFERRED_MESSAGE:
            message = await self.messages.edit(original, body, request.files)
        else:
            self._check_followups(record)
            body = {**body, "flags": _flags(record, body)}
            ephemeral = bool(body["flags"] & EPHEMERAL)
            message = await self.messages.create(
                record.channel_id,
                body,
                request.files,
                visible_to=record.user_id if ephemeral else None,
                interaction_id=record.id,
                webhook_id=self.world.application_id,
            )
            record.followups += 1
        return self.messages.payload(message) if request.flag("wait") else None

    def _check_followups(self, record: InteractionRecord) -> None:
        """Discord's limit on follow-ups of an interaction only a user install authorizes."""
        user_install_only = set(record.owners) == {str(USER_INSTALL)}
        if user_install_only and record.followups >= USER_INSTALL_FOLLOWUPS:
            raise ApiError(
                400,
                "This interaction has hit the maximum number of follow up messages",
                40094,
                kind="followup_limit",
                detail=(
                    f"interaction {record.id} (user install only) already has "
                    f"{USER_INSTALL_FOLLOWUPS} follow-ups"
                ),
            )

    def _target(self, request: ApiRequest) -> StoredMessage:
        record = self._record(request)
        if "message_id" in request.params:
            wanted = int(request.params["message_id"])
            message = self.world.messages.get(wanted)
            ours = message is not None and (
                wanted == record.original_id or message.interaction_id == record.id
            )
            if not ours:
                raise ApiError(
                    404,
                    "Unknown Message",
                    10008,
                    kind="not_found",
                    detail=f"message {wanted} does not belong to this interaction",
                )
        else:
            message = self.world.messages.get(record.original_id or 0)
        if message is None or message.deleted:
            raise ApiError(
                404,
                "Unknown Message",
                10008,
                kind="not_found",
                detail="the interaction has no (live) message here",
            )
        return message

    async def get_message(self, request: ApiRequest) -> dict[str, Any]:
        """The original response or a follow-up."""
        return self.messages.payload(self._target(request))

    async def edit_message(self, request: ApiRequest) -> dict[str, Any]:
        """Edit the original response or a follow-up."""
        message = self._target(request)
        await self.messages.edit(message, request.json(), request.files)
        self._record(request).answered = True
        return self.messages.payload(message)

    async def delete_message(self, request: ApiRequest) -> None:
        """Delete the original response or a follow-up."""
        await self.messages.delete(self._target(request))


def _flags(record: InteractionRecord, data: dict[str, Any]) -> int:
    """A response's flags: those it may set, made ephemeral where Discord forces it."""
    flags = int(data.get("flags") or 0) & RESPONSE_FLAGS
    return flags | EPHEMERAL if record.forced_ephemeral else flags
