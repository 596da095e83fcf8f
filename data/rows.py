"""The typed values the store takes and gives. Frozen dataclasses; no I/O here.

Player ids are strings: a Discord user id in decimal for people, anything else for computer
players (by convention "cpu:<n>"); whether a seat is human is stored beside it, never guessed
from the id. Times are Unix seconds (floats).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from data import rating as _rating
from engine.actions import Action


def checked_json(text: str | None, what: str) -> str | None:
    """Caller-supplied JSON text, checked to parse, so nothing unreadable is ever stored."""
    if text is not None:
        try:
            json.loads(text)
        except (TypeError, ValueError) as e:
            raise ValueError(f"{what} must be JSON text: {e}") from None
    return text


class Phase(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    BETWEEN_HANDS = "between_hands"
    CLOSED = "closed"
    QUARANTINED = "quarantined"  # its stored data did not read back; set aside, not deleted
    # the runtime's, never stored: the preset's game ended with the last hand (the store keeps
    # the table closed, "game over", with its standings in game_results)
    GAME_OVER = "game_over"


ACTIVE_PHASES: tuple[Phase, ...] = (Phase.LOBBY, Phase.PLAYING, Phase.BETWEEN_HANDS)


class HandStatus(StrEnum):
    PLAYING = "playing"
    FINISHED = "finished"  # has a hand_results row
    ABANDONED = "abandoned"  # the table closed mid-hand (expiry or by hand); no result, no rating


@dataclass(frozen=True, slots=True)
class TableOptions:
    """What the table's creator chose. `extra` holds any other JSON-serialisable options."""

    visibility: str = "public"  # public | private
    rated: bool = False
    time_control: str = "classic"
    invite_code: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int  # 0-3, counted as the table's seats (not winds)
    player_id: str
    human: bool


@dataclass(frozen=True, slots=True)
class TableRow:
    id: int
    guild_id: int | None  # None for terminal tables
    channel_id: int | None
    preset: str
    options: TableOptions
    seats: tuple[SeatRow, ...]  # occupied seats only, by seat number
    phase: Phase
    message_id: int | None
    session_state: str | None  # the engine's session (dealer, winds, points) as JSON text
    current_hand_id: int | None
    created_at: float
    last_action_at: float
    closed_at: float | None = None
    closed_reason: str | None = None
    quarantine_reason: str | None = None


@dataclass(frozen=True, slots=True)
class HandLog:
    """One hand as persistence keeps it: seed, the setup it started from, the action log."""

    hand_id: int
    table_id: int
    hand_no: int
    seed: int
    setup: str | None  # JSON text given to start_hand (dealer, winds, points at the start)
    status: HandStatus
    started_at: float
    ended_at: float | None
    actions: tuple[Action, ...]

    @property
    def lines(self) -> tuple[str, ...]:
        """The log as stored: one action per line, in order."""
        return tuple(str(a) for a in self.actions)

    @property
    def version(self) -> int:
        """How many actions the hand has; the number the next action must carry."""
        return len(self.actions)


@dataclass(frozen=True, slots=True)
class LoadedTable:
    """Everything needed to rebuild a live table: replay `hand` through the engine."""

    table: TableRow
    hand: HandLog | None  # the hand in play (phase playing), else None
    deadlines: dict[str, float]


@dataclass(frozen=True, slots=True)
class QuarantinedTable:
    table_id: int
    reason: str


@dataclass(frozen=True, slots=True)
class StoredWin:
    """A win as a hand's result stores it: seats are table seats (engine.outcome.WinRecord, the win
    as the hand played it, counts hand seats from the dealer)."""

    seat: int
    fan: int
    patterns: tuple[tuple[str, int], ...] = ()  # (pattern id, fan) as scored
    by: str = ""  # discard | self_draw | robbing_kong
    discarder: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "fan": self.fan,
            "patterns": [[p, f] for p, f in self.patterns],
            "by": self.by,
            "discarder": self.discarder,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> StoredWin:
        return cls(
            seat=d["seat"],
            fan=d["fan"],
            patterns=tuple((p, f) for p, f in d["patterns"]),
            by=d["by"],
            discarder=d["discarder"],
        )


@dataclass(frozen=True, slots=True)
class Payment:
    payer: int
    payee: int
    points: int
    reason: str = "win"  # win, kong, wall_draw, ...

    def to_json(self) -> list[Any]:
        return [self.payer, self.payee, self.points, self.reason]

    @classmethod
    def from_json(cls, d: list[Any]) -> Payment:
        return cls(*d)


@dataclass(frozen=True, slots=True)
class HandResult:
    """The outcome of one hand, as the bot submits it to record_hand_result.

    Per seat (index = seat): `seats` the player ids, `humans` who is a person, `deltas` the
    hand's points (they decide placement). `rated` must match the table's option.
    """

    preset: str
    seats: tuple[str, ...]
    humans: tuple[bool, ...]
    deltas: tuple[int, ...]
    wins: tuple[StoredWin, ...] = ()
    payments: tuple[Payment, ...] = ()
    rated: bool = False
    rates: bool = True  # a rated hand settles ratings (False: they settle per finished game)
    # (table seat, kind) of each action kind a rule declared in the hand (riichi), once a seat:
    # the per-hand facts the statistics count
    declared: tuple[tuple[int, str], ...] = ()

    def __post_init__(self) -> None:
        n = len(self.seats)
        if not 2 <= n <= 4 or len(self.humans) != n or len(self.deltas) != n:
            raise ValueError("a hand result needs 2-4 seats and one human flag and delta each")
        # a hand rated on its own seats four; where ratings settle per finished game (sanma's
        # three seats too), the game's standings are rated instead
        if self.rated and self.rates and n != _rating.RATED_SEATS:
            raise ValueError(f"a rated hand seats {_rating.RATED_SEATS} players, not {n}")
        if len(set(self.seats)) != n:
            raise ValueError(f"a player holds two seats in {self.seats}")
        for w in self.wins:
            if not 0 <= w.seat < n:
                raise ValueError(f"winner seat {w.seat} out of range")
        if list(self.declared) != sorted(set(self.declared)):
            raise ValueError(f"declarations are listed once each, in order: {self.declared}")
        for seat, kind in self.declared:
            if not 0 <= seat < n or not kind:
                raise ValueError(f"a declaration needs a seat of the hand and a kind: {seat, kind}")

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(w.seat for w in self.wins)

    @property
    def outcome(self) -> str:
        return "win" if self.wins else "draw"

    @property
    def placements(self) -> list[int]:
        return _rating.placements(self.deltas)

    def fingerprint(self) -> str:
        """Canonical JSON of the whole result: two submissions are the same iff these match."""
        return json.dumps(
            {
                "preset": self.preset,
                "seats": list(self.seats),
                "humans": list(self.humans),
                "deltas": list(self.deltas),
                "wins": [w.to_json() for w in self.wins],
                "payments": [p.to_json() for p in self.payments],
                "rated": self.rated,
                # said only where it is not the default: older results keep their fingerprint
                **({} if self.rates else {"rates": False}),
                **({"declared": [list(d) for d in self.declared]} if self.declared else {}),
            },
            sort_keys=True,
            separators=(",", ":"),
        )


@dataclass(frozen=True, slots=True)
class GameStanding:
    """One seat's end of a finished game (by table seat)."""

    seat: int
    player_id: str
    human: bool
    points: int
    place: int  # 1-based, ties already broken or shared by the preset's game rule
    score: float  # the final score (uma and all)


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game, as the bot submits it with its last hand's result: the final standings
    by table seat. `rates`: the preset's ratings settle per finished game (by place)."""

    preset: str
    hands: int
    standings: tuple[GameStanding, ...]
    rated: bool = False
    rates: bool = False

    def __post_init__(self) -> None:
        if [s.seat for s in self.standings] != list(range(len(self.standings))):
            raise ValueError("a game's standings list every table seat once, in seat order")
        if sorted(s.place for s in self.standings)[0] != 1:
            raise ValueError("a game's standings need a first place")
        if self.hands < 1:
            raise ValueError(f"a finished game has played a hand, not {self.hands}")


@dataclass(frozen=True, slots=True)
class RatingChange:
    player_id: str
    preset: str
    before: float
    after: float
    games: int  # rated hands (or games, where ratings settle per game) including this one
    placement: int

    @property
    def delta(self) -> float:
        return self.after - self.before

    @property
    def provisional(self) -> bool:
        return _rating.is_provisional(self.games)

    @property
    def display_delta(self) -> int:
        """The change players see: the difference of the displayed ratings, so they add up."""
        return _rating.display(self.after) - _rating.display(self.before)


@dataclass(frozen=True, slots=True)
class RecordedHand:
    hand_id: int
    newly_recorded: bool  # False when this exact result was already stored (a resubmission)
    rating_changes: tuple[RatingChange, ...]


@dataclass(frozen=True, slots=True)
class SeatResult:
    seat: int
    player_id: str
    human: bool
    delta: int
    placement: int


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A finished hand in history."""

    hand_id: int
    table_id: int
    hand_no: int
    preset: str
    finished_at: float
    rated: bool
    outcome: str  # win | draw
    seats: tuple[SeatResult, ...]
    wins: tuple[StoredWin, ...]
    payments: tuple[Payment, ...]
    rating_changes: tuple[RatingChange, ...]

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(w.seat for w in self.wins)


@dataclass(frozen=True, slots=True)
class RatingRow:
    player_id: str
    preset: str
    rating: float
    games: int
    updated_at: float | None  # None: never rated (the starting values)

    @property
    def provisional(self) -> bool:
        return _rating.is_provisional(self.games)

    @property
    def display(self) -> int:
        return _rating.display(self.rating)


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    rank: int
    player_id: str
    rating: float
    games: int
    provisional: bool

    @property
    def display(self) -> int:
        return _rating.display(self.rating)


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    preset: str
    page: int  # 1-based
    page_size: int
    min_games: int
    total: int  # players on the board (at least min_games games)
    entries: tuple[LeaderboardEntry, ...]

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.page_size))


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's figures over their finished hands (of one preset, or of all).

    A hand counts as won if the player won in it at least once (Blood Flow hands may hold
    several wins); a deal-in is a hand in which the player's discard or kong gave a win.
    """

    player_id: str
    preset: str | None
    hands: int
    hands_won: int
    hands_dealt_in: int
    wins: int  # wins in all, several per hand in Blood Flow
    self_draws: int
    fan_total: int  # over all the player's wins
    best_hand_id: int | None  # the hand of the player's highest-scoring win
    best_fan: int

    @property
    def win_rate(self) -> float:
        return self.hands_won / self.hands if self.hands else 0.0

    @property
    def deal_in_rate(self) -> float:
        return self.hands_dealt_in / self.hands if self.hands else 0.0

    @property
    def average_fan(self) -> float:
        return self.fan_total / self.wins if self.wins else 0.0

    @property
    def self_draw_share(self) -> float:
        return self.self_draws / self.wins if self.wins else 0.0


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A player's rating after one rated hand."""

    hand_id: int
    rating: float
    at: float

    @property
    def display(self) -> int:
        return _rating.display(self.rating)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A finished game in history (of a preset whose ratings settle per game): its standings
    by table seat, and the rating changes it made (kept against its last hand)."""

    table_id: int
    preset: str
    finished_at: float
    hands: int
    last_hand_id: int
    rated: bool
    standings: tuple[GameStanding, ...]
    rating_changes: tuple[RatingChange, ...]

    def standing_of(self, player_id: str) -> GameStanding | None:
        return next((s for s in self.standings if s.player_id == player_id), None)


@dataclass(frozen=True, slots=True)
class GameStats:
    """One player's figures over their finished games (of one preset, or of every preset whose
    ratings settle per game). A game abandoned or expired before its end counts nowhere.

    `places[i]` is how many games the player finished in place i + 1; `hands` are the figures
    of the games' hands (won, dealt in, as `PlayerStats` counts them); `declared` how many of
    those hands the player made each declaration in (riichi), by action kind.
    """

    player_id: str
    preset: str | None
    games: int
    places: tuple[int, ...]
    score_total: float
    hands: PlayerStats
    declared: dict[str, int] = field(default_factory=dict)

    @property
    def average_place(self) -> float:
        placed = sum((i + 1) * n for i, n in enumerate(self.places))
        return placed / self.games if self.games else 0.0

    @property
    def average_score(self) -> float:
        return self.score_total / self.games if self.games else 0.0

    def declared_in(self, kind: str) -> int:
        """Hands in which the player declared `kind` (0 if never)."""
        return self.declared.get(kind, 0)
