"""What a round's message (in English) says its seating orders by, checked against the
facts the test recounts: the ratings as the leaderboard shows them, the places of the
standings recounted from the games, who has met whom at a table, the fewest repeats any
seating has (where the test can count them), and whether the seating search stopped at
its work limit. The message's own sentence decides what is checked, so a sentence that
claims more than the seating holds fails."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence, Set

TABLE = re.compile(r"^\*\*Table (\d+)\*\* \S+: (.*)$", re.MULTILINE)
SITTING_OUT = re.compile(r"^Sitting out \(.*?\): (.*)$", re.MULTILINE)
MENTION = re.compile(r"<@(\d+)>")
BY_RATING = re.compile(
    r"Seated by \S.* rating on this server as the leaderboard shows it, best first, those "
    r"without one yet last: the leaders together at table 1, the next at table 2, and so on\."
)
AT_RANDOM = re.compile(
    r"Seated at random: nobody in this round has a \S.* rating on this server yet\."
)
IN_ORDER = (
    "Seated by the standings: the leaders together at table 1, the next at table 2, and so on."
)
APART = (
    "Seated by the standings: the leaders together at table 1, the next at table 2, and so "
    "on; a player sits at a later table only where that keeps opponents of earlier rounds apart."
)
APART_LIMITED = (
    "Seated by the standings: the leaders toward table 1, with players moved to later tables "
    "to keep opponents of earlier rounds apart. The seating search stopped at its limit, so "
    "some may sit at a later table than they need to."
)
NO_REPEATS = "Nobody meets an opponent of an earlier round again."
REPEATS = re.compile(
    r"^(\d+) pairs? at a table ha(?:s|ve) met before: (no seating of these players avoids it|"
    r"the fewest the search found; a seating with fewer may exist)\.$",
    re.MULTILINE,
)


def tables_told(text: str) -> list[list[int]]:
    """Each table's people as the message lists them, table 1 first."""
    found = [
        (int(n), [int(p) for p in MENTION.findall(people)]) for n, people in TABLE.findall(text)
    ]
    assert [n for n, _ in found] == list(range(1, len(found) + 1)), text
    return [people for _, people in found]


def sitting_out(text: str) -> list[int]:
    line = SITTING_OUT.search(text)
    return [int(p) for p in MENTION.findall(line[1])] if line else []


def check_round_one(text: str, shown: Mapping[int, int]) -> None:
    """Round 1's message says it seats at random, and then nobody in the round has a
    rating on the leaderboard (``shown``: each rated player's number read; the unrated
    have none); or it says it seats by that rating, and then someone has one, best
    first, the unrated last, cut into tables in that order: so reading the tables in
    order, then who sits out, no one comes after someone rated lower."""
    order = [p for table in tables_told(text) for p in table] + sitting_out(text)
    told = [(p, shown.get(p)) for p in order]
    if AT_RANDOM.search(text):
        assert all(rating is None for _, rating in told), f"seated at random, but rated: {told}"
        return
    assert BY_RATING.search(text), text
    assert any(rating is not None for _, rating in told), f"by rating, but none has one: {told}"
    keys = [(rating is None, -(rating or 0)) for _, rating in told]
    assert keys == sorted(keys), f"seated out of the leaderboard's order: {told}"


def check_later_round(
    text: str,
    places: Mapping[int, int],
    met: Mapping[int, Set[int]],
    fewest: int | None = None,
    stopped: bool = False,
) -> None:
    """A later round's message says it seats by the standings (``places``: each player's
    place recounted), the leaders together at table 1 and so on: in order exactly, or,
    when opponents are kept apart (``met``: whom each has sat with), with someone at a
    later table than a player placed below them only where swapping the two would seat
    more pairs who have met, and how many pairs at a table met before (``fewest``: the
    fewest any seating has, where the test counted it). When it says the seating search
    stopped at its limit, it did (``stopped``)."""
    tables = tables_told(text)
    if APART_LIMITED in text:
        assert stopped, f"the message says the search stopped at its limit; it did not: {text}"
        check_repeats(text, tables, met, fewest, stopped)
        return
    if APART in text:
        check_repeats(text, tables, met, fewest, stopped)
        for i, lower in enumerate(tables):
            for j, upper in enumerate(tables[:i]):
                for a in lower:
                    for b in (b for b in upper if places[b] > places[a]):
                        now = again(a, lower, met) + again(b, upper, met)
                        swapped = again(a, without(upper, b), met) + again(
                            b, without(lower, a), met
                        )
                        assert swapped > now, (
                            f"{a} (place {places[a]}) sits at table {i + 1}, below {b} "
                            f"(place {places[b]}) at table {j + 1}, and swapping keeps as "
                            "many opponents apart"
                        )
        return
    assert IN_ORDER in text, text
    order = [p for table in tables for p in table]
    assert [places[p] for p in order] == sorted(places[p] for p in order), (
        f"seated out of the standings' order: {[(p, places[p]) for p in order]}"
    )


def check_repeats(
    text: str,
    tables: Sequence[Sequence[int]],
    met: Mapping[int, Set[int]],
    fewest: int | None,
    stopped: bool,
) -> None:
    """The line on pairs who met before: as many as sit together at the tables told;
    "no seating avoids it" only at the fewest any seating has (where counted), "the
    fewest the search found" only when the search stopped at its limit."""
    pairs = sum(again(p, table, met) for table in tables for p in table) // 2
    if NO_REPEATS in text:
        assert pairs == 0, f"nobody meets again, but {pairs} pairs do: {text}"
        return
    line = REPEATS.search(text)
    assert line, text
    assert int(line[1]) == pairs, f"{line[0]!r}, but {pairs} pairs at the tables told met before"
    if line[2].startswith("no seating"):
        assert fewest is None or pairs == fewest, f"{line[0]!r}, but a seating has {fewest}"
    else:
        assert stopped, f"{line[0]!r}, but the search did not stop at its limit"


def again(player: int, table: Sequence[int], met: Mapping[int, Set[int]]) -> int:
    """How many others at ``table`` ``player`` has met before."""
    return sum(1 for other in table if other != player and other in met.get(player, set()))


def without(table: Sequence[int], player: int) -> list[int]:
    return [p for p in table if p != player]


def met_at(tables: Sequence[Sequence[int]]) -> dict[int, set[int]]:
    """Whom each player sat at a table with, from each table's people."""
    met: dict[int, set[int]] = {}
    for table in tables:
        for player in table:
            met.setdefault(player, set()).update(p for p in table if p != player)
    return met
