"""The channel's final state read back into claims: each line matched against the shapes
of the English catalogue's sentences (``bot.i18n.english.EN``, its placeholders turned into
patterns), its values taken out (mentions to players, row words to rows, numbers).

Only the catalogue's wording is taken from the project, never how the channel's code
fills it in: what a claim says is read from the text, and checked elsewhere against the
game (:mod:`tests.truth.checking`). A line that matches no known shape is kept as
unread: the check fails on it, so that no new wording escapes the check unseen.

A die is read in either of its forms: ``🟥6``, or the bot's emoji of that face,
``<:qx_red6_1a2b:123>``, which Discord shows as the picture of the emoji whose id it
names. So an emoji is read from the application's emojis as Discord lists them (id ->
name), and only when the markup names it as Discord does: a name that is not the id's,
or an id Discord does not have, reads as no die at all.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from bot.i18n.english import EN
from bot.i18n.words import ROW_EMOJI
from bot.rules import Move

ROWS = ("red", "yellow", "green", "blue", "orange", "purple", "white")
DIE_EMOJI = re.compile(r"<:(qx_([a-z]+)([0-9]+)_[0-9a-f]{4}):([0-9]+)>")
"""A die's emoji as a line writes it: its name (die, face, the art's version) and id."""
UNKNOWN_DIE = ("no die", 0)
"""What an emoji that is not one of the application's dice reads as."""
Emojis = Mapping[int, str]
"""The application's emojis as Discord lists them: id -> name."""
LEVELS = ("easy", "normal", "hard")
DIGITS = r"[0-9][0-9,]*"


def words(*keys: str) -> str:
    """The catalogue's texts of ``keys`` as alternatives of a pattern."""
    return "|".join(re.escape(EN[key]) for key in keys)


@cache
def placeholders() -> dict[str, str]:
    """Each placeholder of a story sentence and the pattern of what fills it."""
    computer = "🤖 " + re.escape(EN["player.computer"]).replace(r"\{number\}", r"\d+")
    level = words(*(f"level.{level}" for level in LEVELS))
    leveled = (
        re.escape(EN["lobby.computer"])
        .replace(r"\{name\}", computer)
        .replace(r"\{level\}", f"(?:{level})")
    )
    name = rf"<@\d+>|{leveled}|{computer}"
    emoji = "|".join(sorted(set(ROW_EMOJI.values())))
    die = rf"(?:{emoji})\d+|<:qx_[a-z]+[0-9]+_[0-9a-f]{{4}}:[0-9]+>"
    row = rf"(?:(?:{emoji}) ?)?(?i:{words(*(f'row.{row}' for row in ROWS))})"
    counts = "|".join(
        re.escape(EN[k]).replace(r"\{count\}", r"\d+") for k in EN if k.startswith("unit.field.")
    )
    ordinals = "|".join(
        re.escape(EN[k]).replace(r"\{count\}", r"\d+") for k in EN if k.startswith("ordinal.")
    )
    names = rf"(?:{name})(?:, (?:{name}))*"
    return {
        "name": name,
        "active": name,
        "names": names,
        "row": row,
        "emoji": row,
        "number": r"\d+",
        "total": r"−?\d+",
        "turn": r"\d+",
        "count": r"\d+",
        "limit": r"\d+",
        "bonus": r"\d+",
        "first": r"\d+",
        "last": r"\d+",
        "rank": r"\d+",
        "steps": counts,
        "nth": ordinals,
        "dice": rf"(?:{die})(?: (?:{die}))*",
        "rating": r"−?\d+\??",
        "change": rf"±0|\+{DIGITS}|−{DIGITS}",
        "verb": words("end.verb.one", "end.verb.other"),
        "accuracy": r"\d+ ?%",
        "title": r".+?",
        "what": r".+",
        "why": r".+?",
        "scores": r".+",
        "accuracies": r".+",
        "level": level,
        "rows": r".+",
        "deadline": r"\d+",
        "since": r"\d+",
        "position": r"\d+",
        "move": r".+?",
        "rule": words(*(k for k in EN if k.startswith("story.rule."))),
        "phase": r".+",
        "link": r"https://discord\.com/channels/\d+/\d+/\d+",
        "guild": r".+?",
        "channel": r".+?",
    }


@cache
def shape(key: str, anchored: bool = True) -> re.Pattern[str]:
    """The pattern of the catalogue's sentence ``key``: its text, each placeholder a
    named group (a placeholder used twice must read the same twice)."""
    parts = re.split(r"\{(\w+)\}", EN[key])
    pattern, seen = [], set()
    for index, part in enumerate(parts):
        if index % 2 == 0:
            pattern.append(re.escape(part))
        elif part in seen:
            pattern.append(f"(?P={part})")
        else:
            if part not in placeholders():
                raise KeyError(f"{key}: the reader knows no placeholder {{{part}}}")
            seen.add(part)
            pattern.append(f"(?P<{part}>{placeholders()[part]})")
    body = "".join(pattern)
    return re.compile(f"^{body}$" if anchored else body)


@cache
def die_suffix() -> re.Pattern[str]:
    """`` — the red die leaves the game`` at a line's end (a die that left with a lock)."""
    return re.compile(f" — {shape('event.die_removed', anchored=False).pattern}$")


@dataclass
class Claim:
    """One thing a line says: ``kind`` names what, ``values`` its figures (players as
    ids, rows as the rules name them), ``turn`` the turn it is about (None: the game)."""

    kind: str
    turn: int | None
    line: str
    values: dict[str, Any] = field(default_factory=dict)
    message: int = 0
    """Which of the channel's messages holds the line (0 the oldest)."""


@dataclass
class Reading:
    claims: list[Claim] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)
    """Lines that match no shape the reader knows."""
    emojis: Emojis = field(default_factory=dict)
    """The application's emojis, which the dice's emojis are read by."""
    you: int | None = None
    """The reader of a direct message, whom its sentences may speak to (:func:`said`);
    None in the channel, which speaks to nobody."""

    def add(self, kind: str, turn: int | None, line: str, **values: Any) -> None:
        self.claims.append(Claim(kind, turn, line, values))


def said(key: str, text: str, you: int | None = None) -> dict[str, str] | None:
    """The values of sentence ``key`` if ``text`` is it; in a letter to ``you``, also its
    form that speaks to its reader (``key.you``: "You crossed"), the reader filling the
    name it leaves out."""
    m = shape(key).match(text)
    if m is not None:
        return m.groupdict()
    spoken = f"{key}.you"
    if you is None or spoken not in EN or (m := shape(spoken).match(text)) is None:
        return None
    named = "names" if "{names}" in EN[key] else "name"
    return {**m.groupdict(), named: f"<@{you}>"}


def player(text: str) -> int:
    """A mention's player: ``<@111>`` -> 111, ``🤖 Computer 2`` -> -2."""
    found = re.match(r"<@(\d+)>$", text)
    if found:
        return int(found[1])
    number = re.search(r"(\d+)", text)
    assert number is not None, text
    return -int(number[1])


def players(text: str) -> list[int]:
    return [player(p) for p in split_names(text)]


def split_names(text: str) -> list[str]:
    return re.findall(placeholders()["name"], text)


def row_of(text: str) -> str:
    word = text.split()[-1].lower()
    for row in ROWS:
        if EN[f"row.{row}"].lower() == word:
            return row
    raise ValueError(f"no row {text!r}")


def dice_of(text: str, emojis: Emojis) -> list[tuple[str, int]]:
    """``⚪2 ⚪5 🟥5`` (or the dice's emojis) -> [("white", 2), ("white", 5), ("red", 5)]."""
    by_emoji = {e: r for r, e in ROW_EMOJI.items()}
    return [
        die_of(markup, emojis) if markup else (by_emoji[square], int(face))
        for markup, square, face in re.findall(
            f"(<:[^>]*>)|({'|'.join(ROW_EMOJI.values())})(\\d+)", text
        )
    ]


def die_of(markup: str, emojis: Emojis) -> tuple[str, int]:
    """``<:qx_red6_1a2b:123>`` -> ("red", 6), if Discord's emoji 123 is called that."""
    found = DIE_EMOJI.fullmatch(markup)
    if found is None or emojis.get(int(found[4])) != found[1] or found[2] not in ROWS:
        return UNKNOWN_DIE
    return found[2], int(found[3])


def number(text: str) -> int:
    """A figure as written: ``−1,234`` -> -1234, ``+5`` -> 5, ``±0`` -> 0."""
    digits = text.replace(",", "").replace("±", "").replace("+", "").replace(" ", "")
    return -int(digits[1:]) if digits.startswith("−") else int(digits)


# --- the story's sentences ------------------------------------------------------
ACTIONS = {"story.action1": "action1", "story.action2": "action2", "story.place": "place"}
ITEMS = (
    "story.crossed",
    "story.lucky",
    "story.passed",
    "story.nothing_to_cross",
    "story.wrote",
    "story.wrote_nothing",
    "story.nowhere_to_write",
)
NOBODY = {"story.nobody_crossed": "action1", "story.nobody_wrote": "place"}
"""An action in which nobody had anything to do, told once for everyone."""
EVENTS = (
    "event.locked",
    "event.penalty",
    "event.pawn_moved",
    "event.pawn_moved_crossed",
    "event.stayed",
    "event.finish_reached",
    "event.failed_throw",
    "event.rolled",
    "event.rerolled",
)
"""Sentences of one event each (the keys of a kind with variants are found by prefix:
``event.expired.*``, ``event.away.*``, ``event.game_over.*``)."""
FAMILIES = ("event.expired.", "event.away.", "event.game_over.")
NOTHING = ("story.nothing_happened",)
"""Sentences that state no fact of their own (what they stand for is checked where it
is told: a turn in which nothing changed has no event to miss)."""


# --- decisions made without asking ---------------------------------------------------
MARKED = {
    "event.rolled": "roll",
    "event.rerolled": "reroll",
    "event.pawn_moved": "action3",
    "event.pawn_moved_crossed": "action3",
    "event.stayed": "action3",
    "story.kept": "reroll",
}
"""The event lines that may carry a rule's mark, and the phase of the decision they tell."""
AHEAD = (
    "story.ahead.asked",
    "story.ahead.asked_locked",
    "story.ahead.unmet",
    "story.ahead.unmet_later",
    "story.ahead.away",
)
"""Lines of their own about a choice made ahead that was not made."""


@cache
def mark_shapes() -> list[tuple[str, re.Pattern[str]]]:
    """Each rule's mark (``story.by.*``) as it ends a line or an item."""
    keys = [k for k in EN if k.startswith("story.by.")]
    return [(k, re.compile(f" {shape(k, anchored=False).pattern}$")) for k in keys]


def unmarked(text: str) -> tuple[str, tuple[str, dict[str, str]] | None]:
    """``text`` without the rule's mark it ends with, and the mark (its key, values)."""
    for key, pattern in mark_shapes():
        found = pattern.search(text)
        if found is not None:
            return text[: found.start()], (key, found.groupdict())
    return text, None


def planned(text: str) -> dict[str, Any] | None:
    """A choice made ahead as a line names it (``story.move.*``, ``story.rule.*``): the
    move (None for a re-throw rule), the rule, and the phase it was for."""
    for key in (k for k in EN if k.startswith("story.rule.")):
        if shape(key).match(text):
            return {"move": None, "rule": key.removeprefix("story.rule."), "phase": "reroll"}
    simple = {
        "story.move.pass": (Move("pass"), "action2"),
        "story.move.stay": (Move("pass"), "action3"),
    }
    for key, (move, phase) in simple.items():
        if shape(key).match(text):
            return {"move": move, "rule": None, "phase": phase}
    if (m := shape("story.move.cross").match(text)) is not None:
        move = Move("cross", row_of(m["row"]), int(m["number"]))
        return {"move": move, "rule": None, "phase": "action2"}
    if (m := shape("story.move.lucky").match(text)) is not None:
        move = Move("lucky", row_of(m["row"]), int(m["number"]))
        return {"move": move, "rule": None, "phase": "action2"}
    if (m := shape("story.move.pawn").match(text)) is not None:
        steps = number(re.findall(r"\d+", m["steps"])[0])
        return {"move": Move("pawn", row_of(m["row"]), steps), "rule": None, "phase": "action3"}
    if (m := shape("story.move.roll").match(text)) is not None:
        by_emoji = {e: r for r, e in ROW_EMOJI.items()}
        dice = tuple(by_emoji.get(e, e) for e in m["rows"].split(" "))
        return {"move": Move("roll", dice=dice), "rule": None, "phase": "roll"}
    return None


def add_mark(
    reading: Reading,
    turn: int,
    line: str,
    player: int,
    phase: str,
    mark: tuple[str, dict[str, str]],
) -> bool:
    """The claim of a rule's mark on ``player``'s decision in ``phase``; whether it reads."""
    key, values = mark
    told: dict[str, Any] = {"player": player, "phase": phase}
    if "rule" in values:
        told["rule"] = next(
            k.removeprefix("story.rule.")
            for k in EN
            if k.startswith("story.rule.") and EN[k] == values["rule"]
        )
    if "move" in values:
        chosen = planned(values["move"])
        if chosen is None:
            return False
        told["planned"], told["planned_phase"] = chosen["move"], chosen["phase"]
    if "row" in values:
        told["row"] = row_of(values["row"])
    reading.add(key.removeprefix("story."), turn, line, **told)
    return True


def ahead_line(text: str, turn: int, reading: Reading, line: str) -> bool | None:
    """A line of its own about a choice made ahead (``ahead.asked``...), or a throw kept
    by a rule; None if ``text`` is neither, else whether it reads."""
    text, mark = unmarked(text)
    if (kept := said("story.kept", text, reading.you)) is not None:
        if mark is None:
            return False
        who = player(kept["name"])
        reading.add("kept", turn, line, player=who)
        return add_mark(reading, turn, line, who, "reroll", mark)
    found = next(((k, v) for k in AHEAD if (v := said(k, text, reading.you)) is not None), None)
    if found is None:
        return None
    key, values = found
    chosen = planned(values["move"])
    if mark is not None or chosen is None:
        return False
    row = {"row": row_of(values["row"])} if values.get("row") else {}
    if values.get("turn"):
        row["for_turn"] = int(values["turn"])
    reading.add(
        key.removeprefix("story."),
        turn,
        line,
        player=player(values["name"]),
        planned=chosen["move"],
        rule=chosen["rule"],
        phase=chosen["phase"],
        **row,
    )
    return True


def parts(text: str, *keys: str, you: int | None = None) -> list[tuple[str, dict[str, str]]] | None:
    """A `` · ``-separated list of sentences of ``keys``: each one's key and values;
    None if one is of none of them."""
    found = []
    for part in text.split(" · "):
        match = next(((key, v) for key in keys if (v := said(key, part, you)) is not None), None)
        if match is None:
            return None
        found.append(match)
    return found


def event_keys() -> Iterator[str]:
    yield from EVENTS
    for family in FAMILIES:
        yield from (key for key in EN if key.startswith(family) and not key.endswith(".you"))


def piece(text: str, turn: int, reading: Reading, line: str) -> bool:
    """Read one sentence of a turn's story (a line, or a part of a one-line turn);
    whether it was one the reader knows."""
    dice = []
    while (suffix := die_suffix().search(text)) is not None:
        dice.insert(0, row_of(suffix["row"]))
        text = text[: suffix.start()]
    if (own := ahead_line(text, turn, reading, line)) is not None:
        return own
    if (m := shape("story.roll").match(text)) is not None:
        reading.add(
            "dice", turn, line, dice=dice_of(m["dice"], reading.emojis), total=number(m["total"])
        )
    elif (m := shape("story.scores").match(text)) is not None:
        scores = parts(m["scores"], "story.score")
        if scores is None:
            return False
        reading.add(
            "scores",
            turn,
            line,
            scores=[(player(v["name"]), number(v["total"])) for _, v in scores],
        )
    elif any(shape(key).match(text) for key in NOTHING):
        pass
    elif (
        nobody := next(((k, m) for k in NOBODY if (m := shape(k).match(text))), None)
    ) is not None:
        key, m = nobody
        reading.add("nobody", turn, line, phase=NOBODY[key], total=number(m["total"]))
    elif (action := action_of(text, reading.you)) is not None:
        phase, found = action
        for key, values, marked in found:
            reading.add(
                key.removeprefix("story."),
                turn,
                line,
                phase=phase,
                player=player(values["name"]),
                **converted(values, reading.emojis, "name"),
            )
            if marked is not None and not add_mark(
                reading, turn, line, player(values["name"]), phase, marked
            ):
                return False
    else:
        text, mark = unmarked(text)
        key, values = next(
            ((k, v) for k in event_keys() if (v := said(k, text, reading.you)) is not None),
            (None, None),
        )
        if key is None or values is None or (mark is not None and key not in MARKED):
            return False
        who = {"player": player(values["name"])} if "name" in values else {}
        if "names" in values:
            who = {"players": players(values["names"])}
        reading.add(
            key.removeprefix("event."),
            turn,
            line,
            **who,
            **converted(values, reading.emojis, "name", "names"),
        )
        if mark is not None and not add_mark(reading, turn, line, who["player"], MARKED[key], mark):
            return False
    if dice:
        last = reading.claims[-1] if reading.claims else None
        lock = last.values.get("row") if last is not None and last.kind == "locked" else None
        reading.add("die", turn, line, rows=dice, lock=lock)
    return True


Item = tuple[str, dict[str, str], tuple[str, dict[str, str]] | None]
"""An action's item: its sentence's key and values, and the rule's mark it carries."""


def action_of(text: str, you: int | None = None) -> tuple[str, list[Item]] | None:
    for key, phase in ACTIONS.items():
        m = shape(key).match(text)
        if m is not None:
            found: list[Item] = []
            for part in m["what"].split(" · "):
                item, mark = unmarked(part)
                read = parts(item, *ITEMS, you=you)
                if read is None or len(read) != 1:
                    break
                found.append((*read[0], mark))
            else:
                return phase, found
    return None


def converted(values: dict[str, str], emojis: Emojis, *skip: str) -> dict[str, Any]:
    """A sentence's other values as figures: rows, dice, numbers."""
    out: dict[str, Any] = {}
    for key, value in values.items():
        if key in skip or value is None:
            continue
        if key in ("row", "emoji"):
            out["row"] = row_of(value)
        elif key == "dice":
            out["dice"] = dice_of(value, emojis)
        elif key == "steps":
            out["steps"] = number(re.findall(r"\d+", value)[0])
        elif key == "rating":  # ``1624``, ``1500?`` while provisional
            out["rating"], out["provisional"] = number(value.rstrip("?")), value.endswith("?")
        else:
            out[key] = number(value) if re.fullmatch(r"[−+±]?[0-9][0-9,]*", value) else value
    return out


def pieces(what: str, turn: int, reading: Reading, line: str) -> bool:
    """A one-line story: sentences joined by `` · `` (which a sentence may hold too: the
    longest run of parts that reads as one sentence is taken)."""
    parts = what.split(" · ")
    start = 0
    while start < len(parts):
        for end in range(len(parts), start, -1):
            trial = Reading(emojis=reading.emojis)
            if piece(" · ".join(parts[start:end]), turn, trial, line):
                reading.claims += trial.claims
                start = end
                break
        else:
            return False
    return True


# --- the messages ---------------------------------------------------------------
def read(texts: list[str], emojis: Emojis | None = None) -> Reading:
    """Every claim of the channel's messages ``texts``, in order (``emojis``: the
    application's, by id, for the dice shown as emojis)."""
    reading = Reading(emojis=emojis or {})
    for index, text in enumerate(texts):
        context: tuple[Any, ...] = ()
        first = len(reading.claims)
        for line in text.splitlines():
            context = read_line(line, context, reading)
            levels(line, reading)
        for claim in reading.claims[first:]:
            claim.message = index
    for claim in reading.claims:  # the turns summed up before the next one told
        if claim.kind == "earlier":
            claim.values["next"] = next(
                (
                    c.turn
                    for c in reading.claims
                    if c.kind == "header" and c.message == claim.message and c.line != claim.line
                ),
                0,
            )
    return reading


def levels(line: str, reading: Reading) -> None:
    """The level claimed of each computer ``line`` names with one."""
    for mention in split_names(line):
        level = next(
            (
                lv
                for lv in LEVELS
                if re.fullmatch(
                    re.escape(EN["lobby.computer"])
                    .replace(r"\{name\}", ".+")
                    .replace(r"\{level\}", re.escape(EN[f"level.{lv}"])),
                    mention,
                )
            ),
            None,
        )
        if level is not None:
            reading.add("level", None, line, player=player(mention), level=level)


def read_line(line: str, context: tuple[Any, ...], reading: Reading) -> tuple[Any, ...]:
    """Read ``line`` in ``context`` (the block it is part of); the context after it."""
    if not line.strip():
        return ()
    if (m := shape("story.header_done").match(line)) is not None:
        turn = int(m["turn"])
        reading.add("header", turn, line, active=player(m["active"]))
        return ("turn", turn)
    if (m := shape("story.header").match(line)) is not None:
        turn = int(m["turn"])
        reading.add("header", turn, line, active=player(m["active"]))
        reading.add("live", turn, line)
        return ("turn", turn, "live")
    if (m := shape("turn.automatic").match(line)) is not None:
        turn = int(m["turn"])
        reading.add("header", turn, line, active=player(m["active"]))
        reason = why(m["why"])
        if reason is not None:
            reading.add(reason[0], turn, line, players=reason[1])
        if reason is None or not pieces(m["what"], turn, reading, line):
            reading.unread.append(line)
        return ("played",)
    if (m := shape("turn.missed").match(line)) is not None:
        first, last = int(m["first"]), int(m["last"])
        reading.add("missed", None, line, first=first, last=last)
        return ("summary", first, last)
    if (m := shape("turn.run").match(line)) is not None:
        first, last = int(m["first"]), int(m["last"])
        reason = why(m["why"])
        if reason is None:
            reading.unread.append(line)
        else:
            reading.add(f"run.{reason[0]}", None, line, players=reason[1], first=first, last=last)
        return ("summary", first, last)
    if (m := shape("lobby.started").match(line)) is not None:
        reading.add("started", None, line, title=m["title"], players=players(m["names"]))
        return ("start",)
    if (
        context[:1] == ("start",)
        and (
            key := next(
                (k for k in EN if k.startswith("lobby.uncounted.") and shape(k).match(line)), None
            )
        )
        is not None
    ):
        reading.add(key.removeprefix("lobby."), None, line)
        return context
    if (m := shape("turn.earlier").match(line)) is not None:
        reading.add("earlier", None, line, count=int(m["count"]))
        return ("played",)
    if (m := shape("end.title").match(line)) is not None:
        reading.add("title", None, line, title=m["title"])
        return ("end",)
    if context[:1] == ("summary",):
        if (m := shape("turn.missed_turn").match(line)) is not None:
            turn = int(m["turn"])
            reading.add("summary_turn", turn, line, first=context[1], last=context[2])
            if not pieces(m["what"], turn, reading, line):
                reading.unread.append(line)
            return context
        if piece(line, context[2], reading, line):
            for claim in reading.claims[-1:]:
                if claim.kind == "scores":
                    claim.kind = "summary_scores"
            return context
    if context[:1] == ("turn",) and piece(line, context[1], reading, line):
        if context[2:] and reading.claims[-1].kind == "scores":
            reading.claims[-1].kind = "live"  # the scores now, of a turn still open
        return context
    if context[2:] == ("live",) and waiting(line, context[1], reading):
        return context
    if context[2:] == ("live",) and live(line):
        reading.add("live", context[1], line)
        return context
    if context[:1] == ("end",) and end_line(line, reading):
        return context
    reading.unread.append(line)
    return context


LIVE = (
    "turn.white_sum",
    "turn.action2",
    "turn.action3",
    "turn.roll",
    "turn.reroll",
    "turn.place",
    "turn.final_round",
    "turn.deadline",
)
"""What an open turn asks of whom, and by when (besides its status line)."""
STATUS = ("status.deciding", "status.decided", "status.nothing")


def live(line: str) -> bool:
    """Whether ``line`` is one of an open turn's calls: what it asks, who decides."""
    if any(shape(key).match(line) for key in LIVE):
        return True
    return all(any(shape(key).match(part) for key in STATUS) for part in line.split(" · "))


def waiting(line: str, turn: int, reading: Reading) -> bool:
    """``⏳ Waiting for … — asked <t:…:R>…``: whom an open turn waits for, since when."""
    for key in ("turn.waiting", "turn.waiting_open"):
        if (m := shape(key).match(line)) is not None:
            deadline = {"deadline": int(m["deadline"])} if "deadline" in m.groupdict() else {}
            reading.add(
                "waiting",
                turn,
                line,
                players=players(m["names"]),
                since=int(m["since"]),
                **deadline,
            )
            return True
    return False


def why(text: str) -> tuple[str, list[int]] | None:
    """Why a turn (or a run of turns) was played without asking anyone: the reason's
    kind (``unasked.nobody``...) and the players it names."""
    for key in (k for k in EN if k.startswith("turn.unasked.")):
        m = shape(key).match(text)
        if m is not None:
            return key.removeprefix("turn."), players(
                m["names"]
            ) if "names" in m.groupdict() else []
    return None


def end_line(line: str, reading: Reading) -> bool:
    """A line of the final message after its title."""
    for key in ("end.line_rated", "end.line"):
        if (m := shape(key).match(line)) is not None:
            values = m.groupdict()
            reading.add(
                "rank",
                None,
                line,
                player=player(values["name"]),
                **converted(values, reading.emojis, "name"),
            )
            return True
    if (m := shape("end.winner").match(line)) is not None:
        reading.add(
            "winner",
            None,
            line,
            players=players(m["names"]),
            plural=m["verb"] == EN["end.verb.other"],
        )
        return True
    if (m := shape("end.wins").match(line)) is not None:
        reading.add(
            "wins",
            None,
            line,
            player=player(m["name"]),
            count=number(re.findall(r"\d+", m["nth"])[0]),
        )
        return True
    if (m := shape("review.end.accuracy").match(line)) is not None:
        people = parts(m["accuracies"], "review.end.person")
        if people is None:
            return False
        reading.add("accuracy", None, line, players=[player(v["name"]) for _, v in people])
        return True
    return False
