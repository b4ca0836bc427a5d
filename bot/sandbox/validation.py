"""Check request bodies against Discord's OpenAPI description.

The description is read at run time from ``$DISCORD_OPENAPI``, else from
``../shared/discord-api-spec/openapi.json`` beside the repository (never copied into
the project; Discord publishes it as ``specs/openapi.json`` of :data:`SOURCE`). Bodies
are first normalised for the few encodings discord.py sends that the description types
differently but Discord accepts.

Validation needs ``jsonschema``, which comes with the dev extra. Without it, or without
the description, the stand-in runs unvalidated (its own limits still apply):
``qwixx-bot demo`` says so once and plays on, and the tests that need the description
are skipped and named in pytest's summary (``tests/openapi_gate.py``).
"""

from __future__ import annotations

import copy
import importlib.util
import json
import logging
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

_log = logging.getLogger(__name__)

SPEC_URI = "urn:discord-openapi"
SOURCE = "https://github.com/discord/discord-api-spec"
"""Where Discord publishes its OpenAPI description (``specs/openapi.json``)."""
BESIDE = Path(__file__).resolve().parents[3] / "shared" / "discord-api-spec" / "openapi.json"
"""``../shared/discord-api-spec/openapi.json`` beside the repository."""


def description_path() -> Path:
    """Where the description is read: ``$DISCORD_OPENAPI``, else :data:`BESIDE`."""
    return Path(os.environ.get("DISCORD_OPENAPI") or BESIDE)


def unavailable(path: Path | None = None) -> str | None:
    """Why request bodies cannot be validated here (None if they can)."""
    if importlib.util.find_spec("jsonschema") is None:
        return "the jsonschema package is not installed (it comes with the dev extra)"
    path = path or description_path()
    if not path.is_file():
        return (
            f"Discord's OpenAPI description is not at {path} (set $DISCORD_OPENAPI to "
            f"an openapi.json from {SOURCE})"
        )
    return None


@dataclass(frozen=True)
class SchemaProblem:
    """Where in the body the description is violated, and how."""

    where: tuple[str | int, ...]
    message: str

    def __str__(self) -> str:
        return f"{'/'.join(map(str, self.where)) or '(body)'}: {self.message}"


def _pointer(*parts: str) -> str:
    return "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


class OpenApiValidator:
    """Validates JSON bodies against an operation's requestBody schema, and the
    stand-in's answers against the schema of the response they are given as."""

    def __init__(self, spec: dict[str, Any]) -> None:
        from referencing import Registry
        from referencing.jsonschema import DRAFT202012

        self.spec = spec
        self.registry = Registry().with_resource(SPEC_URI, DRAFT202012.create_resource(spec))
        self._validators: dict[tuple[str, ...], Draft202012Validator | None] = {}

    @classmethod
    def load(cls, path: Path | None = None) -> OpenApiValidator | None:
        """The validator for the description at ``path``; None if the file is absent or
        jsonschema is not installed (see :func:`unavailable`)."""
        path = path or description_path()
        reason = unavailable(path)
        if reason is not None:
            _log.info("request bodies are not validated: %s", reason)
            return None
        return _load_cached(str(path))

    def templates(self) -> list[str]:
        """Every path template the description knows."""
        return list(self.spec["paths"])

    def validate(self, method: str, template: str, body: Any) -> SchemaProblem | None:
        """None if ``body`` is valid for the operation, else where and why it is not."""
        validator = self._validator(method.lower(), template, "requestBody")
        return None if validator is None else _problem(validator, normalise(body, template))

    def validate_answer(
        self, method: str, template: str, status: int, body: Any
    ) -> SchemaProblem | None:
        """None if ``body`` is what the operation answers with ``status`` (or the
        description gives that answer no JSON body to check), else where and why not."""
        answers = self.spec["paths"].get(template, {}).get(method.lower(), {}).get("responses", {})
        given = str(status) if str(status) in answers else f"{status // 100}XX"
        validator = self._validator(method.lower(), template, "responses", given)
        return None if validator is None else _problem(validator, body)

    def _validator(self, method: str, template: str, *where: str) -> Draft202012Validator | None:
        key = (method, template, *where)
        if key not in self._validators:
            self._validators[key] = self._build(method, template, where)
        return self._validators[key]

    def _build(
        self, method: str, template: str, where: tuple[str, ...]
    ) -> Draft202012Validator | None:
        """The JSON schema of the operation's ``where`` (``requestBody``, or
        ``responses`` and a status); None where the description gives none."""
        node: Any = self.spec["paths"].get(template, {}).get(method, {})
        for part in where:
            node = node.get(part, {}) if isinstance(node, dict) else {}
        pointer = _pointer("paths", template, method, *where)
        shared = node.get("$ref", "") if isinstance(node, dict) else ""
        if shared.startswith("#/"):  # an answer several operations share (a rate limit's)
            pointer = shared[2:]
            node = self._at(pointer)
        if "application/json" not in node.get("content", {}):
            return None
        from jsonschema import Draft202012Validator

        schema = {"$ref": f"{SPEC_URI}#/{pointer}/{_pointer('content', 'application/json')}/schema"}
        return Draft202012Validator(schema, registry=self.registry)

    def _at(self, pointer: str) -> Any:
        """The part of the description at the JSON pointer ``pointer``."""
        node: Any = self.spec
        for part in pointer.split("/"):
            node = node.get(part.replace("~1", "/").replace("~0", "~"), {})
        return node


def _problem(validator: Draft202012Validator, body: Any) -> SchemaProblem | None:
    from jsonschema.exceptions import best_match

    error = best_match(validator.iter_errors(body))
    if error is None:
        return None
    error = _deepest(error)
    return SchemaProblem(tuple(error.absolute_path), error.message[:300])


def _deepest(error: ValidationError) -> ValidationError:
    """Inside anyOf/oneOf, the branch error that got furthest into the body."""
    while error.context:
        error = max(error.context, key=_depth)
    return error


def _depth(error: ValidationError) -> int:
    return max([len(error.absolute_path), *(_depth(e) for e in error.context)])


@cache
def _load_cached(path: str) -> OpenApiValidator:
    with open(path, encoding="utf-8") as handle:
        return OpenApiValidator(json.load(handle))


def normalise(body: Any, template: str) -> Any:
    """A copy of ``body`` with discord.py's accepted encodings made spec-shaped.

    Only the divergences listed in shared/DISCORD_NOTES.md are rewritten, and one found
    since: the integer ``recipient_id`` of ``POST /users/@me/channels``.
    """
    body = copy.deepcopy(body)
    _walk(body, role_endpoint="/roles" in template)
    return body


def _walk(node: Any, role_endpoint: bool) -> None:
    if isinstance(node, list):
        for item in node:
            _walk(item, role_endpoint)
        return
    if not isinstance(node, dict):
        return
    for key, value in node.items():
        _normalise_entry(node, key, value, role_endpoint)
        _walk(value, role_endpoint)


def _normalise_entry(node: dict[str, Any], key: str, value: Any, role_endpoint: bool) -> None:
    if key == "attachments" and isinstance(value, list):
        # discord.py sends a new upload's attachment id as its integer index (File.to_dict).
        for item in value:
            _stringify(item, "id")
    elif key == "message_reference" and isinstance(value, dict):
        # discord.py sends message reference ids as integers.
        for name in ("message_id", "channel_id", "guild_id"):
            _stringify(value, name)
    elif key == "allowed_mentions" and isinstance(value, dict):
        # discord.py sends allowed-mention user and role ids as integers.
        for name in ("users", "roles"):
            if isinstance(value.get(name), list):
                value[name] = [str(v) if isinstance(v, int) else v for v in value[name]]
    elif key == "emoji" and isinstance(value, dict):
        # discord.py sends custom emoji ids (buttons, select options) as integers.
        _stringify(value, "id")
    elif key == "permission_overwrites" and isinstance(value, list):
        # discord.py sends overwrite ids as integers and allow/deny as strings.
        for item in value:
            _stringify(item, "id")
            _integerise(item, "allow")
            _integerise(item, "deny")
    elif key == "recipient_id":
        # discord.py sends a DM's recipient id as an integer (start_private_message).
        _stringify(node, key)
    elif key == "permissions" and role_endpoint and isinstance(value, str):
        # discord.py sends role permissions as a string of digits.
        node[key] = int(value) if value.isdigit() else value


def _stringify(item: Any, key: str) -> None:
    value = item.get(key) if isinstance(item, dict) else None
    if isinstance(value, int) and not isinstance(value, bool):
        item[key] = str(value)


def _integerise(item: Any, key: str) -> None:
    if isinstance(item, dict) and isinstance(item.get(key), str) and item[key].isdigit():
        item[key] = int(item[key])
