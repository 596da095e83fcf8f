"""Where the points go in hubei-laizi duplicate games (a program, no test).

    python bench/hubei_points.py [--candidate strong] [--baseline v1] [--hands N] [--seed S]
                                 [--players N] [--options green_white no_minimum]
                                 [--set NAME=VALUE ...] [--know FIELD=VALUE ...]

The same walls as bench/strength.py (the same seeds): each wall played by the baseline in every
seat, then once per seat with the candidate in it. Every seat-hand of each side is put in one
class by what happened to that seat (won by discard / self draw / robbing, dealt in, paid
another's self draw or discard big win, robbed, others won without it paying, wall draw), and per
class the table shows how often it happened and the points it brought per seat-hand: the
differences of the last column add up to the gain. Below it, what a seat showed when the hand
ended (open, its own kong fan, red/wild kongs set down), what it paid as a loser by how it stood,
the caps and liability, and the mean fan of its wins.

To try a setting without editing: `--set OTHERS_WIN=0.3` changes a constant of
engine/families/hubei/advice.py, `--know danger_share=0.02` a field of its knowledge entry.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from strength import SideStats, TimedComputer, mean_ci, play_wall

from engine.computer import computer_for
from engine.families.hubei import scoring as hubei
from engine.hand import HandState
from engine.presets import find_preset, with_options
from engine.scoring.base import WinBy
from engine.seat_view import SeatView
from engine.settlement import Reason

CLASSES = (
    "won by discard",
    "won by self draw",
    "won by robbing",
    "dealt in (small win)",
    "dealt in (big win)",
    "paid a self draw",
    "paid a discard big win",
    "robbed",
    "others won, paid nothing",
    "wall draw",
)


@dataclass
class Side:
    """One side's seat-hands, by class and by what the seat showed."""

    seat_hands: int = 0
    count: Counter[str] = field(default_factory=Counter)
    points: Counter[str] = field(default_factory=Counter)
    shown: Counter[str] = field(default_factory=Counter)
    lost: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    win_fans: list[int] = field(default_factory=list)
    reasons: Counter[str] = field(default_factory=Counter)

    def add(self, state: HandState, seat: int) -> None:
        outcome = state.outcome()
        assert outcome is not None
        self.seat_hands += 1
        delta = outcome.deltas[seat]
        kind = _class(state, seat)
        self.count[kind] += 1
        self.points[kind] += delta
        view = SeatView.of(state, seat)
        melds = state.melds[seat]
        opened = hubei.is_open(melds)
        wild = min(view.wilds) if view.wilds else None
        set_down = view.set_down[seat] if view.set_down else ()
        kong_fan = sum(
            hubei.FAN[pid] * times for pid, times in hubei.kong_patterns(melds, set_down, wild)
        )
        self.shown["open at the end"] += opened
        self.shown["kong fan (own)"] += kong_fan
        self.shown["wild kongs set down"] += sum(1 for t in set_down if t == wild)
        self.shown["red kongs set down"] += sum(1 for t in set_down if t != wild)
        self.shown["melds"] += len(melds)
        self.shown["exposed/added kongs"] += sum(1 for m in melds if m.kind.is_kong)
        for reason in Reason:
            paid = outcome.paid_for(reason)[seat]
            if paid:
                self.reasons[reason.value] += paid
        if delta < 0 and kind not in ("wall draw",):
            stand = "open" if opened else "closed"
            self.lost[f"{stand}, kong fan {min(kong_fan, 3)}{'+' if kong_fan >= 3 else ''}"].append(
                delta
            )
        self.win_fans += [w.score.fan for w in outcome.wins if w.seat == seat]


def _class(state: HandState, seat: int) -> str:
    outcome = state.outcome()
    assert outcome is not None
    if not outcome.wins:
        return "wall draw"
    win = outcome.wins[0]
    if win.seat == seat:
        return {
            WinBy.DISCARD: "won by discard",
            WinBy.SELF_DRAW: "won by self draw",
            WinBy.ROBBING_KONG: "won by robbing",
        }[win.by]
    big = any(p.id in hubei.BIG_WINS for p in win.score.patterns)
    if win.by is WinBy.ROBBING_KONG:
        return "robbed" if win.discarder == seat else "others won, paid nothing"
    if win.discarder == seat:
        return "dealt in (big win)" if big else "dealt in (small win)"
    if outcome.deltas[seat] == 0:
        return "others won, paid nothing"
    return "paid a self draw" if win.by is WinBy.SELF_DRAW else "paid a discard big win"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--candidate", default="strong")
    parser.add_argument("--baseline", default="v1")
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--options", nargs="*", default=[])
    parser.add_argument("--set", nargs="*", default=[], help="knowledge_hubei constants")
    parser.add_argument("--know", nargs="*", default=[], help="knowledge entry fields")
    args = parser.parse_args(argv)
    _try_settings(args.set, args.know)
    preset = with_options(find_preset("hubei-laizi"), args.options)
    players = args.players
    cand_player = TimedComputer(computer_for(args.candidate))
    base_player = TimedComputer(computer_for(args.baseline))

    cand_player.stats = base_player.stats = SideStats()
    cand, base = Side(), Side()
    gains: list[float] = []
    # the seeds of bench/strength.py: the same walls
    seeds = random.Random(f"strength:{args.seed}:{preset.id}")
    walls = -(-args.hands // players)
    for _ in range(walls):
        wall_seed = seeds.getrandbits(48)
        reference = play_wall(preset, wall_seed, [base_player] * players)
        for seat in range(players):
            base.add(reference, seat)
        for seat in range(players):
            seats = [base_player] * players
            seats[seat] = cand_player
            state = play_wall(preset, wall_seed, seats)
            cand.add(state, seat)
            own, ref = state.outcome(), reference.outcome()
            assert own is not None and ref is not None
            gains.append(own.deltas[seat] - ref.deltas[seat])
    _report(args.candidate, args.baseline, cand, base, gains)
    return 0


def _try_settings(constants: list[str], fields: list[str]) -> None:
    """Change the candidate's hubei knowledge for this run only (for trying settings)."""
    from dataclasses import replace

    from engine.computer import knowledge
    from engine.families.hubei import advice as knowledge_hubei
    from engine.presets import PRESETS

    for item in constants:
        name, value = item.split("=")
        setattr(knowledge_hubei, name, type(getattr(knowledge_hubei, name))(float(value)))
    changes = {}
    for item in fields:
        name, value = item.split("=")
        current = getattr(knowledge_hubei.KNOWLEDGE, name)
        changes[name] = float(value) if current is None else type(current)(float(value))
    hubei = PRESETS["hubei-laizi"]  # the preset carries its knowledge: this run's preset
    PRESETS[hubei.id] = replace(hubei, advice=replace(knowledge_hubei.KNOWLEDGE, **changes))
    knowledge._TABLES.clear()
    if constants or fields:
        print("settings:", *constants, *fields)


def _report(cand_name: str, base_name: str, cand: Side, base: Side, gains: list[float]) -> None:
    n = cand.seat_hands
    print(f"seat-hands per side: {n}")
    print(f"{'class':28}{cand_name + ' %':>10}{base_name + ' %':>10}{cand_name:>10}{base_name:>10}")
    for kind in CLASSES:
        print(
            f"{kind:28}{100 * cand.count[kind] / n:10.1f}{100 * base.count[kind] / n:10.1f}"
            f"{cand.points[kind] / n:+10.2f}{base.points[kind] / n:+10.2f}"
        )
    gain, half = mean_ci(gains)
    print(f"{'all (points per seat-hand)':48}{sum(cand.points.values()) / n:+10.2f}", end="")
    print(f"{sum(base.points.values()) / n:+10.2f}")
    print(f"gain per seat-hand: {gain:+.2f}  95% CI {gain - half:+.2f} .. {gain + half:+.2f}")
    print("\nshown at the end (per seat-hand)")
    for key in sorted({*cand.shown, *base.shown}):
        print(f"  {key:30}{cand.shown[key] / n:10.3f}{base.shown[key] / n:10.3f}")
    print("\npoints moved by reason (per seat-hand)")
    for key in sorted({*cand.reasons, *base.reasons}):
        print(f"  {key:30}{cand.reasons[key] / n:+10.3f}{base.reasons[key] / n:+10.3f}")
    print("\nlosing seat-hands by how the seat stood: share of seat-hands, mean payment")
    for key in sorted({*cand.lost, *base.lost}):
        c, b = cand.lost.get(key, []), base.lost.get(key, [])
        print(
            f"  {key:30}{100 * len(c) / n:8.1f}%{_mean(c):8.2f}"
            f"{100 * len(b) / n:8.1f}%{_mean(b):8.2f}"
        )
    print(f"\nmean fan of wins: {_mean(cand.win_fans):.2f} {_mean(base.win_fans):.2f}")
    fans_c, fans_b = Counter(cand.win_fans), Counter(base.win_fans)
    print("wins by fan:", {f: (fans_c[f], fans_b[f]) for f in sorted({*fans_c, *fans_b})})


def _mean(values: list[int]) -> float:
    return sum(values) / len(values) if values else 0.0


if __name__ == "__main__":
    raise SystemExit(main())
