"""A mail the SMTP server refuses on its own (a size limit, a recipient it will not take)
never holds up the rest of the queue: the others go out, the refused one is tried again
after a back-off, and after the last try it is given up and the GM is told. Against the
real aiosmtpd server of tests/mail/servers/mailservers.py."""

from __future__ import annotations

import json

from conftest import cli_run
from mailkit import ADDRESSES, GM, game_with_players, maildir, server_config


def mail_config(folder, game, smtp):
    return server_config(folder, game, smtp, extra='attach = ""\n')


def test_a_refused_mail_waits_the_others_go_and_the_gm_is_told_in_the_end(tmp_path, smtp_server, monkeypatch):
    monkeypatch.setenv("TEST_SMTP_PASSWORD", smtp_server.password)
    game = game_with_players(tmp_path)
    cfg = mail_config(tmp_path, game, smtp_server)
    box = maildir(tmp_path / "M")
    greeks = ADDRESSES["greeks"].encode()
    smtp_server.refuse = lambda raw: "552 5.3.4 Message size exceeds fixed limit" if greeks in raw else None

    def cycle(now):
        return cli_run("mail", "run", "--config", cfg, "--source", box, "--now", now)

    first = cycle("2026-11-23T10:00:00Z")
    assert first.exit_code == 7 and "552" in first.stderr and "tried again later" in first.stderr
    got = smtp_server.wait_for(4)
    assert sorted(a for r in got for a in r.envelope_to) == sorted(
        [a for n, a in ADDRESSES.items() if n != "greeks"] + [GM])  # the queue was not held up
    queue = tmp_path / "game.mail-queue"
    (waiting,) = queue.glob("*.eml")
    assert json.loads((queue / (waiting.name + ".tries")).read_text())["count"] == 1
    smtp_server.clear()
    smtp_server.refuse = lambda raw: "552 5.3.4 Message size exceeds fixed limit" if greeks in raw else None
    quiet = cycle("2026-11-23T10:05:00Z")  # within the back-off: not tried, nothing to say
    assert quiet.exit_code == 0 and smtp_server.messages == []
    # the later tries, each after its back-off; the last one gives up and tells the GM
    for now in ("2026-11-23T10:11:00Z", "2026-11-23T11:12:00Z", "2026-11-23T17:13:00Z"):
        assert cycle(now).exit_code == 7
    last = cycle("2026-11-24T17:14:00Z")
    assert last.exit_code == 7 and "given up" in last.stderr
    (notice,) = smtp_server.wait_for(1)
    assert notice.envelope_to == [GM] and "could not be delivered" in str(notice.message["Subject"])
    assert "552" in notice.message.get_body(("plain",)).get_content()
    assert not list(queue.glob("*.eml")) and len(list((queue / "undeliverable").glob("*.eml"))) == 1
    smtp_server.clear()
    assert cycle("2026-11-25T10:00:00Z").exit_code == 0 and smtp_server.messages == []
