"""The wall as a rule component: tiles set aside at the deal, the dead wall and its
replacements and indicators, and the last draws (every preset plays it: `engine.rules.rules_of`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.actions import SEAT_ACTIONS, Action, ActionKind
from engine.events import Termination
from engine.parts import Part, Rule
from engine.tiles import Tile

if TYPE_CHECKING:
    from engine.hand import HandState


@dataclass(frozen=True, slots=True)
class WallRule(Rule):
    """How the wall is used: tiles set aside at the deal (a horse, birds), a dead wall that is
    never drawn, and a last-draw phase (the last `last_draws` tiles: draw and keep, win only).

    Replacements (for kongs, bonus tiles, a rule's declaration) come from the back. With
    `replacements` 0 they walk the wall from its end, as far as they go; with `replacements`
    set, at most that many are drawn, and the positions of the dead wall before the last
    `replacements` hold indicators (`WallPart.indicators`), which a replacement never takes.
    Each replacement shortens the live wall by one (the dead wall keeps its size: the live
    wall's last tile moves into it).

    With `indicators` set, the dead wall's indicator tiles are set apart at the deal instead
    (the first `indicators` tiles taken from the back, before the replacement positions): the
    replacements are then the rest of the dead wall and, beyond it, the tiles the live wall's
    end moved into the dead wall, in the order they moved (sanma: 10 indicators, 4 replacement
    positions and 8 replacements in a dead wall of 14).
    """

    set_aside: int = 0  # taken from the back before the deal, out of play until revealed
    dead_wall: int = 0  # the last tiles of the wall: never drawn; the hand ends when they remain
    last_draws: int = 0  # from this many tiles left, a turn may only win by self draw or pass
    replacements: int = 0  # the replacements the dead wall gives (0: the back, unbounded)
    indicators: int = 0  # indicator tiles set apart at the deal (0: positions in the dead wall)
    # whether the live wall's end makes up a kong's replacement (the dead wall keeping its size);
    # False: the dead wall is never replenished and a kong's replacement leaves it one tile
    # shorter, the live wall as long as before (chinese-classical)
    replenished: bool = True

    def __post_init__(self) -> None:
        if self.replacements and not 0 < self.replacements <= self.dead_wall:
            raise ValueError(
                f"{self.replacements} replacement tiles do not fit a dead wall of {self.dead_wall}"
            )
        if self.indicators and not (self.replacements and self.indicators < self.dead_wall):
            raise ValueError(
                f"{self.indicators} indicators set apart need a dead wall larger than them"
                f" ({self.dead_wall}) and a number of replacements ({self.replacements})"
            )

    @property
    def left_in_wall(self) -> int:
        """The tiles left in the wall when the live wall ends: the dead wall, less the
        indicators set apart at the deal."""
        return self.dead_wall - self.indicators

    def bind(self, state: HandState) -> Part:
        return (LastDrawsPart if self.last_draws else WallPart)(self, state)


class WallPart(Part):
    def __init__(self, rule: WallRule, state: HandState) -> None:
        super().__init__(rule, state)
        self.set_aside: list[Tile] = []
        self.apart: list[Tile] = []  # the indicators set apart at the deal (`indicators`)
        self.replaced = 0  # replacement tiles drawn so far
        self.dead_end = 0  # the wall's end once tiles are set aside: the dead wall ends here

    def take_set_aside(self) -> None:
        state = self.state
        for _ in range(self.rule.set_aside):
            self.set_aside.append(state.take_from_wall(front=False))
        self.dead_end = len(state.wall) - len(self.set_aside)
        for _ in range(self.rule.indicators):
            self.apart.append(state.take_from_wall(front=False))

    def can_replace(self) -> bool:
        """Whether a replacement tile is left (rules offer a kong or a declaration only then)."""
        rule = self.rule
        return not rule.replacements or self.replaced < rule.replacements

    def take_replacement(self) -> Tile:
        """The next replacement tile: from the back, within the dead wall's replacement
        positions when the rule has them (never an indicator)."""
        if not self.can_replace():
            raise ValueError(f"the dead wall's {self.rule.replacements} replacements are drawn")
        self.replaced += 1
        return self.state.take_from_wall(front=False)

    def indicators(self) -> tuple[Tile, ...]:
        """The tiles at the dead wall's indicator positions (in wall order), fixed from the deal
        whatever is replaced; empty unless the rule sets `replacements`. Indicators set apart
        at the deal come in the order they were taken from the back."""
        rule = self.rule
        if rule.indicators:
            return tuple(self.apart)
        if not rule.replacements:
            return ()
        end = self.dead_end
        return tuple(self.state.wall[end - rule.dead_wall : end - rule.replacements])

    def held_tiles(self) -> list[Tile]:
        return [*self.set_aside, *self.apart]

    def in_last_draws(self) -> bool:
        rule = self.rule
        return rule.last_draws > 0 and self.state.wall_left < rule.last_draws


class LastDrawsPart(WallPart):
    """From `last_draws` tiles left, each seat in turn draws once and keeps the tile: a win by
    self draw or nothing (the part owns that turn's pass); when every seat in play has drawn,
    the hand is a draw."""

    owns = frozenset({ActionKind.PASS})

    def __init__(self, rule: WallRule, state: HandState) -> None:
        super().__init__(rule, state)
        self.kept = 0

    def turn_actions(self, seat: int) -> list[Action] | None:
        if not self.in_last_draws():
            return None
        return [SEAT_ACTIONS[ActionKind.PASS][seat]]

    def apply_action(self, action: Action) -> None:
        """Keep the drawn tile."""
        state = self.state
        self.kept += 1
        if self.kept >= len(state.seats_in_play()) or state.wall_left == 0:
            state.end_hand(Termination.WALL_DRAW)
        else:
            state.draw_next(action.seat)
