"""The ``antike-ref`` command line: thin Typer adapters over the game service.

Commands parse their arguments, call the service (:mod:`pbem.service`) or a reader of the
game (``options``, ``bot``, reports), print, and map every error to its exit code
(docs/orders.md, "Exit codes"). Heavy libraries are imported inside the commands that need
them, so that ``antike-ref --help`` starts fast. Each command module registers its
commands on :data:`app` when imported here.
"""

from pbem.cli import game, gm, mail, maps, report, site  # noqa: F401  (they register their commands)
from pbem.cli.app import app, main

__all__ = ["app", "main"]
