"""Engine values a caller is handed: wins with one name each."""

from __future__ import annotations

import data
import engine.hand


def test_the_stored_win_and_the_played_win_have_their_own_names() -> None:
    """data counts table seats and the engine hand seats: one name for each, never both."""
    assert data.StoredWin.__name__ != engine.hand.WinRecord.__name__
    assert not hasattr(data, "WinRecord")
