"""A soak of the mail cycle under hostile mail: what a stranger who knows the referee's
address can send, through a Maildir, an mbox and a real IMAP server (Dovecot, as the mail
tests run it), with a valid order mail among them every round.

Each round puts hostile mails into the source (MIME nested thousands deep, hundreds of
parts, mails over the size limit, forged and broken senders, a line break in a Subject, a
NUL in a charset, garbage, order-like text of a hundred thousand lines, a Message-ID
reused with other content, an HTML-only mail, the mails of the fuzz corpus, mutations of a
valid mail), runs ``antike-ref mail run`` on them alone as cron would (timed, its peak
memory read from the kernel), then adds the round's valid order mail and runs again. It
checks that no run exits 1, that every valid mail is applied exactly once, that every
report of every turn is delivered, and that the game verifies at the end; it prints the
time per hostile mail and the peak memory of a run against the bounds it states.

    .venv/bin/python bench/soak_mail.py [--rounds 8] [--sources maildir,mbox,imap] [--seed 31]
"""

from __future__ import annotations

import argparse
import json
import mailbox
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from email.message import EmailMessage
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXE = str(Path(sys.executable).with_name("antike-ref"))
NATIONS = ["persians", "phoenicians", "arabs", "greeks"]
ADDRESS = {n: f"{n}@players.example" for n in NATIONS}
GM = "gm@referee.example"
MEMORY_BOUND_MB = 150
"""No run of the cycle may need more (the largest hostile mail is 12 MB)."""
TIME_BOUND_S = 0.5
"""Per hostile mail, the time of a run divided by the hostile mails it read."""


def mail_bytes(sender: str, subject: str, body: str, mid: str) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"], msg["Message-ID"] = sender, "referee@referee.example", subject, mid
    msg.set_content(body)
    return msg.as_bytes()


def hostile(rng: random.Random, round_no: int, active: str, earlier: list[str]) -> list[tuple[str, bytes]]:
    """The round's hostile mails, each with the name of its kind."""
    player = ADDRESS[active]
    tag = f"{round_no}-{rng.randrange(10 ** 9)}"
    depth = rng.randint(500, 3000)
    nested = (f"From: {player}\r\nSubject: deep\r\nMessage-ID: <deep-{tag}@x>\r\nMIME-Version: 1.0\r\n".encode()
              + b"".join(f'Content-Type: multipart/mixed; boundary="b{k}"\r\n\r\n--b{k}\r\n'.encode()
                         for k in range(depth))
              + b"Content-Type: text/plain\r\n\r\ngame demo\r\nnation greeks\r\n"
              + b"".join(f"\r\n--b{k}--\r\n".encode() for k in reversed(range(depth))))
    parts = EmailMessage()
    parts["From"], parts["Subject"], parts["Message-ID"] = player, "parts", f"<parts-{tag}@x>"
    parts.set_content("game demo\nnation greeks\n")
    for k in range(rng.randint(101, 400)):
        parts.add_attachment(b"x" * rng.randint(1, 50), maintype="application", subtype="octet-stream",
                             filename=f"p{k}.json")
    size = rng.choice([int(2.1 * 2 ** 20), 5 * 2 ** 20, 12 * 2 ** 20])
    big = (f"From: {player}\r\nSubject: big\r\nMessage-ID: <big-{tag}@x>\r\n\r\ngame demo\r\nnation {active}\r\n"
           .encode() + b"rondel gold\r\n" * (size // 13))
    lines = "".join(f"temple athen{k}\n" for k in range(rng.randint(20_000, 100_000)))
    orderlike = mail_bytes(player, "orders", f"game demo\nnation {active}\nturn 1\npassword x\n{lines}",
                           f"<lines-{tag}@x>")
    out = [
        ("nested MIME", nested),
        ("many parts", parts.as_bytes()),
        ("over the size limit", big),
        ("order-like, long", orderlike),
        ("forged From", mail_bytes(f"{player} <eve@evil.example>", "orders",
                              f"game demo\nnation {active}\nturn 1\npassword pw-{active}\nrondel gold\n",
                              f"<forged-{tag}@x>")),
        ("stranger's orders", mail_bytes("eve@evil.example", "orders", f"game demo\nnation {active}\nrondel gold\n",
                                    f"<stranger-{tag}@x>")),
        ("line break in Subject", mail_bytes(player, "x", f"game demo\nnation {active}\npassword no\nrondel gold\n",
                                        f"<crlf-{tag}@x>").replace(b"Subject: x",
                                                                    b"Subject: =?utf-8?q?a=0D=0ABcc:_e@e.example?=")),
        ("NUL in charset", (f"From: {player}\r\nMessage-ID: <nul-{tag}@x>\r\nContent-Type: text/plain; "
                            "charset=\"utf\x00-8\"\r\n\r\ngame demo\r\nnation x\r\n").encode()),
        ("garbage", bytes(rng.randrange(256) for _ in range(rng.randint(10, 5000)))),
        ("HTML only", mail_bytes(player, "orders", "x", f"<html-{tag}@x>").replace(
            b"Content-Type: text/plain", b"Content-Type: text/html")),
    ]
    if earlier:
        out.append(("Message-ID reused", mail_bytes(player, "again", f"game demo\nnation {active}\nrondel iron\n",
                                               rng.choice(earlier))))
    # mutations of an order mail that is right in all but its password: none may ever be applied
    valid = mail_bytes(player, "orders", f"game demo\nnation {active}\nturn 1\npassword not-{active}\nrondel gold\n",
                  f"<mutant-{tag}@x>")
    for _ in range(3):
        data = bytearray(valid)
        for _ in range(rng.randint(1, 20)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        out.append(("mutated", bytes(data)))
    for corpus in sorted((ROOT / "tests" / "fuzz_corpus").glob("mail-*.eml")):
        out.append((f"corpus {corpus.stem}",
                    corpus.read_bytes().replace(b"Message-ID: <", f"Message-ID: <{tag}".encode(), 1)))
    return out


def subject(path: Path) -> str:
    from email.parser import BytesHeaderParser
    from email.policy import default

    return str(BytesHeaderParser(policy=default).parsebytes(path.read_bytes())["Subject"] or "")


class Box:
    """Where the mails go: a Maildir, an mbox or the IMAP server."""

    def __init__(self, kind: str, folder: Path, imap=None):
        self.kind = kind
        self.imap = imap
        if kind == "maildir":
            self.spec = str(folder / "Maildir")
            mailbox.Maildir(self.spec, create=True).close()
        elif kind == "mbox":
            self.spec = str(folder / "box.mbox")
            mailbox.mbox(self.spec, create=True).close()
        else:
            self.spec = imap.url

    def add(self, raw: bytes) -> None:
        if self.kind == "imap":
            self.imap.deliver(raw)
            return
        box = mailbox.Maildir(self.spec, create=False) if self.kind == "maildir" else mailbox.mbox(self.spec)
        try:
            box.add(raw)
            box.flush()
        finally:
            box.close()


def cycle(cfg: Path, box: Box, outbox: Path, now: str, env: dict) -> tuple[int, float, float, str]:
    """One ``mail run`` as cron runs it: exit code, seconds, peak memory (MB), stderr."""
    args = [EXE, "mail", "run", "--config", str(cfg), "--outbox", str(outbox), "--now", now]
    if box.kind != "imap":
        args += ["--source", box.spec]
    # started by a small Python of its own, whose children's peak is the run's alone (the
    # soak itself holds megabytes of mail, which a child forked from it would count)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", PEAK, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          env=env)
    seconds = time.perf_counter() - start
    err = done.stderr.decode("utf-8", "replace")
    *rest, last = err.rstrip("\n").split("\n")
    return done.returncode, seconds, int(last.removeprefix("peak-kb ")) / 1024, "\n".join(rest)


PEAK = """
import resource, subprocess, sys
code = subprocess.run(sys.argv[1:]).returncode
print(f"peak-kb {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}", file=sys.stderr)
sys.exit(code)
"""


def soak(kind: str, rounds: int, seed: int, imap=None) -> dict:
    rng = random.Random(f"{seed}:{kind}")
    folder = Path(tempfile.mkdtemp(prefix=f"soak-mail-{kind}-"))
    env = {**os.environ, "ANTIKE_REF_KDF_ITERATIONS": "1000"}
    try:
        game = folder / "game.json"
        players = [a for n in NATIONS for a in ("--player", f"{n}={n.capitalize()} <{ADDRESS[n]}>",
                                                "--password", f"{n}=pw-{n}")]
        subprocess.run([EXE, "new", str(game), "--id", "demo", "--nations", ",".join(NATIONS), *players],
                       check=True, capture_output=True, env=env)
        box = Box(kind, folder, imap)
        text = f'[mail]\nfrom = "Referee <referee@referee.example>"\ngm = "{GM}"\n'
        if kind == "imap":
            env["SOAK_IMAP_PASSWORD"] = imap.password
            text += (f'\n[imap]\nurl = "{imap.url}"\npassword_env = "SOAK_IMAP_PASSWORD"\n'
                     f'ca_file = "{imap.ca_file}"\n')
        text += f'\n[[game]]\nfile = "{game}"\nattach = ""\n'
        cfg = folder / "mail.toml"
        cfg.write_text(text, encoding="utf-8")
        outbox = folder / "out"
        figures = {"source": kind, "rounds": rounds, "hostile": 0, "applied": 0, "reports": 0, "exit 1": 0,
                   "exit codes": set(), "per mail": [], "peak": 0.0, "kinds": set()}
        code, _, peak, err = cycle(cfg, box, outbox, "2026-11-23T10:00:00Z", env)
        figures["exit codes"].add(code)
        earlier: list[str] = []
        minute = 0
        for r in range(rounds):
            state = json.loads(game.read_text())
            active, turn = state["status"]["active"], state["status"]["turn"]
            mails = hostile(rng, r, active, earlier)
            for name, raw in mails:
                box.add(raw)
                figures["kinds"].add(name)
            minute += 5
            code, seconds, peak, err = cycle(cfg, box, outbox,
                                             f"2026-11-23T{10 + minute // 60:02d}:{minute % 60:02d}:00Z", env)
            figures["exit codes"].add(code)
            figures["exit 1"] += code == 1
            if code == 1:
                print(f"  {kind} round {r}: exit 1\n{err}", file=sys.stderr)
            figures["hostile"] += len(mails)
            figures["per mail"].append(seconds / len(mails))
            figures["peak"] = max(figures["peak"], peak)
            mid = f"<valid-{r}@players.example>"
            box.add(mail_bytes(ADDRESS[active], "orders", f"Hi GM,\n\ngame demo\nnation {active}\nturn {turn}\n"
                                                     f"password pw-{active}\n"
                                                     f"rondel {rng.choice(['gold', 'iron', 'marble'])}\n"
                                                     "\nThanks\n", mid))
            earlier.append(mid)
            minute += 5
            before = set(outbox.glob("*.eml")) if outbox.is_dir() else set()
            code, _, peak, err = cycle(cfg, box, outbox, f"2026-11-23T{10 + minute // 60:02d}:{minute % 60:02d}:00Z",
                                       env)
            figures["exit codes"].add(code)
            figures["exit 1"] += code == 1
            figures["peak"] = max(figures["peak"], peak)
            history = json.loads(game.read_text())["history"]
            if sum(e.get("mail") == mid for e in history) == 1:
                figures["applied"] += 1
            else:
                print(f"  {kind} round {r}: the valid mail {mid} was applied "
                      f"{sum(e.get('mail') == mid for e in history)} times\n{err}", file=sys.stderr)
            new = sorted(set(outbox.glob("*.eml")) - before)
            reports = [p for p in new if f"after turn {turn}:" in subject(p)]
            figures["reports"] += len(reports) == 5
            if len(reports) != 5:
                print(f"  {kind} round {r}: {len(reports)} reports of turn {turn} delivered: "
                      f"{[p.name for p in new]}", file=sys.stderr)
        figures["verify"] = subprocess.run([EXE, "verify", str(game)], capture_output=True, env=env).returncode == 0
        return figures
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def start_imap():
    """The Dovecot server the mail tests use, started by hand (or ``None`` if missing)."""
    sys.path.insert(0, str(ROOT / "tests" / "mail" / "servers"))
    import mailservers

    binary = mailservers._find_dovecot()
    if binary is None:
        return None, None
    tls = mailservers._make_certs(Path(tempfile.mkdtemp(prefix="soak-tls-")))
    dovecot = mailservers._Dovecot(binary, tls)
    return dovecot, dovecot.start()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--sources", default="maildir,mbox,imap")
    parser.add_argument("--seed", type=int, default=31)
    args = parser.parse_args()
    rows = []
    dovecot = None
    try:
        for kind in args.sources.split(","):
            imap = None
            if kind == "imap":
                dovecot, imap = start_imap()
                if imap is None:
                    print("imap: Dovecot is not installed (make system-packages); skipped")
                    continue
            started = time.perf_counter()
            row = soak(kind, args.rounds, args.seed, imap)
            row["seconds"] = time.perf_counter() - started
            rows.append(row)
    finally:
        if dovecot is not None:
            dovecot.stop()
    print(f"\nmail run under hostile mail: {args.rounds} rounds per source, seed {args.seed}; bounds: peak memory "
          f"<= {MEMORY_BOUND_MB} MB a run, <= {TIME_BOUND_S:.1f} s per hostile mail")
    print("| source | hostile mails | kinds | valid mails applied once | turns with all 5 reports | runs that exited 1 "
          "| exit codes | s per hostile mail (median, max) | peak memory of a run | verify | soak time |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    ok = True
    for r in rows:
        med, top = statistics.median(r["per mail"]), max(r["per mail"])
        good = (r["exit 1"] == 0 and r["applied"] == r["rounds"] and r["reports"] == r["rounds"] and r["verify"]
                and r["peak"] <= MEMORY_BOUND_MB and top <= TIME_BOUND_S)
        ok &= good
        print(f"| {r['source']} | {r['hostile']} | {len(r['kinds'])} | {r['applied']}/{r['rounds']} | "
              f"{r['reports']}/{r['rounds']} | {r['exit 1']} | {','.join(map(str, sorted(r['exit codes'])))} | "
              f"{med:.3f}, {top:.3f} | {r['peak']:.0f} MB | {'ok' if r['verify'] else 'FAILED'} | "
              f"{r['seconds']:.0f} s |")
    print("all within bounds" if ok else "OUT OF BOUNDS: see above")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
