"""Commands by mail and press between players (docs/mail.md, "Commands by mail", "Press"):
each command answered to the registered address only, none a history entry unless it
changes the game, press passed on with every address hidden."""

from __future__ import annotations

import json

import pytest

from conftest import cli_run
from mailkit import (
    ADDRESSES,
    GM,
    active,
    add_to_maildir,
    body,
    config,
    desk_table,
    game_with_players,
    mail,
    maildir,
    sent,
    text,
    to_of,
)

T0 = "2026-11-23T10:00:00Z"
_minute = [0]


@pytest.fixture
def desk(tmp_path):
    return desk_table(tmp_path, _minute)


def only_to(messages, address):
    assert [to_of(m).split("<")[-1].rstrip(">") for m in messages] == [address], [to_of(m) for m in messages]
    return messages[0]


def test_help_status_options_history(desk):
    folder, game, cfg, cycle = desk
    before = game.read_bytes()
    out = cycle(mail(ADDRESSES["greeks"], subject="help", body="Hi,\nHELP\nSTATUS\nOPTIONS\nHISTORY 2\nThanks\n"))
    answer = only_to(out, ADDRESSES["greeks"])
    words = text(answer)
    for command in ("HELP", "STATUS", "OPTIONS", "HISTORY 2"):
        assert command in str(answer["Subject"]) or command in words
    assert "PRESS: a message to other players" in words and "ABSENT UNTIL 2026-12-14" in words
    assert "The Greeks hold" in words and "score 0 of" in words
    assert "Deadline for turn 1:" in words
    assert "It is not your turn: turn 1 is the Phoenicians'" in words
    assert "#0 The game is set up" in words
    assert game.read_bytes() == before  # no history entry
    on_turn = cycle(mail(ADDRESSES[active(game)], body="options"))
    assert "What you can do" in body(only_to(on_turn, ADDRESSES[active(game)]))


def test_resend_sends_the_pdf_a_player_asks_for(desk):
    folder, game, cfg, cycle = desk
    out = cycle(mail(ADDRESSES["arabs"], body="RESEND pdf png\n"))
    answer = only_to(out, ADDRESSES["arabs"])
    kinds = sorted(p.get_content_type() for p in answer.iter_attachments())
    assert kinds == ["application/pdf", "image/png"]
    assert next(p for p in answer.iter_attachments() if p.get_content_type() == "application/pdf").get_content()[:5] \
        == b"%PDF-"
    refused = cycle(mail(ADDRESSES["arabs"], body="RESEND 7\n"))
    assert "has not been played" in text(only_to(refused, ADDRESSES["arabs"]))


def test_unknown_commands_get_did_you_mean_and_the_list(desk):
    folder, game, cfg, cycle = desk
    out = cycle(mail(ADDRESSES["greeks"], body="STAUTS\n"))
    words = text(only_to(out, ADDRESSES["greeks"]))
    assert "did you mean STATUS?" in words and "HELP, STATUS, RESEND" in words
    between = cycle(mail(ADDRESSES["greeks"], body="STATUS\nHISTROY 3\nHELP\n"))
    words = text(only_to(between, ADDRESSES["greeks"]))
    assert "Nothing was done" in words and "did you mean HISTORY?" in words
    assert cycle(mail("stranger@elsewhere.example", body="STATUS\n")) == []


def test_password_needs_the_password_and_gives_a_new_one(desk):
    folder, game, cfg, cycle = desk
    before = game.read_bytes()
    refused = cycle(mail(ADDRESSES["greeks"], body="PASSWORD\n"))
    assert "needs your password" in text(only_to(refused, ADDRESSES["greeks"]))
    assert game.read_bytes() == before
    out = cycle(mail(ADDRESSES["greeks"], body="password pw-greeks\nPASSWORD\n"))
    answer = next(m for m in out if "PASSWORD" in str(m["Subject"]))
    assert to_of(answer) == ADDRESSES["greeks"]
    new = next(line.split(": ", 1)[1] for line in body(answer).splitlines() if "Your new password" in line).strip()
    history = json.loads(game.read_text())["history"]
    assert history[-1]["kind"] == "gm-edit" and "greeks" in history[-1]["identities"]
    secrets = json.loads((folder / "game.secrets.json").read_text())
    assert secrets["greeks"] == new
    assert cli_run("verify", game).exit_code == 0


def test_address_is_confirmed_from_the_new_address_and_keeps_the_password(desk):
    folder, game, cfg, cycle = desk
    out = cycle(mail(ADDRESSES["greeks"], body="password pw-greeks\nADDRESS dora@new.example\n"))
    code_mail = next(m for m in out if "dora@new.example" in to_of(m))
    code = next(line.split()[-1] for line in body(code_mail).splitlines() if line.strip().startswith("CONFIRM"))
    told = next(m for m in out if ADDRESSES["greeks"] in to_of(m))
    assert "A code went to dora@new.example" in text(told)
    assert json.loads(game.read_text())["nations"]["greeks"]["email"] == ADDRESSES["greeks"]
    wrong = cycle(mail("dora@new.example", body="CONFIRM 0000000000\n"))
    assert wrong == []  # a wrong code from an address nobody plays: a stranger's mail
    done = cycle(mail("dora@new.example", subject="yes", body=f"CONFIRM {code}\n"))
    assert any("Done: you play the Greeks from dora@new.example" in text(m) for m in done)
    assert any(ADDRESSES["greeks"] in to_of(m) and "new address" in str(m["Subject"]) for m in done)
    data = json.loads(game.read_text())
    assert data["nations"]["greeks"]["email"] == "dora@new.example"
    idle = next(n for n in ADDRESSES if n != active(game) and n != "greeks")
    # the password is the same; orders are taken from the new address only
    standing = cycle(mail("dora@new.example", body="game demo\nnation greeks\npassword pw-greeks\n"
                                                   "standing battle never\n"))
    assert any("accepted" in str(m["Subject"]) for m in standing)
    assert idle


def test_absent_and_back_by_mail(desk):
    folder, game, cfg, cycle = desk
    out = cycle(mail(ADDRESSES["persians"], body="password pw-persians\nABSENT UNTIL 2026-12-01 skiing\n"))
    answer = next(m for m in out if ADDRESSES["persians"] in to_of(m) and "ABSENT" in str(m["Subject"]))
    assert "you are away from Mon 23 Nov 2026 to Tue 01 Dec 2026" in text(answer)
    ledger = json.loads((folder / "game.clock.json").read_text())
    assert ledger["absences"][0]["by"] == "player" and ledger["absences"][0]["reason"] == "skiing"
    notices = [m for m in out if "news of the game" in str(m["Subject"])]  # the same run tells everyone
    assert len(notices) == 6 and all("The Persians are away" in text(m) for m in notices)
    assert all("skiing" not in body(m) for m in notices)
    back = cycle(mail(ADDRESSES["persians"], body="password pw-persians\nBACK\n"))
    assert any("Welcome back" in text(m) for m in back)
    assert not json.loads((folder / "game.clock.json").read_text()).get("absences")


def test_press_to_one_and_to_all_hides_every_address(desk):
    folder, game, cfg, cycle = desk
    out = cycle(mail(ADDRESSES["arabs"], subject="psst", body="Hi,\npassword pw-arabs\nPRESS TO persians\n"
                                                               "Shall we share Babylon?\n"
                                                               "Yours, Cem\n"))
    press = [m for m in out if "press from the Arabs" in str(m["Subject"])]
    assert len(press) == 1 and str(press[0]["To"]).endswith(f"<{ADDRESSES['persians']}>")
    assert "Shall we share Babylon?" in body(press[0]) and "Yours, Cem" in body(press[0])
    for m in out:
        assert ADDRESSES["arabs"] not in body(m) or to_of(m).endswith(ADDRESSES["arabs"])
    receipt = next(m for m in out if to_of(m) == ADDRESSES["arabs"])
    assert "Sent to Persians" in text(receipt) and "no address was shown" in text(receipt)
    everyone = cycle(mail(ADDRESSES["arabs"], body="PRESS TO all\nThe Arabs wish everyone a good game.\n"
                                                     "password pw-arabs\n"))
    to = sorted(to_of(m).split("<")[-1].rstrip(">") for m in everyone if "press from" in str(m["Subject"]))
    assert to == sorted([ADDRESSES["greeks"], ADDRESSES["persians"], ADDRESSES["phoenicians"], "olga@watch.example"])
    log = [json.loads(line) for line in (folder / "game.press.jsonl").read_text().splitlines()]
    assert [(e["from"], e["to"], e["public"]) for e in log] == [("arabs", ["persians"], False), ("arabs", "all", True)]
    from pbem.service.press import read_press

    assert [e["text"] for e in read_press(game)] == ["The Arabs wish everyone a good game."]


@pytest.mark.parametrize("policy, order, refused", [("none", "PRESS TO persians", "no press in this game"),
                                                    ("broadcast-only", "PRESS TO persians", "to all only"),
                                                    ("open", "PRESS TO atlantis", "no nation of this game"),
                                                    ("open", "PRESS TO all", "the message is missing")])
def test_press_the_game_does_not_allow_is_refused(desk, policy, order, refused):
    folder, game, cfg, cycle = desk
    message = "" if "missing" in refused else "\nhello\n"
    out = cycle(mail(ADDRESSES["arabs"], body="password pw-arabs\n" + order + message),
                extra_config=f'press = "{policy}"\n')
    answer = only_to(out, ADDRESSES["arabs"])
    assert refused in text(answer)
    assert not (folder / "game.press.jsonl").exists()


def test_other_mail_goes_to_the_gm_if_asked_and_refusals_are_copied(desk):
    folder, game, cfg, cycle = desk
    assert cycle(mail(ADDRESSES["greeks"], subject="hello", body="Shall we meet on Friday?\n")) == []
    forwarded = cycle(mail(ADDRESSES["greeks"], subject="question", body="Can I play two nations?\n"),
                      extra_config="forward = true\ngm_copies = \"refusals\"\n")
    to_gm = only_to(forwarded, GM)
    assert "Can I play two nations?" in body(to_gm) and to_gm["Reply-To"] == ADDRESSES["greeks"]
    nation = active(game)
    refused = cycle(mail(ADDRESSES[nation], body=f"game demo\nnation {nation}\nturn 1\npassword nope\nrondel gold\n"))
    assert sorted(to_of(m).split("<")[-1].rstrip(">") for m in refused) == sorted([ADDRESSES[nation], GM])
    copy = next(m for m in refused if GM in to_of(m))
    assert "[copy]" in str(copy["Subject"]) and "wrong password" in body(copy)


def test_the_opening_mail_carries_each_players_password_once(tmp_path):
    game = game_with_players(tmp_path)
    cfg = config(tmp_path, game, defaults='attach = ""')
    cfg.write_text(cfg.read_text().replace("[mail]\n", '[mail]\nguide_url = "https://example.org/how-to-play"\n'))
    box = maildir(tmp_path / "M")
    assert cli_run("mail", "run", "--config", cfg, "--source", box, "--outbox", tmp_path / "o1",
                   "--now", T0).exit_code == 0
    for m in sent(tmp_path / "o1"):
        words = text(m)
        nation = next((n for n, a in ADDRESSES.items() if a in to_of(m)), None)
        if nation is None:
            assert "password" not in words.lower()  # the GM's and the observers' mails carry none
            continue
        assert f"Your password ({nation.capitalize()}: pw-{nation})" in words
        assert "How to play by mail: https://example.org/how-to-play" in words
        assert all(f"pw-{n}" not in words for n in ADDRESSES if n != nation)
    nation = active(game)
    add_to_maildir(box, mail(ADDRESSES[nation], body=f"game demo\nnation {nation}\nturn 1\npassword pw-{nation}\n"
                                                     "rondel gold\n"))
    assert cli_run("mail", "run", "--config", cfg, "--source", box, "--outbox", tmp_path / "o2",
                   "--now", "2026-11-23T10:05:00Z").exit_code == 0
    assert all("pw-" not in body(m) for m in sent(tmp_path / "o2"))


def test_a_player_moves_address_keeping_the_password_and_the_replaced_player_is_told(tmp_path):
    game = game_with_players(tmp_path)
    cfg = config(tmp_path, game, defaults='attach = ""')
    moved = cli_run("player", game, "greeks", "--player", "Dora <dora@new.example>", "--keep-password",
                    "--reason", "Dora moved", "--config", cfg, "--outbox", tmp_path / "o1", "--now", T0)
    assert moved.exit_code == 0, moved.stderr
    out = sent(tmp_path / "o1")
    welcome = only_to([m for m in out if "dora@new.example" in to_of(m)], "dora@new.example")
    assert "your password is the one you had" in text(welcome) and "pw-greeks" not in body(welcome)
    farewell = only_to([m for m in out if ADDRESSES["greeks"] in to_of(m)], ADDRESSES["greeks"])
    assert "moved the Greeks" in text(farewell)
    assert json.loads((tmp_path / "game.secrets.json").read_text())["greeks"] == "pw-greeks"
    replaced = cli_run("player", game, "greeks", "--player", "Bea <bea@other.example>", "--reason", "Dora left",
                       "--config", cfg, "--outbox", tmp_path / "o2", "--now", T0)
    assert replaced.exit_code == 0, replaced.stderr
    out = sent(tmp_path / "o2")
    assert "no longer play them" in text(only_to([m for m in out if "dora@new.example" in to_of(m)],
                                                 "dora@new.example"))
    new = json.loads((tmp_path / "game.secrets.json").read_text())["greeks"]
    assert new != "pw-greeks" and new in body(only_to([m for m in out if "bea@" in to_of(m)], "bea@other.example"))
    assert cli_run("verify", game).exit_code == 0


def test_public_press_is_on_the_games_web_page_and_private_press_is_not(desk):
    folder, game, cfg, cycle = desk
    cycle(mail(ADDRESSES["arabs"], body="password pw-arabs\nPRESS TO all\nPeace to all <cem@players.example>.\n"),
          mail(ADDRESSES["greeks"], body="password pw-greeks\nPRESS TO persians\nOur secret plan.\n"))
    assert cli_run("site", game, folder / "www").exit_code == 0
    index = (folder / "www" / "index.html").read_text()
    assert "Peace to all" in index and "Our secret plan" not in index
    assert "cem@players.example" not in index and "<h2>Press</h2>" in index
    assert "pw-arabs" not in index  # the password that signed the press


def test_a_run_that_goes_well_clears_the_last_error(desk, monkeypatch):
    from pbem.mail import transport

    folder, game, cfg, cycle = desk

    def down(self, path, data):
        raise transport.MailServerError("SMTP down")

    with monkeypatch.context() as patched:
        patched.setattr(transport.Transport, "_send", down)
        cfg.write_text(cfg.read_text())
        add_to_maildir(folder / "M", mail(ADDRESSES["greeks"], body="STATUS\n"))
        result = cli_run("mail", "run", "--config", cfg, "--source", folder / "M", "--outbox", folder / "x",
                         "--now", "2026-11-23T15:00:00Z")
        assert result.exit_code == 7
    assert "SMTP down" in json.loads((folder / "game.clock.json").read_text())["last_error"]["what"]
    cycle()
    assert "last_error" not in json.loads((folder / "game.clock.json").read_text())
