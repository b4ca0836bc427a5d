"""Games played at a table, each one's channel read and held to its facts, and the
figures of it all: games and claims checked, and the false ones by kind."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bot.channel.dice import TEXT, Faces
from bot.store import Store
from tests.fakes import FakeClock
from tests.truth.checking import Verdict, check, check_moment
from tests.truth.facts import Facts, Ledger, facts_of
from tests.truth.reading import Emojis, read
from tests.truth.table import Played, Scenario, Table


@dataclass
class Report:
    """What the check of a variant's games found."""

    variant: str
    games: int = 0
    claims: Counter[str] = field(default_factory=Counter)
    """Claims checked, by kind."""
    told: Counter[str] = field(default_factory=Counter)
    """Things the channel must tell (a turn, a penalty...) checked, by kind."""
    false: list[tuple[Scenario, Verdict]] = field(default_factory=list)

    def add(self, scenario: Scenario, verdicts: list[Verdict]) -> None:
        self.games += 1
        for verdict in verdicts:
            (self.told if verdict.kind.startswith("told.") else self.claims)[verdict.kind] += 1
            if not verdict.ok:
                self.false.append((scenario, verdict))

    def false_by_kind(self) -> Counter[str]:
        return Counter(verdict.kind for _, verdict in self.false)

    def summary(self) -> str:
        false = self.false_by_kind()
        wrong = sum(v for k, v in false.items() if not k.startswith("told."))
        lines = [
            f"{self.variant}: {self.games} games, {sum(self.claims.values())} claims "
            f"checked ({wrong} false), {sum(self.told.values())} things that must be "
            f"told ({sum(false.values()) - wrong} missing or repeated)"
        ]
        lines += [
            f"  {kind}: {false[kind]} false of {self.claims[kind] or self.told[kind]}"
            for kind in sorted(false)
        ]
        return "\n".join(lines)

    def describe(self, limit: int = 25) -> str:
        """The summary and the first false claims, each with its game and turn."""
        shown = [
            f"- {s.describe()}, turn {v.turn}: [{v.kind}] {v.line!r}\n    {v.why}"
            for s, v in self.false[:limit]
        ]
        more = len(self.false) - limit
        return "\n".join([self.summary(), *shown] + ([f"... and {more} more"] if more > 0 else []))


@dataclass(frozen=True)
class Seen:
    """A game played at the table: its channel's final texts and the game's facts."""

    scenario: Scenario
    texts: list[str]
    facts: Facts
    emojis: Emojis = field(default_factory=dict)
    """The application's emojis (id -> name) the channel's dice may show."""
    live: list[tuple[str, int]] = field(default_factory=list)
    """The live turn message as the channel showed it while the game ran, each with the
    moves stored then (:attr:`Played.live`)."""

    def verdicts(
        self, texts: list[str] | None = None, live: list[tuple[str, int]] | None = None
    ) -> list[Verdict]:
        """The channel's claims (or those of ``texts`` instead) held to the facts, and
        what each live turn message said of the moment it was shown (or ``live``'s)."""
        verdicts = check(read(self.texts if texts is None else texts, self.emojis), self.facts)
        for text, moves in self.live if live is None else live:
            verdicts += check_moment(read([text], self.emojis), self.facts, moves)
        return verdicts


async def facts_after(table: Table, ledger: Ledger, played: Played) -> Facts:
    """The facts of a game the table played (counted into ``ledger`` once it ended)."""
    record = (await table.service.keeper.read(played.game_id)).record
    moves = await table.store.games.moves(played.game_id)
    facts = facts_of(
        record,
        moves,
        left=played.left,
        back=played.back,
        abandoned=played.abandoned,
        down=played.down,
        started=played.started,
    )
    facts.ratings, facts.wins = ledger.add(record, facts.game, facts.covered)
    return facts


async def play(
    path: Path, scenarios: list[Scenario], faces: Faces = TEXT, emojis: Emojis | None = None
) -> list[Seen]:
    """Play ``scenarios`` one after another at one table (a store at ``path``), the
    dice shown with ``faces`` (the application's ``emojis``; none: as text)."""
    seen = []
    clock = FakeClock(1_000_000.0)  # the store stamps the moves by the service's clock
    store = await Store.open(path, clock=clock)
    try:
        table, ledger = Table(store, faces, clock), Ledger()
        for scenario in scenarios:
            played = await table.play(scenario)
            facts = await facts_after(table, ledger, played)
            seen.append(Seen(scenario, played.texts(), facts, dict(emojis or {}), played.live))
    finally:
        await store.close()
    return seen


async def verify(
    path: Path, scenarios: list[Scenario], faces: Faces = TEXT, emojis: Emojis | None = None
) -> Report:
    """Play ``scenarios`` at one table and check each channel (its dice shown with
    ``faces``, the application's ``emojis``)."""
    report = Report(scenarios[0].variant if scenarios else "")
    for game in await play(path, scenarios, faces, emojis):
        report.add(game.scenario, game.verdicts())
    return report
