"""The letters' checker holds what a letter says of its game's end, and what it says to
its reader, to the game replayed: a whole game's letters read true, and each line
changed the way a broken letter would change it is reported false."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from bot.channel.direct import Closing, Sent
from bot.service.games import GameService
from tests.channel.test_direct import (
    ANA,
    BEN,
    clock,
    ended_after_a_cross,
    project,
    service,
    started,
)
from tests.truth.facts import Facts, facts_of
from tests.truth.letters import check_letters, read_letters

__all__ = ["clock", "service"]  # the fixtures, taken from the letters' own tests


async def finished_letters(service: GameService) -> tuple[list[str], Facts]:
    """Ana's letters of a game played to its end (her first one closed early, her last
    one telling the end), and the game's facts."""
    game_id, sent, closed = await ended_after_a_cross(service)
    texts = [m.content for m in closed if isinstance(m, Closing)]
    mail, _, final = await project(service, game_id, sent)
    texts += [m.content for m in mail if isinstance(m, Closing)]
    moves = await service.store.games.moves(game_id)
    return texts, facts_of(final.record, moves)


def false_lines(texts: list[str], facts: Facts) -> list[str]:
    return [v.line for v in check_letters(read_letters(texts, ANA), facts) if not v.ok]


async def test_a_whole_games_letters_read_true(service: GameService) -> None:
    texts, facts = await finished_letters(service)
    assert "You crossed 🟨 Yellow 8" in texts[0]
    assert "🏁 **Qwixx** — final scores" in texts[-1]
    assert false_lines(texts, facts) == []


def bumped(line: str) -> str:
    """The last figure of ``line`` one more."""
    found = list(re.finditer(r"\d+", line))[-1]
    return f"{line[: found.start()]}{int(found[0]) + 1}{line[found.end() :]}"


WRONG: dict[str, Callable[[str], str | None]] = {
    "your cross": lambda line: line.replace("Yellow 8", "Yellow 9") if "You" in line else None,
    "your cross told as another's": lambda line: (
        line.replace("You crossed", f"<@{BEN}> crossed") if "You crossed" in line else None
    ),
    "a pass told as yours": lambda line: (
        line.replace("You crossed 🟨 Yellow 8", "You passed") if "You crossed" in line else None
    ),
    "your total": lambda line: bumped(line) if re.match(r"\d\. You — ", line) else None,
    "the other's rank": lambda line: (
        ("9" + line[1:]) if re.match(rf"\d\. <@{BEN}> — ", line) else None
    ),
    "the winner": lambda line: {
        "🏆 You win!": f"🏆 <@{BEN}> wins!",
        f"🏆 <@{BEN}> wins!": "🏆 You win!",
    }.get(line),
    "a shared win": lambda line: (
        f"🏆 You and <@{BEN}> share the win!" if line.startswith("🏆") else None
    ),
    "the end's reason": lambda line: (
        "🏁 Two rows are locked: game over."
        if line.endswith("A fourth penalty: game over.")
        else None
    ),
    "the link": lambda line: bumped(line) if line.startswith("🔗 How the game ended") else None,
}


@pytest.mark.parametrize("wrong", WRONG)
async def test_a_wrong_line_is_reported(service: GameService, wrong: str) -> None:
    texts, facts = await finished_letters(service)
    change = WRONG[wrong]
    for index, text in enumerate(texts):
        for line in text.splitlines():
            new = change(line)
            if new is not None and new != line:
                texts[index] = text.replace(line, new, 1)
                assert new in false_lines(texts, facts), (wrong, new)
                return
    raise AssertionError(f"no line to change for {wrong!r}")


async def test_the_end_told_of_a_game_still_running_is_false(service: GameService) -> None:
    """The end lines of a finished game's letter, held to the same game replayed before
    it ended, are false: no final scores, no end, no link to an end."""
    texts, _ = await finished_letters(service)
    running = await started(service, dm=True)  # another game, the same seats and seed
    current = await service.keeper.read(running)
    early = facts_of(current.record, await service.store.games.moves(running))
    told = texts[-1].splitlines()
    wrong = set(false_lines(texts, early))
    assert {line for line in told[2:]} <= wrong, "every line of the end"


def test_a_stored_end_reads_back() -> None:
    sent = Sent(5, 6, 7, "action1", "ended")
    assert Sent.of(sent.to_json()) == sent
    assert Sent.of([5, 6, 7, "action1", "unknown"]).state == "closed"
