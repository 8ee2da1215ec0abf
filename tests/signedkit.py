"""Games without a game master for the tests: one folder per player, each with its own key,
exchanging nothing but the text blocks (tests/service/test_signed*.py, tests/cli/test_signed_cli.py)."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta
from pathlib import Path

from pbem import editions
from pbem.kernel.setup import SetupOptions
from pbem.service import store
from pbem.service.boards import load_board
from pbem.service.service import Input
from pbem.service.signed.blocks import armor
from pbem.service.signed.folder import Folder
from pbem.service.signed.setup import Group, proposal
from pbem.trust.keys import key_from_seed

SEATS = ["greeks", "persians", "arabs"]
T0 = datetime(2026, 1, 1, 10, 0, tzinfo=UTC)
MINUTE = timedelta(minutes=1)


def key_of(seat: str, salt: str = ""):
    """The same key for a seat in every test (a pinned seed)."""
    return key_from_seed(hashlib.sha256(f"test key {seat}{salt}".encode()).digest(), seat)


class Table:
    """The players of one game, each in a folder of their own (``ROOT/SEAT/demo.json``)."""

    def __init__(self, root: Path, seats=SEATS, edition: str = "classic", board: str = "antike-east",
                 deadline: str = "2d", missed: str = "default", arbiters=None, variants=(), first=None,
                 game_id: str = "demo", players=None, data=None):
        self.seats = list(seats)
        self.keys = {s: key_of(s) for s in self.seats}
        self.folders = {}
        for s in self.seats:
            (root / s).mkdir(parents=True, exist_ok=True)
            self.folders[s] = Folder(root / s / f"{game_id}.json")
        opts = SetupOptions(game_id=game_id, board=board, nations=list(seats), variants=list(variants), first=first,
                            player=dict(players or {}), data=dict(data or {}))
        self.proposal = proposal(editions.get(edition), opts, load_board(board),
                                 Group(deadline, missed, tuple(arbiters or seats)), 1000, T0)
        self.folders[self.seats[0]].propose(self.proposal)
        self.log: list[str] = [armor(self.proposal)]
        joins = [self.folders[s].join(self.keys[s], s, T0 + MINUTE, self.log[0], "proposal") for s in self.seats]
        self.joins = joins
        self.log += [armor(j) for j in joins]
        self.deliver("".join(self.log), T0 + 2 * MINUTE)
        self.reveals = [self.folders[s].reveal(self.keys[s], T0 + 60 * MINUTE)[0] for s in self.seats]
        self.log += [armor(r) for r in self.reveals]
        self.deliver("".join(armor(r) for r in self.reveals), T0 + 61 * MINUTE)
        self.now = T0 + 61 * MINUTE

    def deliver(self, text: str, now: datetime, to=None) -> None:
        """``text`` accepted in every folder (or those of ``to``)."""
        for seat in to or self.seats:
            self.folders[seat].accept(text, "mail", now)

    def game(self, seat: str | None = None):
        return store.load_game(self.folders[seat or self.seats[0]].path)

    def files(self) -> dict[str, bytes]:
        """Every folder's game file, as bytes."""
        return {s: f.path.read_bytes() for s, f in self.folders.items()}

    def active(self) -> str:
        return self.game().state.status.active

    def play(self, orders: dict | None = None, hours: float = 1, send: bool = True):
        """The active seat plays ``orders`` (default: the greedy bot's) in its own folder,
        and (``send``) the others accept its block; returns the signed entry."""
        from pbem.play.bot import play_turn

        seat = self.active()
        game = store.load_game(self.folders[seat].path)
        orders = orders if orders is not None else play_turn(game, "greedy")
        self.now += timedelta(hours=hours)
        _, _, signed, _, _ = self.folders[seat].play(Input(orders, "orders"), self.keys[seat], self.now)
        block = armor(signed)
        self.log.append(block)
        if send:
            self.deliver(block, self.now, [s for s in self.seats if s != seat])
        return signed

    def clone(self, root: Path) -> Table:
        """The same table in another root (each folder copied): a test changes its own."""
        import copy
        import shutil

        other = copy.copy(self)
        other.folders = {}
        for seat, folder in self.folders.items():
            shutil.copytree(folder.path.parent, root / seat)
            other.folders[seat] = Folder(root / seat / folder.path.name)
        other.log = list(self.log)
        return other


def openssh_accepts(game, which: str, folder: Path) -> None:
    """OpenSSH's ``ssh-keygen -Y verify`` accepts entry ``which`` of ``game`` (the bytes,
    signature and allowed signers :func:`pbem.service.signed.export.exported` gives),
    checked in ``folder``."""
    import subprocess

    from pbem.service.signed.export import exported

    message, sig, identity, signers = exported(game, which)
    (folder / "m").write_bytes(message)
    (folder / "m.sig").write_text(sig)
    (folder / "allowed").write_text(signers)
    result = subprocess.run(["ssh-keygen", "-Y", "verify", "-f", str(folder / "allowed"), "-I", identity, "-n",
                             "antike-ref@turn", "-s", str(folder / "m.sig")], input=message, capture_output=True)
    assert result.returncode == 0 and b"Good" in result.stdout, (which, result.stderr)
