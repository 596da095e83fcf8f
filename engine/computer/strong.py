"""The strong computer player: plans for value, counts live tiles, defends, from a SeatView only.

Every decision weighs the hands it could reach: engine/computer/valuation.py says what a hand is
worth (its plans, the points each pays, the chance of completing it from the live tiles; tiles
this seat can see are not live), engine/computer/danger.py what a discard is expected to cost
against opponents who look ready, and engine/computer/decide.py makes the choice: the discard
with the most worth less danger (when the own hand is far and the table is hot, that is folding),
a call or a kong only when the hand after it is worth clearly more, no call or discard that
leaves only plans below the preset's minimum while a live one exists. Where a winner leaves the
hand (blood battle), or the family says when, a discard win is passed when the self draw it
waits for is expected to pay more. This module is the entry point: `choose`.

>>> from engine.hand import HandState
>>> from engine.presets import find_preset
>>> from engine.seat_view import SeatView
>>> state = HandState(find_preset("hkos-3-v1"), seed=3)
>>> choose(SeatView.of(state, 0)) in state.legal_actions(0)
True
"""

from __future__ import annotations

from engine.actions import Action, ActionKind
from engine.computer.decide import Player
from engine.computer.knowledge import knowledge_for_table
from engine.presets import AfterWin
from engine.seat_view import SeatView

_WIN, _PASS = ActionKind.WIN, ActionKind.PASS


def choose(view: SeatView) -> Action:
    """The strong computer's choice; the view's seat must have a decision to make."""
    legal = view.legal
    if not legal:
        raise ValueError(f"seat {view.seat} has no decision to make")
    player: Player | None = None
    for action in legal:
        if action.kind is _WIN:
            if view.phase == "claims" and _weighs_self_draw(view):
                player = Player(view)
                if player.holds_for_self_draw():
                    return next(a for a in legal if a.kind is _PASS)
            return action
    if len(legal) == 1:
        return legal[0]
    player = player or Player(view)
    if view.phase == "opening":
        return player.opening(legal)
    if view.phase in ("claims", "rob"):
        return player.claim(legal)
    return player.turn(legal)


def _weighs_self_draw(view: SeatView) -> bool:
    """Whether a discard win offered may be passed for a self draw: where the winner leaves the
    hand (the others play on), or where the family says when a self draw pays enough more."""
    if view.preset.after_win is AfterWin.LEAVE:
        return True
    return knowledge_for_table(view.preset).hold_margin is not None
