"""REST endpoints for login, the gateway URL and application commands."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import contexts, payloads
from .rest import ApiError, ApiRequest, Rest
from .world import World


def own_application(world: World, request: ApiRequest) -> None:
    """Refuse a request about another application than the bot's."""
    if int(request.params["application_id"]) != world.application_id:
        raise ApiError(
            403,
            "Missing Access",
            50001,
            kind="forbidden",
            detail="application id is not the bot's",
        )


class AppEndpoints:
    """``/users/@me``, ``/oauth2/applications/@me``, ``/gateway[/bot]`` and commands."""

    def __init__(
        self, world: World, gateway_url: Callable[[], str], shards: Callable[[], int] = lambda: 1
    ) -> None:
        self.world = world
        self._gateway_url = gateway_url
        self._shards = shards

    def register(self, rest: Rest) -> None:
        """Add the handlers to ``rest``."""
        rest.add("GET", "/users/@me", self.me)
        rest.add("GET", "/oauth2/applications/@me", self.application)
        rest.add("GET", "/gateway", self.gateway, auth=False)
        rest.add("GET", "/gateway/bot", self.gateway_bot)
        for template in (
            "/applications/{application_id}/commands",
            "/applications/{application_id}/guilds/{guild_id}/commands",
        ):
            rest.add("GET", template, self.list_commands)
            rest.add("PUT", template, self.put_commands)

    async def me(self, request: ApiRequest) -> dict[str, Any]:
        """The bot user."""
        return {
            **payloads.user(self.world.bot),
            "verified": True,
            "mfa_enabled": False,
            "flags": 0,
            "locale": "en-US",
        }

    async def application(self, request: ApiRequest) -> dict[str, Any]:
        """The bot's application."""
        return payloads.application(self.world)

    async def gateway(self, request: ApiRequest) -> dict[str, Any]:
        """The gateway URL."""
        return {"url": self._gateway_url()}

    async def gateway_bot(self, request: ApiRequest) -> dict[str, Any]:
        """The gateway URL with shard advice (the shard count a sharded client uses when
        it is not told one)."""
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return {"url": self._gateway_url(), "shards": self._shards(), "session_start_limit": limit}

    async def list_commands(self, request: ApiRequest) -> list[dict[str, Any]]:
        """Registered commands (global or of one guild)."""
        return self.world.commands.get(self._scope(request), [])

    async def put_commands(self, request: ApiRequest) -> list[dict[str, Any]]:
        """Replace the commands of a scope, keeping the ids of names already known."""
        scope = self._scope(request)
        if not isinstance(request.body, list):
            raise ApiError(
                400,
                "Invalid Form Body",
                50035,
                kind="schema",
                detail="bulk overwrite needs a JSON array",
            )
        old = {c["name"]: c for c in self.world.commands.get(scope, [])}
        stored = [self._command(body, old.get(body.get("name")), scope) for body in request.body]
        self.world.commands[scope] = stored
        self.world.notify()
        return stored

    def _scope(self, request: ApiRequest) -> int | None:
        own_application(self.world, request)
        guild_id = request.params.get("guild_id")
        if guild_id is None:
            return None
        guild = self.world.guilds.get(int(guild_id))
        if guild is None or not guild.has_bot:
            raise ApiError(
                403,
                "Missing Access",
                50001,
                kind="forbidden",
                detail=f"bot is not in guild {guild_id}",
            )
        return int(guild_id)

    def _command(
        self, body: dict[str, Any], old: dict[str, Any] | None, scope: int | None
    ) -> dict[str, Any]:
        command = {
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            **body,
            **contexts.declared(body, scope is not None, self.world.install_types),
            "id": old["id"] if old else str(self.world.ids.next()),
            "application_id": str(self.world.application_id),
            "version": str(self.world.ids.next()),
        }
        if scope is not None:
            command["guild_id"] = str(scope)
        return command
