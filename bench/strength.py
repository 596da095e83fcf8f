"""Duplicate games: how much stronger a computer level plays than a baseline (a program, no test).

    python bench/strength.py [--candidate strong] [--baseline v1] [--preset ID ...] [--hands N]
                             [--seed S] [--min-fan M] [--players N]

Luck cancels as in Mortal's and akochan's comparisons: every wall (a seeded hand) is played once
with the baseline in every seat, and once for each seat with the candidate in that seat and
the baseline in the other three. A *seat-hand* is one seat of one wall; `--hands` of them are
played per side and preset (walls = hands / seats, rounded up). The candidate's result in a seat is
compared with the baseline's result in the same seat of the same wall.

Per preset, candidate and baseline side by side: points per hand (mean, 95% interval), win rate
(seat-hands with a win of that seat), deal-in rate (seat-hands where that seat discarded into a
win), mean fan of its wins, dead-hand rate at wall draws, decisions per second (time inside the
decision function only). A hand at a wall draw is *near ready* when it is ready or one exchange
from ready; it is *dead* when near ready but no completion can reach the preset's minimum (or win
at all), even by self draw, within two more tiles: one exchange and the winning tile (for a ready
hand: its waits, or the waits of a hand one exchange away). The dead-hand rate is dead /
near-ready hands at wall draws; hands with wilds (redwild, hubei-laizi) are not judged: the
referee reads shapes without jokers.

`--min-fan M` plays the presets whose tables choose a minimum (hk-fw2: 0-3) at that minimum; the
others keep theirs. `--players N` seats N players (walls = hands / N) at the presets played by N
(hubei-laizi: 2-4); the others keep their own number.

The last lines per preset are for the bar: `points_per_hand_gain: X` (candidate minus baseline per
seat-hand, with its 95% interval in the line before) and `dead_hand_rate: Y` (the candidate's).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import scoring, shapes
from engine.computer import Computer, computer_for
from engine.hand import HandState
from engine.presets import (
    PRESETS,
    Preset,
    find_preset,
    min_fan_choices,
    with_min_fan,
)
from engine.scoring.base import WinBy, WinContext
from engine.shapes import ShapeRules
from engine.tiles import Tile


@dataclass
class SideStats:
    """One side's results over its seat-hands."""

    points: list[int] = field(default_factory=list)
    wins: int = 0
    deal_ins: int = 0
    win_fans: list[int] = field(default_factory=list)
    near_ready: int = 0
    dead: int = 0
    decisions: int = 0
    seconds: float = 0.0

    def add_seat(self, state: HandState, seat: int) -> None:
        outcome = state.outcome()
        assert outcome is not None
        self.points.append(outcome.deltas[seat])
        own = [w for w in outcome.wins if w.seat == seat]
        self.wins += 1 if own else 0
        self.win_fans += [w.score.fan for w in own]
        self.deal_ins += 1 if any(w.discarder == seat for w in outcome.wins) else 0
        if not own and state.wall_left == 0 and not state.wild_kinds:
            verdict = hand_verdict(state, seat)
            if verdict != "far":
                self.near_ready += 1
                self.dead += verdict == "dead"


class TimedComputer:
    """A decision function that adds its own time and calls to a SideStats."""

    def __init__(self, computer: Computer) -> None:
        self.computer = computer
        self.stats: SideStats | None = None

    def __call__(self, state: HandState, seat: int):  # type: ignore[no-untyped-def]
        started = time.perf_counter()
        action = self.computer(state, seat)
        assert self.stats is not None
        self.stats.seconds += time.perf_counter() - started
        self.stats.decisions += 1
        return action


def play_wall(preset: Preset, seed: int, seats: list[TimedComputer]) -> HandState:
    state = HandState(preset, seed, seat_count=len(seats))
    for _ in range(10_000):
        to_act = state.seats_to_act()
        if not to_act:
            return state
        seat = to_act[0]
        state.apply(seats[seat](state, seat))
    raise RuntimeError(f"hand did not end: {state.describe()}")


def hand_verdict(state: HandState, seat: int) -> str:
    """'far', 'live' or 'dead' for a seat's concealed hand at the end of a wall (the referee
    reads the whole state: this is the benchmark, not a player)."""
    preset = state.preset
    rules = preset.shape_rules
    counts = state.tile_counts(seat)
    if sum(counts) % 3 != 1:
        return "far"
    distance = shapes.shanten(counts, rules)
    if distance > 1:
        return "far"
    if distance == 0 and _reaches(state, seat, counts, rules):
        return "live"
    # one exchange on: a ready hand may still turn to a live one, as a one-away hand must
    for draw in range(34):
        if counts[draw] >= 4 or draw not in preset.tile_kinds:
            continue
        counts[draw] += 1
        for out in range(34):
            if not counts[out] or out == draw:
                continue
            counts[out] -= 1
            ready = shapes.shanten(counts, rules) == 0
            live = ready and _reaches(state, seat, counts, rules)
            counts[out] += 1
            if live:
                counts[draw] -= 1
                return "live"
        counts[draw] -= 1
    return "dead"


def _reaches(state: HandState, seat: int, counts: list[int], rules: ShapeRules) -> bool:
    """Whether some wait of a ready hand scores a valid win by self draw."""
    hand: list[Tile] = [k for k, c in enumerate(counts) for _ in range(c)]
    for tile in shapes.waits(counts, rules):
        ctx = WinContext(
            concealed=tuple(sorted([*hand, tile])),
            win_tile=tile,
            melds=tuple(state.melds[seat]),
            bonus=tuple(state.bonus[seat]),
            by=WinBy.SELF_DRAW,
            seat=seat,
            round_wind=state.round_wind,
            void_suit=state.void[seat],
        )
        if scoring.score(state.preset, ctx).valid:
            return True
    return False


def mean_ci(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% confidence interval (normal approximation)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def compare(
    preset: Preset, candidate: str, baseline: str, hands: int, seed: int, players: int = 4
) -> None:
    walls = math.ceil(hands / players)
    cand, base = SideStats(), SideStats()
    cand_player = TimedComputer(computer_for(candidate))
    base_player = TimedComputer(computer_for(baseline))
    # baseline decisions in the candidate's games are timed apart, not mixed into either side
    others = SideStats()
    seeds = random.Random(f"strength:{seed}:{preset.id}")
    started = time.perf_counter()
    gains: list[float] = []
    for _ in range(walls):
        wall_seed = seeds.getrandbits(48)
        base_player.stats = base
        reference = play_wall(preset, wall_seed, [base_player] * players)
        for seat in range(players):
            base.add_seat(reference, seat)
        assert reference.outcome() is not None
        for seat in range(players):
            seats = [base_player] * players
            seats[seat] = cand_player
            cand_player.stats = cand
            base_player.stats = others
            state = play_wall(preset, wall_seed, seats)
            cand.add_seat(state, seat)
            gains.append(cand.points[-1] - base.points[-players + seat])
    elapsed = time.perf_counter() - started
    table = f"{preset.id} (min_fan {preset.min_fan})" if min_fan_choices(preset) else preset.id
    if players != preset.seat_counts[0]:
        table += f" ({players} players)"
    print(
        f"preset: {table}  walls: {walls}  seat-hands per side: {players * walls}"
        f"  ({elapsed:.0f} s)"
    )
    print(f"{'':28}{candidate:>22}{baseline:>22}")
    rows = [
        ("points per hand (95% CI)", _ci_text(cand.points), _ci_text(base.points)),
        ("win rate", _rate(cand.wins, len(cand.points)), _rate(base.wins, len(base.points))),
        (
            "deal-in rate",
            _rate(cand.deal_ins, len(cand.points)),
            _rate(base.deal_ins, len(base.points)),
        ),
        ("mean fan of wins", _mean_text(cand.win_fans), _mean_text(base.win_fans)),
        ("dead hands at wall draws", _dead_text(cand), _dead_text(base)),
        ("decisions per second", _speed(cand), _speed(base)),
    ]
    for name, left, right in rows:
        print(f"{name:28}{left:>22}{right:>22}")
    gain, half = mean_ci(gains)
    print(f"gain per seat-hand, 95% CI: {gain - half:+.2f} .. {gain + half:+.2f}")
    print(f"points_per_hand_gain: {gain:.2f}")
    rate = cand.dead / cand.near_ready if cand.near_ready else 0.0
    print(f"dead_hand_rate: {rate:.3f}")
    print()


def _ci_text(values: list[int]) -> str:
    mean, half = mean_ci([float(v) for v in values])
    return f"{mean:+.2f} ± {half:.2f}"


def _rate(count: int, total: int) -> str:
    return f"{count / total:.3f}" if total else "-"


def _mean_text(values: list[int]) -> str:
    return f"{sum(values) / len(values):.2f}" if values else "-"


def _dead_text(stats: SideStats) -> str:
    if not stats.near_ready:
        return "0/0"
    return f"{stats.dead}/{stats.near_ready} = {stats.dead / stats.near_ready:.3f}"


def _speed(stats: SideStats) -> str:
    return f"{stats.decisions / stats.seconds:,.0f}" if stats.seconds else "-"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--candidate", default="strong")
    parser.add_argument("--baseline", default="v1")
    parser.add_argument("--preset", nargs="*", default=sorted(PRESETS))
    parser.add_argument("--hands", type=int, default=2000, help="seat-hands per side and preset")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--min-fan", type=int, default=None, help="hk-fw2's table minimum (0-3)")
    parser.add_argument("--players", type=int, default=0, help="seats, where the preset allows")
    args = parser.parse_args(argv)
    for preset_id in args.preset:
        preset = find_preset(preset_id)
        if min_fan_choices(preset):
            preset = with_min_fan(preset, args.min_fan)
        players = args.players if args.players in preset.seat_counts else preset.seat_counts[0]
        compare(preset, args.candidate, args.baseline, args.hands, args.seed, players)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
