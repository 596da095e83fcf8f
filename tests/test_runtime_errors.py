"""The runtime's refusals are catalogue messages: each reader gets them in their language."""

from __future__ import annotations

import ast
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.runtime import ManualTimers, NoSuchTableError, Runtime, TableError
from data import Store
from engine.i18n import Text

RUNTIME = Path(__file__).resolve().parent.parent / "bot" / "runtime"
# words.py, snapshots.py and computers.py word their own messages (their owners' domains)
NOT_HERE = {"words.py", "snapshots.py", "computers.py"}
ERRORS = {
    "TableError",
    "NoSuchTableError",
    "NotSeatedError",
    "StaleActionError",
    "NotYourDecisionError",
}


def _english_raises(path: Path) -> list[str]:
    """Where `path` raises a runtime error with a literal (an English-only message)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Raise) or not isinstance(node.exc, ast.Call):
            continue
        call = node.exc
        if not isinstance(call.func, ast.Name) or call.func.id not in ERRORS or not call.args:
            continue
        if isinstance(call.args[0], ast.Constant | ast.JoinedStr):
            found.append(f"{path.name}:{node.lineno}")
    return found


def test_no_runtime_refusal_is_worded_in_english_only() -> None:
    sources = [p for p in sorted(RUNTIME.glob("*.py")) if p.name not in NOT_HERE]
    assert len(sources) > 5
    assert [where for path in sources for where in _english_raises(path)] == []


def test_the_check_finds_a_literal_message(tmp_path: Path) -> None:
    source = tmp_path / "example.py"
    source.write_text('def f():\n    raise TableError("this table is full")\n')
    assert _english_raises(source) == ["example.py:2"]


@pytest.fixture
async def runtime(tmp_path: Path) -> AsyncIterator[Runtime]:
    async with await Store.open(str(tmp_path / "errors.db")) as store:
        runtime = Runtime(store, timers=ManualTimers(), seed_source=lambda: 5)
        await runtime.open()
        yield runtime
        await runtime.close()


async def test_a_full_table_is_refused_in_each_language(runtime: Runtime) -> None:
    table = await runtime.create_table("hkos-3-v1", creator_id="1", creator_name="A", computers=3)
    with pytest.raises(TableError) as refused:
        await runtime.join(table.id, "2", "B")
    error = refused.value
    assert isinstance(error.message, Text) and error.message.key == "runtime.table_full"
    assert str(error) == "this table is full"  # English as it always read
    assert error.in_language("zh-CN") == "这桌已经满了"
    assert error.in_language("zh-TW") == "這桌已經滿了"


async def test_fields_and_nested_messages_are_worded_in_the_readers_language(
    runtime: Runtime,
) -> None:
    with pytest.raises(TableError) as refused:
        await runtime.create_table("hubei-laizi", creator_id="1", creator_name="A", players=5)
    error = refused.value
    assert str(error).endswith("is played by 4, 3 or 2 players, not 5")
    assert error.in_language("zh-CN").endswith("要 4, 3 或 2 人玩，不能 5 人")
    with pytest.raises(NoSuchTableError) as missing:
        runtime.get(404)
    assert str(missing.value) == "there is no open table #404"
    assert missing.value.in_language("zh-TW") == "沒有進行中的 #404 號桌"


async def test_an_unknown_preset_lists_the_playable_ones_in_each_language(
    runtime: Runtime,
) -> None:
    with pytest.raises(TableError) as refused:
        await runtime.quickplay("nope", "1", "A")
    assert str(refused.value).startswith("unknown preset 'nope' (known: hkos-3-v1, ")
    assert refused.value.in_language("zh-CN").startswith("没有 'nope' 这个规则（可选：hkos-3-v1")
