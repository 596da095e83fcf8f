"""Computer players by level: `computer_for(level)` gives a decision function `(state, seat)`.

`easy` is today's player (engine/computer/easy.py, the baseline `v1` of bench/strength.py); `strong`
decides from a SeatView only (engine/computer/strong.py).

>>> from engine.hand import HandState
>>> from engine.presets import find_preset
>>> state = HandState(find_preset("sichuan-bb"), seed=5)
>>> computer_for("strong")(state, 0) in state.legal_actions(0)
True
"""

from __future__ import annotations

from collections.abc import Callable

from engine.actions import Action
from engine.computer import strong
from engine.computer.easy import choose_action
from engine.computer.knowledge import knows
from engine.computer.on_kinds import as_kinds, physical_action
from engine.hand import HandState
from engine.seat_view import SeatView

Computer = Callable[[HandState, int], Action]


def seat_view(state: HandState, seat: int) -> SeatView:
    """The view the strong computer decides from: on the hand's kinds, its own red fives
    counted (as `choose_strong` makes it; tests and benches that read views use this one)."""
    plain = as_kinds(state, seat)  # the hand itself where the seat sees no red five
    if plain is state:
        return SeatView.of(state, seat)
    # its own red fives are counted from the hand itself (they score: a red five is kept)
    return SeatView.of(plain, seat).with_own_reds(state)


def strong_view(state: HandState, seat: int) -> SeatView | None:
    """What the strong computer decides `seat`'s choice from (`seat_view`: a value, which a
    decision worker may take, bot/runtime/decisions.py); None where the easy computer plays,
    a preset whose scoring family it has no knowledge of."""
    return seat_view(state, seat) if knows(state.preset) else None


def strong_action(state: HandState, chosen: Action) -> Action:
    """The action the strong computer's choice on `strong_view(state, …)` plays: at a table
    with red fives, it decided on the hand's kinds and plays the physical tile it names."""
    return physical_action(state, chosen) if state.has_red_fives else chosen


def choose_strong(state: HandState, seat: int) -> Action:
    """The strong computer's choice for `seat`, made from what that seat can see; a preset
    whose scoring family it has no knowledge of is played by the easy computer."""
    view = strong_view(state, seat)
    if view is None:
        return choose_action(state, seat)
    return strong_action(state, strong.choose(view))


def suggest(state: HandState, seat: int, computer: Computer) -> Action:
    """The move suggested to a player (the terminal's Enter and its hint): the computer's
    choice, made plain where the family's knowledge says how (`FamilyKnowledge.plain_move`:
    Riichi's never throws the double East first nor calls into a hand without a yaku)."""
    chosen = computer(state, seat)
    know = state.preset.advice
    if know is None or know.plain_move is None:
        return chosen
    return know.plain_move(seat_view(state, seat), chosen)


LEVELS: dict[str, Computer] = {"easy": choose_action, "strong": choose_strong}
ALIASES = {"v1": "easy"}  # bench/strength.py names the baseline by its version


class UnknownLevelError(ValueError):
    """A computer level that does not exist."""


def computer_for(level: str) -> Computer:
    """The decision function of a computer level (`easy`, `strong`; `v1` is `easy`)."""
    name = ALIASES.get(level, level)
    try:
        return LEVELS[name]
    except KeyError:
        raise UnknownLevelError(
            f"unknown computer level {level!r} (known: {', '.join(LEVELS)})"
        ) from None
