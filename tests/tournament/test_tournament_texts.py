"""A tournament's messages say what the core says: each standings line's place and
figures are the core's standings, each round's tables are its seating, the podium holds
every player of places 1 to 3; and each message fits Discord's 2,000 characters (a
card's 4,000) however many play, saying how many it leaves out."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from fractions import Fraction

import pytest

from bot.channel.cards import CARD_TEXT
from bot.channel.tournament_texts import (
    MESSAGE_LIMIT,
    podium_card,
    round_card,
    signup_actions,
    signup_card,
    signup_content,
    standings_card,
    standings_content,
    standings_for,
    standings_table,
)
from bot.i18n import using
from bot.tournament import Entrant, TournamentSettings, TournamentStanding, next_round, standings
from bot.tournament.records import EntrantRecord, TableRecord, Tournament, TournamentRecord
from bot.tournament.seating import SEARCH_WORK

from .helpers import play

LINE = re.compile(
    r"(?:🥇|🥈|🥉)? ?(\d+)\. <@(\d+)> — \*\*(.+?) points?\*\* · opponents (\S+) · score (\S+)"
)


SNOWFLAKE = 1_234_567_890_123_456_789
"""A member's id as long as Discord's are (19 digits)."""


def tournament(
    count: int,
    rounds_played: int,
    seed: int = 3,
    first: int = 1,
    name: str = "Cup",
    work: int = SEARCH_WORK,
    **settings: object,
) -> Tournament:
    """``count`` players (their ids from ``first`` on), ``rounds_played`` rounds seated
    and played (the last one's first table still playing), each seating search given
    ``work``; the first player withdrew after round 1."""
    chosen = TournamentSettings(name, **settings)  # type: ignore[arg-type]
    rng = random.Random(seed)
    entrants = [
        Entrant(p, 1 if p == first and rounds_played > 1 else None)
        for p in range(first, first + count)
    ]
    seated, results = [], []
    for number in range(1, rounds_played + 1):
        playing = [replace(e, withdrawn_after=None) if number == 1 else e for e in entrants]
        round_ = next_round(chosen, playing, seated, results, seed, work=work)
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
    with using("en-US"):
        card = standings_card(t, found)
    carded = lines_of(card.text)  # a card holds more places, cut the same way
    left = re.search(r"… and (\d+) more", card.text)
    assert sum(map(len, card.blocks)) <= CARD_TEXT and len(carded) > len(shown)
    assert left is not None and len(carded) + int(left[1]) == count
    assert [line[1] for line in carded] == [s.player for s in found[: len(carded)]]


def test_a_card_says_what_the_text_says_in_blocks() -> None:
    """The sign-up message and the standings read the same in either form where both
    hold everything: a card's blocks are the text's lines, split where it puts a rule."""
    t = tournament(13, 2)
    found = standings(t.settings, t.players, t.seated, t.results)
    opening = replace(t, record=replace(t.record, status="signup", rounds=0))
    with using("en-US"):
        signup, standing = signup_card(opening, 0), standings_card(t, found)
        assert signup.text == signup_content(opening, 0)
        assert standing.text == standings_content(t, found)
    assert [len(b.splitlines()) for b in signup.blocks] == [1, 3, 2]  # title, rules, who
    assert [len(b.splitlines()) for b in standing.blocks] == [1, 13, 1]
    assert standing.images_after == 0, "the image right under the title"


def test_a_round_lists_each_table_as_seated_and_fits() -> None:
    t = tournament(13, 1)
    with using("en-US"):
        card = round_card(t, 1)
    text = card.text
    assert card.blocks[1].splitlines() == re.findall(r"\*\*Table \d+\*\*.*", text)  # apart
    tables = re.findall(r"\*\*Table (\d+)\*\* <#(\d+)>: (.*)", text)
    assert [
        (int(n), int(thread), re.findall(r"<@(\d+)>", people)) for n, thread, people in tables
    ] == [(x.number, 900 + x.number, [str(p) for p in x.players]) for x in t.seated[0].tables]
    assert [len(x.players) for x in t.seated[0].tables] == [4, 3, 3, 3]
    big = tournament(256, 1, first=SNOWFLAKE, table_size=5)
    with using("en-US"):
        text = round_card(big, 1).text
    listed = re.findall(r"\*\*Table (\d+)\*\*", text)
    left = re.search(r"… and (\d+) tables? more", text)
    assert len(text) <= CARD_TEXT and left is not None
    assert len(listed) + int(left[1]) == len(big.seated[0].tables) == 52


def test_the_podium_holds_every_player_of_places_one_to_three() -> None:
    t = tournament(9, 1)
    found = [
        TournamentStanding(p, place, Fraction(10 - place), Fraction(0), 0, (), games=1)
        for p, place in ((5, 1), (6, 1), (7, 3), (8, 4))
    ]
    with using("en-US"):
        text = podium_card(replace(t, record=replace(t.record, status="finished")), found).text
    assert re.findall(r"(🥇|🥈|🥉) <@(\d+)>", text) == [("🥇", "5"), ("🥇", "6"), ("🥉", "7")]
    assert "<@8>" not in text


@pytest.mark.parametrize("form", ["text", "card"])
def test_sign_up_lists_fit_and_buttons_follow_the_state(form: str) -> None:
    t = tournament(256, 1)
    opening = replace(t, record=replace(t.record, status="signup", rounds=0))
    with using("en-US"):
        text = signup_content(opening, 0) if form == "text" else signup_card(opening, 0).text
    listed = text.splitlines()[-1]
    assert listed.startswith("**Signed up: 256**")
    named = len(re.findall(r"<@\d+>", listed))
    more = re.search(r"and (\d+) more", text)
    if form == "text":
        assert more is not None and named + int(more[1]) == 256
        assert MESSAGE_LIMIT - 40 < len(text) <= MESSAGE_LIMIT, "names fill it"
    else:  # short mentions (<@1>): a card holds them all
        assert more is None and named == 256 and len(text) <= CARD_TEXT
        long = replace(
            opening,
            entrants=tuple(replace(e, player=e.player + SNOWFLAKE) for e in opening.entrants),
        )
        with using("en-US"):
            text = signup_card(long, 0).text
        more = re.search(r"and (\d+) more", text)
        named = len(re.findall(r"<@\d+>", text.splitlines()[-1]))
        assert more is not None and named + int(more[1]) == 256
        assert CARD_TEXT - 40 < len(text) <= CARD_TEXT, "names fill it"
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
