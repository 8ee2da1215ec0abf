"""The allowed-signers file of ``ssh-keygen -Y verify -f FILE -I IDENTITY -n NAMESPACE -s
SIG < MESSAGE`` (ssh-keygen(1), "ALLOWED SIGNERS"), one line per seat of a game::

    romans@game-demo namespaces="antike-ref@turn" ssh-ed25519 AAAA... comment

The identity (OpenSSH's principal) of a seat is ``SEAT@GAME``; the line permits its key for
our namespace only, so the same file never vouches for a file or a commit signed with the
same key. We write such lines and read them back; from OpenSSH's syntax we read the
principals (a comma-separated list, quoted or not), the option ``namespaces="..."`` and the
key. What a game has no use for is refused, naming the file and the line: principal
patterns (``*``, ``?``, ``!``: each seat is named), ``cert-authority`` (no certificates),
``valid-after`` and ``valid-before`` (this layer keeps no clock), a key that is not
Ed25519. Empty lines and lines beginning with ``#`` are skipped.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pbem.errors import InputError, Problem, UsageError, clip
from pbem.trust.keys import KEY_TYPE, OTHER_TYPES, PublicKey, read_public_key
from pbem.trust.refusals import Refusal, TrustRefused
from pbem.trust.sshsig import NAMESPACE, parse, verify

MAX_FILE = 256 * 1024
"""An allowed-signers file longer than this is refused unread (a line per seat is about
150 characters)."""
NOT_IN_A_NAME = set(" \t\r\n,\"'*?!#")
"""Characters a principal or a namespace we write may not hold (OpenSSH's separators,
quotes and pattern characters)."""


@dataclass(frozen=True, slots=True)
class AllowedSigner:
    """One line: the identities (principals) a key signs for, and the namespaces it may
    sign in (all of them if none is named)."""

    principals: tuple[str, ...]
    key: PublicKey
    namespaces: tuple[str, ...] = (NAMESPACE,)

    def __post_init__(self) -> None:
        if not self.principals:
            raise UsageError("an allowed signer names at least one identity")
        for name in (*self.principals, *self.namespaces):
            if not name or NOT_IN_A_NAME & set(name):
                raise UsageError(f"{clip(name)!r} cannot stand in an allowed-signers line (no space, comma, quote, "
                                 "*, ?, ! or #)")

    def permits(self, namespace: str) -> bool:
        return not self.namespaces or namespace in self.namespaces

    def line(self) -> str:
        """The line of the allowed-signers file (no line break)."""
        options = f' namespaces="{",".join(self.namespaces)}"' if self.namespaces else ""
        return f"{','.join(self.principals)}{options} {self.key.line()}"


def identity(seat: str, game: str) -> str:
    """The identity of ``seat`` in ``game`` (``romans@game-demo``), as ``ssh-keygen -Y
    verify -I`` is given it."""
    return f"{seat}@{game}"


def allowed_signers_text(signers: Iterable[AllowedSigner]) -> str:
    """The allowed-signers file: one line each, in the order given."""
    return "".join(signer.line() + "\n" for signer in signers)


def read_allowed_signers(text: str, source: str) -> tuple[AllowedSigner, ...]:
    """The lines of the allowed-signers file ``text`` (read from ``source``); an
    :class:`InputError` naming the file and the line for any line that does not read."""
    if len(text) > MAX_FILE:
        raise InputError(source, f"{len(text)} characters: too long for an allowed-signers file")
    out = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line and not line.startswith("#"):
            out.append(_read_line(line, source, number))
    return tuple(out)


def signers_of(key: PublicKey, signers: Iterable[AllowedSigner], namespace: str = NAMESPACE) -> list[str]:
    """The identities ``key`` may sign for in ``namespace`` (``ssh-keygen -Y
    find-principals``), in the order of the file."""
    found = []
    for signer in signers:
        if signer.key == key and signer.permits(namespace):
            found += [p for p in signer.principals if p not in found]
    return found


def verify_allowed(message: bytes | str, text: str | bytes, signers: Sequence[AllowedSigner], who: str, *,
                   namespace: str = NAMESPACE, source: str = "signature") -> PublicKey:
    """Check, as ``ssh-keygen -Y verify -f FILE -I WHO -n NAMESPACE`` does, that ``text`` is
    a signature of ``message`` by a key the allowed ``signers`` name for the identity
    ``who`` in ``namespace``; return that key (with its comment from the file).
    :class:`TrustRefused` otherwise: ``sshsig/unknown-signer`` if no line names ``who``,
    ``sshsig/namespace`` if none of them permits the namespace, ``sshsig/other-key`` (naming
    whose key it is, if the file knows it) if another key signed, and every refusal of
    :func:`pbem.trust.sshsig.verify`."""
    named = [s for s in signers if who in s.principals]
    if not named:
        raise TrustRefused(Refusal.UNKNOWN_SIGNER, f"the allowed signers name no key for {clip(who)}", source)
    permitted = [s for s in named if s.permits(namespace)]
    if not permitted:
        allowed = sorted({n for s in named for n in s.namespaces})
        raise TrustRefused(Refusal.NAMESPACE, f"the allowed signers permit {clip(who)}'s key only for the "
                                              f"namespaces {', '.join(allowed)}, not {namespace!r}", source)
    try:
        return verify(message, text, namespace=namespace, expected=[s.key for s in permitted], source=source)
    except TrustRefused as exc:
        if exc.code is not Refusal.OTHER_KEY:
            raise
        signer = parse(text, source).key(source)
        others = signers_of(signer, signers, namespace)
        whose = f"the key of {', '.join(others)}" if others else "a key the allowed signers do not name"
        raise TrustRefused(Refusal.OTHER_KEY, f"signed by {whose} ({signer.fingerprint()}), not by {clip(who)}'s "
                                              f"key ({permitted[0].key.fingerprint()})", source) from None


def _read_line(line: str, source: str, number: int) -> AllowedSigner:
    def refuse(message: str) -> InputError:
        return InputError(source, [Problem(f"line {number}", message)])

    principals, rest = _word(line, refuse)
    if not rest.strip():
        raise refuse("no key after the identities")
    namespaces: tuple[str, ...] = ()
    first = rest.split(None, 1)[0] if rest.split() else ""
    if not _is_key_type(first):
        options, rest = _word(rest, refuse, keep_quotes=True)
        namespaces = _options(options, refuse)
    if not rest.strip():
        raise refuse("no key after the identities")
    key = read_public_key(rest, source, number)
    names = tuple(p for p in principals.split(","))
    for name in names:
        if not name:
            raise refuse(f"an empty identity in {clip(principals)!r}")
        if set("*?!") & set(name):
            raise refuse(f"{clip(name)!r} is a pattern: antike-ref reads allowed signers that name each identity")
    try:
        return AllowedSigner(names, key, namespaces)
    except UsageError as exc:
        raise refuse(str(exc)) from None


def _word(text: str, refuse, keep_quotes: bool = False) -> tuple[str, str]:
    """The first word of ``text`` (double quotes keep spaces and commas in it; they are
    taken off unless ``keep_quotes``), and the rest."""
    text = text.lstrip()
    out = []
    quoted = False
    for at, char in enumerate(text):
        if char == '"':
            quoted = not quoted
            if keep_quotes:
                out.append(char)
        elif char in " \t" and not quoted:
            return "".join(out), text[at:]
        else:
            out.append(char)
    if quoted:
        raise refuse("a quote is not closed")
    return "".join(out), ""


def _is_key_type(word: str) -> bool:
    return word == KEY_TYPE or word in OTHER_TYPES or word.endswith("-cert-v01@openssh.com")


def _options(text: str, refuse) -> tuple[str, ...]:
    """The namespaces the options ``text`` (a comma-separated list, a value in double
    quotes may hold commas) permit; any other option is refused."""
    namespaces: list[str] = []
    items, item, quoted = [], "", False
    for char in text + ",":
        if char == '"':
            quoted = not quoted
        elif char == "," and not quoted:
            items.append(item)
            item = ""
        else:
            item += char
    for option in items:
        name, _, value = option.partition("=")
        name = name.lower()
        if name == "namespaces" and value:
            namespaces += [n for n in value.split(",") if n]
        elif name == "cert-authority":
            raise refuse("cert-authority: antike-ref reads no certificates, name each seat's key")
        elif name in ("valid-after", "valid-before"):
            raise refuse(f"{name}: antike-ref keeps no time limits in allowed signers")
        else:
            raise refuse(f"{clip(option)!r} is neither a key type ({KEY_TYPE}) nor an option antike-ref reads "
                         "(namespaces=\"...\")")
    return tuple(namespaces)
