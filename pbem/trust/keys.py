"""Ed25519 keys in OpenSSH's formats.

- the private key file, ``-----BEGIN OPENSSH PRIVATE KEY-----``: read and written by pyca
  ``cryptography`` (``load_ssh_private_key``, ``PrivateFormat.OpenSSH``), unencrypted or
  protected by a passphrase (bcrypt key derivation and AES-256, as ``ssh-keygen`` does);
- the public key line, ``ssh-ed25519 AAAA... comment``, as in ``id_ed25519.pub`` and in an
  allowed-signers file (``load_ssh_public_key``);
- the SHA256 fingerprint, ``SHA256:`` and the unpadded base64 of the SHA-256 of the key's
  wire form, as ``ssh-keygen -l`` prints it.

Only Ed25519 keys are accepted: an RSA, ECDSA, DSA or security-key (``sk-``) key, or a
certificate, is refused with an :class:`pbem.errors.InputError` that names the file (and
the line) and says how to make an Ed25519 key.

A key protected by a passphrase needs the Python package ``bcrypt``, which
``cryptography`` uses for OpenSSH's key derivation; antike-ref depends on it, but an
installation without it still reads and writes keys without a passphrase, and for one
with a passphrase says that ``bcrypt`` is missing and how to go on (install it, or take
the passphrase off a copy of the key with ``ssh-keygen -p``).

The private key files ``cryptography`` writes carry no comment (and it reads none), so
``ssh-keygen -y -f`` prints the line of a key we wrote without a comment; the comment
lives in the public line (:attr:`PublicKey.comment`), as in ``id_ed25519.pub``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from dataclasses import dataclass, field

from pbem.errors import InputError, Problem, UsageError, clip

KEY_TYPE = "ssh-ed25519"
"""The one key type antike-ref signs and verifies with."""
OTHER_TYPES = {
    "ssh-rsa": "an RSA key",
    "ssh-dss": "a DSA key",
    "ecdsa-sha2-nistp256": "an ECDSA key",
    "ecdsa-sha2-nistp384": "an ECDSA key",
    "ecdsa-sha2-nistp521": "an ECDSA key",
    "sk-ssh-ed25519@openssh.com": "a security-key (FIDO) Ed25519 key",
    "sk-ecdsa-sha2-nistp256@openssh.com": "a security-key (FIDO) ECDSA key",
}
"""The other key types OpenSSH knows, as a refusal names them."""
MAKE_ONE = "antike-ref signs with Ed25519 keys only: make one with `ssh-keygen -t ed25519`"
MAX_KEY_FILE = 64 * 1024
"""A private key file longer than this is refused unread (an Ed25519 key file is about
400 bytes)."""
MAX_LINE = 16 * 1024
"""A public key line longer than this is refused unread (an Ed25519 line is about 100
characters and its comment)."""
DEFAULT_ROUNDS = 16
"""bcrypt rounds for a key written with a passphrase, as ``ssh-keygen`` uses."""


class PassphraseNeeded(InputError):
    """The private key is protected by a passphrase and none was given: a command may ask
    for it and read the key again."""


def key_type_name(key_type: str) -> str:
    """What a refusal calls a key of type ``key_type``."""
    if key_type.endswith("-cert-v01@openssh.com"):
        return f"a certificate ({key_type})"
    return f"{OTHER_TYPES.get(key_type, 'a key')} ({clip(key_type, 40)})"


@dataclass(frozen=True, slots=True)
class PublicKey:
    """An Ed25519 public key and the comment of its line. Two keys are equal when their
    key bytes are, whatever their comments."""

    raw: bytes
    """The 32 bytes of the key."""
    comment: str = field(default="", compare=False)
    """What follows the key on its line (often ``user@host``); no line break."""

    def __post_init__(self) -> None:
        if len(self.raw) != 32:
            raise ValueError(f"an Ed25519 public key has 32 bytes, not {len(self.raw)}")
        _check_comment(self.comment)

    def _library_key(self):
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

        return Ed25519PublicKey.from_public_bytes(self.raw)

    @property
    def blob(self) -> bytes:
        """The key in the SSH wire form (its type and its bytes, each as a string): what an
        SSHSIG blob carries and what the fingerprint hashes."""
        from cryptography.hazmat.primitives import serialization

        line = self._library_key().public_bytes(serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH)
        return base64.b64decode(line.split()[1])

    def line(self) -> str:
        """``ssh-ed25519 AAAA... comment`` (no comment, no space after the key)."""
        body = f"{KEY_TYPE} {base64.b64encode(self.blob).decode('ascii')}"
        return f"{body} {self.comment}" if self.comment else body

    def fingerprint(self) -> str:
        """``SHA256:...``, as ``ssh-keygen -l`` prints it."""
        digest = hashlib.sha256(self.blob).digest()
        return "SHA256:" + base64.b64encode(digest).decode("ascii").rstrip("=")

    def fingerprint_line(self, name: str = "") -> str:
        """The whole line ``ssh-keygen -l -f`` prints: ``256 SHA256:... comment (ED25519)``;
        for a key without a comment, ``name`` (ssh-keygen prints the file's name) or ``no
        comment``."""
        return f"256 {self.fingerprint()} {self.comment or name or 'no comment'} (ED25519)"

    def with_comment(self, comment: str) -> PublicKey:
        return PublicKey(self.raw, comment)

    def verifies(self, signature: bytes, data: bytes) -> bool:
        """Whether ``signature`` is this key's Ed25519 signature of ``data`` (the library's
        check)."""
        from cryptography.exceptions import InvalidSignature

        try:
            self._library_key().verify(signature, data)
        except InvalidSignature:
            return False
        return True

    def __repr__(self) -> str:
        return f"read_public_key({self.line()!r})"


class SecretKey:
    """An Ed25519 private key (the library's object, never printed) and the comment its
    public line gets."""

    __slots__ = ("_key", "comment")

    def __init__(self, key, comment: str = ""):
        _check_comment(comment)
        self._key = key
        self.comment = comment

    @property
    def public(self) -> PublicKey:
        from cryptography.hazmat.primitives import serialization

        raw = self._key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        return PublicKey(raw, self.comment)

    def sign(self, data: bytes) -> bytes:
        """The 64-byte Ed25519 signature of ``data`` (deterministic: the same key and data
        give the same bytes)."""
        return self._key.sign(bytes(data))

    def private_file(self, passphrase: str | bytes | None = None, rounds: int = DEFAULT_ROUNDS) -> bytes:
        """The OpenSSH private key file (``-----BEGIN OPENSSH PRIVATE KEY-----``), protected
        by ``passphrase`` unless it is empty or None. Each file written with a passphrase
        differs (a fresh salt); one without is the same for the same key but for four
        random check bytes OpenSSH puts in every file."""
        from cryptography.exceptions import UnsupportedAlgorithm
        from cryptography.hazmat.primitives import serialization

        secret = _passphrase_bytes(passphrase)
        if secret:
            protection = serialization.PrivateFormat.OpenSSH.encryption_builder().kdf_rounds(rounds).build(secret)
        else:
            protection = serialization.NoEncryption()
        try:
            return self._key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.OpenSSH, protection)
        except UnsupportedAlgorithm as exc:
            raise UsageError(f"cannot protect the key with a passphrase: {_bcrypt_missing(exc)}") from exc

    def public_file(self) -> str:
        """The ``.pub`` file: the public line and a newline."""
        return self.public.line() + "\n"

    def __repr__(self) -> str:
        return f"<SecretKey {self.public.fingerprint()} {self.comment or 'no comment'}>"


def generate_key(comment: str = "") -> SecretKey:
    """A new Ed25519 key from the operating system's randomness (through the library)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    return SecretKey(Ed25519PrivateKey.generate(), comment)


def key_from_seed(seed: bytes, comment: str = "") -> SecretKey:
    """The Ed25519 key whose 32-byte private seed is ``seed`` (the same seed, the same key:
    for tests and pinned examples)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    if len(seed) != 32:
        raise ValueError(f"an Ed25519 seed has 32 bytes, not {len(seed)}")
    return SecretKey(Ed25519PrivateKey.from_private_bytes(bytes(seed)), comment)


def read_private_key(data: bytes | str, source: str, passphrase: str | bytes | None = None,
                     comment: str = "") -> SecretKey:
    """The Ed25519 key of the OpenSSH private key file ``data`` (read from ``source``, the
    name the messages give); ``passphrase`` if the file is protected by one (it is ignored
    for a file that is not); ``comment`` for its public line (the file carries none
    that the library reads). Anything else is an :class:`InputError` naming ``source``;
    :class:`PassphraseNeeded` if the file needs a passphrase and none was given."""
    from cryptography.exceptions import InvalidTag, UnsupportedAlgorithm
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    raw = data.encode("utf-8", "replace") if isinstance(data, str) else bytes(data)
    if len(raw) > MAX_KEY_FILE:
        raise InputError(source, f"{len(raw)} bytes: too long for a private key file (an Ed25519 key has about 400)")
    _check_private_text(raw, source)
    secret = _passphrase_bytes(passphrase)
    try:
        try:
            key = serialization.load_ssh_private_key(raw, secret or None)
        except TypeError as exc:
            if "not encrypted" not in str(exc):
                raise PassphraseNeeded(source, "the key is protected by a passphrase: give the passphrase") from exc
            key = serialization.load_ssh_private_key(raw, None)
    except UnsupportedAlgorithm as exc:
        if "bcrypt" in str(exc):
            raise InputError(source, f"the key is protected by a passphrase: {_bcrypt_missing(exc)}") from exc
        text = str(exc)
        if "key type" in text:
            found = text.rpartition(":")[2].strip().strip("b'\"")
            raise InputError(source, f"{key_type_name(found)}: {MAKE_ONE}") from exc
        raise InputError(source, f"cannot read this private key: {clip(text, 120)}") from exc
    except (ValueError, InvalidTag) as exc:
        if secret:
            raise InputError(source, "wrong passphrase (or a damaged key file)") from exc
        raise InputError(source, f"a damaged OpenSSH private key: {clip(str(exc), 120)}") from exc
    if not isinstance(key, Ed25519PrivateKey):
        raise InputError(source, f"{_library_key_name(key)}: {MAKE_ONE}")
    return SecretKey(key, comment)


def read_public_key(line: str, source: str, line_no: int | None = None) -> PublicKey:
    """The Ed25519 key of the public key line ``line`` (``ssh-ed25519 AAAA... comment``),
    read from ``source`` (line ``line_no`` if given). Anything else is an
    :class:`InputError` naming the file and the line."""
    from cryptography.exceptions import UnsupportedAlgorithm
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    where = f"line {line_no}" if line_no is not None else "$"

    def refuse(message: str) -> InputError:
        return InputError(source, [Problem(where, message)])

    if len(line) > MAX_LINE:
        raise refuse(f"{len(line)} characters: too long for a public key line")
    words = line.strip().split(None, 2)
    if not words:
        raise refuse(f"an empty line where a public key line was expected ({KEY_TYPE} AAAA... comment)")
    if words[0] != KEY_TYPE:
        if words[0].endswith("-cert-v01@openssh.com"):
            raise refuse(f"{key_type_name(words[0])}: antike-ref reads plain {KEY_TYPE} keys, not certificates")
        if words[0] in OTHER_TYPES:
            raise refuse(f"{key_type_name(words[0])}: {MAKE_ONE}")
        raise refuse(f"not a public key line: it should begin with {KEY_TYPE}, not {clip(words[0], 40)!r}")
    if len(words) < 2:
        raise refuse(f"{KEY_TYPE} and no key after it")
    comment = words[2].strip() if len(words) > 2 else ""
    try:
        key = serialization.load_ssh_public_key(f"{KEY_TYPE} {words[1]}".encode("ascii"))
    except (ValueError, UnicodeEncodeError, binascii.Error, UnsupportedAlgorithm) as exc:
        raise refuse(f"a damaged {KEY_TYPE} key: {clip(str(exc), 80)}") from exc
    if not isinstance(key, Ed25519PublicKey):
        raise refuse(f"{_library_key_name(key)} behind the word {KEY_TYPE}: {MAKE_ONE}")
    raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return PublicKey(raw, comment)


def _check_private_text(raw: bytes, source: str) -> None:
    """Refuse, with a hint, what is plainly not an OpenSSH private key file."""
    head = raw.lstrip()[:80]
    if b"-----BEGIN OPENSSH PRIVATE KEY-----" in raw:
        return
    if head.startswith(KEY_TYPE.encode()) or any(head.startswith(t.encode()) for t in OTHER_TYPES):
        raise InputError(source, "this is a public key line (a .pub file): give the private key file, the one "
                                 "without .pub")
    if b"-----BEGIN RSA PRIVATE KEY-----" in raw:
        raise InputError(source, f"an RSA key (PEM): {MAKE_ONE}")
    if b"-----BEGIN EC PRIVATE KEY-----" in raw:
        raise InputError(source, f"an ECDSA key (PEM): {MAKE_ONE}")
    if b"-----BEGIN DSA PRIVATE KEY-----" in raw:
        raise InputError(source, f"a DSA key (PEM): {MAKE_ONE}")
    raise InputError(source, "not an OpenSSH private key: the file should begin with "
                             "-----BEGIN OPENSSH PRIVATE KEY----- (ssh-keygen -t ed25519 writes one)")


def _library_key_name(key) -> str:
    """What a refusal calls a key the library read that is not Ed25519."""
    from cryptography.hazmat.primitives.asymmetric import dsa, ec, rsa

    kinds = (((rsa.RSAPrivateKey, rsa.RSAPublicKey), "ssh-rsa"), ((dsa.DSAPrivateKey, dsa.DSAPublicKey), "ssh-dss"),
             ((ec.EllipticCurvePrivateKey, ec.EllipticCurvePublicKey), "ecdsa-sha2-nistp256"))
    for classes, key_type in kinds:
        if isinstance(key, classes):
            return OTHER_TYPES[key_type]
    return f"a key of another type ({type(key).__name__})"


def _passphrase_bytes(passphrase: str | bytes | None) -> bytes:
    if passphrase is None:
        return b""
    return passphrase.encode("utf-8") if isinstance(passphrase, str) else bytes(passphrase)


def _bcrypt_missing(exc: Exception) -> str:
    return ("this needs the Python package bcrypt, which is not installed (`pip install bcrypt`; antike-ref "
            "installs it with itself), or take the passphrase off a copy of the key with `ssh-keygen -p -f COPY`"
            if "bcrypt" in str(exc) else str(exc))


def _check_comment(comment: str) -> None:
    if "\n" in comment or "\r" in comment:
        raise UsageError(f"a key's comment is one line: {clip(comment)!r}")
