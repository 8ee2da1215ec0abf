"""Integrity of a game's history: the witness hashes players hold make a rewritten history
detectable (``verify --expect`` / ``--receipts``), and every order file applies at most once.

The hash chain is not keyed: whoever holds the game file can rewrite a turn and compute
every hash again, and plain ``verify`` then passes. The hashes printed in the reports and
mails the players already got are what such a rewrite cannot keep.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from conftest import PASSWORDS, canonical_orders, cli_run, new_game_file, write_json
from mailkit import ADDRESSES, body, config, game_with_players, json_orders, mail, maildir, sent

LEGACY = Path(__file__).parent.parent / "data" / "legacy"
WITNESS = re.compile(r"game hash after turn (\d+):\s+([0-9a-f]{64})")


def head(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))["history"][-1]


def active(path: Path) -> str:
    return json.loads(path.read_text(encoding="utf-8"))["status"]["active"]


def turn_file(folder: Path, game: Path, wedge: str, name: str = "orders.json") -> Path:
    data = json.loads(game.read_text(encoding="utf-8"))
    nation = data["status"]["active"]
    return write_json(folder / name, {"game": data["game_id"], "nation": nation,
                                      "turn": data["status"]["turn"], "password": PASSWORDS[nation],
                                      "rondel": wedge})


def rewrite_last_turn(game: Path, wedge: str) -> None:
    """What a GM could do by hand: take the last turn back, play other orders in its place
    and save the file, every hash computed again; nothing goes to the audit log."""
    from pbem.service import store, turns
    from pbem.service.service import take_back

    loaded = store.load_game(game)
    earlier, removed = take_back(loaded, 1)
    orders = {**removed[0]["orders"], "rondel": {"to": wedge}, "password": PASSWORDS[removed[0]["nation"]]}
    rewritten, _ = turns.play(earlier, canonical_orders(orders))
    store.save_game(rewritten, game)


@pytest.fixture
def played(tmp_path):
    """A game after turn 1, processed with its reports written: (game, report folder)."""
    game = new_game_file(tmp_path, "--id", "demo")
    reports = tmp_path / "reports"
    done = cli_run("process", game, turn_file(tmp_path, game, "gold"), "--report-dir", reports,
                   "--format", "txt,md,bbcode,svg")
    assert done.exit_code == 0, done.stderr
    return game, reports


def test_every_report_format_carries_the_hash_after_its_turn(played, tmp_path):
    game, reports = played
    entry = head(game)
    line = f"game hash after turn 1: {entry['hash']}"
    for fmt in ("md", "bbcode", "svg"):
        assert line in (reports / f"demo-turn-001.{fmt}").read_text(encoding="utf-8"), fmt
    text = (reports / "demo-turn-001.txt").read_text(encoding="utf-8")
    assert WITNESS.findall(text) == [("1", entry["hash"])]
    # the same bytes again from the history, after the game moved on
    assert cli_run("process", game, turn_file(tmp_path, game, "gold", "o2.json")).exit_code == 0
    again = tmp_path / "again"
    assert cli_run("render", game, "--turn", 1, "--format", "txt,md,bbcode,svg", "--out", again).exit_code == 0
    for fmt in ("txt", "md", "bbcode", "svg"):
        name = f"demo-turn-001.{fmt}"
        assert (again / name).read_bytes() == (reports / name).read_bytes(), fmt


def test_a_rewritten_last_turn_passes_verify_but_not_the_players_witness(played):
    game, reports = played
    text = (reports / "demo-turn-001.txt").read_text(encoding="utf-8")
    [(_, received)] = WITNESS.findall(text)
    assert cli_run("verify", game, "--expect", received).exit_code == 0

    rewrite_last_turn(game, "iron")
    assert head(game)["orders"]["rondel"]["to"] == "iron"
    assert head(game)["hash"] != received
    plain = cli_run("verify", game)
    assert plain.exit_code == 0, plain.stderr  # the chain alone cannot tell

    caught = cli_run("verify", game, "--expect", f"greeks={received}")
    assert caught.exit_code == 6
    assert received in caught.stderr and "--expect (greeks)" in caught.stderr
    assert "the history was rewritten after this receipt was sent" in caught.stderr
    assert "undo" not in caught.stderr  # nothing in the audit log explains it

    folder = cli_run("verify", game, "--receipts", reports)
    assert folder.exit_code == 6
    assert received in folder.stderr
    for fmt in ("txt", "md", "bbcode", "svg"):
        assert f"demo-turn-001.{fmt}" in folder.stderr, fmt


def test_hash_prefixes(played):
    game, _ = played
    full = head(game)["hash"]
    ok = cli_run("verify", game, "--expect", full[:12], "--expect", full[:16] + "…", "--expect", full.upper())
    assert ok.exit_code == 0, ok.stderr
    assert "all 3 game hashes given to players are in the history" in ok.stdout
    assert "entry 1, after turn 1" in ok.stdout
    short = cli_run("verify", game, "--expect", full[:11])
    assert short.exit_code == 2 and "12 to 64 hex digits" in short.stderr
    assert cli_run("verify", game, "--expect", "not-a-hash-at-all").exit_code == 2
    other = "0" * 12 if not full.startswith("0" * 12) else "f" * 12
    missing = cli_run("verify", game, "--expect", other)
    assert missing.exit_code == 6 and other in missing.stderr


def test_an_undo_is_named_as_such(played):
    game, _ = played
    received = head(game)["hash"]
    assert cli_run("undo", game, "--turns", 1, "--reason", "wrong order file").exit_code == 0
    done = cli_run("verify", game, "--expect", received)
    assert done.exit_code == 6
    assert "taken back by the GM's undo" in done.stderr and "wrong order file" in done.stderr


def test_receipts_folder_of_mails(tmp_path):
    """The real mails of the mail cycle, saved as .eml (and one as an mbox): the receipt
    and the report carry the hash after the turn in full; after a rewrite they catch it."""
    game = game_with_players(tmp_path)
    cfg = config(tmp_path, game, defaults='attach = "txt"')
    nation = active(game)
    box = maildir(tmp_path / "Maildir", mail(ADDRESSES[nation], orders=json_orders(nation, 1, rondel="gold")))
    out = tmp_path / "out"
    assert cli_run("inbox", game, box, "--config", cfg, "--outbox", out, "--now", "2026-11-23T10:00:00Z").exit_code == 0
    entry = head(game)
    mails = sent(out)
    receipt = next(m for m in mails if "accepted" in str(m["Subject"]))
    assert f"game hash after turn 1: {entry['hash']}" in body(receipt)
    reports = [m for m in mails if "after turn 1" in str(m["Subject"])]
    assert reports and all(f"game hash after turn 1: {entry['hash']}" in body(m) for m in reports)
    attached = next(p for p in reports[0].iter_attachments() if p.get_filename().endswith(".txt"))
    assert entry["hash"] in attached.get_content()

    kept = tmp_path / "kept"
    kept.mkdir()
    for path in sorted(out.glob("*.eml")):
        if "receipt" in path.name or "report" in path.name:
            shutil.copy(path, kept / path.name)
    (kept / "notes.txt").write_text("nothing here\n", encoding="utf-8")
    assert cli_run("verify", game, "--receipts", kept).exit_code == 0

    rewrite_last_turn(game, "iron")
    assert cli_run("verify", game).exit_code == 0
    caught = cli_run("verify", game, "--receipts", kept)
    assert caught.exit_code == 6
    assert entry["hash"] in caught.stderr and "receipt.eml" in caught.stderr

    # the same mails in one mbox file, as a mail program exports them
    import mailbox

    export = tmp_path / "export"
    export.mkdir()
    mb = mailbox.mbox(export / "antike.mbox", create=True)
    for path in sorted(kept.glob("*.eml")):
        mb.add(path.read_bytes())
    mb.close()
    caught = cli_run("verify", game, "--receipts", export)
    assert caught.exit_code == 6 and "antike.mbox (mail 1" in caught.stderr


def test_receipts_of_another_game_and_empty_folders(played, tmp_path):
    game, _ = played
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "a.txt").write_text("hello\n", encoding="utf-8")
    done = cli_run("verify", game, "--receipts", empty)
    assert done.exit_code == 2 and "no game hash" in done.stderr
    assert cli_run("verify", game, "--receipts", tmp_path / "nowhere").exit_code == 2
    other = tmp_path / "other"
    other.mkdir()
    (other / "x.eml").write_text("From: referee@example.org\nX-Antike-Ref-Game: another\n"
                                 f"Subject: x\n\ngame hash after turn 3: {'ab' * 32}\n", encoding="utf-8")
    (other / "y.txt").write_text(f"game hash after turn 1:\n  {head(game)['hash']}\n", encoding="utf-8")
    assert cli_run("verify", game, "--receipts", other).exit_code == 0


def test_the_same_standing_orders_file_twice(tmp_path):
    game = new_game_file(tmp_path, "--id", "demo")
    idle = next(n for n in ADDRESSES if n != active(game))
    never = write_json(tmp_path / "never.json", {"game": "demo", "nation": idle, "password": PASSWORDS[idle],
                                                  "standing": {"battle": "never"}})
    first = cli_run("process", game, never)
    assert first.exit_code == 0, first.stderr
    before = game.read_bytes()
    for command in ("check", "process"):
        again = cli_run(command, game, never)
        assert again.exit_code == 4, command
        assert "[standing/already-applied]" in again.stderr
        assert "history entry 1" in again.stderr and "write the current turn (1)" in again.stderr
    assert game.read_bytes() == before
    refused = cli_run("process", game, never, "--json")
    assert json.loads(refused.stdout)["rejections"][0]["code"] == "standing/already-applied"
    assert game.read_bytes() == before

    # a newer change; the old file sent again must not take it back
    always = write_json(tmp_path / "always.json", {"game": "demo", "nation": idle, "password": PASSWORDS[idle],
                                                    "standing": {"battle": "always"}})
    assert cli_run("process", game, always).exit_code == 0
    before = game.read_bytes()
    assert cli_run("process", game, never).exit_code == 4
    assert game.read_bytes() == before
    # the same orders written for the current turn are a new file: applied once
    dated = write_json(tmp_path / "dated.json", {**json.loads(never.read_text()), "turn": 1})
    assert cli_run("process", game, dated).exit_code == 0
    before = game.read_bytes()
    again = cli_run("process", game, dated)
    assert again.exit_code == 4 and "restate another of your standing orders" in again.stderr
    assert game.read_bytes() == before
    assert cli_run("verify", game).exit_code == 0


def test_a_file_that_changes_nothing_is_refused(tmp_path):
    """A file with no rondel move and no standing order, or standing orders that are
    already the nation's, would only add an empty history entry: refused, file unchanged
    (JSON and text alike); an empty entry an older release wrote still replays."""
    from pbem.kernel.turn import resolve
    from pbem.service import store, turns

    game = new_game_file(tmp_path, "--id", "demo")
    idle = next(n for n in ADDRESSES if n != active(game))
    header = {"game": "demo", "nation": idle, "password": PASSWORDS[idle]}
    empty = write_json(tmp_path / "empty.json", header)
    text = tmp_path / "empty.txt"
    text.write_text(f"game demo\nnation {idle}\npassword {PASSWORDS[idle]}\n", encoding="utf-8")
    same = write_json(tmp_path / "same.json", {**header, "standing": {"battle": {"default": "home"}}})
    before = game.read_bytes()
    for orders, why in ((empty, "no standing order"), (text, "no standing order"), (same, "already as given")):
        for command in ("check", "process"):
            refused = cli_run(command, game, orders)
            assert refused.exit_code == 4, (orders.name, command, refused.stderr)
            assert "[standing/nothing-to-change]" in refused.stderr and why in refused.stderr
    assert game.read_bytes() == before
    # what a release before this refusal wrote for such a file: an entry that changes nothing
    g = store.load_game(game)
    result = resolve(g.state, canonical_orders(header), g.edition, g.board)
    store.save_game(turns._record(g, result, "standing", idle, {}), game)
    assert json.loads(game.read_text())["history"][-1]["orders"] == {"game": "demo", "nation": idle}
    assert cli_run("verify", game).exit_code == 0
    assert cli_run("process", game, turn_file(tmp_path, game, "gold")).exit_code == 0
    assert cli_run("verify", game).exit_code == 0


def test_the_same_turn_file_twice(tmp_path):
    game = new_game_file(tmp_path, "--id", "demo")
    orders = turn_file(tmp_path, game, "gold")
    assert cli_run("process", game, orders).exit_code == 0
    before = game.read_bytes()
    again = cli_run("process", game, orders)
    assert again.exit_code == 4
    assert "[orders/wrong-turn]" in again.stderr
    assert game.read_bytes() == before


def test_legacy_standing_entries_count_as_applied(tmp_path):
    """Files of 0.1.0 need no new field: their standing entries already record the
    canonical orders, so the same file sent again is refused there too."""
    game = tmp_path / "moderated.json"
    shutil.copy(LEGACY / "moderated.json", game)
    history = json.loads(game.read_text(encoding="utf-8"))["history"]
    entry = next(e for e in history if e["kind"] == "standing")
    orders = write_json(tmp_path / "s.json", {**entry["orders"], "password": f"demo-{entry['nation']}"})
    before = game.read_bytes()
    again = cli_run("process", game, orders)
    assert again.exit_code == 4 and "[standing/already-applied]" in again.stderr
    assert game.read_bytes() == before
    done = cli_run("verify", game, "--expect", history[-1]["hash"], "--expect", entry["hash"][:12])
    assert done.exit_code == 0, done.stderr


def test_hashes_in_text_finds_every_labelled_hash():
    from pbem.service.witness import hashes_in_text, label

    h1, h2, h3 = "1" * 64, "2" * 64, "3" * 64
    text = (f"x\ngame hash after turn 4:\n  {h1}\nplain {h2}\n"
            f"X-Antike-Ref-Head: {h3}\nGame hash after history entry 9: {h2.upper()}\n")
    assert list(hashes_in_text(text)) == [(h1, 2), (h3, 5), (h2, 6)]
    assert label({"kind": "new", "seq": 0}) == "game hash after the set-up"
    assert label({"kind": "bot-turn", "turn": 7, "seq": 9}) == "game hash after turn 7"
    assert label({"kind": "gm-edit", "seq": 9}) == "game hash after history entry 9"
