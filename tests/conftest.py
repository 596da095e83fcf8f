"""Fixtures shared by several test files."""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator, Iterator

import pytest

from data import Store


@pytest.fixture
async def store() -> AsyncIterator[Store]:
    """An empty in-memory store (a test file may define its own, with a clock)."""
    s = await Store.open(":memory:")
    yield s
    await s.close()


@pytest.fixture
def no_collector() -> Iterator[None]:
    """The cycle collector off for the test: what is freed is freed by reference counting."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
