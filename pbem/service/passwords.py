"""Nation passwords: generated for the GM, stored in the game file only as salted hashes.

Salts are derived from the game's stored seed and the nation, so ``new`` with the same
seed and the same given passwords writes a byte-identical file; generated passwords come
from the operating system's randomness and are never stored in the game file.

Each hash carries its own cost (``pbkdf2-sha256$ITERATIONS$SALT$HASH``), so a game can be
created with another cost (``new --kdf-iterations``) and every hash still verifies: games
are created with :data:`ITERATIONS` unless told otherwise; the test suite uses
:data:`MIN_ITERATIONS` for its throw-away games.
"""

from __future__ import annotations

import hashlib
import hmac
from functools import lru_cache

SCHEME = "pbkdf2-sha256"
ITERATIONS = 60_000
"""The cost of the hashes of a new game."""
MIN_ITERATIONS = 1_000
"""The lowest cost ``new`` accepts."""
_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


def generate() -> str:
    """A new password: three groups of four unambiguous letters and digits."""
    import secrets  # here: only ``new`` and ``player`` make passwords, every command checks them

    return "-".join("".join(secrets.choice(_ALPHABET) for _ in range(4)) for _ in range(3))


def salt_for(seed: str, nation: str) -> str:
    return hmac.new(seed.encode(), f"salt:{nation}".encode(), hashlib.sha256).hexdigest()[:32]


def hash_password(password: str, salt: str, iterations: int = ITERATIONS) -> str:
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), bytes.fromhex(salt), iterations)
    return f"{SCHEME}${iterations}${salt}${digest.hex()}"


@lru_cache(maxsize=256)
def verify(password: str, stored: str) -> bool:
    """Whether ``password`` matches the stored ``scheme$iterations$salt$hash``.

    Cached: the answer for a pair never changes, and self-play and replay check the same
    few pairs thousands of times.
    """
    try:
        scheme, iterations, salt, _ = stored.split("$")
        if scheme != SCHEME:
            return False
        expected = hash_password(password, salt, int(iterations))
    except ValueError:
        return False
    return hmac.compare_digest(expected, stored)
