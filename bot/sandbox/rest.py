"""The REST side: parse, record, inject faults, validate, route to a handler, reply."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import BodyPartReader, web

from . import limits
from .faults import ChannelWriteLimit, Faults
from .records import Call
from .routing import Route, RouteTable, best_template
from .validation import OpenApiValidator
from .world import World

_log = logging.getLogger(__name__)
API_PREFIX = "/api/v10"


@dataclass
class UploadedFile:
    """One ``files[n]`` part of a multipart request."""

    index: int
    filename: str
    data: bytes
    content_type: str | None


@dataclass
class ApiRequest:
    """A parsed request handed to endpoint handlers."""

    method: str
    route: str
    path: str
    params: dict[str, str]
    query: dict[str, str]
    body: Any = None
    files: list[UploadedFile] = field(default_factory=list)

    def json(self) -> dict[str, Any]:
        """The body as an object (empty if there was none)."""
        return self.body if isinstance(self.body, dict) else {}

    def flag(self, name: str) -> bool:
        """A boolean query parameter (``?wait=1``, ``?with_response=true``)."""
        return self.query.get(name, "").lower() in ("1", "true")


class ApiError(Exception):
    """An error answer; ``kind`` set means it is also recorded as a failure."""

    def __init__(
        self,
        status: int,
        message: str,
        code: int = 0,
        *,
        kind: str | None = None,
        body: dict[str, Any] | None = None,
        detail: str | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.kind = kind
        self.body = body or {"message": message, "code": code}
        self.detail = detail or message


Handler = Callable[[ApiRequest], Awaitable[Any]]


def json_reply(status: int, body: Any, headers: dict[str, str] | None = None) -> web.Response:
    """A response whose Content-Type is exactly ``application/json`` (discord.py needs that)."""
    if body is None and status < 300:
        return web.Response(status=204, headers=headers)
    all_headers = {"Content-Type": "application/json", **(headers or {})}
    return web.Response(status=status, body=json.dumps(body).encode(), headers=all_headers)


class Rest:
    """Dispatches ``/api/v10/...`` requests to registered handlers."""

    def __init__(
        self, world: World, validator: OpenApiValidator | None, *, strict_schema: bool = True
    ) -> None:
        self.world = world
        self.validator = validator
        self.strict_schema = strict_schema
        self.routes: RouteTable[Handler] = RouteTable()
        self.faults = Faults()
        self.write_limit: ChannelWriteLimit | None = ChannelWriteLimit()
        """Discord's per-channel write limit; None turns it off."""
        self.calls: list[Call] = []
        self.tokens: set[str] | None = None
        """Accepted bot tokens; None accepts any."""
        self.away = False
        """Discord is away (:meth:`FakeDiscord.outage`): every request answers 503."""
        self.in_flight = 0
        self.last_activity = time.monotonic()

    def add(self, method: str, template: str, handler: Handler, *, auth: bool = True) -> None:
        """Serve ``method template`` with ``handler``."""
        self.routes.add(method, template, handler, auth=auth)

    def quiet_for(self, seconds: float) -> bool:
        """True if no request is running and none ended in the last ``seconds``."""
        return self.in_flight == 0 and time.monotonic() - self.last_activity >= seconds

    async def handle(self, request: web.Request) -> web.Response:
        """aiohttp entry point for every REST request."""
        self.in_flight += 1
        try:
            return await self._handle(request)
        finally:
            self.in_flight -= 1
            self.last_activity = time.monotonic()
            self.world.notify()

    async def _handle(self, request: web.Request) -> web.Response:
        method, path = request.method, "/" + request.match_info["tail"]
        found = self.routes.find(method, path)
        route = found[0].template if found else self._spec_template(path)
        call = Call(method, route, path, query=dict(request.query))
        self.calls.append(call)
        response = await self._answer(request, call, found)
        call.status = response.status
        return response

    async def _answer(
        self, request: web.Request, call: Call, found: tuple[Route[Handler], dict[str, str]] | None
    ) -> web.Response:
        endpoint = call.endpoint
        try:
            body, files = await _read_body(request)
            call.body, call.files = body, [f.filename for f in files]
            if self.away:
                self.faults.served.append((call.method, call.route, 503))
                return json_reply(503, {"message": "Service Unavailable", "code": 0})
            fault = self.faults.take(call.method, call.route, call.path)
            if fault is not None:
                return json_reply(*fault.reply())
            limit = self.write_limit
            limited = limit and limit.take(call.method, call.route, call.path, call.at)
            if limit and limited:
                self.world.fail(
                    "rate_limited",
                    endpoint,
                    f"more than {limit.writes} writes in {limit.window:g} s to {call.path}",
                )
                return json_reply(*limited.reply())
            if found is None:
                raise self._unknown(call)
            route, params = found
            if route.auth:
                self._authorise(request)
            self._validate(call, body)
            api_request = ApiRequest(
                call.method, call.route, call.path, params, call.query, body, files
            )
            call.answer = await route.handler(api_request)
            return json_reply(200, call.answer)
        except ApiError as error:
            if error.kind is not None:
                self.world.fail(error.kind, endpoint, error.detail)
            call.answer = error.body
            return json_reply(error.status, error.body)
        except SenderLeft:
            _log.info("%s: its sender left before its body arrived; not served", endpoint)
            return web.Response(status=SENDER_LEFT)
        except Exception as error:  # a stand-in bug: answer 400 so discord.py does not retry
            _log.exception("sandbox handler crashed on %s", endpoint)
            self.world.fail("sandbox_error", endpoint, repr(error))
            return json_reply(400, {"message": f"sandbox error: {error!r}", "code": 0})

    def _spec_template(self, path: str) -> str:
        if self.validator is None:
            return path
        fit = best_template(self.validator.templates(), path)
        return fit[0] if fit else path

    def _unknown(self, call: Call) -> ApiError:
        known = call.route != call.path
        detail = (
            "endpoint exists in Discord's API but not in the stand-in"
            if known
            else "unknown endpoint"
        )
        return ApiError(
            404,
            "404: Not Found",
            kind="unknown_endpoint",
            detail=f"{call.method} {call.path}: {detail}",
        )

    def _authorise(self, request: web.Request) -> None:
        header = request.headers.get("Authorization", "")
        token = header.removeprefix("Bot ")
        if not header.startswith("Bot ") or (self.tokens is not None and token not in self.tokens):
            raise ApiError(
                401, "401: Unauthorized", kind="unauthorized", detail="missing or wrong bot token"
            )

    def _validate(self, call: Call, body: Any) -> None:
        if self.validator is None or body is None:
            return
        problem = self.validator.validate(call.method, call.route, body)
        if problem is None:
            return
        if not self.strict_schema:
            self.world.fail("schema", call.endpoint, str(problem))
            return
        body = limits.error_body([(problem.where, "OPENAPI_SCHEMA", problem.message)])
        raise ApiError(400, "Invalid Form Body", kind="schema", detail=str(problem), body=body)


class SenderLeft(Exception):
    """The request's sender went away before its body had arrived (a bot's process killed
    in the middle of a request): nothing was asked, and nothing is the stand-in's fault."""


SENDER_LEFT = 499  # the status recorded for such a request (no one is there to read it)


async def _read_body(request: web.Request) -> tuple[Any, list[UploadedFile]]:
    try:
        if request.content_type.startswith("multipart/"):
            return await _read_multipart(request)
        raw = await request.read()
    except ConnectionResetError as error:
        raise SenderLeft(str(error)) from error
    if not raw:
        return None, []
    try:
        return json.loads(raw), []
    except ValueError as error:
        raise ApiError(
            400,
            "The request body contains invalid JSON.",
            50109,
            kind="bad_json",
            detail=str(error),
        ) from error


async def _read_multipart(request: web.Request) -> tuple[Any, list[UploadedFile]]:
    body: Any = None
    files: list[UploadedFile] = []
    reader = await request.multipart()
    async for part in reader:
        if not isinstance(part, BodyPartReader):  # a nested multipart: Discord sends none
            continue
        name = part.name or ""
        data = await part.read()
        if name == "payload_json":
            body = json.loads(data)
        elif name.startswith("files[") and name.endswith("]"):
            content_type = part.headers.get("Content-Type")
            files.append(
                UploadedFile(int(name[6:-1]), part.filename or name, bytes(data), content_type)
            )
    return body, files
