"""Small things a GM or a player noticed after a month of real play (issue 38, item 6), each
as they met it: help that offers an option the command does not have, a missing
``ca_file`` told as a bug, answers addressed without the player's name, short subjects
folded, ``options --hint`` in JSON, ``post`` after a GM edit without the deadline, the
mover's report without a word of their turn, a player whose turns were played for them
told the whole game again, a Duellum mail with the player's copy that grows past 150 KB;
and what docs/mail.md says of the commands' options and of a refusal's reasons."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from mailkit import ADDRESSES, add_to_maildir, body, config, game_with_players, mail, maildir, sent

from conftest import cli_run

ROOT = Path(__file__).resolve().parent.parent
T0 = "2026-11-23T10:00:00Z"


def flat(message) -> str:
    return " ".join(body(message).split())


def active(game) -> str:
    return json.loads(game.read_text())["status"]["active"]


@pytest.fixture
def played(tmp_path):
    """A game of four run by mail (48 h, told in UTC), its opening mailed; ``cycle`` runs
    ``mail run`` and returns what it sent."""
    game = game_with_players(tmp_path)
    box = maildir(tmp_path / "M")
    cfg = config(tmp_path, game, defaults='deadline = "48h"\nattach = ""')

    def cycle(now: str, out: str):
        result = cli_run("mail", "run", "--config", cfg, "--source", box, "--outbox", tmp_path / out, "--now", now)
        assert result.exit_code == 0, result.stdout + result.stderr
        return sent(tmp_path / out)

    cycle(T0, "o0")
    return tmp_path, game, box, cfg, cycle


# -- the commands' help and options -----------------------------------------------------------------


def commands():
    import typer.main

    from pbem.cli import app
    from test_docs import command_names

    root = typer.main.get_command(app)

    def of(name: str):
        found = root
        for part in name.split():
            found = found.commands[part]
        return found

    return {name: of(name) for name in command_names()}


def options_of(command) -> set[str]:
    names = [o for p in command.params for o in [*getattr(p, "opts", []), *getattr(p, "secondary_opts", [])]]
    return {*names, "--help"}


def test_a_commands_help_offers_only_its_own_options():
    """``player``, ``inbox`` and ``remind --help`` said "To look without sending, add
    --dry-run", which only ``mail run`` has. Every option a command's help names is its
    own, or another command's named with it (``new --board``)."""
    found = commands()
    for name, command in found.items():
        text = re.sub(r"-\n\s+", "-", cli_run(*name.split(), "--help").stdout)  # an option wrapped at its hyphen
        own = options_of(command)
        for before, option in re.findall(r"(?:([a-z-]+) )?(?<![\w-])(--[a-z][a-z-]*)", text):
            if option in own:
                continue
            other = found.get(before) or found.get(f"mail {before}")
            assert other is not None and option in options_of(other), f"{name} --help offers {option}"


def test_the_command_table_names_each_commands_own_options():
    """docs/mail.md, "What each command does", said that all of them take ``--config``,
    ``--outbox DIR`` and ``--now TIME`` (``mail cron-line`` and ``status`` take no
    ``--outbox``, ``mail cron-line`` no ``--now``). Each row names the options of its
    command among these (and ``--dry-run``), and no option the command does not have."""
    text = (ROOT / "docs" / "mail.md").read_text(encoding="utf-8")
    table = text.split("## What each command does", 1)[1].split("\n## ", 1)[0]
    assert "All of them take" not in table
    found = commands()
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    assert len(rows) >= 7
    for row in rows:
        name = next(n for n in sorted(found, key=len, reverse=True) if row.startswith(f"| `{n}"))
        own = options_of(found[name])
        for option in re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", row):
            assert option in own, f"docs/mail.md: {name} {option}"
        for option in ("--config", "--outbox", "--now", "--dry-run"):
            assert (option in row) == (option in own), f"docs/mail.md: {name} {option}"


# -- the GM's configuration --------------------------------------------------------------------------


@pytest.mark.parametrize("server", ["smtp", "imap"])
def test_a_missing_ca_file_is_the_gms_error_not_a_bug(tmp_path, monkeypatch, server):
    """``ca_file = "nope.pem"`` (a file that is not there): the run names the key and the
    file, exit code 2 (a usage error: the configuration's), never "a bug in antike-ref"."""
    monkeypatch.setenv("TEST_PASSWORD", "secret")
    game = game_with_players(tmp_path)
    cfg = config(tmp_path, game)
    section = ('[smtp]\nhost = "127.0.0.1"\nport = 9\nsecurity = "ssl"\npassword_env = "TEST_PASSWORD"\n'
               'ca_file = "nope.pem"\n' if server == "smtp" else
               '[imap]\nurl = "imaps://referee@127.0.0.1:9/INBOX"\npassword_env = "TEST_PASSWORD"\n'
               'ca_file = "nope.pem"\n')
    cfg.write_text(cfg.read_text().replace("\n[[game]]", f"\n{section}\n[[game]]"))
    if server == "smtp":
        result = cli_run("remind", game, "--config", cfg, "--now", T0)
    else:
        result = cli_run("mail", "run", "--config", cfg, "--outbox", tmp_path / "o", "--now", T0)
    assert result.exit_code == 2, result.stdout + result.stderr
    assert f"{server}.ca_file {tmp_path / 'nope.pem'}: cannot be read" in result.stderr, result.stderr
    assert "bug" not in result.stderr and "refused" not in result.stderr


# -- what the mails look like -----------------------------------------------------------------------


def test_answers_name_the_player_and_keep_a_short_subject_on_one_line(played):
    """A receipt went ``To: phoenicians@players.example``, a report ``To: Phoenicians
    Player <...>``: every mail to a player names them. A subject of 75 characters was
    folded after ``Subject:``, which some mail programs show as no subject."""
    folder, game, box, cfg, cycle = played
    nation = active(game)
    subject = "Re: [demo] after set-up: Phoenicians to play turn 1"
    orders = f"game demo\nnation {nation}\npassword pw-{nation}\nrondel x\n"
    add_to_maildir(box, mail(ADDRESSES[nation], subject, orders))
    cycle("2026-11-23T11:00:00Z", "o1")
    (path,) = sorted((folder / "o1").glob("*.eml"))
    raw = path.read_bytes()
    assert f"\r\nTo: {nation.capitalize()} Player <{ADDRESSES[nation]}>\r\n".encode() in raw
    assert f"\r\nSubject: [demo] NOT accepted: {subject}\r\n".encode() in raw
    assert re.search(rb"\r\nX-Antike-Ref-Head: [0-9a-f]{64}\r\n", raw)


def test_the_movers_report_tells_their_turn(played):
    """The player who just moved got a report that said nothing but whose turn is next."""
    folder, game, box, cfg, cycle = played
    mover = active(game)
    orders = f"game demo\nnation {mover}\nturn 1\npassword pw-{mover}\nrondel gold\n"
    add_to_maildir(box, mail(ADDRESSES[mover], "turn", orders))
    out = cycle("2026-11-23T11:00:00Z", "o1")
    report = next((m for m in out if "after turn 1" in str(m["Subject"]) and ADDRESSES[mover] in str(m["To"])), None)
    assert report is not None, [(str(m["To"]), str(m["Subject"]), flat(m)[:600]) for m in out]
    text = flat(report)
    assert "Your turn, as played: Turn 1:" in text and "place their stone on GOLD" in text, text


def test_a_player_whose_turns_were_played_for_them_is_told_only_what_is_new(tmp_path):
    """Deadlines of one hour, missed ones played by the GM's default turn, nobody writes:
    the player of the first turn, played for them, was told the whole game again in every
    report since (from the set-up: they never played a turn themselves). Now each report
    tells them what is new since the last."""
    game = game_with_players(tmp_path)
    box = maildir(tmp_path / "M")
    cfg = config(tmp_path, game, defaults='deadline = "1h"\nmissed = "default"\nattach = ""')
    first = None
    for k, now in enumerate(["2026-11-23T10:00:00Z", "2026-11-23T11:00:00Z", "2026-11-23T12:00:00Z",
                             "2026-11-23T13:00:00Z"]):
        first = first or active(game)
        result = cli_run("mail", "run", "--config", cfg, "--source", box, "--outbox", tmp_path / f"o{k}", "--now", now)
        assert result.exit_code == 0, result.stderr
    (last,) = [m for m in sent(tmp_path / "o3")
               if ADDRESSES[first] in str(m["To"]) and "after turn" in str(m["Subject"])]
    text = flat(last)
    assert "New since your last report: Turn 3:" in text, text
    assert "Turn 1:" not in text and "Turn 2:" not in text and "The game is set up" not in text


def test_options_hint_gives_the_orders_in_words(played):
    folder, game, box, cfg, cycle = played
    result = cli_run("options", game, "--hint", "--budget", "20")
    assert result.exit_code == 0, result.stderr
    hint = result.stdout.split("\nhint for ", 1)[1]
    assert '"rondel"' not in hint and "{" not in hint
    orders = hint.split("  orders:\n", 1)[1].splitlines()
    assert orders[0] == "    game demo" and any(line.startswith("    rondel ") for line in orders)


def test_post_after_a_gm_edit_names_the_deadline(played):
    """The GM corrects something after the turn's clock started and posts the report to
    the forum: the post named no deadline."""
    folder, game, box, cfg, cycle = played
    assert "Deadline for turn 1" in cli_run("post", game, "--format", "markdown").stdout
    change = folder / "fix.json"
    change.write_text(json.dumps({"game": "demo", "reason": "a coin forgotten",
                                  "edits": [{"nation": "greeks", "coins": 2}]}))
    assert cli_run("gm-edit", game, change).exit_code == 0
    post = cli_run("post", game, "--format", "markdown")
    assert post.exit_code == 0 and "Deadline for turn 1: Wed 25 Nov 2026, 10:00 UTC" in post.stdout, post.stdout


# -- the refusal's reasons, as docs/mail.md tells them -------------------------------------------------


def test_a_refusal_gives_the_first_of_sender_game_nation_and_turn_else_every_problem(played):
    """docs/mail.md: orders from another address than the nation's, or for a turn the game
    is not at, are refused for that alone (the orders are not judged against a turn they
    were not written for); otherwise every problem found is given: every line that cannot
    be read, or every rule the orders break."""
    folder, game, box, cfg, cycle = played
    nation = active(game)
    other = next(n for n in ADDRESSES if n != nation)
    head = f"game demo\nnation {nation}\n"
    add_to_maildir(box, mail(ADDRESSES[other], "a", f"{head}turn 5\npassword pw-{nation}\nrondel temple\n"))
    add_to_maildir(box, mail(ADDRESSES[nation], "b", f"{head}turn 5\npassword pw-{nation}\nrondel temple\n"
                                                     "temple persepolis\n"))
    add_to_maildir(box, mail(ADDRESSES[nation], "c", f"{head}password pw-{nation}\nrondel temple\ntemple atlantis\n"
                                                     "arm 1 legion at atlantis\n"))
    out = cycle("2026-11-23T11:00:00Z", "o1")
    answers = {str(m["Subject"]).rsplit(" ", 1)[-1]: flat(m) for m in out if "NOT accepted" in str(m["Subject"])}
    assert "Why: - orders for the" in answers["a"] and "turn 5" not in answers["a"], answers["a"]
    assert "Why: - line 3 (\"turn 5\")" in answers["b"] and "Persepolis" not in answers["b"], answers["b"]
    assert "Why (2 problems):" in answers["c"] and answers["c"].count("unknown province 'atlantis'") == 2, answers["c"]


# -- the player's copy in an Antike Duellum mail -----------------------------------------------------

DUEL = {"romans": "ann@players.example", "carthaginians": "ben@players.example"}


def duel_by_mail(folder: Path, attach: str):
    from conftest import new_game_file

    players = [a for n, address in DUEL.items() for a in ("--player", f"{n}={n.capitalize()} <{address}>")]
    game = new_game_file(folder, "--edition", "duellum", "--id", "duel", *players, name="duel.json",
                         nations=["carthaginians", "romans"])
    cfg = config(folder, game, defaults=f'attach = "{attach}"')
    return game, cfg


def test_the_copy_a_mail_carries_is_packed_and_every_command_reads_it(tmp_path):
    """The copy of the game in a player's mail: JSON whose lines hold the copy compressed
    (a tenth of its size), carried as it is (no base64 around it); ``check``, ``show``,
    ``options``, ``history`` and ``verify`` read it as the copy ``antike-ref copy`` writes;
    one that was tampered with is bad input (exit 3), never a crash."""
    import base64
    import zlib

    from pbem.errors import InputError
    from pbem.service import copies
    from pbem.service.schemas import dumps
    from pbem.service.store import load_game

    game, cfg = duel_by_mail(tmp_path, "copy")
    assert cli_run("mail", "run", "--config", cfg, "--outbox", tmp_path / "o0", "--now", T0).exit_code == 0
    assert cli_run("bot", game, "--apply").exit_code == 0
    assert cli_run("mail", "run", "--config", cfg, "--outbox", tmp_path / "o1", "--now", T0).exit_code == 0
    (path,) = [p for p in sorted((tmp_path / "o1").glob("*-report-*.eml")) if b"ann@players.example" in p.read_bytes()]
    raw = path.read_bytes()
    assert b'Content-Disposition: attachment; filename="duel.romans.json"' in raw
    part = raw.split(b'filename="duel.romans.json"', 1)[0].rsplit(b"Content-Type: application/json", 1)[1]
    assert b"Content-Transfer-Encoding: 7bit" in part
    import email
    from email import policy

    (attached,) = [p for p in email.message_from_bytes(raw, policy=policy.default).iter_attachments()]
    data = attached.get_content()
    saved = tmp_path / "duel.romans.json"
    saved.write_bytes(data)
    plain = dumps(copies.player_copy(load_game(game), "romans"))
    assert len(data) * 2 < len(plain)  # a tenth in a long game (docs/mail.md)
    assert copies.unpacked(json.loads(data), "mail", 1 << 24) == json.loads(plain)
    assert copies.is_player_copy(data)
    verified = cli_run("verify", saved)
    assert verified.exit_code == 0 and "the romans' copy" in verified.stdout, verified.stderr
    assert cli_run("copy", game, "--for", "romans", "-o", tmp_path / "plain.json").exit_code == 0
    shown = cli_run("show", saved, "--json")
    assert shown.exit_code == 0 and shown.stdout == cli_run("show", tmp_path / "plain.json", "--json").stdout
    assert load_game(saved).copy_of == "romans"  # what check, options, history and bot -o load too
    packed = json.loads(data)
    blob = base64.b64encode(zlib.compress(b" " * (20 << 20), 9)).decode()
    for broken, why in ((dict(packed, packed=["not base64!"]), "cannot be unpacked"),
                        (dict(packed, copy={"of": "carthaginians", "packed": "zlib"}), "does not hold"),
                        (dict(packed, copy={"of": "romans", "packed": "lzma"}), "unknown kind"),
                        (dict(packed, packed=[blob[k:k + 76] for k in range(0, len(blob), 76)]), "unpacks to more")):
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps(broken))
        with pytest.raises(InputError, match=why):
            load_game(bad)
    result = cli_run("show", bad)
    assert result.exit_code == 3 and "unpacks to more than" in result.stderr, result.stderr


@pytest.mark.slow
def test_a_duellum_mail_with_the_copy_stays_under_150_kb_through_turn_60(tmp_path):
    """``attach = "png,copy"``, every turn reported by the mail cycle: the copy grows with
    the history (some 1.6 kB a turn as plain JSON, 0.2 kB packed); at turns 20, 40 and 60
    each report mail to a player is at most 150 KB (bench/bench_copy_mail.py prints the
    sizes)."""
    game, cfg = duel_by_mail(tmp_path, "png,copy")
    assert cli_run("mail", "run", "--config", cfg, "--outbox", tmp_path / "o0", "--now", T0).exit_code == 0
    largest = {}
    for turn in range(1, 61):
        if json.loads(game.read_text())["status"]["winner"] is not None:
            break
        assert cli_run("bot", game, "--apply").exit_code == 0
        out = tmp_path / f"o{turn}"
        assert cli_run("mail", "run", "--config", cfg, "--outbox", out, "--now", T0).exit_code == 0
        if turn in (20, 40, 60):
            sizes = [p.stat().st_size for p in out.glob("*-report-*.eml") if b"players.example" in p.read_bytes()]
            largest[turn] = max(sizes)
    assert largest and all(size <= 150 * 1024 for size in largest.values()), largest
