"""What a member chooses once so that games ask them less and reach them where they are.

A member's preferences are their defaults everywhere; a running game keeps each person's
preferences with its seats (:class:`~bot.records.seats.Seats`), so that every decision is
made on the one record a change reads, in any process. A choice made for one game only
stays with that game; the defaults are copied into the member's running games when they
change (:mod:`bot.service.members`).

Times are unix seconds; quiet hours are minutes after midnight in the member's own time
zone (an IANA name), and may run over midnight (23:00-07:00).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

Others = Literal["ask", "safe", "computer"]
Timeout = Literal["pass", "computer"]
Fallback = Literal["ask", "pass"]
Rethrow = Literal["ask", "keep", "reroll", "unless_writable"]
OTHERS: tuple[Others, ...] = ("ask", "safe", "computer")
TIMEOUTS: tuple[Timeout, ...] = ("pass", "computer")
FALLBACKS: tuple[Fallback, ...] = ("ask", "pass")
RETHROWS: tuple[Rethrow, ...] = ("ask", "keep", "reroll", "unless_writable")
DAY_MINUTES = 24 * 60
CLOCK = re.compile(r"^([01]?[0-9]|2[0-3])(?::([0-5][0-9]))?$")
GAME_ONLY = ("others", "timeout", "fallback")
"""The choices a member may make for one game apart from their defaults."""
CHOSEN = (
    "others",
    "timeout",
    "fallback",
    "dm",
    "zone",
    "away_until",
    "nudge",
    "rethrow",
    "dm_blocked",
    "dm_blocked_told",
)
"""The preferences stored by name when they differ from the defaults (``quiet`` and
``own`` are stored as lists)."""


class PrefsError(ValueError):
    """A preference that cannot be: ``key`` names the catalogue's refusal, ``values`` fill it."""

    def __init__(self, key: str, **values: Any) -> None:
        super().__init__(key)
        self.key = key
        self.values = values


@dataclass(frozen=True)
class Prefs:
    """One member's preferences (the defaults: as the bot behaved before members chose).

    ``others``: a decision on someone else's turn (the white sum, Qwinto's throw) — ask
    me; ``safe``, cross only what skips nothing, else pass (the Qwixx family; Qwinto,
    which skips nothing, asks); ``computer``, the Hard computer player chooses.
    ``timeout``: a decision whose time runs out — ``pass`` (no cross) or the Hard
    computer's choice. ``fallback``: a choice made ahead that the rules no longer allow
    when its moment comes — ``ask`` me, or ``pass``.
    ``dm``: a direct message when a game waits for me; ``quiet``: hours without mentions
    or direct messages, ``(from, to)`` in minutes after local midnight in ``zone``;
    ``away_until``: until then no game waits for me (my standing choice, else the Hard
    computer, decides). ``nudge``: remind me soon and again (after 1, 2, 4, 8 and
    12 hours of a long decision open), rather than at half time. ``rethrow``: the
    re-throw rule a Qwinto throw view offers first (the member's last choice; ``ask``:
    none, they are asked after the throw). ``dm_blocked``: Discord refused the bot's
    direct message (the member's DMs are closed): mentions instead, until they turn
    ``dm`` on again; ``dm_blocked_told``: they were told so, once."""

    others: Others = "ask"
    timeout: Timeout = "pass"
    fallback: Fallback = "ask"
    dm: bool = False
    quiet: tuple[int, int] | None = None
    zone: str = "UTC"
    away_until: float | None = None
    nudge: bool = False
    rethrow: Rethrow = "ask"
    dm_blocked: bool = False
    dm_blocked_told: bool = False
    own: frozenset[str] = field(default=frozenset(), compare=False)
    """In a game: the choices made for this game only (the defaults leave them alone)."""

    # --- as stored ------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Only what differs from the defaults (most people's is ``{}``)."""
        default = DEFAULT
        data: dict[str, Any] = {}
        for name in CHOSEN:
            value = getattr(self, name)
            if value != getattr(default, name):
                data[name] = value
        if self.quiet is not None:
            data["quiet"] = list(self.quiet)
        if self.own:
            data["own"] = sorted(self.own)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Prefs:
        """Read leniently: a value the bot does not know (a newer or damaged record) is
        the default, never a refusal of the game."""
        quiet = data.get("quiet")
        return cls(
            _one_of(data.get("others"), OTHERS),
            _one_of(data.get("timeout"), TIMEOUTS),
            _one_of(data.get("fallback"), FALLBACKS),
            bool(data.get("dm", False)),
            (int(quiet[0]) % DAY_MINUTES, int(quiet[1]) % DAY_MINUTES) if quiet else None,
            str(data.get("zone", "UTC")),
            float(data["away_until"]) if data.get("away_until") is not None else None,
            bool(data.get("nudge", False)),
            _one_of(data.get("rethrow"), RETHROWS),
            bool(data.get("dm_blocked", False)),
            bool(data.get("dm_blocked_told", False)),
            frozenset(n for n in data.get("own", ()) if n in GAME_ONLY),
        )

    # --- in a game ----------------------------------------------------------
    def with_defaults(self, defaults: Prefs) -> Prefs:
        """These preferences in a game once the member's ``defaults`` changed: the choices
        made for this game stay, everything else follows the defaults."""
        kept = {name: getattr(self, name) for name in self.own}
        return replace(defaults, own=self.own, **kept)

    def for_this_game(self, **choices: Any) -> Prefs:
        """``choices`` made for this game only (names of :data:`GAME_ONLY`)."""
        unknown = set(choices) - set(GAME_ONLY)
        if unknown:
            raise PrefsError("prefs.not_for_one_game", name=sorted(unknown)[0])
        return replace(self, own=self.own | set(choices), **checked(choices))

    def answers_others(self, variant: str) -> Others:
        """The standing choice that decides for this member on someone else's turn in a
        game of ``variant`` (``safe`` means nothing in Qwinto, which skips nothing)."""
        return "ask" if self.others == "safe" and variant == "qwinto" else self.others

    @property
    def by_dm(self) -> bool:
        """Whether a game reaches this member by direct message rather than a mention."""
        return self.dm and not self.dm_blocked

    # --- in time ------------------------------------------------------------
    def away(self, now: float) -> bool:
        return self.away_until is not None and now < self.away_until

    def quiet_now(self, now: float) -> bool:
        return self.quiet_end(now) is not None

    def quiet_end(self, now: float) -> float | None:
        """When the quiet hours ``now`` lies in end (None: ``now`` is not in them)."""
        if self.quiet is None:
            return None
        start, end = self.quiet
        if start == end:
            return None
        local = datetime.fromtimestamp(now, zone_of(self.zone))
        minute = local.hour * 60 + local.minute
        inside = start <= minute < end if start < end else minute >= start or minute < end
        if not inside:
            return None
        midnight = local.replace(hour=0, minute=0, second=0, microsecond=0)
        day = midnight if minute < end else midnight + timedelta(days=1)
        ends = wall_time(day, end)
        return ends.timestamp()

    def next_quiet_start(self, now: float) -> float | None:
        """When the member's next quiet hours begin after ``now`` (None: they have none,
        or are in them now)."""
        if self.quiet is None or self.quiet[0] == self.quiet[1] or self.quiet_now(now):
            return None
        local = datetime.fromtimestamp(now, zone_of(self.zone))
        midnight = local.replace(hour=0, minute=0, second=0, microsecond=0)
        for days in (0, 1):
            start = wall_time(midnight + timedelta(days=days), self.quiet[0])
            if start.timestamp() > now:
                return start.timestamp()
        return None  # pragma: no cover -- a day always holds the next start


DEFAULT = Prefs()


def wall_time(day: datetime, minutes: int) -> datetime:
    """``minutes`` after the midnight of ``day`` on the local clock (a wall time a change
    of clocks skips is taken as the one after it)."""
    wall = datetime(day.year, day.month, day.day, minutes // 60, minutes % 60, tzinfo=day.tzinfo)
    return wall.astimezone(UTC).astimezone(day.tzinfo)


def zone_of(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")  # a record's zone the system no longer knows: UTC


def _one_of(value: Any, allowed: tuple[str, ...]) -> Any:
    return value if value in allowed else allowed[0]


def checked(choices: Mapping[str, Any]) -> dict[str, Any]:
    """``choices`` of :data:`GAME_ONLY` and the rest, each refused by name if it cannot be."""
    allowed: dict[str, tuple[Any, ...]] = {
        "others": OTHERS,
        "timeout": TIMEOUTS,
        "fallback": FALLBACKS,
        "rethrow": RETHROWS,
        "dm": (True, False),
        "nudge": (True, False),
    }
    for name, value in choices.items():
        if name in allowed and value not in allowed[name]:
            raise PrefsError("prefs.unknown_choice", name=name, value=str(value)[:20])
    return dict(choices)


def parse_clock(text: str) -> int:
    """``"23:30"`` or ``"7"`` → minutes after midnight; refused by name otherwise."""
    found = CLOCK.match(text.strip())
    if not found:
        raise PrefsError("prefs.bad_clock", text=text.strip()[:20])
    return int(found.group(1)) * 60 + int(found.group(2) or 0)


def parse_zone(name: str) -> str:
    """An IANA time zone's name as written (``europe/berlin`` → ``Europe/Berlin``),
    refused by name otherwise."""
    wanted = name.strip()
    found = _zones().get(wanted.lower())
    if found is None:
        raise PrefsError("prefs.bad_zone", zone=wanted[:40])
    return found


def zones_like(text: str, limit: int) -> list[str]:
    """At most ``limit`` time zones whose names hold ``text`` (any case), those that
    begin with it first: what a member typing a zone is offered."""
    wanted = text.strip().lower().replace(" ", "_")
    found = sorted(
        (not lower.startswith(wanted), "/" not in name, name)
        for lower, name in _zones().items()
        if wanted in lower
    )
    return [name for _, _, name in found[:limit]]


@cache
def _zones() -> dict[str, str]:
    """Every time zone the system (or tzdata) knows, by its name in lower case."""
    return {z.lower(): z for z in available_timezones()}


def parse_day(text: str, zone: str, now: float) -> float:
    """``"2026-12-24"`` → the end of that day in ``zone`` (away until then, the day
    included); at most a year ahead, never in the past."""
    try:
        day = datetime.strptime(text.strip(), "%Y-%m-%d")
    except ValueError:
        raise PrefsError("prefs.bad_day", text=text.strip()[:20]) from None
    end = datetime(day.year, day.month, day.day, tzinfo=zone_of(zone)) + timedelta(days=1)
    until = end.timestamp()
    if until <= now:
        raise PrefsError("prefs.day_past", text=text.strip()[:20])
    if until > now + 366 * 86400:
        raise PrefsError("prefs.day_far", text=text.strip()[:20])
    return until
