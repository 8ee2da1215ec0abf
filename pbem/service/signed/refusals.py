"""Why an entry of a game without a game master is refused: one stable code per reason.

A refusal is about what someone sent (a block, an entry, a claim): ``accept``,
``rebuild`` and ``verify`` end with exit code 6, as for a history that does not replay;
a command that would *make* an entry the game's rules do not allow (a claim before the
deadline, a turn out of turn) ends with exit code 4, as refused orders do. The refusals of
the signatures and the reveals themselves keep their own codes (``sshsig/...``,
``commit/...``: :mod:`pbem.trust.refusals`). docs/without-gm.md lists every code.
"""

from __future__ import annotations

from enum import Enum

from pbem.errors import ExitCode, PbemError


class Why(str, Enum):  # noqa: UP042 -- a StrEnum would change what str() and format() of a member say
    """The reasons an entry or a block is refused."""

    DAMAGED = "block/damaged"
    """A block whose text was changed on the way (a line lost, a character changed): its
    check sum does not match."""
    MALFORMED = "entry/malformed"
    """A block or entry that does not read as an entry of ours (its layout, a field
    missing or of the wrong kind, text after it, not the one form we write)."""
    OTHER_GAME = "entry/other-game"
    """An entry of another game or of another set-up proposal."""
    UNSIGNED = "entry/unsigned"
    """An entry without the signature it needs (a turn without its mover's; a ruling
    without every arbiter's)."""
    NOT_A_SEAT = "entry/not-a-seat"
    """Signed for a seat the game does not have."""
    GAP = "chain/gap"
    """An entry that follows one this copy does not hold: the entries before it are missing."""
    FORK = "chain/fork"
    """Another seat's entry already follows the same entry: two branches of the game."""
    EQUIVOCATION = "chain/equivocation"
    """One seat signed two different entries that follow the same entry: both are kept as
    proof."""
    OUT_OF_TURN = "chain/out-of-turn"
    """A turn by a seat that is not to play, or after the game has ended."""
    ORDERS = "chain/orders-refused"
    """The rules refuse the orders of a turn."""
    STATE = "chain/state-mismatch"
    """The state the entry says its turn leads to is not what the rules make of it."""
    SEQUENCE = "chain/sequence"
    """An entry's number is not the place it takes in the history."""
    BACKWARDS = "time/backwards"
    """An entry signed at a time before the entry it follows."""
    FUTURE = "time/future"
    """An entry signed at a time still ahead of this computer's clock."""
    EARLY = "claim/early"
    """A claim that a seat missed its deadline, made before the deadline."""
    CLAIM = "claim/invalid"
    """A claim against a seat that is not the one to play, by that seat itself, or playing
    something other than what the group's rules say a missed turn gets."""
    ARBITER = "ruling/not-arbiter"
    """A ruling signed by a seat that is not an arbiter of the game."""
    SETUP = "setup/invalid"
    """A join or a reveal that does not fit the set-up: a seat joined twice with two keys,
    a reveal before every seat joined or of another set of joins, a value that is not the
    first of the seat's chain."""
    NO_GM = "game/no-game-master"
    """A GM's command (a password turn, an edit, an undo, a default turn) on a game
    without a game master."""
    WAITING = "setup/waiting"
    """The set-up is not complete: a seat has not joined or revealed yet."""


class SignedRefused(PbemError):
    """An entry refused: :attr:`code` says why, the message in words (what was checked
    first)."""

    def __init__(self, code: Why, message: str, source: str = "", exit_code: ExitCode = ExitCode.VERIFY_FAILED):
        self.code = code
        self.reason = message
        self.source = source
        self.exit_code = exit_code
        super().__init__(f"{source}: {message} ({code.value})" if source else f"{message} ({code.value})")
