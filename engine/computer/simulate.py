"""Computer-only play: whole hands from a seed, for `mahjong-bot simulate` and benchmarks."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from engine.actions import Action
from engine.computer import computer_for
from engine.computer.easy import choose_action
from engine.game import GameEnd, Standing
from engine.hand import HandState
from engine.outcome import Outcome, WinRecord
from engine.preset import Preset
from engine.session import Session

# a whole game's hands at most: a game rule ends a game long before (a Riichi hanchan with its
# extension and renchan stays far below); more means a rule that does not end, a bug
MAX_GAME_HANDS = 500


@dataclass(frozen=True, slots=True)
class SimulatedHand:
    seed: int
    winners: tuple[int, ...]  # hand seats, 0 = dealer
    fan: tuple[int, ...]  # one per win, in the order the wins happened
    deltas: tuple[int, ...]  # points change per hand seat
    wall_left: int
    actions: int
    dealer: int = 0  # the player (0-3 in seating order) who dealt the hand
    wins: tuple[WinRecord, ...] = ()  # in the order they happened

    def to_json(self) -> dict[str, object]:
        return {
            "seed": self.seed,
            "winners": list(self.winners),
            "fan": list(self.fan),
            "deltas": list(self.deltas),
            "wall_left": self.wall_left,
            "actions": self.actions,
            "dealer": self.dealer,
            "wins": [
                {"seat": w.seat, "by": w.by.value, "from": w.discarder, "at": w.at}
                for w in self.wins
            ],
        }


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """One finished hand of a session and the player (0-3 in seating order) who dealt it."""

    state: HandState
    outcome: Outcome
    dealer: int


def play_out(
    state: HandState,
    max_actions: int = 10_000,
    computer: Callable[[HandState, int], Action] = choose_action,
) -> HandState:
    """Let computer players (`computer`, by default the easy one) make every decision."""
    for _ in range(max_actions):
        seats = state.seats_to_act()
        if not seats:
            return state
        state.apply(computer(state, seats[0]))
    raise RuntimeError(f"hand did not end within {max_actions} actions: {state.describe()}")


def play_session(
    preset: Preset, hands: int, seed: int, seat_count: int = 0, level: str = "easy"
) -> Iterator[PlayedHand]:
    """Play `hands` consecutive hands of one session, computer players of `level` in every
    seat (`seat_count` 0: the preset's first allowed number of players); fewer where the
    preset's game ends first."""
    computer = computer_for(level)
    session = Session(preset, seed, seat_count=seat_count)
    for _ in range(hands):
        if session.over:
            return
        dealer = session.dealer
        state = play_out(session.new_hand(), computer=computer)
        outcome = state.outcome()
        assert outcome is not None
        session.finish_hand(outcome)
        yield PlayedHand(state, outcome, dealer)


def simulate(
    preset: Preset, hands: int, seed: int, seat_count: int = 0, level: str = "easy"
) -> Iterator[SimulatedHand]:
    """Play `hands` consecutive hands of one session with computer players of `level`."""
    for played in play_session(preset, hands, seed, seat_count, level):
        state, outcome = played.state, played.outcome
        yield SimulatedHand(
            seed=state.seed,
            winners=outcome.winners,
            fan=tuple(win.score.fan for win in outcome.wins),
            deltas=outcome.deltas,
            wall_left=state.wall_left,
            actions=len(state.log),
            dealer=played.dealer,
            wins=outcome.wins,
        )


@dataclass(frozen=True, slots=True)
class SimulatedGame:
    """One whole game of computer players: its session seed, hands, end and final standings
    (by player, 0-3 in seating order)."""

    seed: int
    hands: int
    end: GameEnd
    standings: tuple[Standing, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "seed": self.seed,
            "hands": self.hands,
            "end": self.end.value,
            "standings": [
                {"player": s.player, "place": s.place, "points": s.points, "score": s.score}
                for s in self.standings
            ],
        }


def simulate_games(
    preset: Preset, games: int, seed: int, seat_count: int = 0, level: str = "easy"
) -> Iterator[SimulatedGame]:
    """Play `games` whole games, the i-th (from 0) a session seeded `seed + i`, with computer
    players of `level`; the preset's game rule must end games."""
    if not preset.game.ends:
        raise ValueError(f"{preset.id} plays hand after hand: its games never end")
    computer = computer_for(level)
    for number in range(games):
        session = Session(preset, seed + number, seat_count=seat_count)
        while not session.over:
            if session.hand_number >= MAX_GAME_HANDS:
                raise RuntimeError(f"{preset.id} game {seed + number} did not end")
            state = play_out(session.new_hand(), computer=computer)
            outcome = state.outcome()
            assert outcome is not None
            session.finish_hand(outcome)
        assert session.end is not None
        yield SimulatedGame(seed + number, session.hand_number, session.end, session.standings())
