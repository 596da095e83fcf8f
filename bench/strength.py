"""Duplicate games: how much stronger a computer level plays than a baseline (a program, no test).

    python bench/strength.py [--candidate strong] [--baseline v1] [--preset ID ...] [--hands N]
                             [--seed S] [--min-fan M] [--players N] [--games G] [--per-hand]
                             [--option NAME=VALUE ...]

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

Presets whose games end (Riichi: `riichi`, `riichi-majsoul`, also named though not in PRESETS)
are played as whole duplicate games instead: `--games` game seeds (each seed fixes every hand's
wall), each played once with the baseline in every seat and once per player with the candidate
there (`--option length=east` for tonpuu). Per side: average placement, final score (uma
included) and points per game, then per hand the win, deal-in and riichi rates and the deal-in
rate in hands where another seat declared riichi, and decisions per second; the candidate's
place is compared with the baseline's of the same player in the same game seed. `--baseline
v1-riichi` is the easy computer declaring riichi whenever its discard is offered as one (so that
the defence against a riichi can be measured where the easy computer never declares). The last
lines: `placement_gain: X` (negative: better) and `deal_in_facing_riichi_ratio: Y`. `--raw FILE`
appends each run's figures to FILE; `--pool FILE` reports the runs it holds pooled. `--per-hand`
plays such a preset by duplicate hands as the others (each wall one hand, East in seat 0), for
points per seat-hand where every hand pays (chinese-classical: the bar is set per seat-hand).

The last lines per preset (hands) are for the bar: `points_per_hand_gain: X` (candidate minus
baseline per seat-hand, with its 95% interval in the line before) and `dead_hand_rate: Y` (the
candidate's).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import scoring, shapes
from engine.actions import Action, ActionKind
from engine.computer import Computer, computer_for
from engine.computer.easy import choose_action
from engine.families.riichi.rules import RIICHI
from engine.hand import HandState
from engine.options import choose, options_text, parse_choices
from engine.presets import (
    PRESETS,
    Preset,
    find_preset,
    min_fan_choices,
    with_min_fan,
)
from engine.rules import void_suit
from engine.scoring.base import WinBy, WinContext
from engine.session import Seating, Session
from engine.shapes import ShapeRules
from engine.tiles import Tile


@dataclass
class Timing:
    """Decisions made and the time spent inside the decision function."""

    decisions: int = 0
    seconds: float = 0.0


@dataclass
class SideStats(Timing):
    """One side's results over its seat-hands."""

    points: list[int] = field(default_factory=list)
    wins: int = 0
    deal_ins: int = 0
    win_fans: list[int] = field(default_factory=list)
    near_ready: int = 0
    dead: int = 0

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


def easy_with_riichi(state: HandState, seat: int) -> Action:
    """The easy computer, declaring riichi whenever one is offered with the discard it chose
    (a baseline that riichis, so that the defence against one can be measured)."""
    chosen = choose_action(state, seat)
    if chosen.kind is ActionKind.DISCARD:
        for action in state.legal_actions(seat):
            if action.kind is RIICHI and action.tiles == chosen.tiles:
                return action
    return chosen


BENCH_LEVELS: dict[str, Computer] = {"v1-riichi": easy_with_riichi}


def _computer(level: str) -> Computer:
    return BENCH_LEVELS.get(level) or computer_for(level)


class TimedComputer:
    """A decision function that adds its own time and calls to a SideStats."""

    def __init__(self, computer: Computer) -> None:
        self.computer = computer
        self.stats: Timing | None = None

    def __call__(self, state: HandState, seat: int):  # type: ignore[no-untyped-def]
        started = time.perf_counter()
        action = self.computer(state, seat)
        assert self.stats is not None
        self.stats.seconds += time.perf_counter() - started
        self.stats.decisions += 1
        return action


def play_wall(preset: Preset, seed: int, seats: list[TimedComputer]) -> HandState:
    return play_hand(HandState(preset, seed, seat_count=len(seats)), seats)


def play_hand(state: HandState, seats: list[TimedComputer]) -> HandState:
    """Play a dealt hand to its end, `seats[s]` deciding for hand seat s."""
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
            void_suit=void_suit(state, seat),
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
    cand_player = TimedComputer(_computer(candidate))
    base_player = TimedComputer(_computer(baseline))
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


@dataclass
class GameSide(Timing):
    """One side's results over its seat-games (a seat: one player of one game)."""

    places: list[int] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)  # final score, uma included
    points: list[int] = field(default_factory=list)  # final points less the start
    hands: int = 0
    wins: int = 0
    deal_ins: int = 0
    riichis: int = 0
    facing_riichi: int = 0  # seat-hands in which another seat declared riichi
    deal_ins_facing_riichi: int = 0  # ... and this seat dealt in after it

    def add_hand(self, state: HandState, seat: int) -> None:
        outcome = state.outcome()
        assert outcome is not None
        self.hands += 1
        self.wins += any(w.seat == seat for w in outcome.wins)
        dealt_in = any(w.discarder == seat for w in outcome.wins)
        self.deal_ins += dealt_in
        declared = {a.seat for a in state.log if a.kind is RIICHI}
        self.riichis += seat in declared
        if declared - {seat}:
            self.facing_riichi += 1
            self.deal_ins_facing_riichi += dealt_in

    def add_game(self, session: Session, player: int) -> None:
        standing = session.standings()[player]
        self.places.append(standing.place)
        self.scores.append(standing.score)
        self.points.append(standing.points - session.preset.start_points)


def play_game(
    preset: Preset,
    seed: int,
    players: list[TimedComputer],
    on_hand: Callable[[HandState, Seating], None],
) -> Session:
    """Play one game to its end, `players[p]` deciding for player p whatever its seat."""
    session = Session(preset, seed, seat_count=len(players))
    while not session.over:
        if session.hand_number >= 100:
            raise RuntimeError(f"game {seed} did not end in 100 hands")
        seating = session.seating
        seats = [players[seating.player_at(s)] for s in range(len(players))]
        state = play_hand(session.new_hand(), seats)
        on_hand(state, seating)
        outcome = state.outcome()
        assert outcome is not None
        session.finish_hand(outcome)
    return session


def compare_games(
    preset: Preset, candidate: str, baseline: str, games: int, seed: int, raw: Path | None = None
) -> None:
    """Duplicate games: each game seed (its hands' walls) played once with the baseline in
    every seat, and once per player with the candidate there; places compared per player."""
    players = preset.seat_counts[0]
    cand, base, others = GameSide(), GameSide(), GameSide()
    cand_player = TimedComputer(_computer(candidate))
    base_player = TimedComputer(_computer(baseline))
    seeds = random.Random(f"strength-games:{seed}:{preset.id}")
    place_gains: list[float] = []
    score_gains: list[float] = []
    started = time.perf_counter()
    for _ in range(games):
        game_seed = seeds.getrandbits(48)
        base_player.stats = base

        def every_seat(state: HandState, seating: Seating) -> None:
            for seat in range(players):
                base.add_hand(state, seat)

        reference = play_game(preset, game_seed, [base_player] * players, every_seat)
        for player in range(players):
            base.add_game(reference, player)
        for player in range(players):
            seats = [base_player] * players
            seats[player] = cand_player
            cand_player.stats, base_player.stats = cand, others

            def candidate_seat(state: HandState, seating: Seating, player: int = player) -> None:
                cand.add_hand(state, seating.hand_seat(player))

            game = play_game(preset, game_seed, seats, candidate_seat)
            cand.add_game(game, player)
            place_gains.append(cand.places[-1] - base.places[-players + player])
            score_gains.append(cand.scores[-1] - base.scores[-players + player])
    elapsed = time.perf_counter() - started
    title = (
        f"preset: {preset.id} ({options_text(preset) or 'default options'})  game seeds: {games}"
        f"  seat-games per side: {players * games}  ({elapsed:.0f} s)"
    )
    report_games(title, (candidate, baseline), cand, base, place_gains, score_gains)
    if raw is not None:  # runs on other seeds are pooled from these lines (`--pool`)
        record = {"preset": preset.id, "seed": seed, "levels": [candidate, baseline]}
        record |= {"place_gains": place_gains, "score_gains": score_gains}
        record |= {"candidate": asdict(cand), "baseline": asdict(base)}
        with raw.open("a") as out:
            out.write(json.dumps(record) + "\n")


def report_games(
    title: str,
    levels: tuple[str, str],
    cand: GameSide,
    base: GameSide,
    place_gains: list[float],
    score_gains: list[float],
) -> None:
    """Print the two sides' game figures and the gains (see the module's docstring)."""
    print(title)
    print(f"{'':32}{levels[0]:>22}{levels[1]:>22}")
    rows = [
        ("average placement (95% CI)", _ci_text(cand.places), _ci_text(base.places)),
        ("final score per game", _ci_text(cand.scores), _ci_text(base.scores)),
        ("points per game", _ci_text(cand.points), _ci_text(base.points)),
        ("win rate (per hand)", _rate(cand.wins, cand.hands), _rate(base.wins, base.hands)),
        ("deal-in rate", _rate(cand.deal_ins, cand.hands), _rate(base.deal_ins, base.hands)),
        ("riichi rate", _rate(cand.riichis, cand.hands), _rate(base.riichis, base.hands)),
        (
            "deal-in rate facing riichi",
            _rate(cand.deal_ins_facing_riichi, cand.facing_riichi),
            _rate(base.deal_ins_facing_riichi, base.facing_riichi),
        ),
        ("decisions per second", _speed(cand), _speed(base)),
    ]
    for name, left, right in rows:
        print(f"{name:32}{left:>22}{right:>22}")
    gain, half = mean_ci(place_gains)
    print(f"placement gain per seat-game, 95% CI: {gain - half:+.3f} .. {gain + half:+.3f}")
    score, half = mean_ci(score_gains)
    print(f"final score gain per seat-game, 95% CI: {score - half:+.2f} .. {score + half:+.2f}")
    print(f"placement_gain: {gain:.3f}")
    facing = [_share(s.deal_ins_facing_riichi, s.facing_riichi) for s in (cand, base)]
    ratio = facing[0] / facing[1] if facing[1] else float("nan")
    print(f"deal_in_facing_riichi_ratio: {ratio:.3f}")
    print()


def pool(raw: Path) -> None:
    """Report the runs of `--raw` files pooled, per preset and pair of levels."""
    runs: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for line in raw.read_text().splitlines():
        record = json.loads(line)
        runs.setdefault((record["preset"], *record["levels"]), []).append(record)
    for (preset_id, candidate, baseline), records in runs.items():
        sides = [_pooled_side([r[side] for r in records]) for side in ("candidate", "baseline")]
        place_gains = [g for r in records for g in r["place_gains"]]
        score_gains = [g for r in records for g in r["score_gains"]]
        seeds = ", ".join(str(r["seed"]) for r in records)
        title = f"preset: {preset_id}  pooled runs on seeds {seeds}"
        title += f"  seat-games per side: {len(place_gains)}"
        report_games(title, (candidate, baseline), *sides, place_gains, score_gains)


def _pooled_side(parts: list[dict[str, Any]]) -> GameSide:
    side = GameSide()
    for part in parts:
        for name, value in part.items():
            setattr(side, name, getattr(side, name) + value)
    return side


def _share(count: int, total: int) -> float:
    return count / total if total else 0.0


def _ci_text(values: Sequence[float]) -> str:
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
    parser.add_argument("--games", type=int, default=200, help="game seeds, where games end")
    parser.add_argument("--option", nargs="*", default=[], help="table options: length=east")
    parser.add_argument(
        "--per-hand", action="store_true", help="duplicate hands even where games end"
    )
    parser.add_argument("--raw", type=Path, help="games: append each side's figures (JSON lines)")
    parser.add_argument("--pool", type=Path, help="report the runs a --raw file holds, pooled")
    args = parser.parse_args(argv)
    if args.pool:
        pool(args.pool)
        return 0
    for preset_id in args.preset:
        preset = find_preset(preset_id)
        if min_fan_choices(preset):
            preset = with_min_fan(preset, args.min_fan)
        if args.option:
            preset = choose(preset, parse_choices(preset, args.option))
        players = args.players if args.players in preset.seat_counts else preset.seat_counts[0]
        if preset.game.ends and not args.per_hand:
            compare_games(preset, args.candidate, args.baseline, args.games, args.seed, args.raw)
        else:
            compare(preset, args.candidate, args.baseline, args.hands, args.seed, players)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
