"""Discord's message limits, answered the way Discord answers them (50035 Invalid Form Body)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .records import COMPONENTS_V2

MAX_CONTENT = 2000
MAX_ROWS = 5
MAX_ROW_WIDTH = 5
MAX_CUSTOM_ID = 100
MAX_LABEL = 80
MAX_SELECT_OPTIONS = 25
MAX_EMBEDS = 10
MAX_LAYOUT_COMPONENTS = 40
"""A message with layout components (``IS_COMPONENTS_V2``) holds at most 40 components,
counted at every depth."""
MAX_LAYOUT_TEXT = 4000
"""... and at most 4000 characters in its text displays together."""
TEXT_DISPLAY = 10

Path = tuple[str | int, ...]
Problem = tuple[Path, str, str]
"""(where, Discord error code, message)."""


def check_message(body: dict[str, Any]) -> list[Problem]:
    """Every limit a message body (create or edit) breaks."""
    problems: list[Problem] = []
    content = body.get("content")
    if isinstance(content, str) and len(content) > MAX_CONTENT:
        problems.append(_too_long(("content",), MAX_CONTENT))
    embeds = body.get("embeds")
    if isinstance(embeds, list) and len(embeds) > MAX_EMBEDS:
        problems.append(_too_long(("embeds",), MAX_EMBEDS))
    components = body.get("components")
    v2 = bool((body.get("flags") or 0) & COMPONENTS_V2)
    if isinstance(components, list):
        problems.extend(_check_components(components, v2))
        if v2:
            problems.extend(_check_layout(components))
    if v2:
        problems.extend(
            ((legacy,), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2", LEGACY)
            for legacy in ("content", "embeds")
            if body.get(legacy)
        )
    return problems


LEGACY = "The 'content' and 'embeds' fields cannot be used when using MessageFlags.IS_COMPONENTS_V2"


def _check_layout(components: list[Any]) -> Iterator[Problem]:
    """A message of layout components within its totals: components and text."""
    items = [item for _, item in _items(components, ())]
    if len(items) > MAX_LAYOUT_COMPONENTS:
        yield _too_long(("components",), MAX_LAYOUT_COMPONENTS)
    text = sum(len(str(i.get("content") or "")) for i in items if i.get("type") == TEXT_DISPLAY)
    if text > MAX_LAYOUT_TEXT:
        yield (
            ("components",),
            "MAX_TEXT_DISPLAY_CONTENT_LENGTH_EXCEEDED",
            f"Text display content must be {MAX_LAYOUT_TEXT} or fewer in length in total.",
        )


def _too_long(where: Path, limit: int) -> Problem:
    return where, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."


def _check_components(rows: list[Any], v2: bool) -> Iterator[Problem]:
    if not v2 and len(rows) > MAX_ROWS:
        yield _too_long(("components",), MAX_ROWS)
    seen: set[str] = set()
    for where, item in _items(rows, ("components",)):
        yield from _check_item(where, item, seen)
        if item.get("type") == 1:
            yield from _check_row(where, item.get("components") or [])


def _items(items: list[Any], where: Path) -> Iterator[tuple[Path, dict[str, Any]]]:
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            continue
        here = (*where, index)
        yield here, item
        yield from _items(item.get("components") or [], (*here, "components"))
        if isinstance(item.get("accessory"), dict):
            yield (*here, "accessory"), item["accessory"]


def _check_row(where: Path, children: list[Any]) -> Iterator[Problem]:
    if len(children) > MAX_ROW_WIDTH:
        yield _too_long((*where, "components"), MAX_ROW_WIDTH)
    selects = [c for c in children if isinstance(c, dict) and c.get("type") in (3, 5, 6, 7, 8)]
    if selects and len(children) > 1:
        yield (
            (*where, "components"),
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "The specified component exceeds the maximum width",
        )


def _check_item(where: Path, item: dict[str, Any], seen: set[str]) -> Iterator[Problem]:
    custom_id = item.get("custom_id")
    if isinstance(custom_id, str):
        if len(custom_id) > MAX_CUSTOM_ID:
            yield _too_long((*where, "custom_id"), MAX_CUSTOM_ID)
        if custom_id in seen:
            yield (
                (*where, "custom_id"),
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                "Component custom id cannot be duplicated",
            )
        seen.add(custom_id)
    label = item.get("label")
    if item.get("type") == 2 and isinstance(label, str) and len(label) > MAX_LABEL:
        yield _too_long((*where, "label"), MAX_LABEL)
    options = item.get("options")
    if item.get("type") == 3 and isinstance(options, list) and len(options) > MAX_SELECT_OPTIONS:
        yield _too_long((*where, "options"), MAX_SELECT_OPTIONS)


def error_body(problems: list[Problem]) -> dict[str, Any]:
    """Discord's nested ``errors`` body for a list of problems."""
    errors: dict[str, Any] = {}
    for where, code, message in problems:
        node = errors
        for part in where:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
    return {"code": 50035, "message": "Invalid Form Body", "errors": errors}


def describe(problems: list[Problem]) -> str:
    """A one-line summary for the failure list."""
    return "; ".join(f"{'.'.join(map(str, w))}: {m}" for w, _, m in problems)
