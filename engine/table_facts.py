"""What a rule puts on the table for everyone to see, beyond tiles and points: indicator tiles,
the repeat count and the pot, the seats that staked a declaration, tiles turned in a pond, and
why a hand ended with no win.

A rule component answers the hook `Part.table_facts()` (engine.rules) with the facts it owns;
`table_facts(state)` merges every part's answer for the front ends (render.adapt, the terminal).
Facts are public by contract: a part reports only what the whole table sees now (an indicator
once turned, a face-down one as a count, an ura indicator only once a hand it counts for is
won), so a picture or a line drawn from them cannot tell a hidden tile.

>>> TableFacts(honba=1).merged(TableFacts(pot=2000, stick=1000)).sticks
2
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING

from engine.actions import ActionKind
from engine.events import Termination
from engine.tiles import Tile

if TYPE_CHECKING:
    from engine.hand import HandState


@dataclass(frozen=True, slots=True)
class Indicators:
    """Tiles shown apart, named by `kind` (catalogue words `pictures.indicators.<kind>`): the
    dora indicators turned so far and the positions still face down; the ura indicators."""

    kind: str
    tiles: tuple[Tile, ...] = ()
    face_down: int = 0


@dataclass(frozen=True, slots=True)
class SeatTiles:
    """Tiles one seat laid apart in the open by a rule (sanma's norths set aside), named by
    `kind` (catalogue words `pictures.set_aside.<kind>`)."""

    seat: int
    kind: str
    tiles: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class TableFacts:
    """The public facts of a hand's table; a field a preset has no use for keeps its default.

    `honba` and `pot` are None where the table counts none; `declared` are the seats with a
    stake before them (riichi), `turned` the (seat, pond index) tiles drawn sideways; `ending`
    names an abortive draw's kind (`pictures.ending.<ending>`), `nagashi` the seats paid a
    nagashi mangan, `ready` the seats ready at a wall draw where being ready is paid (None:
    not told), `honba_paid` what the repeat count added to the first win, `seat_tiles` the
    tiles seats laid apart in the open. `wilds` are the wild kinds turned face up (hubei-laizi's
    wild), `kongs_set_down` the tiles each seat discarded as a kong set down before it (fixed
    and wild kongs; an entry per seat from each rule that has them), `declared_at` per seat the
    pond index of its declaration's discard (-1: none; empty until a seat declares: riichi) and
    `after_declared` per seat the tiles the others discarded since.
    """

    indicators: tuple[Indicators, ...] = ()
    honba: int | None = None
    pot: int | None = None
    stick: int = 0  # what one stake in the pot is worth (the pot in sticks: pot // stick)
    declared: tuple[int, ...] = ()
    turned: tuple[tuple[int, int], ...] = ()
    ending: str = ""
    nagashi: tuple[int, ...] = ()
    ready: tuple[int, ...] | None = None
    honba_paid: int = 0
    seat_tiles: tuple[SeatTiles, ...] = ()
    wilds: tuple[Tile, ...] = ()
    kongs_set_down: tuple[SeatTiles, ...] = ()
    declared_at: tuple[int, ...] = ()
    after_declared: tuple[tuple[Tile, ...], ...] = ()

    @property
    def sticks(self) -> int:
        """The pot counted in stakes (0 where a stake has no worth set)."""
        return (self.pot or 0) // self.stick if self.stick else 0

    def merged(self, other: TableFacts) -> TableFacts:
        """These facts with `other`'s added: tuples joined, a set value taking an unset one's
        place (two parts never own the same single fact)."""
        if self is NO_FACTS:
            return other
        changes: dict[str, object] = {}
        for name, default in _DEFAULTS:  # every decision's seat view merges them: kept quick
            theirs = getattr(other, name)
            if theirs == default:
                continue
            mine = getattr(self, name)
            both = isinstance(mine, tuple) and isinstance(theirs, tuple)
            changes[name] = mine + theirs if both else theirs
        return replace(self, **changes) if changes else self  # type: ignore[arg-type]

    def indicator(self, kind: str) -> Indicators | None:
        return next((item for item in self.indicators if item.kind == kind), None)

    def set_down(self, seat: int) -> tuple[Tile, ...]:
        """The tiles `seat` set down as kongs, in the rules' order."""
        return tuple(t for item in self.kongs_set_down if item.seat == seat for t in item.tiles)


NO_FACTS = TableFacts()
_DEFAULTS = tuple((f.name, f.default) for f in fields(TableFacts))

WINNERS_ABORT = "winners"  # the loop's own abortive draw: as many winners as the preset aborts at


def table_facts(state: HandState) -> TableFacts:
    """Every public fact the hand's rule components report now, merged in the preset's order;
    an abortive draw the loop itself made (too many winners on one tile) named too."""
    facts = NO_FACTS
    for part in state.parts:
        answer = part.table_facts()
        if answer is not None:
            facts = facts.merged(answer)
    if not facts.ending and _winners_aborted(state):
        facts = replace(facts, ending=WINNERS_ABORT)
    return facts


def _winners_aborted(state: HandState) -> bool:
    """The hand ended in an abortive draw on the wins its last claim window answered
    (`Preset.winners_abort`: triple ron at Tenhou's table)."""
    outcome = state.outcome()
    aborts = state.preset.winners_abort
    if not aborts or outcome is None or outcome.termination is not Termination.ABORTIVE_DRAW:
        return False
    answers = 0
    for action in reversed(state.log):
        if action.kind is not ActionKind.WIN:
            break
        answers += 1
    return answers >= aborts
