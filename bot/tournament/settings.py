"""A tournament's settings as one value, and the polite refusal of settings that cannot be.

Everything an organiser chooses at creation: the game, how many rounds, the table size
and the smallest table allowed, the turn time, the points per place, whether repeat
opponents are avoided and short tables filled with Hard computers, and how it starts (a
sign-up deadline, with an optional check-in window before it, or by hand).

Refusals carry a catalogue key and its values (:class:`SettingsRefusal`); the Discord layer
words them in the member's language. The turn time arrives parsed and bounded by the
service's duration reader, so here it only has to be a positive number of seconds.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Final

from bot.rules import VARIANTS

MINUTE, HOUR, DAY = 60, 3600, 86400
MOST_PLAYERS: Final = 256
"""Players one tournament takes."""
TABLE_SIZES = range(2, 6)  # players per table: a Qwixx table seats 2 to 5
MAX_ROUNDS = 10
MAX_NAME = 60  # characters of a tournament's name
MAX_PLACE_POINTS = 100  # the most points one place may give
MAX_SIGN_UP = 30 * DAY  # how far ahead a sign-up deadline may be
CHECK_IN = (5 * MINUTE, 2 * DAY)  # the shortest and longest check-in window
POINTS_TEXT = 60  # characters of a custom points list, at most
SEPARATORS = re.compile(r"[\s,;/]+")


class SettingsRefusal(ValueError):
    """Settings that cannot be: ``key`` and ``values`` fill a catalogue message."""

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(key)
        self.key = key
        self.values = values

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SettingsRefusal) and (self.key, self.values) == (
            other.key,
            other.values,
        )

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"SettingsRefusal({self.key!r}, {self.values!r})"


def default_points(size: int) -> tuple[int, ...]:
    """Points per place at a table of ``size``: two for every player beaten, so
    ``(6, 4, 2, 0)`` at four (Board Game Arena's), ``(8, 6, 4, 2, 0)`` at five,
    ``(4, 2, 0)`` at three, ``(2, 0)`` at two.

    With ties shared (:mod:`.points`) a tie is worth one point per player tied with, so
    every share is a whole number; and each place is worth the same against the same
    number of players, whatever the table size."""
    return tuple(2 * (size - place) for place in range(1, size + 1))


@dataclass(frozen=True)
class TournamentSettings:
    """What an organiser chose. ``smallest_table`` None: one fewer than ``table_size``
    (two at least); ``points`` empty: :func:`default_points`; ``deadline`` (unix
    seconds) None: the organiser starts the tournament; ``check_in`` (seconds): the
    check-in window that closes at the deadline, or None for none."""

    name: str
    variant: str = "classic"
    rounds: int = 3
    table_size: int = 4
    smallest_table: int | None = None
    turn_time: int = DAY
    points: tuple[int, ...] = ()
    avoid_repeats: bool = True
    computers: bool = False
    deadline: int | None = None
    check_in: int | None = None

    @property
    def smallest(self) -> int:
        """The fewest players at a table without computers."""
        if self.smallest_table is not None:
            return self.smallest_table
        return max(2, self.table_size - 1)

    @property
    def place_points(self) -> tuple[int, ...]:
        """Points for first, second, ... place at a full table."""
        return self.points or default_points(self.table_size)

    @property
    def check_in_opens(self) -> int | None:
        """When the check-in window opens (unix seconds), if there is one."""
        if self.deadline is None or self.check_in is None:
            return None
        return self.deadline - self.check_in

    @property
    def fewest_players(self) -> int:
        """The fewest sign-ups that make a first round: two people with computers,
        else one smallest table."""
        return 2 if self.computers else self.smallest


def table_sizes(variant: str) -> range:
    """The table sizes ``variant`` can be played at in a tournament."""
    cls = VARIANTS[variant]
    return range(
        max(TABLE_SIZES.start, cls.min_players), min(TABLE_SIZES.stop - 1, cls.max_players) + 1
    )


def validate(settings: TournamentSettings, now: int) -> None:
    """Raise a :class:`SettingsRefusal` naming the first setting that cannot be (``now``: unix
    seconds, for the deadline)."""
    name = settings.name.strip()
    if not name or len(name) > MAX_NAME or "\n" in name:
        raise SettingsRefusal("tournament.error.name", most=MAX_NAME)
    if settings.variant not in VARIANTS:
        raise SettingsRefusal(
            "tournament.error.variant", variant=settings.variant, known=", ".join(VARIANTS)
        )
    if not 1 <= settings.rounds <= MAX_ROUNDS:
        raise SettingsRefusal("tournament.error.rounds", most=MAX_ROUNDS)
    sizes = table_sizes(settings.variant)
    if settings.table_size not in sizes:
        raise SettingsRefusal(
            "tournament.error.table_size",
            variant=settings.variant,
            least=sizes.start,
            most=sizes.stop - 1,
        )
    if not 2 <= settings.smallest <= settings.table_size:
        raise SettingsRefusal("tournament.error.smallest_table", most=settings.table_size)
    if settings.points:
        check_points(settings.points, settings.table_size)
    if settings.turn_time <= 0:
        raise SettingsRefusal("tournament.error.turn_time")
    check_start(settings, now)


def check_points(points: tuple[int, ...], size: int) -> None:
    """A custom points list: one whole number per place, 0 to :data:`MAX_PLACE_POINTS`,
    never rising from one place to the next, first above last."""
    if len(points) != size:
        raise SettingsRefusal("tournament.error.points_count", size=size)
    if any(not 0 <= p <= MAX_PLACE_POINTS for p in points):
        raise SettingsRefusal("tournament.error.points_range", most=MAX_PLACE_POINTS)
    if any(a < b for a, b in itertools.pairwise(points)):
        raise SettingsRefusal("tournament.error.points_order")
    if points[0] == points[-1]:
        raise SettingsRefusal("tournament.error.points_flat")


def check_start(settings: TournamentSettings, now: int) -> None:
    """The deadline ahead, within :data:`MAX_SIGN_UP`; a check-in window only with a
    deadline, and as long as :data:`CHECK_IN` allows."""
    if settings.deadline is not None:
        if settings.deadline <= now:
            raise SettingsRefusal("tournament.error.deadline_past")
        if settings.deadline - now > MAX_SIGN_UP:
            raise SettingsRefusal("tournament.error.deadline_far", days=MAX_SIGN_UP // DAY)
    if settings.check_in is not None:
        if settings.deadline is None:
            raise SettingsRefusal("tournament.error.check_in_manual")
        if not CHECK_IN[0] <= settings.check_in <= CHECK_IN[1]:
            raise SettingsRefusal(
                "tournament.error.check_in_range",
                least=CHECK_IN[0] // MINUTE,
                most=CHECK_IN[1] // HOUR,
            )


def parse_points(text: str, size: int) -> tuple[int, ...]:
    """``"6, 4, 2, 0"``, ``"+6 +5 +3 +1"`` → the points per place at a table of ``size``,
    checked (:func:`check_points`). Strict like the turn time's reader: ASCII digits
    only, whole numbers, separated by commas, spaces, semicolons or slashes."""
    cleaned = text.strip()
    parts = [p for p in SEPARATORS.split(cleaned) if p]
    if (
        len(cleaned) > POINTS_TEXT
        or not parts
        or not all(p.removeprefix("+").isascii() and p.removeprefix("+").isdigit() for p in parts)
    ):
        raise SettingsRefusal("tournament.error.points_read", size=size)
    points = tuple(int(p.removeprefix("+")) for p in parts)
    check_points(points, size)
    return points


def check_sign_ups(settings: TournamentSettings, count: int, most: int) -> None:
    """Refused if ``count`` sign-ups cannot make a first round, or exceed ``most``
    (:data:`MOST_PLAYERS`)."""
    if count < settings.fewest_players:
        raise SettingsRefusal(
            "tournament.error.too_few", count=count, least=settings.fewest_players
        )
    if count > most:
        raise SettingsRefusal("tournament.error.too_many", most=most)
