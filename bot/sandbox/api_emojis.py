"""The application's emojis: list, create, rename and delete, within Discord's limits
(names of 2-32 characters of ``[A-Za-z0-9_]``, unique; images of at most 256 KiB; 2,000
emojis an application). ``world.emojis_refused`` makes a create answer 403, as for an
application that may not have them."""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any

from . import payloads
from .api_app import own_application
from .limits import error_body
from .records import EmojiRecord
from .rest import ApiError, ApiRequest, Rest
from .world import World

NAME = re.compile(r"[A-Za-z0-9_]{2,32}")
MAX_IMAGE = 256 * 1024
MAX_EMOJIS = 2000
IMAGE = re.compile(r"data:image/(png|jpeg|gif|webp);base64,(.*)", re.DOTALL)
LIST = "/applications/{application_id}/emojis"
ONE = "/applications/{application_id}/emojis/{emoji_id}"


def invalid(field: str, code: str, message: str) -> ApiError:
    """Discord's 50035 Invalid Form Body for one field (recorded as a limit broken)."""
    return ApiError(
        400,
        "Invalid Form Body",
        50035,
        kind="limit",
        body=error_body([((field,), code, message)]),
        detail=f"{field}: {message}",
    )


def image_of(data: Any) -> bytes:
    """The bytes of a data URI's image, or Discord's refusal."""
    found = IMAGE.fullmatch(data) if isinstance(data, str) else None
    if found is None:
        raise invalid("image", "IMAGE_INVALID", "Invalid image data")
    try:
        image = base64.b64decode(found[2], validate=True)
    except binascii.Error as error:
        raise invalid("image", "IMAGE_INVALID", "Invalid image data") from error
    if len(image) > MAX_IMAGE:
        raise invalid(
            "image", "BINARY_TYPE_MAX_SIZE", f"File cannot be larger than {MAX_IMAGE // 1024} kb."
        )
    return image


class EmojiEndpoints:
    """``/applications/{application_id}/emojis[/{emoji_id}]``."""

    def __init__(self, world: World) -> None:
        self.world = world

    def register(self, rest: Rest) -> None:
        rest.add("GET", LIST, self.list)
        rest.add("POST", LIST, self.create)
        rest.add("GET", ONE, self.get)
        rest.add("PATCH", ONE, self.rename)
        rest.add("DELETE", ONE, self.delete)

    def _emoji(self, request: ApiRequest) -> EmojiRecord:
        own_application(self.world, request)
        emoji = self.world.emojis.get(int(request.params["emoji_id"]))
        if emoji is None:
            raise ApiError(404, "Unknown Emoji", 10014, kind="not_found", detail="no such emoji")
        return emoji

    def _name(self, body: dict[str, Any], keep: EmojiRecord | None = None) -> str:
        name = body.get("name")
        if not isinstance(name, str) or NAME.fullmatch(name) is None:
            raise invalid(
                "name", "BASE_TYPE_BAD_LENGTH", "Must be 2-32 characters of A-Z a-z 0-9 _"
            )
        if any(e.name == name and e is not keep for e in self.world.emojis.values()):
            raise invalid("name", "APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "Emoji name taken")
        return name

    async def list(self, request: ApiRequest) -> dict[str, Any]:
        own_application(self.world, request)
        return {"items": [self.payload(e) for e in self.world.emojis.values()]}

    async def get(self, request: ApiRequest) -> dict[str, Any]:
        return self.payload(self._emoji(request))

    async def create(self, request: ApiRequest) -> dict[str, Any]:
        own_application(self.world, request)
        if self.world.emojis_refused:
            raise ApiError(403, "Missing Permissions", 50013)
        body = request.json()
        name, image = self._name(body), image_of(body.get("image"))
        if len(self.world.emojis) >= MAX_EMOJIS:
            raise ApiError(
                400,
                "Maximum number of emojis reached (2000)",
                30056,
                kind="limit",
                detail="the application has 2,000 emojis",
            )
        emoji = EmojiRecord(self.world.ids.next(), name, image)
        self.world.emojis[emoji.id] = emoji
        self.world.notify()
        return self.payload(emoji)

    async def rename(self, request: ApiRequest) -> dict[str, Any]:
        emoji = self._emoji(request)
        if "name" in request.json():
            emoji.name = self._name(request.json(), keep=emoji)
            self.world.notify()
        return self.payload(emoji)

    async def delete(self, request: ApiRequest) -> None:
        emoji = self._emoji(request)
        del self.world.emojis[emoji.id]
        self.world.notify()

    def payload(self, emoji: EmojiRecord) -> dict[str, Any]:
        """An emoji object, as the application's emojis are listed."""
        return {
            "id": str(emoji.id),
            "name": emoji.name,
            "user": payloads.user(self.world.owner),
            "roles": [],
            "require_colons": True,
            "managed": False,
            "animated": False,
            "available": True,
        }
