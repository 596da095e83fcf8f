"""What the pictures show, as plain frozen data: the render inputs.

The renderer never sees the engine's hand state, only these views, so a public picture cannot
draw a hidden tile: a SeatView carries the *number* of concealed tiles, never the tiles.
Sequences given as lists are stored as tuples so views stay hashable and immutable.

Fields that are words a player reads (`Label`) hold an `engine.i18n.Text`, worded in each
reader's language when drawn, or a plain string (a name, or words in no particular language).
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from engine.i18n import Text
from engine.scoring.names import pattern_words
from engine.tiles import Meld, Tile

Label = Text | str  # words drawn in the reader's language (Text) or as they are (str)


def _freeze(view: object) -> None:
    """Turn list and set fields into tuples and frozensets after construction."""
    for f in fields(view):  # type: ignore[arg-type]
        value = getattr(view, f.name)
        if isinstance(value, list):
            object.__setattr__(view, f.name, tuple(value))
        elif isinstance(value, set):
            object.__setattr__(view, f.name, frozenset(value))


MIN_SEATS, MAX_SEATS = 2, 4  # a table has two, three or four seats (its seat count is len(seats))


@dataclass(frozen=True, slots=True)
class SetAside:
    """Tiles laid apart from play and shown to everyone, e.g. a horse, four birds, the wild.

    `face_down` counts tiles still hidden (the horse before it is revealed): drawn as backs.
    """

    label: Label
    tiles: tuple[Tile, ...] = ()
    face_down: int = 0
    hits: frozenset[int] = frozenset()  # indexes into `tiles` that counted (bird hits)

    def __post_init__(self) -> None:
        _freeze(self)
        if self.face_down < 0:
            raise ValueError("face_down cannot be negative")


def _check_wind(wind: int, what: str) -> None:
    if not 0 <= wind <= 3:
        raise ValueError(f"{what} must be a wind 0-3 (East South West North), got {wind!r}")


def _check_void(suit: str | None) -> None:
    if suit not in (None, "m", "p", "s"):
        raise ValueError(f"void_suit is 'm', 'p', 's' or None, got {suit!r}")


@dataclass(frozen=True, slots=True)
class HandView:
    """One player's own hand, for their DM."""

    table_name: Label
    channel_name: str
    seat_wind: int  # 0-3; seats count from the dealer, so this is also the seat index
    concealed: tuple[Tile, ...]
    drawn: Tile | None = None  # the tile just drawn, shown apart (not in `concealed`)
    melds: tuple[Meld, ...] = ()
    bonus: tuple[Tile, ...] = ()
    wild: frozenset[Tile] = frozenset()  # tile kinds that are wild in this preset
    fixed_first: frozenset[Tile] = frozenset()  # kinds sorted to the front (fixed-kong tiles)
    player_name: str = ""
    void_suit: str | None = None  # 'm', 'p' or 's' once declared: those tiles are marked
    blocked: tuple[Label, ...] = ()  # short notes of what the player may not do now
    set_aside: tuple[SetAside, ...] = ()  # the table's set-aside tiles, e.g. the wild indicator
    seat_count: int = MAX_SEATS  # seats at the table: turns claimed tiles towards their giver
    declared: bool = False  # the seat's declaration stands (riichi)
    waits: tuple[Tile, ...] = ()  # the tiles that complete the hand, once it is ready

    def __post_init__(self) -> None:
        _freeze(self)
        _check_wind(self.seat_wind, "seat_wind")
        _check_void(self.void_suit)


@dataclass(frozen=True, slots=True)
class SeatView:
    """What everyone at the table may see of one seat."""

    name: Label
    wind: int
    points: int = 0
    is_dealer: bool = False
    concealed_count: int = 0  # tiles drawn face down; their identity is not in the view
    melds: tuple[Meld, ...] = ()
    bonus: tuple[Tile, ...] = ()
    pond: tuple[Tile, ...] = ()  # discards in the order they were made
    claimed: frozenset[int] = frozenset()  # pond indexes another seat called: drawn dimmed
    void_suit: str | None = None  # 'm', 'p' or 's' once declared (Sichuan)
    won: bool = False
    revealed: tuple[Tile, ...] = ()  # shown face up besides the backs, e.g. a locked winner
    clock: int | None = None  # seconds this seat has left to act, when its clock runs
    set_aside: tuple[SetAside, ...] = ()  # tiles this seat laid apart, e.g. red or wild kongs
    wins: int = 0  # wins so far this hand (Blood Flow keeps playing after a win)
    staked: bool = False  # a stake lies before the seat (a riichi stick)
    turned: frozenset[int] = frozenset()  # pond indexes drawn sideways (the riichi discard)

    def __post_init__(self) -> None:
        _freeze(self)
        _check_wind(self.wind, "wind")
        if self.concealed_count < 0:
            raise ValueError("concealed_count cannot be negative")
        _check_void(self.void_suit)


@dataclass(frozen=True, slots=True)
class TableView:
    """The public table, for the channel message."""

    table_name: Label
    channel_name: str
    preset_name: Label
    seats: tuple[SeatView, ...]  # two to four, in seat order; the seat count is len(seats)
    wall_left: int
    prevailing_wind: int = 0
    turn: int | None = None  # the seat to act, or None between turns
    latest: tuple[int, int] | None = None  # (seat, pond index) of the latest discard
    status: Label = ""  # one short line, e.g. "South may call"
    wild: frozenset[Tile] = frozenset()
    set_aside: tuple[SetAside, ...] = ()  # horse, birds, wild indicator: shown in the centre
    indicators: tuple[SetAside, ...] = ()  # the rules' indicator tiles (dora), by the others
    honba: int | None = None  # the repeat count, where the table keeps one
    pot: int | None = None  # points in the pot, where the table keeps one
    sticks: int | None = None  # the pot in stakes (riichi sticks)
    thousands: bool = False  # points shown in thousands ('25.0k'): tables of 10,000s
    hand_name: Label = ""  # the hand as its players name it ('East 2, 1 honba'), where they do
    hand_label: Label = ""  # the same as the picture has room for ('East 2', 'All Last')

    def __post_init__(self) -> None:
        _freeze(self)
        if not MIN_SEATS <= len(self.seats) <= MAX_SEATS:
            raise ValueError(f"a table has {MIN_SEATS}-{MAX_SEATS} seats, got {len(self.seats)}")
        _check_wind(self.prevailing_wind, "prevailing_wind")
        if self.turn is not None and not 0 <= self.turn < len(self.seats):
            raise ValueError(f"turn is a seat 0-{len(self.seats) - 1} or None, got {self.turn!r}")
        if self.latest is not None and not 0 <= self.latest[0] < len(self.seats):
            raise ValueError(f"latest names seat {self.latest[0]}, not at this table")


@dataclass(frozen=True, slots=True)
class WinView:
    """One win of a hand: the winning hand and how it scored."""

    winner: Label  # the name; the picture adds the seat's wind when seat_wind is known
    concealed: tuple[Tile, ...]  # without the winning tile
    win_tile: Tile
    melds: tuple[Meld, ...] = ()
    bonus: tuple[Tile, ...] = ()
    patterns: tuple[tuple[str, int], ...] = ()  # (pattern id or name, value)
    total: int = 0
    limit: bool = False
    by: Label = ""  # e.g. 'self draw', 'discard from South'
    seat_wind: int | None = None  # turns claimed tiles towards their giver when known
    paid_by: tuple[tuple[Label, int], ...] = ()  # (payer name, points paid for this win)
    seat_count: int = MAX_SEATS  # seats at the table, with seat_wind
    notes: tuple[Label, ...] = ()  # after how it came, e.g. each loser's fan and payment
    fu: int = 0  # Riichi: the hand's fu, said beside its han
    value: int = 0  # Riichi: the hand's own value in points, after its fu and han ('5,200')
    limit_name: Label = ""  # the limit reached by name ('Mangan'), drawn in place of 'Limit'
    limit_patterns: frozenset[str] = frozenset()  # patterns that are a limit of their own

    def __post_init__(self) -> None:
        _freeze(self)
        object.__setattr__(self, "patterns", tuple((str(n), int(v)) for n, v in self.patterns))


@dataclass(frozen=True, slots=True)
class HandScoreView:
    """One seat's own score where every hand is scored: points x 2^doubles = score."""

    name: Label
    points: int
    doubles: int
    score: int
    limit: bool = False  # a limit hand, scored flat
    capped: bool = False  # cut to the limit
    won: bool = False
    seat_wind: int | None = None


@dataclass(frozen=True, slots=True)
class TransferView:
    """`payer` paid `payee` `amount`: on the win or in the losers' settlement, `times` over."""

    payer: Label
    payee: Label
    amount: int
    settlement: bool = False
    times: int = 1


@dataclass(frozen=True, slots=True)
class ResultView:
    """The end of a hand: its wins (none for a draw) and what each seat paid or received."""

    table_name: Label
    preset_name: Label
    unit: str  # 'faan', 'fan', 'tai', 'points'
    wins: tuple[WinView, ...] = ()
    payments: tuple[tuple[Label, int], ...] = ()  # (player name, points won or lost), seat order
    channel_name: str = ""
    note: Label = ""  # e.g. 'Wall exhausted'
    # other settlements of the hand besides its wins: (label, ((name, delta), ...)), e.g. kongs
    other_payments: tuple[tuple[Label, tuple[tuple[Label, int], ...]], ...] = ()
    wild: frozenset[Tile] = frozenset()
    set_aside: tuple[SetAside, ...] = ()  # revealed at the end: the horse, the birds and hits
    family: str = ""  # the scoring family (preset.family), whose terms name the patterns
    details: tuple[Label, ...] = ()  # how a hand with no win ended: who was ready, nagashi
    hand_name: Label = ""  # the hand as its players name it ('East 2, 1 honba'), where they do
    # at a draw where being ready is paid, each ready hand laid open: (name, concealed, melds)
    ready_hands: tuple[tuple[Label, tuple[Tile, ...], tuple[Meld, ...]], ...] = ()
    # where every hand is scored (chinese-classical): each seat's score and who paid whom
    hand_scores: tuple[HandScoreView, ...] = ()
    transfers: tuple[TransferView, ...] = ()

    def __post_init__(self) -> None:
        _freeze(self)

    @property
    def is_draw(self) -> bool:
        return not self.wins


def pretty_pattern(name: str) -> str:
    """'little_three_dragons' -> 'Little three dragons'; already pretty names pass unchanged."""
    return pattern_words(name)
