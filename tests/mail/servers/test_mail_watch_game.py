"""A whole classic game by mail under ``mail watch`` (issue 38's last must-show): three
players and an observer write to the referee; each mail is put into a private Dovecot's
INBOX (IMAP APPEND, as a mail server delivers it), ``mail watch`` waits on it in IMAP IDLE
and answers at the SMTP sink, from the opening to the win; then ``verify``.

On the way: a player goes away by mail (``ABSENT UNTIL``, ``absence = "wait"``: their turn
waits for them, and no mail tells the stale deadline), comes back early (``BACK``: the turn's
48 h run from the return, and every mail of that round names that deadline), a press mail
is answered with the mail program's Reply (it reaches the press's sender), and an observer
follows every report and asks ``STATUS``.

The watch's clock is its ``--now`` running on in real time; a second watch, started a day
later by ``--now``, stands for the day the player is away. The quickest classic set-up is
played: three nations to 12 points (``new --goal 12``)."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from conftest import PASSWORDS, cli_run, new_game_file
from mailkit import body, mail, server_config
from test_mail_instant import Watching

NATIONS = ["greeks", "persians", "arabs"]
ADDRESSES = {n: f"{n}@players.example" for n in NATIONS}
OBSERVER = "olga@watch.example"
ZONE = "Europe/Berlin"
START = datetime(2026, 11, 23, 10, 0, tzinfo=UTC)
SETTINGS = f'attach = ""\ndeadline = "48h"\nabsence = "wait"\nobservers = ["Olga <{OBSERVER}>"]\n'


def flat(message) -> str:
    """A mail's text with its lines joined (the mails fold long lines)."""
    return " ".join(body(message).split())


def iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


class Table:
    """The players' side: what each address got at the SMTP sink, and their mails to the
    referee, put into the watched INBOX."""

    def __init__(self, folder: Path, game: Path, smtp, imap):
        self.folder, self.game, self.smtp, self.imap = folder, game, smtp, imap
        self.count = 0
        self.sent = 0
        self.turn_began = 0
        """The sink's mails before the last turn was sent: the reports of the turn come after."""

    def data(self) -> dict:
        return json.loads(self.game.read_text())

    def got(self, address: str) -> list:
        return [m.message for m in list(self.smtp.messages) if address in m.envelope_to]

    def wait_for(self, what, since: int = 0, timeout: float = 60):
        """The first of the sink's mails from the ``since``-th on that ``what`` takes, once
        it has come."""
        end = time.monotonic() + timeout
        while True:
            for m in list(self.smtp.messages)[since:]:
                if what(m):
                    return m.message
            assert time.monotonic() < end, "the mail did not come: " + "; ".join(
                f"{m.envelope_to} {m.message['Subject']}" for m in list(self.smtp.messages)[-8:])
            time.sleep(0.01)

    def answer(self, message_id: str, to: str):
        """The referee's answer to a mail (its ``In-Reply-To``), at the sender's address."""
        return self.wait_for(lambda m: m.message["In-Reply-To"] == message_id and to in m.envelope_to, self.sent)

    def send(self, sender: str, text: str, subject: str = "orders", headers: dict | None = None) -> str:
        self.count += 1
        self.sent = len(self.smtp.messages)  # what the sink held before: the answers come after
        message_id = f"<watched-{self.count}@players.example>"
        self.imap.deliver(mail(sender, subject=subject, body=text, message_id=message_id, headers=headers))
        return message_id

    def report_for(self, nation: str, turn: int):
        """The report mail that tells ``nation`` it is their turn ``turn``."""
        return self.wait_for(lambda m: ADDRESSES[nation] in m.envelope_to and "] after " in str(m.message["Subject"])
                             and f"Next: turn {turn}," in body(m.message), self.turn_began)

    def play_one(self, extra: str = "") -> str:
        """The player on turn answers the report that told them so, quoting it, with the
        greedy bot's orders in the text syntax; returns the nation."""
        from pbem.play.bot import play_turn
        from pbem.service.language.writer import format_text_orders
        from pbem.service.service import GameService

        current = GameService(self.game).load()
        status = current.state.status
        nation = status.active
        report = self.report_for(nation, status.turn)
        orders = {**play_turn(current, "greedy"), "password": PASSWORDS[nation]}
        quoted = "\n".join("> " + line for line in body(report).splitlines()[:10])
        text = (f"Hi,\n\n{format_text_orders(orders, current.edition, current.board)}\n{extra}"
                f"On Monday the referee wrote:\n{quoted}\n-- \n{nation.title()}\nSent from my phone\n")
        message_id = self.send(ADDRESSES[nation], text, subject=f"Re: {report['Subject']}",
                               headers={"In-Reply-To": report["Message-ID"]})
        receipt = self.answer(message_id, ADDRESSES[nation])
        assert "accepted" in str(receipt["Subject"]), body(receipt)
        self.wait_applied(message_id)
        self.turn_began = self.sent
        return nation

    def wait_applied(self, message_id: str, timeout: float = 30) -> None:
        end = time.monotonic() + timeout
        while not any(e.get("mail") == message_id for e in self.data()["history"]):
            assert time.monotonic() < end, f"{message_id} not in the history"
            time.sleep(0.01)

    def to_play(self) -> str:
        return self.data()["status"]["active"]

    def won(self) -> bool:
        return self.data()["status"].get("winner") is not None


@pytest.fixture
def table(tmp_path, smtp_server, imap_server, monkeypatch):
    monkeypatch.setenv("TEST_SMTP_PASSWORD", smtp_server.password)
    monkeypatch.setenv("TEST_IMAP_PASSWORD", imap_server.password)
    players = [a for n in NATIONS for a in ("--player", f"{n}={n.title()} Player <{ADDRESSES[n]}>")]
    game = new_game_file(tmp_path, "--id", "watched", "--seed", "w10", "--goal", "12", *players, nations=NATIONS)
    cfg = server_config(tmp_path, game, smtp_server, imap_server, mail_extra=f'timezone = "{ZONE}"', extra=SETTINGS)
    opened = cli_run("mail", "run", "--config", cfg, "--now", iso(START))
    assert opened.exit_code == 0, opened.stdout + opened.stderr
    return Table(tmp_path, game, smtp_server, imap_server), cfg


@pytest.mark.slow
def test_a_whole_classic_game_by_mail_under_watch(table):
    from pbem.service.clock import told

    table, cfg = table
    first = Watching(table.folder, cfg, "--now", iso(START + timedelta(minutes=5)))
    try:
        first.wait_for("watching imaps://")
        # the observer asks STATUS: answered at their address (whose turn, the deadline)
        asked = table.send(OBSERVER, "STATUS\n", subject="how is it going?")
        status = flat(table.answer(asked, OBSERVER))
        assert "Deadline for turn 1: Wed 25 Nov 2026, 11:00 CET" in status, status
        assert "marble" not in status  # no nation's holdings for an observer
        # a few turns; then press, and its recipient replies to it with the mail program's Reply
        for _ in range(4):
            table.play_one()
        sender = table.to_play()
        reader = [n for n in NATIONS if n != sender][0]
        press = table.send(ADDRESSES[sender], f"password {PASSWORDS[sender]}\nPRESS TO {reader}\n"
                                              "Shall we leave each other alone in the east?\n")
        assert f"Sent to {reader.title()} (1 mail)" in body(table.answer(press, ADDRESSES[sender]))
        got = table.wait_for(lambda m: ADDRESSES[reader] in m.envelope_to and "press from" in str(m.message["Subject"]),
                             table.sent)
        assert "leave each other alone" in body(got)
        reply = table.send(ADDRESSES[reader], f"Agreed, for ten turns.\npassword {PASSWORDS[reader]}\n\n"
                                              f"On Monday the referee wrote:\n> " +
                                              "\n> ".join(body(got).splitlines()), subject=f"Re: {got['Subject']}",
                           headers={"In-Reply-To": got["Message-ID"], "References": got["Message-ID"]})
        assert f"Sent to {sender.title()} (1 mail)" in flat(table.answer(reply, ADDRESSES[reader]))
        passed = table.wait_for(lambda m: ADDRESSES[sender] in m.envelope_to
                                and "press from" in str(m.message["Subject"]), table.sent)
        assert "Agreed, for ten turns." in body(passed) and "referee wrote" not in body(passed)
        assert PASSWORDS[reader] not in body(passed) and ADDRESSES[reader] not in str(passed)
        # the player after next goes away until the day after tomorrow; the turn waits for them
        mover = table.play_one()
        away = next(n for n in NATIONS if n not in (mover, table.to_play()))  # three nations take turns
        until = (START + timedelta(days=2)).date()
        absent = table.send(ADDRESSES[away], f"password {PASSWORDS[away]}\nABSENT UNTIL {until.isoformat()}\n")
        noted = flat(table.answer(absent, ADDRESSES[away]))
        assert "Noted: you are away" in noted and "the game waits for you" in noted, noted
        table.play_one()
        assert table.to_play() == away
        turn = table.data()["status"]["turn"]
        waiting = flat(table.report_for(away, turn))
        assert f"Deadline for turn {turn}: none while the player is away (until {until:%a %d %b %Y})" in waiting
    finally:
        code = first.stop()
    assert code == 0, first.said()
    # the next day: the watch runs on (a new one, its clock a day later); the player is back early
    back_at = START + timedelta(days=1)
    second = Watching(table.folder, cfg, "--now", iso(back_at))
    try:
        second.wait_for("watching imaps://")
        mark = len(table.smtp.messages)
        back = table.send(ADDRESSES[away], f"password {PASSWORDS[away]}\nBACK\n")
        answer = flat(table.answer(back, ADDRESSES[away]))
        clock = json.loads(table.game.with_name("game.clock.json").read_text())["current"]
        due = datetime.fromisoformat(clock["due"].replace("Z", "+00:00"))
        assert clock["turn"] == turn and back_at <= due - timedelta(hours=48) < back_at + timedelta(minutes=1)
        line = f"Deadline for turn {turn}: {told(due, ZONE)}"
        assert "Welcome back" in answer and line in answer, answer
        time.sleep(1)
        run = [m.message for m in list(table.smtp.messages)[mark:]]
        told_to = {address for m in list(table.smtp.messages)[mark:] for address in m.envelope_to}
        assert {OBSERVER, *ADDRESSES.values()} <= told_to  # the answer; the news that they are back to all
        for message in run:
            assert line in flat(message) and "while the player is away" not in flat(message), flat(message)
        # and on to the end
        turns = 0
        while not table.won():
            table.play_one()
            turns += 1
            assert turns < 400, "no winner"
        asked = table.send(OBSERVER, "STATUS\n", subject="who won?")
        assert "won" in body(table.answer(asked, OBSERVER)).lower()
    finally:
        code = second.stop()
    assert code == 0, second.said()
    data = table.data()
    played = [e for e in data["history"] if e["kind"] == "turn"]
    assert data["status"]["winner"] in NATIONS
    assert all(e.get("mail") for e in played) and len({e["mail"] for e in played}) == len(played)
    olga = table.got(OBSERVER)
    assert sum("] after " in str(m["Subject"]) for m in olga) >= len(played) - 1
    assert not any("press from" in str(m["Subject"]) for m in olga)  # private press stays private
    result = cli_run("verify", table.game)
    assert result.exit_code == 0, result.stdout + result.stderr
