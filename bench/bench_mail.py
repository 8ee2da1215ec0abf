"""The mail cycle: what cron pays when nothing happened, what one order mail costs, and how
large the mails of a turn are.

Builds 100 4-nation games (120 turns of a bot game each) that share one Maildir holding
300 old, already-handled mails, runs a first cycle over them (ledgers, clocks), and then
times, as separate processes like cron runs them, each against a floor timed side by
side in the same run (floor, command, floor, command, ...; the table gives the median of
each and the median of the per-pair ratios with their quartiles, as bench/bench_speed.py):

- an idle ``mail run`` over the 100 games and over the first 10 (no new mail, no deadline
  due) against ``antike-ref --help``: at most 2x;
- ``mail run`` over the 10 games applying one order mail in the body (text syntax, no
  attachments: ``attach = ""``), answered, with the reports of the turn for every player,
  against the idle run over the same 10 games: at most 1.5x;
- the size of each mail a turn sends (the receipt, the report to the player on turn, to
  another player, to the GM) with ``attach = ""``, ``"png"`` (the default) and
  ``"pdf,png"``: a default report mail at most 150 KB.

Between two timed runs the Maildir's folders are dated back a minute and one untimed run
settles the games, as a cron run five minutes after a mail would find them (a mail that
came less than two seconds before a run makes the next run a full one: docs/mail.md).

The commands run with Python's bytecode cache on (in the bench's own folder, through
``PYTHONPYCACHEPREFIX``), as an installed antike-ref runs, even where the environment
turns it off (``PYTHONDONTWRITEBYTECODE``): compiling every module on every run would be
most of what is measured.

    .venv/bin/python bench/bench_mail.py              # 7 pairs
    .venv/bin/python bench/bench_mail.py --pairs 3    # quicker
    .venv/bin/python bench/bench_mail.py --profile    # also: where an applying run spends its time
"""

from __future__ import annotations

import argparse
import mailbox
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default as default_policy
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("ANTIKE_REF_KDF_ITERATIONS", "1000")

EXE = str(Path(sys.executable).with_name("antike-ref"))
ENV = dict(os.environ)
"""The commands' environment: :func:`main` turns the bytecode cache on."""
NATIONS = ["persians", "phoenicians", "arabs", "greeks"]
GAMES = 100
FEW = 10
OLD_MAILS = 300
TURNS = 120
GM = "gm@example.org"


def build_game(k: int) -> tuple[int, str]:
    """Game ``g{k}``: 120 bot turns, each nation's address registered; its file's text."""
    from pbem.play.selfplay import bot_turn, start_game
    from pbem.service.game import NationMeta
    from pbem.service.store import game_text

    game, plain = start_game(f"g{k}", NATIONS, f"bench-{k}")
    game.meta = {n: NationMeta(n, f"{n}@g{k}.example", m.colour, m.password) for n, m in game.meta.items()}
    for _ in range(TURNS):
        game, _ = bot_turn(game, plain)
    return k, game_text(game)


def build(folder: Path) -> tuple[list[Path], Path]:
    files = [folder / f"g{k}.json" for k in range(GAMES)]
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for k, text in pool.map(build_game, range(GAMES)):
            files[k].write_text(text, encoding="utf-8")
    box = mailbox.Maildir(folder / "Maildir", create=True)
    for n in range(OLD_MAILS):
        msg = EmailMessage()
        msg["From"] = "someone@example.org"
        msg["Message-ID"] = f"<old-{n}@example>"
        msg.set_content("chat, not orders")
        box.add(msg.as_bytes())
    box.close()
    return files, folder / "Maildir"


def config(folder: Path, files: list[Path], attach: str) -> Path:
    text = f'[mail]\nfrom = "Referee <referee@example.org>"\ngm = "{GM}"\n\n[defaults]\ndeadline = "48h"\n'
    text += f'attach = "{attach}"\n'
    text += "".join(f'\n[[game]]\nfile = "{f}"\n' for f in files)
    path = folder / f"mail-{len(files)}-{attach.replace(',', '-') or 'none'}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def order_mail(game_file: Path, n: int) -> bytes:
    """An order mail for the active nation of ``game_file``: the greedy bot's turn in the
    text syntax, in the body."""
    from pbem.play.bot import play_turn
    from pbem.service.language.writer import format_text_orders
    from pbem.service.service import GameService

    game = GameService(game_file).load()
    nation = game.state.status.active
    orders = {**play_turn(game, "greedy"), "password": f"pw-{nation}"}
    msg = EmailMessage()
    msg["From"] = game.meta[nation].email
    msg["To"] = "referee@example.org"
    msg["Subject"] = "orders"
    msg["Message-ID"] = f"<bench-{game.game_id}-{n}@example>"
    msg.set_content(format_text_orders(orders, game.edition, game.board))
    return msg.as_bytes()


class Bench:
    def __init__(self, folder: Path, files: list[Path], box: Path):
        self.folder = folder
        self.files = files
        self.box = box
        self.outbox = folder / "out"
        self.now = datetime(2026, 11, 23, 10, tzinfo=UTC)
        self.sent = 0

    def tick(self) -> str:
        """The next run's --now: a minute later each time (no deadline comes near)."""
        self.now += timedelta(minutes=1)
        return self.now.strftime("%Y-%m-%dT%H:%M:%SZ")

    def command(self, cfg: Path, outbox: Path | None = None) -> list[str]:
        return [EXE, "mail", "run", "--config", str(cfg), "--source", str(self.box),
                "--outbox", str(outbox or self.outbox), "--now", self.tick()]

    def run(self, cfg: Path, outbox: Path | None = None) -> float:
        args = self.command(cfg, outbox)
        start = time.perf_counter()
        done = subprocess.run(args, capture_output=True, env=ENV)
        took = time.perf_counter() - start
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(args)} failed ({done.returncode}): {done.stderr.decode()[-600:]}")
        return took

    def settle(self, cfg: Path) -> None:
        """Date the Maildir's folders back a minute (as if the last mail came a while ago)
        and run once, untimed."""
        old = time.time_ns() - 60 * 10**9
        for sub in ("new", "cur", "tmp"):
            os.utime(self.box / sub, ns=(old, old))
        self.run(cfg)

    def deliver(self, cfg: Path, n: int) -> None:
        mailbox.Maildir(self.box, create=False).add(order_mail(self.files[0], n))
        self.sent += 1


def help_run() -> float:
    start = time.perf_counter()
    subprocess.run([EXE, "--help"], capture_output=True, check=True, env=ENV)
    return time.perf_counter() - start


def ratio_text(floor: list[float], command: list[float]) -> str:
    ratios = [c / f for f, c in zip(floor, command)]
    low, _, high = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else (ratios[0],) * 3
    return f"{statistics.median(ratios):.2f}x ({low:.2f}-{high:.2f})"


def mail_sizes(bench: Bench, attach: str) -> dict[str, int]:
    """Apply one order mail to game g0 alone with ``attach``; the size of each mail of the
    turn: the receipt, the report to the player on turn, to another player, to the GM."""
    cfg = config(bench.folder, bench.files[:1], attach)
    outbox = bench.folder / f"sizes-{attach or 'none'}"
    bench.deliver(cfg, 90_000 + len(attach))
    bench.run(cfg, outbox)
    sizes: dict[str, int] = {}
    for path in sorted(outbox.glob("*.eml")):
        data = path.read_bytes()
        msg = message_from_bytes(data, policy=default_policy)
        subject = str(msg["Subject"])
        body = msg.get_body(("plain",))
        text = body.get_content() if body is not None else ""
        if "-receipt" in path.name:
            sizes["receipt"] = len(data)
        elif GM in str(msg["To"]):
            sizes["report to the GM"] = len(data)
        elif "It is your turn" in text:
            sizes["report to the player on turn"] = len(data)
        elif "report-" in path.name:
            sizes.setdefault("report to another player", len(data))
        else:
            sizes[subject] = len(data)
    return sizes


def profile(bench: Bench, cfg: Path) -> str:
    """One applying run under cProfile (imports included): the top of the table by
    cumulative time."""
    import io
    import pstats

    bench.settle(cfg)
    bench.deliver(cfg, 80_000)
    args = bench.command(cfg)
    stats = bench.folder / "apply.prof"
    subprocess.run([sys.executable, "-m", "cProfile", "-o", str(stats), EXE, *args[1:]], check=True,
                   capture_output=True, env=ENV)
    out = io.StringIO()
    pstats.Stats(str(stats), stream=out).sort_stats("cumulative").print_stats(45)
    return f"\nAn applying mail run ({FEW} games, attach = \"\"), cProfile, by cumulative time:\n{out.getvalue()}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=7)
    ap.add_argument("--profile", action="store_true", help="also profile one applying run")
    args = ap.parse_args()
    n = args.pairs
    rows: list[tuple[str, str, str, str, str]] = []
    folder = Path(tempfile.mkdtemp(prefix="bench-mail-"))
    ENV.pop("PYTHONDONTWRITEBYTECODE", None)
    ENV["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
    try:
        start = time.perf_counter()
        files, box = build(folder)
        bench = Bench(folder, files, box)
        every = config(folder, files, "")
        few = config(folder, files[:FEW], "")
        bench.run(every)  # first contact: ledgers, clocks
        built = time.perf_counter() - start
        bench.settle(every)

        for cfg, count in ((every, GAMES), (few, FEW)):
            bench.run(cfg), help_run()  # warm the file cache
            fl, cm = [], []
            for _ in range(n):
                fl.append(help_run())
                cm.append(bench.run(cfg))
            rows.append((f"idle mail run, {count} games, {OLD_MAILS} old mails",
                         f"{statistics.median(cm) * 1000:.0f} ms",
                         "antike-ref --help", f"{statistics.median(fl) * 1000:.0f} ms",
                         f"{ratio_text(fl, cm)} (target <= 2x)"))

        idle, apply = [], []
        for k in range(n):
            bench.settle(few)
            idle.append(bench.run(few))
            bench.deliver(few, 1000 + k)
            apply.append(bench.run(few))
        rows.append((f"mail run applying one order mail, {FEW} games, attach \"\"",
                     f"{statistics.median(apply) * 1000:.0f} ms", f"idle mail run, {FEW} games",
                     f"{statistics.median(idle) * 1000:.0f} ms", f"{ratio_text(idle, apply)} (target <= 1.5x)"))

        with_all = config(folder, files[:FEW], "pdf,png")
        times = []
        for k in range(max(2, n // 2)):
            bench.settle(with_all)
            bench.deliver(with_all, 2000 + k)
            times.append(bench.run(with_all))
        rows.append((f"mail run applying one order mail, {FEW} games, attach \"pdf,png\"",
                     f"{statistics.median(times) * 1000:.0f} ms", "-", "-", "-"))

        sizes = {attach: mail_sizes(bench, attach) for attach in ("", "png", "pdf,png")}
        profiled = profile(bench, few) if args.profile else ""
    finally:
        shutil.rmtree(folder)

    head = ("figure", "now", "floor", "floor time", "ratio")
    widths = [max(len(row[i]) for row in [head, *rows]) for i in range(5)]
    print(f"median of {n} pairs (in brackets: the quartiles of the per-pair ratios); python "
          f"{sys.version.split()[0]}; {GAMES} games built and first run in {built:.0f} s")
    for row in [head, tuple("-" * w for w in widths), *rows]:
        print("| " + " | ".join(cell.ljust(w) for cell, w in zip(row, widths)) + " |")

    kinds = ["receipt", "report to the player on turn", "report to another player", "report to the GM"]
    print("\nThe mails of one turn, bytes as sent (target: a default report mail, attach = \"png\", "
          "<= 150 KB = 153,600 bytes; the PDF only when attach names it):")
    head2 = ("mail", *(f'attach = "{a}"' for a in sizes), "target")
    table = [head2]
    for kind in kinds:
        target = "<= 150 KB (png)" if kind.startswith("report") else "-"
        table.append((kind, *(f"{sizes[a].get(kind, 0):,}" for a in sizes), target))
    widths = [max(len(row[i]) for row in table) for i in range(len(head2))]
    for k, row in enumerate(table):
        print("| " + " | ".join(cell.ljust(w) for cell, w in zip(row, widths)) + " |")
        if k == 0:
            print("| " + " | ".join("-" * w for w in widths) + " |")
    print(profiled, end="")


if __name__ == "__main__":
    main()
