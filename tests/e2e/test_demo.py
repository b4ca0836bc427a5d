"""``qwixx-bot demo``: a whole game against the stand-in, a transcript that reads like
Discord (each message framed), and the images."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.sandbox.demo import DEMO_FILE, control_rows, control_text, run_demo
from bot.sandbox.validation import unavailable
from tests.sandbox.page_text import page_text

FRAME = re.compile(
    r"┌ Qwixx Bot(?: · message (\d+))?(?: · edited)?(?: · answers \w+'s /[^·]+)?"
    r"(?: · only (\w+) sees it)?"
)


def images(folder: Path) -> list[str]:
    """The names of the images the bot sent, as the demo wrote them to ``folder``."""
    return sorted(p.name for p in folder.iterdir() if re.fullmatch(r"\d{3}-[\w-]+\.png", p.name))


def frames(text: str) -> list[tuple[str, list[str]]]:
    """Each message of a transcript: its header and its lines (what is after "│ ")."""
    found: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("┌ "):
            found.append((line, []))
        elif line.startswith("│"):
            found[-1][1].append(line[2:])
    return found


async def test_a_whole_game_each_message_framed_and_the_images_kept(tmp_path: Path) -> None:
    lines: list[str] = []
    count = await run_demo("classic", 2, tmp_path / "out", seed=3, print_line=lines.append)
    text = "\n".join(lines)
    assert "» Ana: /qwixx start variant:classic" in text
    assert "│ ┃ **Turn 1** · 🎲 @Ana is active" in text  # a card, edged in her colour
    assert "final scores" in text and ("wins" in text or "share the win" in text)
    assert "<@" not in text  # mentions are shown as names
    assert re.search(r"🎲 :qx_white\d_[0-9a-f]{4}: :qx_white\d_[0-9a-f]{4}: :qx_red", text)
    assert "<:" not in text  # the dice's emojis are shown by name
    files = images(tmp_path / "out")
    assert len(files) == count > 3
    assert files[0] == "001-dice.png" and files[-1].endswith("scoreboard.png")
    assert "problems" not in text
    # Checked against Discord's description where it is found, else it says so.
    assert ("not checked against Discord's API description" in text) == (unavailable() is not None)
    assert "<t:" not in text  # times read as times:
    assert "⏳ Waiting for @Ana, @Ben — asked a few seconds ago, decide in 24 hours." in text
    unchecked = "(Request bodies were not checked against Discord's API description: "
    for line in lines:  # a message's lines are marked, so a blank line inside one shows
        assert (
            line == ""
            or line[0] in "┌│»="
            or line.startswith(unchecked)
            or line == f"The transcript as a page: {tmp_path}/out/transcript.html"
            or line.endswith(f"written to {tmp_path}/out/")
        )
    assert lines[-1] == f"{count} images written to {tmp_path}/out/"
    live, after = text.split("===== The channel after the game =====")
    headers = [h for h, _ in frames(after)]
    assert all(FRAME.fullmatch(h) for h in headers), headers
    numbers = [int(FRAME.fullmatch(h)[1]) for h in headers]  # type: ignore[index]
    assert numbers == sorted(numbers) and numbers[0] == 1  # the channel's order
    # The lobby was edited once the game started, and answered Ana's command.
    assert headers[0] == (
        "┌ Qwixx Bot · message 1 · edited · answers Ana's /qwixx start variant:classic"
    )
    assert frames(after)[0][1] == [  # a card, its buttons gone
        "╭─ card · no accent",
        "┃ 🎲 **Qwixx** — started with @Ana, @Ben.",
        "╰─",
    ]
    lobby = frames(live)[0][1]
    assert (
        "┃ Turn time: 24h · Rules: /qwixx rules `variant:classic` · Start needs 2 players." in lobby
        and "</" not in text
    )  # command mentions as the reader sees them
    assert "~~[Start]~~" in lobby[-1]  # greyed out until a second player joins
    # Every image shown is named by the file it was written to, and that file is there.
    shown = re.findall(r"🖼 ([\w.-]+) \((\S+)\)", text)
    assert shown and all(
        Path(path).name.endswith(name) and Path(path).is_file() for name, path in shown
    )


async def test_the_page_says_what_the_text_says_in_the_same_order(tmp_path: Path) -> None:
    """The page beside the images, read back, is the text transcript line for line:
    each message, its text, images, alt texts and buttons (disabled ones struck)."""
    lines: list[str] = []
    await run_demo("longo", 1, tmp_path / "out", 4, lines.append, computers=2)
    read = page_text(tmp_path / "out" / "transcript.html")
    end = lines.index(f"The transcript as a page: {tmp_path}/out/transcript.html")
    blank = max(i for i in range(end) if lines[i] == "")  # the transcript ends there
    assert read.lines == lines[:blank]
    unchecked = "(Request bodies were not checked against Discord's API description: "
    assert all(line.startswith(unchecked) for line in lines[blank + 1 : end])
    assert ("Start", True) in read.buttons and ("Join", False) in read.buttons
    assert sum(line.startswith("┌ ") for line in read.lines) > 20
    assert read.sources and all(s.is_file() and s.parent == tmp_path / "out" for s in read.sources)
    assert any(s.name.startswith("emoji-qx_") for s in read.sources)  # the dice, drawn


async def test_one_member_alone_plays_solo_practice(tmp_path: Path) -> None:
    lines: list[str] = []
    await run_demo("classic", 1, tmp_path / "out", seed=3, print_line=lines.append)
    text = "\n".join(lines)
    assert "» Ana: /qwixx start variant:classic solo:True" in text
    assert "» Ana presses Join" not in text and "Ben" not in text
    live, after = text.split("===== The channel after the game =====")
    assert "│ ┃ Players (1/1): @Ana" in live and "Solo practice" in live
    assert frames(after)[0][1] == [
        "╭─ card · no accent",
        "┃ 🎲 **Qwixx** — started with @Ana.",
        "╰─",
    ]
    assert "final scores" in after and "🧘 Solo practice · @Ana: **" in after


async def test_the_host_looks_at_the_table_once(tmp_path: Path) -> None:
    lines: list[str] = []
    await run_demo("qwinto", 2, tmp_path / "out", seed=2, print_line=lines.append)
    text = "\n".join(lines)
    tables = [p.name for p in (tmp_path / "out").iterdir() if p.name.endswith("-table.png")]
    assert len(tables) == 1 and text.count("» Ana presses Table") == 1
    [(header, body)] = [f for f in frames(text) if "table.png" in "\n".join(f[1])]
    assert header == "┌ Qwixx Bot · only Ana sees it"
    assert body[0] == "╭─ card · no accent" and body[-1] == "╰─"  # a card: its title,
    assert "everyone's sheet" in body[1]
    assert body[2] == f"┃ 🖼 table.png ({tmp_path / 'out' / tables[0]})"  # the image,
    assert body[3].startswith("┃    alt: Qwinto table, turn ")  # its alt text,
    assert body[-3].startswith("┃ ▶ Ana") or body[-2].startswith("┃ ▶ Ben")  # the summary


async def test_one_round_of_sheets_is_shown_as_the_members_see_them(tmp_path: Path) -> None:
    lines: list[str] = []
    await run_demo("classic", 2, tmp_path / "out", seed=3, print_line=lines.append)
    sheets = [
        (header, body)
        for header, body in frames("\n".join(lines))
        if any("sheet.png" in line for line in body)
    ]
    assert {header.split(" · ")[-1] for header, _ in sheets} == {
        "only Ana sees it",
        "only Ben sees it",
    }
    for _, body in sheets:  # a card: the sheet's words, its image, its choices under it
        assert body[0].startswith("╭─ card · accent #") and body[-1].startswith("[")
        assert any(line.startswith("┃ 🖼 sheet.png (") for line in body)
        assert any(re.fullmatch(r"┃ (Ana|Ben)'s sheet, Qwixx:", line) for line in body)


async def test_the_demo_seats_computers_and_shows_the_channel_after_the_game(
    tmp_path: Path,
) -> None:
    lines: list[str] = []
    count = await run_demo(
        "classic", 1, tmp_path / "out", seed=5, print_line=lines.append, computers=2, level="hard"
    )
    text = "\n".join(lines)
    live, after = text.split("===== The channel after the game =====")
    assert live.count("» Ana presses Add computer player") == 2
    assert "» Ana picks 🤖 Computer 2: Hard in" in live
    assert "│ ┃ Players (1/5): @Ana" in live  # the lobby as it was posted
    assert "final scores" in after and "🤖 Computer 1" in after
    # Each message once, in its newest version: the lobby has started, turns are over.
    assert after.count("**Turn 1** ·") == 1 and "│ ┃ **Turn 1** · @Ana was active" in after
    assert "started with @Ana, 🤖 Computer 1 (Hard), 🤖 Computer 2 (Hard)." in after
    assert "Only one person plays, so this game does not count" in after
    assert "1. 🤖 Computer" in after and "(Hard) — " in after  # the ranking names levels
    assert "[Open my sheet]" not in after and "Decide in" not in after
    assert "[Rematch]" in after and "🖼 scoreboard.png (" in after
    assert count == len(images(tmp_path / "out")) > 3


def test_the_command_empties_the_folder_of_an_earlier_demo(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "demo"
    out.mkdir()
    earlier = ("001-dice.png", "137-sheet.png", "138-scoreboard.png", "transcript.html")
    for name in (*earlier, "emoji-qx_red6_1a2b.png"):  # an earlier run's
        (out / name).write_bytes(b"old")
    assert main(["demo", "--out", str(out), "--players", "2", "--seed", "3"]) == 0
    said = capsys.readouterr().out.splitlines()[-1]
    files = list(out.iterdir())
    assert said == f"{len(images(out))} images written to {out}/"
    assert all(DEMO_FILE.fullmatch(f.name) and f.read_bytes() != b"old" for f in files)
    assert not (out / "137-sheet.png").exists() and not (out / "emoji-qx_red6_1a2b.png").exists()


def test_each_action_row_of_controls_is_a_line_of_its_own() -> None:
    button = {"type": 2, "style": 1, "custom_id": "b"}
    components = [
        {"type": 17, "components": [{"type": 10, "content": "a card"}]},
        {"type": 1, "components": [{**button, "label": "Join"}, {**button, "label": "Leave"}]},
        {"type": 1, "components": [{"type": 3, "custom_id": "s", "placeholder": "Level"}]},
        {"type": 1, "components": [{**button, "label": "Start", "disabled": True}]},
    ]
    rows = ["  ".join(map(control_text, row)) for row in control_rows(components)]
    assert rows == ["[Join]  [Leave]", "[Level ▾]", "~~[Start]~~"]
