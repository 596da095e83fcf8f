"""What deals a hand again: its recipe, kept with the hand as one JSON, and the one function that
replays a recipe and a log into the hand they make.

Every place that rebuilds a stored hand (a restart, a failed write, the table shown between
hands, a replay export, the tenhou.net/6 export) reads the recipe and replays it here.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from data import HandLog
from engine.actions import Action
from engine.hand import HandState
from engine.hand_setup import HandSetup
from engine.presets import Preset
from engine.session import Session
from engine.tiles import Tile, format_tiles, parse_tiles


@dataclass(frozen=True, slots=True)
class HandRecipe:
    """A hand before its first action: the preset as the table plays it, the seed, the setup
    (engine.hand_setup: dealer, winds, points), the seats, the arranged wall where tests or
    demos chose one (else the seed deals it) and who is always asked in claim windows; with the
    session as the hand was dealt (as the store keeps it), which a restored table carries on
    from."""

    preset: Preset
    seed: int
    setup: HandSetup
    seats: int
    session: Mapping[str, object]  # `Session.to_json` when the hand was dealt
    wall: tuple[Tile, ...] | None = None
    always_ask: frozenset[int] = frozenset()

    def dealt_session(self) -> Session:
        """The session as the hand was dealt."""
        return Session.from_json(dict(self.session))

    @classmethod
    def dealt(
        cls, session: Session, hand: HandState, preset: Preset, *, arranged_wall: bool
    ) -> HandRecipe:
        """The recipe of `hand`, just dealt from `session` at a table playing `preset`."""
        wall = tuple(hand.wall) if arranged_wall else None
        kept = session.to_json()  # as it is now: the table's session moves on after the hand
        always_ask = frozenset(hand.always_ask)
        return cls(preset, hand.seed, hand.setup, session.seat_count, kept, wall, always_ask)

    def to_json(self) -> str:
        """The recipe as the store keeps it (the seed in the hand's own column)."""
        kept: dict[str, object] = {"session": self.session, "hand": self.setup.to_json()}
        if self.wall is not None:
            kept["wall"] = format_tiles(self.wall)
        if self.always_ask:
            kept["ask"] = sorted(self.always_ask)
        return json.dumps(kept)

    @classmethod
    def stored(cls, hand: HandLog, preset: Preset | None = None) -> HandRecipe:
        """A stored hand's recipe, played by `preset` (default: its session's). A hand stored
        before its setup was kept gets the one its session gives; KeyError if it has no
        session (stored before sessions were kept with hands)."""
        kept = json.loads(hand.setup or "{}")
        session = Session.from_json(kept["session"])
        setup = HandSetup.from_json(kept["hand"]) if "hand" in kept else session.hand_setup()
        wall = tuple(parse_tiles(kept["wall"])) if "wall" in kept else None
        always_ask = frozenset(int(seat) for seat in kept.get("ask", ()))
        played = preset or session.preset
        return cls(played, hand.seed, setup, session.seat_count, kept["session"], wall, always_ask)


def replay_hand(recipe: HandRecipe, actions: Iterable[Action | str] = ()) -> HandState:
    """The hand `recipe` deals, after `actions`."""
    return HandState.replay(
        recipe.preset,
        recipe.seed,
        actions,
        recipe.setup,
        wall=recipe.wall,
        seat_count=recipe.seats,
        always_ask=recipe.always_ask,
    )
