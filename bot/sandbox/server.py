"""FakeDiscord: a loopback HTTP + websocket server that discord.py can log in to."""

from __future__ import annotations

import contextlib
import logging
from pathlib import Path
from typing import Any

from aiohttp import web

from .api_app import AppEndpoints
from .api_channels import ChannelEndpoints
from .api_emojis import EmojiEndpoints
from .api_interactions import InteractionEndpoints
from .api_users import UserEndpoints
from .clock import SandboxClock
from .faults import Fault
from .gateway import Gateway
from .interactions import Interactions
from .messages import Messages
from .records import Call, Failure
from .rest import API_PREFIX, Rest
from .validation import OpenApiValidator
from .world import World

_log = logging.getLogger(__name__)
HOST = "127.0.0.1"


class FakeDiscord:
    """Discord's REST API and gateway, enough of them for a discord.py bot, on 127.0.0.1."""

    def __init__(
        self,
        *,
        openapi: Path | None = None,
        clock: SandboxClock | None = None,
        bot_name: str = "Sandbox Bot",
        strict_schema: bool = True,
        heartbeat_ms: int = 41_250,
    ) -> None:
        self.clock = clock or SandboxClock()
        self.world = World(self.clock, bot_name)
        self.validator = OpenApiValidator.load(openapi)
        self.rest = Rest(self.world, self.validator, strict_schema=strict_schema)
        self.gateway = Gateway(self.world, lambda: self.gateway_url, heartbeat_ms)
        self.messages = Messages(self.world, self.gateway.dispatch, lambda: self.http_url)
        self.interactions = Interactions(self.world, self.gateway.dispatch)
        AppEndpoints(
            self.world, lambda: self.gateway_url, self.gateway.recommended_shards
        ).register(self.rest)
        EmojiEndpoints(self.world).register(self.rest)
        ChannelEndpoints(self.world, self.messages).register(self.rest)
        InteractionEndpoints(self.world, self.messages, self.interactions).register(self.rest)
        UserEndpoints(self.world).register(self.rest)
        self._runner: web.AppRunner | None = None
        self._port: int | None = None

    # -- lifecycle ---------------------------------------------------------------

    async def start(self) -> None:
        """Listen on a free loopback port."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self.rest.handle)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._attachment)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, HOST, 0)
        await site.start()
        self._port = self._runner.addresses[0][1]
        _log.info("sandbox Discord listening on %s", self.http_url)

    async def stop(self) -> None:
        """Close sockets and stop listening."""
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
        self._runner = None

    @property
    def http_url(self) -> str:
        """``http://127.0.0.1:<port>``."""
        if self._port is None:
            raise RuntimeError("FakeDiscord is not started")
        return f"http://{HOST}:{self._port}"

    @property
    def base_url(self) -> str:
        """The base of every REST call of the bot (``http://127.0.0.1:<port>/api/v10``)."""
        return self.http_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """The websocket URL (``ws://127.0.0.1:<port>/gateway``)."""
        return f"ws://{HOST}:{self._port}/gateway"

    def patched(self) -> contextlib.AbstractContextManager[None]:
        """Point discord.py's REST base and default gateway here; restore them afterwards."""
        from bot.cogs.discord_private import aimed_at  # discord.py, once a bot runs

        return aimed_at(self.base_url, self.gateway_url)

    # -- what tests look at ------------------------------------------------------

    @property
    def calls(self) -> list[Call]:
        """Every REST request received, in order."""
        return self.rest.calls

    @property
    def failures(self) -> list[Failure]:
        """Everything real Discord would have refused or reported."""
        return self.world.failures

    def endpoints(self) -> list[str]:
        """Distinct ``"METHOD /template"`` strings used so far, in first-use order."""
        return list(dict.fromkeys(call.endpoint for call in self.calls))

    def inject(self, status: int, **options: Any) -> Fault:
        """Fault injection; see :meth:`Faults.add` (``method``, ``route``, ``count``…)."""
        return self.rest.faults.add(status, **options)

    async def outage(self, away: bool = True, *, end_sessions: bool = False) -> None:
        """Discord away (``away``): every REST request answers 503, gateway sockets are
        closed and new ones refused; ``outage(False)`` ends it. ``end_sessions``: the
        gateway sessions do not survive it (the client identifies anew rather than
        resumes)."""
        self.rest.away = away
        if away:
            await self.gateway.go_away(end_sessions=end_sessions)
        else:
            self.gateway.come_back()
        self.world.notify()

    async def _attachment(self, request: web.Request) -> web.Response:
        wanted = int(request.match_info["attachment_id"])
        for message in self.world.messages.values():
            for attachment in message.attachments:
                if attachment.id == wanted:
                    kind = attachment.content_type or "application/octet-stream"
                    return web.Response(body=attachment.data, content_type=kind)
        raise web.HTTPNotFound()
