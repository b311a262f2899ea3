"""companion.store: SQLite storage of live games (WAL, migrations), evidence, record export/import.

``Store`` needs only the standard library; ``companion.store.records`` joins it to the referee.
"""

from companion.store.schema import SCHEMA_VERSION
from companion.store.store import (
    Store,
    StoredAction,
    StoredGame,
    StoredPlayer,
    StoreError,
)
from companion.store.waits import Wait

__all__ = [
    "SCHEMA_VERSION",
    "Store",
    "StoreError",
    "StoredAction",
    "StoredGame",
    "StoredPlayer",
    "Wait",
]
