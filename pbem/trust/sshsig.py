"""Signatures in OpenSSH's SSHSIG format (``PROTOCOL.sshsig`` in OpenSSH), so that
``ssh-keygen -Y verify`` checks what we sign, and we check what ``ssh-keygen -Y sign``
signs.

The armored signature is ``-----BEGIN SSH SIGNATURE-----``, the base64 of the blob in lines
of 70 characters (as ``ssh-keygen`` writes them), and ``-----END SSH SIGNATURE-----``. The
blob is, in the SSH wire encoding (:mod:`pbem.trust.wire`)::

    byte[6]  "SSHSIG"
    uint32   1                      the version
    string   the public key         (string "ssh-ed25519", string its 32 bytes)
    string   the namespace          (NAMESPACE)
    string   reserved               (empty)
    string   the hash algorithm     ("sha512")
    string   the signature          (string "ssh-ed25519", string its 64 bytes)

and the Ed25519 signature (the library's) is over
``"SSHSIG" || string namespace || string reserved || string hash_algorithm || string
H(message)``, H being SHA-512. Ed25519 signatures are deterministic: our signature of a
message with a key is byte for byte the one ``ssh-keygen -Y sign`` makes with it.

The namespace is :data:`NAMESPACE`, ``antike-ref@turn``: one namespace for every entry of
a game's history a player signs (the set-up every seat agrees to, a turn, a claim that a
seat missed its deadline), because the entry names its own kind and a single
``ssh-keygen -Y verify -n antike-ref@turn`` then checks any of them. The namespace keeps a
player's signature of an entry from being taken for a signature of anything else made with
the same key (a signed file, a Git commit: they use the namespaces ``file`` and ``git``),
and the other way round.

:func:`verify` returns the signer's key, or raises :class:`TrustRefused` with one code per
reason (:class:`Refusal`): a malformed text, another version, a key that is not Ed25519,
another hash algorithm, another namespace, a signature that does not match the message, a
signer that is not the expected one. A message altered after it was signed and a signature
with a changed byte are one refusal (``sshsig/invalid``): the check of an Ed25519
signature only says whether message and signature match, not which of the two changed
(``ssh-keygen`` says "Signature verification failed" for both). A changed byte of the
namespace or of the key inside the blob is caught as what it changes.

Where OpenSSH is lenient we are strict, so that one signed entry has one signature text
to compare: the version must be 1 (OpenSSH also takes 0), the reserved field empty (OpenSSH
ignores it), and nothing may follow the footer. Signatures made with ``sha256`` (``ssh-keygen
-Y sign -O hashalg=sha256``) are verified as OpenSSH does; we make ``sha512`` ones.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Collection
from dataclasses import dataclass

from pbem.errors import InputError, clip
from pbem.trust.keys import KEY_TYPE, PublicKey, SecretKey, key_type_name, read_public_key
from pbem.trust.refusals import Refusal, TrustRefused
from pbem.trust.wire import Reader, Truncated, string, strings, u32

NAMESPACE = "antike-ref@turn"
"""The SSHSIG namespace of every entry a player of a game without a game master signs."""
MAGIC = b"SSHSIG"
VERSION = 1
HASH_ALGORITHM = "sha512"
"""The hash algorithm of the signatures we make."""
HASH_ALGORITHMS = ("sha512", "sha256")
"""The hash algorithms of the signatures we verify (those OpenSSH makes)."""
BEGIN = "-----BEGIN SSH SIGNATURE-----"
END = "-----END SSH SIGNATURE-----"
WRAP = 70
"""Characters of base64 per line, as ``ssh-keygen`` writes them."""
MAX_ARMOR = 8192
"""An armored signature longer than this is refused unread (an Ed25519 one is about 300
characters)."""


@dataclass(frozen=True, slots=True)
class Signature:
    """The fields of an SSHSIG blob, as read (nothing checked but the layout)."""

    key_type: str
    key_blob: bytes
    """The public key in the SSH wire form."""
    namespace: str
    reserved: bytes
    hash_algorithm: str
    signature_type: str
    signature: bytes

    def key(self, source: str = "signature") -> PublicKey:
        """The signer's public key (the library reads it): :class:`TrustRefused` if it is
        not an Ed25519 key or does not read."""
        if self.key_type != KEY_TYPE:
            raise TrustRefused(Refusal.KEY_TYPE, f"made with {key_type_name(self.key_type)}: antike-ref verifies "
                                                 f"{KEY_TYPE} signatures only", source)
        try:
            return read_public_key(f"{KEY_TYPE} {base64.b64encode(self.key_blob).decode('ascii')}", source)
        except InputError as exc:
            raise TrustRefused(Refusal.MALFORMED, f"the signer's key does not read: {exc.problems[0].message}",
                               source) from exc


def signed_data(message: bytes, namespace: str, hash_algorithm: str = HASH_ALGORITHM) -> bytes:
    """What the Ed25519 signature is over: ``"SSHSIG"``, the namespace, the empty reserved
    field, the hash algorithm and the hash of ``message``."""
    digest = hashlib.new(hash_algorithm, message).digest()
    return MAGIC + strings(namespace, b"", hash_algorithm, digest)


def sign(message: bytes | str, key: SecretKey, namespace: str = NAMESPACE) -> str:
    """The armored SSHSIG signature of ``message`` (text is signed as its UTF-8 bytes) by
    ``key`` in ``namespace``, ending with a newline."""
    if not namespace:
        raise ValueError("an SSHSIG namespace is never empty")
    data = _bytes(message)
    raw = key.sign(signed_data(data, namespace))
    blob = (MAGIC + u32(VERSION) + string(key.public.blob) + strings(namespace, b"", HASH_ALGORITHM)
            + string(strings(KEY_TYPE, raw)))
    return armor(blob)


def armor(blob: bytes) -> str:
    """``blob`` between the header and the footer, in base64 lines of :data:`WRAP`."""
    text = base64.b64encode(blob).decode("ascii")
    lines = [text[i:i + WRAP] for i in range(0, len(text), WRAP)]
    return "\n".join([BEGIN, *lines, END]) + "\n"


def dearmor(text: str | bytes, source: str = "signature") -> bytes:
    """The blob inside an armored signature; :class:`TrustRefused` (``sshsig/malformed``)
    if ``text`` is not one. Space around it and ``\\r\\n`` line ends are taken."""
    if isinstance(text, bytes):
        try:
            text = text.decode("ascii")
        except UnicodeDecodeError:
            raise _malformed("it is not text in ASCII", source) from None
    if len(text) > MAX_ARMOR:
        raise _malformed(f"{len(text)} characters: too long for a signature", source)
    lines = [line.strip() for line in text.strip().splitlines()]
    if not lines or lines[0] != BEGIN:
        raise _malformed(f"it does not begin with {BEGIN}", source)
    if END not in lines:
        raise _malformed(f"it does not end with {END}", source)
    end = lines.index(END)
    if end != len(lines) - 1:
        raise _malformed(f"text after {END}", source)
    body = "".join(lines[1:end])
    if not body:
        raise _malformed("nothing between the header and the footer", source)
    try:
        return base64.b64decode(body, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise _malformed(f"the text between the header and the footer is not base64 ({exc})", source) from None


def parse(text: str | bytes, source: str = "signature") -> Signature:
    """The fields of the armored signature ``text``, checked for layout only:
    ``sshsig/malformed`` or ``sshsig/version`` if they do not read."""
    reader = Reader(dearmor(text, source))
    try:
        if reader.raw(len(MAGIC)) != MAGIC:
            raise _malformed("the blob does not begin with SSHSIG", source)
        version = reader.u32()
        if version != VERSION:
            raise TrustRefused(Refusal.VERSION, f"SSHSIG version {version}: antike-ref reads version {VERSION}",
                               source)
        key_blob = reader.string()
        key_type = Reader(key_blob).text()
        namespace, reserved, hash_algorithm = reader.text(), reader.string(), reader.text()
        sig = Reader(reader.string())
        signature_type, raw = sig.text(), sig.string()
        if sig.left:
            raise _malformed(f"{sig.left} bytes after the signature inside its field", source)
    except Truncated:
        raise _malformed("the blob ends in the middle of a field", source) from None
    except UnicodeDecodeError:
        raise _malformed("a name in the blob is not UTF-8 text", source) from None
    if reader.left:
        raise _malformed(f"{reader.left} bytes after the last field of the blob", source)
    return Signature(key_type, key_blob, namespace, reserved, hash_algorithm, signature_type, raw)


def verify(message: bytes | str, text: str | bytes, *, namespace: str = NAMESPACE,
           expected: PublicKey | Collection[PublicKey] | None = None, source: str = "signature") -> PublicKey:
    """The key that signed ``message`` (text as its UTF-8 bytes) with the armored signature
    ``text`` in ``namespace``; if ``expected`` is given, it must be that key (or one of
    those keys). :class:`TrustRefused` otherwise, its code saying why; ``source`` names
    what was checked in the message."""
    sig = parse(text, source)
    key = sig.key(source)
    if sig.hash_algorithm not in HASH_ALGORITHMS:
        raise TrustRefused(Refusal.HASH, f"the message was hashed with {clip(sig.hash_algorithm, 40)!r}: SSHSIG "
                                         f"signatures use {' or '.join(HASH_ALGORITHMS)}", source)
    if not sig.namespace:
        raise _malformed("the namespace is empty", source)
    if sig.namespace != namespace:
        raise TrustRefused(Refusal.NAMESPACE, f"signed for the namespace {clip(sig.namespace, 60)!r}, not "
                                              f"{namespace!r}: a signature made for another purpose", source)
    if sig.reserved:
        raise _malformed("the reserved field is not empty", source)
    if sig.signature_type != KEY_TYPE or len(sig.signature) != 64:
        raise _malformed(f"the signature field holds {clip(sig.signature_type, 40)!r} of {len(sig.signature)} "
                         f"bytes, not a {KEY_TYPE} signature of 64", source)
    if not key.verifies(sig.signature, signed_data(_bytes(message), sig.namespace, sig.hash_algorithm)):
        raise TrustRefused(Refusal.INVALID, f"the signature by {key.fingerprint()} does not match the message: "
                                            "the message is not the one signed, or the signature was altered",
                           source)
    if expected is not None:
        wanted = [expected] if isinstance(expected, PublicKey) else list(expected)
        if key not in wanted:
            names = ", ".join(_named(k) for k in wanted) or "no key"
            raise TrustRefused(Refusal.OTHER_KEY, f"signed by the key {key.fingerprint()}, not by "
                                                  f"{'one of ' if len(wanted) > 1 else ''}{names}", source)
        key = wanted[wanted.index(key)]
    return key


def _named(key: PublicKey) -> str:
    return f"{key.fingerprint()} ({clip(key.comment, 40)})" if key.comment else key.fingerprint()


def _bytes(message: bytes | str) -> bytes:
    return message.encode("utf-8") if isinstance(message, str) else bytes(message)


def _malformed(message: str, source: str) -> TrustRefused:
    return TrustRefused(Refusal.MALFORMED, f"not an SSH signature: {message}", source)
