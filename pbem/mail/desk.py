"""The referee's desk: commands by mail and press between players (:class:`Desk`), a
collaborator of the mail cycle (:mod:`pbem.mail.cycle`).

Commands (:mod:`pbem.mail.commands`) are answered to the registered address only, in one
mail; a mail whose commands are not all understood runs none of them (as a refused order
file changes nothing). Press goes through the referee, who never shows an address: the
message, signed with the sender's nation and name, to the nations it names or to all, as
the game's ``press`` setting allows; each one is kept in the game's press log
(``GAME.press.jsonl``, beside the game and outside its history: press is talk between the
players, not a move of the game, so the history's hash chain does not cover it and a
replay does not need it). ``ABSENT`` and ``BACK`` change the game's clock
(:mod:`pbem.service.clockchanges`), saved and logged with the answer.
"""

from __future__ import annotations

import hashlib
from datetime import timedelta
from pathlib import Path

from pbem.errors import CannotWrite, Refused, UsageError
from pbem.mail import answers, compose, judge
from pbem.mail import commands as cmds
from pbem.mail.addresses import deliverable, gm_recipient, nations_of, observer, observers, recipients
from pbem.mail.config import MailConfig
from pbem.mail.inbox import Incoming
from pbem.mail.replies import Replies
from pbem.mail.runs import GameRun, Journal
from pbem.mail.transport import spool
from pbem.mail.writing import entry_lines, status_lines, your_options
from pbem.service import clockchanges, numbers, passwords
from pbem.service.clock import iso, local_day, parse_time, told
from pbem.service.history import private_identity
from pbem.service.press import append_press

PENDING_DAYS = 7
"""How long a code sent for ``ADDRESS`` stays good."""

OBSERVED = ("help", "status", "history", "resend")
"""What an observer may ask for by mail: what is public (and ``PRESS TO all`` where the
game lets observers speak, ``observer_press``)."""


class Desk:
    """What the cycle does with a mail of commands, and with a player's mail that is neither
    orders nor commands."""

    def __init__(self, config: MailConfig, replies: Replies, journal: Journal):
        self.config = config
        self.replies = replies
        self.journal = journal
        self.now = replies.now

    def take(self, run: GameRun, incoming: Incoming, cm: cmds.CommandMail, noted: bool = False) -> None:
        """Run the commands of ``incoming`` for its sender's nation, and answer (``noted``:
        the mail is an order mail, noted already, whose commands came after its orders)."""
        game = run.game
        nations = nations_of(game, incoming.sender)
        if not nations:
            if all(c.word == "confirm" for c in cm.commands) and cm.commands:
                return self._confirm(run, incoming, cm)
            if observer(run.settings, incoming.sender) is not None:
                return self._observed(run, incoming, cm)
            return self.replies.stranger(run, incoming, cm.nation, cm.password)
        problems = list(cm.problems)
        nation = cm.nation if cm.nation in nations else nations[0] if len(nations) == 1 else None
        if nation is None:
            nation = next((n for n in nations if passwords.verify(cm.password or "", game.meta[n].password)), None)
        needs = [c for c in cm.commands if c.word in cmds.SIGNED]
        if needs:
            if nation is None:
                problems.append(f"you play {', '.join(game.edition.nation_name(n) for n in nations)}: add a line "
                                "'nation ...' to say for which")
            elif not passwords.verify(cm.password or "", game.meta[nation].password):
                problems.append(f"{needs[0].word.upper()} needs your password: add the line 'password ...' (it "
                                "was missing or wrong)")
            elif any(c.word == "press" and cmds.holds_password(c.text, cm.password) for c in cm.commands):
                problems.append("the PRESS message holds your password, so nothing was sent: write it again "
                                "without it (the line 'password ...' is never passed on)")
        if cm.unread:
            problems.append(f"and {cm.unread:,} more lines that are no command")
        nation = nation or nations[0]
        if problems:
            return self._command_answer(run, incoming, [("Nothing was done", problems)], "refused", noted=noted)
        self._run(run, incoming, cm, nation, noted)

    def _run(self, run: GameRun, incoming: Incoming, cm: cmds.CommandMail, nation: str | None,
             noted: bool = False, allowed: tuple[str, ...] = tuple(cmds.WORDS), why: str = "") -> None:
        """Run each command of ``cm`` that is ``allowed`` (the others are answered ``why``
        not), and answer in one mail."""
        sections: list[tuple[str, list[str]]] = []
        attachments: dict[str, bytes] = {}
        names: dict[str, str] = {}
        for command in cm.commands:
            handler = getattr(self, f"_cmd_{command.word}")
            try:
                if command.word not in allowed:
                    raise UsageError(why)
                lines = handler(run, incoming, nation, command, attachments, names)
            except (UsageError, Refused) as exc:
                lines = [f"Not done: {exc}"]
            sections.append((" ".join([command.word.upper(), *command.args])[:80], lines))
        if cm.not_run:
            sections.append(("Not run", cmds.not_run_lines(cm)))
        if cm.hints:
            sections.append(("Not read", [*cm.hints, f"the commands: {', '.join(w.upper() for w in cmds.WORDS)}"]))
        self._command_answer(run, incoming, sections, "answered", attachments, names,
                             [c.word for c in cm.commands], noted=noted)

    def after_orders(self, run: GameRun, incoming: Incoming, lines: list[tuple[int, str]]) -> None:
        """The commands an order mail holds after its orders (``STATUS`` under the last
        order line; ``lines``: those lines), run as a mail of commands runs them once the
        orders were applied or refused, and answered in a mail of their own. ``PRESS`` is
        not: in an order mail the lines after it would be read as orders, so press goes in
        a mail of its own, as the answer says."""
        header = [(n, line) for n, line in incoming.body_lines() if line.split()[:1]
                  and line.split()[0].lower().rstrip(":") in cmds.HEADER and (n, line) not in lines]
        cm = cmds.read_commands(incoming.text or "", frozenset(), sorted(header + lines))
        if cm is None or not cm.commands:
            return
        nations = nations_of(run.game, incoming.sender)
        nation = cm.nation if cm.nation in nations else nations[0] if nations else None
        cm.problems = [p for p in cm.problems if "is no command" not in p]  # prose between them is prose here
        if nation is not None and any(c.word in cmds.CHANGES for c in cm.commands) and \
                not passwords.verify(cm.password or "", run.game.meta[nation].password):
            return self._command_answer(run, incoming, [("Nothing was done", [
                "the commands under your orders need your password: the line 'password ...' was wrong"])],
                "refused", noted=True)
        self._run(run, incoming, cm, nation, noted=True, allowed=tuple(w for w in cmds.WORDS if w != "press"),
                  why="press goes in a mail of its own (PRESS TO ..., your password, then the message): in a "
                      "mail of orders the lines after PRESS would be read as orders")

    def _command_answer(self, run: GameRun, incoming: Incoming, sections, outcome: str,
                        attachments: dict[str, bytes] | None = None, names: dict[str, str] | None = None,
                        words: list[str] | None = None, noted: bool = False) -> None:
        """Answer a mail of commands (``noted``: an order mail, noted already); what was
        refused goes to the GM too, if the game asks for copies of refusals."""
        clock = run.news(self.now)
        message = answers.command_answer(self.config, run.game, incoming, sections, self.now, clock,
                                         attachments or {}, names or {})
        size = len(message.as_bytes())
        if size > cmds.MAX_ANSWER and attachments:  # the files are bounded before: a last guard
            sections = [*sections, ("Not attached", [f"the files would make this answer {size:,} bytes, more than "
                                                     f"the {cmds.MAX_ANSWER:,} an answer may have: ask for fewer"])]
            message = answers.command_answer(self.config, run.game, incoming, sections, self.now, clock, {}, {})
        self._copy_refusals(run, incoming, sections, clock)
        self.replies.answer(run, incoming, "commands", message, None if noted else outcome,
                            why="commands: " + ", ".join(words or []) if words else "commands not understood")
        self.journal.log(f"{run.game_id}: commands from {incoming.sender}: {', '.join(words or ['none run'])}")

    def _copy_refusals(self, run: GameRun, incoming: Incoming, sections, clock) -> None:
        """The refused parts of an answer to commands, copied to the GM when the game asks
        for copies of refusals (``gm_copies = "refusals"``): only those parts, so that a new
        password the same answer gives never reaches the GM."""
        gm = gm_recipient(self.config)
        refused = [(title, lines) for title, lines in sections if title == "Nothing was done"
                   or any(line.startswith("Not done") for line in lines)]
        if run.settings.gm_copies != "refusals" or gm is None or gm.address == incoming.sender or not refused:
            return
        part = answers.command_answer(self.config, run.game, incoming, refused, self.now, clock, {}, {})
        digest = hashlib.sha256(incoming.message_id.encode()).hexdigest()[:12]
        spool(run.spool, f"{len(run.game.history):06d}-commands-{digest}-gm", compose.copy_to_gm(self.config, part, gm))
        self.journal.summary.queued += 1

    # -- the commands ----------------------------------------------------------------------------

    def _cmd_help(self, run, incoming, nation, command, attachments, names) -> list[str]:
        if nation is None:  # an observer
            lines = [f"{word.upper()}: {cmds.WORDS[word]}" for word in OBSERVED]
            if run.settings.observer_press:
                lines.append("PRESS TO all: a message to every player and observer, the message on the lines after "
                             "it (observers speak to all only)")
            lines += ["", "One command a line. You follow the game as an observer: the commands that play a nation "
                          "are the players'."]
        else:
            lines = [f"{word.upper()}: {what}" for word, what in cmds.WORDS.items()]
            lines += ["", "One command a line; name the game with a line 'game ...' if you play in several. For "
                          "example, a mail that says you are away for a week:", "",
                      f"    game {run.game_id}", f"    nation {nation}", "    password YOUR-PASSWORD",
                      "    ABSENT UNTIL 2026-12-14"]
        if self.config.guide_url:
            lines += ["", f"The guide for players: {self.config.guide_url}"]
        return lines

    def _cmd_status(self, run, incoming, nation, command, attachments, names) -> list[str]:
        game = run.game
        lines = status_lines(game, run.news(self.now), self.now)
        for n in nations_of(game, incoming.sender):
            lines += [""] + answers.holdings(game, n)
        return lines

    def _cmd_options(self, run, incoming, nation, command, attachments, names) -> list[str]:
        game = run.game
        st = game.state.status
        if st.winner is None and st.active in nations_of(game, incoming.sender):
            return your_options(self.config, game, st.active)[1:]
        return [f"It is not your turn: turn {st.turn} is the {game.edition.nation_name(st.active)}'. OPTIONS lists "
                "what you can do when it is yours (your report mail then does too)."] if st.winner is None else \
            ["The game is over."]

    def _cmd_history(self, run, incoming, nation, command, attachments, names) -> list[str]:
        count = 10
        for arg in command.args:
            count = numbers.whole(arg, "HISTORY", 1, 50, "a number of entries")
        game = run.game
        readers = nations_of(game, incoming.sender)
        lines: list[str] = []
        for entry in [e for e in game.history if not private_identity(e)][-count:]:  # a player's own change: theirs
            lines += [f"#{entry['seq']}"] + entry_lines(game, entry, readers, self.config.timezone) + [""]
        return lines

    @staticmethod
    def _resend_asks(run: GameRun, nation: str | None, args: tuple[str, ...]) -> tuple[list[str], list[int]]:
        """The formats and turns a ``RESEND`` asks for (the game's formats by default)."""
        formats: list[str] = []
        turns: list[int] = []
        for arg in args:
            if arg.isascii() and arg.isdigit():
                turn = numbers.whole(arg, "RESEND", 0, 99_999, "a turn number")
                turns += [turn] if turn not in turns else []
            elif arg.lower() in cmds.FORMATS:
                formats += [arg.lower()] if arg.lower() not in formats else []
            else:
                raise UsageError(f"RESEND takes {', '.join(cmds.FORMATS)} and turn numbers, not {numbers.shown(arg)}")
        formats = (formats or [f for f in run.settings.attach if f in cmds.FORMATS and (nation or f != "copy")]
                   or ["png"])
        if "copy" in formats and nation is None:
            raise UsageError("a copy of the game is a player's own (an observer gets the public reports)")
        return formats, turns

    def _cmd_resend(self, run, incoming, nation, command, attachments, names) -> list[str]:
        game = run.game
        formats, turns = self._resend_asks(run, nation, command.args)
        done = game.state.status.turn - (1 if game.state.status.winner is None else 0)
        late = [t for t in turns if t > done]
        if late:
            raise UsageError(f"turn {late[0]} has not been played (the last played is turn {done})")
        from pbem.report import prepare_all

        room = cmds.MAX_ANSWER * 2 // 3 - sum(map(len, attachments.values()))  # base64 makes a file a third larger
        wanted = [(turn, fmt) for turn in (turns if turns else [None]) for fmt in formats if fmt != "copy"]
        reports: dict[int | None, dict] = {}
        sent: list[int | None] = []
        too_big: list[str] = []
        for turn, fmt in wanted[:cmds.MAX_FILES]:
            if turn not in reports:
                reports[turn] = {r.viewer: r for r in prepare_all(game, turn=turn, image_base=run.settings.image_base)}
            report = reports[turn][nation if nation in reports[turn] else None]
            data = report.render(fmt)
            if len(data) > room:
                too_big.append(report.name(fmt))
                continue
            room -= len(data)
            attachments[f"{turn}.{fmt}"], names[f"{turn}.{fmt}"] = data, report.name(fmt)
            sent += [turn] if turn not in sent else []
        if "copy" in formats:
            from pbem.service.copies import packed_copy

            data = packed_copy(game, nation)
            name = f"{Path(run.settings.file).stem}.{nation}.json"
            if len(data) > room:
                too_big.append(name)
            else:
                attachments[f"{nation}.json"], names[f"{nation}.json"] = data, name
        lines = []
        if sent or ("copy" in formats and f"{nation}.json" in attachments):
            which = ("the latest report" if not turns else ("turn " if len(sent) == 1 else "turns ")
                     + ", ".join(map(str, sent)))
            lines.append(f"Attached: {which}, as {', '.join(formats)}.")
        left = wanted[cmds.MAX_FILES:]
        if left:
            by_turn = {turn: [f for t, f in left if t == turn] for turn, _ in left}
            lines.append(f"Not attached (at most {cmds.MAX_FILES} files a mail): " + "; ".join(
                f"{'the latest report' if t is None else f'turn {t}'} as {', '.join(f)}" for t, f in by_turn.items())
                + ". Ask for them in another mail.")
        if too_big:
            lines.append(f"Not attached (the answer may be at most {cmds.MAX_ANSWER:,} bytes): {', '.join(too_big)}. "
                         "Ask for fewer files, or smaller ones (txt).")
        return lines or ["Nothing attached."]

    def _identity(self, run: GameRun, nation: str) -> list[str]:
        """The times ``nation`` changed its identity by mail in the last 24 hours; a usage
        error if it may make no more changes now (:data:`~pbem.mail.commands.IDENTITY_PER_DAY`)."""
        recent = []
        for at in run.ledger.identity.get(nation, []):
            try:
                if self.now - parse_time(at) < timedelta(days=1):
                    recent.append(at)
            except (TypeError, ValueError):
                continue
        if len(recent) >= cmds.IDENTITY_PER_DAY:
            again = min(parse_time(at) for at in recent) + timedelta(days=1)
            raise UsageError(f"the {run.game.edition.nation_name(nation)} may make at most {cmds.IDENTITY_PER_DAY} "
                             f"changes of password or address a day; the next is possible from "
                             f"{told(again, run.clock.zone)}")
        return recent

    def _changed_identity(self, run: GameRun, nation: str, recent: list[str]) -> None:
        run.ledger.identity[nation] = [*recent, iso(self.now)]

    def _cmd_password(self, run, incoming, nation, command, attachments, names) -> list[str]:
        recent = self._identity(run, nation)
        game = run.game
        meta = game.meta[nation]
        cost = int(meta.password.split("$")[1]) if meta.password.count("$") == 3 else passwords.ITERATIONS
        try:
            outcome, plain = run.service.replace_player(nation, meta.player, meta.email,
                                                        "a new password, asked for by the player", cost)
        except CannotWrite as exc:  # the machine's error: neither the game nor the secrets file changed
            self.journal.fail(run.game_id, exc)
            return ["Not done: the referee's machine could not store a new password just now, so your password "
                    "is unchanged (the old one still works). The GM is told; send PASSWORD again later."]
        run.game = outcome.after
        self._changed_identity(run, nation, recent)
        return [f"Your new password for the {game.edition.nation_name(nation)}: {plain}",
                "The old one no longer works. Keep it to yourself: whoever knows it can give orders for your nation."]

    def _cmd_address(self, run, incoming, nation, command, attachments, names) -> list[str]:
        game = run.game
        new = (command.args[0] if command.args else "").strip("<>").lower()
        if not deliverable(new):
            raise UsageError("ADDRESS takes one new address: ADDRESS new@example.org")
        if any((game.meta[n].email or "").lower() == new for n in game.seats):
            raise UsageError(f"{new} plays in this game already")
        recent = self._identity(run, nation)
        import secrets  # the code proves that the new address reads its mail: no one may compute it

        code = secrets.token_hex(5).upper()
        pending = run.ledger.pending
        for earlier in [c for c, p in pending.items() if isinstance(p, dict) and p.get("nation") == nation]:
            pending.pop(earlier)  # one move waits at a time: the latest asked for
        pending[code] = {"nation": nation, "from": incoming.sender, "to": new, "at": iso(self.now)}
        message = answers.confirm_address(self.config, game, nation, new, code, self.now)
        digest = hashlib.sha256(f"{incoming.message_id}|confirm".encode()).hexdigest()[:10]
        spool(run.spool, f"{len(game.history):06d}-confirm-{digest}", message)
        self.journal.summary.queued += 1
        self._changed_identity(run, nation, recent)
        return [f"A code went to {new}, and only there: answer that mail from {new} with the line it gives "
                f"(CONFIRM and the code) within {PENDING_DAYS} days. Until then nothing changes; your password "
                "stays as it is."]

    def _confirm(self, run: GameRun, incoming: Incoming, cm: cmds.CommandMail) -> None:
        """``CONFIRM CODE`` from the address an ``ADDRESS`` named: the move is made."""
        pending = run.ledger.pending
        code = (cm.commands[0].args[0] if cm.commands[0].args else "").upper()
        wanted = pending.get(code)
        if not isinstance(wanted, dict) or wanted.get("to") != incoming.sender:
            return self.replies.stranger(run, incoming)
        if self.now - parse_time(wanted["at"]) > timedelta(days=PENDING_DAYS):
            pending.pop(code, None)
            return self._command_answer(run, incoming, [("Nothing was done", [
                f"the code {code} is older than {PENDING_DAYS} days: ask again from your old address"])], "refused")
        nation = wanted["nation"]
        outcome = run.service.change_address(nation, wanted["to"], "the player moved to a new address (confirmed "
                                                                   "from both)")
        run.game = outcome.after
        pending.pop(code, None)
        name = run.game.edition.nation_name(nation)
        old = answers.moved_notice(self.config, run.game, nation, wanted["from"], wanted["to"], self.now)
        spool(run.spool, f"{len(run.game.history):06d}-moved-{code}", old)
        self.journal.summary.queued += 1
        self._command_answer(run, incoming, [("CONFIRM", [
            f"Done: you play the {name} from {wanted['to']} now, with the same password. The old address "
            f"{wanted['from']} is told."])], "answered", words=["confirm"])

    def _cmd_confirm(self, run, incoming, nation, command, attachments, names) -> list[str]:
        raise UsageError("CONFIRM is sent from the new address, alone")

    def _cmd_absent(self, run, incoming, nation, command, attachments, names) -> list[str]:
        args = list(command.args)
        if args and args[0].lower() == "until":
            args = args[1:]
        if not args:
            raise UsageError("ABSENT UNTIL 2026-12-14: the last day you are away")
        until = judge.zone_day(args[0], "ABSENT UNTIL")
        zone = run.clock.zone or self.config.timezone
        today = local_day(self.now, zone)
        cap = run.settings.absence_days
        changed = clockchanges.add_absence(run.clock, run.game.seats, nation, today, until, self.now,
                                           " ".join(args[1:])[:200], "player", cap, zone)
        self._record(run, changed, judge.absence_notice(run.game, nation, today, until))
        what = judge.absence_done(nation, today, until, changed, cap)
        policy = {"wait": "the game waits for you", "default": "the GM's default turn is played for you",
                  "bot": "the bot plays your turns"}[run.settings.absence]
        return [f"Noted: you are away from {today:%a %d %b %Y} to {until:%a %d %b %Y}; meanwhile {policy}. "
                "Send BACK when you are back earlier.", f"({what.split(';')[0]})"]

    def _cmd_back(self, run, incoming, nation, command, attachments, names) -> list[str]:
        changed = clockchanges.end_absence(run.clock, nation, self.now, "player")
        self._record(run, changed, judge.back_notice(run.game, nation))
        return ["Welcome back: your absence ends today."]

    @staticmethod
    def _record(run: GameRun, changed: clockchanges.Changed, notice: str) -> None:
        """A change of the clock by mail: saved and logged with the answer (:meth:`GameRun.save`),
        and told to the players with the next mail run."""
        run.clock = changed.clock
        run.audits.append(changed.record)
        judge.announce(run.ledger, notice)

    # -- press -------------------------------------------------------------------------------------

    def _cmd_press(self, run, incoming, nation, command, attachments, names) -> list[str]:
        game = run.game
        policy = run.settings.press
        if policy == "none":
            raise UsageError("there is no press in this game (the GM's setting)")
        if nation is None:
            return self._observer_press(run, incoming, command)
        words = [w for w in " ".join(command.args).replace(",", " ").split() if w.lower() not in ("to", "and")]
        if not words:
            raise UsageError("PRESS TO persians (or PRESS TO all), then the message on the lines after it")
        everyone = any(w.lower() == "all" for w in words)
        targets: list[str] = []
        if not everyone:
            for word in words:
                found = [n for n in game.seats if word.lower() in (n, game.edition.nation_name(n).lower())]
                if not found:
                    raise UsageError(f"{word!r} is no nation of this game (one of {', '.join(game.seats)}, or all)")
                targets += [n for n in found if n not in targets]
        if not everyone and policy == "broadcast-only":
            raise UsageError("in this game press goes to all only (PRESS TO all): the GM's setting")
        text = press_text(command)
        mine = nations_of(game, incoming.sender)
        sender = nation if nation in mine else mine[0]
        to_nations = [n for n in game.seats if n not in mine] if everyone else [n for n in targets if n not in mine]
        people = [p for p in recipients(game) if any(n in to_nations for n in p.nations)]
        if everyone:
            taken = {p.address for p in people} | {incoming.sender}
            people += [o for o in observers(run.settings) if o.address not in taken]
        who = f"the {game.edition.nation_name(sender)}" + (f" ({game.meta[sender].player})"
                                                           if game.meta[sender].player else "")
        return self._pass_on(run, incoming, sender, who, people, to_nations, everyone, text)

    def _pass_on(self, run: GameRun, incoming: Incoming, sender: str, who: str, people: list,
                 to_nations: list[str], everyone: bool, text: str) -> list[str]:
        """Press from ``sender`` (a nation, or ``observer``; signed ``who``) to ``people``
        (and the GM if the game says so): logged first (a press that cannot be logged is
        not sent, and the mail is read again), then spooled."""
        game = run.game
        gm = gm_recipient(self.config)
        if run.settings.press_gm and gm is not None and gm.address not in {p.address for p in people}:
            people = [*people, gm]
        seq = len(game.history)
        key = hashlib.sha256(f"{incoming.message_id}|press".encode()).hexdigest()[:10]
        append_press(Path(run.settings.file), {
            "at": self.now.strftime("%Y-%m-%dT%H:%M:%SZ"), "after": seq - 1,
            "from": sender if sender in game.meta else who,
            "to": "all" if everyone else to_nations, "public": everyone, "text": text, "key": key})
        clock = run.news(self.now)
        for k, person in enumerate(people):
            message = answers.press(self.config, game, sender, who, person, to_nations, everyone, text, self.now, key,
                                    clock)
            spool(run.spool, f"{seq:06d}-press-{key}-{k:02d}", message)
            self.journal.summary.queued += 1
        shown = "all" if everyone else ", ".join(game.edition.nation_name(n) for n in to_nations)
        return [f"Sent to {shown} ({len(people)} mail{'s' if len(people) != 1 else ''}); no address was shown."]

    def _observed(self, run: GameRun, incoming: Incoming, cm: cmds.CommandMail) -> None:
        """An observer's commands: what is public, and press where the game allows it."""
        if cm.problems:
            return self._command_answer(run, incoming, [("Nothing was done", cm.problems)], "refused")
        speak = run.settings.observer_press
        allowed = OBSERVED + (("press",) if speak else ())
        self._run(run, incoming, cm, None, allowed=allowed, why="observers may send " + ", ".join(
            w.upper() for w in allowed) + (" (to all)" if speak else "; the GM's setting lets no observer send press"))

    def _observer_press(self, run: GameRun, incoming: Incoming, command: cmds.Command) -> list[str]:
        """An observer's press, to all only (``observer_press``): signed with their name as
        the game lists them, never their address."""
        words = [w.lower() for w in " ".join(command.args).replace(",", " ").split() if w.lower() not in ("to", "and")]
        if words != ["all"]:
            raise UsageError("observers send press to all only: PRESS TO all, the message on the lines after it")
        text = press_text(command)
        me = observer(run.settings, incoming.sender)
        who = f"{me.name} (an observer)" if me is not None and me.name else "an observer"
        people = recipients(run.game) + [o for o in observers(run.settings) if o.address != incoming.sender]
        return self._pass_on(run, incoming, "observer", who, people, [], True, text)

    # -- mail that is neither orders nor commands ---------------------------------------------

    def other(self, run: GameRun, incoming: Incoming) -> bool:
        """A player's (or an observer's) mail that holds no orders and no command: a reply
        to a press mail is passed on (or its sender told how to answer); a mistyped
        command is answered; the rest goes to the GM if the game says so; true if it was
        handled (otherwise it is left alone)."""
        if incoming.text is None:
            return False
        if self._press_reply(run, incoming):
            return True
        if not run.registered(incoming.sender):
            return False
        hint = cmds.near_command(incoming.text, incoming.body_lines())
        if hint:
            self._command_answer(run, incoming, [("Nothing was done", [hint])], "refused")
            return True
        gm = gm_recipient(self.config)
        if run.settings.forward and gm is not None:
            message = answers.forwarded(self.config, run.game, incoming, self.now)
            self.replies.answer(run, incoming, "forward", message, "forwarded", why="to the GM")
            self.journal.log(f"{run.game_id}: mail from {incoming.sender} forwarded to the GM")
            return True
        return False

    # -- a reply to a press mail --------------------------------------------------------------

    def _press_reply(self, run: GameRun, incoming: Incoming) -> bool:
        """A reply to a press mail (known by its ``In-Reply-To``, or its subject): with the
        player's password in it, passed on to the press's sender as ``PRESS TO`` them;
        without, its sender is told how to answer. True if the mail was such a reply."""
        game = run.game
        nations = nations_of(game, incoming.sender)
        watching = observer(run.settings, incoming.sender) is not None
        if not nations and not watching:
            return False
        sender = replied_press(game, run.settings.file, incoming, self.config.message_domain())
        if sender is None:
            return False
        text, password = cmds.reply_text(incoming.text or "")
        if nations and sender in game.meta and password and text.strip():
            self.take(run, incoming, cmds.CommandMail(commands=[cmds.Command("press", ("to", sender), 0, text)],
                                                      password=password))
            return True
        whom = f"the {game.edition.nation_name(sender)}" if sender in game.meta else sender
        if nations:
            target = sender if sender in game.meta else "all"
            how = [f"Your reply to the press from {whom} was not passed on: press goes on only with your password "
                   "(it is never passed on). Reply again with your message and a line 'password ...', or write:", "",
                   f"    PRESS TO {target}", "    password YOUR-PASSWORD", "    your message"]
        elif run.settings.observer_press:
            how = [f"Your reply to the press from {whom} was not passed on: observers send press to all only. Write "
                   "PRESS TO all, then your message on the lines after it."]
        else:
            how = [f"Your reply to the press from {whom} was not passed on: observers send no press in this game "
                   "(the GM's setting)."]
        self._command_answer(run, incoming, [("Press not sent", how)], "refused", words=["press reply"])
        return True


def replied_press(game, file, incoming: Incoming, domain: str) -> str | None:
    """The sender (a nation) of the press mail ``incoming`` replies to, or ``None``: known
    by its Message-ID among the recent press of the game's log (each press mail's id is
    made of the press's key and the reader's address), else by the subject the referee
    gave it (``Re: [GAME] press from the Arabs``)."""
    import re

    from pbem.mail.writing import message_id
    from pbem.service.press import read_press

    if incoming.replying_to:
        readers = {incoming.sender} | {game.meta[n].email or "" for n in nations_of(game, incoming.sender)}
        for item in reversed(read_press(file, public_only=False)[-200:]):
            ids = {message_id(f"press|{game.game_id}|{item.get('key')}|{a}", domain) for a in readers}
            if ids & set(incoming.replying_to):
                return str(item.get("from"))
    found = re.search(rf"\[{re.escape(game.game_id)}\] press from the (.+?)(?: to all)?\s*$", incoming.subject or "")
    if found:
        named = found.group(1).strip().lower()
        return next((n for n in game.seats if named in (n, game.edition.nation_name(n).lower())), None)
    return None


def press_text(command) -> str:
    """The message of a PRESS command (the lines after it), or why it cannot be passed on."""
    text = command.text.strip()
    if not text:
        raise UsageError("the message is missing: write it on the lines after the PRESS line")
    if len(text) > cmds.MAX_PRESS:
        raise UsageError(f"the message has {len(text)} characters; at most {cmds.MAX_PRESS}")
    return text
