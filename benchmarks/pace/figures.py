"""The figures of a row (one variant, one number of people, one behaviour) from its
games' logs, and the table that prints them."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from .table import GameLog

DAY_BUDGETS = {"classic": 3.0, "longo": 4.0, "onboard": 4.0, "qwinto": 4.0}
"""The median days a 3-person game may take (other sizes have no budget)."""
BUDGET_PEOPLE = 3
TAPS_BUDGET = 1.2
"""Taps per decision taken from a notification."""
HOUR = 3600.0


def percentile(values: Sequence[float], share: float) -> float:
    """Linear interpolation between the nearest ranks (``share`` 0.5: the median)."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    place = share * (len(ordered) - 1)
    low = math.floor(place)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (place - low)


def ratio(part: float, whole: float) -> float:
    return part / whole if whole else math.nan


@dataclass
class Figures:
    """A row's figures (per game, per person, per decision as named)."""

    variant: str
    people: int
    behaviour: str
    games: int
    finished: int
    days: list[float]
    waits: float
    """Times per game the game waited for someone to come back."""
    phases_waited: float
    """Decision phases per game in which it waited at least once."""
    by_hand: float
    """Decisions each person took by hand, per game."""
    taps: float
    """Per decision."""
    taps_notified: float
    """Per decision taken in a look a notification brought (nan: none was)."""
    notified_share: float
    """The share of decisions taken in such looks."""
    messages: float
    """New messages each person could see, per day of game."""
    mentions: float
    """Notifications each person got, per day of game."""
    expired: float
    """Decisions per game that ran out (the bot decided)."""
    notified_counts: tuple[int, int] = (0, 0)
    """Decisions taken from a notification, and their taps."""
    tap_kinds: dict[str, float] = field(default_factory=dict)
    """Taps of each kind per decision taken from a notification."""
    spent: dict[tuple[str, str], tuple[float, float]] = field(default_factory=dict)
    """(phase, who) -> waits per game and hours per game."""
    night_hours: float = 0.0
    """Hours per game of waits while everyone waited on slept."""
    deadline_hours: float = 0.0
    """Hours per game of waits that only a deadline ended."""

    @property
    def median(self) -> float:
        return percentile(self.days, 0.5)

    @property
    def p90(self) -> float:
        return percentile(self.days, 0.9)

    @property
    def day_budget(self) -> float | None:
        return DAY_BUDGETS.get(self.variant) if self.people == BUDGET_PEOPLE else None

    def misses(self) -> list[str]:
        """The budgets the row misses, said in words."""
        missed = []
        budget = self.day_budget
        if budget is not None and self.median > budget:
            missed.append(f"median {self.median:.1f} days against {budget:g}")
        if self.taps_notified > TAPS_BUDGET:
            missed.append(
                f"{self.taps_notified:.2f} taps per decision taken from a notification "
                f"against {TAPS_BUDGET:g}"
            )
        return missed


def figures(logs: Sequence[GameLog], people: int) -> Figures:
    """The figures of the games in ``logs`` (one variant and behaviour, ``people`` each)."""
    games = len(logs)
    decided = [d for log in logs for d in log.decided]
    notified = [d for d in decided if d.notified]
    person_days = sum(log.days * len(log.members) for log in logs)
    waits = [w for log in logs for w in log.waits]
    spent: dict[tuple[str, str], list[float]] = defaultdict(list)
    for wait in waits:
        spent[(wait.phase, wait.who)].append(wait.seconds)
    kinds = Counter(kind for d in notified for kind in d.taps)
    return Figures(
        logs[0].variant,
        people,
        logs[0].behaviour,
        games,
        sum(log.status == "finished" for log in logs),
        [log.days for log in logs],
        len(waits) / games,
        sum(len({(w.turn, w.phase) for w in log.waits}) for log in logs) / games,
        len(decided) / (games * people),
        ratio(sum(len(d.taps) for d in decided), len(decided)),
        ratio(sum(len(d.taps) for d in notified), len(notified)),
        ratio(len(notified), len(decided)),
        ratio(sum(sum(log.messages.values()) for log in logs), person_days),
        ratio(sum(sum(log.notifications.values()) for log in logs), person_days),
        sum(sum(log.expired.values()) for log in logs) / games,
        (len(notified), sum(len(d.taps) for d in notified)),
        {kind: count / len(notified) for kind, count in sorted(kinds.items())},
        {
            key: (len(seconds) / games, sum(seconds) / HOUR / games)
            for key, seconds in sorted(spent.items())
        },
        sum(w.night for w in waits) / HOUR / games,
        sum(w.seconds for w in waits if w.ended_by == "deadline") / HOUR / games,
    )


COLUMNS = (
    ("median d", "{:.1f}", "median"),
    ("p90 d", "{:.1f}", "p90"),
    ("waits", "{:.1f}", "waits"),
    ("phases", "{:.1f}", "phases_waited"),
    ("by hand", "{:.1f}", "by_hand"),
    ("taps/dec", "{:.2f}", "taps"),
    ("notified", "{:.2f}", "taps_notified"),
    ("msgs/day", "{:.1f}", "messages"),
    ("ment/day", "{:.1f}", "mentions"),
    ("expired", "{:.1f}", "expired"),
)
"""The table's columns: heading, format, attribute of :class:`Figures`."""
LEGEND = (
    "median d / p90 d: days to finish; waits: times per game the game waited for someone "
    "to come back; phases: decision phases per game that waited; by hand: decisions each "
    "person took by hand; taps/dec: taps per decision; notified: taps per decision taken "
    "in a look a notification brought; msgs/day, ment/day: new messages and notifications "
    "each person got per day; expired: decisions per game that ran out"
)


def cell(value: float, form: str) -> str:
    return "-" if math.isnan(value) else form.format(value)


def table(rows: Sequence[Sequence[Figures]]) -> str:
    """Each row's behaviours one line each, then their ratio to the first (new/today),
    then the budgets of the row."""
    head = f"{'variant':<8} {'people':>6} {'games':>5}  {'':<9}" + "".join(
        f" {name:>9}" for name, _, _ in COLUMNS
    )
    lines = [head]
    for row in rows:
        first = row[0]
        for index, found in enumerate(row):
            left = (
                f"{found.variant:<8} {found.people:>6} {found.games:>5}" if index == 0 else " " * 21
            )
            values = "".join(f" {cell(getattr(found, attr), form):>9}" for _, form, attr in COLUMNS)
            lines.append(f"{left}  {found.behaviour:<9}{values}")
        for other in row[1:]:
            values = "".join(
                f" {cell(ratio(getattr(other, attr), getattr(first, attr)), '{:.2f}'):>9}"
                for _, _, attr in COLUMNS
            )
            lines.append(f"{'':21}  {other.behaviour + '/' + first.behaviour:<9}{values}")
        budget = first.day_budget
        days = f"<= {budget:g}" if budget is not None else ""
        budgets = [days, "", "", "", "", "", f"<= {TAPS_BUDGET:g}", "", "", ""]
        lines.append(f"{'':21}  {'budget':<9}" + "".join(f" {b:>9}" for b in budgets))
    return "\n".join(lines)


def spent(found: Figures) -> list[str]:
    """Where a row's time goes, for the budgets it misses: its waits by phase and by
    who, the hours everyone waited on slept and those only a deadline ended (the days);
    its taps by kind (the taps)."""
    lines = []
    budget = found.day_budget
    if budget is not None and found.median > budget:
        total = sum(hours for _, hours in found.spent.values())
        lines.append(f"  {total:.0f} h of waits a game:")
        for (phase, who), (count, hours) in sorted(found.spent.items(), key=lambda kv: -kv[1][1]):
            lines.append(f"    {phase:<8} waiting on {who:<9} {count:5.1f} waits {hours:7.1f} h")
        lines.append(
            f"    of those, {found.night_hours:.1f} h with everyone waited on asleep, "
            f"{found.deadline_hours:.1f} h in waits only a deadline ended "
            f"({found.expired:.1f} decisions ran out a game)"
        )
    if found.taps_notified > TAPS_BUDGET:
        kinds = ", ".join(f"{kind} {share:.2f}" for kind, share in found.tap_kinds.items())
        lines.append(
            f"  taps per decision taken from a notification ({found.notified_share:.0%} of "
            f"decisions): {kinds}"
        )
    return lines


def misses(row: Sequence[Figures]) -> str:
    """Each behaviour of a row that misses a budget, what it misses and where its time
    goes (a behaviour whose account is the one before's says so)."""
    found, before = [], None
    for figure in row:
        if not figure.misses():
            continue
        name = f"{figure.variant}, {figure.people} people, {figure.behaviour}"
        lines = [*figure.misses(), *spent(figure)]
        if before is not None and lines == before[1]:
            found.append(f"{name}: the same as {before[0]}.")
        else:
            found.append(
                "\n".join([f"{name}: " + "; ".join(figure.misses()) + ".", *spent(figure)])
            )
        before = (figure.behaviour, lines)
    return "\n".join(found)
