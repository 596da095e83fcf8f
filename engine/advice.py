"""What the strong computer knows about a scoring family, as one value a preset carries
(`Preset.advice`; each family's `advice.py` writes its own).

The decision code (engine/computer/strong.py) is the same for every preset; it asks this value
what a flush, all pungs, seven pairs, a root, a valued honour pung or a self draw is worth, how a
fan total turns into points, and how quickly opponents get ready at such a table. Where a family
plays differently (wilds kept or set down as kongs, a hand that must be open to win, a passed
tile that cannot win, a win paid by more than one seat), the entry names a small hook or flag
that the decision code asks; a family without it plays as the others do. The values chosen by
measurement (`step`, `danger_share`, the call margins, `honour_hope`) were compared with
bench/strength.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.scoring.base import Score, WinBy
from engine.tiles import Meld, Tile

if TYPE_CHECKING:
    from engine.actions import Action
    from engine.preset import Preset
    from engine.seat_view import SeatView


@dataclass(frozen=True, slots=True)
class FamilyKnowledge:
    """Fan of the patterns a plan can aim for (0: the family has none) and the payment scale."""

    pure_flush: int
    half_flush: int  # one suit plus honours
    all_pungs: int
    seven_pairs: int
    root: int  # per four of a kind
    honour_pung: int  # per pung of a dragon, the seat wind or the prevailing wind
    self_draw: int
    pay: Callable[[int], tuple[int, int]]  # capped fan -> (discarder pays, each pays)
    bonus_fan: Callable[[tuple[Tile, ...], int], int]  # own bonus tiles and seat -> fan
    ready_per_discard: float  # how fast an opponent's chance of being ready grows per discard
    ready_per_meld: float
    opponent_value: float  # points a typical win on a discard costs the discarder
    flush_value: float  # the same when the opponent's hand looks like a flush
    step: float  # chance kept per further exchange a plan needs (engine/computer/strong.py)
    # chance that a likely-ready hand waits on one particular plausible tile; kept low where
    # folding on guesses costs more wins than it saves (measured with bench/strength.py)
    danger_share: float
    # value a hand one exchange from ready by scoring the ready hands it leads to (where a
    # minimum makes many of them worthless; elsewhere the plans' estimate is close and cheaper)
    exact_one_away: bool
    # --- what only some families have (the defaults: as the families above play)
    # a call gives up flexibility and shows the hand: it must gain this much
    call_margin: float = 1.15
    call_floor: float = 0.02  # and this much in points (a far hand gains little by a call)
    closed_hand: int = 0  # fan of a hand with no claimed melds (tw-16's closed hand)
    # chances that a valued honour pair (a single with two copies unseen) becomes its pung,
    # where honour pungs are much of a hand's value (None: a pair is counted at half a fan)
    honour_hope: tuple[float, float] | None = None
    no_wild: int = 0  # fan of a winning hand holding no wild (hubei's hard win, redwild's 4)
    # tiles whose discard is a kong that pays and draws again (hubei-laizi's red and green):
    # discarded at once, never kept (a hand holding one cannot win)
    free_kongs: frozenset[Tile] = frozenset()
    # fan a wild discarded as a wild kong brings (hubei-laizi); 0: a wild is never discarded
    # while another tile can go
    wild_kong_fan: int = 0
    # how many times the hand's worth with the wild kept a wild kong must bring (the kong's fan
    # also raises what the seat pays as a loser, and the wild no longer stands in)
    wild_kong_margin: float = 1.0
    # share of its worth a closed hand keeps where only an open hand may win (it must call)
    closed_share: float = 1.0
    # a tile a seat could have won on since its last discard, and did not, is safe against it
    # (tw-16 blocks that tile until the seat's next discard; elsewhere its hand has not changed)
    offered_safe: bool = False
    # what a win pays the winner in all, from its score (None: the discarder's payment on a
    # discard, each payer's times the payers on a self draw)
    gain: Callable[[Score, WinBy, int], float] | None = None
    # fan a seat with these melds holds beyond its tiles' patterns (hubei-laizi: its kongs,
    # melded and set down)
    seat_fan: Callable[[SeatView, tuple[Meld, ...]], int] | None = None
    # what a seat with these melds (and this much more fan set down) expects to pay others'
    # wins, where a loser's own fan raises its payment (hubei-laizi); None: it does not
    exposure: Callable[[SeatView, tuple[Meld, ...], int], float] | None = None
    # what a win of seat `other` on this seat's discard is expected to cost it, the bool saying
    # whether that seat's hand looks like a flush (hubei-laizi: by both seats' fan; 0 where that
    # seat cannot win on a discard); None: opponent_value, or flush_value for a flush
    deal_in: Callable[[SeatView, int, bool], float] | None = None
    # where a win ends the hand, a discard win is passed when the self draw it waits for is
    # expected to pay this many times more (None: never; where a winner leaves the hand,
    # engine/computer/strong.py always weighs the two)
    hold_margin: float | None = None
    # the fan a win of this seat needs (None: the preset's minimum)
    minimum: Callable[[SeatView], int] | None = None
    # further facts scoring needs to value a win of this seat, with tiles it is about to set
    # down as kongs (hubei-laizi: its kongs, the other seats)
    context: Callable[[SeatView, tuple[Tile, ...]], dict[str, Any]] | None = None
    # the entry as a table with these options plays it (a minimum chosen per table)
    tune: Callable[[FamilyKnowledge, Preset], FamilyKnowledge] | None = None
    # points a hand with these concealed counts and melds is worth as it stands, should another
    # seat win (chinese-classical: a loser's hand is scored and settled with the other losers);
    # None: a losing hand is worth nothing
    standing: Callable[[SeatView, tuple[int, ...], tuple[Meld, ...]], float] | None = None
    # fan of a hand with none of a suit's terminals nor any honour (Riichi's tanyao): a plan
    all_simples: int = 0
    # fan that adds to a win's value but never makes its minimum (Riichi's dora): per kind the
    # fan of each copy held or melded, and a fixed fan (own red fives); None: there is none
    tile_fan: Callable[[SeatView], tuple[tuple[tuple[Tile, int], ...], int]] | None = None
    # per kind, the points a discard of it is expected to cost against seat `other` (the
    # unseen copies given), or None where the general guess stands (engine/computer/strong.py)
    danger: Callable[[SeatView, int, Sequence[int]], list[float] | None] | None = None
    # the circumstances a closed hand's win is valued with (Riichi's riichi: declared, or to be
    # declared once ready)
    closed_flags: frozenset[str] = frozenset()
    # whether to make the declaration offered with this discard (Riichi's riichi) instead of
    # the plain discard; None: a declaration with a discard is never made
    declare: Callable[[SeatView, Tile], bool] | None = None
    # a declaration offered on the own turn apart from any discard, by its kind's name (sanma's
    # nuki: a north set aside for a dora and a replacement draw), and whether to make it with
    # this tile now rather than choose a discard; None: the family has none
    set_aside: tuple[str, Callable[[SeatView, Tile], bool]] | None = None
    # the move suggested to a player (the terminal's Enter): the computer's choice, or one a
    # beginner may copy safely where that choice needs judgement the player may lack (Riichi:
    # no call into a hand without a yaku in sight); None: the choice itself
    plain_move: Callable[[SeatView, Action], Action] | None = None
