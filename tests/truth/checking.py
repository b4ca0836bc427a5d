"""Each claim the channel makes, held to the game's facts (:mod:`tests.truth.facts`).

:func:`check` answers with a :class:`Verdict` per claim: true, or false with what the
game says instead. Beside the claims, a few things must be told at all (:func:`told`):
every turn the game began, and each penalty, lock, failed throw and end, once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from bot.players import choose, is_computer
from bot.records.options import Options
from bot.rules import PASS, VARIANTS, Move
from bot.rules.dice import dice_rng
from bot.rules.qwinto import GEOMETRY
from tests.truth.facts import RULED, Facts, Made, Turn
from tests.truth.reading import Claim, Reading

WHITE = ("white1", "white2")


@dataclass(frozen=True)
class Verdict:
    kind: str
    line: str
    turn: int | None
    ok: bool
    why: str = ""
    """What the game says (a false claim)."""


Check = Callable[[Claim, Facts], str | None]
"""A claim's check: None if it is true, else what the game says instead."""
CHECKS: dict[str, Check] = {}


def checks(*kinds: str) -> Callable[[Check], Check]:
    def register(function: Check) -> Check:
        for kind in kinds:
            CHECKS[kind] = function
        return function

    return register


TurnCheck = Callable[[Claim, Facts, Turn], str | None]
"""A check of a claim about one turn, given the turn."""


def turn_checks(*kinds: str) -> Callable[[TurnCheck], TurnCheck]:
    """Register a check of claims about a turn (false if the game has no such turn)."""

    def register(function: TurnCheck) -> TurnCheck:
        def about_turn(claim: Claim, facts: Facts) -> str | None:
            turn = facts.turns.get(claim.turn or 0)
            if turn is None:
                return f"the game has no turn {claim.turn}"
            return function(claim, facts, turn)

        for kind in kinds:
            CHECKS[kind] = about_turn
        return function

    return register


def check(reading: Reading, facts: Facts) -> list[Verdict]:
    """Every claim of ``reading`` held to ``facts``; an unread line is a false claim, and so
    is something the channel never told (see :func:`told`)."""
    verdicts = []
    for claim in reading.claims:
        found = CHECKS.get(claim.kind)
        if found is None:
            why: str | None = f"the checker knows no claim {claim.kind!r}"
        else:
            why = found(claim, facts)
        verdicts.append(Verdict(claim.kind, claim.line, claim.turn, why is None, why or ""))
    verdicts += [
        Verdict("unread", line, None, False, "no known sentence") for line in reading.unread
    ]
    verdicts += told(reading, facts)
    return verdicts


def name(player: int) -> str:
    return f"Computer {-player}" if is_computer(player) else f"<@{player}>"


# --- a turn's story ---------------------------------------------------------------
@turn_checks("header")
def header(claim: Claim, facts: Facts, turn: Turn) -> str | None:
    active = claim.values["active"]
    return None if active == turn.active else f"{name(turn.active)} was active"


@turn_checks("dice")
def dice(claim: Claim, facts: Facts, turn: Turn) -> str | None:
    thrown = [(die.rstrip("12"), face) for die, face in turn.dice.items()]
    white = sum(face for die, face in turn.dice.items() if die in WHITE)
    if claim.values["dice"] != thrown or claim.values["total"] != white:
        return f"the dice were {thrown}, white sum {white}"
    return None


CHOSEN = ("passed", "wrote_nothing")
"""A pass told as the player's choice: something else was open to them."""
FORCED = ("nothing_to_cross", "nowhere_to_write")
"""A pass told as the only move: nothing else was open to them."""


@turn_checks("crossed", "lucky", "wrote", *CHOSEN, *FORCED)
def decision(claim: Claim, facts: Facts, turn: Turn) -> str | None:
    """A player's decision in an action: what they crossed (by luck or not) or wrote (in
    which field of the row), or that they crossed (wrote) nothing in it, by choice or
    because nothing was open to them."""
    values, kind = claim.values, claim.kind
    who, phase = values["player"], values["phase"]
    wrote = [
        e
        for e in turn.of("crossed", "placed")
        if e.player == who and e.data.get("phase", "place") == phase
    ]
    if kind in CHOSEN + FORCED:
        passed = [e for e in turn.of("passed") if e.player == who and e.data["phase"] == phase]
        if wrote or not passed:
            return f"{name(who)} " + (
                f"wrote {wrote[0].data}" if wrote else f"made no decision in {phase}"
            )
        open_to = turn.options.get(phase, {}).get(who)
        if bool(open_to) != (kind in CHOSEN):
            return f"{name(who)} could make {open_to or 'no move but a pass'} in {phase}"
        if kind == "nowhere_to_write" and values["number"] != thrown(turn):
            return f"the sum was {thrown(turn)}"
        return None
    if kind == "wrote":
        found = [
            e
            for e in wrote
            if e.data["row"] == values["row"]
            and e.data["number"] == values["number"]
            and field_place(e.data["row"], e.data["column"]) == values["position"]
        ]
    else:
        via = "lucky" if kind == "lucky" else "cross"
        found = [
            e
            for e in wrote
            if e.data["row"] == values["row"]
            and e.data["number"] == values["number"]
            and e.data.get("via") == via
        ]
    return None if found else f"{name(who)} in {phase}: {[e.data for e in wrote] or 'nothing'}"


def field_place(row: str, column: int) -> int:
    """A Qwinto field's place in its row as a player counts it: 1 to 9 from the left,
    the blank field not counted."""
    geometry = GEOMETRY[row]
    return [c for c in geometry.span if c != geometry.blank].index(column) + 1


def thrown(turn: Turn) -> int:
    """The sum a turn's action is about: the white dice's, or Qwinto's kept throw."""
    throws = turn.of("rolled")
    if throws:
        return int(throws[-1].data["total"])
    return sum(face for die, face in turn.dice.items() if die in WHITE)


@turn_checks("nobody")
def nobody(claim: Claim, facts: Facts, turn: Turn) -> str | None:
    """Nobody had anything to do in an action but pass: no one could cross (write) the
    sum, which the claim names."""
    phase = claim.values["phase"]
    movers = [p for p, moves in turn.options.get(phase, {}).items() if moves]
    if movers or phase not in turn.options:
        return f"{', '.join(map(name, movers)) or 'nobody'} had a move in {phase}"
    if claim.values["total"] != thrown(turn):
        return f"the sum was {thrown(turn)}"
    return None


def event_check(kind: str, *fields: str) -> TurnCheck:
    """A claim that the turn has an event of ``kind`` by the claim's player with the
    claim's ``fields``."""

    def verify(claim: Claim, facts: Facts, turn: Turn) -> str | None:
        who = claim.values.get("player")
        found = [e for e in turn.of(kind) if e.player == who]
        if any(all(e.data.get(f) == claim.values.get(f) for f in fields) for e in found):
            return None
        return f"turn {turn.number} has {[(name(e.player or 0), e.data) for e in found]}"

    return verify


turn_checks("penalty")(event_check("penalty", "count", "limit"))
turn_checks("failed_throw")(event_check("failed_throw", "count", "limit"))
turn_checks("locked")(event_check("locked", "row"))
turn_checks("finish_reached")(event_check("finish_reached"))


@turn_checks("pawn_moved", "pawn_moved_crossed")
def pawn(claim: Claim, facts: Facts, turn: Turn) -> str | None:
    """A pawn's move: how far, onto which field, its bonus, and whether landing there
    crossed its number (``pawn_moved``) or found it crossed already."""
    values = claim.values
    crosses = claim.kind == "pawn_moved"
    for event in turn.of("pawn_moved"):
        data = event.data
        if (
            event.player == values["player"]
            and data["steps"] == values["steps"]
            and data["row"] == values["row"]
            and data["number"] == values["number"]
            and data["bonus"] == values["bonus"]
            and data["crosses"] == crosses
            and data["to"] == values.get("position", data["to"])
        ):
            return None
    return f"the pawns moved {[(name(e.player or 0), e.data) for e in turn.of('pawn_moved')]}"


# --- decisions made without asking ---------------------------------------------------
SOURCES = {
    "by.safe": "standing_safe",
    "by.computer": "standing_hard",
    "by.away": "away_until",
    "by.away_safe": "away_until",
    "by.timeout": "timeout_hard",
    "by.ahead": "ahead",
    "by.rethrow": "ahead",
    "by.fallback": "ahead_fallback",
    "by.fallback_locked": "ahead_fallback",
}
"""The move log's source of a decision each mark names."""
CHOSEN_BEFORE = ("standing_safe", "standing_hard", "ahead", "ahead_fallback")
"""What a person chose beforehand: a standing choice, a choice made ahead."""


@turn_checks(*SOURCES)
def by_rule(claim: Claim, facts: Facts, turn: Turn) -> str | None:
    """A decision told as made by a rule: the move log names that rule as who made the
    player's move in that phase of that turn, and the move is what the rule gives."""
    who, phase = claim.values["player"], claim.values["phase"]
    made = turn.made.get((phase, who))
    if made is None:
        return f"{name(who)} made no move in {phase} of turn {turn.number}"
    if made.source != SOURCES[claim.kind]:
        return f"{name(who)}'s move in {phase} was made by {made.source!r}"
    assert made.before is not None
    rule = claim.kind.removeprefix("by.")
    if rule in ("safe", "away_safe"):
        return skips_nothing(who, made)
    if rule in ("computer", "away", "timeout"):
        return hard_choice(who, phase, made)
    if rule == "rethrow":
        return rethrown(claim.values["rule"], who, made)
    if rule.startswith("fallback"):
        if made.move != PASS:
            return f"{name(who)} made {made.move}, not a pass"
        return impossible(claim, turn, made.legal, made.closed)
    return None


def skips_nothing(who: int, made: Made) -> str | None:
    """ "Only what skips nothing": a cross that leaves no number behind, or a pass when
    no such cross was open."""
    before = made.before
    assert before is not None
    if made.move == PASS:
        whole = [m for m in made.legal if m != PASS and not before.skipped_by(who, m)]
        return f"{name(who)} could cross {whole[0]}, skipping nothing" if whole else None
    skipped = before.skipped_by(who, made.move)
    return f"{made.move} skips {skipped}" if skipped else None


def hard_choice(who: int, phase: str, made: Made) -> str | None:
    """The Hard computer's choice, seeded as every computer decision is: by the game,
    the turn, the phase and the seat."""
    before = made.before
    assert before is not None
    rng = dice_rng(before.seed, "computer", before.turn, phase, who)
    hard = choose(before, who, rng, "hard")
    return None if hard == made.move else f"the Hard computer chooses {hard}, not {made.move}"


def rethrown(rule: str, who: int, made: Made) -> str | None:
    """Qwinto's re-throw rule: keep, throw again, or throw again if the player could not
    write the sum thrown."""
    before = made.before
    assert before is not None
    if rule == "unless_writable":
        rule = "keep" if before.could_write(who) else "reroll"
    return None if made.move.kind == rule else f"the rule {rule!r} made {made.move}"


def impossible(
    claim: Claim, turn: Turn, legal: list[Move] | None, closed: tuple[str, ...]
) -> str | None:
    """A choice made ahead that could no longer be made at its moment (``legal``: what
    the player could do then): not among those moves; and, said to be the reason, its
    row was locked in this turn, before."""
    values = claim.values
    chosen, phase = values["planned"], values.get("planned_phase", values["phase"])
    if phase != values["phase"]:
        return f"{chosen} is no choice for {values['phase']}"
    if chosen is None or legal is None:
        return "its moment never came" if legal is None else "a rule is always possible"
    if chosen in legal:
        return f"{chosen} was still possible"
    row = values.get("row")
    if row is not None:
        locks = [e.data["row"] for e in turn.of("locked")]
        if row != chosen.row or row not in closed or row not in locks:
            return f"{row} was not locked in this turn before it (locks: {locks})"
    return None


@turn_checks("ahead.asked", "ahead.asked_locked")
def asked_instead(claim: Claim, facts: Facts, turn: Turn) -> str | None:
    """The active player's choice ahead could no longer be made, and the game asked them:
    their decision in that phase, if they made it, was no rule's."""
    who, phase = claim.values["player"], claim.values["phase"]
    if who != turn.active:
        return f"{name(who)} was not active in turn {turn.number}"
    made = turn.made.get((phase, who))
    if made is not None and made.source in ("ahead", "ahead_fallback"):
        return f"{name(who)}'s move in {phase} was made by {made.source!r}"
    if made is not None:
        return impossible(claim, turn, made.legal, made.closed)
    options = turn.options.get(phase, {}).get(who)
    legal = None if options is None else [*options, PASS]
    return impossible(claim, turn, legal, tuple(e.data["row"] for e in turn.of("locked")))


@turn_checks("ahead.unmet")
def unmet(claim: Claim, facts: Facts, turn: Turn) -> str | None:
    """A choice made ahead whose moment never came: its player made no decision in that
    phase of their turn (it passed by itself, or the game ended first)."""
    who, phase = claim.values["player"], claim.values["phase"]
    if who != turn.active:
        return f"{name(who)} was not active in turn {turn.number}"
    made = turn.made.get((phase, who))
    return None if made is None else f"{name(who)} made {made.move} in {phase}"


@turn_checks("ahead.unmet_later")
def unmet_later(claim: Claim, facts: Facts, turn: Turn) -> str | None:
    """A choice made ahead for a later turn of its player's, which the game never reached:
    it ended in this turn."""
    who, later = claim.values["player"], claim.values["for_turn"]
    players = facts.players
    if players[(later - 1) % len(players)] != who:
        return f"{name(who)} is not active in turn {later}"
    ended = facts.record.status != "running" and facts.game.turn == turn.number
    return None if ended and later > turn.number else f"the game went on to turn {later}"


@turn_checks("ahead.away")
def not_used(claim: Claim, facts: Facts, turn: Turn) -> str | None:
    """A choice made ahead not used: its player was away when its moment came, and the
    game decided for them (a computer in their seat, their away rules)."""
    who, phase = claim.values["player"], claim.values["phase"]
    made = turn.made.get((phase, who))
    if who != turn.active or made is None:
        return f"{name(who)} made no decision in {phase} of turn {turn.number}"
    if made.source not in ("away", "stand_in", "away_until") or who not in turn.away:
        return f"{name(who)}'s move in {phase} was made by {made.source!r}"
    return None


@turn_checks("kept")
def kept(claim: Claim, facts: Facts, turn: Turn) -> str | None:
    """The active player kept their throw (and did not throw again)."""
    made = turn.made.get(("reroll", claim.values["player"]))
    return None if made is not None and made.move.kind == "keep" else f"the re-throw: {made}"


@checks("waiting")
def waiting(claim: Claim, facts: Facts) -> str | None:
    """Whom an open turn waits for, since when: at the end of the move log."""
    return waiting_at(claim, facts, len(facts.moves))


def waiting_at(claim: Claim, facts: Facts, moves: int) -> str | None:
    """The game after ``moves`` of its moves waits for exactly the people named (those
    with a real choice open), since the decision opened."""
    moment = facts.moments[moves]
    named = claim.values["players"]
    if not moment.running:
        return "the game was over"
    if len(set(named)) != len(named) or set(named) != moment.waiting:
        return f"it waited for {', '.join(map(name, sorted(moment.waiting))) or 'nobody'}"
    if claim.values["since"] != int(moment.opened):
        return f"that decision opened at {int(moment.opened)}"
    return None


def check_moment(reading: Reading, facts: Facts, moves: int) -> list[Verdict]:
    """What a live turn message said when the store held ``moves`` moves: whom it
    waited for, since when; and that it said nothing the reader does not know."""
    verdicts = []
    for claim in reading.claims:
        if claim.kind == "waiting":
            why = waiting_at(claim, facts, moves)
            verdicts.append(Verdict("waiting", claim.line, claim.turn, why is None, why or ""))
    verdicts += [
        Verdict("unread", line, None, False, "no known sentence") for line in reading.unread
    ]
    return verdicts


@turn_checks("stayed")
def stayed(claim: Claim, facts: Facts, turn: Turn) -> str | None:
    """The active player chose not to move their pawn."""
    who = claim.values["player"]
    passed = [e for e in turn.of("passed") if e.player == who and e.data["phase"] == "action3"]
    return None if passed else f"{name(who)} did not pass action 3 in turn {turn.number}"


@turn_checks("rolled", "rerolled")
def rolled(claim: Claim, facts: Facts, turn: Turn) -> str | None:
    attempt = int(claim.kind == "rerolled")
    for event in turn.of("rolled"):
        dice = [(die, face) for die, face in event.data["dice"].items()]
        if (
            event.data["attempt"] == attempt
            and event.player == claim.values["player"]
            and dice == claim.values["dice"]
            and event.data["total"] == claim.values["total"]
        ):
            return None
    return f"the throws were {[e.data for e in turn.of('rolled')]}"


@turn_checks("die")
def die(claim: Claim, facts: Facts, turn: Turn) -> str | None:
    """A die that leaves the game is told on the lock of its own row, in the turn it
    left."""
    removed = [e.data["row"] for e in turn.of("die_removed")]
    lock = claim.values["lock"]
    wrong = [row for row in claim.values["rows"] if row not in removed or row != lock]
    if wrong:
        return (
            f"the {', '.join(wrong)} die is told on the lock of {lock} "
            f"(dice that left in turn {turn.number}: {removed})"
        )
    return None


@turn_checks("scores")
def scores(claim: Claim, facts: Facts, turn: Turn) -> str | None:
    """The scores at the end of the claim's turn, everyone's, best first."""
    return scores_at(claim.values["scores"], turn.scores, facts, f"turn {turn.number}")


def scores_at(
    told: list[tuple[int, int]], true: dict[int, int] | None, facts: Facts, when: str
) -> str | None:
    if true is None:
        return f"{when} never ended"
    if dict(told) != true or len(told) != len(facts.players):
        return f"at the end of {when}: {sorted(true.items(), key=lambda i: -i[1])}"
    totals = [total for _, total in told]
    if totals != sorted(totals, reverse=True):
        return "not best first"
    return None


@turn_checks("unasked.nobody", "unasked.computers", "unasked.away", "unasked.chosen")
def unasked(claim: Claim, facts: Facts, turn: Turn) -> str | None:
    """Why nobody was asked in a turn."""
    return unasked_in(claim.kind.removeprefix("unasked."), claim.values["players"], [turn])


def unasked_in(why: str, named: list[int], turns: list[Turn]) -> str | None:
    """Why nobody was asked in ``turns``: nobody had a move besides passing; or only the
    computers had; or the people ``named`` were away (and no person present was asked)."""
    movers = set().union(*(turn.movers() for turn in turns))
    people = {p for p in movers if not is_computer(p)}
    if why == "nobody":
        return None if not movers else f"{', '.join(map(name, sorted(movers)))} had a move"
    if why == "computers":
        if people:
            return f"{', '.join(map(name, sorted(people)))} had a move"
        return None if movers else "nobody had a move"
    if why == "chosen":
        asked = set().union(*(turn.asked() for turn in turns))
        if asked:
            return f"{', '.join(map(name, sorted(asked)))} was asked"
        if not people:
            return "no person had a move"
        by_other = sorted(
            {
                p
                for turn in turns
                for p, sources in turn.sources.items()
                if p in people and not sources <= set(CHOSEN_BEFORE)
            }
        )
        if by_other:
            return f"{', '.join(map(name, by_other))} did not decide by a choice made before"
        return None
    if why == "away":
        present = set().union(*(turn.asked() - turn.away for turn in turns))
        if present:
            return f"{', '.join(map(name, sorted(present)))} was asked"
        away = set().union(*(turn.away for turn in turns))
        not_away = [p for p in named if p not in away]
        return f"{', '.join(map(name, not_away))} was not away" if not_away else None
    return f"the checker does not know why {why!r}"


@checks("run.unasked.nobody", "run.unasked.computers", "run.unasked.away", "run.unasked.chosen")
def run(claim: Claim, facts: Facts) -> str | None:
    """Turns played out in one go (no outage among them), and why nobody was asked."""
    numbers = range(claim.values["first"], claim.values["last"] + 1)
    down = [n for n in numbers if n in facts.down]
    if down:
        return f"the channel could not be written in turns {down}"
    turns = [facts.turns[n] for n in numbers if n in facts.turns]
    return unasked_in(claim.kind.removeprefix("run.unasked."), claim.values["players"], turns)


@turn_checks("expired.qwixx", "expired.qwinto")
def expired(claim: Claim, facts: Facts, turn: Turn) -> str | None:
    """Time ran out for these players: the game decided nothing for them."""
    named = claim.values["players"]
    late = [p for p in named if p not in turn.expired]
    if late:
        return f"{', '.join(map(name, late))} decided in time"
    made = [
        m.move
        for m in facts.moves
        if m.source == "expired"
        and m.player_id in named
        and facts.move_turns[m.seq] == turn.number
        and Move.from_json(m.move).kind not in (PASS.kind, "roll", "keep")
    ]
    return f"the game made {made} for them" if made else None


@turn_checks("away.expired", "away.stand_in")
def went_away(claim: Claim, facts: Facts, turn: Turn) -> str | None:
    """A person let a third decision in a row run out in this turn."""
    who = claim.values["player"]
    if who not in turn.went_away:
        when = [n for n, t in facts.turns.items() if who in t.went_away]
        return f"{name(who)}'s third decision in a row ran out in turn {when}"
    filled = facts.record.options.get("fill_away", False)
    if filled != (claim.kind == "away.stand_in"):
        return "a computer plays away seats" if filled else "no computer plays away seats"
    return None


@turn_checks("away.left")
def left(claim: Claim, facts: Facts, turn: Turn) -> str | None:
    return None if claim.values["player"] in turn.left else "nobody left"


@turn_checks("away.back")
def back(claim: Claim, facts: Facts, turn: Turn) -> str | None:
    return None if claim.values["player"] in turn.back else f"back: {turn.back}"


@checks(
    "game_over.penalties",
    "game_over.failed_throws",
    "game_over.rows_locked",
    "game_over.two_rows",
    "game_over.board_finish",
    "game_over.abandoned",
    "game_over.no_seats",
)
def game_over(claim: Claim, facts: Facts) -> str | None:
    """The game ended in the claim's turn, for the claim's reason."""
    reason = claim.kind.removeprefix("game_over.")
    if reason == "abandoned":
        return None if facts.abandoned == claim.turn else f"abandoned: {facts.abandoned}"
    if reason == "no_seats":
        ended = facts.record.status == "abandoned" and facts.abandoned is None
        return None if ended and facts.game.turn == claim.turn else "the game went on"
    game = facts.game
    if game.end_reason != reason or game.turn != claim.turn:
        return f"the game ended in turn {game.turn} ({game.end_reason})"
    return None


@checks("missed")
def missed(claim: Claim, facts: Facts) -> str | None:
    """Turns played while the channel could not be written."""
    turns = range(claim.values["first"], claim.values["last"] + 1)
    up = [turn for turn in turns if turn not in facts.down]
    return f"the channel could be written in turns {up}" if up else None


@checks("summary_turn")
def summary_turn(claim: Claim, facts: Facts) -> str | None:
    inside = claim.values["first"] <= (claim.turn or 0) <= claim.values["last"]
    return None if inside else "a turn outside the summary's turns"


@turn_checks("summary_scores")
def summary_scores(claim: Claim, facts: Facts, turn: Turn) -> str | None:
    """A summary's scores: at the end of the last turn it sums up."""
    return scores_at(claim.values["scores"], turn.scores, facts, f"turn {turn.number}")


@checks("earlier")
def earlier(claim: Claim, facts: Facts) -> str | None:
    """So many turns before the next one told were played while nobody was asked."""
    before = [n for n in sorted(facts.turns) if n < claim.values["next"] and facts.turns[n].events][
        -claim.values["count"] :
    ]
    asked = [n for n in before if facts.turns[n].asked() - facts.turns[n].away]
    if len(before) != claim.values["count"] or asked:
        return f"people were asked in turns {asked}"
    return None


# --- the start and the final message -----------------------------------------------
@checks("started")
def started(claim: Claim, facts: Facts) -> str | None:
    """The game's title and its seats, in order."""
    true = VARIANTS[facts.record.variant].title
    if claim.values["title"] != true or claim.values["players"] != list(facts.players):
        return f"{true} started with {', '.join(map(name, facts.players))}"
    return None


@checks("uncounted.people", "uncounted.hints")
def uncounted(claim: Claim, facts: Facts) -> str | None:
    """The game does not count: fewer than two people (not solo practice), or hints."""
    options = Options.of(facts.record.options)
    people = sum(not is_computer(p) for p in facts.players)
    true = people < 2 and not options.solo if claim.kind == "uncounted.people" else options.hints
    return None if true else f"{people} people, options {facts.record.options}"


@checks("live")
def live(claim: Claim, facts: Facts) -> str | None:
    """What an open turn says (it asks, someone decides, the scores now): the game must
    still be on."""
    status = facts.record.status
    return None if status == "running" else f"the game is over ({status})"


@checks("title")
def title(claim: Claim, facts: Facts) -> str | None:
    true = VARIANTS[facts.record.variant].title
    return None if claim.values["title"] == true else f"the game is {true}"


def standing(claim: Claim, facts: Facts) -> str | None:
    """The game finished with the claim's player at its rank with its total."""
    if not facts.finished:
        return "the game did not finish"
    values, who = claim.values, claim.values["player"]
    true = next((s for s in facts.game.ranking() if s.player == who), None)
    if true is None or (true.rank, true.total) != (values["rank"], values["total"]):
        return f"{name(who)}: {true}"
    return None


@checks("rank")
def rank(claim: Claim, facts: Facts) -> str | None:
    """A line of the final ranking: the player's rank and total (and rating)."""
    placed = standing(claim, facts)
    if placed is not None:
        return placed
    values, who = claim.values, claim.values["player"]
    if "rating" in values or who in facts.ratings:
        told = (values.get("rating"), values.get("provisional"), values.get("change"))
        true = facts.ratings.get(who)
        if true is None or told != true:
            return f"{name(who)}'s rating: {true}"
    return None


@checks("winner")
def winner(claim: Claim, facts: Facts) -> str | None:
    winners = [s.player for s in facts.game.ranking() if s.rank == 1]
    plural = len(winners) > 1
    if sorted(claim.values["players"]) != sorted(winners) or claim.values["plural"] != plural:
        return f"{', '.join(map(name, winners))} won"
    return None


@checks("wins")
def wins(claim: Claim, facts: Facts) -> str | None:
    who = claim.values["player"]
    true = facts.wins.get(who, 0)
    return None if claim.values["count"] == true else f"{name(who)} has {true} wins here"


@checks("accuracy")
def accuracy(claim: Claim, facts: Facts) -> str | None:
    """The people with a decision of their own, in the ranking's order."""
    true = [s.player for s in facts.game.ranking() if s.player in facts.decided_by_person()]
    return None if claim.values["players"] == true else f"people: {true}"


@checks("level")
def level(claim: Claim, facts: Facts) -> str | None:
    true = facts.level(claim.values["player"])
    return None if claim.values["level"] == true else f"it plays at {true}"


# --- what must be told -------------------------------------------------------------
LASTING = ("penalty", "locked", "failed_throw", "finish_reached")


def revealed(turn: Turn, player: int, phase: str) -> bool:
    """Whether ``player``'s choice in ``phase``, an action everyone decides in at once
    (secret until all chose), was revealed: that action was played out."""
    return any(
        e.player == player and e.data.get("phase", "place") == phase
        for e in turn.of("crossed", "passed", "placed")
    )


def told(reading: Reading, facts: Facts) -> list[Verdict]:
    """Each turn the game began is told (a message, a line, or a summary's span), and
    each penalty, lock, die leaving, failed throw, finish and end of the game exactly
    once; and each decision a rule made for a person with a choice to make, marked with
    its rule, once (a summary of turns tells no decisions)."""
    spans = [
        range(c.values["first"], c.values["last"] + 1)
        for c in reading.claims
        if c.kind == "missed" or c.kind.startswith("run.")
    ]
    headers = Counter(c.turn for c in reading.claims if c.kind == "header")
    verdicts = []
    for number, turn in sorted(facts.turns.items()):
        if not turn.events and number != 1:
            continue
        times = headers[number] + sum(number in span for span in spans)
        verdicts.append(
            Verdict("told.turn", f"turn {number}", number, times == 1, f"told {times} times")
        )
        for kind in LASTING:
            for event in turn.of(kind):
                times = sum(
                    1
                    for c in reading.claims
                    if c.kind == kind
                    and c.turn == number
                    and c.values.get("player") == event.player
                    and all(
                        c.values.get(f) == event.data[f]
                        for f in ("count", "row")
                        if f in event.data
                    )
                )
                verdicts.append(
                    Verdict(
                        f"told.{kind}",
                        f"turn {number}: {event}",
                        number,
                        times == 1,
                        f"told {times} times",
                    )
                )
        for (phase, player), made in sorted(turn.made.items()):
            if made.source not in RULED or made.legal in ([PASS], []):
                continue  # by hand, or no choice to make
            if phase in ("action1", "place") and not revealed(turn, player, phase):
                continue  # a secret choice the game's end left unrevealed
            times = sum(
                1
                for c in reading.claims
                if c.kind.startswith("by.")
                and c.turn == number
                and c.values["player"] == player
                and c.values["phase"] == phase
            )
            expected = 0 if any(number in span for span in spans) else 1
            verdicts.append(
                Verdict(
                    "told.by",
                    f"turn {number}: {name(player)} in {phase} by {made.source}",
                    number,
                    times == expected,
                    f"told {times} times",
                )
            )
        for event in turn.of("die_removed"):
            times = sum(
                c.values["rows"].count(event.data["row"])
                for c in reading.claims
                if c.kind == "die" and c.turn == number
            )
            verdicts.append(
                Verdict(
                    "told.die_removed",
                    f"turn {number}: {event}",
                    number,
                    times == 1,
                    f"told {times} times",
                )
            )
        for event in turn.of("game_over"):
            times = sum(
                1
                for c in reading.claims
                if c.kind == f"game_over.{event.data['reason']}" and c.turn == number
            )
            verdicts.append(
                Verdict(
                    "told.game_over",
                    f"turn {number}: {event}",
                    number,
                    times == 1,
                    f"told {times} times",
                )
            )
    return verdicts
