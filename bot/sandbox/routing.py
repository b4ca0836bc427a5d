"""Match request paths against Discord-style templates such as ``/channels/{channel_id}``."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

H = TypeVar("H")


def _segments(path: str) -> list[str]:
    return path.strip("/").split("/")


def _is_param(segment: str) -> bool:
    return segment.startswith("{") and segment.endswith("}")


def match_template(template: str, path: str) -> dict[str, str] | None:
    """The template's parameters if ``path`` fits it, else None."""
    pattern, actual = _segments(template), _segments(path)
    if len(pattern) != len(actual):
        return None
    params: dict[str, str] = {}
    for want, got in zip(pattern, actual, strict=True):
        if _is_param(want):
            params[want[1:-1]] = got
        elif want != got:
            return None
    return params


def best_template(templates: Iterable[str], path: str) -> tuple[str, dict[str, str]] | None:
    """The fitting template with the most literal segments (``@original`` beats ``{id}``)."""
    fits = [(t, p) for t in templates if (p := match_template(t, path)) is not None]
    if not fits:
        return None
    return max(fits, key=lambda fit: sum(not _is_param(s) for s in _segments(fit[0])))


@dataclass
class Route(Generic[H]):
    """A handler bound to a method and a template."""

    method: str
    template: str
    handler: H
    auth: bool = True


class RouteTable(Generic[H]):
    """Routes by method and template."""

    def __init__(self) -> None:
        self._routes: dict[tuple[str, str], Route[H]] = {}

    def add(self, method: str, template: str, handler: H, *, auth: bool = True) -> None:
        """Register ``handler`` for ``method template``."""
        self._routes[(method, template)] = Route(method, template, handler, auth)

    def find(self, method: str, path: str) -> tuple[Route[H], dict[str, str]] | None:
        """The route serving ``method path`` with its parameters."""
        templates = [t for (m, t) in self._routes if m == method]
        fit = best_template(templates, path)
        if fit is None:
            return None
        return self._routes[(method, fit[0])], fit[1]
