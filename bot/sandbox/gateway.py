"""The gateway: HELLO, IDENTIFY → READY + GUILD_CREATE, heartbeats, RESUME, dispatch, faults."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from . import payloads
from .records import GuildRecord
from .world import World

_log = logging.getLogger(__name__)

DISPATCH, HEARTBEAT, IDENTIFY, RESUME, RECONNECT = 0, 1, 2, 6, 7
REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 8, 9, 10, 11
INVALID_SHARD, SHARDING_REQUIRED = 4010, 4011
MAX_GUILDS_PER_SHARD = 2500
"""Discord closes an IDENTIFY whose shard would hold more guilds than this (4011)."""
GUILDS_INTENT = 1 << 0
GUILD_MESSAGES_INTENT = 1 << 9
DIRECT_MESSAGES_INTENT = 1 << 12
EVENT_INTENTS = {
    "MESSAGE_CREATE": GUILD_MESSAGES_INTENT,
    "MESSAGE_UPDATE": GUILD_MESSAGES_INTENT,
    "MESSAGE_DELETE": GUILD_MESSAGES_INTENT,
    "THREAD_CREATE": GUILDS_INTENT,
}
DM_EVENT_INTENTS = {
    "MESSAGE_CREATE": DIRECT_MESSAGES_INTENT,
    "MESSAGE_UPDATE": DIRECT_MESSAGES_INTENT,
    "MESSAGE_DELETE": DIRECT_MESSAGES_INTENT,
}
"""The intents of the same events in DMs (which carry no ``guild_id``)."""


@dataclass
class GatewaySession:
    """A gateway session; it outlives its socket so that RESUME can replay missed events."""

    id: str
    token: str
    intents: int
    seq: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)
    socket: web.WebSocketResponse | None = None
    ended: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    shard: tuple[int, int] | None = None
    """(shard id, shard count) from IDENTIFY; None: every guild on one connection."""

    def serves(self, guild_id: int | None) -> bool:
        """Whether this session gets ``guild_id``'s events (direct messages: shard 0)."""
        if self.shard is None:
            return True
        shard, count = self.shard
        # Discord's own routing rule, written out here rather than imported from the bot,
        # so that the bot's copy of it is checked against this one.
        return shard == (0 if guild_id is None else (guild_id >> 22) % count)

    async def send(self, payload: dict[str, Any]) -> None:
        """Send now if connected (events are kept for replay either way)."""
        if self.socket is None or self.socket.closed:
            return
        async with self.lock:
            try:
                await self.socket.send_str(json.dumps(payload))
            except ConnectionError:
                _log.debug("gateway send on closing socket dropped")


class ShardRefused(Exception):
    """An IDENTIFY Discord closes with ``code`` (4010 invalid shard, 4011 sharding required)."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


def read_shard(data: object) -> tuple[int, int]:
    """IDENTIFY's ``shard`` field, ``[shard_id, num_shards]``; ShardRefused (4010) if invalid."""
    if not (isinstance(data, list) and len(data) == 2 and all(type(n) is int for n in data)):
        raise ShardRefused(INVALID_SHARD, f"shard must be [shard_id, num_shards], got {data!r}")
    shard, count = data
    if not 0 <= shard < count:
        raise ShardRefused(INVALID_SHARD, f"shard {shard} of {count} does not exist")
    return shard, count


class Gateway:
    """Websocket endpoint speaking the bits of Discord's gateway that discord.py uses."""

    def __init__(self, world: World, url: Callable[[], str], heartbeat_ms: int = 41_250) -> None:
        self.world = world
        self._url = url
        self.heartbeat_ms = heartbeat_ms
        self.sessions: dict[str, GatewaySession] = {}
        self.identifies = 0
        self.resumes = 0
        self.replayed = 0
        """Events sent again on RESUME because the client had missed them."""
        self.max_guilds_per_shard = MAX_GUILDS_PER_SHARD
        self._resume_gate = asyncio.Event()
        self._resume_gate.set()
        self._sockets: set[web.WebSocketResponse] = set()
        self._closed_by_us: set[web.WebSocketResponse] = set()
        self.away = False
        """Discord is away (:meth:`FakeDiscord.outage`): connections are refused with 503."""

    @property
    def live(self) -> list[GatewaySession]:
        """Sessions that have not ended (connected or waiting for RESUME)."""
        return [s for s in self.sessions.values() if not s.ended]

    @property
    def connected(self) -> bool:
        """True if some live session has an open socket."""
        return any(s.socket is not None and not s.socket.closed for s in self.live)

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """aiohttp entry point: one websocket connection."""
        if self.away:
            return web.Response(status=503, text="sandbox: Discord is away")
        socket = web.WebSocketResponse(autoping=True)
        await socket.prepare(request)
        self._sockets.add(socket)
        session: GatewaySession | None = None
        try:
            hello = {"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_ms}}
            await socket.send_str(json.dumps(hello))
            async for frame in socket:
                if frame.type is not WSMsgType.TEXT:
                    continue
                session = await self._on_frame(socket, json.loads(frame.data), session)
        finally:
            self._sockets.discard(socket)
            self._detach(socket, session)
        return socket

    def _detach(self, socket: web.WebSocketResponse, session: GatewaySession | None) -> None:
        if session is None or session.socket is not socket:
            return
        session.socket = None
        if socket.close_code == 1000 and socket not in self._closed_by_us:
            session.ended = True  # a clean client close ends the session, as on Discord
        self._closed_by_us.discard(socket)
        _log.info("gateway session %s disconnected (%s)", session.id, socket.close_code)
        self.world.notify()

    async def _on_frame(
        self, socket: web.WebSocketResponse, frame: dict[str, Any], session: GatewaySession | None
    ) -> GatewaySession | None:
        op, data = frame.get("op"), frame.get("d") or {}
        if op == HEARTBEAT:
            await socket.send_str(json.dumps({"op": HEARTBEAT_ACK}))
        elif op == IDENTIFY:
            return await self._identify(socket, data)
        elif op == RESUME:
            return await self._resume(socket, data)
        elif op == REQUEST_MEMBERS and session is not None:
            await self._members_chunk(session, data)
        return session

    async def _identify(
        self, socket: web.WebSocketResponse, data: dict[str, Any]
    ) -> GatewaySession | None:
        self.identifies += 1
        session = GatewaySession(
            secrets.token_hex(16), data.get("token", ""), int(data.get("intents", 0))
        )
        try:
            session.shard = None if data.get("shard") is None else read_shard(data["shard"])
            self._check_size(session)
        except ShardRefused as refused:
            self.world.fail(
                "invalid_shard" if refused.code == INVALID_SHARD else "sharding_required",
                "gateway IDENTIFY",
                refused.reason,
            )
            await socket.close(code=refused.code, message=refused.reason.encode()[:120])
            return None
        session.socket = socket
        self.sessions[session.id] = session
        await self._emit(session, "READY", self._ready(session))
        for guild in self._guilds_of(session):
            await self._emit(session, "GUILD_CREATE", payloads.guild(self.world, guild))
        self.world.notify()
        return session

    def _guilds_of(self, session: GatewaySession) -> list[GuildRecord]:
        return [g for g in self.world.bot_guilds() if session.serves(g.id)]

    def _check_size(self, session: GatewaySession) -> None:
        held = len(self._guilds_of(session))
        if held > self.max_guilds_per_shard:
            raise ShardRefused(
                SHARDING_REQUIRED,
                f"a session would hold {held} guilds, more "
                f"than {self.max_guilds_per_shard}: more shards are needed",
            )

    def recommended_shards(self) -> int:
        """What ``GET /gateway/bot`` advises: one shard per 1,000 guilds, as Discord does."""
        return max(1, -(-len(self.world.bot_guilds()) // 1000))

    def _ready(self, session: GatewaySession) -> dict[str, Any]:
        ready = {
            "v": 10,
            "user": {**payloads.user(self.world.bot), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in self._guilds_of(session)],
            "session_id": session.id,
            "resume_gateway_url": self._url(),
            "application": {"id": str(self.world.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        if session.shard is not None:
            ready["shard"] = list(session.shard)
        return ready

    async def _resume(
        self, socket: web.WebSocketResponse, data: dict[str, Any]
    ) -> GatewaySession | None:
        await self._resume_gate.wait()
        session = self.sessions.get(data.get("session_id", ""))
        if session is None or session.ended:
            await socket.send_str(json.dumps({"op": INVALID_SESSION, "d": False}))
            return None
        self.resumes += 1
        session.socket = socket
        missed = [e for e in session.events if e["s"] > (data.get("seq") or 0)]
        _log.info("gateway session %s resumed; replaying %d events", session.id, len(missed))
        self.replayed += len(missed)
        for event in missed:
            await session.send(event)
        await self._emit(session, "RESUMED", {})
        self.world.notify()
        return session

    async def _members_chunk(self, session: GatewaySession, data: dict[str, Any]) -> None:
        guild_id = int(data["guild_id"])
        chunk = {
            "guild_id": str(guild_id),
            "members": [payloads.member(m) for m in self.world.guild_members(guild_id)],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await self._emit(session, "GUILD_MEMBERS_CHUNK", chunk)

    async def _emit(self, session: GatewaySession, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        payload = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        session.events.append(payload)
        await session.send(payload)

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send an event to every live session that asked for it and serves its guild
        (kept for RESUME)."""
        guild = data.get("guild_id")
        needed = (EVENT_INTENTS if guild is not None else DM_EVENT_INTENTS).get(event, 0)
        for session in self.live:
            if needed and not session.intents & needed:
                continue
            if session.serves(None if guild is None else int(guild)):
                await self._emit(session, event, data)

    async def drop(self, code: int = 4000) -> None:
        """Close every socket abruptly; sessions stay resumable."""
        for session in self.live:
            if session.socket is not None:
                self._closed_by_us.add(session.socket)
                await session.socket.close(code=code, message=b"sandbox: connection dropped")

    async def go_away(self, *, end_sessions: bool = False) -> None:
        """Close every socket and refuse new ones until :meth:`come_back`; with
        ``end_sessions`` the sessions cannot be resumed (the client identifies anew), as
        after a long outage."""
        self.away = True
        if end_sessions:
            for session in self.live:
                session.ended = True
        for socket in list(self._sockets):
            self._closed_by_us.add(socket)
            await socket.close(code=4000, message=b"sandbox: Discord is away")

    def come_back(self) -> None:
        """Accept connections again (after :meth:`go_away`)."""
        self.away = False

    def hold_resumes(self) -> None:
        """Keep RESUME requests waiting (to dispatch events while the bot is away)."""
        self._resume_gate.clear()

    def release_resumes(self) -> None:
        """Let waiting and future RESUMEs through."""
        self._resume_gate.set()

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT; the client closes and RESUMEs."""
        for session in self.live:
            await session.send({"op": RECONNECT, "d": None})

    async def close(self) -> None:
        """Close all sockets (server shutdown)."""
        self.release_resumes()
        for socket in list(self._sockets):
            await socket.close(code=1001, message=b"sandbox stopping")
