"""A finished Riichi game of ours written as an mjai event log, every seat's tiles shown (as
review tools such as mjai-reviewer read it): `start_game`, then each hand from `start_kyoku` to
`end_kyoku`, then `end_game`; one JSON object a line (`write_events`).

Each hand is replayed from its dealt state, action by action (as the tenhou.net/6 export does,
engine.formats.tenhou6.export): an action writes its own event (a riichi discard is `reach` then
`dahai`), and what the engine did after it is written from the events it returned: the draws
(`tsumo`), the indicators turned (`dora`), a riichi stick paid (`reach_accepted`). The hand's end
is a `hora` per win or a `ryukyoku`, each with the points it moved (a riichi stick left out: mjai
counts it at `reach_accepted`). Players are counted in seating order from the first dealer, as
mjai counts them; our hand seats count from the hand's dealer.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from engine.actions import Action
from engine.actions import ActionKind as Kind
from engine.formats.mjai.tiles import MjaiError, name_of
from engine.formats.tenhou6.export import StoredHand
from engine.hand import HandState
from engine.presets import riichi_terms
from engine.settlement import Reason, deltas_of
from engine.tiles import Meld, MeldKind, Tile, kind_of

Event = dict[str, Any]
MJAI_SEATS = 4  # mjai is the four-player game
WINDS = "ESWN"
_CALL_TYPES = {MeldKind.CHOW: "chi", MeldKind.PUNG: "pon", MeldKind.KONG: "daiminkan"}
_RIICHI_YAKU = frozenset({"riichi", "double_riichi"})


def write_events(events: Iterable[Event]) -> str:
    """An event log as mjai writes one: a compact JSON object a line."""
    return "".join(json.dumps(event, separators=(",", ":")) + "\n" for event in events)


def game_events(hands: Sequence[StoredHand], names: Sequence[str]) -> list[Event]:
    """A whole game's hands as one mjai event log."""
    if not hands:
        raise MjaiError("an mjai log needs at least one hand")
    if hands[0].seat_count != MJAI_SEATS:
        raise MjaiError(f"mjai plays four seats, this game {hands[0].seat_count}")
    events: list[Event] = [{"type": "start_game", "names": list(names)}]
    for stored in hands:
        events += hand_events(stored)
    events.append({"type": "end_game"})
    return events


class Writer:
    """Follows one hand as it is replayed and writes its mjai events."""

    def __init__(self, state: HandState) -> None:
        self.state = state
        self.dealer = state.setup.dealer
        self.events: list[Event] = []

    def player(self, seat: int) -> int:
        return (self.dealer + seat) % MJAI_SEATS

    def start(self) -> None:
        state, setup = self.state, self.state.setup
        size = state.preset.hand_size
        dora = state.part_of(riichi_terms.DoraPart)
        assert dora is not None, "a Riichi preset turns dora indicators"
        by_player = sorted(state.seats, key=self.player)
        self.events.append(
            {
                "type": "start_kyoku",
                "bakaze": WINDS[setup.round_wind],
                "dora_marker": name_of(dora.dora_indicators()[0]),
                "kyoku": self.dealer + 1,
                "honba": setup.honba,
                "kyotaku": setup.pot // 1000,
                "oya": self.dealer,
                "scores": [setup.points[seat] for seat in by_player],
                "tehais": [[name_of(t) for t in state.hands[seat][:size]] for seat in by_player],
            }
        )
        self.events.append(self.tsumo(0, state.hands[0][size]))

    def tsumo(self, seat: int, tile: Tile) -> Event:
        return {"type": "tsumo", "actor": self.player(seat), "pai": name_of(tile)}

    def apply(self, action: Action) -> None:
        state = self.state
        actor = self.player(action.seat)
        melds_before = [len(melds) for melds in state.melds]
        paid_before = len(state.payments)
        if action.kind is Kind.DISCARD or action.kind is riichi_terms.RIICHI:
            if action.kind is riichi_terms.RIICHI:
                self.events.append({"type": "reach", "actor": actor})
            tile = action.tile
            self.events.append(
                {
                    "type": "dahai",
                    "actor": actor,
                    "pai": name_of(tile),
                    "tsumogiri": tile == state.drawn,
                }
            )
        elif action.kind is Kind.CONCEALED_KONG:
            held = [t for t in state.hands[action.seat] if kind_of(t) == action.tile]
            self.events.append({"type": "ankan", "actor": actor, "consumed": _names(sorted(held))})
        elif action.kind is Kind.ADDED_KONG:
            added, pung = added_kong_tiles(state, action)
            self.events.append(
                {"type": "kakan", "actor": actor, "pai": name_of(added), "consumed": _names(pung)}
            )
        events = state.apply(action)
        for seat, melds in enumerate(state.melds):  # a call is made when its window closes
            for meld in melds[melds_before[seat] :]:
                if meld.kind in _CALL_TYPES:
                    self.events.append(self.call(seat, meld))
        for event in events:
            if event.kind == "draw" and event.tile is not None:
                self.events.append(self.tsumo(event.seat or 0, event.tile))
            elif event.kind == "dora_indicator" and event.tile is not None:
                self.events.append({"type": "dora", "dora_marker": name_of(event.tile)})
            elif event.kind == "payment" and Reason.DEPOSIT.value in event.reason.split():
                for payment in state.payments[paid_before:]:
                    if payment.reason is Reason.DEPOSIT:
                        self.events.append(
                            {"type": "reach_accepted", "actor": self.player(payment.payer)}
                        )

    def call(self, seat: int, meld: Meld) -> Event:
        assert meld.claimed is not None and meld.from_seat is not None
        consumed = list(meld.tiles)
        consumed.remove(meld.claimed)
        return {
            "type": _CALL_TYPES[meld.kind],
            "actor": self.player(seat),
            "target": self.player(meld.from_seat),
            "pai": name_of(meld.claimed),
            "consumed": _names(consumed),
        }

    def end(self) -> None:
        state = self.state
        outcome = state.outcome()
        if outcome is None:
            raise MjaiError("only a finished hand is written as an mjai log")
        dora = state.part_of(riichi_terms.DoraPart)
        assert dora is not None
        for win in outcome.wins:
            source = win.seat if win.discarder is None else win.discarder
            hora: Event = {
                "type": "hora",
                "actor": self.player(win.seat),
                "target": self.player(source),
                "pai": name_of(win.tile),
                "deltas": self.by_player(win.deltas),
            }
            if any(p.id in _RIICHI_YAKU for p in win.score.patterns):
                hora["ura_markers"] = _names(dora.ura_indicators())
            self.events.append(hora)
        if not outcome.wins:
            paid = [p for p in outcome.payments if p.reason is not Reason.DEPOSIT]
            deltas = self.by_player(deltas_of(paid, state.seat_count))
            self.events.append({"type": "ryukyoku", "deltas": deltas})
        self.events.append({"type": "end_kyoku"})

    def by_player(self, deltas: Sequence[int]) -> list[int]:
        out = [0] * MJAI_SEATS
        for seat, delta in enumerate(deltas):
            out[self.player(seat)] += delta
        return out


def added_kong_tiles(state: HandState, action: Action) -> tuple[Tile, list[Tile]]:
    """An added kong's physical tile (a plain five before a red one, as the engine takes it)
    and the tiles of the pung it joins."""
    kind = action.tile
    hand = state.hands[action.seat]
    added = kind if kind in hand else next(t for t in hand if kind_of(t) == kind)
    pung = next(
        m
        for m in state.melds[action.seat]
        if m.kind is MeldKind.PUNG and kind_of(m.tiles[0]) == kind
    )
    return added, list(pung.tiles)


def _names(tiles: Iterable[Tile]) -> list[str]:
    return [name_of(t) for t in tiles]


def hand_events(stored: StoredHand) -> list[Event]:
    """One finished hand as mjai events, `start_kyoku` to `end_kyoku`."""
    state = HandState(
        stored.preset,
        stored.seed,
        stored.setup,
        wall=stored.wall,
        seat_count=stored.seat_count,
        always_ask=stored.always_ask,
    )
    writer = Writer(state)
    writer.start()
    for action in stored.actions:
        writer.apply(action)
    writer.end()
    return writer.events
