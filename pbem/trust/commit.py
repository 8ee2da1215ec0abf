"""Fair draws without a dealer: hash chains every player commits to at set-up, and draws
that the reveals of every player decide together.

**The chain.** At set-up each player draws a secret seed (:func:`new_seed`) and computes a
chain of ``length`` values (:class:`HashChain`): the last, ``c[length]``, from the seed;
each one before it the hash of the one after, ``c[r-1] = link(game, seat, r, c[r])``. The
first, ``c[0]``, is the *head*: it goes into the set-up entry every seat signs
(:class:`Commitment`). Later the player reveals ``c[1]``, ``c[2]``, ... in that order, one
for each draw, and anyone checks a reveal with one hash: the link of the reveal must be the
value before it (:class:`Tracker`). A reveal that does not hash to it is refused
(``commit/mismatch``), a value already revealed offered again (a draw replayed) too
(``commit/replayed``), and so is one past the chain's end (``commit/exhausted``).

**The draw.** The reveals of every player for one draw are hashed together, with the game,
the turn and the purpose of the draw (:func:`stream`), into the key of a stream of bytes
(SHA-256 in counter mode). A number below ``n`` (:meth:`Stream.below`) takes the fewest
bytes that can hold ``n - 1``, keeps its lowest bits and starts again if the number is not
below ``n`` (rejection sampling: every number is equally likely, where ``% n`` would favour
the small ones). A shuffle (:meth:`Stream.shuffle`) is Fisher-Yates driven by the same
stream. Every hash is domain-separated: its own tag, then the game, the seat or the turn and
purpose, each framed as an SSH string (:mod:`pbem.trust.wire`), so no hash of one kind or
of one game, seat, turn or purpose can stand for another.

Everything here is exact and portable: the same reveals give the same draw on any machine
(``tests/trust/test_trust.py`` pins a vector and recomputes it from this description alone).

**What this proves.** A head fixes every value of its chain: to reveal anything else a
player would need a second preimage of SHA-256. So no player can change their
contribution to a draw after committing, and, as long as one player's seed is random and
secret, no one can predict a draw before that player's reveal, nor steer it: the stream is
a hash of every reveal, so one unknown reveal makes every outcome equally likely. Anyone
holding the file recomputes every draw from the reveals, and a copy holds only what was
revealed (a chain's later values are preimages nobody else can compute).

**What it does not prove, or prevent.**

- A player who withholds a reveal stalls the draw: the commitment cannot force it out.
  The game's deadline rule handles that player (their missed turn is played for them).
- The last player to reveal for a draw sees every other reveal first, so can compute the
  outcome and decide not to reveal at all: a choice between the draw and whatever the
  deadline rule then does. The deadline rule must make that no better than the draw (the
  outcome it plays is fixed by the rule, not chosen, and the abort is visible in the
  signed file).
- A draw is fair only if its reveals are published after everything it must not
  influence is fixed: a player who sees a reveal before choosing could predict part of
  the draw. Which reveals a draw uses, and when they are sent, is the protocol's part
  (every seat's next value, sent with or after the choice).
- A lost seed is a reveal withheld; a seed that is not secret (written in a shared file)
  lets whoever reads it predict that player's reveals. A seed must be as private as a key.
- If every player colludes, nothing here keeps them honest toward one another: they
  agree on the outcome they like.
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from pbem.errors import clip
from pbem.trust.refusals import Refusal, TrustRefused
from pbem.trust.wire import string, strings, u32

T = TypeVar("T")

SIZE = 32
"""Bytes of a seed, a chain value and a stream key (SHA-256)."""
MAX_LENGTH = 1 << 20
"""The longest chain a player may commit to (a million draws; computing it takes seconds)."""
CHAIN_TAG = "antike-ref chain v1"
END_TAG = "antike-ref chain-end v1"
DRAW_TAG = "antike-ref draw v1"
STREAM_TAG = "antike-ref stream v1"


def _sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def new_seed() -> bytes:
    """A new secret seed from the operating system's randomness."""
    return secrets.token_bytes(SIZE)


def link(game: str, seat: str, position: int, value: bytes) -> bytes:
    """The value before ``value`` in ``seat``'s chain of ``game``, ``value`` standing at
    ``position`` (1 for the first reveal): SHA-256 of the tag, the game, the seat, the
    position as a ``uint32`` and the value as a string."""
    return _sha256(strings(CHAIN_TAG, game, seat) + u32(position) + string(value))


def chain_end(seed: bytes, game: str, seat: str, length: int) -> bytes:
    """``c[length]``, the last value of the chain of ``seed`` (hashed with the game, the seat
    and the length, so one seed used twice still gives unrelated chains)."""
    return _sha256(strings(END_TAG, game, seat) + u32(length) + string(seed))


@dataclass(frozen=True, slots=True)
class Commitment:
    """What a player publishes at set-up: the head of their chain, for a seat of a game,
    and how many reveals it holds."""

    game: str
    seat: str
    head: bytes
    length: int

    def __post_init__(self) -> None:
        _check_value(self.head, "the head", f"{self.seat}'s commitment")
        if not 1 <= self.length <= MAX_LENGTH:
            raise TrustRefused(Refusal.BAD_VALUE, f"a chain of {self.length} values: between 1 and {MAX_LENGTH}",
                               f"{self.seat}'s commitment")

    def __repr__(self) -> str:
        return f"Commitment({self.game!r}, {self.seat!r}, bytes.fromhex({self.head.hex()!r}), {self.length})"


class HashChain:
    """A player's own chain (the secret side): every value, computed once from the seed.
    Its repr never shows the seed or a value not yet revealed."""

    __slots__ = ("game", "seat", "length", "_values")

    def __init__(self, seed: bytes, game: str, seat: str, length: int):
        if len(seed) != SIZE:
            raise ValueError(f"a seed has {SIZE} bytes, not {len(seed)}")
        if not 1 <= length <= MAX_LENGTH:
            raise ValueError(f"a chain of {length} values: between 1 and {MAX_LENGTH}")
        self.game, self.seat, self.length = game, seat, length
        values = [b""] * (length + 1)
        values[length] = chain_end(seed, game, seat, length)
        prefix = strings(CHAIN_TAG, game, seat)
        for position in range(length, 0, -1):  # link(), with the prefix framed once
            values[position - 1] = _sha256(prefix + u32(position) + string(values[position]))
        self._values = values

    @property
    def head(self) -> bytes:
        return self._values[0]

    def commitment(self) -> Commitment:
        return Commitment(self.game, self.seat, self.head, self.length)

    def reveal(self, position: int) -> bytes:
        """``c[position]``, the value to reveal for the ``position``-th draw (from 1)."""
        if not 1 <= position <= self.length:
            raise ValueError(f"reveal {position} of a chain of {self.length}")
        return self._values[position]

    def __repr__(self) -> str:
        return f"<HashChain {self.seat}@{self.game}, {self.length} values, head {self.head.hex()[:16]}...>"


class Tracker:
    """A verifier's check of one player's reveals, in order: :meth:`accept` takes the next
    reveal or refuses it."""

    __slots__ = ("commitment", "_revealed", "_seen")

    def __init__(self, commitment: Commitment, revealed: Sequence[bytes] = ()):
        self.commitment = commitment
        self._revealed: list[bytes] = []
        self._seen: dict[bytes, int] = {commitment.head: 0}
        for value in revealed:
            self.accept(value)

    @property
    def position(self) -> int:
        """How many values have been revealed."""
        return len(self._revealed)

    @property
    def last(self) -> bytes:
        """The value the next reveal must open: the last revealed, or the head."""
        return self._revealed[-1] if self._revealed else self.commitment.head

    @property
    def revealed(self) -> tuple[bytes, ...]:
        return tuple(self._revealed)

    def check(self, value: bytes, source: str = "") -> int:
        """The position ``value`` would take as the next reveal; :class:`TrustRefused` if it
        is not the next value of the chain."""
        c = self.commitment
        where = source or f"{c.seat}'s reveal {self.position + 1}"
        _check_value(value, "a reveal", where)
        value = bytes(value)
        position = self.position + 1
        if position > c.length:
            raise TrustRefused(Refusal.EXHAUSTED, f"{c.seat} committed to {c.length} reveals, all of them made",
                               where)
        if value in self._seen:
            earlier = self._seen[value]
            what = "the head of the chain" if earlier == 0 else f"reveal {earlier}"
            raise TrustRefused(Refusal.REPLAYED, f"this value is {what} of {c.seat}, already public: a draw "
                                                 "cannot be made again with it", where)
        if link(c.game, c.seat, position, value) != self.last:
            raise TrustRefused(Refusal.MISMATCH, f"this value does not open {c.seat}'s commitment (its hash is not "
                                                 f"{'the head' if position == 1 else f'reveal {position - 1}'}): "
                                                 "not the value committed to", where)
        return position

    def accept(self, value: bytes, source: str = "") -> int:
        """Take ``value`` as the next reveal and return its position (from 1)."""
        position = self.check(value, source)
        self._revealed.append(bytes(value))
        self._seen[bytes(value)] = position
        return position

    def __repr__(self) -> str:
        return f"<Tracker {self.commitment.seat}@{self.commitment.game}, {self.position} revealed>"


class Stream:
    """The bytes of one draw: block ``i`` is SHA-256 of the tag and the key (each as a
    string) and ``i`` as a ``uint64``, and the bytes are read in order across blocks."""

    __slots__ = ("key", "_prefix", "_counter", "_buffer", "_at")

    def __init__(self, key: bytes):
        self.key = bytes(key)
        self._prefix = strings(STREAM_TAG, self.key)
        self._counter = 0
        self._buffer = b""
        self._at = 0

    def take(self, count: int) -> bytes:
        """The next ``count`` bytes of the stream."""
        while len(self._buffer) - self._at < count:
            self._buffer = self._buffer[self._at:] + _sha256(self._prefix + struct.pack(">Q", self._counter))
            self._at = 0
            self._counter += 1
        out = self._buffer[self._at:self._at + count]
        self._at += count
        return out

    def below(self, n: int) -> int:
        """A number from 0 to ``n - 1``, each equally likely: the fewest whole bytes that
        hold ``n - 1``, read big-endian, their lowest bits kept, and drawn again while
        the number is not below ``n``. ``below(1)`` is 0 and reads nothing."""
        if n < 1:
            raise TrustRefused(Refusal.BAD_VALUE, f"a draw below {n}: the range is empty", "draw")
        if n == 1:
            return 0
        bits = (n - 1).bit_length()
        size, mask = (bits + 7) // 8, (1 << bits) - 1
        while True:
            number = int.from_bytes(self.take(size), "big") & mask
            if number < n:
                return number

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """``items`` in an order every permutation of which is equally likely
        (Fisher-Yates from the end: for ``i`` from ``len - 1`` down to 1, swap ``i`` with
        ``below(i + 1)``)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


def draw_key(game: str, turn: int, purpose: str, reveals: Mapping[str, bytes]) -> bytes:
    """The key of the stream of one draw: SHA-256 of the tag, the game, the turn (a
    ``uint32``), the purpose, the number of reveals and each seat with its reveal, the
    seats sorted by name (Unicode code points), so the order they came in does not
    matter."""
    if not reveals:
        raise TrustRefused(Refusal.BAD_VALUE, "a draw needs the reveal of at least one player", "draw")
    if not 0 <= turn < 1 << 32:
        raise TrustRefused(Refusal.BAD_VALUE, f"turn {turn} is out of range", "draw")
    parts = [strings(DRAW_TAG, game), u32(turn), string(purpose), u32(len(reveals))]
    for seat in sorted(reveals):
        _check_value(reveals[seat], "a reveal", f"{clip(seat)}'s reveal for {clip(purpose)}")
        parts.append(strings(seat, reveals[seat]))
    return _sha256(b"".join(parts))


def stream(game: str, turn: int, purpose: str, reveals: Mapping[str, bytes]) -> Stream:
    """The stream of the draw for ``purpose`` (``"deck"``, ``"setup"``, ...) at ``turn`` of
    ``game`` that the ``reveals`` (seat -> value) decide. Several numbers of one turn and
    purpose are read off one stream, in order."""
    return Stream(draw_key(game, turn, purpose, reveals))


def draw(game: str, turn: int, purpose: str, reveals: Mapping[str, bytes], n: int) -> int:
    """One number from 0 to ``n - 1`` (:meth:`Stream.below` of :func:`stream`)."""
    return stream(game, turn, purpose, reveals).below(n)


def shuffled(game: str, turn: int, purpose: str, reveals: Mapping[str, bytes], items: Sequence[T]) -> list[T]:
    """``items`` shuffled (:meth:`Stream.shuffle` of :func:`stream`)."""
    return stream(game, turn, purpose, reveals).shuffle(items)


def _check_value(value: object, what: str, where: str) -> None:
    if not isinstance(value, (bytes, bytearray)) or len(value) != SIZE:
        size = len(value) if isinstance(value, (bytes, bytearray, str)) else type(value).__name__
        raise TrustRefused(Refusal.BAD_VALUE, f"{what} is a value of {SIZE} bytes, not {size}", where)
