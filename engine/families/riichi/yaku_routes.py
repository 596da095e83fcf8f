"""Whether an open Riichi hand still has a yaku within reach: the cheap test a computer player
makes before it calls (a call gives up riichi, menzen tsumo and pinfu, and a hand with no yaku
cannot win however close it gets).

The test is sound rather than complete: it answers yes only for the four routes a beginner
plays (a valued pung, all simples, one suit with honours, all triplets) and leaves out the rarer
ones (chanta, ittsuu, sanshoku, ...), so a computer that follows it may skip a good call but
never makes a call that leaves no route at all.

>>> from engine.tiles import counts_of, parse_tiles
>>> open_yaku_route(counts_of(parse_tiles("23467m23p7z7z")), [parse_tiles("999m")], {33})
True
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from engine.tiles import NUM_KINDS, Tile, is_honour, is_terminal

# tiles off a route the hand may still hold: the discard that follows the call sheds one
SPARE = 1
SETS_AND_PAIR = 5  # a standard hand: four sets and a pair


def _simple(kind: Tile) -> bool:
    return not is_honour(kind) and not is_terminal(kind)


def _fits(
    counts: Sequence[int], melds: Sequence[Sequence[Tile]], fits: Callable[[Tile], bool]
) -> bool:
    """Every meld's tiles fit, and at most SPARE concealed tiles do not."""
    if not all(fits(t) for meld in melds for t in meld):
        return False
    return (
        sum(counts[kind] for kind in range(NUM_KINDS) if counts[kind] and not fits(kind)) <= SPARE
    )


def _one_suit(suit: int) -> Callable[[Tile], bool]:
    return lambda kind: kind >= 27 or kind // 9 == suit


def open_yaku_route(
    counts: Sequence[int], melds: Sequence[Sequence[Tile]], valued: Collection[Tile]
) -> bool:
    """Whether a hand with these concealed kinds (`counts`, after the call, its discard still
    to come) and these melds (kinds, the new one included) has a yaku open hands may have within
    reach: a pung or a pair of a `valued` honour (dragons, the seat's and the round's wind), all
    simples, one suit with honours, or all triplets with pairs enough for the rest."""
    if any(meld[0] in valued and len(set(meld)) == 1 for meld in melds):
        return True
    if any(counts[kind] >= 2 for kind in valued):
        return True
    if _fits(counts, melds, _simple):
        return True
    if any(_fits(counts, melds, _one_suit(suit)) for suit in range(3)):
        return True
    if all(len(set(meld)) == 1 for meld in melds):
        pairs = sum(1 for count in counts if count >= 2)
        # the sets and the pair still to make, less one pair a draw may yet bring
        return pairs >= SETS_AND_PAIR - len(melds) - 1
    return False
