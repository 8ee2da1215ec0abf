"""The mail relay of a game without a game master: how long one ``mail run`` takes to check
a turn's block and pass it on, and what an idle run costs with a relay configured.

Three players (tests/signedkit.py: pinned keys, a finished set-up) with their addresses in
the proposal; the relay's copy started from the proposal; a configuration with one
``[[relay]]`` on a local Maildir. The set-up's blocks are mailed and relayed, then, for
each of ``--turns`` turns (40), the mover's block (the greedy bot's orders) is put into the
Maildir and ``antike-ref mail run`` runs as its own process (as cron runs it) into an
outbox; the other players accept the relay's mail from the outbox. After each turn an idle
``mail run`` (nothing new) is timed too. The table gives the median, the 95th percentile
and the largest time of each, and the relay copy's history at the end.

    .venv/bin/python bench/bench_relay.py               # 40 turns
    .venv/bin/python bench/bench_relay.py --turns 10    # quicker
"""

from __future__ import annotations

import argparse
import mailbox
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

SEATS = ["greeks", "persians", "arabs"]


def address(seat: str) -> str:
    return f"{seat}@players.example"


def mail(seat: str, text: str, n: int) -> bytes:
    msg = EmailMessage()
    msg["From"] = f"{seat.capitalize()} <{address(seat)}>"
    msg["To"] = "relay@referee.example"
    msg["Subject"] = "my turn"
    msg["Message-ID"] = f"<bench-{n}@players.example>"
    msg.set_content(f"Here it is.\n\n{text}\n-- \n{seat}")
    return msg.as_bytes()


def timed_run(config: Path, outbox: Path, now) -> float:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pbem", "mail", "run", "--config", str(config), "--outbox",
                           str(outbox), "--now", now.strftime("%Y-%m-%dT%H:%M:%SZ")], capture_output=True, text=True)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"mail run failed ({done.returncode}): {done.stdout}{done.stderr}")
    return took


def stats(name: str, values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return (f"{name:<26} {len(values):>4}  median {statistics.median(values):6.3f} s  p95 {p95:6.3f} s  "
            f"max {max(values):6.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=40)
    args = parser.parse_args()

    from pbem.service import store
    from pbem.service.signed.blocks import armor
    from pbem.service.signed.folder import Folder
    from signedkit import MINUTE, T0, Table

    root = Path(tempfile.mkdtemp(prefix="bench-relay-"))
    table = Table(root / "players", seats=SEATS, players={s: f"{s.capitalize()} <{address(s)}>" for s in SEATS})
    copy = root / "relay" / "demo.json"
    copy.parent.mkdir()
    Folder(copy).accept(table.log[0], "the proposal", T0 + MINUTE)
    box = mailbox.Maildir(root / "M", create=True)
    config = root / "mail.toml"
    config.write_text(f'[mail]\nfrom = "Relay <relay@referee.example>"\n\n[[relay]]\nfile = "{copy}"\n'
                      f'source = "{root / "M"}"\n')
    box.add(mail("greeks", "".join(table.log[1:]), 0))
    setup = timed_run(config, root / "out0", table.now + MINUTE)
    busy: list[float] = []
    idle: list[float] = []
    for n in range(1, args.turns + 1):
        if table.game().state.status.winner is not None:
            break
        mover = table.active()
        signed = table.play(send=False)
        box.add(mail(mover, armor(signed), n))
        out = root / f"out{n}"
        busy.append(timed_run(config, out, table.now + 5 * MINUTE))
        sent = sorted(out.glob("*.eml"))
        if len(sent) != 1:
            raise SystemExit(f"turn {n}: {len(sent)} mails from the relay, not 1")
        for seat in SEATS:
            if seat != mover:
                table.folders[seat].accept(sent[0].read_text(), "the relay's mail", table.now + 5 * MINUTE)
        idle.append(timed_run(config, root / f"idle{n}", table.now + 6 * MINUTE))
        table.now += timedelta(minutes=6)
    if len({f.path.read_bytes() for f in table.folders.values()} | {copy.read_bytes()}) != 1:
        raise SystemExit("the copies differ")
    print(f"set-up (6 blocks in one mail): {setup:.3f} s")
    print(stats("a turn checked, passed on", busy))
    print(stats("an idle run", idle))
    print(f"the relay's copy: {len(store.load_game(copy).history)} history entries, {copy.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
