"""What a round's message (in English) says its seating orders by, checked against the
facts the test recounts: the ratings as the leaderboard shows them, the places of the
standings recounted from the games, who has met whom at a table. The message's own
sentence decides what is checked, so a sentence that claims more than the seating
holds fails."""

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
IN_ORDER = (
    "Seated by the standings: the leaders together at table 1, the next at table 2, and so on."
)
APART = (
    "Seated by the standings: the leaders together at table 1, the next at table 2, and so "
    "on; a player sits at a later table only where that keeps opponents of earlier rounds apart."
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
    """Round 1's message says it seats by the rating the leaderboard shows (``shown``:
    each rated player's number read; the unrated have none), best first, the unrated
    last, cut into tables in that order: so reading the tables in order, then who sits
    out, no one comes after someone rated lower."""
    assert BY_RATING.search(text), text
    order = [p for table in tables_told(text) for p in table] + sitting_out(text)
    told = [(p, shown.get(p)) for p in order]
    keys = [(rating is None, -(rating or 0)) for _, rating in told]
    assert keys == sorted(keys), f"seated out of the leaderboard's order: {told}"


def check_later_round(text: str, places: Mapping[int, int], met: Mapping[int, Set[int]]) -> None:
    """A later round's message says it seats by the standings (``places``: each player's
    place recounted), the leaders together at table 1 and so on: in order exactly, or,
    when opponents are kept apart (``met``: whom each has sat with), with someone at a
    later table than a player placed below them only where swapping the two would seat
    more pairs who have met."""
    tables = tables_told(text)
    if APART in text:
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
