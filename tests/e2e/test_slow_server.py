"""A slow server asks less, through the real bot and the stand-in: one classic game of
three members over two days on a fake clock.

Ben crosses only what skips nothing on other people's turns (``/qwixx preferences
others:safe``) and passes if a choice he made ahead is no longer possible; Cem plays
from his direct messages alone and sleeps from 23:00 to 07:00; Ana is away until the end
of the first day (``/qwixx preferences away_until:``). The active players choose their
coloured die ahead with their white sum. Everything the channel and the letters say is
held to the game replayed from the bot's database (:mod:`tests.truth`); the accuracies
the bot shows are held to a recomputation from the move log that leaves every decision
made by a rule out.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.cogs.buttons import encode_move
from bot.players import hint
from bot.records.games import GameRecord, MoveRecord
from bot.records.plans import Step
from bot.rules import Move, dice_version_of, new_game
from bot.sandbox import GuildSpec, Sandbox, SimMember
from bot.sandbox.autoplay import final_message, moves
from bot.sandbox.records import StoredMessage
from tests.fakes import FakeClock, at
from tests.truth.checking import check
from tests.truth.facts import Ledger, facts_of
from tests.truth.letters import check_letters, read_letters
from tests.truth.reading import read

from .asking import Table, ahead_ids
from .clocked import bot, clocked
from .slow_server import ANA, AWAY_LAST, BEN, QUIET_TURN, fewest_skips, plan_for, play, suits
from .test_asking_less import replays, report, seated, sources
from .test_direct_messages import channel_pings, letters_sent

SEED = 1455
"""On this seed Ben's coloured die chosen ahead is made on turns 2, 5 and 8, and on turn
11 Ana, back, locks red while Ben's choice ahead is a red cross: he passes, as he chose.
Found with ``python -m tests.e2e.slow_server 1201``, which plays the members' ways of
deciding (:mod:`tests.e2e.slow_server`) through the rules alone, and keeps the seeds on
which the Hard computer's choices for Ana never hang on a tie (a tie is broken by her
id, which the stand-in makes anew each run)."""
AHEAD = ("ahead", "ahead_fallback")
COUNTDOWN = re.compile(r"<t:\d+:R>")
AUTOMATIC_KINDS = ("by.safe", "by.away", "by.ahead", "by.fallback_locked")
"""What the channel must tell at least once: decisions made by a standing choice, for
someone away, ahead, and a pass in place of a choice ahead a lock took away."""


def test_the_seed_is_one_on_which_a_lock_takes_a_choice_ahead_away() -> None:
    """The rules alone, as the members play: Ben's red cross chosen ahead on turn 11
    meets Ana's lock of red."""
    played = play(SEED)
    assert suits(played)
    assert played.applied[:3] == [2, 5, 8] and played.taken == [(11, BEN, ANA, "red")]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(at(7, 12))


@pytest.fixture
async def sb(database: Path, clock: FakeClock) -> AsyncIterator[Sandbox]:
    guild = GuildSpec("Slow Club", channels=("qwixx",))
    async with clocked(database, clock, guild, ["Ana", "Ben", "Cem"], SEED) as sandbox:
        yield sandbox


def letters(member: SimMember) -> list[StoredMessage]:
    return [m for m in member.direct_messages() if not m.ephemeral]


def offering(member: SimMember, custom_id: str) -> StoredMessage | None:
    """``member``'s letter that offers the move of ``custom_id``, if one does."""
    found = [m for m in letters(member) if any(c.custom_id == custom_id for c in moves(m))]
    return found[-1] if found else None


async def decide(table: Table, member: SimMember, clock: FakeClock) -> bool:
    """``member`` makes the decision the game waits for: the cross skipping fewest
    numbers, from their sheet, or from their letter if they play by direct message; as
    the active player, their coloured die ahead too, while someone else still decides.
    Whether they chose something ahead."""
    clock.tick(60)
    game = await table.game()
    decision = game.decision()
    move = fewest_skips(game, member.id)
    if member.name == "Cem":
        custom_id = f"qx:{table.game_id}:{decision.turn}:{decision.phase}:{encode_move(move)}"
        message = await table.sb.wait_for(lambda: offering(member, custom_id))
    else:
        message = await table.sheet(member)
    after = (await table.move(member, message, move)).message
    if decision.phase != "action1" or member.id != decision.active:
        return False
    now = await table.game()
    if now.turn != decision.turn or now.decision().phase != "action1":
        return False  # the last to decide: the coloured die is asked for now
    planned = plan_for(now, member.id)
    if planned is None:
        return False
    assert ahead_ids(after), "the sheet (or letter) goes on to the coloured die ahead"
    await table.ahead(member, after, decision.turn, (Step("action2", planned),))
    return True


async def night(table: Table, cem: SimMember, clock: FakeClock, since: tuple[int, int]) -> None:
    """Cem's decision opened at 23:30, in his quiet hours: nobody mentions him and no
    letter reaches him until 07:00, when his letter comes."""
    sb, publisher, timers = table.sb, bot(table.sb).publisher, bot(table.sb).timers
    pings, sent = since
    game = await table.game()
    custom_id = f"qx:{table.game_id}:{game.turn}:action1:"
    assert cem.id in game.decision().waiting
    await publisher.drain()
    for now in (at(8, 0, 30), at(8, 6, 59)):
        clock.now = now
        await timers.tick()
        await publisher.drain()
        assert letters_sent(sb, cem) == sent, "no letter in his quiet hours"
        assert not any(custom_id in c.custom_id for m in letters(cem) for c in moves(m))
    assert all(cem.id not in users for _, users in channel_pings(sb)[pings:]), "nor a mention"
    clock.now = at(8, 7)
    await timers.tick()
    await sb.wait_for(lambda: any(custom_id in c.custom_id for m in letters(cem) for c in moves(m)))
    assert letters_sent(sb, cem) == sent + 1, "his letter comes in the morning"


def accuracy(record: GameRecord, log: list[MoveRecord], person: int, own: bool) -> tuple[int, int]:
    """``person``'s accuracy in whole percent, and the decisions it is over, recomputed
    from the move log as docs/playing.md defines it (100% minus the expected points lost
    against the Hard computer's choice, over the gaps between Hard's choice and its worst
    option): over their ``own`` decisions (the log's source ``player``), or, to show the
    difference, over every one made for their seat."""
    game = new_game(
        record.variant,
        record.players,
        record.seed,
        dice_version=dice_version_of(record.state or {}),
    )
    lost = gaps = 0.0
    count = 0
    for stored in log:
        player, move = stored.player_id, Move.from_json(stored.move)
        if player == person and (stored.source == "player" or not own):
            values = {o.move: o.value for o in hint(game, player).options}
            best = max(values.values())
            lost += max(0.0, best - values[move])
            gaps += max(0.0, best - min(values.values()))
            count += 1
        game, _ = game.apply(player, move)
    share = 1.0 if gaps <= 0 else max(0.0, 1.0 - lost / gaps)
    return round(share * 100), count


async def test_a_slow_server_asks_only_what_nobody_answered_yet(
    sb: Sandbox, clock: FakeClock
) -> None:
    ana, ben, cem = (sb.member(n) for n in ("Ana", "Ben", "Cem"))
    said = (await ben.slash("qwixx", "preferences", others="safe", fallback="pass")).message
    assert said.ephemeral and "cross only what skips nothing" in said.content
    assert "If a choice made ahead is no longer possible: pass" in said.content
    said = (
        await cem.slash(
            "qwixx", "preferences", direct_messages=True, quiet_from="23:00", quiet_to="7:00"
        )
    ).message
    assert "• Quiet hours: 23:00–07:00, UTC time" in said.content
    said = (await ana.slash("qwixx", "preferences", away_until="2026-12-07")).message
    assert f"Away until <t:{int(at(8, 0))}:f>" in said.content
    table = await seated(sb, ana, ben, cem)

    planned = 0
    asleep: tuple[int, int] | None = None
    back = False
    pings_away: int | None = None
    for _ in range(400):
        snap = await table.snapshot()
        if snap.record.status != "running" or snap.game is None:
            break
        decision = snap.game.decision()
        assert decision.waiting, "the game waits for someone, or has ended"
        if decision.turn <= AWAY_LAST:
            assert ana.id not in decision.waiting, "the game does not wait for Ana while away"
        if ben.id != decision.active:
            assert ben.id not in decision.waiting, "Ben's standing choice answers"
        if decision.turn == QUIET_TURN and asleep is None:  # Ben's turn, played at 23:30
            await bot(sb).publisher.drain()
            clock.now = at(7, 23, 30)
            asleep = (len(channel_pings(sb)), letters_sent(sb, cem))
        if decision.turn == AWAY_LAST and pings_away is None:
            pings_away = len(channel_pings(sb))  # no post calls Ana while she is away
        if decision.turn == AWAY_LAST and cem.id in decision.waiting and clock.now < at(8, 7):
            assert asleep is not None
            await night(table, cem, clock, asleep)
            continue
        if decision.turn == AWAY_LAST + 1 and not back:  # Ana's turn, in the morning
            back = True
            await bot(sb).publisher.drain()
            assert decision.active == ana.id
            assert ana.id in decision.waiting, "her day is over: Ana is asked again"
            assert pings_away is not None
            called = await sb.wait_for(
                lambda since=pings_away: (
                    [u for _, u in channel_pings(sb)[since:] if ana.id in u] or None
                )
            )
            assert called, "and called to her turn (another post may follow the call)"
        person = min(decision.waiting, key=lambda p: (p != decision.active, p))
        planned += await decide(table, table.members[person], clock)

    record = (await table.snapshot()).record
    assert record.status == "finished"
    made = await sources(table)
    by_source = Counter(source for _, _, source in made)
    assert by_source["ahead"] >= 1 and by_source["ahead_fallback"] >= 1 and planned >= 2
    assert {s for p, _, s in made if p == ben.id} <= {"player", "standing_safe", *AHEAD}
    assert {s for p, _, s in made if p == cem.id} <= {"player", *AHEAD}
    await replays(table)
    report(table, made, "a slow server: Ben safe, Cem by letter, Ana away a day")

    # The channel's final state, every sentence held to the game replayed.
    await bot(sb).publisher.drain()

    def reviewed() -> StoredMessage | None:
        found = final_message(sb)
        if found is None or "🎯" not in found.content:
            return None
        return None if any(COUNTDOWN.search(m.content) for m in sb.messages()) else found

    final = await sb.wait_for(reviewed)
    store = bot(sb).store
    assert store is not None
    log = await store.games.moves(table.game_id)
    facts = facts_of(record, log)
    facts.ratings, facts.wins = Ledger().add(record, facts.game, facts.covered)
    for stored in (m for m in log if m.player_id == ana.id):  # made for her while away only
        away = facts.move_turns[stored.seq] <= AWAY_LAST
        assert (stored.source == "away_until") == away, (stored, away)
    emojis = {e.id: e.name for e in sb.server.world.emojis.values()}
    reading = read([m.content for m in sb.messages()], emojis)
    verdicts = check(reading, facts)
    false = [f"turn {v.turn}: [{v.kind}] {v.line}\n    {v.why}" for v in verdicts if not v.ok]
    assert not false, "\n".join(false)
    kinds = Counter(v.kind for v in verdicts)
    assert all(kinds[k] for k in AUTOMATIC_KINDS), kinds
    assert kinds["told.turn"] == facts.game.turn
    away_told = {c.turn for c in reading.claims if c.kind == "by.away"}
    assert away_told and max(t for t in away_told if t is not None) <= AWAY_LAST
    ranks = [c for c in reading.claims if c.kind == "rank"]
    assert len(ranks) == 3 and all("rating" in c.values for c in ranks), "the game counts"

    # Cem's letters, every sentence held to the game too, once each is closed (the last
    # answer's letter is told what became of it after the game's final sync).
    await bot(sb).publisher.drain()
    sent = [m.content for m in letters(cem)]
    told = read_letters(sent, cem.id, emojis)
    assert [v for v in check_letters(told, facts) if not v.ok] == []
    assert len(sent) >= 10 and {c.kind for c in told.claims} >= {"letter", "crossed", "by.ahead"}

    # Accuracies leave the decisions made by a rule out.
    shown = dict(re.findall(r"<@(\d+)> (\d+)%", final.content.splitlines()[-1]))
    for member in (ana, ben, cem):
        percent, _ = accuracy(record, log, member.id, own=True)
        assert int(shown[str(member.id)]) == percent, member.name
    review = (await ana.slash("qwixx", "review")).message.content
    percent, count = accuracy(record, log, ana.id, own=True)
    assert f"<@{ana.id}>: accuracy **{percent}%** over {count} decisions" in review
    _, every = accuracy(record, log, ana.id, own=False)
    assert every > count, "Ana's seat decided more than she did"
    costly = [int(t) for t in re.findall(r"\*\*\d+\. Turn (\d+)\*\*", review)]
    assert all(turn > AWAY_LAST for turn in costly), "none of the decisions made for her"
    print(final.content)
