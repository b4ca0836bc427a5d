"""Restart-proof components of asking less: decisions taken ahead on a player's sheet,
a Qwinto throw made with its re-throw rule, the member's standing choices for a game
and their defaults (``/qwixx preferences``).

Templates (all start with ``qx:``):

* ``qx:<game>:<turn>:ahead:<steps>`` — decide ahead for ``turn`` (``sure``: a costly one,
  confirmed); ``steps`` are ``<phase>=<move>`` (``reroll=<rule>``), comma-separated:
  ``action2=cross.red.9,action3=pawn..3``, ``roll=roll...orange+yellow,reroll=keep``
* ``qx:<game>:<turn>:roll:<move>:then-<rule>`` — throw now, with the re-throw rule
* ``qx:<game>:<turn>:<later|see-first|see-colour|see-choices|see-sheet>`` — decide later
  after all; show the sheet as it was before the choice ahead, the coloured die's choice
  again, the game's standing choices, the sheet
* ``qx:<game>:<turn>:fallback-<ask|pass>`` — the member's fallback for choices ahead
* ``qx:<game>:<turn>:rethrow`` — a select of the member's re-throw rule
* ``qx:<game>:<turn>:game-<others|timeout>`` — a select of a standing choice for the game
* ``qx:prefs:<others|timeout|fallback>`` (select),
  ``qx:prefs:<dm-on|dm-off|nudge-on|nudge-off|here>`` — ``/qwixx preferences``' components

Each parses or becomes a polite refusal (see :class:`~bot.cogs.buttons.Parsed`); a
select's value must be one of the options it was sent with.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, ClassVar, Self

import discord

from bot.cogs.buttons import (
    Malformed,
    Parsed,
    RowSelect,
    button,
    decode_move,
    encode_move,
    game_turn,
    options_of,
    picked,
)
from bot.records.plans import RETHROW_RULES, Step
from bot.rules import Move

STEP_PHASES = ("action2", "action3", "roll", "reroll")
"""The phases a step taken ahead may be for (Qwinto's ``reroll`` holds a rule)."""
SHEET_ACTIONS = ("later", "see-first", "see-colour", "see-choices", "see-sheet")
GAME_CHOICES = ("others", "timeout")
DEFAULT_CHOICES = ("others", "timeout", "fallback")
RULES = "|".join(RETHROW_RULES)


def encode_steps(steps: tuple[Step, ...]) -> str:
    """``action2=cross.red.9,action3=pawn..3``: the steps of a plan in a custom_id."""
    return ",".join(
        f"{s.phase}={s.rule if s.phase == 'reroll' else encode_move(s.move or Move('pass'))}"
        for s in steps
    )


def decode_steps(text: str) -> tuple[Step, ...]:
    """The steps :func:`encode_steps` wrote as ``text``; :class:`Malformed` otherwise."""
    parts = text.split(",")
    if not 1 <= len(parts) <= 2:
        raise Malformed(text)
    steps = []
    for part in parts:
        phase, equals, value = part.partition("=")
        if not equals or phase not in STEP_PHASES:
            raise Malformed(text)
        if phase == "reroll":
            if value not in RETHROW_RULES:
                raise Malformed(text)
            steps.append(Step(phase, rule=value))
        else:
            steps.append(Step(phase, decode_move(value)))
    return tuple(steps)


def select(
    custom_id: str, options: Sequence[tuple[str, str]], chosen: str | None, placeholder: str = ""
) -> discord.ui.Select[Any]:
    """A select of ``options`` (value, label), ``chosen`` shown as selected."""
    return discord.ui.Select(
        custom_id=custom_id,
        placeholder=placeholder[:150] or None,
        options=[
            discord.SelectOption(label=label[:100], value=value, default=value == chosen)
            for value, label in options[:25]
        ],
    )


class ChoiceSelect(RowSelect, template=r"(?!)"):
    """A select of one choice: the value picked must be an option it was sent with, and
    one of those the choice allows. (Never registered itself.)"""

    def __init__(
        self,
        custom_id: str,
        options: Sequence[tuple[str, str]],
        chosen: str | None,
        allowed: frozenset[str],
    ) -> None:
        super().__init__(select(custom_id, options, chosen))
        self.allowed = frozenset(v for v, _ in options[:25]) & allowed
        self.value = ""
        """The value picked (:meth:`read`)."""

    def read(self, interaction: discord.Interaction) -> None:
        self.value = picked(interaction, self.allowed)


# --- the sheet ------------------------------------------------------------------------
class AheadButton(
    Parsed[discord.ui.Button[Any]],
    template=r"qx:(?P<game>\d+):(?P<turn>\d+):(?P<what>ahead|sure):(?P<steps>[a-z0-9.+_=,]+)",
):
    """An option decided ahead: the plan it makes for ``turn`` rides in the id."""

    def __init__(
        self,
        game: int,
        turn: int,
        steps: tuple[Step, ...],
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        confirmed: bool = False,
    ) -> None:
        what = "sure" if confirmed else "ahead"
        super().__init__(button(f"qx:{game}:{turn}:{what}:{encode_steps(steps)}", label, style))
        self.game, self.turn, self.steps, self.confirmed = game, turn, steps, confirmed

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> Self:
        return cls(
            *game_turn(match), decode_steps(match["steps"]), confirmed=match["what"] == "sure"
        )


class ThrowButton(
    Parsed[discord.ui.Button[Any]],
    template=rf"qx:(?P<game>\d+):(?P<turn>\d+):roll:(?P<move>roll[a-z0-9.+]*)"
    rf":then-(?P<rule>{RULES})",
):
    """Qwinto's throw, made now with the rule that keeps it or throws again."""

    def __init__(
        self,
        game: int,
        turn: int,
        move: Move,
        rule: str,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        custom_id = f"qx:{game}:{turn}:roll:{encode_move(move)}:then-{rule}"
        super().__init__(button(custom_id, label, style))
        self.game, self.turn, self.move, self.rule = game, turn, move, rule

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> Self:
        return cls(*game_turn(match), decode_move(match["move"]), match["rule"])


class SheetButton(
    Parsed[discord.ui.Button[Any]],
    template=rf"qx:(?P<game>\d+):(?P<turn>\d+):(?P<action>{'|'.join(SHEET_ACTIONS)})",
):
    """Decide later after all, or another page of the sheet (see :data:`SHEET_ACTIONS`)."""

    def __init__(self, game: int, turn: int, action: str, label: str = "") -> None:
        super().__init__(button(f"qx:{game}:{turn}:{action}", label))
        self.game, self.turn, self.action = game, turn, action

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> Self:
        return cls(*game_turn(match), match["action"])


class FallbackButton(
    Parsed[discord.ui.Button[Any]],
    template=r"qx:(?P<game>\d+):(?P<turn>\d+):fallback-(?P<value>ask|pass)",
):
    """The member's fallback for choices made ahead becomes ``value`` (a default)."""

    def __init__(self, game: int, turn: int, value: str, label: str = "") -> None:
        super().__init__(button(f"qx:{game}:{turn}:fallback-{value}", label))
        self.game, self.turn, self.value = game, turn, value

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> Self:
        return cls(*game_turn(match), match["value"])


class RethrowSelect(ChoiceSelect, template=r"qx:(?P<game>\d+):(?P<turn>\d+):rethrow"):
    """The re-throw rule a throw carries (the member's default)."""

    def __init__(
        self,
        game: int,
        turn: int,
        options: Sequence[tuple[str, str]] | None = None,
        chosen: str | None = None,
    ) -> None:
        options = [(r, r) for r in RETHROW_RULES] if options is None else options
        allowed = frozenset(("ask", *RETHROW_RULES))
        super().__init__(f"qx:{game}:{turn}:rethrow", options, chosen, allowed)
        self.game, self.turn = game, turn

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> Self:
        return cls(*game_turn(match), options_of(item))


class GameChoiceSelect(
    ChoiceSelect,
    template=rf"qx:(?P<game>\d+):(?P<turn>\d+):game-(?P<name>{'|'.join(GAME_CHOICES)})",
):
    """A standing choice for this game only."""

    ALLOWED: ClassVar[dict[str, frozenset[str]]] = {
        "others": frozenset(("ask", "safe", "computer")),
        "timeout": frozenset(("pass", "computer")),
    }

    def __init__(
        self,
        game: int,
        turn: int,
        name: str,
        options: Sequence[tuple[str, str]] | None = None,
        chosen: str | None = None,
    ) -> None:
        options = [(v, v) for v in sorted(self.ALLOWED[name])] if options is None else options
        super().__init__(f"qx:{game}:{turn}:game-{name}", options, chosen, self.ALLOWED[name])
        self.game, self.turn, self.name = game, turn, name

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> Self:
        return cls(*game_turn(match), match["name"], options_of(item))


# --- /qwixx preferences ---------------------------------------------------------------
class PrefsSelect(ChoiceSelect, template=rf"qx:prefs:(?P<name>{'|'.join(DEFAULT_CHOICES)})"):
    """One of the member's default choices."""

    ALLOWED: ClassVar[dict[str, frozenset[str]]] = {
        **GameChoiceSelect.ALLOWED,
        "fallback": frozenset(("ask", "pass")),
    }

    def __init__(
        self, name: str, options: Sequence[tuple[str, str]] | None = None, chosen: str | None = None
    ) -> None:
        options = [(v, v) for v in sorted(self.ALLOWED[name])] if options is None else options
        super().__init__(f"qx:prefs:{name}", options, chosen, self.ALLOWED[name])
        self.name = name

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> Self:
        return cls(match["name"], options_of(item))


class PrefsButton(
    Parsed[discord.ui.Button[Any]],
    template=r"qx:prefs:(?P<action>dm-on|dm-off|nudge-on|nudge-off|here)",
):
    """Direct messages on or off; reminders soon and again, or not; back from time away."""

    def __init__(self, action: str, label: str = "") -> None:
        super().__init__(button(f"qx:prefs:{action}", label))
        self.action = action

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> Self:
        return cls(match["action"])
