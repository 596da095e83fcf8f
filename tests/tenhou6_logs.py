"""Real tenhou.net/6 logs, kept outside the repository (DESIGN.md: nothing fetched is committed):
a folder named by TENHOU6_LOGS, or the shared/tenhou6/ beside the checkout (or beside a folder
holding it, as a worktree's). CI has the shared folder, so there a missing log fails rather than
skips."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

UNDER_CI = os.environ.get("CI", "").lower() in ("true", "1", "yes")


def _folder() -> Path | None:
    named = os.environ.get("TENHOU6_LOGS")
    if named:
        return Path(named)
    for parent in Path(__file__).resolve().parents[1:]:
        if (parent / "shared" / "tenhou6").is_dir():
            return parent / "shared" / "tenhou6"
    return None


REAL = _folder()
# the logs that replay to their own results; disputed/ holds those that do not, each with what
# is known about it (the folder's README)
REAL_LOGS = sorted(REAL.glob("*.json")) if REAL is not None and REAL.is_dir() else []


def real_log(name: str) -> Path:
    """A log of the folder by its path there; skipped where it is not at hand, failed under CI."""
    path = (REAL or Path("shared/tenhou6")) / name
    if not path.is_file():
        if UNDER_CI:
            pytest.fail(f"CI reads every shared tenhou.net/6 log, but {path} is missing")
        pytest.skip(f"no {path}")
    return path


def require_real_logs() -> None:
    """Skip where no real log is at hand; fail under CI."""
    if not REAL_LOGS:
        if UNDER_CI:
            pytest.fail(f"CI reads the shared tenhou.net/6 logs, but {REAL} holds none")
        pytest.skip("no real tenhou.net/6 logs at hand")
