"""``/qwixx practice``: a game against the computers on the member's private sheet,
anywhere (see :mod:`bot.service.practice`).

One message is the whole game: the command's answer (private, except in the bot's
direct messages, where it is a plain message only the member reads), edited by each
of the member's clicks through that click's own interaction, so nothing is posted
unasked and no follow-up is spent. It shows what happened since the member's last
decision (the dice, what the computers did, the scores), then their sheet and its
buttons, the usual restart-proof ones: the turn's handlers hand a practice game's
moves here (:meth:`PracticeHandlers.moved`). At the end: every turn's story that was
not shown yet, the ranking and the final sheets.

What a message says is built by the functions of this module (:func:`told_turns`,
:func:`header`, :func:`end_text`), so that it can be restyled in one place.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import discord

from bot.channel import story
from bot.channel.dice import TEXT, Faces, showing
from bot.channel.texts import end_content, seat_name
from bot.cogs.answers import Editor, PrivateAnswers, answers_errors
from bot.cogs.images import scoreboard_file
from bot.cogs.places import private
from bot.cogs.sheets import Sheets
from bot.i18n.words import plural, t
from bot.players import DEFAULT_LEVEL, computer_name, is_computer
from bot.records.games import GameRecord, StoredEvent
from bot.records.options import Options
from bot.rules import Game
from bot.service.errors import ServiceError
from bot.service.games import GameService
from bot.service.outcome import Outcome, Snapshot
from bot.service.practice import DEFAULT_COMPUTERS

STORY_ROOM = 1500
"""At most this much of a sheet's message tells the turns: the sheet's words take the
rest, and are cut first (the image and its description carry them too)."""
LIMIT = 2000  # Discord's longest message


def header(record: GameRecord, game: Game, first: bool) -> str:
    """The game's title; with ``first``, whom the member plays against and what for."""
    options = Options.of(record.options)
    if not first:
        return t("practice.title", title=game.title)
    if options.solo:
        return t("practice.header_solo", title=game.title)
    computers = ", ".join(seat_name(p, options) for p in record.players if is_computer(p))
    return t("practice.header", title=game.title, computers=computers)


def told_turns(
    game: Game,
    events: Sequence[StoredEvent],
    asked: int,
    faces: Faces = TEXT,
    room: int = STORY_ROOM,
) -> list[str]:
    """The turns ``events`` tell, oldest first, as the channel tells them: the turn the
    member was ``asked`` in whole once it is over, each later one that is over in a line
    (nobody was asked in it) but the game's last (whole), the open one so far. The dice
    as ``faces`` shows them, or as text if that would not fit in ``room`` characters,
    and then the oldest turns left out, said in a line."""
    turns: dict[int, list[StoredEvent]] = {}
    for event in events:
        turns.setdefault(event.turn, []).append(event)
    for shown in (faces, TEXT):
        with showing(shown):
            told = [told_turn(game, turn, said, asked) for turn, said in sorted(turns.items())]
        if len("\n".join(told)) <= room:
            return told
    left = 0
    while len(told) > 1 and len("\n".join(told)) > room:
        told.pop(0)
        left += 1
    return [t("practice.left_out", turns=plural("unit.turn", left)), *told] if left else told


def told_turn(game: Game, turn: int, said: Sequence[StoredEvent], asked: int) -> str:
    """One turn as :func:`told_turns` tells it."""
    if turn == game.turn and not game.finished:
        opened = t("story.header", turn=turn, active=story.mention(story.active_in(game, turn)))
        return "\n".join([opened, *story.story(said, game.variant)])
    if turn == asked or turn == game.turn:  # asked in, or the game's last: whole
        return story.finished_turn(game, turn, said)
    return story.played_out(game, turn, said)


def end_text(
    record: GameRecord,
    game: Game,
    said: str,
    events: Sequence[StoredEvent],
    asked: int,
    best: int | None,
    faces: Faces = TEXT,
) -> str:
    """The last message: what the member did, the last turns, the ranking (a game played
    alone: the score against the member's best before it)."""
    ranking = end_content(game, best=best, options=Options.of(record.options))
    title = t("practice.title", title=game.title)
    room = LIMIT - len(ranking) - len(title) - len(said) - 4
    told = told_turns(game, events, asked, faces, room)
    return "\n".join([title, said, *told, "", ranking])


def names_of(record: GameRecord, member: discord.abc.User) -> dict[int, str]:
    """Each seat's name on the final sheets: the member's, and the computers'."""
    return {p: computer_name(p) if is_computer(p) else member.display_name for p in record.players}


class PracticeHandlers(PrivateAnswers):
    """The practice games' handlers."""

    def __init__(self, service: GameService, sheets: Sheets, faces: Callable[[], Faces]) -> None:
        super().__init__()
        self.service = service
        self.sheets = sheets
        self.faces = faces

    @answers_errors
    async def on_practice(
        self,
        interaction: discord.Interaction,
        variant: str | None = None,
        computers: int | None = None,
        level: str | None = None,
        hints: bool | None = None,
    ) -> None:
        """The member's practice game: the one they play, resumed, if no option is given;
        else a new one (the one they played ends)."""
        await interaction.response.defer(ephemeral=private(interaction), thinking=True)
        edit = interaction.edit_original_response
        user = interaction.user.id
        fresh = (variant, computers, level, hints) != (None, None, None, None)
        current = None if fresh else await self.service.practice.current(user)
        if current is not None:
            lines = [header(current.record, self.game(current), True), t("practice.resumed")]
            await self.show(interaction, current, lines, self.game(current).turn, edit)
            return
        begun = await self.service.practice.begin(
            user,
            variant or "classic",
            DEFAULT_COMPUTERS if computers is None else computers,
            level or DEFAULT_LEVEL,
            bool(hints),
        )
        await self.show(interaction, begun, [header(begun.record, self.game(begun), True)], 1, edit)

    async def moved(
        self, interaction: discord.Interaction, outcome: Outcome, said: str, edit: Editor
    ) -> None:
        """After a move on a practice sheet (the computers' answers made with it): what
        happened since the member's decision, then their next one, or the end."""
        game = self.game(outcome)
        since = game.turn if outcome.before is None else outcome.before.turn
        if game.finished:
            await self.finish(interaction, outcome, said, since, edit)
        else:
            await self.show(
                interaction, outcome, [header(outcome.record, game, False), said], since, edit
            )

    async def show(
        self,
        interaction: discord.Interaction,
        current: Snapshot,
        lines: list[str],
        since: int,
        edit: Editor,
    ) -> None:
        """``lines``, the turns from ``since`` on, then the member's sheet and options."""
        game = self.game(current)
        events = await self.service.keeper.events(current.record.id, since)
        told = told_turns(game, events, since, self.faces())
        await self.sheets.show(interaction, current, "\n".join([*lines, *told]), editor=edit)

    async def finish(
        self,
        interaction: discord.Interaction,
        ended: Snapshot,
        said: str,
        since: int,
        edit: Editor,
    ) -> None:
        """The game is over: its last turns, the ranking and the final sheets."""
        record, game = ended.record, self.game(ended)
        events = await self.service.keeper.events(record.id, since)
        facts = await self.service.endings.facts(record, game, final=True, review=False)
        content = end_text(record, game, said, events, since, facts.best, self.faces())
        board = await scoreboard_file(game, names_of(record, interaction.user))
        await edit(
            content=content,
            attachments=[board],
            view=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @staticmethod
    def game(current: Snapshot) -> Game:
        if current.game is None:
            raise ServiceError("error.game_gone")
        return current.game
