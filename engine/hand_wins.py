"""Whether a seat may win or claim now, and what scoring sees of a win: the standard shapes
first, then the parts' say (`Part.may_win`, `Part.win_shape`, `Part.ready`, `Part.context`,
`Part.may_claim`, `Part.allows_call`), each score worked out once per hand.
`engine.hand.HandState` plays the loop on these checks and sets what they read when it binds
its parts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from engine import rules, scoring, shapes
from engine.actions import Action, ActionKind, DeclaredKind
from engine.claims import ClaimWindow
from engine.events import Phase
from engine.hand_tables import CHOW_OPTIONS, KONG_ACTIONS, PUNG_ACTIONS, WIN_ACTIONS
from engine.hand_tiles import HandTiles
from engine.parts import Part
from engine.scoring.base import Score, WinBy, WinContext
from engine.shapes import ShapeRules
from engine.tiles import NUM_KINDS, Tile, counts_of, kind_of, sort_tiles

if TYPE_CHECKING:
    from engine.hand import HandState
    from engine.presets import Preset

# enum members and functions met on every discard, as module globals (engine.hand says why)
_ROB, _CONCEALED_KONG, _WIN = Phase.ROB, ActionKind.CONCEALED_KONG, ActionKind.WIN
_SELF_DRAW, _ON_DISCARD = WinBy.SELF_DRAW, WinBy.DISCARD
_NO_WILDS: frozenset[Tile] = frozenset()
_is_win = shapes.is_win


class WinChecks(HandTiles):
    """A hand's win and claim checks (see the module docstring)."""

    preset: Preset
    phase: Phase
    window: ClaimWindow | None
    round_wind: int
    _discard_wins: bool  # preset values read on every discard, bound once for the hand
    _shapes: ShapeRules
    _robbing: rules.Robbing
    _conditions: rules.WinConditions
    _wilds: rules.WildsPart | None
    _win_rules: tuple[Part, ...]  # the parts answering each hook (engine.parts.hook_answerers)
    _shape_rules: tuple[Part, ...]
    _standard_shapes: bool  # no part answers win_shape: the standard shapes alone decide
    _ready_rules: tuple[Part, ...]
    _context_rules: tuple[Part, ...]
    _claim_rules: tuple[Part, ...]
    _call_rules: tuple[Part, ...]
    _chow: bool
    _dead_wall: int  # the tiles left in the wall when the live wall ends
    _scores: dict[WinContext, Score]  # see _score

    @property
    def wild_kinds(self) -> frozenset[Tile]:
        """Tile kinds that are wild in this hand (engine.rules.Wilds; a turned wild is chosen
        after the deal), for players and pictures."""
        part = self._wilds
        return part.kinds if part is not None else _NO_WILDS

    def waits_of(self, seat: int) -> list[Tile]:
        """The tiles that would complete the seat's concealed hand now (a part reads every
        seat's waits when a discard passes, offered a win or not)."""
        return self.waits(self.hands[seat])

    def is_ready(self, seat: int) -> bool:
        """Whether the seat is one tile from a win: a part's answer first (`Part.ready`), else
        the standard shapes on its concealed tiles (with a drawn tile held, after some discard)."""
        for part in self._ready_rules:
            decided = part.ready(seat)
            if decided is not None:
                return decided
        hand = self.hands[seat]
        if len(hand) % 3 != 2:
            return bool(self.waits(hand))
        for tile in set(hand):
            rest = list(hand)
            rest.remove(tile)
            if self.waits(rest):
                return True
        return False

    def waits(self, hand: Sequence[Tile]) -> list[Tile]:
        """The tiles that would complete this concealed hand under the preset's shapes (held
        wilds standing in as jokers)."""
        counts = counts_of(hand)
        wilds = self.wild_kinds
        jokers = sum(counts[kind] for kind in wilds) if wilds else 0
        if jokers:
            counts = rules.wild_free(counts, wilds)
        return shapes.waits(counts, self.preset.shape_rules, jokers=jokers)

    def _win_score(self, seat: int, tile: Tile, by: WinBy) -> Score | None:
        """The score if `seat` may win on `tile` now, else None."""
        if by is _ON_DISCARD and not self._discard_wins:
            return None
        counts = self._counts[seat]
        kind = tile if tile < NUM_KINDS else kind_of(tile)
        if by is _SELF_DRAW:
            complete = self._complete(seat, counts, kind, by)
        else:
            # try the tile in the kept counts and take it out again: no copy per check
            counts[kind] += 1
            try:
                complete = self._complete(seat, counts, kind, by)
            finally:
                counts[kind] -= 1
        if not complete:
            return None
        hand = list(self.hands[seat])
        if by is not _SELF_DRAW:
            hand.append(tile)
        result = self._score(self._win_context(seat, hand, tile, by))
        return result if result.valid else None

    def _score(self, ctx: WinContext) -> Score:
        """The preset's score of a win, worked out once per context in a hand.

        A waiting hand meets the same context again and again: its tile discarded by another
        seat, the window's answer, then the settling, and scoring is the slow part of a check.
        """
        found = self._scores.get(ctx)
        if found is None:
            found = self._scores[ctx] = scoring.score(self.preset, ctx)
        return found

    def _complete(self, seat: int, counts: list[int], tile: Tile, by: WinBy) -> bool:
        """Whether these counts (the seat's concealed tiles with the winning tile, of kind
        `tile`) may win."""
        window = self.window
        concealed_rob = (
            self.phase is _ROB and window is not None and window.rob_kind is _CONCEALED_KONG
        )
        # Where only the standard shapes decide, ask them first: most checks (three a discard)
        # fail there, and every hook below is a question without side effects, so the order
        # changes no answer.
        standard = self._standard_shapes and not concealed_rob
        if standard and not _is_win(counts, self._shapes):
            return False
        for part in self._win_rules:  # the void suit, pass rules, an open hand, fixed kongs
            if not part.may_win(seat, counts, tile, by):
                return False
        if standard:
            return True
        if concealed_rob:
            return self._robbing.may_rob_concealed(counts)
        for part in self._shape_rules:  # wilds standing in, a special hand
            decided = part.win_shape(seat, counts, by)
            if decided is not None:
                return decided
        return _is_win(counts, self._shapes)

    def is_win_counts(self, counts: list[int], jokers: int = 0) -> bool:
        """Whether these counts (and jokers) form a winning shape of the preset."""
        return shapes.is_win(counts, self._shapes, jokers=jokers)

    def win_context(self, seat: int, tile: Tile, by: WinBy) -> WinContext:
        """What scoring sees of `seat` winning on `tile` now (a part that settles a win
        itself values it from this)."""
        hand = list(self.hands[seat])
        if by is not _SELF_DRAW:
            hand.append(tile)
        return self._win_context(seat, hand, tile, by)

    def _win_context(self, seat: int, hand: list[Tile], tile: Tile, by: WinBy) -> WinContext:
        extra: dict[str, object] = {}
        for part in self._context_rules:  # the void suit
            extra.update(part.context(seat))
        return WinContext(
            concealed=tuple(sorted(hand)),
            win_tile=tile,
            melds=tuple(self.melds[seat]),
            bonus=tuple(self.bonus[seat]),
            by=by,
            seat=seat,
            round_wind=self.round_wind,
            flags=self._conditions.flags(cast("HandState", self), seat, by),  # it is one
            **extra,  # type: ignore[arg-type]
        )

    def call_meld_tiles(self, call: Action) -> tuple[Tile, ...]:
        """The physical tiles of the meld `call` makes on the tile offered now, the claimed one
        among them, in notation order: what a player tells a plain five from a red one by."""
        window = self.window
        assert window is not None
        return tuple(sort_tiles([window.tile, *self.call_tiles(call.seat, call, window.tile)]))

    def call_giving(
        self, seat: int, kind: ActionKind | DeclaredKind, tiles: Sequence[Tile]
    ) -> Action | None:
        """The legal call of `kind` whose meld is these physical tiles (the claimed one among
        them, in any order): how a log or another program that names a call's tiles is
        played; None when no call offered now makes that meld."""
        wanted = sorted(tiles)
        for offered in cast("HandState", self).legal_actions(seat):
            if offered.kind is kind and sorted(self.call_meld_tiles(offered)) == wanted:
                return offered
        return None

    def _claim_options(self, seat: int, next_seat: int) -> list[Action]:
        """What `seat` may claim on the open tile; `next_seat` (the discarder's next) may chow."""
        window = self.window
        assert window is not None
        tile = window.tile
        kind = tile if tile < NUM_KINDS else kind_of(tile)  # what counts, calls and shapes see
        robbing = self.phase is _ROB
        options: list[Action] = []
        counts = self._counts[seat]
        if robbing or not self._standard_shapes:
            if self._win_score(seat, tile, window.rob_by if robbing else _ON_DISCARD):
                options.append(WIN_ACTIONS[seat])
        elif self._discard_wins:
            # _win_score's first question written out, as most hands do not complete with it
            counts[kind] += 1
            try:
                shaped = _is_win(counts, self._shapes)
            finally:
                counts[kind] -= 1
            if shaped and self._win_score(seat, tile, _ON_DISCARD):
                options.append(WIN_ACTIONS[seat])
        if robbing or self.back - self.front == self._dead_wall:  # no calls on the last tile
            return options
        for part in self._claim_rules:  # a locked hand, the void suit, wild tiles
            if not part.may_claim(seat, kind):
                return options
        held = counts[kind]
        if held >= 2:
            options.append(PUNG_ACTIONS[seat][tile])
            if held == 3:
                options.append(KONG_ACTIONS[seat][tile])
        if kind < 27 and self._chow and seat == next_seat:
            for first, second, chow in CHOW_OPTIONS[seat][kind]:
                if counts[first] and counts[second]:
                    options.append(chow)
        if options and self.has_red_fives:  # a call that may give a plain or a red five
            options = [
                choice
                for option in options
                for choice in (option, self.red_choice(seat, option, tile))
                if choice is not None
            ]
        if options:
            for part in self._call_rules:  # pass rules, wilds in a run
                options = [o for o in options if o.kind is _WIN or part.allows_call(seat, o)]
        return options
