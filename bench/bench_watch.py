"""``mail watch``: how long a player waits for the answer to a mail.

Starts the SMTP sink and a private Dovecot of the mail tests (tests/mail/mailservers.py),
a 4-nation game whose opening mails went out, and ``antike-ref mail watch`` on it as its
own process (its IMAP mailbox: Dovecot's INBOX; its mail goes out to the sink). Then, one
at a time, each of ``--mails`` mails (50) is put into the INBOX (IMAP APPEND, as a mail
server delivers it) and the time is taken until its answer reaches the sink: every other
mail holds the next turn's orders (the greedy bot's, from the nation's own address; the
answer is the receipt, and the turn's reports follow it), the others a command (STATUS,
HELP, OPTIONS, HISTORY; the answer is that mail). Before the next mail, the bench waits
until every mail of the last one has arrived (the reports of a turn, with the board
picture by default: ``--attach ""`` leaves it out).

The table gives the median, the 95th percentile and the largest wait, for all mails and
for each kind; it ends with exit code 1 if the 95th percentile is over ``--bound`` seconds
(2). On a machine shared with other work the waits are longer: run it on an idle one.

``--receive`` times ``mail receive`` instead: each mail is handed to Dovecot by LMTP, as a
mail server hands it on, and Dovecot's Sieve script pipes it to ``antike-ref mail receive``
(the recipe of docs/mail.md, "Answers in seconds"); the wait is from the LMTP handover to
the answer at the sink, a new process started for every mail.

    .venv/bin/python bench/bench_watch.py                 # 50 mails
    .venv/bin/python bench/bench_watch.py --mails 10      # quicker
    .venv/bin/python bench/bench_watch.py --receive       # mail receive through a Sieve pipe
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from email.message import EmailMessage
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "mail"))
os.environ.setdefault("ANTIKE_REF_KDF_ITERATIONS", "1000")

NATIONS = ["persians", "phoenicians", "arabs", "greeks"]
COMMANDS = ["STATUS", "HELP", "OPTIONS", "HISTORY 3"]


def address(nation: str) -> str:
    return f"{nation}@players.example"


def setup(folder: Path, smtp, imap, attach: str) -> tuple[Path, Path]:
    """The game (passwords ``pw-NATION``) and its configuration; the opening mails sent."""
    from typer.testing import CliRunner

    from pbem.cli import app

    game = folder / "game.json"
    players = [a for n in NATIONS for a in ("--player", f"{n}={n.capitalize()} <{address(n)}>")]
    passwords = [a for n in NATIONS for a in ("--password", f"{n}=pw-{n}")]
    runner = CliRunner()
    made = runner.invoke(app, ["new", str(game), "--id", "bench", "--nations", ",".join(NATIONS), "--seed", "bench",
                               *passwords, *players])
    assert made.exit_code == 0, made.stderr
    cfg = folder / "mail.toml"
    cfg.write_text(f'[mail]\nfrom = "Referee <referee@referee.example>"\ngm = "gm@referee.example"\n\n'
                   f'[smtp]\nhost = "{smtp.host}"\nport = {smtp.port}\nsecurity = "{smtp.security}"\n'
                   f'user = "{smtp.user}"\npassword_env = "BENCH_SMTP_PASSWORD"\nca_file = "{smtp.ca_file}"\n\n'
                   f'[imap]\nurl = "{imap.url}"\npassword_env = "BENCH_IMAP_PASSWORD"\nca_file = "{imap.ca_file}"\n\n'
                   f'[[game]]\nfile = "{game}"\nattach = "{attach}"\n', encoding="utf-8")
    os.environ["BENCH_SMTP_PASSWORD"] = smtp.password
    os.environ["BENCH_IMAP_PASSWORD"] = imap.password
    opened = runner.invoke(app, ["mail", "run", "--config", str(cfg)])
    assert opened.exit_code == 0, opened.stdout + opened.stderr
    return game, cfg


def next_mail(game: Path, k: int) -> tuple[str, bytes, int]:
    """Mail ``k``: its kind, its bytes, and how many mails answer it (the receipt and the
    turn's reports, or the one answer to the commands)."""
    from pbem.play.bot import play_turn
    from pbem.service.service import GameService

    loaded = GameService(game).load()
    nation = loaded.state.status.active
    msg = EmailMessage()
    msg["To"] = "referee@referee.example"
    msg["Date"] = "Mon, 23 Nov 2026 10:00:00 +0000"
    msg["Message-ID"] = f"<bench-{k}@players.example>"
    if k % 2 == 0:
        orders = {**play_turn(loaded, "greedy"), "password": f"pw-{nation}"}
        msg["From"] = address(nation)
        msg["Subject"] = f"orders, turn {orders['turn']}"
        msg.set_content("My orders are attached.")
        msg.add_attachment(json.dumps(orders).encode(), maintype="application", subtype="json",
                           filename="orders.json")
        return "orders", msg.as_bytes(), 1 + len(NATIONS) + 1
    other = NATIONS[k % len(NATIONS)]
    msg["From"] = address(other)
    msg["Subject"] = "a question"
    msg.set_content(f"password pw-{other}\n{COMMANDS[(k // 2) % len(COMMANDS)]}\n")
    return "command", msg.as_bytes(), 1


def wait_for(smtp, count: int, timeout: float = 120) -> None:
    end = time.monotonic() + timeout
    while len(smtp.messages) < count:
        if time.monotonic() > end:
            raise SystemExit(f"the sink got {len(smtp.messages)} mails, expected {count}")
        time.sleep(0.002)


def answered_at(smtp, message_id: str, start: float, timeout: float = 60) -> float:
    """Seconds from ``start`` until a mail answering ``message_id`` reached the sink (the
    moment the sink took it)."""
    end = start + timeout
    while True:
        found = [m.at for m in list(smtp.messages) if m.message["In-Reply-To"] == message_id]
        if found:
            return min(found) - start
        if time.monotonic() > end:
            raise SystemExit(f"no answer to {message_id} within {timeout} s")
        time.sleep(0.01)


def watching(folder: Path, cfg: Path) -> subprocess.Popen:
    """``mail watch`` in its own process, once it is waiting in IDLE."""
    out = open(folder / "watch.log", "wb")
    watch = subprocess.Popen([sys.executable, "-m", "pbem", "mail", "watch", "--config", str(cfg)],
                             stdout=out, stderr=out, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    end = time.monotonic() + 60
    while b"watching imaps://" not in (folder / "watch.log").read_bytes():
        if watch.poll() is not None or time.monotonic() > end:
            raise SystemExit((folder / "watch.log").read_text())
        time.sleep(0.05)
    time.sleep(1)  # the round after the connection opened
    return watch


def receiving(dovecot, cfg: Path, smtp):
    """Dovecot's Sieve pipe set to ``mail receive``; what hands a mail over by LMTP."""
    import shlex
    import smtplib

    command = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "pbem", "mail", "receive", "--config",
                                                    str(cfg)])
    dovecot.program.write_text(f"#!/bin/sh\nexport BENCH_SMTP_PASSWORD={shlex.quote(smtp.password)}\n"
                               f"exec {command}\n")

    def hand_over(raw: bytes) -> None:
        with smtplib.LMTP("127.0.0.1", dovecot.lmtp_port, timeout=120) as lmtp:
            lmtp.sendmail("player@players.example", ["referee"], raw)

    return hand_over


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


def row(name: str, values: list[float]) -> str:
    return (f"| {name} | {len(values)} | {statistics.median(values):.3f} | {percentile(values, 95):.3f} | "
            f"{max(values):.3f} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mails", type=int, default=50)
    parser.add_argument("--attach", default="png", help='what report mails carry (default "png"; "" for none)')
    parser.add_argument("--bound", type=float, default=2.0, help="seconds the 95th percentile may take")
    parser.add_argument("--receive", action="store_true", help="time mail receive through Dovecot's Sieve pipe")
    args = parser.parse_args()
    logging.getLogger("mail.log").setLevel(logging.ERROR)  # the SMTP sink's library talks of itself
    from mailservers import start_servers

    with tempfile.TemporaryDirectory(prefix="antike-bench-watch-") as tmp:
        folder = Path(tmp)
        (folder / "tls").mkdir()
        smtp, dovecot, imap, stop = start_servers(folder / "tls", receiving=args.receive)
        watch = None
        try:
            game, cfg = setup(folder, smtp, imap, args.attach)
            smtp.clear()
            if args.receive:
                hand_over = receiving(dovecot, cfg, smtp)
            else:
                watch = watching(folder, cfg)
                hand_over = imap.deliver
            waits: dict[str, list[float]] = {"orders": [], "command": []}
            expected = len(smtp.messages)
            for k in range(args.mails):
                kind, raw, answers = next_mail(game, k)
                start = time.monotonic()
                hand_over(raw)
                waits[kind].append(answered_at(smtp, f"<bench-{k}@players.example>", start))
                expected += answers
                wait_for(smtp, expected)
        finally:
            if watch is not None:
                watch.send_signal(signal.SIGTERM)
                watch.wait(60)
            stop()
    every = waits["orders"] + waits["command"]
    way = ("mail receive: seconds from a mail's handover to Dovecot (LMTP, Sieve pipe)" if args.receive
           else "mail watch: seconds from a mail's arrival in the IMAP INBOX")
    print(f"{way} to its answer at the SMTP sink ({args.mails} mails, attach = {args.attach!r})\n")
    print("| mails | n | median | 95th percentile | max |")
    print("| --- | --- | --- | --- | --- |")
    print(row("all", every))
    print(row("orders (the receipt)", waits["orders"]))
    print(row("commands (the answer)", waits["command"]))
    worst = percentile(every, 95)
    print(f"\n95th percentile {worst:.3f} s {'<=' if worst <= args.bound else '>'} {args.bound:g} s")
    return 0 if worst <= args.bound else 1


if __name__ == "__main__":
    raise SystemExit(main())
