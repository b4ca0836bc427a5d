"""A tournament's messages say what the core says: each standings line's place and
figures are the core's standings, each round's tables are its seating, the podium holds
every player of places 1 to 3; and each message fits Discord's 2,000 characters however
many play, saying how many it leaves out."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from fractions import Fraction

import pytest

from bot.channel.tournament_texts import (
    MESSAGE_LIMIT,
    podium_content,
    round_content,
    signup_actions,
    signup_content,
    standings_content,
    standings_for,
    standings_table,
)
from bot.i18n import using
from bot.tournament import Entrant, TournamentSettings, TournamentStanding, next_round, standings
from bot.tournament.records import EntrantRecord, TableRecord, Tournament, TournamentRecord

from .helpers import play

LINE = re.compile(
    r"(?:🥇|🥈|🥉)? ?(\d+)\. <@(\d+)> — \*\*(.+?) points?\*\* · opponents (\S+) · score (\S+)"
)


def tournament(count: int, rounds_played: int, seed: int = 3, **settings: object) -> Tournament:
    """``count`` players, ``rounds_played`` rounds seated and played (the last one's first
    table still playing); player 1 withdrew after round 1."""
    chosen = TournamentSettings("Cup", **settings)  # type: ignore[arg-type]
    rng = random.Random(seed)
    entrants = [
        Entrant(p, 1 if p == 1 and rounds_played > 1 else None) for p in range(1, count + 1)
    ]
    seated, results = [], []
    for number in range(1, rounds_played + 1):
        playing = [replace(e, withdrawn_after=None) if number == 1 else e for e in entrants]
        round_ = next_round(chosen, playing, seated, results, seed)
        seated.append(round_)
        played = play(round_, rng, -10, 120)
        results += played[1:] if number == rounds_played else played
    record = TournamentRecord(
        7, 1, 2, 3, chosen, seed, "running", rounds_played, 1, 1_000.0, message_id=4
    )
    by_table = {(r.round, r.table): r for r in results}
    tables = tuple(
        TableRecord(r.number, t.number, t.players, t.computers, 900 + t.number, t.number,
                    by_table.get((r.number, t.number)))
        for r in seated
        for t in r.tables
    )  # fmt: skip
    people = tuple(EntrantRecord(e.player, 1.0, False, e.withdrawn_after) for e in entrants)
    return Tournament(record, people, tuple(seated), {}, tables)


def lines_of(text: str) -> list[tuple[int, int, str, str, str]]:
    return [
        (int(m[1]), int(m[2]), m[3], m[4], m[5]) for m in map(LINE.match, text.splitlines()) if m
    ]


def written(value: Fraction) -> str:
    whole, part = divmod(value, 1)
    return str(whole) + ({Fraction(1, 2): "½"}[part] if part else "")


def test_each_standings_line_is_the_cores_standing() -> None:
    t = tournament(13, 2)
    found = standings(t.settings, t.players, t.seated, t.results)
    with using("en-US"):
        text = standings_content(t, found)
    shown = lines_of(text)
    assert len(shown) == 13
    assert shown == [
        (s.place, s.player, written(s.points), written(s.opponents), str(s.score).replace("-", "−"))
        for s in found
    ]
    assert "withdrew after round 1" in next(x for x in text.splitlines() if "<@1>" in x)
    assert "round 2 of 3 is on" in text.splitlines()[0]


@pytest.mark.parametrize("count", [256, 200])
def test_long_standings_fit_one_message_and_count_who_is_left_out(count: int) -> None:
    t = tournament(count, 3, table_size=4)
    found = standings(t.settings, t.players, t.seated, t.results)
    with using("en-US"):
        text = standings_content(t, found)
        mine = standings_for(t, found, found[-1].player)
    assert len(text) <= MESSAGE_LIMIT
    shown = lines_of(text)
    left = re.search(r"… and (\d+) more", text)
    assert left is not None and len(shown) + int(left[1]) == count
    assert [line[1] for line in shown] == [s.player for s in found[: len(shown)]]
    assert len(mine) <= MESSAGE_LIMIT  # the member who asks sees their own line last
    assert lines_of(mine)[-1][:2] == (found[-1].place, found[-1].player)


def test_a_round_lists_each_table_as_seated_and_fits() -> None:
    t = tournament(13, 1)
    with using("en-US"):
        text = round_content(t, 1)
    tables = re.findall(r"\*\*Table (\d+)\*\* <#(\d+)>: (.*)", text)
    assert [
        (int(n), int(thread), re.findall(r"<@(\d+)>", people)) for n, thread, people in tables
    ] == [(x.number, 900 + x.number, [str(p) for p in x.players]) for x in t.seated[0].tables]
    assert [len(x.players) for x in t.seated[0].tables] == [4, 3, 3, 3]
    big = tournament(256, 1, table_size=5)
    with using("en-US"):
        text = round_content(big, 1)
    listed = re.findall(r"\*\*Table (\d+)\*\*", text)
    left = re.search(r"… and (\d+) tables? more", text)
    assert len(text) <= MESSAGE_LIMIT and left is not None
    assert len(listed) + int(left[1]) == len(big.seated[0].tables) == 52


def test_the_podium_holds_every_player_of_places_one_to_three() -> None:
    t = tournament(9, 1)
    found = [
        TournamentStanding(p, place, Fraction(10 - place), Fraction(0), 0, (), games=1)
        for p, place in ((5, 1), (6, 1), (7, 3), (8, 4))
    ]
    with using("en-US"):
        text = podium_content(replace(t, record=replace(t.record, status="finished")), found)
    assert re.findall(r"(🥇|🥈|🥉) <@(\d+)>", text) == [("🥇", "5"), ("🥇", "6"), ("🥉", "7")]
    assert "<@8>" not in text


def test_sign_up_lists_fit_and_buttons_follow_the_state() -> None:
    t = tournament(256, 1)
    opening = replace(t, record=replace(t.record, status="signup", rounds=0))
    with using("en-US"):
        text = signup_content(opening, 0)
    listed = text.splitlines()[-1]
    assert listed.startswith("**Signed up: 256**")
    named = len(re.findall(r"<@\d+>", listed))
    more = re.search(r"and (\d+) more", text)
    assert len(text) <= MESSAGE_LIMIT and more is not None and named + int(more[1]) == 256
    assert signup_actions(opening, 0) == ("join", "leave", "start")
    timed = replace(
        opening,
        record=replace(
            opening.record, settings=replace(t.settings, deadline=5_000, check_in=3_600)
        ),
    )
    assert signup_actions(timed, 1_000) == ("join", "leave")
    assert signup_actions(timed, 1_400) == ("join", "leave", "checkin")
    assert signup_actions(t, 1_400) == ()


def test_the_image_shows_names_and_figures_with_the_viewer_framed() -> None:
    t = tournament(30, 2)
    found = standings(t.settings, t.players, t.seated, t.results)
    names = {s.player: f"Näme {s.player} 名前 🎲" for s in found}
    with using("en-US"):
        table = standings_table(t, found, names, viewer=found[-1].player)
    framed = [row for row in table.rows if row.you]
    assert len(table.rows) == 20 and [row.name for row in framed] == [names[found[-1].player]]
    assert any(row.detached for row in table.rows)  # the leaders, a gap, the viewer's lines
    assert "round 2 of 3" in table.subtitle and "30 players" in table.subtitle
