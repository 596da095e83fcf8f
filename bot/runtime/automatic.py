"""Moves the runtime makes for a person without a click, as Riichi clients do.

A decision with one answer on the own turn is made at once: after riichi the drawn tile goes by
itself (Tenhou's automatic discard) unless a win or a kan that keeps the wait is offered too.
Each player may also switch on, per table, what Tenhou's and Mahjong Soul's clients offer
(all off by default, stored with the table's options, so they survive a restart):

- `auto_win`: every win offered is taken;
- `no_calls`: every call offered on a discard is passed (a win is still asked, or taken);
- `auto_discard`: on the own turn the drawn tile is discarded (a win offered is still asked).

The rule is the runtime's, the same for every preset: it reads only the kinds of the actions
offered, never a family (computers decide their own seats; `simulate` never gets here).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.runtime.table import LiveTable
from engine.actions import Action, ActionKind
from engine.hand import Phase as HandPhase

if TYPE_CHECKING:
    pass

TOGGLES = ("auto_win", "no_calls", "auto_discard")
STORED_KEY = "automatic"  # options.extra[STORED_KEY][player_id]: the toggles switched on
_CALLS = frozenset({ActionKind.CHOW, ActionKind.PUNG, ActionKind.KONG})


def toggles_of(table: LiveTable, player_id: str) -> frozenset[str]:
    """The toggles this player has switched on at this table."""
    stored = table.options.extra.get(STORED_KEY, {})
    return frozenset(stored.get(player_id, ()))


def automatic_answer(
    phase: HandPhase, drawn: int | None, legal: Sequence[Action], toggles: frozenset[str]
) -> Action | None:
    """What is played for a person offered `legal` now, or None when they are asked."""
    if not toggles:  # as most people play: only a turn with one answer is made for them
        forced = phase is HandPhase.TURN and len(legal) == 1 and legal[0].kind is not ActionKind.WIN
        return legal[0] if forced else None
    wins = [a for a in legal if a.kind is ActionKind.WIN]
    if wins:
        return wins[0] if "auto_win" in toggles else None
    if phase is HandPhase.TURN:
        if len(legal) == 1:  # the only answer (after riichi: the drawn tile)
            return legal[0]
        if "auto_discard" in toggles and drawn is not None:
            drawn_discard = Action(legal[0].seat, ActionKind.DISCARD, (drawn,))
            return drawn_discard if drawn_discard in legal else None
        return None
    calls = any(a.kind in _CALLS for a in legal)
    if phase in (HandPhase.CLAIMS, HandPhase.ROB) and "no_calls" in toggles and calls:
        return next((a for a in legal if a.kind is ActionKind.PASS), None)
    return None


def automatic_move(table: LiveTable) -> Action | None:
    """The first move the hand waits for from a person that is made for them, or None."""
    hand = table.hand
    if hand is None or hand.is_over:
        return None
    for hand_seat in hand.seats_to_act():
        seat = table.seats[table.seating.player_at(hand_seat)]
        if seat is None or not seat.human:
            continue
        legal = hand.legal_actions(hand_seat)
        drawn = hand.drawn if hand.turn == hand_seat else None
        move = automatic_answer(hand.phase, drawn, legal, toggles_of(table, seat.player_id))
        if move is not None:
            return move
    return None
