"""What the strong computer knows about Riichi (RULES.md "Riichi": `riichi`, `riichi-majsoul`).

A win needs a yaku; dora add han but never make one. So the plans' fan is yaku only (riichi for a
closed hand, valued honour pungs, tanyao, honitsu, chinitsu, toitoi, chiitoitsu) and the
minimum is one han of it: a call that leaves no route to a yaku leaves a hand worth nothing and
is not made. Dora and own red fives add to what a plan is worth (`tile_fan`). A closed ready hand
is valued as riichi would score it; whether to declare is `declare`: riichi when the hand needs it
to win on a discard or the wait is worth it, dama when a yaku is there and the hand is already
big, late, or riichi would only expose it. Against a riichi (ready for sure) or an open hand that
looks ready, `danger` rates each kind's chance to deal in (genbutsu and the tiles passed since a
riichi are safe; suji, kabe and one-chance thin the two-sided waits; an honour by its copies
unseen) times what such a hand costs; the decision code subtracts it from each discard's worth,
so a far or cheap hand folds and a valuable one near ready pushes. In the last hand of the game
the stakes follow the placement: the leader defends harder, the last place pushes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine import shapes
from engine.actions import Action, ActionKind
from engine.advice import FamilyKnowledge
from engine.game import placements
from engine.scoring.base import Score, WinBy, WinContext
from engine.seat_view import SeatView
from engine.tiles import (
    DRAGONS,
    HONOURS,
    WINDS,
    MeldKind,
    Tile,
    is_honour,
    is_terminal,
    kind_of,
    suit_of,
)

# a non-dealer's ron by han at 30 fu (a dealer's is half as much again): mangan at 4 and 5
_RON = (0, 1000, 2000, 3900, 7700, 8000, 12000, 12000, 16000, 16000, 16000, 24000, 24000, 32000)


def _pay(han: int) -> tuple[int, int]:
    ron = _RON[min(max(han, 0), len(_RON) - 1)]
    return ron, ron // 3


def dora_of(indicator: Tile) -> Tile:
    """The dora an indicator shows: the next rank of its suit, the next wind, the next dragon."""
    if indicator < 27:
        return indicator - indicator % 9 + (indicator % 9 + 1) % 9
    group = WINDS if indicator in WINDS else DRAGONS
    return group[(group.index(indicator) + 1) % len(group)]


def tile_fan(view: SeatView) -> tuple[tuple[tuple[Tile, int], ...], int]:
    """Per dora kind the han of each copy held, and the seat's red fives."""
    weights: dict[Tile, int] = {}
    for indicator in view.dora:
        dora = dora_of(indicator)
        weights[dora] = weights.get(dora, 0) + 1
    return tuple(sorted(weights.items())), view.own_reds


def _closed(view: SeatView, seat: int) -> bool:
    return all(m.kind is MeldKind.CONCEALED_KONG for m in view.melds[seat])


def _in_riichi(view: SeatView, seat: int) -> bool:
    return bool(view.riichi_at) and view.riichi_at[seat] >= 0


def context(view: SeatView, set_down: tuple[Tile, ...]) -> dict[str, Any]:
    """What scoring reads to value a win of this seat: the dora turned (a closed hand is valued
    with riichi: `closed_flags`)."""
    return {"dora": view.dora}


def gain(score: Score, by: WinBy, payers: int) -> float:
    """What a win pays the winner in all: a non-dealer's self draw takes the dealer's share and
    the others'."""
    points = score.points
    if by is not WinBy.SELF_DRAW:
        return float(points["discarder"])
    if "each" in points:
        return float(payers * points["each"])
    return float(points["dealer"] + (payers - 1) * points["others"])


# ------------------------------------------------------------------------------- defence

# a hand's chance to wait on a kind, from the shapes that wait on it: each side of a two-sided
# wait, a closed wait, an edge wait, a pair (two copies unseen) or a single (one); summed they
# come near the published deal-in rates against a riichi (a non-suji 4-6 about 13%, a suji
# about 4-5%, a terminal 7%, an honour with three copies unseen 6%)
_SIDE = 0.045
_CLOSED_WAIT = 0.015
_EDGE_WAIT = 0.012
_PAIR_WAIT = (0.0, 0.015, 0.03, 0.03, 0.03)  # by copies unseen
_HONOUR_WAIT = (0.0, 0.015, 0.04, 0.06, 0.06)
_OTHER_SUIT = 0.1  # a kind outside the suit a flush-looking hand collects
# what a win costs the discarder: a riichi (with ura and tsumo chances) and an open hand, a
# dealer's half as much again; each dora shown in its melds adds about one han. An open hand is
# priced low: many have no yaku in reach, or a cheap one (measured with bench/strength.py against
# v1-riichi, 800 seat-hands, seed 1: 3,500 +219 points per hand, 1,500 +311, each +-260)
_RIICHI_COST = 5500
_OPEN_COST = 1500
_QUIET_READY = 0.2  # at most, for a closed hand without riichi
_DORA_SHOWN = 2000
_DEALER = 1.5
# stakes in the game's last hand: the leader protects its place, the last place pushes
_LEADER_STAKES = 2.0
_LAST_STAKES = 0.5


def _blocked(unseen: Sequence[int], kinds: Sequence[Tile]) -> float:
    """How much of a shape needing these kinds can still be held: none seen unseen (kabe,
    no-chance), half when one copy is left (one-chance)."""
    least = min(unseen[k] for k in kinds)
    return 0.0 if least == 0 else 0.5 if least == 1 else 1.0


def wait_chances(safe: frozenset[Tile], unseen: Sequence[int]) -> list[float]:
    """Per kind, the chance that a ready hand for which the kinds `safe` are safe waits on it."""
    chances = [0.0] * 34
    for kind in range(34):
        if kind in safe:
            continue
        if kind >= 27:
            chances[kind] = _HONOUR_WAIT[unseen[kind]]
            continue
        rank, base = kind % 9, kind - kind % 9
        chance = _PAIR_WAIT[unseen[kind]]
        if rank >= 3 and base + rank - 3 not in safe:  # held rank-2, rank-1: waits rank-3, rank
            chance += _SIDE * _blocked(unseen, (kind - 2, kind - 1))
        if rank <= 5 and base + rank + 3 not in safe:  # held rank+1, rank+2
            chance += _SIDE * _blocked(unseen, (kind + 1, kind + 2))
        if 1 <= rank <= 7:
            chance += _CLOSED_WAIT * _blocked(unseen, (kind - 1, kind + 1))
        if rank == 2:
            chance += _EDGE_WAIT * _blocked(unseen, (kind - 2, kind - 1))
        elif rank == 6:
            chance += _EDGE_WAIT * _blocked(unseen, (kind + 1, kind + 2))
        chances[kind] = chance
    return chances


def _flush_suit(view: SeatView, seat: int) -> int | None:
    """The suit an open hand seems to collect: its suited melds in one suit, two melds or more."""
    melds = view.melds[seat]
    suits = {m.first // 9 for m in melds if m.first < 27}
    if len(melds) >= 2 and len(suits) == 1:
        return next(iter(suits))
    return None


def _ready_and_cost(view: SeatView, seat: int) -> tuple[float, float]:
    """How likely `seat` is ready, and what a win of it costs this seat's discard."""
    dora = dict(tile_fan(view)[0])
    shown = sum(dora.get(t, 0) for m in view.melds[seat] for t in m.tiles)
    dealer = _DEALER if seat == 0 else 1.0
    if _in_riichi(view, seat):
        return 1.0, (_RIICHI_COST + _DORA_SHOWN * shown) * dealer
    opened = sum(1 for m in view.melds[seat] if m.kind is not MeldKind.CONCEALED_KONG)
    discards = len(view.ponds[seat])
    if opened:
        ready = min(0.8, 0.15 * opened + 0.02 * discards)
    else:
        # a closed hand that is ready mostly declares riichi: a quiet one is seldom ready
        ready = min(_QUIET_READY, max(0.0, 0.02 * (discards - 8)))
    return ready, (_OPEN_COST + _DORA_SHOWN * shown) * dealer


def stakes(view: SeatView) -> float:
    """How much dealing in weighs against winning: more for the leader in the game's last hand,
    less for the last place there, else 1."""
    setup, game = view.setup, view.preset.game
    if not setup.points or not game.rounds:
        return 1.0
    last_dealer = setup.dealer == view.seat_count - 1
    if setup.round_wind < game.rounds - 1 or not last_dealer:
        return 1.0
    now = [p + d for p, d in zip(setup.points, view.points, strict=True)]
    place = placements(game, now)[view.seat]
    if place == 1:
        return _LEADER_STAKES
    if place == view.seat_count:
        return _LAST_STAKES
    return 1.0


def danger(view: SeatView, other: int, unseen: Sequence[int]) -> list[float] | None:
    """Per kind, the points a discard of it is expected to cost against `other`."""
    ready, cost = _ready_and_cost(view, other)
    if ready <= 0.05:
        return [0.0] * 34
    safe = {*view.ponds[other]}
    if _in_riichi(view, other):
        safe.update(view.after_riichi[other])
    elif view.offered:
        safe.update(view.offered[other])
    chances = wait_chances(frozenset(safe), unseen)
    flush = _flush_suit(view, other)
    weight = ready * cost * stakes(view)
    out = []
    for kind, chance in enumerate(chances):
        if flush is not None and kind < 27 and kind // 9 != flush:
            chance *= _OTHER_SUIT
        out.append(weight * chance)
    return out


# ------------------------------------------------------------------------------- riichi or dama

_DAMA_POINTS = 7700  # a hand worth a mangan without riichi stays quiet
_GOOD_WAIT = 4  # live winning tiles for which riichi is worth it at any time
_EARLY_WALL = 40  # tiles left in the wall while a riichi on a thinner wait still pays
_LATE_WALL = 12  # from here a hand that has a yaku stays quiet on a thin wait


def dama_points(view: SeatView, tile: Tile) -> tuple[float, int, bool]:
    """With `tile` discarded: the mean points of a ron without riichi over the live waits, the
    live winning tiles, and whether a wait is in the own discards (furiten)."""
    counts = list(view.counts)
    counts[tile] -= 1
    hand = [k for k, c in enumerate(counts) for _ in range(c)]
    waits = shapes.waits(counts, view.preset.shape_rules)
    pond = {*view.ponds[view.seat], tile}
    melds = view.melds[view.seat]
    family = view.preset.scoring
    live = 0
    points = 0.0
    for wait in waits:
        copies = 4 - view.visible[wait]
        if copies <= 0:
            continue
        live += copies
        ctx = WinContext(
            concealed=tuple(sorted([*hand, wait])),
            win_tile=wait,
            melds=melds,
            by=WinBy.DISCARD,
            seat=view.seat,
            round_wind=view.round_wind,
            dora=view.dora,
        )
        won = family.score(view.preset, ctx)
        if won.valid:
            points += copies * won.points["discarder"]
    return (points / live if live else 0.0), live, any(w in pond for w in waits)


def declare(view: SeatView, tile: Tile) -> bool:
    """Whether to declare riichi with this discard rather than wait quietly (dama)."""
    dama, live, furiten = dama_points(view, tile)
    if not live:
        return False  # nothing left to win on: formal tenpai is all it has
    if not dama:
        # no yaku without riichi: riichi is the only way to win on a discard
        return live >= _GOOD_WAIT or not furiten
    if furiten or dama >= _DAMA_POINTS or view.wall_left < _LATE_WALL:
        return False
    if stakes(view) > 1.0:
        return False  # the leader in the last hand keeps its hand able to fold
    threatened = any(_in_riichi(view, s) for s in range(view.seat_count) if s != view.seat)
    if threatened:
        return False  # against a riichi a quiet hand may still fold
    return live >= _GOOD_WAIT or view.wall_left >= _EARLY_WALL


def set_aside(view: SeatView, tile: Tile) -> bool:
    """Whether to set this north aside now (sanma's nuki: a dora and a replacement draw, no
    discard, so it deals in to nobody's wait here): always, unless the hand needs the tile, that
    is unless giving it up leaves the hand further from ready than its best discard would (the
    north of kokushi, a pair of chiitoitsu, the tile of its wait). The north is never a seat or
    round wind in sanma (RULES.md "Riichi"), so it is worth nothing else to a hand."""
    counts = list(view.counts)
    rules = view.preset.shape_rules

    def after_giving_up(kind: Tile) -> int:
        counts[kind] -= 1
        found = shapes.shanten(counts, rules)
        counts[kind] += 1
        return found

    best = min(after_giving_up(kind) for kind, held in enumerate(view.counts) if held)
    return after_giving_up(tile) <= best


# Measured with bench/strength.py (--option length=east --baseline v1-riichi, 400 duplicate
# tonpuu seeds on seeds 1-16, 1,600 seat-games and about 9,700 seat-hands a side): placement
# gain riichi -0.165 (-0.239..-0.091), riichi-majsoul -0.246 (-0.319..-0.172); deal-in rate
# facing a riichi 0.059 against 0.211 and 0.061 against 0.201. Against v1 (which never declares
# riichi), riichi, seeds 1-8: -0.284 (-0.391..-0.176).
# sanma with nuki (--preset sanma --option length=east, baseline v1, 600 duplicate tonpuu seeds
# on seeds 1-2, 1,800 seat-games a side): placement gain -0.272 (-0.321..-0.223), final score
# +13.2 a game (+11.0..+15.4); deal-in rate 0.110 against 0.211, facing a riichi 0.106 against
# 0.253 (ratio 0.42). bench/computer_speed.py --preset sanma: strong 0.70 ms median, 2.28 ms p99
# a decision (easy 0.30, 1.18).

# the chance kept per further exchange a plan needs: Riichi hands are quick, the first win
# ends the hand
STEP = 0.2

# ------------------------------------------------------------------------------- suggestions


def _honour_value(view: SeatView, tile: Tile) -> int:
    """The han a pung of this honour is worth to this seat: 0 for a guest wind, 2 for a double
    wind (its own and the round's)."""
    return sum((tile in DRAGONS, tile == WINDS[view.seat], tile == WINDS[view.round_wind]))


def plain_move(view: SeatView, chosen: Action) -> Action:
    """The computer's choice as a move a beginner may copy: a lone honour worth less goes before
    a lone valued one (never the double East first; for want of one, a lone terminal goes
    before a double wind), and no call leaves the hand without a yaku in sight (a beginner
    cannot count on the far plans the computer weighs)."""
    thrown = kind_of(chosen.tiles[0]) if chosen.kind is ActionKind.DISCARD else None
    if thrown is not None and view.counts[thrown] == 1:
        instead = _plainer_discard(view, thrown)
        if instead is not None:
            found = [
                a for a in view.legal if a.kind is ActionKind.DISCARD and a.tiles == (instead,)
            ]
            return found[0] if found else chosen
    calls = (ActionKind.CHOW, ActionKind.PUNG, ActionKind.KONG)
    if chosen.kind in calls and view.phase != "turn" and not _yaku_in_sight(view, chosen):
        return next(a for a in view.legal if a.kind is ActionKind.PASS)
    return chosen


def _plainer_discard(view: SeatView, tile: Tile) -> Tile | None:
    """A lone tile to throw before the lone valued honour `tile`, or None (against a riichi the
    computer's choice stands: its tile may be the safer)."""
    if not is_honour(tile) or any(at >= 0 for s, at in enumerate(view.riichi_at) if s != view.seat):
        return None
    value = _honour_value(view, tile)
    lone = [t for t in HONOURS if view.counts[t] == 1 and _honour_value(view, t) < value]
    if not lone and value >= 2:  # a lone terminal with no neighbour within two
        lone = [
            t
            for t in range(27)
            if is_terminal(t) and view.counts[t] == 1 and not _neighbours(view.counts, t)
        ]
    return min(
        lone,
        key=lambda t: (_honour_value(view, t) if is_honour(t) else 0, -view.visible[t]),
        default=None,
    )


def _neighbours(counts: Sequence[int], tile: Tile) -> int:
    low = tile - tile % 9
    return sum(counts[t] for t in range(max(low, tile - 2), min(low + 9, tile + 3)) if t != tile)


def _yaku_in_sight(view: SeatView, call: Action) -> bool:
    """Whether the hand after this call holds a yaku a beginner can see: a valued honour pung
    (or its pair), all simples, one suit with honours, or pungs only."""
    tile = view.claim_tile
    assert tile is not None
    rest = list(view.counts)
    if call.kind is ActionKind.CHOW:
        called = list(call.tiles)
        for t in call.tiles:
            if t != tile:
                rest[t] -= 1
    else:
        size = 3 if call.kind is ActionKind.KONG else 2
        rest[tile] -= size
        called = [tile] * (size + 1)
    melded = [list(m.tiles) for m in view.melds[view.seat]] + [called]
    tiles = [t for t, n in enumerate(rest) for _ in range(n)] + [t for m in melded for t in m]
    pungs = [m[0] for m in melded if len(set(m)) == 1]
    valued = [t for t in HONOURS if _honour_value(view, t)]
    suits = {suit_of(t) for t in tiles if t not in HONOURS}
    return (
        any(t in valued for t in pungs)
        or any(rest[t] >= 2 for t in valued)
        or not any(is_honour(t) or is_terminal(t) for t in tiles)
        or len(suits) <= 1
        or (len(pungs) == len(melded) and sum(1 for n in rest if n == 1) <= 1)
    )


KNOWLEDGE = FamilyKnowledge(
    pure_flush=5,  # chinitsu, open (closed: the closed hand's riichi adds one)
    half_flush=2,  # honitsu, open
    all_pungs=2,  # toitoi
    seven_pairs=2,  # chiitoitsu (the closed hand's riichi adds one)
    root=0,
    honour_pung=1,  # yakuhai: a dragon, the seat wind, the round wind
    self_draw=0,
    pay=_pay,
    bonus_fan=lambda bonus, seat: 0,
    ready_per_discard=0.0,  # (the danger is `danger`'s)
    ready_per_meld=0.0,
    opponent_value=0.0,
    flush_value=0.0,
    step=STEP,
    danger_share=1.0,
    exact_one_away=False,
    # the first win ends the hand: a call that speeds a hand with a yaku up is taken (margin
    # 1.0: +370 points per hand against v1-riichi, 1.15: +325, 800 seat-hands, each +-260)
    call_margin=1.0,
    closed_hand=1,  # riichi, which every closed ready hand may declare
    closed_flags=frozenset({"riichi"}),
    offered_safe=True,
    minimum=lambda view: 1,  # a yaku
    gain=gain,
    context=context,
    all_simples=1,
    tile_fan=tile_fan,
    danger=danger,
    declare=declare,
    set_aside=("nuki", set_aside),
    plain_move=plain_move,
)
