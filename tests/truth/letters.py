"""A member's direct messages read back into claims, held to the game replayed.

Each letter opens with the game and its turn (``dm.header``); an open one says what
waits for its reader (``dm.asks``: held to the options they had in that turn and phase)
and by when; a closed one tells what happened in the channel's own sentences (read and
checked as the channel's are, :mod:`tests.truth.reading`, :mod:`tests.truth.checking`),
that its reader chose (``dm.chosen``: they decided in that turn) or kept Qwinto's throw
(``you.kept``: their move), or that the decision is over. A line of no known shape is
a false claim, as in the channel.
"""

from __future__ import annotations

from bot.rules import VARIANTS
from tests.truth.checking import CHECKS, Verdict
from tests.truth.facts import Facts
from tests.truth.reading import Claim, Emojis, Reading, piece, shape

PHASES = ("action1", "action2", "action3", "roll", "reroll", "place")
SAID = ("turn.deadline", "dm.link")
"""Lines that claim nothing of the game (a countdown, the link to it)."""


def read_letters(texts: list[str], reader: int, emojis: Emojis | None = None) -> Reading:
    """Every claim of ``reader``'s letters ``texts`` (as Discord keeps them)."""
    reading = Reading(emojis=emojis or {})
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
            elif not piece(line, turn, reading, line):
                reading.unread.append(line)
        for claim in reading.claims[first:]:
            claim.message = index
    return reading


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


LETTER_CHECKS = {"letter": letter, "asked": asked, "chose": chose, "kept": kept}
