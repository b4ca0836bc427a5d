"""Reading what the stand-in sent: gateway events, and payloads held to the schemas of
Discord's OpenAPI description."""

from __future__ import annotations

from typing import Any

from bot.sandbox import Sandbox
from bot.sandbox.validation import SPEC_URI, OpenApiValidator, unavailable


def dispatched(sb: Sandbox, event: str) -> list[dict[str, Any]]:
    """The data of every ``event`` the gateway sent, oldest first."""
    return [
        e["d"] for s in sb.server.gateway.sessions.values() for e in s.events if e["t"] == event
    ]


def schema_problems(schema: str, body: Any) -> list[str]:
    """Where ``body`` breaks ``#/components/schemas/<schema>`` of Discord's description."""
    from jsonschema import Draft202012Validator

    validator = OpenApiValidator.load()
    assert validator is not None, unavailable()
    checker = Draft202012Validator(
        {"$ref": f"{SPEC_URI}#/components/schemas/{schema}"}, registry=validator.registry
    )
    return [f"{list(e.absolute_path)}: {e.message}" for e in checker.iter_errors(body)]
