"""The mail cycle's edges, as a new GM and players at midnight meet them: a dry run that
changes nothing, mails without orders, copies and late mails, what the reports say and to
whom, paths relative to the configuration, the cron line, links to the web."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
from pathlib import Path

import pytest
from mailkit import (ADDRESSES, GM, START, active, add_to_maildir, body, config, game_with_players, mail, maildir,
                     run_mail, sent)

from conftest import cli_run


def state_of(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (the games, ledgers, queues, marks) with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


run = run_mail


@pytest.fixture
def table(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    game = game_with_players(games)
    cfg = config(tmp_path, game, defaults='deadline = "48h"\nremind = "12h"\nmissed = "default"\nattach = ""')
    return tmp_path, game, cfg


# -- 1. a dry run changes nothing ---------------------------------------------------------


def test_a_dry_run_writes_what_it_would_send_and_changes_nothing(table):
    folder, game, cfg = table
    box = maildir(folder / "M")
    before = state_of(game.parent)
    dry = run(cfg, box, folder / "dry", START, "--dry-run")
    assert dry.exit_code == 0, dry.stderr
    assert "dry run" in dry.stdout
    would = sent(folder / "dry")
    assert len(would) == 5  # the opening report: four players and the GM
    assert state_of(game.parent) == before  # no ledger, no queue, no clock, no mark: nothing
    # the real run afterwards still sends every one of them, the same mails
    real = run(cfg, box, folder / "real", START)
    assert real.exit_code == 0, real.stderr
    assert sorted(m["Message-ID"] for m in sent(folder / "real")) == sorted(m["Message-ID"] for m in would)
    assert [bytes(m) for m in sent(folder / "real")] == [bytes(m) for m in would]


def test_a_dry_run_with_orders_and_a_deadline_due_applies_nothing(table):
    folder, game, cfg = table
    box = maildir(folder / "M")
    assert run(cfg, box, folder / "o0").exit_code == 0  # the opening report; the clock starts
    nation = active(game)
    add_to_maildir(box, mail(ADDRESSES[nation], body=f"game demo\nnation {nation}\nturn 1\npassword pw-{nation}\n"
                                                     "rondel gold\n", message_id="<t1@players.example>"))
    before = state_of(game.parent)
    dry = run(cfg, box, folder / "dry", "2026-11-23T12:00:00Z", "--dry-run")
    assert dry.exit_code == 0, dry.stderr
    assert any("accepted" in str(m["Subject"]) for m in sent(folder / "dry"))
    assert state_of(game.parent) == before
    # messages name the real game file, never the rehearsal's copy
    assert "antike-ref-dry-run" not in dry.stdout + dry.stderr
    # without the mail, turn 1's deadline has passed by then: its default turn, rehearsed
    late = run(cfg, maildir(folder / "empty"), folder / "late", "2026-11-25T12:00:00Z", "--dry-run")
    assert late.exit_code == 0, late.stderr
    assert any("the GM's default turn" in body(m) for m in sent(folder / "late"))
    assert state_of(game.parent) == before
    assert run(cfg, box, folder / "real", "2026-11-23T12:00:00Z").exit_code == 0
    assert [e["kind"] for e in json.loads(game.read_text())["history"]] == ["new", "turn"]


def test_dry_run_needs_an_outbox_and_the_outbox_alone_counts_as_sent(table):
    folder, game, cfg = table
    box = maildir(folder / "M")
    refused = cli_run("mail", "run", "--config", cfg, "--source", box, "--dry-run", "--now", START)
    assert refused.exit_code == 2 and "--outbox" in refused.stderr
    assert run(cfg, box, folder / "o1").exit_code == 0
    assert len(sent(folder / "o1")) == 5
    assert run(cfg, box, folder / "o2").exit_code == 0
    assert sent(folder / "o2") == []  # delivered into the folder: sent, not sent again
    helped = cli_run("mail", "run", "--help")
    assert "counts as sent" in " ".join(helped.stdout.split()) and "--dry-run" in helped.stdout


# -- 2. a mail without orders makes no history entry ------------------------------------


def test_a_mail_with_only_game_nation_and_password_is_answered_not_recorded(table):
    folder, game, cfg = table
    box = maildir(folder / "M")
    assert run(cfg, box, folder / "o0").exit_code == 0
    nation = active(game)
    idle = next(n for n in ADDRESSES if n != nation)
    before = game.read_bytes()
    add_to_maildir(box,
                   mail(ADDRESSES[nation], body=f"game demo\nnation {nation}\npassword pw-{nation}\n"),
                   mail(ADDRESSES[idle], orders={"game": "demo", "nation": idle, "password": f"pw-{idle}"}))
    result = run(cfg, box, folder / "o1", "2026-11-23T10:05:00Z")
    assert result.exit_code == 0, result.stderr
    assert game.read_bytes() == before  # no entry, no new head hash, no reports
    answers = sent(folder / "o1")
    assert len(answers) == 2 and all("no orders found" in str(m["Subject"]) for m in answers)
    mine = next(m for m in answers if ADDRESSES[nation] in str(m["To"]))
    assert "nothing was changed" in " ".join(body(mine).split()) and "It is your turn" in body(mine)
    other = next(m for m in answers if ADDRESSES[idle] in str(m["To"]))
    assert "It is your turn" not in body(other) and "Next: turn 1" in body(other)
    ledger = json.loads((game.parent / "game.mail.json").read_text())
    assert sorted(r["outcome"] for r in ledger["messages"].values()) == ["answered", "answered"]


def test_standing_orders_that_change_nothing_are_refused(table):
    folder, game, cfg = table
    box = maildir(folder / "M")
    assert run(cfg, box, folder / "o0").exit_code == 0
    idle = next(n for n in ADDRESSES if n != active(game))
    before = game.read_bytes()
    add_to_maildir(box, mail(ADDRESSES[idle], body=f"game demo\nnation {idle}\npassword pw-{idle}\n"
                                                   "standing battle home\n"))
    assert run(cfg, box, folder / "o1", "2026-11-23T10:05:00Z").exit_code == 0
    assert game.read_bytes() == before
    (answer,) = sent(folder / "o1")
    assert "NOT accepted" in str(answer["Subject"]) and "change nothing" in body(answer)


# -- 3 and 4. prose around the orders; refusals by line --------------------------------------


def test_greetings_and_thanks_are_not_read_and_listed_back(table):
    folder, game, cfg = table
    box = maildir(folder / "M")
    nation = active(game)
    text = (f"Hi GM,\n\nhere are my orders:\n\ngame demo\nnation {nation}\nturn 1\npassword pw-{nation}\n"
            "rondel gold\n\nThanks, Ann\nOops, sorry for the delay.\n")
    add_to_maildir(box, mail(ADDRESSES[nation], body=text))
    assert run(cfg, box, folder / "o1").exit_code == 0
    assert json.loads(game.read_text())["history"][-1]["kind"] == "turn"
    (receipt,) = [m for m in sent(folder / "o1") if "accepted" in str(m["Subject"])]
    words = body(receipt)
    assert "Not read as orders" in words
    for line in ("line 1: Hi GM,", "line 3: here are my orders:", "line 11: Thanks, Ann",
                 "line 12: Oops, sorry for the delay."):
        assert line in words


def test_a_mail_opening_with_sent_is_applied_not_dropped_in_silence(table):
    """A player who wrote from the wrong address first and said so: the mail began with a
    line starting "Sent", which was taken for a phone's trailer; everything after it was
    dropped and the mail was neither applied nor answered (docs/text-orders.md, "What is
    ignored": a trailer only at the end of the mail's own text)."""
    folder, game, cfg = table
    box = maildir(folder / "M")
    nation = active(game)
    text = (f"Sent from the wrong address before, sorry.\n\ngame demo\nnation {nation}\nturn 1\n"
            f"password pw-{nation}\nrondel gold\n\nAnn\n\nSent from my iPhone\n")
    add_to_maildir(box, mail(ADDRESSES[nation], body=text))
    assert run(cfg, box, folder / "o1").exit_code == 0
    assert json.loads(game.read_text())["history"][-1]["kind"] == "turn"
    (receipt,) = [m for m in sent(folder / "o1") if "accepted" in str(m["Subject"])]
    words = body(receipt)
    assert "line 1: Sent from the wrong address before, sorry." in words
    assert "iPhone" not in words


def test_a_line_between_orders_that_is_no_order_is_an_error_with_its_place(table):
    folder, game, cfg = table
    box = maildir(folder / "M")
    nation = active(game)
    before = game.read_bytes()
    add_to_maildir(box, mail(ADDRESSES[nation], body=f"Hi GM,\ngame demo\nnation {nation}\nturn 1\n"
                                                     f"I think gold is best\npassword pw-{nation}\nrondel gold\n"))
    assert run(cfg, box, folder / "o1").exit_code == 0
    assert game.read_bytes() == before
    (answer,) = [m for m in sent(folder / "o1") if "NOT accepted" in str(m["Subject"])]
    text = " ".join(body(answer).split())
    assert 'line 5, column 1 ("I think gold is best"): unknown order word' in text


def test_rule_refusals_of_a_text_mail_name_the_line_never_a_json_path(table):
    folder, game, cfg = table
    box = maildir(folder / "M")
    nation = active(game)
    before = game.read_bytes()
    add_to_maildir(box,
                   mail(ADDRESSES[nation], body=f"game demo\nnation {nation}\nturn 1\npassword pw-{nation}\n"
                                                "rondel temple\ntemple athen\n"),
                   mail(ADDRESSES[nation], body=f"game demo\nnation {nation}\nturn 1\npassword nope\nrondel gold\n"),
                   mail(ADDRESSES[nation], body=f"game demo\nnation {nation}\nturn 1\nrondel gold\n"))
    assert run(cfg, box, folder / "o1").exit_code == 0
    assert game.read_bytes() == before
    answers = [" ".join(body(m).split()) for m in sent(folder / "o1") if "NOT accepted" in str(m["Subject"])]
    assert len(answers) == 3
    assert any('line 6 ("temple athen"): Athen is not a city of' in a for a in answers)
    assert any('line 4 ("password …"): wrong password for' in a for a in answers)
    assert any("no 'password' line" in a for a in answers)
    for a in answers:
        assert "$." not in a and "docs/" not in a and "nope" not in a


def test_mails_link_the_gms_guide_and_never_a_repository_file(table):
    folder, game, cfg = table
    cfg.write_text(cfg.read_text().replace("[mail]\n", '[mail]\nguide_url = "https://example.org/guide"\n'))
    box = maildir(folder / "M")
    nation = active(game)
    add_to_maildir(box, mail(ADDRESSES[nation], body=f"game demo\nnation {nation}\nturn 1\npassword pw-{nation}\n"
                                                     "rondel temple\ntemple athen\n"))
    assert run(cfg, box, folder / "o1").exit_code == 0
    out = sent(folder / "o1")
    (refused,) = [m for m in out if "NOT accepted" in str(m["Subject"])]
    assert "How to write orders: https://example.org/guide" in body(refused)
    mine = next(m for m in out if ADDRESSES[nation] in str(m["To"]) and "set-up" in str(m["Subject"]))
    assert "https://example.org/guide" in body(mine)
    for m in out:
        assert "docs/" not in body(m) and ".md" not in body(m)


# -- 6. the words of the answers -------------------------------------------------------------


def test_the_same_orders_sent_again_are_already_applied(table):
    folder, game, cfg = table
    box = maildir(folder / "M")
    nation = active(game)
    text = f"game demo\nnation {nation}\nturn 1\npassword pw-{nation}\nrondel gold\n"
    add_to_maildir(box, mail(ADDRESSES[nation], body=text, message_id="<first@p>"))
    assert run(cfg, box, folder / "o1").exit_code == 0
    after = game.read_bytes()
    add_to_maildir(box, mail(ADDRESSES[nation], subject="did you get it?", body=text, message_id="<again@p>"))
    assert run(cfg, box, folder / "o2", "2026-11-23T10:05:00Z").exit_code == 0
    assert game.read_bytes() == after
    (answer,) = sent(folder / "o2")
    assert "already applied" in str(answer["Subject"]) and "entry 1" in str(answer["Subject"])
    assert "NOT" not in str(answer["Subject"])
    # also when the ledger that remembers the first mail is gone (the stored orders are compared)
    (game.parent / "game.mail.json").unlink()
    box = maildir(folder / "M2", mail(ADDRESSES[nation], body=text, message_id="<third@p>"))
    assert run(cfg, box, folder / "o3", "2026-11-23T10:10:00Z").exit_code == 0
    assert [str(m["Subject"]) for m in sent(folder / "o3")] == ["[demo] already applied: turn 1 (entry 1)"]
    # other orders for the same turn are still refused with their reason
    add_to_maildir(box, mail(ADDRESSES[nation], body=text.replace("gold", "iron"), message_id="<fourth@p>"))
    assert run(cfg, box, folder / "o4", "2026-11-23T10:15:00Z").exit_code == 0
    (refused,) = sent(folder / "o4")
    assert "NOT accepted" in str(refused["Subject"])
    assert game.read_bytes() == after


def test_orders_after_a_default_turn_say_that_it_was_played(table):
    folder, game, cfg = table
    box = maildir(folder / "M")
    assert run(cfg, box, folder / "o0").exit_code == 0
    late = active(game)
    assert run(cfg, box, folder / "o1", "2026-11-25T10:00:00Z").exit_code == 0  # the deadline: default turn
    assert json.loads(game.read_text())["history"][-1]["kind"] == "default-turn"
    after = game.read_bytes()
    add_to_maildir(box, mail(ADDRESSES[late], body=f"game demo\nnation {late}\nturn 1\npassword pw-{late}\n"
                                                   "rondel gold\n"))
    assert run(cfg, box, folder / "o2", "2026-11-25T10:05:00Z").exit_code == 0
    assert game.read_bytes() == after
    (answer,) = sent(folder / "o2")
    text = " ".join(body(answer).split())
    assert "turn 1 of the" in text and "was played already by the GM's default turn" in text
    assert "after the deadline Wed 25 Nov 2026, 10:00 UTC had passed" in text and "came too late" in text


def test_report_words_bullets_headings_and_the_gms_digest(table):
    folder, game, cfg = table
    box = maildir(folder / "M")
    assert run(cfg, box, folder / "o0").exit_code == 0
    (gm_opening,) = [m for m in sent(folder / "o0") if GM in str(m["To"])]
    assert "report for the GM" in body(gm_opening) and "report for ." not in body(gm_opening)
    for turn in (1, 2):
        nation = active(game)
        add_to_maildir(box, mail(ADDRESSES[nation], body=f"game demo\nnation {nation}\nturn {turn}\n"
                                                         f"password pw-{nation}\nrondel gold\n"))
        assert run(cfg, box, folder / f"t{turn}", f"2026-11-23T1{turn}:00:00Z").exit_code == 0
    mover = json.loads(game.read_text())["history"][-1]["nation"]
    reports = [m for m in sent(folder / "t2") if "after turn 2" in str(m["Subject"])]
    own = next(m for m in reports if ADDRESSES[mover] in str(m["To"]))
    assert "What happened" not in body(own)  # nothing since their own turn: no empty heading
    gm = next(m for m in reports if GM in str(m["To"]))
    assert "Turn 2:" in body(gm) and "Turn 1:" not in body(gm) and "The game is set up" not in body(gm)
    for m in reports:  # a bullet wrapped over two lines is written once
        lines = body(m).splitlines()
        assert not any(line.startswith("  -   ") for line in lines)


def test_a_wrapped_bullet_is_indented_under_its_text():
    from pbem.mail.writing import wrap as _wrap

    lines = _wrap("word " * 40, "  - ")
    assert lines[0].startswith("  - ") and len(lines) > 2
    assert all(line.startswith("    ") and not line.startswith("    -") for line in lines[1:])


# -- 7. paths and cron -------------------------------------------------------------------


def test_paths_in_the_configuration_are_relative_to_it(tmp_path, monkeypatch):
    home = tmp_path / "antike"
    (home / "games").mkdir(parents=True)
    game = game_with_players(home / "games")
    maildir(home / "Maildir")
    secret = home / "smtp-password"
    secret.write_text("s3cret\n")
    secret.chmod(0o600)
    (home / "mail.toml").write_text(
        '[mail]\nfrom = "Referee <referee@referee.example>"\nsource = "Maildir"\n\n'
        '[smtp]\nhost = "localhost"\npassword_file = "smtp-password"\nca_file = "ca.pem"\n\n'
        '[[game]]\nfile = "games/game.json"\n', encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    from pbem.mail.config import load_config

    cfg = load_config(Path("..") / "antike" / "mail.toml")
    assert cfg.games[0].file == game.resolve() or cfg.games[0].file.resolve() == game.resolve()
    assert Path(cfg.source).resolve() == (home / "Maildir").resolve()
    assert Path(cfg.smtp.password.file).resolve() == secret.resolve()
    assert Path(cfg.smtp.ca_file).resolve() == (home / "ca.pem").resolve()
    assert cfg.smtp.password.read("SMTP") == "s3cret"
    # the whole cycle from another folder: the mailbox and the game are found
    result = cli_run("mail", "run", "--config", Path("..") / "antike" / "mail.toml",
                     "--outbox", tmp_path / "out", "--now", START)
    assert result.exit_code == 0, result.stderr
    assert len(sent(tmp_path / "out")) == 4


def test_the_cron_line_is_absolute_and_runs_from_anywhere(table, tmp_path):
    folder, game, cfg = table
    exe = Path(os.environ.get("VIRTUAL_ENV", "")) / "bin" / "antike-ref"
    if not exe.is_file():
        import sys

        exe = Path(sys.executable).with_name("antike-ref")
    done = subprocess.run([str(exe), "mail", "cron-line", "--config", str(cfg)], capture_output=True, text=True,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    line = done.stdout.strip()
    schedule, command = line[:12], line[12:]
    assert schedule == "*/5 * * * * "
    assert f"cd {shlex.quote(str(cfg.parent))} && {exe.absolute()} mail run --config {cfg.absolute()}" in command
    assert command.endswith(f">> {cfg.parent / 'mail.log'} 2>&1")
    # cron runs it with a bare environment, from the home folder: point the cycle at an outbox
    maildir(folder / "M")
    cfg.write_text(cfg.read_text().replace("[mail]\n", '[mail]\nsource = "M"\n'), encoding="utf-8")
    assert cli_run("mail", "cron-line", "--config", cfg).exit_code == 0
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "ANTIKE_REF_KDF_ITERATIONS": "1000"}
    subprocess.run(["/bin/sh", "-c", command.replace(" mail run ", f" mail run --outbox {folder / 'cron-out'} ")],
                   cwd="/", env=env, check=True)
    assert len(sent(folder / "cron-out")) == 5
    assert "delivered 5" in (cfg.parent / "mail.log").read_text()


def test_a_bad_configuration_makes_no_cron_line(tmp_path):
    bad = tmp_path / "mail.toml"
    bad.write_text("[mail\n", encoding="utf-8")
    assert cli_run("mail", "cron-line", "--config", bad).exit_code == 3
    assert cli_run("mail", "cron-line", "--config", tmp_path / "missing.toml").exit_code == 3


# -- 8. Duellum's options in the text syntax -------------------------------------------------


def test_duellum_options_in_a_mail_are_written_in_the_text_syntax(tmp_path):
    from conftest import new_game_file

    players = ("--player", "romans=Ann <ann@players.example>", "--player", "carthaginians=Ben <ben@players.example>")
    game = new_game_file(tmp_path, "--edition", "duellum", "--id", "duel", *players,
                         nations=["romans", "carthaginians"])
    cfg = config(tmp_path, game, defaults='attach = ""')
    assert run(cfg, maildir(tmp_path / "M"), tmp_path / "out").exit_code == 0
    on_turn = {"romans": "ann@players.example", "carthaginians": "ben@players.example"}[active(game)]
    mine = next(m for m in sent(tmp_path / "out") if on_turn in str(m["To"]))
    text = body(mine)
    options = text[text.index("What you can do"):text.index("A start:")]
    assert '"' + "walls" + '"' not in options and "{" not in options and "[" not in options
    assert 'a line "wall CITY"' in " ".join(options.split())
    assert 'a line "recruit N legions M galleys"' in " ".join(options.split())


def test_the_options_command_keeps_the_order_file_hints(tmp_path):
    from conftest import new_game_file

    game = new_game_file(tmp_path, "--edition", "duellum", "--id", "duel", nations=["romans", "carthaginians"])
    shown = cli_run("options", game)
    assert shown.exit_code == 0
    assert '"walls": [{"city": P}]' in " ".join(shown.stdout.split())


# -- 9. links ---------------------------------------------------------------------------------


def test_mails_link_the_games_web_page_and_reports_the_pictures(tmp_path):
    game = game_with_players(tmp_path)
    cfg = config(tmp_path, game, defaults='attach = "md"\nsite = "https://example.org/antike/demo"\n'
                                          'image_base = "https://example.org/antike/demo/pictures"')
    assert run(cfg, maildir(tmp_path / "M"), tmp_path / "out").exit_code == 0
    for m in sent(tmp_path / "out"):
        text = " ".join(body(m).split())
        assert "https://example.org/antike/demo/ (this report: https://example.org/antike/demo/entry-000.html)" in text
        (md,) = [p.get_content() for p in m.iter_attachments()]
        assert "https://example.org/antike/demo/pictures/demo-turn-000.png" in md


@pytest.mark.parametrize("key", ["site", "image_base"])
def test_a_link_that_is_not_a_web_address_is_refused(tmp_path, key):
    game = game_with_players(tmp_path)
    cfg = config(tmp_path, game, defaults=f'{key} = "javascript:alert(1)"')
    result = run(cfg, maildir(tmp_path / "M"), tmp_path / "out")
    assert result.exit_code == 2 and key in result.stderr
    assert not (tmp_path / "game.mail.json").exists()


@pytest.mark.parametrize("command", [["default-turn", "{nation}"], ["bot", "--apply"]])
def test_image_base_on_every_command_that_writes_reports(tmp_path, command):
    game = game_with_players(tmp_path)
    args = [a.format(nation=active(game)) for a in command]
    done = cli_run(*args[:1], game, *args[1:], "--report-dir", tmp_path / "r", "--format", "md",
                   "--image-base", "https://example.org/pics")
    assert done.exit_code == 0, done.stderr
    (md,) = (tmp_path / "r").glob("*.md")
    assert "https://example.org/pics/demo-turn-001.png" in md.read_text()
    before = game.read_bytes()
    bad = cli_run(*args[:1], game, *args[1:], "--image-base", "ftp://x")
    assert bad.exit_code == 2 and game.read_bytes() == before
