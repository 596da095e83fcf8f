"""Seeded Riichi play for the property tests: a beginner that takes every declaration, kong and
win it is offered (so that rare ends come within a few hundred hands), in one of a few styles,
and what ended a hand."""

from __future__ import annotations

import random
from enum import StrEnum

from engine.actions import Action, ActionKind
from engine.computer.easy import choose_action
from engine.events import Termination
from engine.families.riichi.rules import NINE_TERMINALS, RIICHI, RiichiPart
from engine.hand import HandState
from engine.hand_setup import HandSetup
from engine.presets import Preset
from engine.tiles import WINDS

RICH = HandSetup(points=(25000, 25000, 25000, 25000))
EAGER = (ActionKind.WIN, NINE_TERMINALS, RIICHI, ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG)
CALLS = (ActionKind.KONG, ActionKind.PUNG)


class Style(StrEnum):
    CALLING = "calling"  # a pung or an open kong half the time it is offered
    CLOSED = "closed"  # no call but a win: closed hands in riichi (four riichi, triple ron)
    WINDS = "winds"  # the first discard follows the dealer's first wind where it can


def eager_choice(
    state: HandState, seat: int, rng: random.Random, style: Style = Style.CALLING
) -> Action:
    """Every win, declaration and kong offered; calls as the style makes them; else the easy
    computer's choice (a random legal action one time in ten)."""
    legal = state.legal_actions(seat)
    for kind in EAGER:
        for action in legal:
            if action.kind is kind:
                return action
    calls = [a for a in legal if a.kind in CALLS]
    if calls and style is Style.CALLING and rng.random() < 0.5:
        return calls[0]
    if style is Style.CLOSED and any(a.kind is ActionKind.PASS for a in legal):
        return next(a for a in legal if a.kind is ActionKind.PASS)
    if style is Style.WINDS and not state.ponds[seat] and state.discards_made < 4:
        first = state.ponds[0][0] if state.ponds[0] else None
        winds = [a for a in legal if a.kind is ActionKind.DISCARD and a.tile in WINDS]
        same = [a for a in winds if first is None or a.tile == first]
        if same:
            return same[0]
    if rng.random() < 0.1:
        return rng.choice(legal)
    return choose_action(state, seat)


def play_eagerly(
    preset: Preset, seed: int, style: Style = Style.CALLING, setup: HandSetup = RICH
) -> HandState:
    state = HandState(preset, seed, setup)
    rng = random.Random(seed)
    while not state.is_over:
        seat = state.seats_to_act()[0]
        state.apply(eager_choice(state, seat, rng, style))
    return state


def abortive_kind(state: HandState) -> str | None:
    """Which abortive draw ended the hand (RULES.md "Draws"), None for any other end."""
    outcome = state.outcome()
    if outcome is None or outcome.termination is not Termination.ABORTIVE_DRAW:
        return None
    if state.log[-1].kind is NINE_TERMINALS:
        return "nine_terminals"
    last_discard = max(i for i, a in enumerate(state.log) if a.kind in (ActionKind.DISCARD, RIICHI))
    if sum(1 for a in state.log[last_discard:] if a.kind is ActionKind.WIN) >= 3:
        return "triple_ron"
    riichi = state.part_of(RiichiPart)
    if riichi is not None and sum(riichi.declared) == 4:
        return "four_riichi"
    if state.kongs_made >= 4:
        return "four_kongs"
    if state.discards_made == 4 and all(len(p) == 1 and p[0] in WINDS for p in state.ponds):
        return "four_winds"
    raise AssertionError(f"an abortive draw of no known kind: {state.describe()}")
