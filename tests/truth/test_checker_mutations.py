"""The checker of the channel fails a story that is not true: real games' channels, one
line changed the way a broken story would change it (the state one turn late, "nobody
had a move" after a computer's pass, a wrong die, count, row, bonus, rank...), must make
the check report that very line false, the line as written having been found true."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable

import pytest

from bot.i18n import using
from bot.i18n.words import ROW_EMOJI, t
from bot.players import is_computer
from tests.truth.emojis import application_emojis
from tests.truth.reading import Claim, read
from tests.truth.table import scenarios
from tests.truth.verify import Seen, play

VARIANTS = ("classic", "longo", "onboard", "qwinto")
Change = Callable[[Claim, Seen], str | None]
"""A true claim's line as a broken story would write it (None: not this claim)."""


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Seen]]:
    """A game of each kind of table (:func:`scenarios`) of every variant."""
    path = tmp_path_factory.mktemp("mutations")
    return {
        variant: asyncio.run(play(path / f"{variant}.db", scenarios(variant, 12)))
        for variant in VARIANTS
    }


def mutate(games: list[Seen], kind: str, change: Change) -> tuple[Seen, list[str], str]:
    """The channel of the first game with a true claim of ``kind`` that ``change``
    rewrites, with that line rewritten; the game and the new line."""
    for seen in games:
        reading = read(seen.texts)
        verdicts = seen.verdicts()
        for claim, verdict in zip(reading.claims, verdicts, strict=False):
            if claim.kind != kind or not verdict.ok:
                continue
            new = change(claim, seen)
            if new is None or new == claim.line:
                continue
            texts = list(seen.texts)
            texts[claim.message] = texts[claim.message].replace(claim.line, new, 1)
            return seen, texts, new
    raise AssertionError(f"no true {kind!r} claim that the mutation changes")


def caught(games: list[Seen], kind: str, change: Change, reported: str | None = None) -> None:
    """The check reports the changed line false, as a claim of ``reported`` (default:
    ``kind``)."""
    seen, texts, new = mutate(games, kind, change)
    false = [v for v in seen.verdicts(texts) if not v.ok]
    assert any(v.kind == (reported or kind) and v.line in new.split("\n") for v in false), (
        new,
        false,
    )


def bump(line: str, pattern: str, by: int = 1) -> str | None:
    """``line`` with the first number that ``pattern``'s group 1 finds moved by ``by``."""
    found = re.search(pattern, line)
    if found is None:
        return None
    value = int(found[1])
    return (
        line[: found.start(1)]
        + str(value + by if value + by > 0 else value + 2)
        + line[found.end(1) :]
    )


def other_turn(claim: Claim, seen: Seen, kind: str, step: int = 1) -> Claim | None:
    """The claim of ``kind`` about the turn ``step`` after ``claim``'s."""
    return next(
        (
            c
            for c in read(seen.texts).claims
            if c.kind == kind and c.turn == (claim.turn or 0) + step
        ),
        None,
    )


def t_en(key: str, **values: object) -> str:
    with using("en-US"):
        return t(key, **values)


def unasked(claim: Claim, seen: Seen, why: str, who: Callable[[int], bool]) -> str | None:
    """A finished turn's header rewritten as a turn nobody was asked in, ``why``, if a
    player ``who`` picks had a move in it (and passed)."""
    turn = seen.facts.turns[claim.turn or 0]
    crossed = {e.player for e in turn.of("crossed", "placed")}
    passed = [p for p in turn.movers() if who(p) and p not in crossed]
    if not passed or "was active" not in claim.line or "—" in claim.line:
        return None
    return t_en(
        "turn.automatic",
        turn=turn.number,
        active=claim.line.split(" · ")[1].split(" was active")[0],
        why=t_en(f"turn.unasked.{why}"),
        what=t_en("story.nothing_happened"),
    )


def forced(claim: Claim, seen: Seen) -> str | None:
    """A pass by choice told as having had nothing to cross."""
    who = f"<@{claim.values['player']}>"
    if claim.values["phase"] not in ("action1", "action2") or f"{who} passed" not in claim.line:
        return None
    return claim.line.replace(f"{who} passed", t_en("story.nothing_to_cross", name=who), 1)


def nobody_could(claim: Claim, seen: Seen) -> str | None:
    """An action 1 in which someone passed by choice told as one nobody could cross in."""
    if claim.values["phase"] != "action1":
        return None
    dice = seen.facts.turns[claim.turn or 0].dice
    total = sum(face for die, face in dice.items() if die.startswith("white"))
    return t_en("story.nobody_crossed", total=total)


def marked_by_hand(mark: str) -> Change:
    """A decision a person made by hand (a cross) told as made by the rule ``mark``."""

    def change(claim: Claim, seen: Seen) -> str | None:
        values = claim.values
        made = seen.facts.turns[claim.turn or 0].made.get((values["phase"], values["player"]))
        if made is None or made.source != "player":
            return None
        item = t_en(
            "story.crossed",
            name=f"<@{values['player']}>",
            row=row_words(values["row"]),
            number=values["number"],
        )
        at = claim.line.find(item)
        if at < 0 or claim.line[at + len(item) :].startswith(" ("):
            return None
        return claim.line.replace(item, f"{item} {t_en(mark)}", 1)

    return change


def still_possible(claim: Claim, seen: Seen) -> str | None:
    """A choice ahead told as no longer possible, named as a move that was possible."""
    values = claim.values
    turn = seen.facts.turns[claim.turn or 0]
    made = turn.made.get((values["phase"], values["player"]))
    legal = [m for m in (made.legal if made else []) if m.kind == "cross"]
    if not legal or values["planned"] is None:
        return None
    told = t_en(
        "story.move.cross", row=row_words(values["planned"].row), number=values["planned"].number
    )
    other = t_en("story.move.cross", row=row_words(legal[0].row), number=legal[0].number)
    return claim.line.replace(told, other, 1)


def row_words(row: str | None) -> str:
    return f"{ROW_EMOJI[row or '']} {t_en(f'row.{row}')}"


def another_lock(claim: Claim, seen: Seen) -> str | None:
    """A choice ahead told impossible once another row (not locked) was locked."""
    row = claim.values["row"]
    other = "yellow" if row != "yellow" else "blue"
    locked = [e.data["row"] for e in seen.facts.turns[claim.turn or 0].of("locked")]
    if other in locked:
        return None
    return claim.line.replace(
        f"once {row_words(row)} was locked", f"once {row_words(other)} was locked"
    )


def swapped(mark: str, other: str) -> tuple[str, str, Change]:
    """A classic game's decision made by the rule ``mark`` told as made by ``other``."""
    told, instead = t_en(f"story.by.{mark}"), t_en(f"story.by.{other}")
    return "classic", f"by.{mark}", lambda c, s: c.line.replace(told, instead, 1)


def other_rethrow(claim: Claim, seen: Seen) -> str | None:
    """Qwinto's re-throw "again if I cannot write it" named as the rule that would have
    made the other move: keep when it threw again, throw again when it kept."""
    made = seen.facts.turns[claim.turn or 0].made.get(("reroll", claim.values["player"]))
    if made is None:
        return None
    other = "story.rule.reroll" if made.move.kind == "keep" else "story.rule.keep"
    return claim.line.replace(t_en(f"story.rule.{claim.values['rule']}"), t_en(other), 1)


MUTATIONS: dict[str, tuple[str, str, Change]] = {
    # the state one turn late
    "scores of the turn after": (
        "classic",
        "scores",
        lambda c, s: n.line if (n := other_turn(c, s, "scores")) and n.values != c.values else None,
    ),
    "dice of the turn after": (
        "classic",
        "dice",
        lambda c, s: n.line if (n := other_turn(c, s, "dice")) and n.values != c.values else None,
    ),
    "Qwinto's scores of the turn after": (
        "qwinto",
        "scores",
        lambda c, s: n.line if (n := other_turn(c, s, "scores")) and n.values != c.values else None,
    ),
    # who had a move
    "nobody had a move after a computer's pass": (
        "classic",
        "header",
        lambda c, s: unasked(c, s, "nobody", is_computer),
    ),
    "only the computers had a move after a person's pass": (
        "classic",
        "header",
        lambda c, s: unasked(c, s, "computers", lambda p: p > 0),
    ),
    # each kind of claim
    "a die's face": ("longo", "dice", lambda c, s: bump(c.line, r"🟥(\d+)")),
    "the white sum": ("classic", "dice", lambda c, s: bump(c.line, r"\*\*(\d+)\*\*")),
    "a crossed number": ("classic", "crossed", lambda c, s: bump(c.line, r"crossed \S+ \w+ (\d+)")),
    "a cross told as a pass": (
        "classic",
        "crossed",
        lambda c, s: re.sub(r"crossed \S+ \w+ \d+", "passed", c.line, count=1),
    ),
    "a pass told as a cross": (
        "onboard",
        "passed",
        lambda c, s: c.line.replace("passed", "crossed 🟥 Red 2", 1),
    ),
    "a lucky number told as a cross": (
        "longo",
        "lucky",
        lambda c, s: re.sub(r"used a lucky number: (\S+ \w+ \d+)", r"crossed \1", c.line, count=1),
    ),
    "a penalty's count": ("classic", "penalty", lambda c, s: bump(c.line, r"\((\d+)/4\)")),
    "a lock's row": (
        "classic",
        "locked",
        lambda c, s: c.line.replace(
            f"**{c.values['row']}**", "**green**" if c.values["row"] != "green" else "**red**", 1
        ),
    ),
    "a die left with another lock": (
        "classic",
        "locked",
        lambda c, s: (
            f"{c.line} — the blue die leaves the game" if c.values["row"] != "blue" else None
        ),
    ),
    "a pawn's bonus": ("onboard", "pawn_moved", lambda c, s: bump(c.line, r"bonus (\d+)\)")),
    "a pawn's field": ("onboard", "pawn_moved", lambda c, s: bump(c.line, r"field (\d+):")),
    "a new cross told as one crossed before": (
        "onboard",
        "pawn_moved",
        lambda c, s: c.line.replace("(new cross,", "(already crossed,", 1),
    ),
    "a pawn that moved told as staying": (
        "onboard",
        "pawn_moved",
        lambda c, s: re.sub(r"moved .*", "stayed: their pawn did not move", c.line, count=1),
    ),
    "a pawn's steps": ("onboard", "pawn_moved", lambda c, s: bump(c.line, r"moved (\d+) field")),
    "a failed throw's count": ("qwinto", "failed_throw", lambda c, s: bump(c.line, r"\((\d+)/4\)")),
    "a rolled die": ("qwinto", "rolled", lambda c, s: bump(c.line, r"[🟧🟨🟪](\d+)", 1)),
    "a re-roll told as the roll": (
        "qwinto",
        "rerolled",
        lambda c, s: c.line.replace("re-rolled", "rolled", 1),
    ),
    "a written number": ("qwinto", "wrote", lambda c, s: bump(c.line, r"wrote (\d+) in")),
    "a written number's field": (
        "qwinto",
        "wrote",
        lambda c, s: bump(c.line, r"field (\d+) of 9", 1 if c.values["position"] < 9 else -1),
    ),
    "a pass by choice told as nothing to cross": ("classic", "passed", forced),
    "a pass by choice told as nobody could cross": ("longo", "passed", nobody_could),
    "the sum nobody could cross": ("classic", "nobody", lambda c, s: bump(c.line, r"cross (\d+)$")),
    "the active player": (
        "classic",
        "header",
        lambda c, s: c.line.replace("<@111> was active", "🤖 Computer 1 was active", 1),
    ),
    "the game's end": (
        "classic",
        "game_over.penalties",
        lambda c, s: c.line.replace("A fourth penalty", "Two rows are locked", 1),
    ),
    "a rank's total": ("classic", "rank", lambda c, s: bump(c.line, r"— (\d+)")),
    "a rating's change": ("classic", "rank", lambda c, s: bump(c.line, r"\([+−](\d+)\)")),
    "a rating": ("classic", "rank", lambda c, s: bump(c.line, r"rating (\d+)")),
    "a provisional rating told as settled": (
        "classic",
        "rank",
        lambda c, s: c.line.replace("?", "", 1) if c.values.get("provisional") else None,
    ),
    "a settled rating told as provisional": (
        "classic",
        "rank",
        lambda c, s: (
            re.sub(r"(rating \d+)", r"\1?", c.line, count=1)
            if c.values.get("provisional") is False
            else None
        ),
    ),
    "the winner": (
        "classic",
        "winner",
        lambda c, s: (
            c.line.replace("🤖 Computer 1", "<@111>", 1)
            if "🤖 Computer 1" in c.line
            else c.line.replace("<@111>", "🤖 Computer 1", 1)
        ),
    ),
    "a count of wins": ("classic", "wins", lambda c, s: bump(c.line, r"(\d+)(?:st|nd|rd|th)")),
    "a computer's accuracy": ("classic", "accuracy", lambda c, s: f"{c.line} · 🤖 Computer 1 50%"),
    "a summary of turns with no outage": (
        "classic",
        "header",
        lambda c, s: (
            f"**Turns {c.turn}–{c.turn}** were played while the channel could not be updated:\n"
            f"{c.line}"
            if c.turn not in s.facts.down
            else None
        ),
    ),
    "a run of turns played in an outage": (
        "classic",
        "missed",
        lambda c, s: c.line.replace(
            "were played while the channel could not be updated",
            "were played out in one go — only the computers had a move",
            1,
        ),
    ),
    "a seat left out of the game's start": (
        "classic",
        "started",
        lambda c, s: re.sub(r", [^,]+(?=\.$)", "", c.line, count=1),
    ),
    "a game that counts told it does not": (
        "classic",
        "started",
        lambda c, s: (
            c.line + "\n" + t_en("lobby.uncounted.people")
            if sum(not is_computer(p) for p in s.facts.players) >= 2
            else None
        ),
    ),
    "a computer's level": (
        "classic",
        "level",
        lambda c, s: re.sub(r"\((Easy|Normal)\)", "(Hard)", c.line, count=1),
    ),
    "who left": ("classic", "away.left", lambda c, s: re.sub(r"<@\d+>", "<@999>", c.line, count=1)),
    "whose time ran out": (
        "classic",
        "expired.qwixx",
        lambda c, s: re.sub(r"<@\d+>", "🤖 Computer 1", c.line, count=1),
    ),
    # decisions made without asking
    "a standing choice named as another": swapped("safe", "computer"),
    "the Hard computer's choice told as skipping nothing": swapped("computer", "safe"),
    "time run out told as a standing choice": swapped("timeout", "computer"),
    "away told as chosen ahead": swapped("away", "ahead"),
    "a decision by hand told as a standing choice's": (
        "classic",
        "crossed",
        marked_by_hand("story.by.safe"),
    ),
    "a decision by hand told as chosen ahead": (
        "classic",
        "crossed",
        marked_by_hand("story.by.ahead"),
    ),
    "a choice ahead made told as impossible": (
        "classic",
        "by.ahead",
        lambda c, s: (
            c.line
            + "\n"
            + t_en(
                "story.ahead.unmet", name=f"<@{c.values['player']}>", move=t_en("story.move.pass")
            )
            if c.values["phase"] == "action2"
            else None
        ),
    ),
    "a re-throw rule named wrong": ("qwinto", "by.rethrow", other_rethrow),
    "a plan told impossible that was possible": ("onboard", "ahead.asked_locked", still_possible),
    "a fallback told though its move was still possible": (
        "classic",
        "by.fallback_locked",
        still_possible,
    ),
    "a fallback blamed on a lock of another row": ("classic", "by.fallback_locked", another_lock),
    "a plan's failure blamed on a lock of another row": (
        "onboard",
        "ahead.asked_locked",
        another_lock,
    ),
    "nobody asked after a person's pass by hand": (
        "classic",
        "header",
        lambda c, s: unasked(c, s, "chosen", lambda p: p > 0),
    ),
}
"""What a broken story would say: the variant whose games it is tried on, the kind of
claim it changes, and how."""
REPORTED = {
    "a standing choice named as another": "by.computer",
    "the Hard computer's choice told as skipping nothing": "by.safe",
    "time run out told as a standing choice": "by.computer",
    "away told as chosen ahead": "by.ahead",
    "a decision by hand told as a standing choice's": "by.safe",
    "a decision by hand told as chosen ahead": "by.ahead",
    "a choice ahead made told as impossible": "ahead.unmet",
    "nobody asked after a person's pass by hand": "unasked.chosen",
    "a new cross told as one crossed before": "pawn_moved_crossed",
    "a pawn that moved told as staying": "stayed",
    "a run of turns played in an outage": "run.unasked.computers",
    "a game that counts told it does not": "uncounted.people",
    "a cross told as a pass": "passed",
    "a pass told as a cross": "crossed",
    "a lucky number told as a cross": "crossed",
    "a re-roll told as the roll": "rolled",
    "a die left with another lock": "die",
    "the game's end": "game_over.rows_locked",
    "nobody had a move after a computer's pass": "unasked.nobody",
    "only the computers had a move after a person's pass": "unasked.computers",
    "a summary of turns with no outage": "missed",
    "a rating's change": "rank",
    "a pass by choice told as nothing to cross": "nothing_to_cross",
    "a pass by choice told as nobody could cross": "nobody",
}
"""The kind the check reports a mutation as, where the changed line reads as another."""


@pytest.mark.parametrize("mutation", list(MUTATIONS))
def test_the_check_reports_a_false_line(games: dict[str, list[Seen]], mutation: str) -> None:
    variant, kind, change = MUTATIONS[mutation]
    caught(games[variant], kind, change, REPORTED.get(mutation))


def test_a_line_the_reader_does_not_know_is_reported(games: dict[str, list[Seen]]) -> None:
    seen = games["classic"][0]
    texts = [*seen.texts[:-1], seen.texts[-1] + "\nEveryone played really well!"]
    assert [v.line for v in seen.verdicts(texts) if v.kind == "unread"] == [
        "Everyone played really well!"
    ]


def test_a_finished_game_that_still_asks_is_reported(games: dict[str, list[Seen]]) -> None:
    seen = games["classic"][0]
    texts = [seen.texts[0] + "\n⏳ Deciding: <@111>", *seen.texts[1:]]
    assert not read(seen.texts).unread
    assert [v.kind for v in seen.verdicts(texts) if not v.ok] == ["unread"]


def test_a_penalty_left_untold_is_reported(games: dict[str, list[Seen]]) -> None:
    seen = next(s for s in games["classic"] if "takes a penalty" in "".join(s.texts))
    line = next(line for text in seen.texts for line in text.splitlines() if line.startswith("❌"))
    texts = [text.replace(line + "\n", "", 1) for text in seen.texts]
    false = [v for v in seen.verdicts(texts) if not v.ok]
    assert [v.kind for v in false] == ["told.penalty"]


def test_a_turn_told_twice_is_reported(games: dict[str, list[Seen]]) -> None:
    seen = games["classic"][0]
    texts = [seen.texts[1], *seen.texts]  # the first turn's message (after the start's)
    assert "**Turn 1**" in seen.texts[1]
    assert "told.turn" in {v.kind for v in seen.verdicts(texts) if not v.ok}


def test_a_decision_of_a_rule_left_unmarked_is_reported(games: dict[str, list[Seen]]) -> None:
    """A decision a standing choice made, told without its mark: told as by hand."""
    mark = " " + t_en("story.by.safe")
    seen = next(s for s in games["classic"] if mark in "".join(s.texts))
    index = next(i for i, text in enumerate(seen.texts) if mark in text)
    texts = list(seen.texts)
    texts[index] = texts[index].replace(mark, "", 1)
    false = [v for v in seen.verdicts(texts) if not v.ok]
    assert [v.kind for v in false] == ["told.by"], false


def moment(games: list[Seen]) -> tuple[Seen, int, Claim]:
    """A game, one of its live turn messages as shown, and the claim of whom it waits
    for, found true: the first that waits for two people or more, not everyone."""
    for seen in games:
        for index, (text, _) in enumerate(seen.live):
            for claim in read([text]).claims:
                named = claim.values.get("players", [])
                if claim.kind == "waiting" and 2 <= len(named) < len(seen.facts.players):
                    assert all(v.ok for v in seen.verdicts(live=[seen.live[index]]))
                    return seen, index, claim
    raise AssertionError("no live turn message waits for two people")


@pytest.mark.parametrize(
    "mutation",
    ["one waited for left out", "someone else waited for", "a later start", "an earlier start"],
)
def test_the_check_reports_a_false_waiting_line(
    games: dict[str, list[Seen]], mutation: str
) -> None:
    """Whom a live turn message waits for, and since when, held to the game as it was
    when the message was shown."""
    seen, index, claim = moment(games["classic"])
    text, moves = seen.live[index]
    line, named = claim.line, claim.values["players"]
    if mutation == "one waited for left out":
        new = line.replace(f", <@{named[-1]}>", "", 1)
    elif mutation == "someone else waited for":
        other = next(p for p in seen.facts.players if p not in named)
        new = line.replace(f"<@{named[0]}>", f"<@{other}>" if other > 0 else "🤖 Computer 1", 1)
    else:
        since = claim.values["since"]
        new = line.replace(f"<t:{since}:", f"<t:{since + (60 if 'later' in mutation else -60)}:")
    false = [v for v in seen.verdicts(live=[(text.replace(line, new), moves)]) if not v.ok]
    assert any(v.kind == "waiting" and v.line == new for v in false), (new, false)


# --- the dice as emojis ----------------------------------------------------------
FACES, EMOJIS = application_emojis()
MARKUP = re.compile(r"<:qx_([a-z]+)(\d+)_[0-9a-f]{4}:(\d+)>")


@pytest.fixture(scope="module")
def shown_as_emojis(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Seen]]:
    """Games of the Qwixx family and of Qwinto with their dice shown as emojis."""
    path = tmp_path_factory.mktemp("emojis")
    return {
        variant: asyncio.run(play(path / f"{variant}.db", scenarios(variant, 6), FACES, EMOJIS))
        for variant in ("longo", "qwinto")
    }


def first_die(line: str, change: Callable[[re.Match[str]], str]) -> str | None:
    """``line`` with its first die's emoji markup replaced by ``change``'s."""
    found = MARKUP.search(line)
    return None if found is None else line[: found.start()] + change(found) + line[found.end() :]


def other_face(found: re.Match[str]) -> str:
    """The emoji of the same die's next face (Longo's dice have eight)."""
    colour, face = found[1], int(found[2])
    return FACES[f"{colour}{face % 6 + 1}"]


def other_colour(found: re.Match[str]) -> str:
    colour = "blue" if found[1] != "blue" else "red"
    return FACES[f"{colour}{found[2]}"]


def id_of_another(found: re.Match[str]) -> str:
    """The same name, with the id of another face's emoji: Discord shows that one."""
    other = MARKUP.fullmatch(other_face(found))
    assert other is not None
    return found[0].replace(found[3], other[3])


def id_unknown(found: re.Match[str]) -> str:
    return found[0].replace(found[3], "1")


Swap = Callable[[re.Match[str]], str]
"""What a die's emoji markup is replaced by."""
EMOJI_MUTATIONS: dict[str, tuple[str, str, Swap]] = {
    "a die's emoji of another face": ("longo", "dice", other_face),
    "a die's emoji of another colour": ("longo", "dice", other_colour),
    "a die's name on another face's emoji": ("longo", "dice", id_of_another),
    "an emoji the application does not have": ("longo", "dice", id_unknown),
    "a rolled die's emoji of another face": ("qwinto", "rolled", other_face),
    "a rolled die told as text": ("qwinto", "rolled", lambda f: f"🟧{int(f[2]) % 6 + 1}"),
}
"""What a story with a wrong die emoji would say: each is caught like a wrong figure."""


@pytest.mark.parametrize("mutation", list(EMOJI_MUTATIONS))
def test_the_check_reports_a_wrong_die_emoji(
    shown_as_emojis: dict[str, list[Seen]], mutation: str
) -> None:
    variant, kind, swap = EMOJI_MUTATIONS[mutation]
    caught(shown_as_emojis[variant], kind, lambda c, s: first_die(c.line, swap))


def test_the_dice_read_alike_as_emojis_and_as_text(
    games: dict[str, list[Seen]], shown_as_emojis: dict[str, list[Seen]]
) -> None:
    """The same games, shown both ways, make the same claims: the emoji form is read as
    exactly as the text form."""
    for variant, seen in shown_as_emojis.items():
        for as_emojis, as_text in zip(seen, games[variant], strict=False):
            assert "<:qx_" in "".join(as_emojis.texts)
            emoji_claims = read(as_emojis.texts, EMOJIS).claims
            text_claims = read(as_text.texts).claims
            assert [(c.kind, c.turn, c.values) for c in emoji_claims] == [
                (c.kind, c.turn, c.values) for c in text_claims
            ]
            assert all(v.ok for v in as_emojis.verdicts())
