"""Database paths the bot cannot use: one clear line, no traceback, nothing changed on disk.

A directory, a path in a missing folder, a file with damaged pages, a read-only file: Store.open
raises UnusableDatabaseError naming the problem and what to do, before a byte is written (no
-wal or -shm file left beside it), and `mahjong-bot run` stops with that one line (exit 2)
before contacting Discord. A read-only database is refused, not opened read-only.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from data import Store, UnusableDatabaseError
from data.connection import check_pages

ROOT = Path(__file__).resolve().parents[1]
PRESET = "hkos-3-v1"


def files(folder: Path) -> dict[str, str]:
    """Every file under `folder` (recursively) by relative name -> sha256 of its bytes."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


async def a_database(path: Path, tables: int = 200) -> None:
    """A real database with enough pages that damage can land away from the header."""
    async with await Store.open(str(path)) as store:
        for n in range(tables):
            tid = await store.create_table(PRESET, options=None)
            hid = await store.start_hand(tid, 1, n)
            for version in range(8):
                await store.append_action(tid, hid, "0 discard 5m", version)


async def refused(path: Path, folder: Path, match: str) -> str:
    before = files(folder)
    with pytest.raises(UnusableDatabaseError, match=match) as error:
        await Store.open(str(path))
    assert files(folder) == before  # nothing written, created or left behind
    message = str(error.value)
    assert "\n" not in message
    return message


async def test_a_directory(tmp_path: Path) -> None:
    (tmp_path / "tables").mkdir()
    message = await refused(tmp_path / "tables", tmp_path, "is a directory")
    assert "mahjong.db" in message  # says what to name instead


async def test_a_path_in_a_missing_folder(tmp_path: Path) -> None:
    message = await refused(tmp_path / "nowhere" / "bot.db", tmp_path, "does not exist")
    assert str(tmp_path / "nowhere") in message
    assert not (tmp_path / "nowhere").exists()


async def test_damaged_pages(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    await a_database(path)
    size = path.stat().st_size
    assert size > 16 * 4096
    with path.open("r+b") as f:  # pages in the middle overwritten; the header is intact
        f.seek(4 * 4096)
        f.write(b"\xa5" * (3 * 4096))
    message = await refused(path, tmp_path, "is damaged")
    assert "backup" in message


def test_a_damage_report_over_several_lines_becomes_one() -> None:
    """quick_check's rows can start with '*** in database main ***' and a newline."""

    class Reporting:
        def execute(self, sql: str) -> list[tuple[str]]:
            assert sql == "PRAGMA quick_check"
            return [("*** in database main ***\nPage 5: btreeInitPage() returns error code 11",)]

    with pytest.raises(UnusableDatabaseError) as error:
        check_pages(Reporting(), "bot.db")  # type: ignore[arg-type]
    assert "\n" not in str(error.value)
    assert "in database main Page 5: btreeInitPage() returns error code 11" in str(error.value)


async def test_a_read_only_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    await a_database(path, tables=2)
    path.chmod(0o444)
    try:
        message = await refused(path, tmp_path, "is read-only")
        assert "chmod u+w" in message and "Nothing was changed" in message
    finally:
        path.chmod(0o644)
    # once writable again it opens as before
    async with await Store.open(str(path)) as store:
        loaded, bad = await store.load_active_tables()
        assert len(loaded) == 2 and bad == []


async def test_a_read_only_folder_is_refused(tmp_path: Path, monkeypatch) -> None:
    """SQLite needs the folder for its -wal and -shm files. (Root may write any folder, so the
    permission answer is what the test sets.)"""
    folder = tmp_path / "locked"
    folder.mkdir()
    real_access = os.access

    def access(path: str | os.PathLike[str], mode: int) -> bool:
        if Path(path) == folder and mode == os.W_OK:
            return False
        return real_access(path, mode)

    monkeypatch.setattr("data.connection.os.access", access)
    await refused(folder / "bot.db", tmp_path, "folder .* is read-only")


async def test_a_good_path_still_opens_and_a_fresh_one_is_created(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    async with await Store.open(str(path)) as store:
        await store.create_table(PRESET)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA quick_check").fetchone() == ("ok",)
    conn.close()
    assert stat.S_IMODE(path.stat().st_mode) & stat.S_IWUSR


@pytest.mark.parametrize("case", ["directory", "missing folder", "damaged", "read-only"])
async def test_mahjong_bot_run_stops_with_one_line(tmp_path: Path, case: str) -> None:
    path = tmp_path / "bot.db"
    if case == "directory":
        path.mkdir()
    elif case == "missing folder":
        path = tmp_path / "gone" / "bot.db"
    else:
        await a_database(path)
        if case == "damaged":
            with path.open("r+b") as f:
                f.seek(4 * 4096)
                f.write(b"\xa5" * (3 * 4096))
        else:
            path.chmod(0o444)
    before = files(tmp_path)
    env = {
        **os.environ,
        "DISCORD_TOKEN": "fake-token",
        # Nothing listens there: the database is checked before Discord is contacted.
        "DISCORD_API_BASE": "http://127.0.0.1:9/api",
        "MAHJONG_DB": str(path),
        "PYTHONPATH": str(ROOT),
    }
    process = subprocess.run(
        [sys.executable, "-m", "bot", "run"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    if case == "read-only":
        path.chmod(0o644)
    assert process.returncode == 2, process.stderr
    assert process.stdout == ""
    (line,) = process.stderr.splitlines()
    assert line.startswith("error: the database cannot be used: ") and str(path) in line
    assert files(tmp_path) == before
