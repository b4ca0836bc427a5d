"""The store and service fixtures of the tournament tests: the shared ones, on every
backend (``database``)."""

from __future__ import annotations

from tests.service.conftest import clock, service
from tests.store.conftest import store

__all__ = ["clock", "service", "store"]
