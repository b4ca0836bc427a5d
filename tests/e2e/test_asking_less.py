"""Asking less, through the stand-in: standing choices, decisions taken ahead on the
sheet, Qwinto's re-throw rule and next throw, ``/qwixx preferences`` and the inbox.

Every stored decision is held to the rules by replaying the move log; each test counts
the members' taps against the decisions made (printed: ``-s`` shows them)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import QwixxBot
from bot.cogs.choice_items import encode_steps
from bot.records.plans import Step
from bot.records.seats import Seats
from bot.rules import PASS, Move
from bot.sandbox import GuildSpec, Sandbox, SimMember
from bot.sandbox.autoplay import Choice, choices, moves, wait_for_turn
from bot.sandbox.records import StoredMessage
from tests.truth.facts import facts_of
from tests.truth.letters import check_letters, read_letters

from .asking import Table, ahead_ids, chosen
from .conftest import UNLIMITED, fast_budget

SEED_AHEAD = 20261126
AHEAD = ("ahead", "ahead_fallback")
TAKEN = ("player", *AHEAD)
"""The move log's sources of decisions a person took (by hand, or ahead)."""
SEED_LOCK = 1720
"""A classic game in which, on turn 7 (Ana's), Ben locks red with a 12 while Ana,
having passed the white sum, chose a red cross ahead (found by playing the policies
below through the rules)."""


def make_bot(database: Path, seed: int) -> QwixxBot:
    """Commands synced globally, so that both servers of the stand-in have them."""
    return QwixxBot(database, seeds=lambda: seed, coalesce=0.05, budget=fast_budget())


async def sandbox(database: Path, seed: int) -> AsyncIterator[Sandbox]:
    guilds = [GuildSpec("Alpha", channels=("games", "more")), GuildSpec("Beta")]
    async with Sandbox(
        **UNLIMITED, guilds=guilds, members=["Ana", "Ben", "Cem"], settle=0.02
    ) as sb:
        await sb.run_bot(make_bot(database, seed))
        yield sb
        assert sb.failures == [], sb.describe_failures()


@pytest.fixture
async def sb(database: Path) -> AsyncIterator[Sandbox]:
    async for opened in sandbox(database, SEED_AHEAD):
        yield opened


@pytest.fixture
async def sb_lock(database: Path) -> AsyncIterator[Sandbox]:
    async for opened in sandbox(database, SEED_LOCK):
        yield opened


async def seated(
    sb: Sandbox, host: SimMember, *guests: SimMember, variant: str = "classic"
) -> Table:
    lobby = (await host.slash("qwixx", "start", variant=variant)).message
    for guest in guests:
        await guest.click(lobby, label="Join")
    await host.click(lobby, label="Start")
    turn = await wait_for_turn(sb, host.channel)
    game_id = int(turn.find_component(label="Open my sheet")["custom_id"].split(":")[1])
    return Table(sb, {m.id: m for m in (host, *guests)}, game_id, host.channel)


async def replays(table: Table) -> None:
    """The move log, replayed through the rules, gives the stored game."""
    keeper = table.sb.bot.service.keeper  # type: ignore[union-attr]
    replayed = await keeper.replay(table.game_id)
    assert replayed.to_json() == (await table.game()).to_json()


async def sources(table: Table) -> list[tuple[int, str, str]]:
    """(player, move kind, source) of every stored decision, in order."""
    store = table.sb.bot.store  # type: ignore[union-attr]
    return [(m.player_id, m.move["kind"], m.source) for m in await store.games.moves(table.game_id)]


def report(table: Table, made: list[tuple[int, str, str]], what: str) -> float:
    """Taps per decision, each member's and in all, printed; the figure in all."""
    names = {p: m.name for p, m in table.members.items()}
    decisions = Counter(names[p] for p, _, _ in made if p in names)
    taken = Counter(names[p] for p, _, source in made if p in names and source in TAKEN)
    lines = [f"{what}: taps (on Open my sheet) / decisions (taken by the person)"]
    for name in sorted(decisions):
        taps, opened = table.taps[name], table.opened[name]
        lines.append(f"  {name}: {taps} ({opened}) / {decisions[name]} ({taken[name]})")
    taps, opened = sum(table.taps.values()), sum(table.opened.values())
    count, own = max(1, sum(decisions.values())), max(1, sum(taken.values()))
    lines.append(
        f"  all: {taps / count:.2f} taps per decision, {taps / own:.2f} per decision taken "
        f"by the person ({(taps - opened) / own:.2f} without opening the sheet)"
    )
    print("\n".join(lines))
    return taps / own


# --- a classic game: Ben's standing choice, the active players deciding ahead ----------
async def test_a_classic_game_asks_only_what_nobody_decided_yet(sb: Sandbox) -> None:
    """Ben crosses only what skips nothing on others' turns (set once with
    ``/qwixx preferences``); the active player chooses their coloured die ahead with
    their white sum. Nobody is asked what a standing choice answers, and each choice made
    ahead is made when its moment comes."""
    ana, ben, cem = (sb.member(n) for n in ("Ana", "Ben", "Cem"))
    said = await ben.slash("qwixx", "preferences", others="safe")
    assert said.message.ephemeral and "cross only what skips nothing" in said.message.content
    table = await seated(sb, ana, ben, cem)
    rng = random.Random(7)
    planned = 0
    for _ in range(400):
        snap = await table.snapshot()
        game = snap.game
        if snap.record.status != "running" or game is None:
            break
        decision = game.decision()
        if ben.id != decision.active:
            assert ben.id not in decision.waiting, "Ben's standing choice answers this"
        active = table.members[decision.active]
        if decision.phase == "action1" and decision.active in decision.waiting:
            sheet = await table.sheet(active)
            white = chosen(rng, game.legal_moves(active.id))
            after = (await table.move(active, sheet, white)).message
            options = ahead_ids(after)
            if options and (await table.game()).turn == game.turn:
                assert "action 2 ahead" in after.content
                await table.tap(active, after, custom_id=rng.choice(sorted(options)))
                planned += 1
            continue
        if decision.phase == "action1":
            for player in sorted(decision.waiting):
                member = table.members[player]
                if rng.random() < 0.5:
                    await table.tap(member, await table.turn_message(game.turn), label="Pass")
                else:
                    sheet = await table.sheet(member)
                    await table.move(member, sheet, chosen(rng, game.legal_moves(player)))
            continue
        sheet = await table.sheet(active)  # asked after all: no plan, or it fell through
        await table.move(active, sheet, chosen(rng, game.legal_moves(active.id)))
    made = await sources(table)
    assert (await table.snapshot()).record.status == "finished"
    assert planned > 5
    events = await table.sb.bot.service.keeper.events(table.game_id)  # type: ignore[union-attr]
    told = [e.data for e in events if e.kind == "ahead"]
    assert len(told) == planned, "each choice made ahead is told once, made or not"
    by_source = Counter(source for _, _, source in made)
    assert by_source["ahead"] == sum(1 for data in told if data["applied"])
    assert by_source["ahead"] > 0
    assert {s for p, _, s in made if p == ben.id} <= {"player", "standing_safe", *AHEAD}
    assert by_source["standing_safe"] > 0
    await replays(table)
    report(table, made, "classic, Ben safe, active players ahead")


# --- a choice ahead that a lock makes impossible -----------------------------------------
async def test_a_choice_ahead_that_a_lock_took_away_falls_back_as_chosen(
    sb_lock: Sandbox,
) -> None:
    """Ana passes the white sum and chooses a red cross ahead; on turn 7 Ben locks red
    meanwhile: her choice cannot be made, and she passes, as she chose on her sheet."""
    sb = sb_lock
    ana, ben, cem = (sb.member(n) for n in ("Ana", "Ben", "Cem"))
    table = await seated(sb, ana, ben, cem)
    fallback_set = False
    for _ in range(200):
        game = await table.game()
        if game.turn > 7 or game.finished:
            break
        decision = game.decision()
        if decision.phase == "action1" and decision.active == ana.id:
            sheet = await table.sheet(ana)
            after = (await table.move(ana, sheet, PASS)).message
            if not fallback_set:  # once: her default from now on
                assert "If it is no longer possible then, you are asked." in after.content
                after = (await table.tap(ana, after, label="Pass in that case")).message
                assert "If it is no longer possible then, you pass." in after.content
                fallback_set = True
            foreseen = game.foresee(ana.id, [PASS])
            assert foreseen is not None
            options = foreseen.legal_moves(ana.id)
            red = [m for m in options if m.row == "red"]
            plan = red[0] if red else fewest_skips(foreseen, ana.id, options)
            after = (await table.ahead(ana, after, game.turn, (Step("action2", plan),))).message
            assert "✓ Chosen ahead:" in after.content
            await others_decide(table, ben, cem)
            continue
        if decision.phase == "action1":
            await others_decide(table, ben, cem, ana)
            continue
        member = table.members[decision.active]
        sheet = await table.sheet(member)
        await table.move(member, sheet, fewest_skips(game, member.id, game.legal_moves(member.id)))
    events = await table.sb.bot.service.keeper.events(table.game_id)  # type: ignore[union-attr]
    told = [(e.turn, e.data) for e in events if e.kind == "ahead" and e.player == ana.id]
    turn7 = [data for turn, data in told if turn == 7]
    assert turn7 and turn7[0]["applied"] is False and turn7[0]["then"] == "pass"
    assert turn7[0]["move"]["row"] == "red"
    locked = [e for e in events if e.kind == "locked" and e.turn == 7]
    assert [e.data["row"] for e in locked] == ["red"]
    made = await sources(table)
    assert (ana.id, "pass", "ahead_fallback") in made
    assert [e.player for e in events if e.kind == "penalty" and e.turn == 7] == [ana.id]
    await replays(table)
    report(table, made, "classic, Ana's choices ahead (a lock took one away)")


def fewest_skips(game, player: int, moves: list[Move]) -> Move:  # type: ignore[no-untyped-def]
    options = [m for m in moves if m != PASS]
    if not options:
        return PASS
    return min(options, key=lambda m: (len(game.skipped_by(player, m)), m.row, m.number))


async def others_decide(table: Table, *members: SimMember) -> None:
    """Ben crosses red whenever he may (the lock too); the others pass."""
    game = await table.game()
    for member in members:
        game = await table.game()
        if member.id not in game.decision().waiting:
            continue
        red = [m for m in game.legal_moves(member.id) if m.row == "red"]
        if member.name == "Ben" and red:
            await table.move(member, await table.sheet(member), red[0])
        else:
            await table.tap(member, await table.turn_message(game.turn), label="Pass")


# --- Qwinto: the re-throw rule with the throw, the next throw ahead -----------------------
async def test_qwinto_throws_with_its_rule_and_the_next_throw_is_made_when_its_turn_comes(
    sb: Sandbox,
) -> None:
    ana, ben, cem = (sb.member(n) for n in ("Ana", "Ben", "Cem"))
    table = await seated(sb, ana, ben, cem, variant="qwinto")
    sheet = await table.sheet(ana)
    rule = next(c for c in sheet.interactive() if c.get("custom_id", "").endswith(":rethrow"))
    picked = (await table.pick(ana, sheet, ["unless_writable"], rule["custom_id"])).message
    assert "throw again if I cannot write it" in str(picked.components)
    thrown = (await table.tap(ana, picked, label="Roll 🟧🟨🟪")).message
    made = await sources(table)
    assert made[:2] == [(ana.id, "roll", "player"), (ana.id, made[1][1], "ahead")]
    assert made[1][1] in ("keep", "reroll")
    assert (
        f"✓ Made as you chose ahead: {'keep the throw' if made[1][1] == 'keep' else 'throw again'}."
        in thrown.content
    )
    assert (await table.game()).decision().phase == "place", "nobody asked about the re-throw"
    # Ben writes, then chooses his throw of turn 2 on the same message.
    mine = await table.sheet(ben)
    field = next(label for label in mine.labels if label.endswith("/9"))
    wrote = (await table.tap(ben, mine, label=field)).message
    assert "**Your next throw (turn 2), ahead:**" in wrote.content
    wrote = (
        await table.ahead(ben, wrote, 2, (Step("roll", Move("roll", dice=("orange", "yellow"))),))
    ).message
    assert "✓ Chosen ahead: Roll 🟧🟨; then you are asked whether to keep it." in wrote.content
    # Ana writes (her next throw is offered with her last rule), Cem passes: turn 2.
    field = next(label for label in thrown.labels if label.endswith("/9"))
    hers = (await table.tap(ana, thrown, label=field)).message
    assert "**Your next throw (turn 4), ahead:**" in hers.content
    hers_rule = next(c for c in hers.interactive() if c.get("custom_id", "").endswith(":rethrow"))
    assert [o["value"] for o in hers_rule["options"] if o.get("default")] == ["unless_writable"]
    await table.tap(cem, await table.turn_message(1), label="Pass")
    game = await table.game()
    assert (game.turn, game.decision().phase, game.active) == (2, "reroll", ben.id)
    assert (await sources(table))[-1] == (ben.id, "roll", "ahead")

    def moved_on() -> StoredMessage | None:
        message = sb.server.world.messages[wrote.id]
        return message if any(label.startswith("Keep") for label in message.labels) else None

    moved = await sb.wait_for(moved_on)
    assert moved.content.startswith("✓ Made as you chose ahead: Roll 🟧🟨.")
    await replays(table)
    report(table, await sources(table), "qwinto, a rule with the throw and a throw ahead")


# --- /qwixx preferences --------------------------------------------------------------------
async def test_preferences_are_shown_changed_and_refused_politely(sb: Sandbox) -> None:
    ana, ben = sb.member("Ana"), sb.member("Ben")
    table = await seated(sb, ana, ben)
    members = sb.bot.service.members  # type: ignore[union-attr]
    shown = (await ana.slash("qwixx", "preferences")).message
    assert shown.ephemeral and "• On others' turns: ask me" in shown.content
    changed = await ana.slash(
        "qwixx",
        "preferences",
        others="computer",
        quiet_from="22:00",
        quiet_to="7:00",
        timezone="Europe/Berlin",
        direct_messages=True,
        remind_soon=True,
    )
    assert changed.message.ephemeral and changed.message.content.startswith("✅ Saved.")
    assert "• Reminders: soon and again" in changed.message.content
    assert "• Quiet hours: 22:00–07:00, Europe/Berlin time" in changed.message.content
    saved = await members.prefs(ana.id)
    assert (saved.others, saved.quiet, saved.zone, saved.dm, saved.nudge) == (
        "computer",
        (22 * 60, 7 * 60),
        "Europe/Berlin",
        True,
        True,
    )
    seat = Seats.of((await table.snapshot()).record).prefs_of(ana.id)
    assert seat.others == "computer", "the running game takes the new default"
    for options, said in [
        ({"quiet_from": "25:99", "quiet_to": "7"}, "25:99 is not a time of day"),
        ({"timezone": "Mars/Olympus"}, "I do not know the time zone Mars/Olympus"),
        ({"away_until": "2001-01-01"}, "2001-01-01 is over already"),
        ({"away_until": "2099-01-01", "back": True}, "not both at once"),
        ({"quiet_from": "23:00", "quiet_off": True}, "not both at once"),
    ]:
        refused = await ana.slash("qwixx", "preferences", **options)
        assert refused.failed is None
        assert refused.message.ephemeral and said in refused.message.content, options
        assert await members.prefs(ana.id) == saved, "nothing is saved of a refusal"
    answer = changed.message
    fallback = next(c for c in answer.interactive() if c.get("custom_id") == "qx:prefs:fallback")
    after = (await ana.select(answer, ["pass"], custom_id=fallback["custom_id"])).message
    assert "• If a choice made ahead is no longer possible: pass" in after.content
    after = (await ana.click(after, label="Direct messages off")).message
    assert "• Direct messages when a game waits for you: off" in after.content
    assert (await members.prefs(ana.id)).fallback == "pass"
    zones = await autocomplete(sb, ana, "timezone", "berl")
    assert [z["value"] for z in zones] == ["Europe/Berlin"]
    away = await ana.slash(
        "qwixx", "preferences", away_until="2099-01-01", in_channel=ana.open_dm()
    )
    assert "2099-01-01 is more than a year away" in away.message.content, "in the DM with the bot"


async def autocomplete(sb: Sandbox, member: SimMember, option: str, typed: str) -> list[dict]:  # type: ignore[type-arg]
    """What the bot offers as ``member`` types ``typed`` into ``/qwixx preferences``'s
    ``option``."""
    from bot.sandbox.commands import command_data

    world = sb.server.world
    data = command_data(world, member.record, ("qwixx", "preferences"), {option: typed})
    for found in data["options"][0]["options"]:
        found["focused"] = found["name"] == option
    record = await sb.server.interactions.open(4, member.record, member.channel, data)
    await world.wait_until(lambda: record.autocomplete is not None, 5.0)
    return list(record.autocomplete or [])


# --- /qwixx mygames ------------------------------------------------------------------------
async def test_the_inbox_holds_the_games_of_every_server_newest_wait_first(
    sb: Sandbox,
) -> None:
    alpha, beta = sb.guilds
    ana, ben = sb.member("Ana"), sb.member("Ben")
    here = await seated(sb, ana, ben)
    ana_beta, ben_beta = sb.join(ana, beta), sb.join(ben, beta)
    lobby = (await ben_beta.slash("qwixx", "start", variant="longo")).message
    await ana_beta.click(lobby, label="Join")
    await ben_beta.click(lobby, label="Start")
    there_channel = sb.server.world.channels[beta.channel_ids[0]]
    there = await wait_for_turn(sb, there_channel)
    inbox = await ana.slash("qwixx", "mygames")
    assert inbox.message.ephemeral
    lines = inbox.message.content.splitlines()
    assert lines[0] == "**Games waiting for you**, the newest wait first:"
    assert lines[1].startswith(f"• Qwixx Longo in <#{there_channel.id}> — your white sum (")
    assert f"(https://discord.com/channels/{beta.id}/{there_channel.id}/{there.id})" in lines[1]
    first = await here.turn_message(1)
    assert lines[2].startswith(f"• Qwixx in <#{alpha.channel_ids[0]}> — your white sum (")
    assert (
        f"(https://discord.com/channels/{alpha.id}/{alpha.channel_ids[0]}/{first.id})" in lines[2]
    )
    assert "waiting since <t:" in lines[1] and len(lines) == 3
    elsewhere = await ana_beta.slash("qwixx", "mygames")
    assert elsewhere.message.content == inbox.message.content, "the same inbox on every server"
    await here.tap(ana, first, label="Pass")
    after = (await ana.slash("qwixx", "mygames")).message.content.splitlines()
    assert len(after) == 2 and "Qwixx Longo" in after[1], "a decision made leaves the inbox"


async def test_a_costly_choice_ahead_asks_first_and_a_late_one_is_a_plain_move(
    sb: Sandbox,
) -> None:
    """Ana's coloured die ahead skipping many numbers asks "Sure?" first; a choice ahead
    tapped once everyone has decided (on a sheet left open) is made as her move."""
    ana, ben, cem = (sb.member(n) for n in ("Ana", "Ben", "Cem"))
    table = await seated(sb, ana, ben, cem)
    sheet = await table.sheet(ana)
    first = Move("cross", "red", 7)
    ahead = (await table.move(ana, sheet, first)).message
    kept = await table.sheet(ana)  # a second look, left as it is
    assert ahead_ids(kept) == ahead_ids(ahead)
    costly = Move("cross", "yellow", 10)  # ⚪6+🟨4 on an empty row: skips 8
    asked = await ana.click(
        ahead, custom_id=f"qx:{table.game_id}:1:ahead:{encode_steps((Step('action2', costly),))}"
    )
    assert asked.message.content == "Cross Yellow 10 and skip 8 numbers?"
    assert asked.message.labels == ["Yes", "Back"]
    back = (await ana.click(asked.message, label="Back")).message
    assert "action 2 ahead" in back.content
    assert Seats.of((await table.snapshot()).record).plans == {}, "nothing planned"
    for member in (ben, cem):
        await table.tap(member, await table.turn_message(1), label="Pass")
    game = await table.game()
    assert game.decision().phase == "action2" and game.decision().waiting == {ana.id}
    late = Move("cross", "red", 10)
    done = await ana.click(
        kept, custom_id=f"qx:{table.game_id}:1:ahead:{encode_steps((Step('action2', late),))}"
    )
    assert done.failed is None and "Turn 2" in done.message.content
    assert (await sources(table))[-1] == (ana.id, "cross", "player")
    await replays(table)


async def test_the_active_player_decides_both_actions_from_one_direct_message(
    sb: Sandbox,
) -> None:
    """Ana asked for direct messages: her letter for turn 1's white sum goes on, once she
    tapped it, to her coloured die ahead; a tap each, two decisions, and no second
    letter for action 2 (Ben's standing choice answers for him, Cem passes)."""
    ana, ben, cem = (sb.member(n) for n in ("Ana", "Ben", "Cem"))
    members = sb.bot.service.members  # type: ignore[union-attr]
    await members.change(ana.id, dm=True)
    await members.change(ben.id, others="safe")
    table = await seated(sb, ana, ben, cem)
    [letter] = await sb.wait_for(lambda: [m for m in ana.direct_messages() if moves(m)] or None)
    game = await table.game()
    after = (await table.move(ana, letter, PASS)).message  # every cross of 7 skips 5 here
    assert after.id == letter.id and "action 2 ahead" in after.content
    foreseen = game.foresee(ana.id, [PASS])
    assert foreseen is not None
    colour = fewest_skips(foreseen, ana.id, foreseen.legal_moves(ana.id))  # Green 10: skips 2
    after = (await table.ahead(ana, after, 1, (Step("action2", colour),))).message
    assert "✓ Chosen ahead: " in after.content, after.content
    await table.tap(cem, await table.turn_message(1), label="Pass")
    game = await table.game()
    assert game.turn == 2
    made = await sources(table)
    assert [s for p, _, s in made if p == ana.id] == ["player", "ahead"]
    letters = [m for m in ana.direct_messages() if not m.ephemeral]
    assert [m.id for m in letters][:1] == [letter.id]
    assert all("action 2" not in m.content for m in letters[1:]), "no letter for action 2"
    assert table.taps[ana.name] == 2, "a tap a decision"
    await sb.wait_for(lambda: "Action 2:" in sb.server.world.messages[letter.id].content)
    store = table.sb.bot.store  # type: ignore[union-attr]
    record = await store.games.get(table.game_id)
    assert record is not None
    facts = facts_of(record, await store.games.moves(table.game_id))
    emojis = {e.id: e.name for e in sb.server.world.emojis.values()}
    closed = sb.server.world.messages[letter.id].content  # its wait over: all is told
    reading = read_letters([closed], ana.id, emojis)
    assert [v for v in check_letters(reading, facts) if not v.ok] == [], "every claim true"


async def test_a_whole_game_from_direct_messages_with_choices_ahead(sb: Sandbox) -> None:
    """Everyone plays from their letters alone (Ben's standing choice answering on other
    people's turns), the active player deciding their coloured die ahead in the same
    letter: taps per decision taken from a notification, counted."""
    ana, ben, cem = (sb.member(n) for n in ("Ana", "Ben", "Cem"))
    members = sb.bot.service.members  # type: ignore[union-attr]
    for member in (ana, ben, cem):
        await members.change(member.id, dm=True)
    await members.change(ben.id, others="safe")
    table = await seated(sb, ana, ben, cem)

    def waiting() -> list[tuple[SimMember, StoredMessage]] | None:
        found = [
            (m, letter)
            for m in (ana, ben, cem)
            for letter in m.direct_messages()
            if not letter.ephemeral and moves(letter)
        ]
        return found or None

    for _ in range(600):
        if (await table.snapshot()).record.status != "running":
            break
        member, letter = (await sb.wait_for(waiting, timeout=30))[0]
        table.taps[member.name] += 1
        after = await least_skipping(moves(letter)).take(member, letter)
        if "Yes" in after.labels and not after.attachments:
            table.taps[member.name] += 1
            after = (await member.click(after, label="Yes")).message
        if ahead_ids(after):
            ahead = [c for c in choices(after) if ":ahead:" in c.custom_id]
            await table.tap(member, after, custom_id=least_skipping(ahead).custom_id)
        await sb.wait_for(lambda m=member, sent=letter: answered(m, sent), timeout=30)
    assert (await table.snapshot()).record.status == "finished"
    made = await sources(table)
    assert {s for p, _, s in made if p == ben.id} <= {"player", "standing_safe", *AHEAD}
    rate = report(table, made, "classic from direct messages, Ben safe, active players ahead")
    assert rate <= 1.2, "at most 1.2 taps a decision taken from a notification"
    await replays(table)


def answered(member: SimMember, letter: StoredMessage) -> bool:
    """Whether ``member``'s ``letter`` no longer offers a move (its decision is made)."""
    return not any(x.id == letter.id and moves(x) for x in member.direct_messages())


def least_skipping(offered: list[Choice]) -> Choice:
    """What a person mostly taps: a cross that skips nothing, else the one skipping
    least, else not crossing (the labels say how many numbers a cross skips)."""

    def skips(choice: Choice) -> tuple[int, int, str]:
        text = choice.text
        if text in ("Pass", "None", "None (costs a penalty)"):
            return (1, 99, text)
        count = int(text.split("(skips ")[1].split(")")[0]) if "(skips " in text else 0
        return (0, count, text)

    return min(offered, key=skips)
