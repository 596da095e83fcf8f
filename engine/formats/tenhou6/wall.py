"""The wall a tenhou.net/6 hand was played from, rebuilt so our engine deals and draws what the
log says (DESIGN.md, "Games in the format other tools read").

Our loop deals 13 tiles a seat from the front in seat order from the dealer, then the dealer's
14th, and draws on from the front; replacement tiles come from the back (the last tile first),
and the dead wall's indicator positions are the 10 tiles before the 4 replacements: the dora
indicators in the order turned, then the ura indicators under them (engine.wall.WallPart,
engine.families.riichi.rules.Dora); sanma sets its indicators apart at the deal
(`WallRule.indicators`): taken from the back first, then its replacements in draw order. Tiles the
log never shows fill the places nobody draws from.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.formats.tenhou6.log import Hand, Tenhou6Error
from engine.formats.tenhou6.order import Action, ActionKind
from engine.preset import Preset
from engine.tiles import Tile, tile_name

INDICATORS = 5  # indicator positions of each kind, dora and ura (engine.families.riichi.rules.Dora)
_KONGS = frozenset({ActionKind.ANKAN, ActionKind.KAKAN, ActionKind.DAIMINKAN, ActionKind.NUKI})


def draws_of(played: Sequence[Action]) -> tuple[list[Tile], list[Tile]]:
    """The tiles drawn from the front (the dealer's 14th first) and the replacement tiles, each
    in the order drawn: a draw right after the seat's own kong or north is a replacement."""
    front: list[Tile] = []
    back: list[Tile] = []
    before: Action | None = None
    for action in played:
        if action.kind is ActionKind.DRAW:
            assert action.tile is not None
            replaced = before is not None and before.kind in _KONGS and before.seat == action.seat
            (back if replaced else front).append(action.tile)
        before = action
    return front, back


def arranged_wall(preset: Preset, hand: Hand, played: Sequence[Action], number: int) -> list[Tile]:
    """The whole wall, in our loop's order, that deals and draws the hand as the log played
    it; an error naming the hand when the log uses a tile the preset's wall does not hold."""
    seats = len(hand.starts)
    dead_wall, replacements = preset.dead_wall, preset.replacements
    apart = preset.indicators == 2 * INDICATORS  # sanma: set apart at the deal (WallRule)
    if dead_wall != 2 * INDICATORS + replacements and not apart:
        raise Tenhou6Error(f"{preset.id} has no Riichi dead wall to arrange")
    front, back = draws_of(played)
    dealt = [tile for s in range(seats) for tile in hand.starts[(hand.dealer + s) % seats]]
    front = dealt + front
    if len(back) > replacements:
        raise Tenhou6Error(f"hand {number}: {len(back)} replacement draws, not {replacements}")
    if len(hand.dora) > INDICATORS or len(hand.ura) > INDICATORS:
        raise Tenhou6Error(f"hand {number}: more than {INDICATORS} dora or ura indicators")
    if len(front) > len(preset.wall) - dead_wall - len(back):
        raise Tenhou6Error(f"hand {number}: {len(front)} tiles dealt and drawn, more than the wall")
    left = Counter(preset.wall)
    left.subtract([*front, *back, *hand.dora, *hand.ura])
    over = sorted(tile for tile, count in left.items() if count < 0)
    if over:
        names = ", ".join(f"{-left[t]} {tile_name(t)} too many" for t in over)
        raise Tenhou6Error(f"hand {number}: a tile that is not in the {preset.id} wall ({names})")
    spare = sorted(left.elements())
    dora = [*hand.dora, *(spare.pop() for _ in range(INDICATORS - len(hand.dora)))]
    ura = [*hand.ura, *(spare.pop() for _ in range(INDICATORS - len(hand.ura)))]
    if apart:  # taken from the back: the indicators, then the replacements in draw order
        # the dead wall's own replacement tiles; those past them came off the live wall's end
        unused = [spare.pop() for _ in range(max(0, dead_wall - preset.indicators - len(back)))]
        taken = [*dora, *ura, *back, *unused]
        return [*front, *spare, *reversed(taken)]
    unused = [spare.pop() for _ in range(replacements - len(back))]
    live = len(preset.wall) - dead_wall - len(front)
    middle = [spare.pop() for _ in range(live)]
    assert not spare
    return [*front, *middle, *dora, *ura, *unused, *reversed(back)]
