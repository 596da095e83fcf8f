"""A hand's result as our engine scored it and as a tenhou.net/6 log records it, in the same
terms, and what differs between the two (engine.formats.tenhou6.replay prints them side by side).

Seats are the log's: players in seating order. Deltas are the log's kind: every payment of the
hand, the riichi sticks paid into the pot during it left out (the next hand's points show them);
a win's deltas include the honba and the pot its winner takes. A yaku worth nothing is left out,
and `fu` is None where the log names a limit without fu.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.events import Termination
from engine.formats.tenhou6.export import liable_seat
from engine.formats.tenhou6.log import (
    ABORTIVE_DRAWS,
    EXHAUSTIVE_DRAWS,
    WIN,
    Hand,
    Log,
    Tenhou6Error,
)
from engine.formats.tenhou6.results import WinWordsError, read_win_texts
from engine.hand import HandState
from engine.outcome import Outcome
from engine.scoring.base import WinBy
from engine.settlement import Reason, deltas_of

ROUND_LETTERS = "ESWN"


def round_name(kyoku: int) -> str:
    """`E1` ... `S4` (`W1` in an extension) from Tenhou's kyoku (wind * 4 + dealer)."""
    return f"{ROUND_LETTERS[kyoku // 4 % 4]}{kyoku % 4 + 1}"


# ---------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class WinResult:
    """One win as ours or the log's: players (log seats), han, fu (None: the log names a limit
    without fu), and yaku with han (sorted, none worth 0)."""

    winner: int
    source: int  # the discarder (the robbed kong's owner), or the winner on a self draw
    han: int
    fu: int | None
    yaku: tuple[tuple[str, int], ...]
    deltas: tuple[int, ...]
    liable: int | None = None  # the seat that pays for feeding the yakuman (pao)

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "seat": self.winner,
            "from": self.source,
            "han": self.han,
            "fu": self.fu,
            "yaku": dict(self.yaku),
            "deltas": list(self.deltas),
        }
        return data if self.liable is None else data | {"liable": self.liable}


@dataclass(frozen=True, slots=True)
class HandResult:
    outcome: str  # ron, tsumo, exhaustive, abortive
    deltas: tuple[int, ...]  # by player, the riichi sticks paid in during the hand left out
    wins: tuple[WinResult, ...] = ()

    def to_json(self) -> dict[str, object]:
        return {
            "outcome": self.outcome,
            "deltas": list(self.deltas),
            "wins": [win.to_json() for win in self.wins],
        }


@dataclass(frozen=True, slots=True)
class HandReport:
    number: int
    kyoku: int
    honba: int
    ours: HandResult
    log: HandResult
    differs: tuple[str, ...] = ()  # what differs, the result first, then the next deal
    notes: tuple[str, ...] = ()  # what was bent to go on (a red five our engine held instead)

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "hand": self.number,
            "round": round_name(self.kyoku),
            "honba": self.honba,
            **self.ours.to_json(),
            "log": self.log.to_json(),
        }
        if self.differs:
            data["differs"] = list(self.differs)
        if self.notes:
            data["notes"] = list(self.notes)
        return data


@dataclass(frozen=True, slots=True)
class FinalReport:
    points: tuple[int, ...]
    score: tuple[float, ...] | None  # None: the game is not over after the log's last hand
    over: bool
    differs: tuple[str, ...] = ()  # how it differs from the log's own final line (`sc`)

    def to_json(self) -> dict[str, object]:
        score = None if self.score is None else list(self.score)
        data: dict[str, object] = {
            "final": {"points": list(self.points), "score": score, "over": self.over}
        }
        return data | {"differs": list(self.differs)} if self.differs else data


def final_differences(ours: FinalReport, log: Log) -> list[str]:
    """How our final points and score differ from the log's `sc` line (none without one)."""
    if log.final is None:
        return []
    points = tuple(p for p, _ in log.final)
    scores = tuple(s for _, s in log.final)
    found = []
    if ours.points != points:
        found.append(f"final points: ours {list(ours.points)}, the log's {list(points)}")
    if ours.score is None:
        found.append(f"final score: our game is not over, the log's {list(scores)}")
    elif ours.score != scores:
        found.append(f"final score: ours {list(ours.score)}, the log's {list(scores)}")
    return found


def log_result(hand: Hand, number: int) -> HandResult:
    """The log's own result of a hand, in our words."""
    result = hand.result
    seats = len(hand.starts)
    if result.name == WIN:
        wins = []
        for win in result.wins:
            try:
                words = read_win_texts(win.texts)
            except WinWordsError as error:
                raise Tenhou6Error(f"hand {number}, win of seat {win.winner}: {error}") from None
            fu = None if words.limit is not None else words.fu
            yaku = tuple(sorted(words.yaku))
            liable = None if win.pao == win.winner else win.pao
            wins.append(
                WinResult(win.winner, win.from_seat, words.han, fu, yaku, win.deltas, liable)
            )
        deltas = [sum(d[s] for d in (w.deltas for w in result.wins)) for s in range(seats)]
        kind = "tsumo" if result.wins[0].tsumo else "ron"
        return HandResult(kind, tuple(deltas), tuple(wins))
    deltas = [sum(d[s] for d in result.deltas) for s in range(seats)]
    kind = "exhaustive" if result.name in EXHAUSTIVE_DRAWS else "abortive"
    assert result.name in EXHAUSTIVE_DRAWS | ABORTIVE_DRAWS
    return HandResult(kind, tuple(deltas))


def our_result(state: HandState, outcome: Outcome, dealer: int) -> HandResult:
    """Our hand's result by player, as the log keeps it: deposits into the pot left out."""
    seats = state.seat_count

    def player(seat: int) -> int:
        return (dealer + seat) % seats

    def by_player(deltas: tuple[int, ...] | list[int]) -> tuple[int, ...]:
        out = [0] * seats
        for seat, delta in enumerate(deltas):
            out[player(seat)] += delta
        return tuple(out)

    paid = [p for p in outcome.payments if p.reason is not Reason.DEPOSIT]
    deltas = by_player(deltas_of(paid, seats))
    wins = []
    for win in outcome.wins:
        score = win.score
        source = win.seat if win.discarder is None else win.discarder
        yaku = tuple(sorted((p.id, p.fan) for p in score.patterns if p.fan))
        fu = None if score.limit else score.fu
        liable = liable_seat(outcome, win.seat)
        wins.append(
            WinResult(
                player(win.seat),
                player(source),
                score.fan,
                fu,
                yaku,
                by_player(win.deltas),
                None if liable is None else player(liable),
            )
        )
    if outcome.wins:
        kind = "tsumo" if outcome.wins[0].by is WinBy.SELF_DRAW else "ron"
    elif outcome.termination is Termination.WALL_DRAW:
        kind = "exhaustive"
    else:
        kind = "abortive"
    return HandResult(kind, deltas, tuple(wins))


def differences(ours: HandResult, log: HandResult) -> list[str]:
    """What differs between our result and the log's, in words (empty: the same)."""
    found = []
    if ours.outcome != log.outcome:
        found.append(f"outcome: ours {ours.outcome}, the log's {log.outcome}")
    if ours.deltas != log.deltas:
        found.append(f"deltas: ours {list(ours.deltas)}, the log's {list(log.deltas)}")
    mine = sorted(ours.wins, key=lambda w: w.winner)
    theirs = sorted(log.wins, key=lambda w: w.winner)
    if [w.winner for w in mine] != [w.winner for w in theirs]:
        found.append(
            f"winners: ours {[w.winner for w in mine]}, the log's {[w.winner for w in theirs]}"
        )
        return found
    for a, b in zip(mine, theirs, strict=True):
        who = f"seat {a.winner}'s win"
        if a.yaku != b.yaku:
            found.append(f"{who}: yaku ours {dict(a.yaku)}, the log's {dict(b.yaku)}")
        if a.han != b.han:
            found.append(f"{who}: ours {a.han} han, the log's {b.han}")
        if b.fu is not None and a.fu != b.fu:
            found.append(f"{who}: ours {a.fu} fu, the log's {b.fu}")
        if a.liable != b.liable:
            found.append(f"{who}: liable seat ours {a.liable}, the log's {b.liable}")
    return found
