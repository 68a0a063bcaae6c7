"""The games store's errors (:mod:`~ginrummy.storage`), in a module of their own so the store's
parts can raise them."""

from __future__ import annotations

from .errors import GinRummyError


class StoreError(Exception):
    """A database file this code cannot use (written by a newer version), or a stored game that
    does not replay as stored."""


class Unreachable(StoreError, GinRummyError):
    """The database server cannot be reached or refuses the connection: said plainly, and the
    command stops (exit 2)."""


class Taken(StoreError):
    """That action (or deal) is already stored: another writer, such as a second app instance on
    the same database, stored it first. Nothing was written."""


__all__ = ["StoreError", "Taken", "Unreachable"]
