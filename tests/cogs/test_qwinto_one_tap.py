"""Qwinto's write is one tap: the fields open to the sum are buttons on the sheet.

Positions come only from the rules (``new_game`` and ``apply`` with random legal
moves); the views are read as Discord receives them (``to_components``).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

import discord
import pytest

from bot.cogs import views
from bot.cogs.buttons import MoveButton, decode_move
from bot.cogs.registry import DYNAMIC_ITEMS, claimed
from bot.records.games import GameRecord
from bot.rules import PASS, Game, Move, new_game
from bot.rules.qwinto import ROW_COLUMNS, ROWS
from tests.cogs.records import game_record

BUTTON, SELECT = 2, 3
HINT = "hint"


def record(players: list[int], hints: bool) -> GameRecord:
    return game_record(players, status="running", variant="qwinto", game_id=123456789, hints=hints)


def place_positions(seed: int, count: int) -> list[tuple[Game, int]]:
    """(game, player) for every player asked to write, through a random game of ``count``."""
    rng = random.Random(seed)
    players = list(range(101, 101 + count))
    game = new_game("qwinto", players, seed=seed)
    found = []
    while not game.finished:
        decision = game.decision()
        if decision.phase == "place":
            found += [(game, p) for p in sorted(decision.waiting)]
        player = rng.choice(sorted(decision.waiting))
        game, _ = game.apply(player, rng.choice(game.legal_moves(player)))
    return found


POSITIONS = [
    (g, p, hints)
    for seed in range(40)
    for hints in (seed % 2 == 0,)
    for g, p in place_positions(seed, 2 + seed % 5)
]


def components(view: discord.ui.View) -> list[dict[str, Any]]:
    return view.to_components()


def offered(rows: list[dict[str, Any]]) -> tuple[list[Move], list[Move], list[str]]:
    """The moves behind the buttons, the moves in selects, and every label shown."""
    buttons, options, labels = [], [], []
    for row in rows:
        for item in row["components"]:
            if item["type"] == BUTTON:
                labels.append(item["label"])
                if not item["custom_id"].endswith(f":{HINT}"):
                    buttons.append(decode_move(item["custom_id"].split(":")[4]))
            else:
                labels += [o["label"] for o in item["options"]]
                options += [decode_move(o["value"]) for o in item["options"]]
    return buttons, options, labels


def test_positions_cover_every_kind_of_throw() -> None:
    assert len(POSITIONS) > 1000
    assert {len(g.rolled) for g, _, _ in POSITIONS} == {1, 2, 3}  # type: ignore[attr-defined]
    with_select = [
        g
        for g, p, h in POSITIONS
        if any(
            r["components"][0]["type"] == SELECT
            for r in components(views.sheet_view(record(g.players, h), g, p))
        )
    ]  # type: ignore[arg-type]
    assert len(with_select) > 50  # the select is tested too


@pytest.mark.parametrize("start", range(4))
def test_every_legal_field_is_reachable_once_and_nothing_else(start: int) -> None:
    for game, player, hints in POSITIONS[start::4]:
        view = views.sheet_view(record(game.players, hints), game, player)
        assert view is not None
        rows = components(view)
        # Discord's limits
        assert 1 <= len(rows) <= 5 and len(view.children) <= 25
        for row in rows:
            kinds = [c["type"] for c in row["components"]]
            assert kinds == [SELECT] or (kinds == [BUTTON] * len(kinds) and 1 <= len(kinds) <= 5)
            for item in row["components"]:
                assert len(item["custom_id"]) <= 100 and claimed(item["custom_id"])
                if item["type"] == BUTTON:
                    assert 1 <= len(item["label"]) <= 80
                else:
                    assert 1 <= len(item["options"]) <= 25 and len(item["placeholder"]) <= 150
                    assert all(
                        len(o["label"]) <= 100 and len(o["value"]) <= 100 for o in item["options"]
                    )
        buttons, options, labels = offered(rows)
        legal = game.legal_moves(player)
        assert Counter(buttons + options) == Counter(legal)  # each exactly once, nothing else
        assert buttons[-1] == PASS and PASS not in options  # Pass on the last row
        assert len(set(labels)) == len(labels)
        hint = [c for c in rows[-1]["components"] if c["custom_id"].endswith(f":{HINT}")]
        assert len(hint) == hints


def test_fields_are_buttons_whenever_they_fit_and_each_rolled_row_has_some() -> None:
    for game, player, hints in POSITIONS:
        view = views.sheet_view(record(game.players, hints), game, player)
        assert view is not None
        buttons, options, _ = offered(components(view))
        fields = [m for m in game.legal_moves(player) if m.kind == "place"]
        per_row = Counter(m.row for m in fields)
        fit = sum(-(-n // 5) for n in per_row.values()) <= 4  # action rows above Pass
        assert (options == []) == fit
        for row, count in per_row.items():
            shown = [m for m in buttons if m.row == row]
            assert len(shown) == (count if fit else min(count, 5))
            legal = [m for m in fields if m.row == row]
            first = legal.index(shown[0])  # the buttons: a run of neighbouring fields
            assert legal[first : first + len(shown)] == shown


def test_a_button_row_holds_one_rolled_row_labelled_by_name_and_place() -> None:
    for game, player, hints in POSITIONS[::7]:
        view = views.sheet_view(record(game.players, hints), game, player)
        assert view is not None
        for row in components(view):
            moves = [
                decode_move(c["custom_id"].split(":")[4])
                for c in row["components"]
                if c["type"] == BUTTON and not c["custom_id"].endswith(f":{HINT}")
            ]
            fields = [m for m in moves if m.kind == "place"]
            if not fields:
                continue
            assert len({m.row for m in fields}) == 1 and len(fields) == len(moves)
            for move, item in zip(fields, row["components"], strict=True):
                place = ROW_COLUMNS[move.row or ""].index(move.number or 0) + 1
                name = move.row.capitalize()  # type: ignore[union-attr]
                assert item["label"].endswith(f" {name} {place}/9")


def first_throw(total: int, dice: int) -> tuple[Game, int]:
    """A fresh two-player game whose first throw of ``dice`` dice made ``total``."""
    for seed in range(5000):
        game = new_game("qwinto", [1, 2], seed=seed)
        game, _ = game.apply(game.active, Move("roll", dice=ROWS[:dice]))
        game, _ = game.apply(game.active, Move("keep"))
        if game.total == total:  # type: ignore[attr-defined]
            return game, 2
    raise AssertionError(f"no first throw of {total}")


def test_a_seven_goes_a_third_of_the_way_along_an_empty_row() -> None:
    game, player = first_throw(7, 3)
    view = views.sheet_view(record(game.players, False), game, player)
    assert view is not None
    rows = components(view)
    assert [[c["label"] for c in row["components"]] for row in rows[:3]] == [
        [f"{mark} {name} {n}/9" for n in range(2, 7)]
        for mark, name in (("🟧", "Orange"), ("🟨", "Yellow"), ("🟪", "Purple"))
    ]
    [select] = rows[3]["components"]
    assert select["placeholder"] == "Write 7 in another field…"
    assert [o["label"] for o in select["options"]][:2] == [
        "🟧 Orange field 1 of 9 — empty row",
        "🟧 Orange field 7 of 9 — empty row",
    ]
    assert [c["label"] for c in rows[4]["components"]] == ["Pass"]


def test_a_high_throw_goes_to_the_right_and_one_die_shows_every_field() -> None:
    game, player = first_throw(17, 3)
    view = views.sheet_view(record(game.players, False), game, player)
    assert view is not None
    assert [c["label"] for c in components(view)[0]["components"]] == [
        f"🟧 Orange {n}/9" for n in range(5, 10)
    ]
    game, player = first_throw(3, 1)
    view = views.sheet_view(record(game.players, True), game, player)
    assert view is not None
    assert [[c["label"] for c in row["components"]] for row in components(view)] == [
        [f"🟧 Orange {n}/9" for n in range(1, 6)],
        [f"🟧 Orange {n}/9" for n in range(6, 10)],
        ["Pass", "Hint"],
    ]


def test_a_field_button_carries_its_move_and_is_read_back_after_a_restart() -> None:
    game, player = first_throw(7, 3)
    view = views.sheet_view(record(game.players, False), game, player)
    assert view is not None
    button = next(i for i in view.children if isinstance(i, MoveButton))
    assert button.custom_id == f"qx:123456789:1:place:place.orange.{ROW_COLUMNS['orange'][1]}"
    matching = [
        cls
        for cls in DYNAMIC_ITEMS
        if cls.__discord_ui_compiled_template__.fullmatch(button.custom_id)
    ]
    assert MoveButton in matching


def test_qwixx_sheets_keep_their_buttons() -> None:
    game = new_game("classic", [1, 2], seed=2)
    plain = replace(record([1, 2], True), variant="classic")
    view = views.sheet_view(plain, game, 1)
    assert view is not None
    assert [getattr(i, "action", None) for i in view.children][:1] == [HINT]
    assert len(view.children) == 1 + len(game.legal_moves(1))


def test_a_field_chosen_already_shows_as_chosen_until_the_throw_is_over() -> None:
    game, player = first_throw(7, 3)
    orange = ROW_COLUMNS["orange"]
    for column, in_select in ((orange[2], False), (orange[0], True)):
        chose, _ = game.apply(player, Move("place", "orange", column))
        assert player not in chose.decision().waiting  # the other has yet to choose
        view = views.sheet_view(record(game.players, False), chose, player)
        assert view is not None
        rows = components(view)
        marked = [
            c["label"]
            for row in rows
            for c in row["components"]
            if c["type"] == BUTTON and c["style"] == discord.ButtonStyle.success.value
        ]
        defaults = [
            o["label"]
            for row in rows
            for c in row["components"]
            if c["type"] == SELECT
            for o in c["options"]
            if o.get("default")
        ]
        if in_select:
            assert marked == [] and defaults == ["🟧 Orange field 1 of 9 — empty row"]
        else:
            assert marked == ["🟧 Orange 3/9"] and defaults == []
        buttons, options, _ = offered(rows)
        assert Counter(buttons + options) == Counter(chose.legal_moves(player))
    untouched = views.sheet_view(record(game.players, False), game, player)
    assert untouched is not None
    assert all(
        c.get("style") != discord.ButtonStyle.success.value
        for row in components(untouched)
        for c in row["components"]
    )
