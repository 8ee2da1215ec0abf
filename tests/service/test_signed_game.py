"""A whole game of classic Antike without a game master (issue 39, "Must show"): three players,
each in a folder of their own with their own key, exchanging nothing but the text blocks,
play to the end; every folder ends with the same game, ``ssh-keygen -Y verify`` accepts
every entry, and the thread of all the blocks rebuilds the game alone."""

from __future__ import annotations

import pytest

from pbem.service import store
from pbem.service.signed import chain
from pbem.service.signed.blocks import armor
from pbem.service.signed.folder import Folder
from pbem.service.signed.verify import verify_signed
from signedkit import MINUTE, SEATS, Table, openssh_accepts

pytestmark = pytest.mark.slow

MISS_EVERY = 40
"""Every so many turns the seat to play misses its deadline, and the next seat claims it."""


def test_a_whole_classic_game_by_three_folders_exchanging_only_blocks(tmp_path):
    table = Table(tmp_path / "players", deadline="2d")
    claims = 0
    for turn in range(1, 400):
        game = table.game(table.active())
        if game.state.status.winner is not None:
            break
        if turn % MISS_EVERY == 0:
            missed = game.state.status.active
            claimer = next(s for s in SEATS if s != missed)
            due = chain.deadline(game)
            claim = table.folders[claimer].claim(table.keys[claimer], due + MINUTE)
            table.now = due + 2 * MINUTE
            table.log.append(armor(claim))
            table.deliver(table.log[-1], table.now, [s for s in SEATS if s != claimer])
            claims += 1
            continue
        table.play(hours=5)
    final = table.game()
    assert final.state.status.winner is not None, "the game did not end"
    files = table.files()
    assert len(set(files.values())) == 1
    hashes = {chain.state_hash(store.load_game(f.path)) for f in table.folders.values()}
    assert len(hashes) == 1
    lines = verify_signed(final)
    assert claims >= 1 and "claimed after the deadline" in lines[2]
    check = tmp_path / "openssh"
    check.mkdir()
    for seat in SEATS:
        openssh_accepts(final, f"join:{seat}", check)
        openssh_accepts(final, f"reveal:{seat}", check)
    for i in range(1, len(final.history)):
        openssh_accepts(final, str(i), check)
    rebuilt = Folder(tmp_path / "thread" / "demo.json")
    rebuilt.path.parent.mkdir()
    rebuilt.rebuild("\n\nchatter between posts\n\n".join(table.log), "thread")
    assert rebuilt.path.read_bytes() == files["greeks"]
