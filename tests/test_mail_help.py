"""Players know what they can do (issue 38, item 4): every mail to a player or an observer
ends with one line on HELP (and the GM's guide, where ``guide_url`` is set), the opening
mail lists the commands, and docs/playing.md has a chapter on playing by mail."""

from __future__ import annotations

import re
from pathlib import Path

from mailkit import ADDRESSES, GM, add_to_maildir, body, config, game_with_players, mail, maildir, sent

from conftest import cli_run

HELP = "Mail the referee HELP for every command you can send."
GUIDE = "https://example.org/how-to-play"


def last_line(message) -> str:
    return [line for line in body(message).splitlines() if line.strip()][-1]


def to(message) -> str:
    return str(message["To"]).split("<")[-1].rstrip(">")


def test_every_mail_to_a_player_or_an_observer_ends_with_one_line_on_help(tmp_path):
    from pbem.mail.commands import WORDS

    game = game_with_players(tmp_path)
    cfg = config(tmp_path, game, defaults='deadline = "48h"\nattach = ""\nobservers = ["Olga <olga@watch.example>"]')
    box = maildir(tmp_path / "M")
    assert cli_run("mail", "run", "--config", cfg, "--source", box, "--outbox", tmp_path / "o1",
                   "--now", "2026-11-23T10:00:00Z").exit_code == 0
    opening = sent(tmp_path / "o1")
    active = next(n for n in ADDRESSES if f"{n.capitalize()} to play" in str(opening[0]["Subject"]))
    add_to_maildir(box,
                   mail(ADDRESSES[active], body=f"game demo\nnation {active}\nturn 1\npassword pw-{active}\n"
                                                "rondel gold\n"),
                   mail(ADDRESSES["greeks"], body="STATUS\n"),
                   mail(ADDRESSES["arabs"], body="password pw-arabs\nPRESS TO all\nHello all\n"),
                   mail(ADDRESSES["persians"], body="game demo\nnation persians\nturn 9\npassword nope\nrondel gold\n"),
                   mail("olga@watch.example", body="HELP\n"))
    assert cli_run("mail", "run", "--config", cfg, "--source", box, "--outbox", tmp_path / "o2",
                   "--now", "2026-11-23T10:05:00Z").exit_code == 0
    later = sent(tmp_path / "o2")
    kinds = {re.sub(r"\[demo\] |: .*| from .*", "", str(m["Subject"])) for m in later}
    assert {"accepted", "STATUS", "press", "NOT accepted", "HELP", "after turn 1"} <= kinds, kinds
    for m in opening + later:
        lines = [line for line in body(m).splitlines() if line.strip()]
        if to(m) == GM:
            assert HELP not in lines
        else:
            assert lines[-1] == HELP and lines.count(HELP) == 1, (m["Subject"], lines[-3:])
    for m in opening:
        if to(m) in ADDRESSES.values():  # the opening mail lists every command
            words = " ".join(body(m).split())
            assert all(f"{w.upper()}: " in words for w in WORDS), m["Subject"]


def test_the_guide_is_named_where_the_gm_set_one(tmp_path):
    game = game_with_players(tmp_path)
    cfg = config(tmp_path, game, defaults='attach = ""')
    cfg.write_text(cfg.read_text().replace("[mail]\n", f'[mail]\nguide_url = "{GUIDE}"\n'))
    box = maildir(tmp_path / "M", mail(ADDRESSES["greeks"], body="HELP\n"))
    assert cli_run("mail", "run", "--config", cfg, "--source", box, "--outbox", tmp_path / "o",
                   "--now", "2026-11-23T10:00:00Z").exit_code == 0
    for m in sent(tmp_path / "o"):
        if to(m) != GM:
            assert last_line(m) == f"{HELP} The guide: {GUIDE}"


def test_playing_md_has_a_chapter_on_playing_by_mail():
    from pbem.mail.commands import WORDS

    text = (Path(__file__).parent.parent / "docs" / "playing.md").read_text(encoding="utf-8")
    chapter = text.split("## Playing by mail", 1)[1].split("\n## ", 1)[0]
    for word in WORDS:
        assert f"`{word.upper()}" in chapter, word
    for topic in ("password", "PRESS", "ABSENT", "deadline", "bot", "default turn", "observer", "HELP",
                  "other address", "reply"):
        assert topic in chapter, topic
