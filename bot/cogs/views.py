"""Message builders: the text and components of lobby, turn, sheet and end messages.

Text names players by mention (``<@id>``); only new messages about a pending
decision let those mentions ping, through ``AllowedMentions``.
"""

from __future__ import annotations

from collections.abc import Iterable

import discord

from bot.cogs.buttons import LobbyButton, MoveButton, TurnButton
from bot.messages import emoji, t
from bot.rules import VARIANTS, Event, Game, Move
from bot.store import GameRecord

ROW_STYLE = {"red": discord.ButtonStyle.danger, "green": discord.ButtonStyle.success,
             "blue": discord.ButtonStyle.primary}


def mention(user: int) -> str:
    return f"<@{user}>"


def mentions(users: Iterable[int]) -> str:
    return ", ".join(mention(u) for u in users)


# --- lobby ---------------------------------------------------------------
def lobby_content(record: GameRecord) -> str:
    cls = VARIANTS[record.variant]
    return "\n".join([
        t("lobby.title", title=cls.title, host=mention(record.host_id)),
        t("lobby.players", count=len(record.players), max=cls.max_players,
          names=mentions(record.players)),
        t("lobby.hint", variant=record.variant, min=cls.min_players),
    ])


def lobby_view(record: GameRecord) -> discord.ui.View:
    cls = VARIANTS[record.variant]
    view = discord.ui.View(timeout=None)
    full = len(record.players) >= cls.max_players
    view.add_item(LobbyButton(record.id, "join", disabled=full))
    view.add_item(LobbyButton(record.id, "leave"))
    view.add_item(LobbyButton(record.id, "start",
                              disabled=len(record.players) < cls.min_players))
    view.add_item(LobbyButton(record.id, "cancel"))
    return view


def lobby_closed_content(record: GameRecord, key: str, by: int) -> str:
    title = VARIANTS[record.variant].title
    return t(key, title=title, names=mentions(record.players), name=mention(by))


# --- events --------------------------------------------------------------
def describe(events: Iterable[Event]) -> list[str]:
    """Plain words for what happened; crosses and passes share one line."""
    moves: list[str] = []
    lines: list[str] = []
    for event in events:
        data, who = event.data, mention(event.player) if event.player else ""
        if event.kind == "crossed":
            key = "event.lucky" if data.get("via") == "lucky" else "event.crossed"
            moves.append(t(key, name=who, emoji=emoji(data["row"]), number=data["number"]))
        elif event.kind == "passed":
            moves.append(t("event.passed", name=who))
        elif event.kind == "locked":
            lines.append(t("event.locked", name=who, row=data["row"]))
        elif event.kind == "die_removed":
            lines[-1:] = [f"{lines[-1]} — {t('event.die_removed', row=data['row'])}"]
        elif event.kind == "penalty":
            lines.append(t("event.penalty", name=who, **data))
        elif event.kind == "game_over":
            lines.append(t(f"event.game_over.{data['reason']}"))
    return ([" · ".join(moves)] if moves else []) + lines


def turn_segments(events: Iterable[Event]) -> list[tuple[Event | None, list[Event]]]:
    """Events cut at each new turn: what closed the old turn comes first.

    A turn in which nobody had a choice is played out at once; it shows up as a
    complete segment between two "turn" events.
    """
    segments: list[tuple[Event | None, list[Event]]] = [(None, [])]
    for event in events:
        if event.kind == "turn":
            segments.append((event, []))
        else:
            segments[-1][1].append(event)
    return segments


def played_out(segments: list[tuple[Event | None, list[Event]]], finished: bool) -> list[str]:
    """Lines for turns that began and ended without anyone's click."""
    done = segments[1:] if finished else segments[1:-1]
    return [t("turn.automatic", turn=start.data["turn"], active=mention(start.player or 0),
              what=" · ".join(describe(e for e in events if e.kind != "passed")))
            for start, events in done if start is not None]


# --- the turn message ----------------------------------------------------
def turn_content(game: Game, preface: Iterable[str] = ()) -> str:
    decision = game.decision()
    active = mention(game.active)
    lines = [*preface, t("turn.header", turn=game.turn, active=active)]
    if decision.phase == "action1":
        lines.append(t("turn.white_sum", total=game.white_sum))  # type: ignore[attr-defined]
        lines.append(t("turn.colour_hint", active=active))
    else:
        lines.append(t("turn.action2", active=active))
    lines.append(status_line(game))
    return "\n".join(lines)


def status_line(game: Game) -> str:
    waiting = game.decision().waiting
    return "  ".join(
        f"{t('status.waiting') if p in waiting else t('status.decided')} {mention(p)}"
        for p in game.players)


def turn_view(record: GameRecord, game: Game) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(TurnButton(record.id, game.turn, "sheet"))
    view.add_item(TurnButton(record.id, game.turn, "pass"))
    return view


def turn_over_content(turn: int, summary: Iterable[str]) -> str:
    return "\n".join([t("turn.over", turn=turn), *summary])


def ping(users: Iterable[int]) -> discord.AllowedMentions:
    return discord.AllowedMentions(everyone=False, roles=False,
                                   users=[discord.Object(u) for u in users])


# --- a player's sheet ----------------------------------------------------
def sheet_content(game: Game, player: int, header: str = "") -> str:
    decision = game.decision()
    lines = [header] if header else []
    if not game.legal_moves(player):
        lines.append(t("sheet.nothing", turn=game.turn))
    else:
        total = getattr(game, "white_sum", "")
        phase = t(f"sheet.phase.{decision.phase}", total=total)
        lines.append(t("sheet.choose", turn=game.turn, phase=phase))
        if decision.phase == "action1" and player not in decision.waiting:
            lines.append(t("sheet.changed"))
    return "\n".join(lines)


def option_label(game: Game, player: int, move: Move) -> str:
    if move.kind == "pass":
        return t("button.pass")
    mark = emoji(move.row or "")
    if move.kind == "lucky":
        label = t("option.lucky", lucky=game.white_sum, emoji=mark,  # type: ignore[attr-defined]
                  number=move.number)
    elif game.decision().phase == "action2":
        white, colour = game.colour_dice(move)  # type: ignore[attr-defined]
        label = t("option.colour", emoji=mark, number=move.number, white=white, colour=colour)
    else:
        label = t("option.cross", emoji=mark, number=move.number)
    skipped = game.skipped_by(player, move)  # type: ignore[attr-defined]
    return label + (t("option.skips", count=len(skipped)) if skipped else "")


def sheet_view(record: GameRecord, game: Game, player: int) -> discord.ui.View | None:
    moves = game.legal_moves(player)
    if not moves:
        return None
    view = discord.ui.View(timeout=None)
    phase = game.decision().phase
    for move in moves[:25]:
        style = ROW_STYLE.get(move.row or "", discord.ButtonStyle.secondary)
        view.add_item(MoveButton(record.id, game.turn, phase, move,
                                 option_label(game, player, move), style))
    return view


def you_did(move: Move) -> str:
    if move.kind == "pass":
        return t("you.passed")
    return t("you.crossed", emoji=emoji(move.row or ""), number=move.number)


# --- the end -------------------------------------------------------------
def end_content(game: Game, preface: Iterable[str] = ()) -> str:
    ranking = game.ranking()
    winners = [s.player for s in ranking if s.rank == 1]
    lines = [*preface, t("end.title", title=game.title)]
    lines += [t("end.line", rank=s.rank, name=mention(s.player), total=s.total)
              for s in ranking]
    lines.append(t("end.winner", names=mentions(winners), verb="wins" if len(winners) == 1
                   else "share the win"))
    return "\n".join(lines)
