"""pbem.trust: keys, SSHSIG signatures, allowed signers and fair draws (issue 39, the
cryptographic groundwork of games without a game master).

The interoperability tests run the real OpenSSH ``ssh-keygen`` (Debian's openssh-client):
what we sign it verifies, what it signs we verify, the keys each writes the other reads,
and the fingerprints agree.
"""

from __future__ import annotations

import ast
import base64
import functools
import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.errors import ExitCode, InputError, UsageError
from pbem.trust import commit, keys, signers, sshsig
from pbem.trust.refusals import Refusal, TrustRefused

ROOT = Path(__file__).resolve().parent.parent.parent
SSH_KEYGEN = shutil.which("ssh-keygen")
MESSAGE = b'{"game":"demo","kind":"turn","orders":{"move":"temple"}}\n'


def keygen(*args, stdin: bytes | None = None, check: bool = True) -> subprocess.CompletedProcess:
    """Run OpenSSH's ssh-keygen (never prompting: no terminal, stdin given or empty)."""
    if SSH_KEYGEN is None:
        pytest.fail("these tests need OpenSSH's ssh-keygen (Debian package openssh-client)")
    result = subprocess.run([SSH_KEYGEN, *map(str, args)], input=stdin or b"", capture_output=True, timeout=60)
    if check:
        assert result.returncode == 0, result.stderr.decode()
    return result


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """Keys ssh-keygen generated: ``plain`` without a passphrase, ``locked`` with one,
    ``rsa`` and ``ecdsa`` of other types."""
    folder = tmp_path_factory.mktemp("ssh")
    keygen("-q", "-t", "ed25519", "-N", "", "-C", "romans@example", "-f", folder / "plain")
    keygen("-q", "-t", "ed25519", "-N", "open sesame", "-C", "greeks@example", "-f", folder / "locked")
    keygen("-q", "-t", "rsa", "-b", "2048", "-N", "", "-C", "old@example", "-f", folder / "rsa")
    keygen("-q", "-t", "ecdsa", "-N", "", "-f", folder / "ecdsa")
    return folder


def refusal(call, *args, **kwargs) -> TrustRefused:
    with pytest.raises(TrustRefused) as caught:
        call(*args, **kwargs)
    assert caught.value.exit_code == ExitCode.VERIFY_FAILED == 6
    return caught.value


def input_error(call, *args, **kwargs) -> InputError:
    with pytest.raises(InputError) as caught:
        call(*args, **kwargs)
    assert caught.value.exit_code == ExitCode.BAD_INPUT == 3
    return caught.value


# -- keys ---------------------------------------------------------------------------------


def test_keys_ssh_keygen_made_load_with_their_fingerprints(made):
    """A key ssh-keygen generated, with and without a passphrase, loads; its public key is
    the .pub line's, and our fingerprint line is the one ``ssh-keygen -l -f`` prints."""
    for name, passphrase in (("plain", None), ("locked", "open sesame")):
        pub_line = (made / f"{name}.pub").read_text()
        public = keys.read_public_key(pub_line, f"{name}.pub", 1)
        secret = keys.read_private_key((made / name).read_bytes(), name, passphrase, comment=public.comment)
        assert secret.public == public and secret.public.line() + "\n" == pub_line
        printed = keygen("-l", "-f", made / f"{name}.pub").stdout.decode()
        assert public.fingerprint_line() + "\n" == printed
        assert keygen("-l", "-f", made / name).stdout.decode().split()[1] == secret.public.fingerprint()


def test_keys_we_wrote_load_in_ssh_keygen(tmp_path):
    """``ssh-keygen -y -f`` reads the private key files we write (with and without a
    passphrase) and prints our public line; ``-l`` prints our fingerprint line."""
    secret = keys.generate_key("romans@game-demo")
    for name, passphrase in (("ours", None), ("ours-locked", "correct horse")):
        path = tmp_path / name
        path.write_bytes(secret.private_file(passphrase))
        path.chmod(0o600)  # ssh-keygen ignores a private key others may read
        (tmp_path / f"{name}.pub").write_text(secret.public_file())
        assert path.read_bytes().startswith(b"-----BEGIN OPENSSH PRIVATE KEY-----\n")
        args = ["-P", passphrase] if passphrase else []
        printed = keygen("-y", *args, "-f", path).stdout.decode()
        # the file carries no comment (the library writes none): the line without it
        assert printed == secret.public.with_comment("").line() + "\n"
        assert printed.split()[:2] == secret.public.line().split()[:2]
        assert keygen("-l", "-f", tmp_path / f"{name}.pub").stdout.decode() == secret.public.fingerprint_line() + "\n"
        again = keys.read_private_key(path.read_bytes(), str(path), passphrase)
        assert again.public == secret.public
    assert keygen("-y", "-P", "wrong", "-f", tmp_path / "ours-locked", check=False).returncode != 0


def test_a_key_round_trips_and_never_shows_its_secret():
    secret = keys.key_from_seed(bytes(range(32)), comment="persians")
    public = secret.public
    assert public.line().startswith("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI") and public.line().endswith(" persians")
    assert eval(repr(public), {"read_public_key": lambda line: keys.read_public_key(line, "repr")}) == public
    assert keys.read_public_key(public.line(), "x").comment == "persians"
    assert public == public.with_comment("another comment")  # equal keys, whatever the comment
    assert bytes(range(32)).hex() not in repr(secret) and "SHA256:" in repr(secret)
    locked = secret.private_file("pass", rounds=2)
    assert locked != secret.private_file("pass", rounds=2)  # a fresh salt each time
    assert keys.read_private_key(locked, "k", "pass").public == public
    # a passphrase given for a key that has none is not needed, and not in the way
    assert keys.read_private_key(secret.private_file(), "k", "unneeded").public == public


def test_a_key_protected_by_a_passphrase_asks_for_it():
    locked = keys.generate_key().private_file("pass", rounds=2)
    asked = input_error(keys.read_private_key, locked, "id_ed25519")
    assert isinstance(asked, keys.PassphraseNeeded)
    assert str(asked) == "id_ed25519: $: the key is protected by a passphrase: give the passphrase"
    wrong = input_error(keys.read_private_key, locked, "id_ed25519", "not it")
    assert "wrong passphrase" in str(wrong)


@pytest.mark.parametrize("kind", ["rsa", "ecdsa"])
def test_a_key_of_another_type_is_refused_naming_the_file(made, kind):
    """An RSA or ECDSA key, as a private key file or as a public line of a file, is an
    InputError that names the file (and the line) and how to make an Ed25519 key."""
    private = input_error(keys.read_private_key, (made / kind).read_bytes(), f"keys/{kind}")
    name = {"rsa": "an RSA key", "ecdsa": "an ECDSA key"}[kind]
    assert str(private).startswith(f"keys/{kind}: $: {name}") and "ssh-keygen -t ed25519" in str(private)
    public = input_error(keys.read_public_key, (made / f"{kind}.pub").read_text(), f"keys/{kind}.pub", 3)
    assert str(public).startswith(f"keys/{kind}.pub: line 3: {name} (")
    assert "ssh-keygen -t ed25519" in str(public)


def test_what_is_no_private_key_file_is_refused_with_a_hint(made):
    pub = input_error(keys.read_private_key, (made / "plain.pub").read_bytes(), "id.pub")
    assert "give the private key file, the one without .pub" in str(pub)
    pem = input_error(keys.read_private_key, b"-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\n",
                      "old.pem")
    assert "an RSA key (PEM)" in str(pem)
    assert "should begin with -----BEGIN OPENSSH PRIVATE KEY-----" in str(input_error(keys.read_private_key,
                                                                                     b"hello", "notes.txt"))
    text = (made / "plain").read_text()
    damaged = text.replace(text.splitlines()[3], "A" * len(text.splitlines()[3]))
    assert "damaged" in str(input_error(keys.read_private_key, damaged, "id"))
    assert "too long" in str(input_error(keys.read_private_key, b"x" * (keys.MAX_KEY_FILE + 1), "big"))


@pytest.mark.parametrize("line,expected", [
    ("", "an empty line"),
    ("ssh-ed25519", "no key after it"),
    ("ssh-ed25519 AAAA", "a damaged ssh-ed25519 key"),
    ("ssh-ed25519 !!!notbase64", "a damaged ssh-ed25519 key"),
    ('command="ls" ssh-ed25519 AAAA', "not a public key line"),
    ("ssh-dss AAAAB3NzaC1kc3M=", "a DSA key (ssh-dss)"),
    ("sk-ssh-ed25519@openssh.com AAAA x", "a security-key (FIDO) Ed25519 key"),
    ("ssh-ed25519-cert-v01@openssh.com AAAA x", "not certificates"),
    ("ssh-ed25519 " + "A" * keys.MAX_LINE, "too long"),
])
def test_a_public_line_that_does_not_read_is_refused_by_line(line, expected):
    error = input_error(keys.read_public_key, line, "seats.txt", 7)
    assert str(error).startswith("seats.txt: line 7: ") and expected in str(error), str(error)


def test_an_rsa_key_behind_the_ed25519_word_is_refused(made):
    rsa_blob = (made / "rsa.pub").read_text().split()[1]
    error = input_error(keys.read_public_key, f"ssh-ed25519 {rsa_blob} x", "seats.txt", 2)
    assert "a damaged ssh-ed25519 key" in str(error)


def test_a_comment_is_one_line():
    with pytest.raises(UsageError):
        keys.generate_key("two\nlines")


BCRYPT_MISSING = """
import sys
sys.modules["bcrypt"] = None  # import bcrypt now fails, as on an installation without it
from pbem.errors import PbemError
from pbem.trust import keys
secret = keys.key_from_seed(bytes(32), "x")
plain = secret.private_file()
print("plain", keys.read_private_key(plain, "id").public == secret.public)
for what, call in (("read", lambda: keys.read_private_key(open(sys.argv[1], "rb").read(), "id_locked", "pw")),
                   ("write", lambda: secret.private_file("pw"))):
    try:
        call()
    except PbemError as exc:
        print(what, type(exc).__name__, int(exc.exit_code), exc)
"""


def test_without_bcrypt_keys_with_a_passphrase_say_what_is_missing(tmp_path):
    """Without the package bcrypt a key without a passphrase still reads and writes; one
    with a passphrase is refused with a message that names bcrypt and the way on."""
    locked = tmp_path / "locked"
    locked.write_bytes(keys.generate_key().private_file("pw", rounds=2))
    result = subprocess.run([sys.executable, "-c", BCRYPT_MISSING, str(locked)], capture_output=True, text=True,
                            cwd=ROOT)
    assert result.returncode == 0, result.stderr
    plain, read, write = result.stdout.splitlines()
    assert plain == "plain True"
    assert read.startswith("read InputError 3 id_locked: $: the key is protected by a passphrase: this needs the "
                           "Python package bcrypt, which is not installed (`pip install bcrypt`")
    assert "ssh-keygen -p -f COPY" in read
    assert write.startswith("write UsageError 2 cannot protect the key with a passphrase: this needs the Python "
                            "package bcrypt")


# -- SSHSIG -------------------------------------------------------------------------------


def seat(name: str, index: int) -> keys.SecretKey:
    return keys.key_from_seed(hashlib.sha256(name.encode()).digest(), comment=f"{name} player {index}")


ROMANS, GREEKS = seat("romans", 1), seat("greeks", 2)


def allowed_file(folder: Path, *pairs) -> Path:
    path = folder / "allowed_signers"
    path.write_text(signers.allowed_signers_text(
        signers.AllowedSigner((signers.identity(name, "game-demo"),), key.public) for name, key in pairs))
    return path


def test_our_signature_verifies_with_ssh_keygen(tmp_path):
    """What we sign ``ssh-keygen -Y verify`` accepts, with an allowed-signers file we
    wrote; it refuses it for another seat's identity and another namespace, as we do."""
    allowed = allowed_file(tmp_path, ("romans", ROMANS), ("greeks", GREEKS))
    sig = tmp_path / "entry.sig"
    sig.write_text(sshsig.sign(MESSAGE, ROMANS))
    good = keygen("-Y", "verify", "-f", allowed, "-I", "romans@game-demo", "-n", "antike-ref@turn", "-s", sig,
                  stdin=MESSAGE)
    assert good.stdout.decode().startswith(f'Good "antike-ref@turn" signature for romans@game-demo with ED25519 key '
                                           f"{ROMANS.public.fingerprint()}")
    for identity, namespace, message in (("greeks@game-demo", "antike-ref@turn", MESSAGE),
                                         ("romans@game-demo", "file", MESSAGE),
                                         ("romans@game-demo", "antike-ref@turn", MESSAGE + b" ")):
        theirs = keygen("-Y", "verify", "-f", allowed, "-I", identity, "-n", namespace, "-s", sig,
                        stdin=message, check=False)
        assert theirs.returncode != 0, (identity, namespace)
        refusal(signers.verify_allowed, message, sig.read_text(), signers.read_allowed_signers(
            allowed.read_text(), "allowed_signers"), identity, namespace=namespace)
    found = keygen("-Y", "find-principals", "-f", allowed, "-s", sig).stdout.decode().split()
    assert found == signers.signers_of(ROMANS.public, signers.read_allowed_signers(allowed.read_text(), "a"))


def test_an_ssh_keygen_signature_verifies_with_ours(made, tmp_path):
    """``ssh-keygen -Y sign`` with a key ``ssh-keygen -t ed25519`` made: ours verifies it,
    returns that key, and makes byte for byte the same signature with it (Ed25519 is
    deterministic). A signature hashed with sha256 verifies too."""
    message = tmp_path / "entry.json"
    message.write_bytes(MESSAGE)
    key = made / "plain"
    keygen("-Y", "sign", "-f", key, "-n", "antike-ref@turn", message)
    theirs = (tmp_path / "entry.json.sig").read_text()
    public = keys.read_public_key((made / "plain.pub").read_text(), "plain.pub")
    assert sshsig.verify(MESSAGE, theirs, expected=public) == public
    assert sshsig.verify(MESSAGE, theirs).comment == ""  # the blob carries no comment
    assert sshsig.sign(MESSAGE, keys.read_private_key(key.read_bytes(), "plain")) == theirs
    (tmp_path / "entry.json.sig").unlink()
    keygen("-Y", "sign", "-f", key, "-n", "antike-ref@turn", "-O", "hashalg=sha256", message)
    sha256 = (tmp_path / "entry.json.sig").read_text()
    assert sshsig.parse(sha256).hash_algorithm == "sha256"
    assert sshsig.verify(MESSAGE, sha256, expected=public) == public


def test_an_rsa_signature_is_refused(made, tmp_path):
    message = tmp_path / "entry.json"
    message.write_bytes(MESSAGE)
    keygen("-Y", "sign", "-f", made / "rsa", "-n", "antike-ref@turn", message)
    error = refusal(sshsig.verify, MESSAGE, (tmp_path / "entry.json.sig").read_text(), source="entry 4")
    assert error.code is Refusal.KEY_TYPE
    assert str(error) == ("entry 4: made with an RSA key (ssh-rsa): antike-ref verifies ssh-ed25519 signatures only "
                          "(sshsig/key-type)")


def test_the_signature_format_is_the_one_described():
    """The blob is laid out as pbem/trust/sshsig.py says (and PROTOCOL.sshsig): magic,
    version 1, the key, the namespace, an empty reserved field, sha512, the signature over
    the hash of the message; the armor wraps the base64 at 70 characters."""
    text = sshsig.sign(MESSAGE, ROMANS)
    lines = text.splitlines()
    assert lines[0] == "-----BEGIN SSH SIGNATURE-----" and lines[-1] == "-----END SSH SIGNATURE-----"
    assert {len(line) for line in lines[1:-2]} == {70} and text.endswith("-----\n")
    blob = base64.b64decode("".join(lines[1:-1]))

    def framed(*items):
        return b"".join(struct.pack(">I", len(i)) + i for i in items)

    digest = hashlib.sha512(MESSAGE).digest()
    raw = ROMANS.sign(b"SSHSIG" + framed(b"antike-ref@turn", b"", b"sha512", digest))
    key_blob = framed(b"ssh-ed25519", ROMANS.public.raw)
    assert blob == b"SSHSIG" + struct.pack(">I", 1) + framed(key_blob, b"antike-ref@turn", b"", b"sha512",
                                                             framed(b"ssh-ed25519", raw))


def test_verify_returns_the_expected_key_with_its_comment():
    text = sshsig.sign(MESSAGE.decode(), ROMANS)  # text is signed as its UTF-8 bytes
    assert sshsig.verify(MESSAGE, text) == ROMANS.public
    assert sshsig.verify(MESSAGE, text, expected=[GREEKS.public, ROMANS.public]).comment == "romans player 1"


def test_every_refusal_of_a_signature_is_its_own():
    """A wrong namespace, an altered message, an altered signature byte, another key:
    each refused with its code and a message that says it."""
    text = sshsig.sign(MESSAGE, ROMANS)
    other_namespace = sshsig.sign(MESSAGE, ROMANS, namespace="file")
    error = refusal(sshsig.verify, MESSAGE, other_namespace, source="entry 3")
    assert error.code is Refusal.NAMESPACE
    assert str(error) == ("entry 3: signed for the namespace 'file', not 'antike-ref@turn': a signature made for "
                          "another purpose (sshsig/namespace)")
    error = refusal(sshsig.verify, MESSAGE.replace(b"temple", b"trade!"), text)
    assert error.code is Refusal.INVALID
    assert "does not match the message: the message is not the one signed, or the signature was altered" in str(error)
    blob = bytearray(sshsig.dearmor(text))
    blob[-5] ^= 0x01  # a byte of the Ed25519 signature itself
    assert refusal(sshsig.verify, MESSAGE, sshsig.armor(bytes(blob))).code is Refusal.INVALID
    error = refusal(sshsig.verify, MESSAGE, text, expected=GREEKS.public)
    assert error.code is Refusal.OTHER_KEY
    assert str(error) == (f"signature: signed by the key {ROMANS.public.fingerprint()}, not by "
                          f"{GREEKS.public.fingerprint()} (greeks player 2) (sshsig/other-key)")


def test_no_bit_of_a_signature_can_change_unnoticed():
    """Every single-bit change anywhere in the blob is refused; one in the namespace as a
    namespace, one in the magic as malformed, one in the version as a version."""
    blob = sshsig.dearmor(sshsig.sign(MESSAGE, ROMANS))
    namespace_at = blob.index(b"antike-ref@turn")
    codes = {}
    for at in range(len(blob)):
        changed = bytearray(blob)
        changed[at] ^= 0x04
        codes[at] = refusal(sshsig.verify, MESSAGE, sshsig.armor(bytes(changed))).code
    assert {codes[at] for at in range(6)} == {Refusal.MALFORMED}
    assert codes[9] is Refusal.VERSION
    assert {codes[at] for at in range(namespace_at, namespace_at + 15)} == {Refusal.NAMESPACE}
    assert codes[len(blob) - 1] is Refusal.INVALID


@pytest.mark.parametrize("text,expected", [
    ("", "it does not begin with -----BEGIN SSH SIGNATURE-----"),
    ("hello\n", "it does not begin with"),
    ("-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n", "it does not end with -----END SSH SIGNATURE-----"),
    ("-----BEGIN SSH SIGNATURE-----\n-----END SSH SIGNATURE-----\n", "nothing between the header and the footer"),
    ("-----BEGIN SSH SIGNATURE-----\nU1NI*U0lH\n-----END SSH SIGNATURE-----\n", "is not base64"),
    ("-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n-----END SSH SIGNATURE-----\n", "ends in the middle of a field"),
    ("-----BEGIN SSH SIGNATURE-----\nU1NIU0lI\n-----END SSH SIGNATURE-----\n", "does not begin with SSHSIG"),
    ("-----BEGIN SSH SIGNATURE-----\nAAAA\n-----END SSH SIGNATURE-----\nmore\n", "text after"),
    ("-----BEGIN SSH SIGNATURE-----\n" + "A" * 9000 + "\n-----END SSH SIGNATURE-----\n", "too long"),
])
def test_malformed_armor_is_refused(text, expected):
    error = refusal(sshsig.verify, MESSAGE, text, source="post 12")
    assert error.code is Refusal.MALFORMED and expected in str(error) and str(error).startswith("post 12: ")


def test_a_blob_with_more_or_other_fields_is_refused():
    blob = sshsig.dearmor(sshsig.sign(MESSAGE, ROMANS))
    assert refusal(sshsig.verify, MESSAGE, sshsig.armor(blob + b"\0")).code is Refusal.MALFORMED
    version2 = blob[:6] + struct.pack(">I", 2) + blob[10:]
    assert "SSHSIG version 2" in str(refusal(sshsig.verify, MESSAGE, sshsig.armor(version2)))
    md5 = blob.replace(b"\0\0\0\x06sha512", b"\0\0\0\x06sha384")
    assert refusal(sshsig.verify, MESSAGE, sshsig.armor(md5)).code is Refusal.HASH
    reserved = blob.replace(b"antike-ref@turn\0\0\0\0", b"antike-ref@turn\0\0\0\x01x")
    assert "the reserved field is not empty" in str(refusal(sshsig.verify, MESSAGE, sshsig.armor(reserved)))
    # the armor may come with CRLF line ends and space around it (a mail, a forum post)
    crlf = "\n  " + sshsig.sign(MESSAGE, ROMANS).replace("\n", "\r\n") + "  \n"
    assert sshsig.verify(MESSAGE, crlf) == ROMANS.public


# -- allowed signers ----------------------------------------------------------------------


def test_allowed_signers_we_write_read_back():
    pairs = [signers.AllowedSigner(("romans@game-demo",), ROMANS.public),
             signers.AllowedSigner(("greeks@game-demo", "greeks@game-2"), GREEKS.public, ())]
    text = signers.allowed_signers_text(pairs)
    assert text.splitlines()[0] == f'romans@game-demo namespaces="antike-ref@turn" {ROMANS.public.line()}'
    assert text.splitlines()[1] == f"greeks@game-demo,greeks@game-2 {GREEKS.public.line()}"
    assert signers.read_allowed_signers(text, "allowed") == tuple(pairs)


def test_allowed_signers_in_openssh_syntax_read(made):
    """Comments, blank lines, quoted principals, several namespaces in quotes, the option
    name in capitals: the lines ssh-keygen(1) documents and a player may write by hand."""
    plain = (made / "plain.pub").read_text().strip()
    text = (f"# the seats of game-demo\n\n"
            f'"romans@game-demo" NAMESPACES="file,antike-ref@turn" {ROMANS.public.line()}\n'
            f"  greeks@game-demo,greeks@other {GREEKS.public.line()}\n"
            f"persians@game-demo {plain}\n")
    read = signers.read_allowed_signers(text, "allowed")
    assert [s.principals for s in read] == [("romans@game-demo",), ("greeks@game-demo", "greeks@other"),
                                            ("persians@game-demo",)]
    assert read[0].namespaces == ("file", "antike-ref@turn") and read[1].namespaces == ()
    assert read[2].key.comment == "romans@example"


@pytest.mark.parametrize("line,expected", [
    ("romans@game-demo ssh-rsa AAAAB3NzaC1yc2E= old", "line 2: an RSA key (ssh-rsa)"),
    ("*@game-demo ssh-ed25519 {key}", "is a pattern"),
    ("romans@game-demo cert-authority ssh-ed25519 {key}", "cert-authority: antike-ref reads no certificates"),
    ('romans@game-demo valid-before="20300101" ssh-ed25519 {key}', "valid-before"),
    ("romans@game-demo no-touch-required ssh-ed25519 {key}", "neither a key type"),
    ("romans@game-demo", "no key after the identities"),
    ('"romans@game-demo ssh-ed25519 {key}', "a quote is not closed"),
    ("romans@game-demo,,greeks@game-demo ssh-ed25519 {key}", "an empty identity"),
])
def test_an_allowed_signers_line_that_does_not_read_is_refused_by_line(line, expected):
    key = ROMANS.public.line().split()[1]
    text = f"# seats\n{line.format(key=key)}\n"
    error = input_error(signers.read_allowed_signers, text, "game-demo.allowed")
    assert str(error).startswith("game-demo.allowed: line 2: ") and expected in str(error), str(error)


def test_verify_with_allowed_signers_names_whose_key_signed():
    allowed = (signers.AllowedSigner(("romans@game-demo",), ROMANS.public),
               signers.AllowedSigner(("greeks@game-demo",), GREEKS.public),
               signers.AllowedSigner(("arbiter@game-demo",), seat("arbiter", 9).public, ("file",)))
    text = sshsig.sign(MESSAGE, GREEKS)
    assert signers.verify_allowed(MESSAGE, text, allowed, "greeks@game-demo").comment == "greeks player 2"
    wrong_seat = refusal(signers.verify_allowed, MESSAGE, text, allowed, "romans@game-demo", source="entry 7")
    assert wrong_seat.code is Refusal.OTHER_KEY
    assert str(wrong_seat) == (f"entry 7: signed by the key of greeks@game-demo ({GREEKS.public.fingerprint()}), not "
                               f"by romans@game-demo's key ({ROMANS.public.fingerprint()}) (sshsig/other-key)")
    stranger = sshsig.sign(MESSAGE, seat("stranger", 0))
    assert "a key the allowed signers do not name" in str(
        refusal(signers.verify_allowed, MESSAGE, stranger, allowed, "romans@game-demo"))
    assert refusal(signers.verify_allowed, MESSAGE, text, allowed, "egypt@game-demo").code is Refusal.UNKNOWN_SIGNER
    arbiter = sshsig.sign(MESSAGE, seat("arbiter", 9))
    error = refusal(signers.verify_allowed, MESSAGE, arbiter, allowed, "arbiter@game-demo")
    assert error.code is Refusal.NAMESPACE and "only for the namespaces file" in str(error)


def test_a_name_that_cannot_stand_in_the_file_is_refused():
    for bad in ("romans game", "a,b", 'quote"', "any*", ""):
        with pytest.raises(UsageError):
            signers.AllowedSigner((bad,), ROMANS.public)


# -- commitments and draws ----------------------------------------------------------------

SEATS = ("romans", "greeks", "persians")


@functools.cache
def chains(length: int, game: str = "game-demo") -> dict[str, commit.HashChain]:
    """Three players' chains from fixed seeds (made once per length: a chain only reads)."""
    return {s: commit.HashChain(hashlib.sha256(f"seed of {s}".encode()).digest(), game, s, length) for s in SEATS}


def test_a_chain_opens_reveal_by_reveal():
    chain = chains(5)["romans"]
    tracker = commit.Tracker(chain.commitment())
    assert [tracker.accept(chain.reveal(r)) for r in range(1, 6)] == [1, 2, 3, 4, 5]
    assert all(commit.link("game-demo", "romans", r, chain.reveal(r)) == (chain.reveal(r - 1) if r > 1 else chain.head)
               for r in range(1, 6))
    # a verifier that joins later replays what was revealed
    assert commit.Tracker(chain.commitment(), tracker.revealed).position == 5
    error = refusal(tracker.accept, os.urandom(32))
    assert error.code is Refusal.EXHAUSTED and "committed to 5 reveals, all of them made" in str(error)
    assert "seed" not in repr(chain) and chain.reveal(5).hex() not in repr(chain)


def test_a_reveal_that_does_not_match_is_refused():
    made = chains(6)
    tracker = commit.Tracker(made["romans"].commitment())
    tracker.accept(made["romans"].reveal(1))
    for wrong in (os.urandom(32), made["greeks"].reveal(2), made["romans"].reveal(3)):
        error = refusal(tracker.accept, wrong, source="entry 9")
        assert error.code is Refusal.MISMATCH
        assert str(error) == ("entry 9: this value does not open romans's commitment (its hash is not reveal 1): "
                              "not the value committed to (commit/mismatch)")
    assert tracker.position == 1  # nothing refused was taken
    assert refusal(tracker.accept, b"short").code is Refusal.BAD_VALUE
    assert refusal(tracker.accept, "ab" * 16).code is Refusal.BAD_VALUE
    assert tracker.accept(made["romans"].reveal(2)) == 2


def test_a_replayed_reveal_is_refused():
    """Offering an old value again (to draw a card again by replaying a turn) is refused as
    a replay, whether it is the last reveal, an older one, or the head."""
    chain = chains(6)["greeks"]
    tracker = commit.Tracker(chain.commitment(), [chain.reveal(1), chain.reveal(2), chain.reveal(3)])
    for value, what in ((chain.reveal(3), "reveal 3"), (chain.reveal(1), "reveal 1"),
                        (chain.head, "the head of the chain")):
        error = refusal(tracker.accept, value)
        assert error.code is Refusal.REPLAYED
        assert str(error) == (f"greeks's reveal 4: this value is {what} of greeks, already public: a draw cannot be "
                              "made again with it (commit/replayed)")
    assert tracker.position == 3


def test_chains_are_separated_by_game_and_seat():
    seed = bytes(32)
    heads = {commit.HashChain(seed, game, s, 4).head for game in ("g1", "g2") for s in ("a", "b")}
    assert len(heads) == 4
    # a player who copied another's head cannot open it with the other's reveals
    a, b = commit.HashChain(seed, "g1", "a", 4), commit.HashChain(os.urandom(32), "g1", "b", 4)
    copied = commit.Tracker(commit.Commitment("g1", "b", a.head, 4))
    assert refusal(copied.accept, a.reveal(1)).code is Refusal.MISMATCH
    assert b.head != a.head


CHI2_24_999 = 51.179
"""The 0.999 quantile of the chi-square distribution with 24 degrees of freedom (25 cards):
an honest draw exceeds it one time in a thousand."""
CHI2_576_999 = 686.609
"""The same with 576 = 24 x 24 degrees of freedom (a 25 x 25 table of card and place whose
rows and columns each sum to the number of shuffles). Both computed from the regularized
incomplete gamma function (scipy's ``chi2.ppf(0.999, k)`` gives the same)."""
DRAWS = 10_000


def chi_square(counts, expected):
    return sum((c - expected) ** 2 / expected for c in counts)


def test_draws_from_honest_commitments_are_uniform_over_25_cards():
    """10,000 draws, each decided by the next reveal of three players' chains (each reveal
    checked against its commitment), spread over 25 cards as a uniform draw does: the
    chi-square statistic is below the 0.999 quantile (fixed seeds: the same every run)."""
    made = chains(DRAWS)
    trackers = {s: commit.Tracker(c.commitment()) for s, c in made.items()}
    counts = [0] * 25
    for turn in range(1, DRAWS + 1):
        reveals = {s: made[s].reveal(turn) for s in SEATS}
        for s in SEATS:
            trackers[s].accept(reveals[s])
        counts[commit.draw("game-demo", turn, "deck", reveals, 25)] += 1
    assert sum(counts) == DRAWS and min(counts) > 0
    assert chi_square(counts, DRAWS / 25) < CHI2_24_999, counts


def test_the_uniformity_check_sees_a_modulo_bias():
    """The same statistic over the same stream read as ``% 25`` of 6 bits (the bias that
    rejection sampling avoids) is far above the threshold: the check above can fail."""
    made = chains(DRAWS)
    counts = [0] * 25
    for turn in range(1, DRAWS + 1):
        stream = commit.stream("game-demo", turn, "deck", {s: made[s].reveal(turn) for s in SEATS})
        counts[(stream.take(1)[0] & 63) % 25] += 1
    assert chi_square(counts, DRAWS / 25) > 3 * CHI2_24_999


def test_shuffles_put_every_card_in_every_place_alike():
    """10,000 shuffles of 25 cards: each a permutation, and the table of card by place
    within the chi-square 0.999 quantile of its 576 degrees of freedom."""
    made = chains(DRAWS)
    table = [[0] * 25 for _ in range(25)]
    cards = list(range(25))
    for turn in range(1, DRAWS + 1):
        order = commit.shuffled("game-demo", turn, "reshuffle", {s: made[s].reveal(turn) for s in SEATS}, cards)
        assert len(order) == 25
        for place, card in enumerate(order):
            table[card][place] += 1
    assert all(sum(row) == DRAWS for row in table)
    assert all(sum(table[c][p] for c in range(25)) == DRAWS for p in range(25))
    assert chi_square([n for row in table for n in row], DRAWS / 25) < CHI2_576_999


def _independent_draw(game: str, turn: int, purpose: str, reveals: dict[str, bytes], n: int, count: int) -> list[int]:
    """The draw rebuilt from the description in pbem/trust/commit.py alone (hashlib and
    struct, none of the module's code): what another program would compute."""
    def s(b):
        b = b.encode() if isinstance(b, str) else b
        return struct.pack(">I", len(b)) + b
    key = hashlib.sha256(s("antike-ref draw v1") + s(game) + struct.pack(">I", turn) + s(purpose)
                         + struct.pack(">I", len(reveals))
                         + b"".join(s(seat) + s(reveals[seat]) for seat in sorted(reveals))).digest()
    data = b"".join(hashlib.sha256(s("antike-ref stream v1") + s(key) + struct.pack(">Q", i)).digest()
                    for i in range(64))
    bits = (n - 1).bit_length()
    size, at, out = (bits + 7) // 8, 0, []
    while len(out) < count:
        number = int.from_bytes(data[at:at + size], "big") & ((1 << bits) - 1)
        at += size
        if number < n:
            out.append(number)
    return out


PINNED_HEADS = {
    "romans": "88c06bcfd12fd6e7b80ffd5bd51423db37583cbec860e27e538ae0ae007e2c1e",
    "greeks": "ff8e91f5652f07f6eded33735c83a983aeddda5db057ec16ad9dc0b276fd199e",
    "persians": "31e68942ab36b711e560dbf7285b5a2d5d6b6c80b433a9f87ca7689d3dd5478b",
}
"""The heads of :func:`chains` of length 8 (sha256 of "seed of SEAT" as the seed): pinned,
so a change of the chain's hashing fails here."""
PINNED_DRAWS = "10 5 19 7 0 23 21 13 6 22 3 8"
PINNED_SHUFFLE = "14 2 24 12 9 17 20 1 15 22 16 21 18 4 23 11 8 3 6 13 0 7 19 5 10"


def test_the_same_reveals_give_the_same_draw_on_every_machine():
    """A pinned vector: the heads of three fixed chains, the first 12 draws below 25 and a
    shuffle of 25 from their first reveals; the draws equal those rebuilt from the module's
    description alone; the order the reveals come in does not matter, any other game, turn,
    purpose or reveal changes the draw."""
    made = chains(8)
    assert {s: c.head.hex() for s, c in made.items()} == PINNED_HEADS
    reveals = {s: made[s].reveal(1) for s in SEATS}
    stream = commit.stream("game-demo", 3, "deck", reveals)
    draws = [stream.below(25) for _ in range(12)]
    assert draws == _independent_draw("game-demo", 3, "deck", reveals, 25, 12)
    assert " ".join(map(str, draws)) == PINNED_DRAWS
    assert " ".join(map(str, commit.shuffled("game-demo", 3, "deck", reveals, range(25)))) == PINNED_SHUFFLE
    assert commit.draw("game-demo", 3, "deck", dict(reversed(list(reveals.items()))), 25) == draws[0]
    key = commit.draw_key("game-demo", 3, "deck", reveals)
    others = {commit.draw_key("game-2", 3, "deck", reveals), commit.draw_key("game-demo", 4, "deck", reveals),
              commit.draw_key("game-demo", 3, "setup", reveals),
              commit.draw_key("game-demo", 3, "deck", {**reveals, "greeks": made["greeks"].reveal(2)})}
    assert key not in others and len(others) == 4
    for n in (2, 7, 256, 257, 1 << 40):
        assert commit.draw("game-demo", 3, "deck", reveals, n) == _independent_draw("game-demo", 3, "deck", reveals,
                                                                                     n, 1)[0]


def test_a_draw_needs_reveals_and_a_range():
    stream = commit.Stream(bytes(32))
    assert stream.below(1) == 0 and stream.take(4) == commit.Stream(bytes(32)).take(4)  # below(1) reads nothing
    assert refusal(stream.below, 0).code is Refusal.BAD_VALUE
    assert refusal(commit.draw, "g", 1, "deck", {}, 25).code is Refusal.BAD_VALUE
    assert refusal(commit.draw, "g", 1, "deck", {"romans": b"x" * 31}, 25).code is Refusal.BAD_VALUE
    assert refusal(commit.draw, "g", -1, "deck", {"romans": bytes(32)}, 25).code is Refusal.BAD_VALUE
    assert commit.Stream(bytes(32)).shuffle([]) == [] and commit.Stream(bytes(32)).shuffle(["a"]) == ["a"]


# -- the layer ----------------------------------------------------------------------------

TRUST = sorted((ROOT / "pbem" / "trust").glob("*.py"))


def test_the_layer_imports_only_the_standard_library_errors_and_cryptography():
    """pbem/trust imports the standard library, pbem.errors and itself at the top of a
    module; cryptography only inside functions (and nothing else anywhere)."""
    for path in TRUST:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top = {id(node) for node in tree.body}
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            for name in names:
                root = name.split(".")[0]
                if name.startswith("cryptography"):
                    assert id(node) not in top, f"{path.name} imports {name} at the top"
                elif root == "pbem":
                    assert name == "pbem.errors" or name.startswith("pbem.trust"), f"{path.name} imports {name}"
                else:
                    assert root in sys.stdlib_module_names or root == "__future__", f"{path.name} imports {name}"


def test_importing_the_layer_and_the_command_line_leaves_cryptography_out():
    code = ("import json, sys; import pbem.cli, pbem.trust.keys, pbem.trust.sshsig, pbem.trust.signers, "
            "pbem.trust.commit; print(json.dumps([m for m in ('cryptography', 'bcrypt') if m in sys.modules]))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == []
    loaded = subprocess.run([sys.executable, "-c", "import sys; from pbem.trust import keys; keys.generate_key(); "
                             "print('cryptography' in sys.modules)"], capture_output=True, text=True, cwd=ROOT)
    assert loaded.stdout.strip() == "True", loaded.stderr
