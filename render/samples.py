"""Made-up but plausible views, dealt from a seeded wall: for the benchmark, tests and a look.

These never touch the hand state machine; they only need to look like a hand in progress.
"""

from __future__ import annotations

import random

from engine.presets import find_preset
from engine.tiles import BONUS, Meld, MeldKind, Tile, parse_tile, parse_tiles
from render.views import HandView, ResultView, SeatView, SetAside, TableView, WinView

NAMES = ("Alice", "Bob", "Carmen", "Dai")


def sample_hand_view(tiles: int = 14, seed: int = 7) -> HandView:
    """A concealed hand of `tiles` tiles (the last one is the drawn tile), two bonus tiles."""
    rng = random.Random(seed)
    wall = [t for t in find_preset("hkos-3-v1").wall if t < 34]
    rng.shuffle(wall)
    hand = wall[:tiles]
    return HandView(
        table_name="Friday night mahjong",
        channel_name="mahjong-lounge",
        seat_wind=1,
        concealed=tuple(hand[:-1]),
        drawn=hand[-1],
        bonus=(parse_tile("2f"), parse_tile("6f")),
        player_name=NAMES[1],
    )


def sample_marked_hand_view() -> HandView:
    """A Hubei-style hand with every marking: a meld, the wild indicator and wild tiles, a void
    suit (as in Sichuan) and a block on punging after a passed pung."""
    wild = parse_tile("5p")
    return HandView(
        table_name="Table #3",
        channel_name="mahjong-lounge",
        seat_wind=2,
        concealed=tuple(parse_tiles("1123m55p789p27s")),
        drawn=parse_tile("5p"),
        melds=(Meld(MeldKind.PUNG, (parse_tile("6m"),) * 3, parse_tile("6m"), 1),),
        wild=frozenset({wild}),
        player_name="You",
        void_suit="s",
        blocked=("No pung until your next draw",),
        set_aside=wild_indicator("5p"),
    )


def sample_table_view(
    seed: int = 7,
    discards: int = 16,
    seats: int = 4,
    hand_size: int = 13,
    set_aside: tuple[SetAside, ...] = (),
    clocks: bool = False,
) -> TableView:
    """A hand some turns in: ponds of about `discards` tiles, a few melds, flowers, a void.

    `seats` is 2, 3 or 4; `hand_size` 13 or 16 (Taiwanese); `clocks` gives the seat to act a
    running clock and the others none.
    """
    rng = random.Random(seed)
    wall = list(find_preset("hkos-3-v1").wall)
    rng.shuffle(wall)
    playing = [t for t in wall if t not in BONUS]
    bonus = [t for t in wall if t in BONUS]
    melds: list[tuple[Meld, ...]] = [
        (),
        (Meld(MeldKind.PUNG, (31,) * 3, 31, 0), Meld(MeldKind.CHOW, (3, 4, 5), 4, 0)),
        (Meld(MeldKind.CONCEALED_KONG, (20,) * 4),),
        (Meld(MeldKind.ADDED_KONG, (12,) * 4, 12, 1),),
    ]
    views = []
    for seat in range(seats):
        pond = tuple(playing.pop() for _ in range(discards - seat))
        hidden = hand_size - 3 * len(melds[seat]) + (1 if seat == 0 else 0)
        views.append(
            SeatView(
                name=NAMES[seat],
                wind=seat,
                points=(1200, -350, 400, -1250)[seat],
                is_dealer=seat == 0,
                concealed_count=hidden,
                melds=melds[seat],
                bonus=tuple(bonus.pop() for _ in range(seat % 3)),
                pond=pond,
                claimed=frozenset({2, 7}) if seat == 2 else frozenset(),
                void_suit="s" if seat == 3 else None,
                won=False,
                clock=17 if clocks and seat == 0 else None,
            )
        )
    return TableView(
        table_name="Friday night mahjong",
        channel_name="mahjong-lounge",
        preset_name="Hong Kong Old Style",
        seats=tuple(views),
        wall_left=max(0, 144 - 53 - seats * discards),
        prevailing_wind=0,
        turn=0,
        latest=(seats - 1, discards - seats),
        status="Alice (East) to play",
        set_aside=set_aside,
    )


def horse_face_down() -> tuple[SetAside, ...]:
    return (SetAside("Horse", face_down=1),)


def birds_revealed() -> tuple[SetAside, ...]:
    """Four birds shown at a win, two of them hits (a 1 and a 5)."""
    return (SetAside("Birds", tuple(parse_tiles("1m3p5s8m")), hits=frozenset({0, 2})),)


def wild_indicator(tile: str = "5p") -> tuple[SetAside, ...]:
    return (SetAside("Wild", (parse_tile(tile),)),)


def sample_result_view(draw: bool = False) -> ResultView:
    """A Hong Kong win by self draw with its patterns and payments, or an exhausted wall."""
    payments = (("Alice", 64), ("Bob", -32), ("Carmen", -16), ("Dai", -16))
    if draw:
        return ResultView(
            table_name="Friday night mahjong",
            preset_name="Hong Kong Old Style",
            unit="faan",
            payments=tuple((name, 0) for name, _ in payments),
            channel_name="mahjong-lounge",
            note="The wall ran out.",
        )
    win = WinView(
        winner="Alice",
        concealed=tuple(parse_tiles("123m789m5z")),
        win_tile=parse_tile("5z"),
        melds=(Meld(MeldKind.PUNG, (33,) * 3, 33, 2), Meld(MeldKind.PUNG, (32,) * 3, 32, 1)),
        bonus=tuple(parse_tiles("1f5f")),
        patterns=(
            ("little_three_dragons", 5),
            ("dragon_pung", 1),
            ("dragon_pung", 1),
            ("half_flush", 3),
            ("self_draw", 1),
            ("own_flower", 1),
            ("own_season", 1),
        ),
        total=13,
        limit=True,
        by="self draw",
        seat_wind=0,
    )
    return ResultView(
        table_name="Friday night mahjong",
        preset_name="Hong Kong Old Style",
        unit="faan",
        wins=(win,),
        payments=payments,
        channel_name="mahjong-lounge",
    )


def wild_tiles() -> frozenset[Tile]:
    """The red dragon, wild in the planned red-dragon preset."""
    return frozenset({parse_tile("7z")})


def sample_bloodflow_result() -> ResultView:
    """A long Blood Flow hand: eight wins, two locked hands winning again and again.

    Alice's locked hand wins three times on 5p and once on 8p, Bob's twice on 3m, Carmen and Dai
    once each: five different panels, with kong payments and a wall-draw check besides.
    """

    def win(
        who: str,
        tiles: str,
        tile: str,
        by: str,
        patterns: tuple[tuple[str, int], ...],
        melds: tuple[Meld, ...] = (),
        seat: int = 0,
    ) -> WinView:
        return WinView(
            winner=who,
            concealed=tuple(parse_tiles(tiles)),
            win_tile=parse_tile(tile),
            melds=melds,
            patterns=patterns,
            total=sum(v for _, v in patterns),
            by=by,
            seat_wind=seat,
        )

    flush = (("full_flush", 2), ("all_pungs", 1))
    alice = "111p222p444p5p66p"
    kong = (Meld(MeldKind.KONG, (parse_tile("9m"),) * 4, parse_tile("9m"), 2),)
    wins = (
        win("Alice", alice, "5p", "self draw", flush),
        win("Bob", "123m456m789m3m", "3m", "discard from Dai", (("basic", 1),), kong, 1),
        win("Alice", alice, "5p", "discard from Carmen", flush),
        win(
            "Carmen",
            "11s234s456s789s",
            "1s",
            "self draw",
            (("full_flush", 2), ("self_draw", 1)),
            seat=2,
        ),
        win("Alice", alice, "5p", "discard from Dai", flush),
        win("Bob", "123m456m789m3m", "3m", "self draw", (("basic", 1),), kong, 1),
        win("Dai", "22m345m567m789m", "2m", "discard from Bob", (("full_flush", 2),), seat=3),
        win(
            "Alice",
            "111p222p444p55p6p",
            "6p",
            "discard from Bob",
            (("full_flush", 2), ("all_pungs", 1), ("kong_bloom", 1)),
        ),
    )
    return ResultView(
        table_name="Table #7 · Sunday bloodbath",
        preset_name="Sichuan Blood Flow (swap three)",
        unit="fan",
        wins=wins,
        payments=(("Alice", 88), ("Bob", -10), ("Carmen", -38), ("Dai", -40)),
        channel_name="mahjong-lounge",
        other_payments=(
            ("Kongs", (("Bob", 6), ("Alice", -2), ("Carmen", -2), ("Dai", -2))),
            ("Wall draw", (("Carmen", -4), ("Dai", 4))),
        ),
    )
