"""Message builders: the text and components of lobby, turn, sheet and end messages.

Text names players by mention (``<@id>``); only new messages about a pending
decision let those mentions ping, through ``AllowedMentions``.
"""

from __future__ import annotations

from collections.abc import Iterable

import discord

from bot.cogs.buttons import FieldSelect, LobbyButton, MoveButton, TurnButton, encode_move
from bot.messages import emoji, t
from bot.players import computer_name, is_computer
from bot.rules import PASS, VARIANTS, Event, Game, Move
from bot.service.timing import format_duration
from bot.store import GameRecord

ROW_STYLE = {"red": discord.ButtonStyle.danger, "green": discord.ButtonStyle.success,
             "blue": discord.ButtonStyle.primary}


def mention(user: int) -> str:
    """A Discord mention, or a computer seat's name."""
    return f"🤖 {computer_name(user)}" if is_computer(user) else f"<@{user}>"


def mentions(users: Iterable[int]) -> str:
    return ", ".join(mention(u) for u in users)


# --- lobby ---------------------------------------------------------------
def lobby_content(record: GameRecord) -> str:
    cls = VARIANTS[record.variant]
    return "\n".join([
        t("lobby.title", title=cls.title, host=mention(record.host_id)),
        t("lobby.players", count=len(record.players), max=cls.max_players,
          names=mentions(record.players)),
        t("lobby.hint", variant=record.variant, min=cls.min_players,
          turn_time=format_duration(record.turn_time)),
    ])


def lobby_view(record: GameRecord) -> discord.ui.View:
    cls = VARIANTS[record.variant]
    view = discord.ui.View(timeout=None)
    full = len(record.players) >= cls.max_players
    view.add_item(LobbyButton(record.id, "join", disabled=full))
    view.add_item(LobbyButton(record.id, "leave"))
    view.add_item(LobbyButton(record.id, "computer", disabled=full))
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
        elif event.kind == "placed":
            moves.append(t("event.placed", name=who, number=data["number"],
                           emoji=emoji(data["row"])))
        elif event.kind == "pawn_moved":
            lines.append(t("event.pawn_moved", name=who, steps=data["steps"],
                           emoji=emoji(data["row"]), number=data["number"], bonus=data["bonus"]))
        elif event.kind == "expired":
            lines.append(t("event.expired", names=mentions(data["players"])))
        elif event.kind == "away":
            lines.append(t(f"event.away.{data['reason']}", name=who))
        elif event.kind == "finish_reached":
            lines.append(t("event.finish_reached", name=who))
        elif event.kind == "rolled":
            key = "event.rerolled" if data["attempt"] else "event.rolled"
            lines.append(t(key, name=who, dice=dice_text(data["dice"]), total=data["total"]))
        elif event.kind == "failed_throw":
            lines.append(t("event.failed_throw", name=who, **data))
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
def turn_content(game: Game, preface: Iterable[str] = (), deadline: float | None = None) -> str:
    active = mention(game.active)
    lines = [*preface, t("turn.header", turn=game.turn, active=active)]
    lines += phase_lines(game, game.decision().phase, active)
    final_turn = getattr(game, "final_turn", None)
    if final_turn is not None:
        still = [game.players[(turn - 1) % len(game.players)]
                 for turn in range(game.turn, final_turn + 1)]
        lines.append(t("turn.final_round", names=mentions(still)))
    lines.append(status_line(game))
    return "\n".join(lines + deadline_lines(deadline))


def deadline_lines(deadline: float | None) -> list[str]:
    """``⏳ Decide <t:…:R>``: Discord shows it in each reader's time, counting down."""
    return [] if deadline is None else [t("turn.deadline", deadline=int(deadline))]


def message_link(record: GameRecord) -> str:
    return (f"https://discord.com/channels/{record.guild_id}/{record.channel_id}/"
            f"{record.message_id}")


def phase_lines(game: Game, phase: str, active: str) -> list[str]:
    """What the phase asks of whom, in words."""
    if phase == "action1":
        return [t("turn.white_sum", total=game.white_sum),  # type: ignore[attr-defined]
                t("turn.colour_hint", active=active)]
    if phase in ("action2", "action3"):
        return [t(f"turn.{phase}", active=active)]
    dice = game.dice  # type: ignore[attr-defined]
    rows = " or ".join(f"{emoji(r)} {r}" for r in dice)
    return [t(f"turn.{phase}", active=active, dice=dice_text(dice),
              total=game.total, rows=rows)]  # type: ignore[attr-defined]


def dice_text(dice: dict[str, int]) -> str:
    return " ".join(f"{emoji(colour)}{value}" for colour, value in dice.items())


def status_line(game: Game) -> str:
    """Everyone's state in phases open to all; otherwise just who is awaited."""
    decision = game.decision()
    everyone = decision.phase in game.simultaneous_phases
    shown = game.players if everyone else sorted(decision.waiting)
    return "  ".join(
        f"{t('status.waiting') if p in decision.waiting else t('status.decided')} {mention(p)}"
        for p in shown)


def turn_view(record: GameRecord, game: Game) -> discord.ui.View:
    """"Open my sheet", and "Pass" when a pass needs no sheet to be understood."""
    view = discord.ui.View(timeout=None)
    view.add_item(TurnButton(record.id, game.turn, "sheet"))
    if any(PASS in game.legal_moves(p) for p in game.decision().waiting):
        view.add_item(TurnButton(record.id, game.turn, "pass"))
    return view


# Told in the next message posted, whatever turn it belongs to.
NOTICES = ("expired", "away")


def turn_so_far(game: Game, summary: Iterable[str]) -> str:
    """A turn message whose decisions moved on to a newer message."""
    return "\n".join([t("turn.header", turn=game.turn, active=mention(game.active)), *summary])


def turn_over_content(turn: int, summary: Iterable[str]) -> str:
    return "\n".join([t("turn.over", turn=turn), *summary])


def ping(users: Iterable[int]) -> discord.AllowedMentions:
    return discord.AllowedMentions(everyone=False, roles=False,
                                   users=[discord.Object(u) for u in users if not is_computer(u)])


# --- a player's sheet ----------------------------------------------------
def sheet_content(game: Game, player: int, header: str = "") -> str:
    decision = game.decision()
    lines = [header] if header else []
    if not game.legal_moves(player):
        lines.append(t("sheet.nothing", turn=game.turn))
    else:
        total = getattr(game, "white_sum", None) or getattr(game, "total", "")
        phase = t(f"sheet.phase.{decision.phase}", total=total)
        lines.append(t("sheet.choose", turn=game.turn, phase=phase))
        if decision.phase == "action1" and player not in decision.waiting:
            lines.append(t("sheet.changed"))
    return "\n".join(lines)


def option_label(game: Game, player: int, move: Move) -> str:
    phase = game.decision().phase
    if move.kind == "pass":
        return t("option.stay") if phase == "action3" else t("button.pass")
    if move.kind == "pawn":
        return pawn_label(game, player, move)
    if move.kind in ("roll", "reroll"):
        dice = move.dice or getattr(game, "rolled", ())
        return t(f"option.{move.kind}", dice="".join(emoji(c) for c in dice))
    if move.kind == "keep":
        return t("option.keep", total=getattr(game, "total", ""))
    if move.kind == "place":
        return field_label(game, player, move)
    mark = emoji(move.row or "")
    if move.kind == "lucky":
        label = t("option.lucky", lucky=game.white_sum, emoji=mark,  # type: ignore[attr-defined]
                  number=move.number)
    elif phase == "action2":
        white, colour = game.colour_dice(move)  # type: ignore[attr-defined]
        label = t("option.colour", emoji=mark, number=move.number, white=white, colour=colour)
    else:
        label = t("option.cross", emoji=mark, number=move.number)
    skipped = game.skipped_by(player, move)  # type: ignore[attr-defined]
    return label + (t("option.skips", count=len(skipped)) if skipped else "")


def pawn_label(game: Game, player: int, move: Move) -> str:
    """``♟ 3 → 🟩 10 (cross, bonus 7)``: where the pawn lands and what it does."""
    target = game.pawn_target(player, move.number or 0)  # type: ignore[attr-defined]
    assert target is not None
    _, field, crosses = target
    what = t("option.pawn.cross") if crosses else t("option.pawn.crossed")
    return t("option.pawn", steps=move.number, emoji=emoji(field.colour), number=field.number,
             what=what, bonus=field.bonus)


def field_label(game: Game, player: int, move: Move) -> str:
    """A Qwinto field by its place in the row and its written neighbours."""
    from bot.rules.qwinto import PENTAGONS, ROW_COLUMNS

    row, column = move.row or "", move.number or 0
    written = game.sheets[player].fields[row]  # type: ignore[attr-defined]
    left = [written[c] for c in ROW_COLUMNS[row] if c < column and c in written]
    right = [written[c] for c in ROW_COLUMNS[row] if c > column and c in written]
    if left and right:
        where = t("option.where.between", left=left[-1], right=right[0])
    elif left or right:
        where = t("option.where.after", left=left[-1]) if left else \
            t("option.where.before", right=right[0])
    else:
        where = t("option.where.empty")
    label = t("option.field", emoji=emoji(row), position=ROW_COLUMNS[row].index(column) + 1,
              where=where)
    return label + (t("option.field_pentagon") if column in PENTAGONS[row] else "")


def sheet_view(record: GameRecord, game: Game, player: int) -> discord.ui.View | None:
    """One button per option; fields to write in come as one select per row."""
    moves = game.legal_moves(player) if record.status == "running" else []
    if not moves:
        return None
    view = discord.ui.View(timeout=None)
    phase = game.decision().phase
    fields = [m for m in moves if m.kind == "place"]
    for row in dict.fromkeys(m.row for m in fields):
        options = [m for m in fields if m.row == row]
        placeholder = t("option.pick_row", total=getattr(game, "total", ""), emoji=emoji(row),
                        row=row)
        view.add_item(FieldSelect(record.id, game.turn, phase, row or "", placeholder,
                                  [(encode_move(m), field_label(game, player, m))
                                   for m in options]))
    room = 5 * (5 - len(view.children))  # a select fills a whole row of five
    for move in [m for m in moves if m.kind != "place"][:room]:
        style = ROW_STYLE.get(move.row or "", discord.ButtonStyle.secondary)
        view.add_item(MoveButton(record.id, game.turn, phase, move,
                                 option_label(game, player, move), style))
    return view


def you_did(move: Move) -> str:
    if move.kind == "pass":
        return t("you.passed")
    if move.kind in ("roll", "keep", "reroll"):
        return t({"roll": "you.rolled", "keep": "you.kept", "reroll": "you.rerolled"}[move.kind])
    if move.kind == "place":
        return t("you.placed", emoji=emoji(move.row or ""), row=move.row)
    if move.kind == "pawn":
        return t("you.moved", steps=move.number)
    return t("you.crossed", emoji=emoji(move.row or ""), number=move.number)


# --- the end -------------------------------------------------------------
def end_content(game: Game, preface: Iterable[str] = (),
                wins: dict[int, int] | None = None) -> str:
    """The ranking, the winner named, and (``wins``) each winner's count on this server."""
    ranking = game.ranking()
    winners = [s.player for s in ranking if s.rank == 1]
    lines = [*preface, t("end.title", title=game.title)]
    lines += [t("end.line", rank=s.rank, name=mention(s.player), total=s.total)
              for s in ranking]
    lines.append(t("end.winner", names=mentions(winners), verb="wins" if len(winners) == 1
                   else "share the win"))
    lines += [t("end.wins", name=mention(p), nth=ordinal(n)) for p, n in (wins or {}).items()
              if n > 0]
    return "\n".join(lines)


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, … 11th, 12th, 13th, … 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
