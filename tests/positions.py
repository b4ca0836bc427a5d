"""Build any position of any variant through the public API: for tests, examples and tools.

A game is immutable outside the rules (:mod:`bot.rules.base`), so nothing should write
into one to reach a situation. :func:`position` builds the situation instead: it starts a
game with :func:`~bot.rules.new_game`, writes the wanted state into the game's JSON,
loads that with :func:`~bot.rules.game_from_json` (the variant's own loader) and then
checks the result against the rules, so the game returned is a real game of the
variant, ready for ``legal_moves``/``apply``, and one the rules could have reached (as
far as :func:`check_position` can tell; a position they could never reach raises a
:class:`~bot.rules.RuleError` saying why). :func:`reposition` does the same from a
game that exists: the parts named change, everything else stays as it was.

Examples::

    from tests.positions import position, reposition

    # Classic, player 1 to decide action 1 with white 3 + 4 on the table:
    game = position("classic", [1, 2], dice=dict(white1=3, white2=4, red=2, yellow=1,
                                                   green=5, blue=6),
                    sheets={1: "red: 2 3 5 | green: 12 11 | penalties: 1"})

    # The same, one turn later, with the red row closed by player 2 (the red die is
    # gone with it) and player 2 having passed action 1 already:
    game = reposition(game, turn=2, closed=["red"],
                      sheets={2: "red: 2 3 4 5 6 12"},
                      dice=dict(white1=1, white2=1, yellow=1, green=1, blue=6),
                      chosen={2: PASS})

    # Qwinto: player 1 rolled orange and yellow (9 in all); fields are column=number:
    game = position("qwinto", [1, 2, 3], phase="place", dice={"orange": 4, "yellow": 5},
                    sheets={1: "orange: 2=2 3=4 4=6 | failed: 1", 2: {"purple": {0: 1}}})

    # On Board: pawns, the final round (player 1 reached the finish, turn 3 is the last):
    game = position("onboard", [1, 2, 3], options={"board": "A"}, turn=2,
                    pawns={1: 37, 2: 12}, final_turn=3, finish_by=1)

The state, keyword by keyword (each optional; what is not named keeps the base game's
value, and for :func:`position` the base is the new game: turn 1, its first roll):

``sheets``
    ``{player: sheet}``; a sheet is a description or a dict, and names only the parts
    that change (a row named replaces that row; rows not named stay as they were).

    *Qwixx, Longo, On Board*: ``"red: 2 3 5 | yellow: 2 | penalties: 1"`` or
    ``{"red": [2, 3, 5], "yellow": [2], "penalties": 1}``. Crosses are listed left to
    right; a row holding a lock number (the last number, in Longo either of the last
    two) has its lock symbol crossed too, as the rules do when the number is crossed.
    *Qwinto*: ``"orange: 2=2 3=4 | failed: 1"`` (column=number, columns as in
    :data:`bot.rules.qwinto.GEOMETRY`) or ``{"orange": {2: 2, 3: 4}, "failed": 1}``.
``dice``
    The dice on the table, ``{die: face}``. Qwixx family: every die still in play,
    ``white1``, ``white2`` and the coloured die of each open row (a closed row's die has
    left the game). When ``dice`` is not given, the base game's dice stay, less the dice
    of rows ``closed`` closes. Qwinto: the colours thrown (they become ``rolled``).
``turn``, ``phase``
    The turn (the active player is ``players[(turn - 1) % len(players)]``) and its
    phase: ``action1``, ``action2`` (On Board also ``action3``); Qwinto ``roll``,
    ``reroll`` or ``place``. A finished game: give ``end_reason`` instead.
``chosen``
    ``{player: move}``: choices already made in a simultaneous phase (action 1, Qwinto's
    ``place``), each one of the player's legal moves; at least one player must still be
    undecided. A built position's ``chosen`` is empty unless given: nobody is passed for
    them, even a player without a legal cross (the rules would pass such a player at the
    start of the phase; a test can then ask for that player's choice explicitly).
``active_crossed``
    Qwixx family: whether the active player crossed something this turn (not in action 1).
``closed``
    Qwixx family: the rows closed for everyone, in the order they closed. Every row
    locked on a sheet must be among them.
``lucky``
    Longo: ``{player: (a, b)}``, two different lucky numbers from 5-13, no pair shared.
``pawns``, ``final_turn``, ``finish_by``
    On Board: ``{player: position}`` (0 the start, 1-40 the fields, one pawn a field),
    and the final round: the last turn to be played and who reached the finish first
    (whose pawn must stand in the finish area).
``attempt``
    Qwinto: 0 for the first throw of the turn, 1 after the re-roll.
``end_reason``
    A finished game: why it ended (``rows_locked``, ``penalties``, ``board_finish``,
    ``two_rows``, ``failed_throws``); the phase becomes ``finished``. The reason must
    hold; a game that is not finished must not meet any end condition.

What the checks do not ask: that some player's lock closed each closed row (a test may
close a row to study the end), that a pawn standing in the finish area announced the
final round, or that the dice are the ones the seed would throw (tests choose the dice;
the seed only decides the throws after the position).
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from bot.rules import game_from_json, new_game, qwinto
from bot.rules.base import DICE_VERSION, Game, Move, RuleError
from bot.rules.longo import LUCKY_RANGE

# A sheet as a test writes it: a description or a dict (see the module's docstring).
SheetSpec = str | Mapping[str, Any]

_UNSET: Any = object()


def position(
    variant: str,
    players: Sequence[int] = (1, 2),
    *,
    seed: int = 1,
    options: dict[str, Any] | None = None,
    solo: bool = False,
    dice_version: int = DICE_VERSION,
    **state: Any,
) -> Game:
    """A game of ``variant`` in the position ``state`` describes (see the module).

    ``players``, ``seed``, ``options``, ``solo`` and ``dice_version`` are those of
    :func:`~bot.rules.new_game`; ``state`` takes the keywords of :func:`reposition`.
    """
    return reposition(new_game(variant, players, seed, options, solo, dice_version), **state)


def reposition(
    game: Game,
    *,
    sheets: Mapping[int, SheetSpec] | None = None,
    dice: Mapping[str, int] | None = None,
    turn: int | None = None,
    phase: str | None = None,
    chosen: Mapping[int, Move] | None = None,
    active_crossed: bool | None = None,
    closed: Sequence[str] | None = None,
    lucky: Mapping[int, Sequence[int]] | None = None,
    pawns: Mapping[int, int] | None = None,
    final_turn: int | None = _UNSET,
    finish_by: int | None = _UNSET,
    attempt: int | None = None,
    end_reason: str | None = _UNSET,
) -> Game:
    """A new game: ``game`` with the parts named changed (``game`` itself is unchanged).

    When the phase changes and ``chosen`` is not given, the choices are emptied (they
    belong to the phase). Raises :class:`~bot.rules.RuleError` for a position the rules
    could never reach (:func:`check_position`).
    """
    data = copy.deepcopy(game.to_json())
    family = _family(game)
    if turn is not None:
        data["turn"] = turn
    if phase is not None:
        if phase == "finished":
            raise RuleError("a finished game is built with end_reason=..., not a phase")
        if phase != data["phase"] and chosen is None:
            data["chosen"] = {}
        data["phase"] = phase
    if end_reason is not _UNSET:
        data["end_reason"] = end_reason
        if end_reason is not None:
            data["phase"] = "finished"
            if chosen is None:  # choices are applied (or dropped) as a game ends
                data["chosen"] = {}
        elif data["phase"] == "finished":
            raise RuleError("a game that goes on needs its phase: give phase=...")
    if chosen is not None:
        data["chosen"] = {str(p): m.to_json() for p, m in chosen.items()}
    for player, spec in (sheets or {}).items():
        key = str(player)
        if key not in data["sheets"]:
            raise RuleError(f"player {player} has no sheet in this game")
        data["sheets"][key] = (_qwinto_sheet if family == "qwinto" else _qwixx_sheet)(
            game, player, data["sheets"][key], spec
        )
    if family == "qwixx":
        _set_qwixx(game, data, dice, closed, active_crossed)
    else:
        _refuse(game, closed=closed, active_crossed=active_crossed)
    if family == "qwinto":
        if dice is not None:
            order = [c for c in qwinto.ROWS if c in dice]
            unknown = set(dice) - set(order)
            if unknown:
                raise RuleError(f"Qwinto has no die {sorted(unknown)[0]!r}")
            data["dice"] = {c: dice[c] for c in order}
            data["rolled"] = order
        if attempt is not None:
            data["attempt"] = attempt
    else:
        _refuse(game, attempt=attempt)
    if lucky is not None:
        _require(game, "longo", "lucky numbers")
        data["lucky"].update({str(p): list(pair) for p, pair in lucky.items()})
    if pawns is not None or final_turn is not _UNSET or finish_by is not _UNSET:
        _require(game, "onboard", "pawns and the final round")
        data["pawns"].update({str(p): at for p, at in (pawns or {}).items()})
        if final_turn is not _UNSET:
            data["final_turn"] = final_turn
        if finish_by is not _UNSET:
            data["finish_by"] = finish_by
    try:
        built = game_from_json(data)
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, RuleError):
            raise
        raise RuleError(f"not a position of {game.title}: {error!r}") from None
    check_position(built)
    return built


# --- sheets ------------------------------------------------------------------
def _parts(spec: SheetSpec, player: int) -> dict[str, Any]:
    """A described sheet's parts: ``"red: 2 3 | penalties: 1"`` -> {"red": "2 3", ...}."""
    if not isinstance(spec, str):
        return dict(spec)
    parts: dict[str, Any] = {}
    for part in spec.split("|"):
        if not part.strip():
            continue
        name, colon, value = part.partition(":")
        if not colon:
            raise RuleError(f"player {player}'s sheet: {part.strip()!r} is not 'name: values'")
        parts[name.strip()] = value.strip()
    return parts


def _count(value: Any, what: str) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise RuleError(f"{what} must be a whole number, not {value!r}") from None
    if number < 0:
        raise RuleError(f"{what} cannot be negative")
    return number


def _qwixx_sheet(game: Game, player: int, base: dict[str, Any], spec: SheetSpec) -> dict[str, Any]:
    # Only games of the Qwixx family reach here, and they carry their rules' tables.
    rules = game.rules  # type: ignore[attr-defined]
    sheet = copy.deepcopy(base)
    for name, value in _parts(spec, player).items():
        if name == "penalties":
            sheet["penalties"] = _count(value, f"player {player}'s penalties")
            continue
        if name not in rules.row_numbers:
            raise RuleError(f"player {player}'s sheet: {game.title} has no row {name!r}")
        try:
            row = [int(n) for n in (value.split() if isinstance(value, str) else value)]
        except (TypeError, ValueError):
            raise RuleError(f"player {player}'s {name} row: {value!r} is not numbers") from None
        sheet["crossed"][name] = row
        locked = any(n in rules.locking[name] for n in row)
        if locked and name not in sheet["locks"]:
            sheet["locks"] = [*sheet["locks"], name]
        elif not locked:
            sheet["locks"] = [r for r in sheet["locks"] if r != name]
    return sheet


def _qwinto_sheet(game: Game, player: int, base: dict[str, Any], spec: SheetSpec) -> dict[str, Any]:
    rows = qwinto.ROWS
    sheet = copy.deepcopy(base)
    for name, value in _parts(spec, player).items():
        if name == "failed":
            sheet["failed"] = _count(value, f"player {player}'s failed throws")
            continue
        if name not in rows:
            raise RuleError(f"player {player}'s sheet: Qwinto has no row {name!r}")
        if isinstance(value, str):
            pairs = []
            for item in value.split():
                column, equals, number = item.partition("=")
                if not equals:
                    raise RuleError(
                        f"player {player}'s {name} row: write column=number, not {item!r}"
                    )
                pairs.append((column, number))
        else:
            pairs = list(dict(value).items())
        try:
            sheet["fields"][name] = {str(int(c)): int(n) for c, n in pairs}
        except (TypeError, ValueError):
            raise RuleError(
                f"player {player}'s {name} row: {value!r} is not column=number pairs"
            ) from None
    return sheet


# --- the Qwixx family's table ------------------------------------------------
def _set_qwixx(
    game: Game,
    data: dict[str, Any],
    dice: Mapping[str, int] | None,
    closed: Sequence[str] | None,
    active_crossed: bool | None,
) -> None:
    if closed is not None:
        data["closed"] = list(closed)
        if dice is None:  # the dice of rows closed now leave the table
            data["dice"] = {d: v for d, v in data["dice"].items() if d not in data["closed"]}
    if dice is not None:
        data["dice"] = dict(dice)
    if active_crossed is not None:
        data["active_crossed"] = active_crossed


def _family(game: Game) -> str:
    return "qwinto" if game.variant == "qwinto" else "qwixx"


def _require(game: Game, variant: str, what: str) -> None:
    if game.variant != variant:
        raise RuleError(f"{game.title} has no {what}")


def _refuse(game: Game, **given: Any) -> None:
    for name, value in given.items():
        if value is not None:
            raise RuleError(f"{game.title} has no {name.replace('_', ' ')}")


# --- the checks --------------------------------------------------------------
def check_position(game: Game) -> None:
    """Raise :class:`~bot.rules.RuleError` if the rules could never reach ``game``'s
    position (what is checked: the module's docstring, and each check's message)."""
    if game.turn < 1:
        raise RuleError(f"turn {game.turn}: turns count from 1")
    if _family(game) == "qwinto":
        _check_qwinto(game)
    else:
        _check_qwixx(game)
    if game.end_reason is None:
        if game.phase == "finished":
            raise RuleError("a finished game needs its end_reason")
        waiting = game.decision().waiting
        if game.phase in game.simultaneous_phases and not waiting:
            raise RuleError(
                "every player has chosen: the rules would have applied the "
                "choices together; leave at least one player undecided"
            )
    elif game.phase != "finished":
        raise RuleError(f"a game that ended ({game.end_reason}) is in phase 'finished'")
    _check_chosen(game)


def _check_chosen(game: Game) -> None:
    chosen = game.chosen
    if not chosen:
        return
    if game.phase not in game.simultaneous_phases:
        raise RuleError(
            f"choices wait only in {', '.join(game.simultaneous_phases)}, not in {game.phase}"
        )
    probe = reposition(game, chosen={})
    for player, move in chosen.items():
        if player not in game.players:
            raise RuleError(f"player {player} is not in this game")
        if move not in probe.legal_moves(player):
            raise RuleError(f"player {player} cannot choose {move} in this position")


def _check_qwixx(game: Any) -> None:
    rules, title = game.rules, game.title
    phases = ("action1", *game.active_phases)
    if game.end_reason is None and game.phase not in phases:
        raise RuleError(f"{title} has the phases {', '.join(phases)}, not {game.phase!r}")
    for player, sheet in game.sheets.items():
        for row in rules.row_numbers:
            _check_qwixx_row(game, player, row, sheet.crossed[row])
        derived = [
            r for r in rules.row_numbers if any(n in rules.locking[r] for n in sheet.crossed[r])
        ]
        if sorted(sheet.locks) != sorted(derived) or len(set(sheet.locks)) != len(sheet.locks):
            raise RuleError(
                f"player {player}'s locks {sheet.locks} are not the rows whose "
                f"lock number is crossed ({derived})"
            )
        if sheet.penalties > rules.penalty_limit:
            raise RuleError(
                f"player {player} has {sheet.penalties} penalties; the game ends "
                f"at {rules.penalty_limit}"
            )
        for row in sheet.locks:
            if row not in game.closed:
                raise RuleError(
                    f"player {player} locked {row}, so {row} is closed: name it in closed"
                )
    if len(set(game.closed)) != len(game.closed) or not set(game.closed) <= set(rules.row_numbers):
        raise RuleError(f"closed rows {game.closed}: each a row of {title}, once")
    in_play = game.dice_in_play()
    if list(game.dice) != in_play:
        raise RuleError(
            f"the dice on the table are {', '.join(in_play)} (a closed row's "
            f"die has left the game), not {', '.join(game.dice) or 'none'}"
        )
    for die, face in game.dice.items():
        if not (isinstance(face, int) and 1 <= face <= rules.faces):
            raise RuleError(f"the {die} die shows {face!r}; its faces are 1-{rules.faces}")
    if game.phase == "action1" and game.active_crossed:
        raise RuleError(
            "nobody has crossed anything yet in action 1: active_crossed is "
            "False until the choices are applied"
        )
    if game.variant == "longo":
        _check_lucky(game)
    if game.variant == "onboard":
        _check_pawns(game)
    ends = []
    if len(game.closed) >= rules.rows_to_end:
        ends.append("rows_locked")
    if any(s.penalties >= rules.penalty_limit for s in game.sheets.values()):
        ends.append("penalties")
    if game.variant == "onboard" and game.final_turn is not None and game.turn >= game.final_turn:
        ends.append("board_finish")  # checked as the final turn ends
    _check_end(game, ends, ("board_finish",))


def _check_qwixx_row(game: Any, player: int, row: str, crossed: list[int]) -> None:
    rules, where = game.rules, f"player {player}'s {row} row"
    index = rules.index[row]
    for number in crossed:
        if number not in index:
            raise RuleError(f"{where}: {number} is not a number of the row")
    places = [index[n] for n in crossed]
    if places != sorted(set(places)):
        raise RuleError(
            f"{where}: {crossed} — crosses go left to right, each once "
            f"(the row reads {' '.join(map(str, rules.row_numbers[row]))})"
        )
    for count, number in enumerate(crossed):
        if number in rules.locking[row]:
            if count < rules.lock_threshold:
                raise RuleError(
                    f"{where}: the lock number {number} needs "
                    f"{rules.lock_threshold} crosses before it, not {count}"
                )
            if count != len(crossed) - 1:
                raise RuleError(f"{where}: nothing is crossed after the lock number {number}")


def _check_lucky(game: Any) -> None:
    pairs = []
    for player in game.players:
        pair = tuple(game.lucky[player])
        if len(pair) != 2 or pair[0] == pair[1] or not all(n in LUCKY_RANGE for n in pair):
            raise RuleError(
                f"player {player}'s lucky numbers {pair}: two different numbers "
                f"from {LUCKY_RANGE.start}-{LUCKY_RANGE.stop - 1}"
            )
        pairs.append(frozenset(pair))
    if len(set(pairs)) != len(pairs):
        raise RuleError("no two sheets share a pair of lucky numbers")


def _check_pawns(game: Any) -> None:
    board, pawns = game.board, game.pawns
    for player, at in pawns.items():
        if not (isinstance(at, int) and 0 <= at <= board.last):
            raise RuleError(f"player {player}'s pawn at {at!r}: positions are 0-{board.last}")
    taken = [at for at in pawns.values() if at > 0]
    if len(set(taken)) != len(taken):
        raise RuleError(f"pawns {pawns}: only the start field holds more than one pawn")
    final_turn, finish_by = game.final_turn, game.finish_by
    if (final_turn is None) != (finish_by is None):
        raise RuleError("the final round needs both final_turn and finish_by")
    if finish_by is not None:
        if finish_by not in pawns or not board.in_finish(pawns[finish_by]):
            raise RuleError(
                f"player {finish_by} reached the finish: their pawn stands in "
                f"the finish area (from field {board.finish_from})"
            )
        if not 1 <= final_turn <= game.turn + len(game.players) - 1 or game.turn > final_turn + (
            game.end_reason is not None
        ):
            raise RuleError(
                f"the final round: turn {game.turn} cannot be played with the "
                f"last turn {final_turn}"
            )


def _check_qwinto(game: Any) -> None:
    q = qwinto
    for player, sheet in game.sheets.items():
        used: dict[int, set[int]] = {}
        for row in q.ROWS:
            fields = sheet.fields[row]
            where = f"player {player}'s {row} row"
            for column, number in sorted(fields.items()):
                if column not in q.ROW_COLUMNS[row]:
                    raise RuleError(
                        f"{where}: no field in column {column} (its fields: {q.ROW_COLUMNS[row]})"
                    )
                if not 1 <= number <= 3 * q.FACES:
                    raise RuleError(f"{where}: {number} is no throw of Qwinto's dice")
                if number in used.setdefault(column, set()):
                    raise RuleError(f"player {player}'s column {column} holds {number} twice")
                used[column].add(number)
            values = [n for _, n in sorted(fields.items())]
            if any(a >= b for a, b in itertools.pairwise(values)):
                raise RuleError(f"{where}: numbers rise from left to right ({fields})")
        if sheet.failed > q.FAILED_LIMIT:
            raise RuleError(
                f"player {player} has {sheet.failed} failed throws; the game "
                f"ends at {q.FAILED_LIMIT}"
            )
    phase, dice = game.phase, game.dice
    if game.end_reason is None and phase not in (q.ROLL, q.REROLL, q.PLACE):
        raise RuleError(f"Qwinto has the phases roll, reroll, place, not {phase!r}")
    if tuple(dice) != tuple(game.rolled):
        raise RuleError("the dice thrown are the colours rolled")
    if any(not (isinstance(v, int) and 1 <= v <= q.FACES) for v in dice.values()):
        raise RuleError(f"dice {dict(dice)}: the faces are 1-{q.FACES}")
    if phase == q.ROLL and (dice or game.attempt):
        raise RuleError("before the roll no dice are on the table (attempt 0)")
    if phase in (q.REROLL, q.PLACE) and not dice:
        raise RuleError(f"in phase {phase} the active player has rolled: give dice")
    if game.attempt not in (0, 1) or (phase == q.REROLL and game.attempt):
        raise RuleError(
            f"attempt {game.attempt}: 0 for the first throw, 1 after the "
            "re-roll (which ends the rolling)"
        )
    ends = []
    if any(len(s.complete_rows()) >= q.ROWS_TO_END for s in game.sheets.values()):
        ends.append("two_rows")
    if any(s.failed >= q.FAILED_LIMIT for s in game.sheets.values()):
        ends.append("failed_throws")
    _check_end(game, ends, ())


def _check_end(game: Game, ends: list[str], at_turn_end: tuple[str, ...]) -> None:
    """``ends``: the end conditions the position meets; ``at_turn_end``: those the rules
    check only when a turn ends (a game may meet them mid-turn and go on)."""
    if game.end_reason is None:
        now = [e for e in ends if e not in at_turn_end]
        if now:
            raise RuleError(f"the game would be over ({now[0]}): give end_reason")
    elif game.end_reason not in ends:
        raise RuleError(
            f"the game cannot have ended by {game.end_reason!r} here"
            + (f" (it meets {', '.join(ends)})" if ends else "")
        )


__all__ = ["SheetSpec", "check_position", "position", "reposition"]
