"""Decisions made without asking their player, as the channel tells them: each marked
with the rule that made it — a standing choice, away until a day, time run out, a choice
made ahead — and a choice made ahead that was not made, told on a line of its own.

The events say so (:mod:`bot.service.play`): ``auto`` before a move a rule made (in an
action everyone decides in, the move is told when the action is played out, in the same
turn), ``ahead`` when a plan's step met its moment, or never did.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from types import MappingProxyType

from bot.channel.names import named, row_text
from bot.i18n.words import emoji, plural, t
from bot.records.games import StoredEvent
from bot.rules import Move

Marks = Mapping[tuple[str, int], str]
"""The mark of each decision a rule made in a turn, by phase and player."""
NO_MARKS: Marks = MappingProxyType({})
RULE_MARKS = {
    "safe": "story.by.safe",
    "computer": "story.by.computer",
    "timeout": "story.by.timeout",
}


def ruled(events: Sequence[StoredEvent]) -> tuple[Marks, dict[int, str]]:
    """The decisions of one turn made without asking their player, from the events that
    say so (``auto``: a standing choice, away, time run out; ``ahead``: a choice made
    ahead meeting its moment): the mark each one's line carries, by phase and player;
    and the lines of their own, by the place of their event: a choice ahead that could
    not be made and was asked again, or whose moment never came, and a throw kept by a
    rule (keeping tells nothing else)."""
    marks: dict[tuple[str, int], str] = {}
    own: dict[int, str] = {}
    locked: set[str] = set()
    rethrown = {e.player for e in events if e.kind == "rolled" and e.data.get("attempt")}
    for index, event in enumerate(events):
        data, player = event.data, event.player
        if event.kind == "locked":
            locked.add(data["row"])
        if player is None or event.kind not in ("auto", "ahead"):
            continue
        if event.kind == "ahead" and data["then"] == "none":
            key = "story.ahead.away" if data.get("away") else "story.ahead.unmet"
            if data.get("turn", event.turn) != event.turn:  # the game ended before it
                key = "story.ahead.unmet_later"
            own[index] = named(key, player, move=planned_text(data), turn=data.get("turn"))
            continue
        if event.kind == "ahead" and not data["applied"] and data["then"] == "ask":
            row = locked_row(data, locked)
            key = "story.ahead.asked" if row is None else "story.ahead.asked_locked"
            own[index] = named(key, player, move=planned_text(data), row=row)
            continue
        mark = rule_mark(data) if event.kind == "auto" else ahead_mark(data, locked)
        if mark is None:
            continue
        if data["phase"] == "reroll" and player not in rethrown:
            own[index] = f"{named('story.kept', player)} {mark}"
        else:
            marks[data["phase"], player] = mark
    return marks, own


def rule_mark(data: Mapping[str, object]) -> str | None:
    """``(standing choice: the Hard computer)``: the rule that made a decision."""
    rule = data.get("rule")
    if rule == "away":
        return t("story.by.away_safe" if data.get("choice") == "safe" else "story.by.away")
    key = RULE_MARKS.get(str(rule))
    return None if key is None else t(key)


def ahead_mark(data: Mapping[str, object], locked: Collection[str]) -> str:
    """``(chosen ahead)`` (Qwinto's re-throw "again if I cannot write it" named, as it
    says why the throw was kept or thrown again), or what was chosen ahead and that a
    pass followed as chosen, since it could no longer be made (a row locked this turn,
    when that is why)."""
    if data["applied"]:  # a rule that is its move (keep, throw again) says no more
        rule, move = data.get("rule"), data.get("move")
        if rule is None or (isinstance(move, dict) and move.get("kind") == rule):
            return t("story.by.ahead")
        return t("story.by.rethrow", rule=t(f"story.rule.{rule}"))
    row = locked_row(data, locked)
    key = "story.by.fallback" if row is None else "story.by.fallback_locked"
    return t(key, move=planned_text(data), row=row)


def locked_row(data: Mapping[str, object], locked: Collection[str]) -> str | None:
    """The row of a planned move, told as it reads, if it was locked in this turn."""
    move = data.get("move")
    row = move.get("row") if isinstance(move, dict) else None
    return row_text(row) if row is not None and row in locked else None


def planned_text(data: Mapping[str, object]) -> str:
    """What was chosen ahead, in words: a move (``🟥 Red 9``), or a re-throw rule."""
    move = data.get("move")
    rule = data.get("rule")
    if rule is not None:
        return t(f"story.rule.{rule}")
    if not isinstance(move, dict):
        return ""
    return move_text(Move.from_json(move), str(data["phase"]))


def move_text(move: Move, phase: str) -> str:
    """A move as a choice made ahead names it."""
    if move.kind == "pass":
        return t("story.move.stay" if phase == "action3" else "story.move.pass")
    if move.kind == "pawn":
        return t(
            "story.move.pawn",
            steps=plural("unit.field", move.number or 0),
            row=row_text(move.row or ""),
        )
    if move.kind == "roll":
        return t("story.move.roll", rows=" ".join(emoji(row) for row in move.dice))
    if move.kind in ("keep", "reroll"):
        return t(f"story.rule.{move.kind}")
    key = "story.move.lucky" if move.kind == "lucky" else "story.move.cross"
    return t(key, row=row_text(move.row or ""), number=move.number)


def marked(text: str, mark: str | None) -> str:
    return text if mark is None else f"{text} {mark}"


def chosen_beforehand(events: Sequence[StoredEvent]) -> set[int | None]:
    """The people a choice they made beforehand decided for in ``events``: a standing
    choice for other people's turns, a choice made ahead (made, or a pass in its place).
    Away until a day, or their time run out, they were not there to choose."""
    return {
        e.player
        for e in events
        if (e.kind == "auto" and e.data["rule"] in ("safe", "computer"))
        or (e.kind == "ahead" and (e.data["applied"] or e.data["then"] == "pass"))
    }
