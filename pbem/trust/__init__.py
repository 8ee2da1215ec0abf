"""The cryptography of games without a game master: keys, signatures and fair draws.

A pure layer, like the kernel: it reads no file, keeps no clock and reads no environment;
the caller hands it bytes and text and a name for them (a file, a line) to quote in its
messages. It imports only :mod:`pbem.errors`, the standard library and pyca
``cryptography`` (with ``bcrypt`` behind it for keys protected by a passphrase); the
library is imported inside the functions that need it, so ``import pbem.cli`` stays lean.

- :mod:`pbem.trust.keys`: Ed25519 keys in OpenSSH's formats (the private key file, the
  public key line, the SHA256 fingerprint as ``ssh-keygen -l`` prints it);
- :mod:`pbem.trust.sshsig`: signatures in OpenSSH's SSHSIG format, which
  ``ssh-keygen -Y verify`` checks without our program (:data:`pbem.trust.sshsig.NAMESPACE`);
- :mod:`pbem.trust.signers`: the allowed-signers file ``ssh-keygen -Y verify -f`` reads,
  one line per seat;
- :mod:`pbem.trust.commit`: hash chains every player commits to at set-up, and the draws
  and shuffles that the reveals of every player decide together;
- :mod:`pbem.trust.wire`: the SSH wire encoding both of them write;
- :mod:`pbem.trust.refusals`: why a signature or a reveal is refused, one stable code each.

Generating a key or a seed is the one place that asks the operating system for randomness
(:func:`pbem.trust.keys.generate_key`, :func:`pbem.trust.commit.new_seed`); everything else
is a function of its arguments.
"""
