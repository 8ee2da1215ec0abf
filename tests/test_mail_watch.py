"""``mail watch``: each mail answered as it arrives, every deadline kept by a timer that asks
the clock (the watermarks' next moment, :func:`pbem.service.clock.next_step`), a dropped
connection opened again after a back-off, and a clean stop on SIGTERM after the round in
hand. Against a real IMAP server (IDLE, a restart): tests/mail/test_mail_instant.py."""

from __future__ import annotations

import json
import mailbox
import os
import signal
import subprocess
import sys
import threading
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from mailkit import ADDRESSES, START, config, game_with_players, mail, maildir, sent

from conftest import cli_run

QUICK = 'attach = ""'


@pytest.fixture
def table(tmp_path):
    game = game_with_players(tmp_path)
    box = maildir(tmp_path / "M")
    cfg = config(tmp_path, game, defaults=QUICK)
    cfg.write_text(cfg.read_text().replace("[mail]\n", f'[mail]\nsource = "{box}"\n'))
    assert cli_run("mail", "run", "--config", cfg, "--outbox", tmp_path / "opening", "--now", START).exit_code == 0
    return tmp_path, game, cfg, box


def active(game: Path) -> str:
    return json.loads(game.read_text())["status"]["active"]


def order_mail(game: Path, message_id: str) -> bytes:
    nation = active(game)
    return mail(ADDRESSES[nation], body=f"game demo\nnation {nation}\npassword pw-{nation}\nturn 1\nrondel gold\n",
                message_id=message_id)


def deliver_later(box: Path, raw: bytes, after: float = 0.3) -> threading.Timer:
    def put():
        folder = mailbox.Maildir(box, create=False)
        folder.add(raw)
        folder.close()

    timer = threading.Timer(after, put)
    timer.start()
    return timer


def test_a_mail_that_arrives_is_answered_and_the_watch_stops_after_n(table):
    folder, game, cfg, box = table
    timer = deliver_later(box, order_mail(game, "<w1@players.example>"))
    started = time.monotonic()
    result = cli_run("mail", "watch", "--config", cfg, "--outbox", folder / "out", "--now", "2026-11-23T10:05:00Z",
                     "--stop-after", "1")
    timer.join()
    assert result.exit_code == 0, result.stdout + result.stderr
    assert json.loads(game.read_text())["history"][-1]["mail"] == "<w1@players.example>"
    assert any("accepted" in str(m["Subject"]) for m in sent(folder / "out"))
    assert "stopped (done) after" in result.stdout and "1 mail(s) read" in result.stdout
    assert time.monotonic() - started < 30


def test_sigterm_in_a_round_finishes_the_round_then_stops(table, monkeypatch):
    """The signal comes while a mail is in hand: its round is finished (the mail applied,
    the answer delivered), then the watch ends, with exit code 0."""
    from pbem.mail import watch as module
    from pbem.mail.config import load_config
    from pbem.mail.transport import Transport

    folder, game, cfg, box = table
    maildir(box, order_mail(game, "<w2@players.example>"))
    settings = load_config(cfg)
    real = module.one_round
    rounds = []

    def round_with_a_signal(*args, **kwargs):
        rounds.append(1)
        watcher.request_stop("SIGTERM")  # as the signal handler does, in the middle of the round
        return real(*args, **kwargs)

    monkeypatch.setattr(module, "one_round", round_with_a_signal)
    start = datetime(2026, 11, 23, 10, 5, tzinfo=timezone.utc)
    watcher = module.Watch(settings, list(settings.games), module.Clocks(lambda: start, time.time_ns),
                           lambda: Transport(None, folder / "out", settings.sender), lambda m: None, lambda m: None)
    assert watcher.run() == 0
    assert rounds == [1] and watcher.read == 1
    assert json.loads(game.read_text())["history"][-1]["mail"] == "<w2@players.example>"
    assert any("accepted" in str(m["Subject"]) for m in sent(folder / "out"))


def test_the_timer_waits_for_the_next_moment_a_clock_needs(table):
    """The loop's wait: until the earliest ``next`` of the games' marks (what the clock's
    next_step said when the cycle ended), a minute for a game without a mark, five minutes
    at most."""
    from pbem.mail import watch as module
    from pbem.mail.config import load_config
    from pbem.mail.watermarks import mark_path

    folder, game, cfg, box = table
    cfg.write_text(cfg.read_text().replace(QUICK, QUICK + '\ndeadline = "48h"\nremind = "12h"'))
    settings = load_config(cfg)
    assert cli_run("mail", "run", "--config", cfg, "--outbox", folder / "o", "--now", START).exit_code == 0
    mark = json.loads(mark_path(game).read_text())
    assert mark["next"] == "2026-11-24T22:00:00Z"  # the reminder, 12 h before the deadline
    due = datetime(2026, 11, 24, 22, tzinfo=timezone.utc)
    now = [due - timedelta(seconds=90)]
    watcher = module.Watch(settings, list(settings.games), module.Clocks(lambda: now[0], time.time_ns),
                           lambda: None, lambda m: None, lambda m: None)
    assert 90 <= watcher._delay() <= 90.1
    now[0] = due - timedelta(hours=5)
    assert watcher._delay() == pytest.approx(module.RESCAN, abs=0.1)
    mark_path(game).unlink()
    assert watcher._delay() == pytest.approx(module.RETRY, abs=0.1)
    now[0] = due + timedelta(seconds=5)  # past a moment a round could not clear: no spinning
    assert watcher._delay() >= 1.0


def test_a_dropped_imap_connection_is_opened_again_after_a_growing_wait(monkeypatch):
    """The listener's back-off: 1, 2, 4 ... seconds, at most a minute; each failure said
    once; a connection that opens again starts from one second."""
    from pbem.mail import listen
    from pbem.mail.config import Imap, Secret

    waits = []

    class Halt:
        def is_set(self):
            return len(waits) >= 9

        def wait(self, seconds):
            waits.append(seconds)
            return self.is_set()

    said = []
    listener = listen.ImapListener("imaps://referee@127.0.0.1:9/INBOX", Imap(Secret(env="NOPE")), listen.Events(),
                                   Halt(), said.append, said.append)
    calls = []

    def connect():
        calls.append(1)
        if len(calls) == 8:  # the server is back once, then gone again
            return Connected()
        raise ConnectionRefusedError(111, "Connection refused")

    class Connected:
        def has_capability(self, name):
            return True

        def idle(self):
            raise ConnectionResetError(104, "Connection reset by peer")

        def shutdown(self):
            pass

    monkeypatch.setattr(listener, "_connect", connect)
    listener.run()
    assert waits == [1, 2, 4, 8, 16, 32, 60, 1, 2]
    assert sum("Connection refused" in s and "watching it again" in s for s in said) == 8
    assert any(s.startswith("watching imaps://referee@127.0.0.1:9/INBOX") for s in said)


def test_a_server_saying_bye_is_a_dropped_connection():
    from pbem.mail import listen
    from pbem.mail.config import Imap

    events = listen.Events()
    listener = listen.ImapListener("imaps://referee@127.0.0.1:9/INBOX", Imap(), events, threading.Event(),
                                   print, print)
    listener._tell([(3, b"EXISTS")])
    assert events.drain() == [("mail", "imaps://referee@127.0.0.1:9/INBOX")]
    with pytest.raises(listen.Dropped, match="Server shutting down"):
        listener._tell([(b"BYE", b"Server shutting down.")])


@pytest.mark.slow
def test_the_timer_plays_a_missed_deadline_on_time(table):
    """No mail comes: the round at the deadline plays the default turn (``missed =
    "default"``), woken by the timer one second after the watch began."""
    folder, game, cfg, box = table
    cfg.write_text(cfg.read_text().replace(QUICK, QUICK + '\ndeadline = "48h"\nmissed = "default"'))
    assert cli_run("mail", "run", "--config", cfg, "--outbox", folder / "o", "--now", START).exit_code == 0
    started = time.monotonic()
    result = cli_run("mail", "watch", "--config", cfg, "--outbox", folder / "out",
                     "--now", "2026-11-25T09:59:59Z", "--stop-at", "2026-11-25T10:00:01Z")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert json.loads(game.read_text())["history"][-1]["kind"] == "default-turn"
    assert time.monotonic() - started < 20


@pytest.mark.slow
def test_sigterm_stops_a_watching_process_cleanly(table):
    folder, game, cfg, box = table
    proc = subprocess.Popen([sys.executable, "-m", "pbem", "mail", "watch", "--config", str(cfg), "--outbox",
                             str(folder / "out")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        maildir(box, order_mail(game, "<w3@players.example>"))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not list((folder / "out").glob("*receipt*")):
            time.sleep(0.1)
        assert list((folder / "out").glob("*receipt*")), "the mail was not answered"
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, out + err
    assert "stopped (SIGTERM)" in out
