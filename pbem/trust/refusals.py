"""Why a signature or a reveal is refused: one stable code per reason, and the exception
that carries it.

A refusal is about what someone sent (a signed entry, a reveal): the command that checks
it ends with exit code 6, as ``verify`` does for a history that does not replay. A key
file or an allowed-signers file that cannot be read is an :class:`pbem.errors.InputError`
(exit code 3) naming the file and the line instead.
"""

from __future__ import annotations

from enum import Enum

from pbem.errors import ExitCode, PbemError


class Refusal(str, Enum):  # noqa: UP042 -- a StrEnum would change what str() and format() of a member say
    """The reasons a signature (``sshsig/...``) or a reveal (``commit/...``) is refused."""

    MALFORMED = "sshsig/malformed"
    """The text is no armored SSH signature, or its blob does not parse (header, footer,
    base64, magic ``SSHSIG``, truncated fields, bytes after the last field)."""
    VERSION = "sshsig/version"
    """The blob is of an SSHSIG version other than 1."""
    KEY_TYPE = "sshsig/key-type"
    """The signature was made with a key that is not Ed25519 (RSA, ECDSA ...)."""
    HASH = "sshsig/hash-algorithm"
    """The message was hashed with an algorithm other than sha512 or sha256."""
    NAMESPACE = "sshsig/namespace"
    """The signature was made for another namespace: for another purpose than ours, or
    for a purpose the allowed-signers line of the identity does not permit."""
    INVALID = "sshsig/invalid"
    """The signature does not match the message: the message is not the one that was
    signed, or a byte of the signature was changed. No verifier can tell these two apart
    (an Ed25519 check only says whether the pair matches)."""
    OTHER_KEY = "sshsig/other-key"
    """A valid signature, but by a key that is not the one expected (another seat's key, a
    key the allowed signers do not name for this identity)."""
    UNKNOWN_SIGNER = "sshsig/unknown-signer"
    """The allowed signers name no key for the identity the signature is checked for."""
    MISMATCH = "commit/mismatch"
    """A reveal whose hash is not the value it must open (the head, or the reveal before
    it): not the value committed to."""
    REPLAYED = "commit/replayed"
    """A value already revealed, offered again for a later reveal (a draw replayed)."""
    EXHAUSTED = "commit/exhausted"
    """A reveal beyond the length of the chain the player committed to."""
    BAD_VALUE = "commit/bad-value"
    """A reveal or a head that is not a value of the right length, or a draw without a
    reveal, with a seat twice, or for an empty range."""


class TrustRefused(PbemError):
    """A signature or a reveal refused: :attr:`code` says why, the message in words (with
    :attr:`source`, what was checked, first)."""

    exit_code = ExitCode.VERIFY_FAILED

    def __init__(self, code: Refusal, message: str, source: str = ""):
        self.code = code
        self.reason = message
        self.source = source
        super().__init__(f"{source}: {message} ({code.value})" if source else f"{message} ({code.value})")
