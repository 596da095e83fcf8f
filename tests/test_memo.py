"""engine.memo.Memo: remembers what it is given, and forgets everything at once when full."""

from __future__ import annotations

from engine.memo import Memo


def test_a_memo_keeps_answers_none_included_and_returns_them() -> None:
    memo: Memo[str, int | None] = Memo(limit=3)
    assert memo.keep("a", 1) == 1
    assert memo.keep("b", None) is None
    assert "b" in memo and memo["a"] == 1 and memo.get("c") is None


def test_a_full_memo_forgets_all_it_held_before_keeping_more() -> None:
    memo: Memo[int, int] = Memo(limit=3)
    for key in range(3):
        memo.keep(key, key * 10)
    memo.keep(3, 30)
    assert dict(memo) == {3: 30}
