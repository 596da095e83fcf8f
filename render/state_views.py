"""Views of a live hand: what one player may see, what the table may see, and the result.

This is the one place where engine state becomes render input, so the rule "no hidden tile in
a public picture" is enforced here: `table_view` copies counts of concealed tiles, never tiles.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.hand import HandState, Phase
from engine.scoring.base import WinBy
from engine.tiles import SEAT_NAMES
from render.views import HandView, ResultView, SeatView, TableView, WinView

WIND_WORDS = ("East", "South", "West", "North")


def hand_view(
    state: HandState,
    seat: int,
    *,
    table_name: str = "",
    channel_name: str = "",
    player_name: str = "",
) -> HandView:
    """The seat's own hand: concealed tiles with the drawn tile set apart."""
    concealed = list(state.hands[seat])
    drawn = state.drawn if state.phase is Phase.TURN and state.turn == seat else None
    if drawn is not None and drawn in concealed:
        concealed.remove(drawn)
    return HandView(
        table_name=table_name,
        channel_name=channel_name,
        seat_wind=seat,
        concealed=tuple(sorted(concealed)),
        drawn=drawn,
        melds=tuple(state.melds[seat]),
        bonus=tuple(state.bonus[seat]),
        player_name=player_name,
    )


def table_view(
    state: HandState,
    names: Sequence[str],
    points: Sequence[int],
    *,
    table_name: str = "",
    channel_name: str = "",
) -> TableView:
    """The public table. `names` and `points` are per hand seat (seat 0 deals)."""
    seats = []
    for seat in range(4):
        revealed = (
            tuple(sorted(state.hands[seat])) if state.locked[seat] or state.left[seat] else ()
        )
        seats.append(
            SeatView(
                name=names[seat],
                wind=seat,
                points=points[seat],
                is_dealer=seat == 0,
                concealed_count=0 if revealed else len(state.hands[seat]),
                melds=tuple(state.melds[seat]),
                bonus=tuple(state.bonus[seat]),
                pond=tuple(state.ponds[seat]),
                claimed=frozenset(state.claimed[seat]),
                void_suit=state.void[seat] if state.phase is not Phase.OPENING else None,
                won=state.left[seat] or state.locked[seat],
                revealed=revealed,
            )
        )
    return TableView(
        table_name=table_name,
        channel_name=channel_name,
        preset_name=state.preset.name,
        seats=tuple(seats),
        wall_left=state.wall_left,
        prevailing_wind=state.round_wind,
        turn=state.turn if state.phase is Phase.TURN else None,
        latest=state.last_discard,
        status=status_line(state, names),
    )


def status_line(state: HandState, names: Sequence[str]) -> str:
    """One public line saying whose decision the table waits for."""
    if state.phase is Phase.OVER:
        return "Hand over"
    waiting = ", ".join(names[s] for s in state.seats_to_act())
    if state.phase is Phase.TURN:
        return f"{names[state.turn]} to play"
    if state.phase is Phase.OPENING:
        stage = state.preset.openings[state.opening_stage].value.replace("_", " ")
        return f"Opening ({stage}): waiting for {waiting}"
    return f"Waiting for calls: {waiting}"


def result_view(
    state: HandState, names: Sequence[str], *, table_name: str = "", channel_name: str = ""
) -> ResultView:
    """The end of a hand: every win in order with its patterns, and each seat's payments."""
    outcome = state.outcome()
    if outcome is None:
        raise ValueError(f"the hand is not over yet: {state.describe()}")
    wins = []
    for win in outcome.wins:
        concealed = list(win.concealed)
        concealed.remove(win.tile)
        if win.by is WinBy.SELF_DRAW:
            how = "self draw"
        else:
            verb = "robbing the kong of" if win.by is WinBy.ROBBING_KONG else "discard from"
            how = f"{verb} {names[win.discarder]}" if win.discarder is not None else verb
        wins.append(
            WinView(
                winner=f"{names[win.seat]} ({SEAT_NAMES[win.seat]})",
                concealed=tuple(concealed),
                win_tile=win.tile,
                melds=win.melds,
                bonus=tuple(state.bonus[win.seat]),
                patterns=tuple((p.id, p.fan) for p in win.score.patterns),
                total=win.score.fan,
                limit=win.score.limit,
                by=how,
                seat_wind=win.seat,
            )
        )
    notes = {"wall_draw": "Wall exhausted: a draw", "deal_limit": "Deal time limit reached"}
    return ResultView(
        table_name=table_name,
        preset_name=state.preset.name,
        unit=state.preset.unit,
        wins=tuple(wins),
        payments=tuple((names[s], outcome.deltas[s]) for s in range(4)),
        channel_name=channel_name,
        note="" if outcome.wins else notes.get(outcome.termination.value, ""),
    )


def seat_label(seat: int) -> str:
    return WIND_WORDS[seat]
