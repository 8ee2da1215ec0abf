"""The timekeeper: the game's clock kept by the mail cycle. It asks the clock what happens
next (:func:`pbem.service.clock.next_step`) and does each step that is due: starts the
turn's clock, holds the deadline for an absent player and gives the turn its time again
when they are back, has the reporter remind the player or tell of a deadline passed, or
plays the turn of a player who is away or missed the deadline (the GM's default turn or
the bot, through the game service) and has it reported."""

from __future__ import annotations

from datetime import datetime

from pbem.mail.reporter import Reporter
from pbem.mail.runs import GameRun, Journal
from pbem.service.clock import Step, iso, next_step, told


class Timekeeper:
    """Keeps the clocks of one cycle's games at ``now``."""

    def __init__(self, now: datetime, reporter: Reporter, journal: Journal):
        self.now = now
        self.reporter = reporter
        self.journal = journal

    def step(self, run: GameRun) -> Step:
        """What the game's clock does next."""
        st = run.game.state.status
        return next_step(run.clock, run.rules, st.turn, st.active, st.winner, self.now)

    def keep_time(self, run: GameRun) -> None:
        """Do every step of the clock that is due. Each turn played for a player is
        reported before the next look; at most one more turn than the game has nations is
        played in one cycle (the rest waits for the next)."""
        plays = 0
        while True:
            step = self.step(run)
            if not step.due_by(self.now):
                return
            if step.kind in ("absent", "missed"):
                self.play_for(run, step)
                plays += 1
                if plays > len(run.game.seats):
                    return
            elif step.kind == "remind":
                return self.reporter.reminder(run, step.due)
            elif step.kind == "late":
                return self.reporter.late(run, step.due or self.now, run.rules.missed)
            else:  # clear, start, hold, release: the clock alone changes; then look again
                run.clock = run.clock.after(step)
                run.save()

    def play_for(self, run: GameRun, step: Step) -> None:
        """Play the active nation's turn for its player, as the GM's default turn
        (``default``) or the game's bot (``bot``), recorded with what it was played for (the
        deadline missed, or the absence); then report it."""
        st = run.game.state.status
        nation = st.active
        if step.kind == "absent":
            assert step.until is not None
            notes, why = {"absent": step.until.isoformat()}, f"is away until {step.until.isoformat()}"
        else:
            assert step.due is not None
            notes, why = {"deadline": iso(step.due)}, f"missed the deadline {told(step.due, run.rules.zone)}"
        if step.how == "default":
            outcome = run.service.default_turn(nation, notes=notes)
        else:
            from pbem.play.search import play_turn

            mode = run.settings.bot
            outcome = run.service.bot_turn(mode, lambda g: play_turn(g, mode), notes=notes)
        run.game = outcome.after
        self.journal.log(f"{run.game_id}: turn {st.turn} of {nation}, who {why}: played a "
                         f"{'default' if step.how == 'default' else run.settings.bot + ' bot'} turn")
        if step.kind == "missed":  # the late player hears of it in a mail of their own
            self.reporter.played_for(run, run.game.history[-1])
        self.reporter.report(run)

    def remind_now(self, run: GameRun) -> None:
        """Remind the player whose turn it is, now (``antike-ref remind``)."""
        if run.game.state.status.winner is not None:
            self.journal.log(f"{run.game_id}: the game is over; nobody to remind")
            return
        current = run.clock.current
        due = current.due if run.settings.deadline is not None and current is not None else None
        self.reporter.reminder(run, due, key=iso(self.now).replace(":", ""))
