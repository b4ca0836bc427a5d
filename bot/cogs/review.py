"""``/qwixx review``: a finished game's decisions set against the ``hard`` computer
player's, shown only to whoever asks.

The handler defers ephemerally at once; the review is computed by the service in a
worker thread (:mod:`bot.service.review`) and each position is drawn off the event
loop, so nothing of it runs on a click's path.
"""

from __future__ import annotations

import discord

from bot.channel.story import mention
from bot.cogs.answers import MESSAGE_LIMIT, PrivateAnswers, answers_errors
from bot.cogs.images import png_file
from bot.cogs.views import hint_content, option_label
from bot.i18n.words import decimal, percent, plural, t
from bot.render import render_sheet
from bot.service.errors import ServiceError
from bot.service.games import GameService
from bot.service.review import Review, ReviewedDecision, ReviewService

QUIET = discord.AllowedMentions.none()


def review_content(
    review: Review, asker: int, names: dict[int, str]
) -> tuple[str, list[ReviewedDecision]]:
    """The review's text and the decisions it shows: the asker's costliest if they
    played, else each person's costliest one; the accuracy of every person first, its
    definition last."""
    finished = review.record.finished_at or review.record.updated_at
    lines = [t("review.title", title=review.game.title, date=f"<t:{int(finished)}:d>")]
    for person in review.people:
        accuracy = review.accuracy(person)
        if accuracy is None:
            lines.append(t("review.no_decisions", name=mention(person)))
        else:
            lines.append(
                t(
                    "review.accuracy",
                    name=mention(person),
                    accuracy=percent(accuracy),
                    decisions=plural("unit.decision", len(review.decisions(person))),
                )
            )
    if asker in review.people:
        shown, header = review.costliest(asker), t("review.costliest_yours")
    else:
        shown = [r for p in review.people for r in review.costliest(p, 1)]
        header = t("review.costliest_each")
    lines += ["", header if shown else t("review.clean")]
    for number, rated in enumerate(shown, start=1):
        lines.append(decision_line(number, rated))
        lines.append(hint_content(rated.before, rated.player, rated.hint))
    footer = t("review.footer")
    body = "\n".join(lines)
    room = MESSAGE_LIMIT - len(footer) - 2
    if len(body) > room:
        body = body[: room - 1] + "…"
    return f"{body}\n\n{footer}", shown


def decision_line(number: int, rated: ReviewedDecision) -> str:
    game, player = rated.before, rated.player
    return t(
        "review.decision",
        number=number,
        turn=rated.turn,
        name=mention(player),
        chosen=option_label(game, player, rated.move),
        best=option_label(game, player, rated.hint.move),
        cost=decimal(rated.loss, 1),
    )


class ReviewHandlers(PrivateAnswers):
    """The handlers behind ``/qwixx review`` and **Review**."""

    def __init__(
        self,
        reviews: ReviewService,
        games: GameService,
    ) -> None:
        super().__init__()
        self.reviews = reviews
        self.games = games

    @answers_errors
    async def on_review(self, interaction: discord.Interaction, number: int | None) -> None:
        """``/qwixx review game:N``: game N of ``/qwixx history`` (without N: this
        channel's game, or the newest finished one)."""
        guild, channel = interaction.guild_id, interaction.channel_id
        if guild is None or channel is None:
            raise ServiceError("error.guild_only")
        await interaction.response.defer(ephemeral=True, thinking=True)
        game_id = await self.reviews.numbered(guild, channel, number)
        await self.show(interaction, game_id)

    @answers_errors
    async def on_review_button(self, interaction: discord.Interaction, game_id: int) -> None:
        """**Review** under a finished game's final message: the same review, for
        whoever clicks (computed then, in a worker thread, never on a move's path)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.show(interaction, game_id)

    async def show(self, interaction: discord.Interaction, game_id: int) -> None:
        guild, channel = interaction.guild_id or 0, interaction.channel_id or 0
        review = await self.reviews.review(guild, channel, game_id)
        names = await self.games.names.of(guild, review.record.players)
        content, shown = review_content(review, interaction.user.id, names)
        files = [
            await png_file(
                render_sheet,
                r.before,
                r.player,
                names[r.player],
                [r.hint.move],
                name=f"review-{k}.png",
                description=t("review.image", turn=r.turn, name=names[r.player]),
            )
            for k, r in enumerate(shown, start=1)
        ]
        await interaction.edit_original_response(
            content=content, attachments=files, allowed_mentions=QUIET
        )
