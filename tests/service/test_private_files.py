"""Private files are private, and links are never followed (issue 40, item 9): the mail
ledger (addresses, pending codes, reasons of absences), the audit log and the GM's status
page are the GM's alone (mode 600); the audit log and ``status --html FILE`` are never
written through a link planted in their place; ``status --json`` names no address; a
command quoted in a reply is not run again; an observer whose name reads as a group of
addresses is refused when the configuration is read."""

from __future__ import annotations

import json
import re
import stat

import pytest

from conftest import cli_run
from mailkit import ADDRESSES, START, add_to_maildir, body, config, game_with_players, mail, maildir, sent

ADDRESS = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")


def mode(path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


def run(cfg, box, outbox, now=START):
    return cli_run("mail", "run", "--config", cfg, "--source", box, "--outbox", outbox, "--now", now)


@pytest.fixture
def table(tmp_path):
    game = game_with_players(tmp_path)
    cfg = config(tmp_path, game, defaults='deadline = "48h"\nattach = ""')
    box = maildir(tmp_path / "M")
    assert run(cfg, box, tmp_path / "o0").exit_code == 0
    return tmp_path, game, cfg, box


def test_the_ledger_the_audit_log_and_the_status_page_are_the_gms_alone(table):
    folder, game, cfg, box = table
    ledger = folder / "game.mail.json"
    assert mode(ledger) == 0o600
    ledger.chmod(0o644)  # as an earlier release wrote it: made private with the next save
    absent = cli_run("absent", game, "greeks", "--until", "2026-11-30", "--reason", "surgery", "--now", START)
    assert absent.exit_code == 0, absent.stderr
    assert mode(ledger) == 0o600 and mode(folder / "game.audit.jsonl") == 0o600
    assert mode(folder / "game.clock.json") == 0o600  # the reasons of absences
    page = folder / "status.html"
    assert cli_run("status", "--config", cfg, "--html", page, "--now", START).exit_code == 0
    assert mode(page) == 0o600


def test_an_audit_log_planted_as_a_link_is_never_written_through(table, tmp_path):
    folder, game, cfg, box = table
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (folder / "game.audit.jsonl").symlink_to(victim)
    before = (folder / "game.mail.json").read_bytes()
    clock = (folder / "game.clock.json").read_bytes()
    paused = cli_run("pause", game, "--reason", "x", "--now", START)
    assert paused.exit_code == 10, paused.stdout + paused.stderr
    assert victim.read_text() == "precious\n"
    assert (folder / "game.mail.json").read_bytes() == before  # not paused: the change was not logged
    assert (folder / "game.clock.json").read_bytes() == clock


def test_the_status_page_replaces_a_link_planted_at_its_name(table, tmp_path):
    folder, game, cfg, box = table
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    page = folder / "status.html"
    page.symlink_to(victim)
    shown = cli_run("status", "--config", cfg, "--html", page, "--now", START)
    assert shown.exit_code == 0, shown.stderr
    assert victim.read_text() == "precious\n"
    assert not page.is_symlink() and "<html" in page.read_text() and mode(page) == 0o600


def test_status_json_names_no_address(table):
    """As the page does: a last error quoting a server's answer about an address, a reason
    of an absence with one."""
    folder, game, cfg, box = table
    ledger = folder / "game.clock.json"
    data = json.loads(ledger.read_text())
    data["last_error"] = {"at": START, "what": f"the server refused 000001-receipt.eml (550 <{ADDRESSES['greeks']}>: "
                                               "mailbox unavailable)"}
    data["absences"] = [{"nation": "greeks", "from": "2026-11-23", "until": "2026-11-30", "by": "gm",
                         "reason": "write to dora.private@home.example", "at": START}]
    ledger.write_text(json.dumps(data), encoding="utf-8")
    shown = cli_run("status", "--config", cfg, "--json", "--now", START)
    assert shown.exit_code == 0, shown.stderr
    assert ADDRESS.findall(shown.stdout) == []
    record = json.loads(shown.stdout)["games"][0]
    assert "550" in record["last_error"]["what"] and record["absences"][0]["reason"].startswith("write to")


def test_commands_quoted_in_a_reply_are_not_run_again(table):
    """A reply to the referee's answer, the player's earlier mail quoted four spaces in: only
    the new command runs."""
    folder, game, cfg, box = table
    quoted = ("STATUS\n\nOn Mon, the referee wrote:\n\n    game demo\n    nation greeks\n    password pw-greeks\n"
              "    ABSENT UNTIL 2026-11-30\n    PRESS TO all\n    Hail again!\n")
    add_to_maildir(box, mail(ADDRESSES["greeks"], body=quoted))
    done = run(cfg, box, folder / "o1", "2026-11-23T10:05:00Z")
    assert done.exit_code == 0, done.stdout + done.stderr
    (answer,) = sent(folder / "o1")
    words = " ".join(body(answer).split())
    assert ADDRESSES["greeks"] in str(answer["To"]) and "STATUS" in str(answer["Subject"])
    assert "ABSENT" not in str(answer["Subject"]) and "Nothing was done" not in words
    assert "absences" not in json.loads((folder / "game.clock.json").read_text())
    assert not (folder / "game.press.jsonl").exists()
    only_quoted = "On Mon, the referee wrote:\n\n    PRESS TO all\n    Hail again!\n"
    add_to_maildir(box, mail(ADDRESSES["greeks"], body=only_quoted))
    calm = run(cfg, box, folder / "o2", "2026-11-23T10:10:00Z")
    assert calm.exit_code == 0 and sent(folder / "o2") == []
    assert not (folder / "game.press.jsonl").exists()


@pytest.mark.parametrize("observer", ["Eve: eve@evil.example <olga@watch.example>",
                                      "Watchers: olga@watch.example <olga@watch.example>"])
def test_an_observer_whose_name_reads_as_a_group_is_refused(tmp_path, observer):
    game = game_with_players(tmp_path)
    cfg = config(tmp_path, game, defaults=f'attach = ""\nobservers = ["{observer}"]')
    refused = run(cfg, maildir(tmp_path / "M"), tmp_path / "out")
    assert refused.exit_code == 2 and "observers" in refused.stderr
    assert sent(tmp_path / "out") == []
    fine = config(tmp_path, game, defaults='attach = ""\nobservers = ["\\"Watchers: Olga\\" <olga@watch.example>"]')
    assert run(fine, maildir(tmp_path / "M2"), tmp_path / "out").exit_code == 0
    assert any("olga@watch.example" in str(m["To"]) for m in sent(tmp_path / "out"))
