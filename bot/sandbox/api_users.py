"""REST endpoints for users: fetching one, and opening the bot's DM with one."""

from __future__ import annotations

from typing import Any

from . import limits, payloads
from .rest import ApiError, ApiRequest, Rest
from .world import World


class UserEndpoints:
    """``GET /users/{user_id}`` and ``POST /users/@me/channels`` (the DM channel with a
    user, the same one every time)."""

    def __init__(self, world: World) -> None:
        self.world = world

    def register(self, rest: Rest) -> None:
        """Add the handlers to ``rest``."""
        rest.add("GET", "/users/{user_id}", self.get_user)
        rest.add("POST", "/users/@me/channels", self.create_dm)

    async def get_user(self, request: ApiRequest) -> dict[str, Any]:
        """One user, by id."""
        wanted = request.params["user_id"]
        user = self.world.users.get(int(wanted)) if wanted.isdigit() else None
        if user is None:
            raise ApiError(404, "Unknown User", 10013, kind="not_found", detail=f"user {wanted}")
        return payloads.user(user)

    async def create_dm(self, request: ApiRequest) -> dict[str, Any]:
        """Open (or find) the DM with ``recipient_id``. Group DMs made with OAuth2 access
        tokens (``access_tokens``) need a user's grant, which the stand-in has not."""
        recipient = request.json().get("recipient_id")
        if recipient is None:
            problem = (("recipient_id",), "BASE_TYPE_REQUIRED", "This field is required")
            raise ApiError(
                400,
                "Invalid Form Body",
                kind="schema",
                body=limits.error_body([problem]),
                detail="recipient_id is required (group DMs need OAuth2 access tokens)",
            )
        user = self.world.users.get(int(recipient))
        if user is None or user.id == self.world.bot.id:
            raise ApiError(
                400,
                "Invalid Recipient(s)",
                50033,
                kind="bad_request",
                detail=f"no user {recipient} to open a DM with",
            )
        channel = self.world.open_dm(user.id, self.world.bot.id)
        return payloads.private_channel(self.world, channel)
