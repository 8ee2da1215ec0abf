"""Where the data folders (schemas, templates, maps) live.

From a checkout they sit next to the ``pbem`` package; in an installed wheel they are
shipped inside it as ``pbem/_data/...``. Every other module asks this one.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


@cache
def data_dir(name: str) -> Path:
    """Return the folder ``name`` (``schemas``, ``templates`` or ``maps``)."""
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"data folder {name!r} not found next to {_PACKAGE}")


def schema_path(kind: str) -> Path:
    return data_dir("schemas") / f"{kind}.schema.json"


def map_path(board_id: str) -> Path:
    return data_dir("maps") / f"{board_id}.json"
