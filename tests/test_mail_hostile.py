"""The mail cycle against strangers and a broken machine: mail built to hurt, headers and
names with line breaks, planted links, full disks. One bad mail never stops the cycle,
never loses a valid mail and never costs memory without bound; an error of ours or of the
machine is never the player's refusal."""

from __future__ import annotations

import json

import pytest
from mailkit import ADDRESSES, GM, START, add_to_maildir, body, config, game_with_players, mail, maildir, sent

from conftest import cli_run, new_game_file


def active(game):
    return json.loads(game.read_text())["status"]["active"]


def run(cfg, box, outbox, now=START, *extra):
    return cli_run("mail", "run", "--config", cfg, "--source", box, "--outbox", outbox, "--now", now, *extra)


@pytest.fixture
def table(tmp_path):
    game = game_with_players(tmp_path)
    cfg = config(tmp_path, game, defaults='attach = ""')
    return tmp_path, game, cfg


# -- line breaks in headers and names -------------------------------------------------------


def test_an_encoded_line_break_in_a_subject_is_answered_on_one_line(table):
    folder, game, cfg = table
    box = maildir(folder / "M")
    assert run(cfg, box, folder / "o0").exit_code == 0
    nation = active(game)
    raw = mail(ADDRESSES[nation], subject="x", body=f"game demo\nnation {nation}\nturn 1\npassword wrong\nrondel gold\n")
    raw = raw.replace(b"Subject: x", b"Subject: =?utf-8?q?my_orders=0D=0ABcc:_eve@evil.example?=")
    add_to_maildir(box, raw)
    result = run(cfg, box, folder / "o1", "2026-11-23T10:05:00Z")
    assert result.exit_code == 0, result.stdout + result.stderr
    (answer,) = sent(folder / "o1")
    assert "NOT accepted" in str(answer["Subject"]) and "\n" not in str(answer["Subject"])
    assert answer["Bcc"] is None and "eve@evil.example" not in str(answer["To"])
    again = run(cfg, box, folder / "o2", "2026-11-23T10:10:00Z")  # and every later run is as calm
    assert again.exit_code == 0 and sent(folder / "o2") == []


def test_a_name_with_a_line_break_in_a_hand_edited_game_never_stops_the_reports(table):
    folder, game, cfg = table
    data = json.loads(game.read_text())
    data["nations"]["greeks"]["player"] = "Dora\r\nBcc: eve@evil.example"
    data["nations"]["arabs"]["email"] = "cem@players.example, eve@evil.example"
    game.write_text(json.dumps(data, indent=1), encoding="utf-8")
    result = run(cfg, maildir(folder / "M"), folder / "out")
    assert result.exit_code == 0, result.stdout + result.stderr
    out = sent(folder / "out")
    assert len(out) == 4  # three players and the GM: the arabs' two-address entry gets nothing
    from email.utils import getaddresses

    for m in out:  # the addresses the transport sends to: the registered ones, nothing else
        assert m["Bcc"] is None and m["Cc"] is None
        assert [a for _, a in getaddresses([str(m["To"])])] in ([a] for a in [*ADDRESSES.values(), GM])
    dora = next(m for m in out if ADDRESSES["greeks"] in str(m["To"]))
    assert "\n" not in str(dora["To"]) and "Dora" in str(dora["To"])
    assert "no single address" in result.stdout


@pytest.mark.parametrize("who", ["Ann <ann@players.example, eve@evil.example>", "Ann <ann@players.example,eve@x.example>",
                                 "Ann\nBcc: eve@evil.example <ann@players.example>", "Ann <ann @players.example>"])
def test_new_and_player_refuse_a_name_or_address_that_is_not_one(tmp_path, who):
    refused = cli_run("new", tmp_path / "g.json", "--nations", "persians,phoenicians,arabs,greeks",
                      "--player", f"persians={who}")
    assert refused.exit_code == 2 and "one address" in refused.stderr
    assert not (tmp_path / "g.json").exists()
    game = new_game_file(tmp_path, "--id", "demo")
    before = game.read_bytes()
    changed = cli_run("player", game, "greeks", "--player", who)
    assert changed.exit_code == 2 and game.read_bytes() == before


@pytest.mark.parametrize("line", ['gm = "gm@referee.example, eve@evil.example"', 'from = "Ref\\r\\nBcc: x@y <r@x.org>"'])
def test_a_configuration_with_two_addresses_in_one_is_refused(tmp_path, line):
    game = game_with_players(tmp_path)
    cfg = tmp_path / "mail.toml"
    cfg.write_text(f'[mail]\n{line}\n\n[[game]]\nfile = "{game.name}"\n', encoding="utf-8")
    result = cli_run("mail", "run", "--config", cfg, "--outbox", tmp_path / "out", "--now", START)
    assert result.exit_code == 2 and "one address" in result.stderr
