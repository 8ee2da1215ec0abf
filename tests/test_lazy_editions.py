"""Editions load lazily: a classic game's ``process`` and ``mail run`` import no module of
another edition (issue 37, item 4).

Each command runs in a fresh interpreter, which then lists the edition modules it imported.
The registry knows the built-in editions' order words without importing them
(:data:`pbem.editions.BUILT_IN_ORDER_WORDS`), the reports are handed the game's edition
(never "the editions loaded"), and a game's edition is imported only when it is asked for by
its id. Before issue 37 a classic mail run imported 15 modules of Antike II and Antike Duellum.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import PASSWORDS, cli_run, new_game_file

from pbem import editions

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import json, sys
sys.argv = ["antike-ref", *json.loads(sys.argv[1])]
from pbem.cli import main
try:
    main()
except SystemExit as exc:
    code = exc.code
else:
    code = 0
print(json.dumps({"exit": code, "editions": sorted(m for m in sys.modules if m.startswith("pbem.editions."))}),
      file=sys.stderr)
"""
"""Run ``antike-ref ARGS`` (a JSON list) and say on its last line of stderr the exit code
and every module of ``pbem.editions`` it imported."""

OTHERS = ("pbem.editions.antike2", "pbem.editions.duellum")


def probe(*args) -> dict:
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps([str(a) for a in args])],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stderr.strip().splitlines()[-1])


def others(loaded: dict) -> list[str]:
    return [m for m in loaded["editions"] if m.startswith(OTHERS)]


def test_a_classic_process_imports_no_other_edition(tmp_path):
    game = new_game_file(tmp_path)
    orders = tmp_path / "orders.json"
    made = cli_run("bot", game, "--mode", "greedy", "-o", orders)
    assert made.exit_code == 0, made.stderr
    data = json.loads(orders.read_text(encoding="utf-8"))
    orders.write_text(json.dumps({**data, "password": PASSWORDS[data["nation"]]}), encoding="utf-8")
    loaded = probe("process", game, orders)
    assert loaded["exit"] == 0
    assert "pbem.editions.classic" in loaded["editions"] and others(loaded) == []


def test_a_classic_mail_run_imports_no_other_edition(tmp_path):
    """An order mail in the text syntax, a refusal (a line of an order of another edition,
    which the registry knows without importing it), and the reports mailed."""
    from mailkit import ADDRESSES, config, game_with_players, mail, maildir

    game = game_with_players(tmp_path)
    nation = json.loads(game.read_text(encoding="utf-8"))["status"]["active"]
    cfg = config(tmp_path, game, defaults='attach = "txt"')
    body = f"game demo\nnation {nation}\nturn 1\npassword {PASSWORDS[nation]}\nrondel gold\n"
    box = maildir(tmp_path / "M", mail(ADDRESSES[nation], body=body),
                  mail(ADDRESSES[nation], body=body.replace("rondel gold", "rondel gold\nrecruit 2 legions")))
    loaded = probe("mail", "run", "--config", cfg, "--source", box, "--outbox", tmp_path / "out",
                   "--now", "2026-11-23T10:00:00Z")
    assert loaded["exit"] == 0
    assert "pbem.editions.classic" in loaded["editions"] and others(loaded) == []
    assert json.loads(game.read_text(encoding="utf-8"))["status"]["turn"] == 2


def test_the_probe_sees_another_edition():
    """The same probe lists the modules of an edition a command does import."""
    loaded = probe("schema", "orders", "--edition", "duellum")
    assert loaded["exit"] == 0 and "pbem.editions.duellum" in others(loaded)


def test_the_registry_knows_the_order_words_of_the_built_in_editions():
    """:data:`pbem.editions.BUILT_IN_ORDER_WORDS` is every spelling the editions' order
    languages give, so the text reader knows another edition's order lines without
    importing that edition."""
    for edition_id in editions.BUILT_IN:
        edition = editions.get(edition_id)
        words = edition.language.order_words if edition.language else {}
        spelt = {s for word, spec in words.items() for s in (word, *spec.get("also", ()))}
        assert set(editions.BUILT_IN_ORDER_WORDS[edition_id]) == spelt, edition_id
