"""A member's direct messages read back into claims, held to the game replayed.

Each letter opens with the game and its turn (``dm.header``); an open one says what
waits for its reader (``dm.asks``: held to the options they had in that turn and phase)
and by when; a closed one tells what happened in the channel's own sentences (read and
checked as the channel's are, :mod:`tests.truth.reading`, :mod:`tests.truth.checking`),
that its reader chose (``dm.chosen``: they decided in that turn) or kept Qwinto's throw
(``you.kept``: their move), or that the decision is over. A sentence may speak to its
reader ("You crossed 🟥 Red 5": the reader crossed it). Once the game is over, a letter
says how it ended (the end's reason, held to the turn the game ended in, not the
letter's), and, finished, its final ranking and winners, its reader's own line and win
spoken to them, with a link to the game's final message. A line of no known shape is a
false claim, as in the channel.
"""

from __future__ import annotations

import re
from dataclasses import replace

from bot.i18n.english import EN
from bot.rules import VARIANTS
from tests.truth.checking import CHECKS, Verdict, standing
from tests.truth.facts import Facts
from tests.truth.reading import (
    Claim,
    Emojis,
    Reading,
    converted,
    levels,
    number,
    piece,
    player,
    players,
    shape,
)

PHASES = ("action1", "action2", "action3", "roll", "reroll", "place")
SAID = ("turn.deadline", "dm.link")
"""Lines that claim nothing of the game (a countdown, the link to it)."""


def read_letters(texts: list[str], reader: int, emojis: Emojis | None = None) -> Reading:
    """Every claim of ``reader``'s letters ``texts`` (as Discord keeps them)."""
    reading = Reading(emojis=emojis or {}, you=reader)
    for index, text in enumerate(texts):
        first, turn = len(reading.claims), None
        for line in text.splitlines():
            head = shape("dm.header_at").match(line) or shape("dm.header").match(line)
            if head is not None:
                turn = int(head["turn"])
                reading.add("letter", turn, line, title=head["title"])
            elif turn is None:
                reading.unread.append(line)
            elif (asks := shape("dm.asks").match(line)) is not None:
                phase = phase_of(asks["phase"])
                if phase is None:
                    reading.unread.append(line)
                else:
                    reading.add("asked", turn, line, player=reader, phase=phase[0], **phase[1])
            elif shape("dm.chosen").match(line):
                reading.add("chose", turn, line, player=reader)
            elif shape("you.kept").match(line):
                reading.add("kept", turn, line, player=reader)
            elif any(shape(key).match(line) for key in (*SAID, "dm.over")):
                pass
            elif not (ending(line, turn, reader, reading) or piece(line, turn, reading, line)):
                reading.unread.append(line)
        for claim in reading.claims[first:]:
            claim.message = index
    return reading


def ending(line: str, turn: int, reader: int, reading: Reading) -> bool:
    """A line of how the game ended (:func:`read_letters`); whether it was one."""
    if (m := shape("dm.end.link").match(line)) is not None:
        ids = [int(n) for n in re.findall(r"\d+", m["link"])]
        reading.add("end_link", turn, line, ids=ids)
    elif shape("dm.end.over").match(line):
        reading.add("over", turn, line)
    elif (m := shape("end.title").match(line)) is not None:
        reading.add("final_title", turn, line, title=m["title"])
    elif (m := shape("dm.end.solo").match(line)) is not None:
        reading.add("final_rank", turn, line, player=reader, rank=1, total=number(m["total"]))
    elif (m := shape("dm.end.line").match(line)) is not None:
        values = converted(m.groupdict(), reading.emojis)
        reading.add("final_rank", turn, line, player=reader, **values)
    elif (m := shape("end.line").match(line)) is not None:
        values = converted(m.groupdict(), reading.emojis, "name")
        reading.add("final_rank", turn, line, player=player(m["name"]), **values)
        levels(line, reading)
    elif shape("dm.end.won").match(line):
        reading.add("winner", turn, line, players=[reader], plural=False)
    elif (m := shape("dm.end.won_with").match(line)) is not None:
        reading.add("winner", turn, line, players=[reader, *players(m["names"])], plural=True)
    elif (m := shape("end.winner").match(line)) is not None:
        plural = m["verb"] == EN["end.verb.other"]
        reading.add("winner", turn, line, players=players(m["names"]), plural=plural)
    else:
        return False
    return True


def phase_of(text: str) -> tuple[str, dict[str, int]] | None:
    """``action 1 (white sum 8)`` -> ("action1", {"total": 8})."""
    for phase in PHASES:
        found = shape(f"sheet.phase.{phase}").match(text)
        if found is not None:
            return phase, {k: int(v) for k, v in found.groupdict().items()}
    return None


def check_letters(reading: Reading, facts: Facts) -> list[Verdict]:
    """Every claim of the letters held to ``facts``; an unread line is a false claim."""
    verdicts = []
    for claim in reading.claims:
        found = LETTER_CHECKS.get(claim.kind) or CHECKS.get(claim.kind)
        if found is None:
            why: str | None = f"the checker knows no claim {claim.kind!r}"
        else:
            why = found(claim, facts)
        verdicts.append(Verdict(claim.kind, claim.line, claim.turn, why is None, why or ""))
    return verdicts + [
        Verdict("unread", line, None, False, "no known sentence") for line in reading.unread
    ]


def letter(claim: Claim, facts: Facts) -> str | None:
    """The game's title, and a turn it had."""
    title = VARIANTS[facts.record.variant].title
    if claim.values["title"] != title:
        return f"the game is {title}"
    return None if claim.turn in facts.turns else f"the game has no turn {claim.turn}"


def asked(claim: Claim, facts: Facts) -> str | None:
    """The reader had a choice in that turn and phase (a move besides passing), and the
    sum the phase names is the one thrown."""
    turn = facts.turns.get(claim.turn or 0)
    values = claim.values
    if turn is None or not turn.options.get(values["phase"], {}).get(values["player"]):
        return f"nothing to choose in {values['phase']} of turn {claim.turn}"
    if values["phase"] == "action1":
        white = sum(face for die, face in turn.dice.items() if die.startswith("white"))
        if values.get("total") != white:
            return f"the white sum was {white}"
    return None


def chose(claim: Claim, facts: Facts) -> str | None:
    """The reader decided something in that turn, by their own choice."""
    turn = facts.turns.get(claim.turn or 0)
    sources = set() if turn is None else turn.sources.get(claim.values["player"], set())
    return None if "player" in sources else f"no choice of theirs in turn {claim.turn}"


def kept(claim: Claim, facts: Facts) -> str | None:
    """The reader kept their throw in that turn (Qwinto)."""
    made = [
        m.move.get("kind")
        for m in facts.moves
        if m.player_id == claim.values["player"] and facts.move_turns[m.seq] == claim.turn
    ]
    return None if "keep" in made else f"no throw kept in turn {claim.turn}: {made}"


def end_turn(facts: Facts) -> int:
    """The turn the game ended in."""
    return facts.abandoned if facts.abandoned is not None else facts.game.turn


def ended(claim: Claim, facts: Facts) -> str | None:
    """The game is over, its end told in a letter of a turn no later than its last; the
    end's reason held as the channel's is, to the turn it ended in."""
    if facts.record.status not in ("finished", "abandoned"):
        return f"the game is not over ({facts.record.status})"
    last = end_turn(facts)
    if (claim.turn or 0) > last:
        return f"the game ended in turn {last}"
    found = CHECKS.get(claim.kind)
    return None if found is None else found(replace(claim, turn=last), facts)


def end_link(claim: Claim, facts: Facts) -> str | None:
    """The game is over, and the link leads to its final message (a finished game's
    final scores; an abandoned game's last message)."""
    record = facts.record
    true = [record.guild_id, record.channel_id, record.message_id]
    return ended(claim, facts) or (None if claim.values["ids"] == true else f"the end is {true}")


def final_title(claim: Claim, facts: Facts) -> str | None:
    """The game finished (it has final scores), and its title."""
    return CHECKS["title"](claim, facts) if facts.finished else "the game did not finish"


def final_rank(claim: Claim, facts: Facts) -> str | None:
    """A line of the final ranking: the player's rank and total (no rating: a letter
    tells none)."""
    return standing(claim, facts)


def winner(claim: Claim, facts: Facts) -> str | None:
    """The winners of a finished game (one, or more sharing the win)."""
    return "the game did not finish" if not facts.finished else CHECKS["winner"](claim, facts)


LETTER_CHECKS = {
    "letter": letter,
    "asked": asked,
    "chose": chose,
    "kept": kept,
    "end_link": end_link,
    "over": ended,
    "final_title": final_title,
    "final_rank": final_rank,
    "winner": winner,
    **{kind: ended for kind in CHECKS if kind.startswith("game_over.")},
}
