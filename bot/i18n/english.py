"""The English catalogue: every sentence a user reads, by key, in English.

Handlers write texts through :func:`bot.i18n.words.t` with a key of :data:`EN` and named
values; the other languages are gettext catalogues under ``bot/locales`` with the same
keys (``python -m bot.catalogues`` keeps them in step).
"""

from __future__ import annotations

EN: dict[str, str] = {
    # lobby
    "lobby.title": "🎲 **{title}** — lobby (host: {host})",
    "lobby.players": "Players ({count}/{max}): {names}",
    "lobby.hint": "Turn time: {turn_time} · Rules: `/qwixx rules variant:{variant}` · "
    "Start needs {min} players.",
    "lobby.started": "🎲 **{title}** — started with {names}.",
    "lobby.cancelled": "🎲 **{title}** — the lobby was cancelled by {name}.",
    "lobby.abandoned": "🎲 **{title}** — the lobby was closed by {name}.",
    "lobby.expired": "🎲 **{title}** — nobody started this lobby in time, so it closed "
    "(`/qwixx start` opens a new one).",
    "button.join": "Join",
    "button.leave": "Leave",
    "button.computer": "Add computer player",
    "button.start": "Start",
    "button.cancel": "Cancel",
    "button.sheet": "Open my sheet",
    "button.pass": "Pass",
    "button.board": "Board",
    "button.table": "Table",
    "button.yes": "Yes",
    "button.back": "Back",
    "button.rematch": "Rematch",
    "button.share": "Share",
    # the table view, confirmations, rematch, share
    "table.content": "**{title}**, turn {turn}: everyone's sheet (▶ whose turn it is; "
    "ringed: this turn's crosses).\n{summary}",
    "table.content_qwinto": "**{title}**, turn {turn}: everyone's sheet (▶ whose turn it is; "
    "ringed: the numbers written last turn).\n{summary}",
    "confirm.skip": "{what} and skip {count} numbers?",
    "confirm.cross": "Cross {row} {number}",
    "confirm.lucky": "Cross {row} {number} with your lucky number",
    "confirm.leave": "Leave this game? Your seat is given up for good and you cannot "
    "come back to it.",
    "confirm.abandon": "Abandon this game for everyone? It ends now, without ranking.",
    "confirm.kept": "Nothing changed.",
    # members' data (/qwixx privacy, /qwixx forget-me)
    "privacy.title": "🔒 **What this bot keeps about you**",
    "privacy.nothing": "🔒 This bot keeps nothing about you: you have no game on any server it "
    "is on.",
    "privacy.server_gone": "A server the bot is no longer on ({id})",
    "privacy.no_server": "Outside servers (direct messages, group chats, servers without the bot)",
    "privacy.daily_elsewhere": "• Daily challenges you played where the bot is not: {daily} — "
    "the day, the game and your score",
    "privacy.no_server_kept": "• Kept until `/qwixx forget-me`: no server's removal deletes it.",
    "privacy.name": "• Your display name, written on the game images: {name}",
    "privacy.games": "• Games you sat in: {games} — your seat, your moves and what happened, so "
    "that each game can be replayed and shown",
    "privacy.results": "• Finished games with your score and rank: {results} ({counted} counted "
    "for the leaderboard and statistics), {first} to {last}; your totals in "
    "{variants}",
    "unit.variant_in.one": "{count} variant",
    "unit.variant_in.other": "{count} variants",
    "unit.days_after.one": "{count} day",
    "unit.days_after.other": "{count} days",
    "privacy.ratings": "• Ratings: {ratings}",
    "privacy.rating": "{variant} (rated games: {games})",
    "privacy.accuracies": "• Your accuracy in reviewed games: {games} — for `/qwixx stats`",
    "privacy.daily": "• Daily challenges you played for this server: {daily} — the day, the "
    "game and your score",
    "privacy.tournaments": "• Tournaments you signed up for: {count} — your sign-up, check-in, "
    "tables and points",
    "privacy.organised": "• Tournaments you organised: {count} — their settings and messages",
    "privacy.more": "Servers not shown here: {count}",
    "privacy.kept": "**How long:** as long as the bot is on the server. Once it is removed from "
    "a server, everything of that server is deleted after {grace}; invited back "
    "before, it keeps it all.",
    "privacy.forget": "**`/qwixx forget-me`** deletes your names and puts an anonymous number "
    "in your place, on every server, in your games, results, statistics and "
    "ratings: the others' games stay whole, nothing leads back to you, and "
    "your next game starts afresh. It cannot be undone.",
    "confirm.forget": "Forget you on every server? Your names are deleted and an anonymous "
    "number takes your place in all your games, results, statistics and "
    "ratings. This cannot be undone.",
    "forget.done": "Done: you are forgotten. Your names are deleted and an anonymous number has "
    "your seat in {games} games. Your next game starts afresh.",
    "error.forget_playing": "You still play in {games}{more}: leave those games first (`/qwixx "
    "leave` there; a host cancels their lobby), then ask again.",
    "rematch.content": "🔁 Rematch! {names}: the same game again, and you are all seated "
    "(Leave if you would rather sit this one out).",
    "share.by": "Shared by {name}:",
    "leaderboard.ties": "Equal values share a rank, listed by higher win rate, then more games.",
    "leaderboard.ties_average": "Equal values share a rank, listed by higher win rate, then "
    "more games, then higher average.",
    "sheet.moved_on": "Action done by everyone: your next decision.",
    "board.content": "The board of turn {turn}: where every pawn stands.",
    # turns
    "turn.header": "**Turn {turn}** · {active} is active",
    "turn.white_sum": "White sum **{total}**: everyone may cross {total} in one row; then "
    "{active} may add a white die to a coloured one.",
    "turn.action2": "{active}: now add a white die to a coloured one (or pass).",
    "turn.action3": "{active} may now move their pawn 1-5 free fields onto a number they "
    "cross now or have crossed (or stay).",
    "turn.final_round": "🏁 Final round: {names} still play as active player.",
    "turn.deadline": "⏳ Decide <t:{deadline}:R>.",
    "turn.waiting": "⏳ Waiting for {names} — asked <t:{since}:R>, decide <t:{deadline}:R>.",
    "turn.waiting_open": "⏳ Waiting for {names} — asked <t:{since}:R>.",
    "turn.reminder": "⏰ {names}: your decision is still open — time runs out <t:{deadline}:R>. "
    "{link}",
    "turn.roll": "{active} chooses which dice to roll (one, two or all three).",
    "turn.reroll": "{active} rolled {dice} = **{total}** and may keep it or re-roll the same "
    "dice once.",
    "turn.place": "Sum **{total}** ({dice}): everyone may write {total} in one field of a "
    "{rows} row.",
    "turn.automatic": "**Turn {turn}** · {active} was active — {why}: {what}",
    "turn.unasked.away": "nobody was asked ({names} away)",
    "turn.unasked.computers": "only the computers had a move",
    "turn.unasked.nobody": "nobody had a move",
    "turn.unasked.chosen": "nobody was asked (choices made beforehand decided)",
    "turn.earlier": "… and {count} earlier turns played while nobody was asked.",
    "turn.missed": "**Turns {first}–{last}** were played while the channel could not be updated:",
    "turn.run": "**Turns {first}–{last}** were played out in one go — {why}:",
    "turn.missed_turn": "Turn {turn}: {what}",
    "turn.ping": "🔔 {names}: a decision is waiting for you in **turn {turn}** — {link}",
    "story.header": "**Turn {turn}** · 🎲 {active} is active",
    "story.header_done": "**Turn {turn}** · {active} was active",
    "story.roll": "🎲 {dice} · white sum **{total}**",
    "story.action1": "Action 1: {what}",
    "story.action2": "Action 2: {what}",
    "story.place": "Written: {what}",
    "story.crossed": "{name} crossed {row} {number}",
    "story.lucky": "{name} used a lucky number: {row} {number}",
    "story.passed": "{name} passed",
    "story.nothing_to_cross": "{name} had nothing to cross",
    "story.nobody_crossed": "Action 1: nobody could cross {total}",
    "story.wrote": "{name} wrote {number} in {row}, field {position} of 9",
    "story.wrote_nothing": "{name} wrote nothing",
    "story.nowhere_to_write": "{name} had nowhere to write {number}",
    "story.nobody_wrote": "Nobody could write {total}",
    "story.scores": "Scores: {scores}",
    "story.score": "{name}: {total}",
    "story.nothing_happened": "nothing changed",
    # decisions made without asking: the mark a decision's line carries, and lines of
    # their own for a choice made ahead that was not made
    "story.by.safe": "(standing choice: only what skips nothing)",
    "story.by.computer": "(standing choice: the Hard computer)",
    "story.by.away": "(away: the Hard computer)",
    "story.by.away_safe": "(away: only what skips nothing)",
    "story.by.timeout": "(time ran out: the Hard computer)",
    "story.by.ahead": "(chosen ahead)",
    "story.by.rethrow": "(chosen ahead: {rule})",
    "story.by.fallback": "(chosen ahead: {move} — no longer possible, so a pass, as they chose)",
    "story.by.fallback_locked": "(chosen ahead: {move} — impossible once {row} was locked, so "
    "a pass, as they chose)",
    "story.ahead.asked": "↩️ {name} chose ahead: {move} — no longer possible, so they were asked",
    "story.ahead.asked_locked": "↩️ {name} chose ahead: {move} — impossible once {row} was "
    "locked, so they were asked",
    "story.ahead.unmet": "⏭️ {name} chose ahead: {move} — its moment never came",
    "story.ahead.away": "⏭️ {name} chose ahead: {move} — not used, as they were away",
    "story.ahead.unmet_later": "⏭️ {name} chose ahead for turn {turn}: {move} — the game "
    "ended before it",
    "story.kept": "🎲 {name} kept the throw",
    "story.move.cross": "{row} {number}",
    "story.move.lucky": "{row} {number} by a lucky number",
    "story.move.pass": "a pass",
    "story.move.stay": "staying put",
    "story.move.pawn": "♟ {steps} onto {row}",
    "story.move.roll": "a throw of {rows}",
    "story.rule.keep": "keep the throw",
    "story.rule.reroll": "throw again",
    "story.rule.unless_writable": "throw again if they could not write it",
    "status.deciding": "🤔 Deciding: {names}",
    "status.decided": "✅ Decided: {names}",
    "status.nothing": "Nothing to decide: {names}",
    "list.or": "{first} or {last}",
    "unit.field.one": "{count} field",
    "unit.field.other": "{count} fields",
    "unit.point.one": "{count} point",
    "unit.point.other": "{count} points",
    "row.red": "Red",
    "row.yellow": "Yellow",
    "row.green": "Green",
    "row.blue": "Blue",
    "row.orange": "Orange",
    "row.purple": "Purple",
    "row.white": "White",
    # events
    "event.crossed": "{name} crossed {emoji} {number}",
    "event.lucky": "{name} used a lucky number: {emoji} {number}",
    "event.passed": "{name} passed",
    "event.locked": "🔒 {name} locked **{row}**",
    "event.die_removed": "the {row} die leaves the game",
    "event.penalty": "❌ {name} takes a penalty ({count}/{limit})",
    "event.pawn_moved": "♟ {name} moved {steps} → field {position}: {row} {number} (new "
    "cross, bonus {bonus})",
    "event.pawn_moved_crossed": "♟ {name} moved {steps} → field {position}: {row} {number} "
    "(already crossed, bonus {bonus})",
    "event.stayed": "♟ {name} stayed: their pawn did not move",
    "event.finish_reached": "🏁 {name} reached the finish area: every other player has "
    "one more turn.",
    "event.game_over.board_finish": "🏁 The final round is over: game over.",
    "event.expired.qwixx": "⏰ Time ran out for {names}: nothing crossed this time.",
    "event.expired.qwinto": "⏰ Time ran out for {names}: nothing written this time.",
    "event.away.expired": "💤 {name} let three decisions in a row run out and is away; the game "
    "no longer waits for them (any move brings them back).",
    "event.away.left": "🚪 {name} left the game; it no longer waits for them.",
    "event.game_over.no_seats": "🏁 Too few players are left: the game ends without ranking.",
    "event.rolled": "🎲 {name} rolled {dice} = {total}",
    "event.rerolled": "🎲 {name} re-rolled {dice} = {total}",
    "event.placed": "{name} wrote {number} in {emoji}",
    "event.failed_throw": "❌ {name} crosses a failed throw ({count}/{limit})",
    "event.game_over.two_rows": "🏁 Two rows complete on one sheet: game over.",
    "event.game_over.failed_throws": "🏁 A fourth failed throw: game over.",
    "event.game_over.rows_locked": "🏁 Two rows are locked: game over.",
    "event.game_over.penalties": "🏁 A fourth penalty: game over.",
    "event.game_over.abandoned": "🏁 The game was abandoned.",
    # the sheet (ephemeral)
    "sheet.choose": "Turn {turn}, {phase}: choose what to cross, or pass.",
    "sheet.choose_write": "Turn {turn}: {phase}.",
    "sheet.choose_pawn": "Turn {turn}, {phase}: choose where your pawn goes, or stay.",
    "sheet.phase.action1": "action 1 (white sum {total})",
    "sheet.phase.action2": "action 2 (white + colour)",
    "sheet.phase.action3": "action 3 (move your pawn)",
    "sheet.phase.roll": "your roll (choose the dice)",
    "sheet.phase.reroll": "you rolled {total} (keep it or re-roll once)",
    "sheet.phase.place": "write {total} (choose a field)",
    "sheet.nothing": "Turn {turn}: nothing for you to decide right now.",
    "sheet.done": "{what} Waiting for {names}.",
    "sheet.done_all": "{what}",
    "sheet.changed": "You can change your choice until everyone has decided.",
    "option.cross": "{emoji} {row} {number}",
    "option.colour": "{emoji} {row} {number} (⚪{white}+{emoji}{colour})",
    "option.skips": " (skips {count})",
    "option.lucky": "🍀 Lucky {lucky} → {emoji} {row} {number}",
    "you.crossed": "Crossed {row} {number}.",
    "you.passed": "You passed.",
    "you.rolled": "You rolled.",
    "you.kept": "You kept the throw.",
    "you.rerolled": "You re-rolled.",
    "you.moved": "Moved your pawn {steps}.",
    "you.placed": "Wrote the sum in {row}.",
    "option.pawn": "♟ {steps} → {emoji} {row} {number} ({what}, bonus {bonus})",
    "option.pawn.cross": "cross",
    "option.pawn.crossed": "already crossed",
    "option.stay": "Stay",
    "option.roll": "Roll {dice}",
    "option.keep": "Keep {total}",
    "option.reroll": "Re-roll {dice}",
    "option.field": "{emoji} {row} field {position} of 9 — {where}",
    "option.field_pentagon": " (pentagon)",
    "option.where.between": "between {left} and {right}",
    "option.where.after": "after {left}",
    "option.where.before": "before {right}",
    "option.where.empty": "empty row",
    "option.field_button": "{emoji} {row} {position}/9",
    "option.other_field": "Write {total} in another field…",
    # end
    "end.title": "🏁 **{title}** — final scores",
    "end.line": "{rank}. {name} — {total}",
    "end.winner": "🏆 {names} {verb}!",
    "end.wins": "{name}'s {nth} win on this server.",
    "end.line_rated": "{rank}. {name} — {total} · rating {rating} ({change})",
    "end.solo.score": "🧘 Solo practice · {name}: **{total}**",
    "end.solo.first": "Your first solo game of {title}: {total} is now the score to beat.",
    "end.solo.record": "🎉 A new personal best: {total}, up from {best}!",
    "end.solo.equal": "That equals your personal best, {best}.",
    "end.solo.below": "Your personal best stays {best}, {gap} more than this game.",
    # status
    "status.none": "There is no game in this channel. Start one with `/qwixx start`.",
    "status.lobby": "A {title} lobby is open here with {names}.",
    "status.scores": "Scores so far: {scores}",
    # errors (ephemeral)
    "error.channel_busy": "This channel already has a game. Finish or abandon it first "
    "(`/qwixx abandon`), play in another channel, or start this one "
    "in its own thread: `/qwixx start thread:true`.",
    "error.no_game": "There is no game in this channel. Start one with `/qwixx start`.",
    "error.game_gone": "This game no longer exists.",
    "error.other_channel": "That button belongs to a game in another channel; use the "
    "buttons of the game where it is played.",
    "error.game_over": "This game is over. Start a new one with `/qwixx start`.",
    "error.already_started": "This game has already started.",
    "error.not_started": "This game has not started yet.",
    "error.already_joined": "You are already in this game.",
    "error.not_joined": "You are not in this lobby.",
    "error.lobby_full": "This lobby is full ({max} players).",
    "error.host_only": "Only the host ({host}) can do that.",
    "error.host_leaves": "The host cannot leave; cancel the lobby instead.",
    "error.need_players": "{title} needs at least {min} players to start.",
    "error.not_player": "You are not in this game. Start one with `/qwixx start`.",
    "error.stale_turn": "That button belongs to turn {turn}; the game is on turn {current} — "
    "use the newest message.",
    "error.stale_phase": "That choice belonged to an action that is already over. "
    "Open your sheet again for the current one.",
    "error.not_your_decision": "Nothing for you to decide right now — waiting for {names}.",
    "error.illegal": "That move is no longer possible. Open your sheet again to see your options.",
    "error.abandon_denied": "Only the host or a member with Manage Channels can abandon this game.",
    "error.busy": "Someone else changed the game at the same moment. Please try again.",
    "error.unknown_variant": "Unknown variant {variant!r}.",
    "error.cannot_post": "I cannot play here: I need the View Channel, Send Messages and "
    "Attach Files permissions in this channel.",
    "error.cannot_post_now": "Your move is saved, but I could not post in this channel: I need "
    "the View Channel, Send Messages and Attach Files permissions "
    "here.",
    "error.thread_here": "Games can get their own thread only in a text channel.",
    "error.thread_permission": "I cannot open a thread here: I need the Create Public Threads "
    "and Send Messages in Threads permissions in this channel. "
    "Start without `thread` or ask a moderator.",
    "error.settings_denied": "Only members with Manage Server can change the server's settings.",
    "error.duration": "That turn time does not work: {problem}.",
    "error.board_only_onboard": "The board option is only for Qwixx On Board.",
    "error.internal": "Something went wrong on our side; the game is unchanged. Please try again.",
    "error.guild_only": "Games are played in server channels, not in direct messages.",
    # limits against abuse: lobbies and running games at once, per member and per server
    "error.limit_you": "You are in {games} on this server already, lobbies included "
    "({limit} at once is the most one member may have); finish or leave "
    "one first — `/qwixx mygames` lists those waiting for you.",
    "error.limit_player": "{name} is in {games} on this server already, lobbies included "
    "({limit} at once is the most one member may have); they need to "
    "finish or leave one first, or leave this lobby.",
    "error.limit_host": "{name}, who would host the rematch, is in {games} on this server "
    "already, lobbies included ({limit} at once is the most one member "
    "may have); they need to finish or leave one first.",
    "error.limit_server": "This server has {games} already, lobbies included ({limit} at once "
    "is the most one server may have); finish or abandon one first "
    "(`/qwixx abandon` in its channel).",
    "unit.game_in.one": "{count} game",
    "unit.game_in.other": "{count} games",
    "unit.open_game.one": "{count} game open",
    "unit.open_game.other": "{count} games open",
    # a member clicking far faster than a person can (bot.cogs.throttle)
    "error.too_fast": "Slow down a little: your clicks are coming faster than the bot takes "
    "them. Try again in a moment.",
    # threads, seats, settings
    "thread.name": "{title} — {host}'s game",
    "thread.opened": "Your game is waiting in {thread}.",
    "leave.lobby": "You left the lobby.",
    "leave.game": "You gave up your seat; the game goes on without you.",
    "error.rematch_not_player": "Only the players of that game can ask for a rematch.",
    "mygames.title": "**Games waiting for you**, the newest wait first:",
    "mygames.wait": "• {title} in {channel} — {what}, waiting since <t:{since}:R> · "
    "[turn {turn}]({link})",
    "mygames.what.action1": "your white sum ({total})",
    "mygames.what.action2": "your coloured die",
    "mygames.what.action3": "your pawn",
    "mygames.what.roll": "your throw",
    "mygames.what.reroll": "keep your throw of {total} or throw again",
    "mygames.what.place": "where you write {total}",
    "mygames.none": "No game is waiting for you, on any server.",
    "mygames.more": "…and {count} more.",
    # direct messages: one per decision a game waits for
    "dm.header": "🎲 **{title}**, turn {turn}",
    "dm.header_at": "🎲 **{title}** on **{guild}**, #{channel} — turn {turn}",
    "dm.asks": "Your decision: {phase}.",
    "dm.link": "🔗 The game: {link}",
    "dm.over": "This decision is over.",
    "dm.chosen": "✅ You have chosen: your choice is told here once everyone has decided.",
    # a letter speaks to its reader: the story's sentences about them
    "story.crossed.you": "You crossed {row} {number}",
    "story.lucky.you": "You used a lucky number: {row} {number}",
    "story.passed.you": "You passed",
    "story.nothing_to_cross.you": "You had nothing to cross",
    "story.wrote.you": "You wrote {number} in {row}, field {position} of 9",
    "story.wrote_nothing.you": "You wrote nothing",
    "story.nowhere_to_write.you": "You had nowhere to write {number}",
    "event.pawn_moved.you": "♟ You moved {steps} → field {position}: {row} {number} (new cross, "
    "bonus {bonus})",
    "event.pawn_moved_crossed.you": "♟ You moved {steps} → field {position}: {row} {number} "
    "(already crossed, bonus {bonus})",
    "event.stayed.you": "♟ You stayed: your pawn did not move",
    "event.rolled.you": "🎲 You rolled {dice} = {total}",
    "event.rerolled.you": "🎲 You re-rolled {dice} = {total}",
    "event.expired.qwixx.you": "⏰ Your time ran out: nothing crossed this time.",
    "event.expired.qwinto.you": "⏰ Your time ran out: nothing written this time.",
    "event.away.expired.you": "💤 You let three decisions in a row run out and are away; the game "
    "no longer waits for you (any move brings you back).",
    "event.away.left.you": "🚪 You left the game; it no longer waits for you.",
    "event.away.stand_in.you": "💤 You let three decisions in a row run out and are away; a Normal "
    "computer plays your seat until you open your sheet again. This game will not count for you.",
    "event.away.back.you": "👋 You are back and play your own seat again.",
    "story.kept.you": "🎲 You kept the throw",
    "story.ahead.asked.you": "↩️ You chose ahead: {move} — no longer possible, so you were asked",
    "story.ahead.asked_locked.you": "↩️ You chose ahead: {move} — impossible once {row} was "
    "locked, so you were asked",
    "story.ahead.unmet.you": "⏭️ You chose ahead: {move} — its moment never came",
    "story.ahead.away.you": "⏭️ You chose ahead: {move} — not used, as you were away",
    "story.ahead.unmet_later.you": "⏭️ You chose ahead for turn {turn}: {move} — the game ended "
    "before it",
    # a letter whose game ended
    "dm.end.line": "{rank}. You — {total}",
    "dm.end.won": "🏆 You win!",
    "dm.end.won_with": "🏆 You and {names} share the win!",
    "dm.end.solo": "🧘 Solo practice · your score: **{total}**",
    "dm.end.over": "🏁 The game is over.",
    "dm.end.link": "🔗 How the game ended: {link}",
    "dm.closed": "📭 I could not send you a direct message: Discord refuses them (your direct "
    "messages from this server's members are closed). Your games mention you in their "
    "channel instead. To get direct messages, allow them for this server, then turn them on "
    "again in your preferences.",
    "settings.current": "New games on this server give each decision **{turn_time}** "
    "(`/qwixx settings turn_time:` changes it; Manage Server needed).",
    "settings.saved": "New games on this server now give each decision **{turn_time}**.",
    "settings.live_current": "A game played live gives each decision **{turn_time}** "
    "(`/qwixx settings live_time:` changes it; `/qwixx pace` plays a game live).",
    "settings.live_saved": "A game played live now gives each decision **{turn_time}**.",
    # /qwixx pace
    "pace.asked_you": "You asked to play live ({turn_time} a decision): the game turns "
    "live once everyone at the table asks with `/qwixx pace mode:live`.",
    "pace.now_live": "The game is live now: {turn_time} a decision.",
    "pace.now_slow": "The game is slow again: {turn_time} a decision.",
    "event.pace_asked": "⚡ {names} asked to play live ({turn_time} a decision); the game "
    "turns live once everyone at the table asks with `/qwixx pace mode:live`.",
    "event.pace.live": "⚡ Everyone asked: the game is live, {turn_time} a decision from now.",
    "event.pace.slow": "🐢 {name} slowed the game down: {turn_time} a decision from now.",
    "error.pace_unknown": "A game is played `live` or `slow`, not {pace}.",
    "error.pace_already_live": "This game is live already (`/qwixx pace mode:slow` slows it down).",
    "error.pace_already_slow": "This game is slow already (`/qwixx pace mode:live` asks to "
    "play it live).",
    # /qwixx rules
    "rules.classic": (
        "**Qwixx** (2-5 players)\n"
        "• Cross numbers left to right in each row (red and yellow 2→12, green and blue "
        "12→2). Skipped numbers are gone for good.\n"
        "• **Action 1:** everyone may cross the sum of the two white dice in one row.\n"
        "• **Action 2:** the active player may also cross one white die + one coloured die "
        "in that colour's row.\n"
        "• The active player who crosses nothing in both actions takes a penalty (-5).\n"
        "• To cross a row's last number you need 5 crosses there; that also crosses the "
        "lock (one more cross), closes the row for everyone and removes its die.\n"
        "• The game ends at once when two rows are locked or someone takes a 4th penalty.\n"
        "• Each row scores 1, 3, 6, 10 … 78 points for 1-12 crosses.\n"
        "**Decisions of this bot:** action-1 choices are secret and applied together once "
        "everyone has chosen (you can change yours until then), so several players may lock "
        "the same row in one action 1. Locks take effect before action 2. If the game ends in "
        "action 1 there is no action 2 and no penalty. Players with nothing to cross are not "
        "asked."
    ),
    "rules.longo": (
        "**Qwixx Longo** (2-5 players) — Qwixx with eight-sided dice\n"
        "• Six dice with faces 1-8, so sums run 2-16. Rows have 15 numbers: red and yellow "
        "2→16, green and blue 16→2.\n"
        "• Actions, penalties and the end are as in Qwixx; four penalties of -5.\n"
        "• A row locks with **either of its last two numbers** (15/16, or 3/2), after at "
        "least **6 crosses** there; that also crosses the lock, closes the row and removes "
        "its die — so the last two numbers are never both crossed.\n"
        "• Rows score 1, 3, 6 … 120 points for 1-15 crosses.\n"
        "• **Lucky numbers:** your sheet has two. In action 1, when the white sum is one of "
        "them, you may instead cross the next number (no skipping) of your emptiest open "
        "row — the button reads `🍀 Lucky 6 → 🟩 16`. A lucky cross may lock a row.\n"
        "**Decisions of this bot:** each sheet gets two different lucky numbers from 5-13, "
        'dealt from the game\'s seed, and no two sheets share a pair. "Emptiest" counts '
        "crosses; only open rows whose next number may legally be crossed count, and on a "
        "tie you choose. With no such row there is no lucky option. Otherwise as in "
        "`/qwixx rules variant:classic`."
    ),
    "rules.onboard": (
        "**Qwixx On Board** (2-4 players) — Qwixx with a track and one pawn each\n"
        "• Sheet, dice, actions 1 and 2, locking and scoring are as in Qwixx.\n"
        "• **Action 3** (active player only, optional): then move your pawn forward 1-5 "
        "*free* fields. Fields with another pawn are skipped and not counted (one pawn per "
        "field; the start holds any number); never past the last field. You may land only on "
        "a number you cross now (left to right; a last number needs 5 crosses and locks the "
        "row for everyone; nothing in a locked row) or have already crossed.\n"
        "• **Penalty** only if the active player crossed nothing in all three actions; "
        "landing on a number already crossed is not a cross.\n"
        "• **End:** when a pawn reaches one of the last 5 fields (the finish), every other "
        "player has exactly one more turn, then the game ends. Two locked rows or a 4th "
        "penalty still end it at once.\n"
        "• **Score:** as in Qwixx plus the bonus under your pawn (1-20; the start scores 0).\n"
        "**Decisions of this bot:** the printed tracks are not published, so the two board "
        "sides (A, the default, and B; 40 fields each, every colour and number 2-12, bonus "
        "rising 1 → 20) are the project's own design. The penalty is settled at the end of "
        "the turn, after action 3. Otherwise as in `/qwixx rules variant:classic`."
    ),
    "rules.qwinto": (
        "**Qwinto** (2-6 players)\n"
        "• Three dice: orange, yellow, purple. On your turn choose one, two or three of "
        "them and roll; you may re-roll the same dice once.\n"
        "• **Everyone** may write the sum in exactly one field of a row whose colour was "
        "rolled: numbers increase left to right in each row (gaps may be filled later) and "
        "no number appears twice in a column.\n"
        "• If you are the active player and write nothing, cross a failed throw (-5).\n"
        "• The game ends after the throw in which someone completes a second row, or "
        "crosses a 4th failed throw.\n"
        "• Scoring: an incomplete row scores 1 per number; a complete row scores its "
        "rightmost number; a complete column of three scores its pentagon number.\n"
        "**Decisions of this bot:** the sheet offers only legal fields, so nothing is ever "
        "erased. Choices are secret until everyone has decided (you may change yours until "
        "then); players with no legal field are not asked."
    ),
    "rules.common": (
        "**Every game:** each decision has a deadline (the turn time, shown on the turn "
        "message). A decision not made in time counts as no cross — the active player takes "
        "whatever penalty the rules give. After three in a row the game stops waiting for "
        "you until you move again. Dice come from the game's own seed, so every game can be "
        "replayed exactly."
    ),
    "abandon.done": "🛑 {name} abandoned the {title} game.",
    # /qwixx leaderboard, stats, history
    "command.leaderboard": "This server's best players",
    "command.stats": "A member's games, wins and scores on this server (elsewhere: your own)",
    "command.history": "The last finished games on this server",
    "option.leaderboard.variant": "Only this game (default: all games)",
    "option.leaderboard.period": "Which games count (default: all time)",
    "option.leaderboard.sort": "Rank by (default: wins)",
    "option.stats.user": "Whose stats (default: yours)",
    "option.history.user": "Only games of this member (default: everyone's)",
    "period.all": "All time",
    "period.month": "This month",
    "period.week": "This week",
    "sort.wins": "Wins",
    "sort.rate": "Win rate",
    "sort.average": "Average",
    "sort.best": "Best",
    "sort.rating": "Rating",
    "column.rank": "#",
    "column.player": "Player",
    "column.games": "Games",
    "column.wins": "Wins",
    "column.rate": "Win rate",
    "column.average": "Average",
    "column.best": "Best",
    "column.rating": "Rating",
    "leaderboard.all_games": "All games",
    "leaderboard.title": "🏆 **{scope}** leaderboard · {period} · by {sort}",
    "leaderboard.image_title": "{scope} — {period}",
    "leaderboard.subtitle": "ranked by {sort} · players ranked: {count}",
    "leaderboard.alt_title": "{scope} leaderboard, {period}, by {sort}:",
    "leaderboard.alt_line": "{rank}. {name}: games {games}, wins {wins} ({rate}), "
    "average {average}, best {best}",
    "leaderboard.rule": "Win rate and average rank only players with at least {min} games.",
    "leaderboard.left_out": "{count} with fewer than {min} games not ranked.",
    "leaderboard.unranked": "–",
    "leaderboard.empty": "No finished games to rank for {scope}, {period}, on this server yet. "
    "Play one with `/qwixx start`!",
    "leaderboard.rating_rule": "Rating: the skill the rankings of counted games show, per "
    "game, on a chess-like scale where everyone starts at {start}; beating stronger players "
    "(or a Hard computer) counts more. ? provisional: fewer than {min} games. Equal ratings "
    "share a rank.",
    "leaderboard.rating_all_time": "Ratings take in every game since the first, so this one "
    "is all time.",
    "leaderboard.no_ratings": "No counted games to rate on this server yet: a game counts once "
    "two or more people finish it. Play one with `/qwixx start`!",
    "leaderboard.no_ratings_variant": "No rated games of {scope} on this server yet. Play one "
    "with `/qwixx start`!",
    "leaderboard.alt_rating_line": "{rank}. {name}: rating {rating}{mark}, games {games}",
    "leaderboard.provisional": "provisional",
    "stats.unknown_player": "Unknown player",
    "stats.title": "📊 {name} on this server",
    "stats.overall": "All games",
    "stats.figures": "Games **{games}** · Wins **{wins}** ({rate}) · Average **{average}** · "
    "Best **{best}**",
    "stats.last": "Last {count}: {scores}",
    "stats.last_game": "Last game: {score}",
    "stats.last_games.one": "Last {count} game:",
    "stats.last_games.other": "Last {count} games:",
    "stats.footer": "Finished games on this server; abandoned games do not count.",
    "stats.none": "{name} has no finished games on this server yet.",
    "history.title": "🗂️ Last finished games on this server",
    "history.title_user": "🗂️ Last finished games of {name} on this server",
    "history.line": "**{number}.** {date} · {title} · {scores}",
    "history.score": "{mark}{name} {score}",
    "history.winner": "🏆 ",
    "history.not_counted": "(not counted)",
    "history.hint": "Press “Sheets N” to see game N's final sheets (only you see them).",
    "history.none": "No finished games on this server yet. Play one with `/qwixx start`!",
    "history.none_user": "{name} has no finished games on this server yet.",
    "button.final": "Sheets {number}",
    "button.final_sheets": "Final sheets",
    "final.content": "🏁 **{title}** of {date} with {names} — final sheets",
    "error.final_gone": "That game's final sheets are not available on this server.",
    "error.stats_guild_only": "Leaderboards, stats and history belong to a server: use this "
    "command in one of its channels.",
    "error.bad_button": "That button is not one this bot can read, so nothing changed. "
    "Use the buttons on the latest game messages.",
    # languages: ordinal numbers by CLDR ordinal category, end of game
    "ordinal.one": "{count}st",
    "ordinal.two": "{count}nd",
    "ordinal.few": "{count}rd",
    "ordinal.other": "{count}th",
    "end.verb.one": "wins",
    "end.verb.other": "share the win",
    "settings.language_current": "Public game messages and images on this server are in "
    "**{language}**; private answers follow each member's "
    "Discord language (`/qwixx settings language:` changes "
    "it; Manage Server needed).",
    "settings.language_saved": "Public game messages and images on this server are now in "
    "**{language}**.",
    "error.unknown_language": "I do not speak {language}; choose one of the offered languages.",
    "duration.too_long": "{text} is too long for a duration; write it like 30m, 2h, 1h30m or 3d",
    "duration.not_read": "{text} is not read: use the digits 0-9 and the letters d, h, m "
    "(other digits are refused, not converted); write it like 30m, 2h, "
    "1h30m or 3d",
    "duration.not_duration": "{text} is not a duration; write it like 30m, 2h, 1h30m or 3d",
    "duration.repeats": "{text} repeats a unit; give d, h and m at most once each",
    "duration.range": "{text} is outside the allowed 5m to 7d",
    "player.computer": "Computer {number}",
    # words drawn on the images
    "image.crosses": "crosses",
    "image.points": "points",
    "image.penalty_caption": "penalties  −5 each",
    "image.lucky": "lucky",
    "image.locked": "LOCKED",
    "image.start": "START",
    "image.finish": "FINISH",
    "image.finish_caption": "last 5 fields",
    "image.final_round": "final round: last turn {turn}",
    "image.board_side": "board {name}",
    "image.where_start": "start · bonus 0",
    "image.where": "field {position}: {row} {number} · bonus {bonus}",
    "image.where_finish": "field {position}: {row} {number} · bonus {bonus} · finish",
    "image.total": "total",
    "image.to_play": "to play",
    "image.header_lucky": "lucky {a} · {b}",
    "image.header_pawn": "pawn {position} · +{bonus}",
    "image.penalties": "penalties",
    "image.failed": "failed",
    "image.failed_caption": "failed\nthrows\n−5",
    "image.throw": "throw",
    "image.bonus": "bonus",
    "image.rank": "rank",
    "image.player": "player",
    "image.final_scores": "{title} — final scores",
    "image.table_turn": "{title} · turn {turn}",
    "image.table_over": "{title} · game over",
    "image.daily_card": "Daily {title}",
    "letter.red": "R",
    "letter.yellow": "Y",
    "letter.green": "G",
    "letter.blue": "B",
    "letter.orange": "O",
    "letter.purple": "P",
    "letter.white": "W",
    # descriptions of the images (alt text) and text versions of sheets
    "describe.player": "Player {number}",
    "describe.sheet": "{name}'s sheet, {title}:",
    "describe.qwixx_row": "{row}: {numbers}{marks} · {points} points",
    "describe.crossed_none": "nothing crossed",
    "describe.lock_crossed": "lock crossed",
    "describe.row_closed": "row closed",
    "describe.lucky": "Lucky numbers: {a} and {b}",
    "describe.pawn": "Pawn on field {position} ({row} {number}), bonus {bonus}",
    "describe.pawn_start": "Pawn on the start field",
    "describe.penalties": "Penalties: {count} of {limit} ({points})",
    "describe.qwinto_row": "{row}: {fields} · {count} of {size} fields · {points} points",
    "describe.empty_field": "–",
    "describe.bonus": "Bonus (pentagons): {points}",
    "describe.failed": "Failed throws: {count} of {limit} ({points})",
    "describe.total": "Total: {total}",
    "describe.active_mark": "▶ ",
    "describe.locks_none": "none",
    "describe.row_count": "{row} {count}",
    "describe.card": "{title}, the crosses without their numbers: {rows}",
    "describe.card_row": "{row} {crosses} of {cells}",
    "describe.card_penalties": "penalties {count} of {limit}",
    "describe.card_failed": "failed throws {count} of {limit}",
    "describe.table_qwixx": "{mark}{name}: {total} points · penalties {penalties} · "
    "locks {locks} · crosses {rows}",
    "describe.table_qwinto": "{mark}{name}: {total} points · failed throws {failed} · "
    "numbers {rows}",
    "describe.table_title": "{title} table, turn {turn}, {active} to play:",
    "describe.table_final": "{title} table, game over:",
    "describe.die": "{colour} {value}",
    "describe.dice": "Dice: {dice} (sum {total})",
    "describe.board": "{title} track, each player's pawn:",
    "describe.scoreboard": "{title}, final scores:",
    "describe.scoreboard_line": "{rank}. {name} {total} ({rows}, bonus {bonus}, "
    "penalties {penalty})",
    # ... with their points counted in words (unit.point: "1 point", "5 points")
    "describe.qwixx_row_points": "{row}: {numbers}{marks} · {points}",
    "describe.qwinto_row_points": "{row}: {fields} · {count} of {size} fields · {points}",
    "describe.table_qwixx_points": "{mark}{name}: {points} · penalties {penalties} · "
    "locks {locks} · crosses {rows}",
    "describe.table_qwinto_points": "{mark}{name}: {points} · failed throws {failed} · "
    "numbers {rows}",
    "describe.dice_white": "Dice: {dice} (white dice together {total})",
    "describe.dice_thrown": "Dice: {dice} (together {total})",
    "error.bad_command": "That command was not one I can read (an option outside its "
    "choices, or an outdated command), so nothing changed. Please "
    "try again from the command list.",
    "error.store": "I couldn't save that: the game's storage cannot be written right now. "
    "Nothing changed; please try again in a moment.",
    "error.store_read": "I couldn't read that right now: the game's storage is not "
    "answering. Please try again in a moment.",
    "error.restarting": "The bot is restarting; try again in a moment.",
    "error.store_unknown": "I couldn't tell whether that was saved: the game's storage "
    "stopped answering just then. Open your sheet to see where the "
    "game stands, then try again if it is still yours to decide.",
    # computer levels, solo practice, hints and away seats
    "level.easy": "Easy",
    "level.normal": "Normal",
    "level.hard": "Hard",
    "lobby.computer": "{name} ({level})",
    "lobby.uncounted.people": "📊 Only one person plays, so this game does not count for "
    "the leaderboard or the ratings (that takes two people or "
    "more).",
    "lobby.uncounted.hints": "📊 This game is played with hints, so it does not count for "
    "the leaderboard or the ratings.",
    "lobby.level_placeholder": "Change a computer player's level",
    "lobby.level_option": "{name}: {level}",
    "lobby.solo": "🧘 Solo practice: you play alone and every turn is yours. It does not "
    "count for the leaderboard; your best score shows in `/qwixx stats`.",
    "lobby.hints": "💡 Hints: each sheet has a Hint button. Games with hints do not count "
    "for the leaderboard.",
    "lobby.fill_away": "🤖 A player who lets three decisions in a row run out is replaced "
    "by a Normal computer until they open their sheet again; that "
    "result does not count for them.",
    "error.solo_only": "This is a solo practice game: nobody else can take a seat.",
    "error.no_such_computer": "That seat is not a computer player of this lobby.",
    "error.unknown_level": "{level} is not a level; choose Easy, Normal or Hard.",
    "error.no_hints": "This game was started without hints.",
    "error.nothing_to_hint": "You have nothing to decide right now, so there is no hint.",
    "event.away.stand_in": "💤 {name} let three decisions in a row run out and is away; a "
    "Normal computer plays their seat until they open their sheet "
    "again. This game will not count for them.",
    "event.away.back": "👋 {name} is back and plays their own seat again.",
    "button.hint": "Hint",
    "hint.best": "💡 **{move}**: about {value} points expected by the end of the game",
    "hint.ahead": "💡 **{move}**: about {value} points ahead of the best opponent expected "
    "by the end of the game",
    "hint.behind": "💡 **{move}**: about {value} points behind the best opponent expected "
    "by the end of the game",
    "hint.gain": ", {gain} more than {other}",
    "hint.surer": ", a better chance to win than {other}",
    "hint.equal": ", as good as {other}",
    "hint.on_purpose.penalty": "❌ This takes the penalty (−5) on purpose: every cross open to "
    "you this turn is expected to cost more than that.",
    "hint.on_purpose.failed_throw": "❌ This crosses a failed throw (−5) on purpose: writing "
    "this number is expected to cost more than that.",
    "hint.risk.penalty": "⚠️ {risk} chance that this turn ends with a penalty.",
    "hint.risk.failed_throw": "⚠️ {risk} chance that this turn ends with a failed throw.",
    "hint.risk_other.penalty": "⚠️ {move} would risk a penalty ({risk}).",
    "hint.risk_other.failed_throw": "⚠️ {move} would risk a failed throw ({risk}).",
    "stats.practice": "🧘 Solo practice",
    "stats.practice_line": "{title}: best **{best}** · games {games} · last {last}",
    "stats.practice_footer": "Solo practice does not count for the leaderboard.",
    "stats.uncounted": "🤖 Not counted (against computers only, or with hints)",
    "stats.uncounted_footer": "Games against computers only or with hints do not count for "
    "the leaderboard.",
    "stats.accuracy": "Accuracy **{accuracy}** over {games}",
    "stats.reviewed_games.one": "{count} reviewed game",
    "stats.reviewed_games.other": "{count} reviewed games",
    "stats.rating": "Rating **{rating}** after {games}",
    "stats.rated_games.one": "{count} rated game",
    "stats.rated_games.other": "{count} rated games",
    "stats.accuracy_footer": "Accuracy: how close the player's own decisions came to the "
    "Hard computer player's, averaged over their reviewed games (solo "
    "and against computers too; games with hints left out).",
    "stats.rating_footer": "Rating: the skill the rankings of counted games show, on a "
    "chess-like scale where everyone starts at {start}; ? provisional under {min} rated games.",
    "history.practice": "(solo practice)",
    "history.daily": "(daily challenge)",
    "history.hints": "(with hints)",
    "history.stand_in": "🤖",
    "lobby.hint_solo": "Turn time: {turn_time} · Rules: `/qwixx rules variant:{variant}`",
    "history.stand_in_note": "🤖 A computer played this seat while its player was away; "
    "the result counts for nobody.",
    # /qwixx daily: the same dice for everyone, one attempt a day
    "command.daily": "Today's challenge: the same dice for everyone, one attempt a day",
    "option.daily.variant": "Which game (default Qwixx); each has its own daily dice",
    "daily.header": "📅 **Daily {title} · {day}** — only you see this. Everyone plays these "
    "dice today, one attempt each, at their own pace.",
    "daily.title": "📅 **Daily {title} · {day}**",
    "daily.again": "📅 You played today's **daily {title}** already: **{score}**. The next "
    "one comes when the day turns <t:{next}:R>.",
    "daily.done": "📅 **Daily {title} · {day}** — finished with **{score}**!",
    "daily.par": "⛳ Par, what the Hard computer player scores on these dice: **{par}** "
    "({verdict})",
    "daily.par_above": "{points} above par",
    "daily.par_below": "{points} below par",
    "daily.par_level": "level with par",
    "daily.rank": "🌍 **{place}** of the {players} who finished these dice so far",
    "daily.rank_share": "🌍 **{place}** of the {players} who finished these dice so far, "
    "better than **{percent}** of them",
    "daily.first": "🌍 You are the first to finish these dice.",
    "daily.place": "🏠 On this server: **{place}** of {players}",
    "daily.streak": "🔥 Streak: **{days}** in a row",
    "daily.share_next": "📋 Your text to share is the next message: each row's crosses, "
    "not its numbers, so it gives no dice away.",
    "daily.share_title": "{title} daily {day}: {score} 🔥{streak}",
    "daily.share_card": "🖼️ **Share card** posts your card in this chat: your crosses, not "
    "the numbers.",
    "button.share_card": "Share card",
    "error.card_unfinished": "That attempt is not finished yet: its card comes with its result.",
    "command.practice": "Play against the computers, anywhere (only you see it; it never counts)",
    "option.practice.variant": "Which game (default Qwixx); any option starts a new game",
    "option.practice.computers": "How many computers (default 2; 0: you alone)",
    "option.practice.level": "How well the computers play (default Easy)",
    "option.practice.hints": "A Hint button on your sheet: what Hard would do",
    "practice.header": "🎯 **Practice · {title}** against {computers} — only you see this, "
    "and it counts for no leaderboard.",
    "practice.header_solo": "🎯 **Practice · {title}**, alone — only you see this; your best "
    "score is kept.",
    "practice.title": "🎯 **Practice · {title}**",
    "practice.left_out": "… {turns} before these left out: the message is full.",
    "unit.turn.one": "{count} turn",
    "unit.turn.other": "{count} turns",
    "practice.resumed": "Your game goes on. `/qwixx practice` with an option (a variant, the "
    "computers…) starts a new one.",
    "error.practice_not_yours": "That is another member's practice game; `/qwixx practice` "
    "starts your own.",
    "error.practice_computers": "{title} takes at most {most} computers against you.",
    "error.practice_twice": "Your practice game was begun twice at once: `/qwixx practice` "
    "shows the one that stands.",
    "error.needs_server": "`{command}` works on a server where the bot is. Here you can play "
    "`/qwixx daily` and `/qwixx practice`, and see your own `/qwixx stats`.",
    "error.stats_own_only": "Here I show only your own figures: a member's figures on a "
    "server are that server's (`/qwixx stats` there).",
    "stats.own_title": "📊 {name}: your own figures",
    "stats.own_none": "Nothing yet: play `/qwixx daily` or `/qwixx practice`.",
    "stats.own_footer": "Your games where the bot is not, and your daily challenge on every "
    "server; a server's figures: /qwixx stats there.",
    "stats.daily": "📅 Daily challenge",
    "stats.daily_line": "{title}: {days} · best **{best}** · average **{average}**",
    "stats.daily_streak": "🔥 Streak: **{days}** in a row",
    "daily.board": "📅 **Daily {title} · {day}** — this server's ranking",
    "daily.board_line": "{place} {name} — **{score}**",
    "daily.board_footer": "Same dice for everyone today: `/qwixx daily variant:{variant}` "
    "(one attempt; par and your standing once you finish). The day "
    "turns <t:{next}:R>.",
    "daily.mygames": "• Daily {title} of {day} — turn {turn}: "
    "`/qwixx daily variant:{variant}` to go on",
    "unit.player.one": "{count} player",
    "unit.player.other": "{count} players",
    "unit.day.one": "{count} day",
    "unit.day.other": "{count} days",
    "error.daily_over": "That daily challenge's day is over: `/qwixx daily` starts today's.",
    "error.daily_not_yours": "That is another member's daily challenge; "
    "`/qwixx daily` starts yours.",
    "error.daily_timezone": "I do not know the time zone “{timezone}”: write it as in "
    "Europe/Berlin, America/New_York, Asia/Tokyo or UTC.",
    "error.daily_hour": "The hour the day turns must be from 0 to 23, not {hour}.",
    "daily.sheets_later": "That was a daily challenge: its sheets show once its day is over "
    "everywhere, <t:{when}:R>, so that nobody sees the dice early.",
    "review.daily_later": "That was a daily challenge: its review opens once its day is over "
    "everywhere, <t:{when}:R>, so that nobody sees the dice early.",
    "settings.daily": "📅 Daily challenge: the day turns at **{hour}** ({timezone}); the "
    "day's ranking is posted {where} (`/qwixx settings daily_channel: "
    "daily_hour: timezone:` change it; Manage Server needed).",
    "settings.daily_channel": "in {channel}",
    "settings.daily_anywhere": "in the channel where it is first played that day",
    # /qwixx review: a finished game's decisions against the Hard computer player's
    "command.review": "Your decisions in a finished game set against Hard's (only you see it)",
    "option.review.game": "The game's number in /qwixx history (default: this channel's game)",
    "review.title": "🔍 **Review of the {title} game** of {date}: each decision set against "
    "the Hard computer player's choice",
    "review.accuracy": "{name}: accuracy **{accuracy}** over {decisions}",
    "review.no_decisions": "{name}: no decision of their own to rate",
    "review.costliest_yours": "Your costliest decisions:",
    "review.costliest_each": "Each player's costliest decision:",
    "review.clean": "No decision cost as much as a tenth of an expected point.",
    "review.decision": "**{number}. Turn {turn}**, {name}: {chosen} instead of {best} — "
    "{cost} expected points lost",
    "review.footer": "Accuracy: 100% minus the expected points lost against Hard's choice, "
    "over the sum of the gaps between Hard's choice and its worst option, "
    "across all of a player's own decisions (forced moves, computers and "
    "stand-ins do not count). In Qwixx games of two or more, points are "
    "Hard's expected lead over the best opponent. Each image shows the "
    "sheet before the decision with Hard's move outlined.",
    "review.image": "Turn {turn}: the sheet of {name} before the decision, Hard's move outlined",
    "review.running": "This game is still running; its review opens when it ends.",
    "review.abandoned": "That game was abandoned before its end, so it has no review.",
    "review.other_server": "That game was played on another server; its review is shown "
    "only there.",
    "review.other_channel": "That game was played in {channel}; ask for its review there.",
    "review.unknown": "There is no game {number} in this server's history: `/qwixx history` "
    "numbers the last finished games, 1 the newest.",
    "review.end.accuracy": "🎯 Accuracy against the Hard computer player's choices: {accuracies}",
    "review.end.person": "{name} {accuracy}",
    "button.review": "Review",
    "unit.decision.one": "{count} decision",
    "unit.decision.other": "{count} decisions",
    # /qwixx tournament: rounds of tables over days, standings, a podium
    "command.tournament": "Tournaments on this server: rounds of tables, standings, a podium",
    "command.tournament.list": "This server's tournaments (only you see it)",
    "command.tournament.create": "Open a tournament in this channel for sign-up (Manage Server "
    "or the organisers' role)",
    "command.tournament.standings": "A tournament's standings, with your place (only you see it)",
    "command.tournament.withdraw": "Leave a tournament you signed up for",
    "command.tournament.cancel": "Call off this channel's tournament before it starts (its "
    "organiser or Manage Server)",
    "command.tournament.role": "Name the role whose members may organise tournaments (Manage "
    "Server)",
    "option.tournament.name": "The tournament's name, up to 60 characters",
    "option.tournament.variant": "Which game every table plays (default: Qwixx)",
    "option.tournament.rounds": "How many rounds everyone plays (default 3)",
    "option.tournament.table_size": "Players at a full table (default 4)",
    "option.tournament.smallest_table": "The fewest players at a table (default: one fewer "
    "than a full one)",
    "option.tournament.turn_time": "Time for each decision at every table, 5m to 7d (default: "
    "the server's, else 24h)",
    "option.tournament.points": "Points for 1st, 2nd, … place, e.g. 6 4 2 0 (default: two "
    "for each player beaten)",
    "option.tournament.avoid_repeats": "Keep players from meeting the same opponents again "
    "when possible (default: yes)",
    "option.tournament.computers": "Hard computer players fill short tables; they score no "
    "points (default: no)",
    "option.tournament.sign_up_hours": "Hours until sign-up closes and round 1 starts "
    "(default: the organiser presses Start)",
    "option.tournament.check_in": "A check-in window before the start, e.g. 1h: who does not "
    "check in is dropped",
    "option.tournament.which": "The tournament's name (default: this channel's, else the newest)",
    "option.tournament.role": "The organisers' role (leave out to allow Manage Server only)",
    "button.check_in": "Check in",
    "tournament.signup.title": "🏆 **{name}** — a {title} tournament organised by {host}",
    "tournament.signup.format": "{rounds} at tables of {size} ({smallest} at least) · "
    "{turn_time} for each decision · points by place: {points}",
    "tournament.signup.repeats_avoided": "Repeat opponents avoided whenever the numbers allow.",
    "tournament.signup.repeats_allowed": "Tables by the standings alone: players may meet again.",
    "tournament.signup.computers": "Hard computer players fill short tables: they take places "
    "but score no tournament points and are never rated.",
    "tournament.signup.no_computers": "No computer players: a short table plays short.",
    "tournament.signup.deadline": "Sign-up closes and round 1 starts {when} ({relative}).",
    "tournament.signup.manual": "{host} starts it with **Start** once {least} or more have "
    "signed up.",
    "tournament.signup.check_in": "Check-in opens {relative}: whoever has not checked in by the "
    "start is dropped.",
    "tournament.signup.check_in_open": "✅ Check-in is open until the start: press **Check in**. "
    "Checked in: {checked} of {count}.",
    "tournament.signup.players": "**Signed up: {count}** (at most {most}): {names}",
    "tournament.signup.more": "and {count} more",
    "tournament.signup.nobody": "Nobody has signed up yet: press **Join**.",
    "tournament.signup.closed": "Sign-up closed with {count} players: the rounds are posted "
    "below, each table in a thread of its own.",
    "tournament.signup.cancelled": "❌ Called off by its organiser before the start.",
    "tournament.signup.void": "❌ It could not start: {count} signed up, {least} needed.",
    "tournament.round.title": "🏆 **{name}** — **round {round}** of {rounds}: {tables}",
    "tournament.round.first": "Seated by {title} rating on this server as the leaderboard "
    "shows it, best first, those without one yet last: the leaders together at table 1, the "
    "next at table 2, and so on.",
    "tournament.round.first_random": "Seated at random: nobody in this round has a {title} "
    "rating on this server yet.",
    "tournament.round.later": "Seated by the standings: the leaders together at table 1, the "
    "next at table 2, and so on.",
    "tournament.round.later_apart": "Seated by the standings: the leaders together at table 1, "
    "the next at table 2, and so on; a player sits at a later table only where that keeps "
    "opponents of earlier rounds apart.",
    "tournament.round.later_apart_limited": "Seated by the standings: the leaders toward "
    "table 1, with players moved to later tables to keep opponents of earlier rounds apart. "
    "The seating search stopped at its limit, so some may sit at a later table than they "
    "need to.",
    "tournament.round.no_repeats": "Nobody meets an opponent of an earlier round again.",
    "tournament.round.repeats": "{pairs}: no seating of these players avoids it.",
    "tournament.round.repeats_limited": "{pairs}: the fewest the search found; a seating "
    "with fewer may exist.",
    "unit.pair_again.one": "{count} pair at a table has met before",
    "unit.pair_again.other": "{count} pairs at a table have met before",
    "tournament.round.table": "**Table {number}** {thread}: {players}",
    "tournament.round.sits_out": "Sitting out (a skipped game, {points}): {names}",
    "tournament.round.dropped": "Not checked in, so not playing: {names}",
    "tournament.round.footer": "Play in your table's thread: {turn_time} for each decision. "
    "The next round is seated once every table has finished.",
    "tournament.round.footer_last": "Play in your table's thread: {turn_time} for each "
    "decision. This is the last round: the podium follows once every table has finished.",
    "tournament.round.computers": "+ {count}",
    "tournament.round.more": "… and {tables} more: each table's thread mentions its players.",
    "unit.table.one": "{count} table",
    "unit.table.other": "{count} tables",
    "unit.round.one": "{count} round",
    "unit.round.other": "{count} rounds",
    "unit.hard_computer.one": "{count} Hard computer player",
    "unit.hard_computer.other": "{count} Hard computer players",
    "tournament.standings.title": "🏆 **{name}** — standings after round {round} of {rounds}",
    "tournament.standings.playing": "🏆 **{name}** — standings: round {round} of {rounds} "
    "is on, {done} of {tables} tables finished",
    "tournament.standings.start": "🏆 **{name}** — standings: round 1 of {rounds} is on, "
    "nobody has finished a table yet",
    "tournament.standings.final": "🏆 **{name}** — final standings after {rounds}",
    "tournament.standings.line": "{place}. {name} — **{points}** · opponents {opponents} · "
    "score {score}",
    "tournament.standings.withdrew": "withdrew after round {round}",
    "tournament.standings.away": "played as away",
    "tournament.standings.ran_out.one": "{count} decision ran out",
    "tournament.standings.ran_out.other": "{count} decisions ran out",
    "tournament.standings.sat_out": "sat out",
    "tournament.standings.more": "… and {count} more: `/qwixx tournament standings` shows "
    "anyone their own place.",
    "tournament.standings.footer": "Points by place: {points} (ties share them; sitting out "
    "gives {bye}). Equal points: opponents' points decide, then total score.",
    "tournament.image.title": "{name} — standings",
    "tournament.image.subtitle": "round {round} of {rounds}: {done} of {tables} tables "
    "finished · {count} players",
    "tournament.image.final": "final, {rounds} · {count} players",
    "tournament.image.points": "Points",
    "tournament.image.opponents": "Opp.",
    "tournament.image.score": "Score",
    "tournament.image.player": "Player",
    "tournament.image.footer": "Equal points: opponents' points (Opp.), then total score.",
    "tournament.podium.title": "🏆 **{name}** is over: {rounds}, {count} players.",
    "tournament.podium.place": "{medal} {name} — {points}",
    "tournament.podium.footer": "Congratulations! Every place is in the standings "
    "(`/qwixx tournament standings`).",
    "tournament.list.title": "🏆 **Tournaments on this server**",
    "tournament.list.line": "**{name}** · {title} · {channel} — {state}",
    "tournament.list.signup": "sign-up open, {count} signed up",
    "tournament.list.running": "round {round} of {rounds}, {count} players",
    "tournament.list.finished": "finished {date}, won by {winner}",
    "tournament.list.cancelled": "called off",
    "tournament.list.none": "No tournaments on this server yet: `/qwixx tournament create` "
    "opens one (Manage Server or the organisers' role).",
    "tournament.thread": "{name} · round {round} · table {table}",
    "tournament.created": "🏆 **{name}** is open for sign-up in {channel}.",
    "tournament.joined": "You are signed up for **{name}** ({count} so far). When a round "
    "starts, your table's thread mentions you.",
    "tournament.left": "You are no longer signed up for **{name}**.",
    "tournament.checked_in": "You are checked in for **{name}**.",
    "tournament.withdrew": "You have withdrawn from **{name}**: you are seated in no later "
    "round, and your place in the standings stays.",
    "tournament.withdrew_game": "You have withdrawn from **{name}**: you are seated in no later "
    "round, your seat in your current game is played by a computer to its end, and your "
    "place in the standings stays.",
    "tournament.role_set": "Members with {role} may now organise tournaments here, as may "
    "those with Manage Server.",
    "tournament.role_cleared": "Only members with Manage Server may organise tournaments here now.",
    "tournament.error.name": "A tournament's name is 1 to {most} characters on one line.",
    "tournament.error.variant": "There is no game called {variant}; the games are {known}.",
    "tournament.error.rounds": "A tournament has 1 to {most} rounds.",
    "tournament.error.table_size": "{variant} is played at tables of {least} to {most}.",
    "tournament.error.smallest_table": "The smallest table has 2 players at least and at most "
    "a full table's {most}.",
    "tournament.error.points_count": "Points by place need one number for each of the {size} "
    "places, best place first.",
    "tournament.error.points_range": "Each place's points are a whole number from 0 to {most}.",
    "tournament.error.points_order": "Points by place may not rise from one place to the next.",
    "tournament.error.points_flat": "First place must give more points than last.",
    "tournament.error.points_read": "I couldn't read those points: write {size} whole numbers, "
    "best place first, like 6 4 2 0.",
    "tournament.error.turn_time": "Each decision needs some time: give a turn time like 24h.",
    "tournament.error.deadline_past": "The sign-up deadline must lie ahead.",
    "tournament.error.deadline_far": "Sign-up stays open {days} days at most.",
    "tournament.error.check_in_manual": "A check-in window closes at the start, so it needs a "
    "sign-up deadline (sign_up_hours).",
    "tournament.error.check_in_range": "A check-in window lasts {least} minutes to {most} hours.",
    "tournament.error.too_few": "{count} signed up so far; round 1 needs {least}.",
    "tournament.error.too_many": "A tournament takes {most} players at most.",
    "tournament.error.organiser": "Opening a tournament needs Manage Server or the role {role}.",
    "tournament.error.manage": "Opening a tournament needs Manage Server (a server can name an "
    "organisers' role with `/qwixx tournament role`).",
    "tournament.error.role_manage": "Naming the organisers' role needs Manage Server.",
    "tournament.error.organiser_only": "Only the organiser ({host}) or a member with Manage "
    "Server can do that.",
    "tournament.error.here": "A tournament is held in a server's text channel (its tables play "
    "in threads of it), not here.",
    "tournament.error.channel_busy": "This channel holds the tournament {name} already: open "
    "another one in another channel.",
    "tournament.error.limit_server": "This server has {most} open tournaments, the most at "
    "once: one must end first.",
    "tournament.error.limit_member": "You are in {most} open tournaments on this server, the "
    "most at once.",
    "tournament.error.full": "{name} is full: {most} players.",
    "tournament.error.closed": "Sign-up for {name} is closed.",
    "tournament.error.already": "You are signed up for {name} already.",
    "tournament.error.not_entered": "You are not signed up for {name}.",
    "tournament.error.check_in_closed": "Check-in for {name} is not open now.",
    "tournament.error.checked_in": "You have checked in already.",
    "tournament.error.cancel_started": "{name} has started: a tournament is called off only "
    "before its start.",
    "tournament.error.not_in_any": "You are in no open tournament on this server.",
    "tournament.error.which": "You are in several tournaments here ({names}): give the name "
    "of one.",
    "tournament.error.over": "{name} is over.",
    "tournament.error.withdrawn": "You have withdrawn already.",
    "tournament.error.unknown": "This server has no tournament called {name}.",
    "tournament.error.none": "This server has no tournament yet.",
    "tournament.error.none_here": "This channel holds no tournament still to start.",
    "tournament.error.gone": "That tournament no longer exists.",
    "tournament.error.busy": "{name} changed several times at the same moment as your "
    "request, so your request did nothing. Please try again.",
    "history.tournament": "(🏆 {name}, round {round})",
    # asking less: deciding ahead on the sheet (bot.cogs.pages)
    "ahead.action2": "**Turn {turn}, action 2 ahead (white + colour):** choose it now. It is "
    "made once everyone has chosen their white sum, if the rules still allow it then.",
    "ahead.action3": "**Turn {turn}, action 3 ahead (your pawn):** choose where it goes now. It "
    "moves after your coloured die, if the rules still allow it then.",
    "ahead.roll": "**Your next throw (turn {turn}), ahead:** choose your dice now; they are "
    "thrown for you when your turn comes.",
    "ahead.chosen": "✓ Chosen ahead: {what}.",
    "ahead.then": "{first}, then {second}",
    "ahead.chosen_throw": "✓ Chosen ahead: {throw}; {rule}.",
    "ahead.fallback.ask": "If it is no longer possible then, you are asked.",
    "ahead.fallback.pass": "If it is no longer possible then, you pass.",
    "ahead.none": "None",
    "ahead.none_penalty": "None (costs a penalty)",
    "ahead.stay_penalty": "Stay (costs a penalty)",
    "sheet.your_choice": "Your choice so far: {what}",
    "sheet.drops_plan": "A new choice here drops what you chose ahead for later in the turn.",
    "ahead.made": "✓ Made as you chose ahead: {move}.",
    "ahead.then.ask": "Your choice made ahead, {move}, is no longer possible: choose again.",
    "ahead.then.pass": "Your choice made ahead, {move}, was no longer possible: you passed, as "
    "you chose.",
    "ahead.then.none": "Your choice made ahead, {move}, was not needed: its moment never came.",
    "ahead.pawn": "♟ {steps}",
    "ahead.keep": "keep the throw",
    "ahead.reroll": "throw again",
    "button.fallback.ask": "Ask me in that case",
    "button.fallback.pass": "Pass in that case",
    "button.first": "Change my white sum",
    "button.first_write": "Change where I write",
    "button.colour": "Change my coloured die",
    "button.later": "Decide later",
    "rethrow.ask": "Then: ask me whether to keep it",
    "rethrow.keep": "Then: keep the throw",
    "rethrow.unless_writable": "Then: throw again if I cannot write it",
    "rethrow.reroll": "Then: always throw again",
    "rule.ask": "then you are asked whether to keep it",
    "rule.keep": "then it is kept",
    "rule.unless_writable": "then it is thrown again if you cannot write it",
    "rule.reroll": "then it is thrown again",
    "error.plan_empty": "Choose something to decide ahead.",
    "error.plan_first": "Choose your white sum first (or pass); then you can choose the rest "
    "of your turn ahead.",
    "error.plan_illegal": "The rules will not allow that choice then. Open your sheet again to "
    "see your options.",
    "error.plan_late": "Too late to decide that ahead: its moment has come and gone. Open your "
    "sheet again to see what waits for you now.",
    "error.plan_not_yours": "That choice ahead is not yours to make now: its turn is not yours, "
    "or it is over. Open your sheet again to see your options.",
    # standing choices for one game (bot.cogs.pages) and for every game (bot.cogs.prefs)
    "button.choices": "⚙ My choices",
    "button.to_sheet": "Back to my sheet",
    "choices.title": "**Your choices in this game**: what it decides without asking you. "
    "For every game: `/qwixx preferences`.",
    "choices.line": "⚙ {others} · {timeout}",
    "choices.saved": "Saved: in force in this game from now on.",
    "choices.others.ask": "On others' turns: ask me",
    "choices.others.safe": "On others' turns: cross only what skips nothing, else pass",
    "choices.others.computer": "On others' turns: the Hard computer chooses",
    "choices.timeout.pass": "If my time runs out: pass",
    "choices.timeout.computer": "If my time runs out: the Hard computer chooses",
    "command.preferences": "Your choices for every game: standing choices, direct messages, "
    "quiet hours, time away",
    "option.preferences.others": "On others' turns: ask me, cross only what skips nothing, or "
    "the Hard computer chooses",
    "option.preferences.timeout": "If your time runs out: pass, or the Hard computer chooses",
    "option.preferences.fallback": "If a choice made ahead is no longer possible then",
    "option.preferences.direct_messages": "A direct message when a game waits for you",
    "option.preferences.quiet_from": "Your quiet hours (no mentions) start at, e.g. 22:00",
    "option.preferences.quiet_to": "Your quiet hours end at, e.g. 7:30",
    "option.preferences.quiet_off": "No quiet hours any more",
    "option.preferences.timezone": "Your time zone, e.g. Europe/Berlin",
    "option.preferences.away_until": "Away until this day (2026-12-24): games decide for you",
    "option.preferences.back": "You are back: games wait for you again",
    "prefs.choice.ask": "Ask me",
    "prefs.choice.safe": "Only what skips nothing, else pass",
    "prefs.choice.computer": "The Hard computer chooses",
    "prefs.choice.pass": "Pass",
    "prefs.title": "**Your choices for every game** (a choice made for one game stays with it):",
    "prefs.fallback.ask": "If a choice made ahead is no longer possible: ask me",
    "prefs.fallback.pass": "If a choice made ahead is no longer possible: pass",
    "prefs.dm.on": "Direct messages when a game waits for you: on",
    "prefs.dm.off": "Direct messages when a game waits for you: off",
    "prefs.nudge.on": "Reminders: soon and again (after 1, 2, 4, 8 and 12 hours of a long "
    "decision)",
    "prefs.nudge.off": "Reminders: at half time and shortly before the end",
    "button.nudge_on": "Remind me soon and again",
    "button.nudge_off": "Remind me at half time",
    "option.preferences.remind_soon": "Remind me soon and again (after 1, 2, 4, 8, 12 hours), "
    "not only at half time",
    "prefs.quiet": "Quiet hours: {start}–{end}, {zone} time",
    "prefs.quiet_none": "Quiet hours: none (time zone {zone})",
    "prefs.away": "Away until <t:{until}:f>: until then your games decide for you",
    "prefs.here": "Away: no, your games wait for you",
    "prefs.saved": "✅ Saved.",
    "prefs.hint": "Change them below, or with the options of `/qwixx preferences` (quiet "
    "hours, time zone, time away).",
    "button.dm_on": "Direct messages on",
    "button.dm_off": "Direct messages off",
    "button.here": "I am back",
    "prefs.bad_clock": "{text} is not a time of day: write it as 22:00 or 7.",
    "prefs.bad_zone": "I do not know the time zone {zone}: choose one of those offered, such as "
    "Europe/Berlin.",
    "prefs.bad_day": "{text} is not a date: write it as 2026-12-24.",
    "prefs.day_past": "{text} is over already: choose a day from today on.",
    "prefs.day_far": "{text} is more than a year away: choose a day within a year.",
    "prefs.not_for_one_game": "That cannot be chosen for one game only: `/qwixx preferences` "
    "changes it for every game.",
    "prefs.unknown_choice": "That is not a choice I know ({name} {value}); choose one of those "
    "offered.",
    "prefs.quiet_both": "Give both ends of your quiet hours: when they start and when they end.",
    "prefs.quiet_empty": "Your quiet hours would start and end at the same time: give two "
    "different times, or turn them off.",
    "prefs.quiet_conflict": "Either set quiet hours or turn them off, not both at once.",
    "prefs.away_conflict": "Either give the day you are away until or say you are back, not "
    "both at once.",
}
