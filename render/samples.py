"""Made-up but plausible views, dealt from a seeded wall: for the benchmark, tests and a look.

These never touch the hand state machine; they only need to look like a hand in progress.
"""

from __future__ import annotations

import random

from engine.presets import find_preset
from engine.tiles import BONUS, Meld, MeldKind, Tile, parse_tile, parse_tiles
from render.views import HandView, ResultView, SeatView, TableView, WinView

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


def sample_table_view(seed: int = 7, discards: int = 16) -> TableView:
    """A hand some turns in: ponds of about `discards` tiles, a few melds, flowers, a void."""
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
    seats = []
    for seat in range(4):
        pond = tuple(playing.pop() for _ in range(discards - seat))
        hidden = 13 - 3 * len(melds[seat]) + (1 if seat == 0 else 0)
        seats.append(
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
            )
        )
    return TableView(
        table_name="Friday night mahjong",
        channel_name="mahjong-lounge",
        preset_name="Hong Kong Old Style",
        seats=tuple(seats),
        wall_left=144 - 53 - 4 * discards,
        prevailing_wind=0,
        turn=0,
        latest=(3, discards - 4),
        status="East to play",
    )


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
