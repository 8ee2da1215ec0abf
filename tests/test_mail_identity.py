"""Identity is not a replacement (issue 38, item 3): a new password, an address moved by
mail and ``player --keep-password`` are told to the player and the GM only (no report round
to everyone, no "the GM replaced the player", nothing public about a password); a real new
player is told to all as before (docs/mail.md, "Commands by mail", "A new player")."""

from __future__ import annotations

import json

import pytest
from mailkit import ADDRESSES, GM, add_to_maildir, body, config, game_with_players, mail, maildir, sent

from conftest import cli_run

T0 = "2026-11-23T10:00:00Z"
_minute = [0]


@pytest.fixture
def desk(tmp_path):
    game = game_with_players(tmp_path)
    cfg = config(tmp_path, game, defaults='deadline = "48h"\nattach = "txt"\nobservers = ["Olga <olga@watch.example>"]')
    box = maildir(tmp_path / "M")

    def cycle(*mails):
        add_to_maildir(box, *mails)
        _minute[0] += 5
        out = tmp_path / f"o{_minute[0]}"
        now = f"2026-11-23T{10 + _minute[0] // 60 % 12:02d}:{_minute[0] % 60:02d}:00Z"
        result = cli_run("mail", "run", "--config", cfg, "--source", box, "--outbox", out, "--now", now)
        assert result.exit_code == 0, result.stdout + result.stderr
        return sent(out)

    cycle()  # the opening reports
    return tmp_path, game, cfg, cycle


def to(message) -> str:
    return str(message["To"]).split("<")[-1].rstrip(">")


def everything(message) -> str:
    """A mail's text with every text attachment (the report files)."""
    parts = [body(message)] + [p.get_content() for p in message.iter_attachments()
                               if p.get_content_type().startswith("text/")]
    return "\n".join(parts)


def public(messages, *own) -> list:
    """The mails to anyone but ``own`` addresses and the GM."""
    return [m for m in messages if to(m) not in (*own, GM)]


def test_a_new_password_by_mail_is_told_to_the_player_and_the_gm_only(desk):
    folder, game, cfg, cycle = desk
    out = cycle(mail(ADDRESSES["greeks"], body="password pw-greeks\nPASSWORD\n"))
    assert public(out, ADDRESSES["greeks"]) == []  # no report round to everyone
    notice = next(m for m in out if to(m) == GM)
    assert "Greeks" in body(notice) and "new password" in body(notice)
    new = json.loads((folder / "game.secrets.json").read_text())["greeks"]
    assert new not in body(notice)
    # what the others can read of the game says nothing of it
    history = cycle(mail(ADDRESSES["arabs"], body="HISTORY 3\nRESEND txt\n"))
    for m in history:
        text = everything(m).lower()
        assert "password" not in text.replace("password ...", "") and "replaced" not in text
    assert cli_run("verify", game).exit_code == 0
    entry = json.loads(game.read_text())["history"][-1]
    assert entry["identities"]["greeks"]["change"] == "password" and entry["events"] == []


def test_an_address_moved_by_mail_is_told_to_the_player_and_the_gm_only(desk):
    folder, game, cfg, cycle = desk
    out = cycle(mail(ADDRESSES["greeks"], body="password pw-greeks\nADDRESS dora@new.example\n"))
    code = next(line.split()[-1] for m in out if to(m) == "dora@new.example"
                for line in body(m).splitlines() if line.strip().startswith("CONFIRM"))
    done = cycle(mail("dora@new.example", body=f"CONFIRM {code}\n"))
    assert public(done, "dora@new.example", ADDRESSES["greeks"]) == []
    assert any(to(m) == GM and "dora@new.example" in body(m) for m in done)
    assert not any("replaced" in everything(m) for m in done)
    entry = json.loads(game.read_text())["history"][-1]
    assert entry["identities"]["greeks"]["change"] == "address"


def test_keep_password_is_no_replacement_and_a_new_player_is_told_to_all(desk):
    folder, game, cfg, cycle = desk
    moved = cli_run("player", game, "greeks", "--player", "Dora <dora@new.example>", "--keep-password",
                    "--reason", "Dora moved", "--config", cfg, "--outbox", folder / "p1", "--now", T0)
    assert moved.exit_code == 0, moved.stderr
    out = cycle()
    assert public(out, "dora@new.example") == [] and [to(m) for m in out] == [GM]
    assert "replaced" not in body(out[0])
    replaced = cli_run("player", game, "greeks", "--player", "Bea <bea@other.example>", "--reason", "Dora left",
                       "--config", cfg, "--outbox", folder / "p2", "--now", T0)
    assert replaced.exit_code == 0, replaced.stderr
    out = cycle()
    told = public(out, "bea@other.example")
    assert sorted(to(m) for m in told) == sorted([ADDRESSES["arabs"], ADDRESSES["persians"],
                                                  ADDRESSES["phoenicians"], "olga@watch.example"])
    assert all("Greeks are now played by Bea (the GM replaced the player)" in " ".join(body(m).split())
               for m in told)
    assert cli_run("verify", game).exit_code == 0


def test_a_hand_edited_change_that_hides_a_new_player_is_refused(desk):
    folder, game, cfg, cycle = desk
    replaced = cli_run("player", game, "greeks", "--player", "Bea <bea@other.example>", "--reason", "Dora left")
    assert replaced.exit_code == 0
    data = json.loads(game.read_text())
    data["history"][-1]["identities"]["greeks"]["change"] = "password"
    game.write_text(json.dumps(data))
    result = cli_run("verify", game)
    assert result.exit_code != 0 and "change" in result.stdout + result.stderr
