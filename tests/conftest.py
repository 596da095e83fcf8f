"""Fixtures shared by several test files."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest


@pytest.fixture
def no_collector() -> Iterator[None]:
    """The cycle collector off for the test: what is freed is freed by reference counting."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
