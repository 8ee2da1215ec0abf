"""Every output a user sees, written into one folder, so a refactoring can be proved
byte-identical: take a snapshot before, one after, and ``diff -r`` the two.

Everything goes through the command line (in-process, as the tests run it), never through
internal functions, so the same script runs unchanged on both sides of a refit:

- the legacy games (``tests/data/legacy/*.json``): ``history``, ``show`` (text, ``--json``,
  ``--as`` every nation), ``options`` (text and ``--json``), ``verify``, ``copy`` for every
  nation, the report of EVERY history entry in every text format and SVG (``render``), the
  forum post of every entry (BBCode and Markdown) and the static ``site``;
- bot games: for each edition and board, games of ``bot --apply`` (greedy and random,
  variants, special units) played to the end from fixed seeds, as game files (every order,
  event and state hash of every turn), plus each legacy game's strong move;
- the mail: the legacy mail folder run again by ``mail run --outbox`` at fixed times, and a
  scripted game by mail (order mails, a refusal, every command, deadlines passing): every
  mail written, every ledger and game file after every run.

PDF and PNG are left out (their bytes depend on the cairo build; the SVG they come from is
in). The work is done in a fixed folder (``--work``), so paths that outputs name are the same
in every snapshot.

    .venv/bin/python tools/snapshot.py out/snap-before
    .venv/bin/python tools/snapshot.py out/snap-after && diff -r out/snap-before out/snap-after
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import time
from email.message import EmailMessage
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LEGACY = ROOT / "tests" / "data" / "legacy"
TEXT_FORMATS = "svg,txt,md,bbcode"
NOW = "2026-11-23T10:00:00Z"


def cli(*args, expect=(0,)) -> str:
    """``antike-ref ARGS`` in-process; its stdout, then its stderr and exit code."""
    from typer.testing import CliRunner

    from pbem.cli import app

    result = CliRunner().invoke(app, [str(a) for a in args])
    if result.exit_code not in expect:
        raise SystemExit(f"antike-ref {' '.join(map(str, args))}: exit {result.exit_code}\n{result.stderr}"
                         f"{result.exception!r}")
    return f"{result.stdout}\n--- stderr\n{result.stderr}\n--- exit {result.exit_code}\n"


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def nations_of(game: Path) -> list[str]:
    return list(json.loads(game.read_text(encoding="utf-8"))["seats"])


def entries_of(game: Path) -> int:
    return len(json.loads(game.read_text(encoding="utf-8"))["history"])


def legacy(work: Path, out: Path) -> None:
    for source in sorted(LEGACY.glob("*.json")):
        if "history" not in json.loads(source.read_text(encoding="utf-8")):
            continue  # renders.json: the digests of the legacy reports, no game
        name = source.stem
        game = work / "legacy" / source.name
        game.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(source, game)
        into = out / "legacy" / name
        player_copy = name.count(".") > 0
        write(into / "history.txt", cli("history", game, expect=(0, 3, 4)))
        write(into / "show.txt", cli("show", game, expect=(0, 3, 4)))
        write(into / "show.json", cli("show", game, "--json", expect=(0, 3, 4)))
        write(into / "verify.txt", cli("verify", game, expect=(0, 3, 4, 6)))
        write(into / "options.txt", cli("options", game, expect=(0, 2, 3, 4)))
        write(into / "options.json", cli("options", game, "--json", expect=(0, 2, 3, 4)))
        if player_copy:
            continue
        for nation in nations_of(game):
            write(into / f"show-as-{nation}.json", cli("show", game, "--json", "--as", nation, expect=(0, 2, 3, 4)))
            write(into / f"show-as-{nation}.txt", cli("show", game, "--as", nation, expect=(0, 2, 3, 4)))
            cli("copy", game, "--for", nation, "-o", into / f"copy-{nation}.json", expect=(0, 2, 3, 4))
        for entry in range(entries_of(game)):
            cli("render", game, "--entry", entry, "--format", TEXT_FORMATS, "--out", into / "render")
            write(into / "post" / f"{entry:03d}.bbcode", cli("post", game, "--entry", entry))
            write(into / "post" / f"{entry:03d}.md", cli("post", game, "--entry", entry, "--format", "markdown",
                                                         "--image-base", "https://example.org/g"))
        cli("site", game, into / "site")
        for png in (into / "site").rglob("*.png"):
            png.unlink()
        write(into / "strong.json", cli("bot", game, "--level", "strong", "--budget", "60", expect=(0, 4)))


AEGEAN = ROOT / "tests" / "data" / "boards" / "duellum-aegean-excerpt.json"
GAMES = [
    # (name, edition, board, nations, variants, bot)
    ("classic-4-greedy", "antike", "antike-east", "persians,phoenicians,arabs,greeks", [], "greedy"),
    ("classic-3-random", "antike", "antike-east", "greeks,persians,arabs", [], "random"),
    ("classic-5-expert", "antike", "antike-west", "carthaginians,germans,greeks,phoenicians,romans", ["expert"],
     "greedy"),
    ("classic-4-military", "antike", "antike-east", "persians,phoenicians,arabs,greeks", ["military"], "greedy"),
    ("classic-6-longer", "antike", "antike-east", "greeks,persians,arabs,phoenicians,egyptians,babylonians",
     ["longer"], "random"),
    ("antike2-4-greedy", "antike2", "antike2-mare-nostrum", "romans,carthaginians,greeks,germans", [], "greedy"),
    ("antike2-3-random", "antike2", "antike2-mare-nostrum", "romans,carthaginians,greeks", ["nine_scholars"],
     "random"),
    ("duellum-rc-greedy", "duellum", "duellum-rome-carthage", "carthaginians,romans", [], "greedy"),
    ("duellum-rc-special", "duellum", "duellum-rome-carthage", "carthaginians,romans", ["special_units"], "random"),
    ("duellum-aegean", "duellum", str(AEGEAN), "greeks,persians", [], "greedy"),
]
MAX_TURNS = 160
"""A bot game stops here if no nation has won (the greedy bot of some lineups stalls)."""


def bots(work: Path, out: Path) -> None:
    for name, edition, board, nations, variants, mode in GAMES:
        game = work / "bots" / f"{name}.json"
        game.parent.mkdir(parents=True, exist_ok=True)
        args = ["new", game, "--edition", edition, "--board", board, "--nations", nations, "--seed", f"snap-{name}",
                "--kdf-iterations", "1000", "--id", name, *[a for v in variants for a in ("--variant", v)],
                *[a for n in nations.split(",") for a in ("--password", f"{n}=pw-{n}")]]
        write(out / "bots" / f"{name}.new.txt", cli(*args).replace(str(AEGEAN), "AEGEAN"))
        for _ in range(MAX_TURNS):
            if json.loads(game.read_text(encoding="utf-8"))["status"].get("winner"):
                break
            cli("bot", game, "--level", mode, "--apply")
        write(out / "bots" / f"{name}.options.txt", cli("options", game, expect=(0, 4)))
        shutil.copy(game, out / "bots" / f"{name}.json")


def _mail(sender: str, body: str, n: int, subject: str = "orders") -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, "referee@referee.example", subject
    msg["Date"] = f"Mon, 23 Nov 2026 {n // 60:02d}:{n % 60:02d}:00 +0000"
    msg["Message-ID"] = f"<snap-{n}@players.example>"
    msg.set_content(body)
    return msg.as_bytes()


_BOUNDARY = re.compile(rb"={15}\d+==")


def keep(path: Path, target: Path) -> None:
    """Copy one file of a mail folder into the snapshot; a mail's MIME boundaries (random,
    from Python's email package) are numbered in the order they appear. The watermarks
    (``*.mail-mark.json``) hold file times and inodes and are left out."""
    if path.name.endswith(".mail-mark.json") or path.suffix == ".lock":
        return
    data = path.read_bytes()
    if path.suffix == ".eml":
        seen: dict[bytes, bytes] = {}
        data = _BOUNDARY.sub(lambda m: seen.setdefault(m.group(0), b"=BOUNDARY-%d=" % len(seen)), data)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)


def mail(work: Path, out: Path) -> None:
    import mailbox
    import subprocess

    exe = str(Path(sys.executable).with_name("antike-ref"))
    # the legacy mail folder, run again at fixed times
    folder = work / "mail-legacy"
    shutil.copytree(LEGACY / "mail-c4ea175", folder)
    for sub in ("cur", "tmp"):
        (folder / "Maildir" / sub).mkdir(exist_ok=True)
    runs = [("2026-11-26T12:00:00Z", "1"), ("2026-11-27T12:00:00Z", "2"), ("2026-11-29T12:00:00Z", "3")]
    for now, tag in runs:
        done = subprocess.run([exe, "mail", "run", "--config", folder / "mail.toml", "--outbox", folder / f"out-{tag}",
                               "--now", now], capture_output=True, text=True, cwd=folder)
        write(out / "mail-legacy" / f"run-{tag}.txt",
              f"{done.stdout}\n--- stderr\n{done.stderr}\n--- {done.returncode}\n")
    for path in sorted(folder.rglob("*")):
        if path.is_file() and "Maildir" not in path.parts:
            keep(path, out / "mail-legacy" / path.relative_to(folder))

    # a scripted game by mail
    folder = work / "mail-game"
    folder.mkdir(parents=True)
    nations = ["persians", "phoenicians", "arabs", "greeks"]
    addr = {n: f"{n}@players.example" for n in nations}
    game = folder / "game.json"
    cli("new", game, "--id", "snap", "--nations", ",".join(nations), "--seed", "snap-mail", "--kdf-iterations", "1000",
        *[a for n in nations for a in ("--password", f"{n}=pw-{n}")],
        *[a for n in nations for a in ("--player", f"{n}={n.capitalize()} Player <{addr[n]}>")])
    (folder / "mail.toml").write_text(
        '[mail]\nfrom = "Referee <referee@referee.example>"\ngm = "gm@referee.example"\nsource = "Maildir"\n'
        '\n[defaults]\ndeadline = "48h"\nremind = "12h"\nmissed = "bot"\nattach = "copy"\n'
        '\n[[game]]\nfile = "game.json"\n', encoding="utf-8")
    box = mailbox.Maildir(folder / "Maildir", create=True)
    first = json.loads(game.read_text(encoding="utf-8"))["status"]["active"]
    script = [
        ("2026-11-23T10:00:00Z", []),
        ("2026-11-23T12:00:00Z", [
            (addr[first], f"Hi GM,\n\ngame snap\nnation {first}\nturn 1\npassword pw-{first}\nrondel gold\n\nAnn\n"),
            (addr["greeks"], "HELP\n"),
            (addr["arabs"], "game snap\nSTATUS\n"),
            ("stranger@elsewhere.example", "rondel gold\nnation greeks\n"),
        ]),
        ("2026-11-23T14:00:00Z", [
            (addr["persians"], "game snap\nHISTORY 3\n"),
            (addr["persians"], "game snap\nRESEND txt\n"),
            (addr["phoenicians"], "game snap\nOPTIONS\n"),
            (addr["phoenicians"], "game snap\nnation phoenicians\nturn 2\npassword wrong\nrondel iron\n"),
        ]),
        ("2026-11-24T06:00:00Z", []),
        ("2026-11-26T06:00:00Z", []),
        ("2026-11-28T12:00:00Z", []),
    ]
    n = 0
    for step, (now, mails) in enumerate(script):
        for sender, body in mails:
            n += 1
            box.add(_mail(sender, body, n))
        done = subprocess.run([exe, "mail", "run", "--config", folder / "mail.toml", "--outbox", folder / "outbox",
                               "--now", now], capture_output=True, text=True, cwd=folder)
        write(out / "mail-game" / f"run-{step}.txt",
              f"{done.stdout}\n--- stderr\n{done.stderr}\n--- {done.returncode}\n")
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "Maildir" not in path.parts:
                keep(path, out / "mail-game" / f"after-{step}" / path.relative_to(folder))


PARTS = {"legacy": legacy, "bots": bots, "mail": mail}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="the snapshot folder (replaced)")
    ap.add_argument("--work", type=Path, default=Path("/tmp/antike-ref-snapshot-work"),
                    help="the fixed working folder (replaced)")
    ap.add_argument("--only", action="append", choices=sorted(PARTS), help="only these parts")
    args = ap.parse_args()
    for folder in (args.out, args.work):
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
    for name in args.only or PARTS:
        start = time.perf_counter()
        PARTS[name](args.work, args.out)
        print(f"{name}: {time.perf_counter() - start:.0f} s", flush=True)
    files = sum(1 for p in args.out.rglob("*") if p.is_file())
    print(f"{files} files in {args.out}")


if __name__ == "__main__":
    main()
