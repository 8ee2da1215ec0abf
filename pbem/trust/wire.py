"""The SSH wire encoding (RFC 4253, section 5): a ``uint32`` is four bytes, big-endian; a
``string`` is its length as a ``uint32`` followed by its bytes.

SSHSIG blobs are written and read in it (:mod:`pbem.trust.sshsig`), and the hashes of
:mod:`pbem.trust.commit` frame each of their inputs as a string, so that no two lists of
inputs hash the same bytes (``"ab" + "c"`` and ``"a" + "bc"`` differ once each is framed).
"""

from __future__ import annotations

import struct


def u32(value: int) -> bytes:
    """``value`` as a ``uint32``."""
    return struct.pack(">I", value)


def string(data: bytes | str) -> bytes:
    """``data`` as a ``string`` (text as UTF-8)."""
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    return u32(len(raw)) + raw


def strings(*items: bytes | str) -> bytes:
    """Each item as a ``string``, one after the other."""
    return b"".join(string(item) for item in items)


class Truncated(ValueError):
    """A :class:`Reader` was asked for more bytes than are left."""


class Reader:
    """Reads ``uint32`` and ``string`` values off the front of a byte string, never past
    its end (:class:`Truncated`)."""

    __slots__ = ("_data", "_at")

    def __init__(self, data: bytes):
        self._data = bytes(data)
        self._at = 0

    def raw(self, count: int) -> bytes:
        """The next ``count`` bytes."""
        if count > len(self._data) - self._at:
            raise Truncated(f"{count} bytes asked at byte {self._at}, {len(self._data) - self._at} left")
        out = self._data[self._at:self._at + count]
        self._at += count
        return out

    def u32(self) -> int:
        return struct.unpack(">I", self.raw(4))[0]

    def string(self) -> bytes:
        return self.raw(self.u32())

    def text(self) -> str:
        """The next string, as UTF-8 text (:class:`UnicodeDecodeError` if it is not)."""
        return self.string().decode("utf-8")

    @property
    def left(self) -> int:
        """How many bytes are left unread."""
        return len(self._data) - self._at
