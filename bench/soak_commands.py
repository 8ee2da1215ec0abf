"""A soak of the mail commands, press and identity changes under hostile mail, with the
floods of issue 40 at full size, beside valid mail in the same runs.

Each round puts into a Maildir what a stranger (a forged From costs nothing) and a player
with their password may send: 45,000 ``HISTORY 50`` lines (495 kB), 1,000 ``RESEND pdf
png svg`` lines, 1,000 ``ADDRESS``/``PASSWORD`` lines with the password, press with a forged
From, ``HISTORY ²``, ``RESEND txt ¹``, numbers of 5,000 digits, a mail of every command
twice, an absence renewed again and again; and the valid mail of the round: the active
player's orders (the greedy bot's, as an order file), press with the password (its first
line an order word), a ``HISTORY 3``. Then one ``antike-ref mail run`` reads them all, as
cron would, timed and its peak memory read from the kernel.

It checks that no run exits 1; that every valid order mail is applied exactly once and
every valid press passed on while no forged press is; that no mail the referee writes is
larger than an answer may be (:data:`pbem.mail.commands.MAX_ANSWER`); that no nation
changed its identity more often than it may a day; that no password is in the press log;
that every run stays within the memory bound; and that the game verifies at the end. A
player whose password a flood's ``PASSWORD`` changed reads the new one from the answer,
as a player would.

    .venv/bin/python bench/soak_commands.py [--rounds 50] [--seed 40]
"""

from __future__ import annotations

import argparse
import email
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from email.policy import default as default_policy
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from soak_mail import EXE, MEMORY_BOUND_MB, Box, cycle, mail_bytes  # noqa: E402

NATIONS = ["persians", "phoenicians", "arabs", "greeks"]
ADDRESS = {n: f"{n}@players.example" for n in NATIONS}
GM = "gm@referee.example"
OBSERVER = "olga@watch.example"


def floods(rng: random.Random, r: int, active: str, other: str, changer: str,
           secret: dict[str, str]) -> list[tuple[str, bytes]]:
    """The round's hostile mails, each with the name of its kind: a stranger's as the active
    player, an absence renewed by ``other``, identity floods by ``changer`` with their password."""
    tag = f"{r}-{rng.randrange(10 ** 9)}"
    forged = f"{active.capitalize()} Player <{ADDRESS[active]}>"
    digits = "7" * 5000
    return [
        ("45,000 HISTORY 50 lines", mail_bytes(forged, "history", "HISTORY 50\n" * 45_000, f"<hist-{tag}@x>")),
        ("1,000 RESEND pdf png svg lines",
         mail_bytes(forged, "resend", "RESEND pdf png svg\n" * 1_000, f"<res-{tag}@x>")),
        ("1,000 ADDRESS lines with the password", mail_bytes(
            ADDRESS[changer], "move", f"password {secret[changer]}\n"
            + "".join(f"ADDRESS victim{k}-{tag}@elsewhere.example\n" for k in range(1_000)), f"<addr-{tag}@x>")),
        ("1,000 PASSWORD lines with the password", mail_bytes(
            ADDRESS[changer], "pw", f"password {secret[changer]}\n" + "PASSWORD\n" * 1_000, f"<pw-{tag}@x>")),
        ("forged-From PRESS", mail_bytes(forged, "psst", f"PRESS TO all\nThe {active} surrender (forged {tag}).\n",
                                    f"<press-{tag}@x>")),
        ("HISTORY ²", mail_bytes(forged, "h", "HISTORY ²\n", f"<sup-{tag}@x>")),
        ("RESEND txt ¹", mail_bytes(forged, "r", "RESEND txt ¹\n", f"<sup1-{tag}@x>")),
        ("5,000-digit numbers", mail_bytes(forged, "n", f"HISTORY {digits}\nRESEND txt {digits}\n", f"<num-{tag}@x>")),
        ("every command twice", mail_bytes(forged, "all", "HELP\nSTATUS\nOPTIONS\nHISTORY 2\nRESEND txt\nBACK\n" * 2,
                                      f"<twice-{tag}@x>")),
        ("an absence renewed", mail_bytes(ADDRESS[other], "away", f"password {secret[other]}\nABSENT UNTIL "
                                                             f"2026-12-{10 + r % 20:02d}\n", f"<away-{tag}@x>")),
    ]


def valid(game: Path, r: int, active: str, other: str, secret: dict[str, str], env: dict) -> list[tuple[str, bytes]]:
    """The round's valid mails: orders, signed press, a HISTORY; the orders' Message-ID first."""
    orders = json.loads(subprocess.run([EXE, "bot", str(game)], check=True, capture_output=True, env=env).stdout)
    orders["password"] = secret[active]
    msg = email.message.EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = ADDRESS[active], "referee@referee.example", "orders"
    msg["Message-ID"] = f"<valid-{r}@players.example>"
    msg.set_content("Hi GM, my orders.\n")
    msg.add_attachment(json.dumps(orders).encode(), maintype="application", subtype="json", filename="orders.json")
    press = mail_bytes(ADDRESS[other], "press", f"password {secret[other]}\nPRESS TO all\nMove your legions home, "
                                           f"round {r}.\n", f"<signed-{r}@players.example>")
    return [("orders", msg.as_bytes()), ("signed press", press),
            ("HISTORY 3", mail_bytes(ADDRESS[active], "h", "HISTORY 3\n", f"<h3-{r}@players.example>"))]


def new_passwords(files: list[Path], secret: dict[str, str]) -> None:
    """A player reads the new password an answer to PASSWORD gave them."""
    for path in files:
        message = email.message_from_bytes(path.read_bytes(), policy=default_policy)
        part = message.get_body(("plain",))
        text = part.get_content() if part is not None else ""
        for nation in NATIONS:
            found = re.search(rf"Your new password for the {nation.capitalize()}: (\S+)", text)
            if found and ADDRESS[nation] in str(message["To"]):
                secret[nation] = found.group(1)


def soak(rounds: int, seed: int) -> dict:
    from pbem.mail.commands import IDENTITY_PER_DAY, MAX_ANSWER

    rng = random.Random(seed)
    folder = Path(tempfile.mkdtemp(prefix="soak-commands-"))
    env = {**os.environ, "ANTIKE_REF_KDF_ITERATIONS": "1000"}
    secret = {n: f"pw-{n}" for n in NATIONS}
    try:
        game = folder / "game.json"
        players = [a for n in NATIONS for a in ("--player", f"{n}={n.capitalize()} <{ADDRESS[n]}>",
                                                "--password", f"{n}={secret[n]}")]
        subprocess.run([EXE, "new", str(game), "--id", "demo", "--nations", ",".join(NATIONS), *players],
                       check=True, capture_output=True, env=env)
        box = Box("maildir", folder)
        cfg = folder / "mail.toml"
        cfg.write_text(f'[mail]\nfrom = "Referee <referee@referee.example>"\ngm = "{GM}"\n'
                       f'\n[[game]]\nfile = "{game}"\nattach = ""\nobservers = ["Olga <{OBSERVER}>"]\n',
                       encoding="utf-8")
        outbox = folder / "out"
        figures = {"rounds": rounds, "runs": 0, "mails": 0, "hostile": 0, "valid": 0, "applied": 0, "exit 1": 0,
                   "exit codes": set(), "peak": 0.0, "longest": 0.0, "biggest": 0, "biggest answer": 0,
                   "over the cap": 0, "press passed": 0, "forged press passed": 0, "kinds": set()}
        code, _, _, err = cycle(cfg, box, outbox, "2026-11-23T10:00:00Z", env)  # the opening reports
        figures["exit codes"].add(code)
        minute = 0
        for r in range(rounds):
            status = json.loads(game.read_text())["status"]
            active = status["active"]
            other, changer = rng.sample([n for n in NATIONS if n != active], 2)
            mails = floods(rng, r, active, other, changer, secret)
            good = valid(game, r, active, other, secret, env)
            order = mails + good
            rng.shuffle(order)
            for kind, raw in order:
                box.add(raw)
                figures["kinds"].add(kind)
            figures["hostile"] += len(mails)
            figures["valid"] += len(good)
            figures["mails"] += len(order)
            minute += 10
            now = (datetime(2026, 11, 23, 10) + timedelta(minutes=minute)).strftime("%Y-%m-%dT%H:%M:%SZ")
            before = set(outbox.glob("*.eml")) if outbox.is_dir() else set()
            code, seconds, peak, err = cycle(cfg, box, outbox, now, env)
            figures["runs"] += 1
            figures["exit codes"].add(code)
            figures["exit 1"] += code == 1
            if code == 1:
                print(f"  round {r}: exit 1\n{err}", file=sys.stderr)
            figures["peak"] = max(figures["peak"], peak)
            figures["longest"] = max(figures["longest"], seconds)
            new = sorted(set(outbox.glob("*.eml")) - before)
            for path in new:
                size = path.stat().st_size
                figures["biggest"] = max(figures["biggest"], size)
                if "-commands-" in path.name:
                    figures["biggest answer"] = max(figures["biggest answer"], size)
                figures["over the cap"] += size > MAX_ANSWER
            texts = [p.read_bytes() for p in new if "-press-" in p.name]
            figures["press passed"] += sum(f"round {r}.".encode() in t for t in texts) == 4  # 3 players and Olga
            figures["forged press passed"] += sum(b"(forged" in t for t in texts)
            history = json.loads(game.read_text())["history"]
            applied = sum(e.get("mail") == f"<valid-{r}@players.example>" for e in history)
            figures["applied"] += applied == 1
            if applied != 1:
                print(f"  round {r}: the valid orders were applied {applied} times\n{err}", file=sys.stderr)
            new_passwords(new, secret)
        history = json.loads(game.read_text())["history"]
        changes: dict[str, list[str]] = {}
        for entry in history:
            for nation in (entry.get("identities") or []) if entry.get("kind") == "gm-edit" else []:
                changes.setdefault(nation, []).append(entry.get("mail") or "")
        figures["identity changes"] = {n: len(v) for n, v in sorted(changes.items())}
        figures["identity ok"] = all(len(v) <= IDENTITY_PER_DAY for v in changes.values())  # the soak is one day
        log = (folder / "game.press.jsonl").read_text() if (folder / "game.press.jsonl").exists() else ""
        figures["password in press log"] = any(s in log for s in secret.values()) or "pw-" in log
        figures["verify"] = subprocess.run([EXE, "verify", str(game)], capture_output=True, env=env).returncode == 0
        return figures
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--seed", type=int, default=40)
    args = parser.parse_args()
    from pbem.mail.commands import MAX_ANSWER

    started = time.perf_counter()
    f = soak(args.rounds, args.seed)
    took = time.perf_counter() - started
    ok = (f["exit 1"] == 0 and f["applied"] == f["rounds"] and f["press passed"] == f["rounds"]
          and f["forged press passed"] == 0 and f["over the cap"] == 0 and f["peak"] <= MEMORY_BOUND_MB
          and f["identity ok"] and not f["password in press log"] and f["verify"])
    print(f"\nmail commands under floods: {f['rounds']} rounds, seed {args.seed}, one mail run a round; bounds: peak "
          f"memory <= {MEMORY_BOUND_MB} MB a run, no mail over {MAX_ANSWER:,} bytes")
    print(f"- runs: {f['runs']} (+1 opening), mails: {f['mails']} ({f['hostile']} hostile, {f['valid']} valid), "
          f"{len(f['kinds'])} kinds")
    print(f"- runs that exited 1: {f['exit 1']}; exit codes seen: {', '.join(map(str, sorted(f['exit codes'])))}")
    print(f"- valid orders applied exactly once: {f['applied']}/{f['rounds']}; signed press passed on: "
          f"{f['press passed']}/{f['rounds']}; forged press passed on: {f['forged press passed']}")
    print(f"- peak memory of a run: {f['peak']:.0f} MB; longest run: {f['longest']:.1f} s")
    print(f"- biggest mail written: {f['biggest']:,} bytes; biggest answer to commands: {f['biggest answer']:,} bytes; "
          f"mails over the cap: {f['over the cap']}")
    print(f"- identity changes by nation: {f['identity changes']} (at most a day: ok={f['identity ok']}); "
          f"a password in the press log: {f['password in press log']}")
    print(f"- verify: {'ok' if f['verify'] else 'FAILED'}; soak time {took:.0f} s")
    print("all within bounds" if ok else "OUT OF BOUNDS: see above")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
