"""tenhou.net/6 hands written for the replay tests, each with the result Tenhou's rules give it
(worked out by hand in the comments): real logs may not sit in the repository.

Tiles are written in our notation ("5s", "7z"); calls, riichi and kongs as the log writes them
("p474747", "r60", "171717a17"). Seat 0 deals unless a hand says otherwise.
"""

from __future__ import annotations

import re
from typing import Any

from engine.formats.tenhou6.log import encode_tile
from engine.tiles import parse_tiles

_TILES = re.compile(r"^(\d+[mpsz])+$")
Seat = tuple[str, list[Any], list[Any]]


def codes(notation: str) -> list[int]:
    return [encode_tile(t) for t in parse_tiles(notation)]


def _items(items: list[Any]) -> list[Any]:
    out: list[Any] = []
    for item in items:
        if isinstance(item, str) and _TILES.match(item):
            out += codes(item)
        else:
            out.append(item)
    return out


def hand(
    seats: list[Seat],
    result: list[Any],
    *,
    kyoku: int = 0,
    honba: int = 0,
    sticks: int = 0,
    points: list[int] | None = None,
    dora: str = "1z",
    ura: str = "",
) -> list[Any]:
    raw: list[Any] = [
        [kyoku, honba, sticks],
        points or [25000] * 4,
        codes(dora),
        codes(ura),
    ]
    for start, takes, discards in seats:
        raw += [codes(start), _items(takes), _items(discards)]
    return [*raw, result]


def log(*hands: list[Any], disp: str = "般南喰赤", aka: int = 1) -> dict[str, Any]:
    return {"title": ["", ""], "name": ["A", "B", "C", "D"], "rule": {"disp": disp, "aka": aka},
            "log": list(hands)}  # fmt: skip


# Seat 0 deals and declares riichi on its second discard, then draws its winning 4p at once:
# riichi, ippatsu, menzen tsumo, pinfu, tanyao (5 han, mangan) and one ura dora (1m shows 2m)
# make a haneman, 6,000 from each; the winner takes its own stick back.
RIICHI_URA = hand(
    [
        ("234m567m345s23p5s1z", ["5s", "9s", "4p"], ["1z", "r60"]),
        ("1m1m9m9m1p9p9p1s9s2z3z4z7z", ["8p", "8p"], [60, 60]),
        ("2m2m3m3m6p6p7p7p6s7s8s3z4z", ["2s", "3s"], [60, 60]),
        ("5m5m6m6m8m8m5p5p6z6z7z1z2z", ["7s", "7s"], [60, 60]),
    ],
    ["和了", [19000, -6000, -6000, -6000],
     [0, 0, 0, "跳満6000点∀", "門前清自摸和(1飜)", "立直(1飜)", "一発(1飜)", "平和(1飜)",
      "断幺九(1飜)", "裏ドラ(1飜)"]],
    dora="9p",
    ura="1m",
)  # fmt: skip

# Seat 0's first discard, 6s, is won on by seat 1 (pinfu tanyao, 30 fu: 2,000) and seat 2
# (tanyao, kanchan 40 fu: 1,300). Seat 1 is first in turn after the discarder: it alone takes
# the honba (300) and the stick on the table (1,000).
DOUBLE_RON = hand(
    [
        ("1z2z3z4z5z6z7z1m9m1p9p1s2m", ["6s"], [60]),
        ("234m678m345p66s78s", [], []),
        ("456m234p678p88s57s", [], []),
        ("3m3m7m7m5p5p9p9p2s2s3s3s1z", [], []),
    ],
    ["和了",
     [-2300, 3300, 0, 0], [1, 0, 1, "30符2飜2000点", "平和(1飜)", "断幺九(1飜)"],
     [-1300, 0, 1300, 0], [2, 0, 2, "40符1飜1300点", "断幺九(1飜)"]],
    honba=1,
    sticks=1,
    points=[25000, 25000, 24000, 25000],
)  # fmt: skip

# Seat 0's first discard, 6s, completes three hands at once (seat 3 waits on 3s-6s with
# tanyao): Tenhou's rules abort the hand (三家和了), nobody paying.
TRIPLE_RON = hand(
    [
        ("1z2z3z4z5z6z7z1m9m1p9p1s2m", ["6s"], [60]),
        ("234m678m345p66s78s", [], []),
        ("456m234p678p88s57s", [], []),
        ("777p345m33p45s567m", [], []),
    ],
    ["三家和了"],
)

# Seat 2 pons seat 0's 2p (from across), later adds the fourth 2p, and seat 3 robs it:
# chankan and ittsu (3 han), 40 fu with the kanchan wait: 5,200 from seat 2.
CHANKAN = hand(
    [
        ("2p4m4m8m8m4s4s5s5s6s6s7s1s", ["3z", "3z"], ["2p", 60]),
        ("9p9p7p7p6p6p2s2s3s3s1s7s5p", ["8p"], [60]),
        ("2p2p5z5z5z6z6z6z7z7z9s8s4z", ["22p2222", "2p"], ["9s", "22k222222"]),
        ("123m456m789m13p1z9s", ["9s"], ["1z"]),
    ],
    ["和了", [0, 0, -5200, 5200], [3, 2, 3, "40符3飜5200点", "槍槓(1飜)", "一気通貫(2飜)"]],
)  # fmt: skip

# Every seat declares riichi with its first discard: the fourth stick stands and the hand ends
# (四家立直), nobody paying anything but the sticks.
FOUR_RIICHI = hand(
    [
        ("123m456m789m11p23p", ["5z"], ["r60"]),
        ("234s567s456p77z89s", ["6z"], ["r60"]),
        ("123p678m234s55p68p", ["1z"], ["r60"]),
        ("678s333z444m99m56m", ["2z"], ["r60"]),
    ],
    ["四家立直"],
)

# The dealer's first draw shows nine different terminals and honours, and it declares 九種九牌.
NINE_TERMINALS = hand(
    [
        ("1m9m1p9p1s9s1z2z3z4z5z6z2m", ["7z"], []),
        ("2m3m4m5m6m7m8m2p3p4p5p6p7p", [], []),
        ("2s3s4s5s6s7s8s3m4m5m6m7m8m", [], []),
        ("2p3p4p5p6p7p8p2s3s4s5s6s7s", [], []),
    ],
    ["九種九牌"],
)

# Seat 0 (dealer) declares a concealed kong of 7m on its second draw: the kong's indicator 6m
# is turned at once and makes the four 7m dora, and the replacement tile 6s wins: menzen tsumo,
# rinshan, tanyao and dora 4 are 7 han, a haneman of 6,000 from each.
KAN_DORA = hand(
    [
        ("777m234p567p345s6s", ["1z", "7m", "6s"], [60, "171717a17"]),
        ("1m1m2m2m3m3m8p8p9p9p1s1s2z", ["8s"], [60]),
        ("4m4m5m5m6m6m1p1p2s2s3s3z4z", ["9s"], [60]),
        ("8m8m9m9m3p3p4p4p7s7s8s3z4z", ["9m"], [60]),
    ],
    ["和了", [18000, -6000, -6000, -6000],
     [0, 0, 0, "跳満6000点∀", "門前清自摸和(1飜)", "嶺上開花(1飜)", "断幺九(1飜)", "ドラ(4飜)"]],
    dora="1z6m",
)  # fmt: skip

# Seat 1 pons the white dragon from seat 0, the green from seat 2, then the red from seat 3 (its
# third dragon set) and draws its wait: big three dragons by self draw, and seat 3, who fed the
# third set, pays all of it (pao): 32,000.
PAO = hand(
    [
        ("5z1m1m9m9m1p1p9p9p1s9s2z3z", ["4z", "4z"], ["5z", 60]),
        ("5z5z6z6z7z7z1m2m3m4p9s8s1s", ["p454545", "4646p46", "47p4747", "4p"], ["9s", "8s", "1s"]),
        ("6z2m2m3m3m4m4m5p5p6p6p7p7p", ["8s", "8s", "2s"], ["6z", 60, 60]),
        ("7z5m5m6m6m7m7m2s3s3s4s4s8m", ["9s", "3z"], ["7z", 60]),
    ],
    ["和了", [0, 32000, 0, -32000], [1, 1, 3, "役満8000-16000点", "大三元(役満)"]],
)  # fmt: skip


def _exhaustive() -> list[Any]:
    """Seats 0 and 1 start ready (waiting on 1p-4p and 7s), seats 2 and 3 not; every seat
    discards each tile it draws until the wall is empty: the two not ready pay 1,500 each to
    the two ready. The draws are the rest of the set in order, dealt round the table."""
    from collections import Counter

    from engine.families.riichi.presets import RIICHI

    starts = [
        "123m456m789m23p05s",
        "234s567s456p77z89s",
        "1m4m7m1p4p7p1s4s7s1z3z5z7z",
        "2m5m8m2p5p8p2s5s8s2z4z6z3z",
    ]
    left = Counter(RIICHI.wall)
    left.subtract(t for start in [*starts, "1z"] for t in parse_tiles(start))
    rest = sorted(left.elements())
    draws = [rest[i::4][: 70 // 4 + (i < 70 % 4)] for i in range(4)]
    seats = [
        (start, [encode_tile(t) for t in drawn], [60] * len(drawn))
        for start, drawn in zip(starts, draws, strict=True)
    ]
    return hand(seats, ["流局", [1500, 1500, -1500, -1500]])


EXHAUSTIVE = _exhaustive()

# Seat 1 holds 5p 5p 0p and pons seat 0's 5p with the red one, keeping a plain five that it
# discards on its next turn (the call names its tiles: 52 is the red 0p). Seat 2 then wins by
# self draw on a single wait: menzen tsumo, 30 fu, 300 and 500.
RED_FIVE_PON = hand(
    [
        ("5p1m1m9m9m1s1s9s9s2z2z3z3z", ["4z", "4z"], ["5p", 60]),
        ("5p5p0p1p2p3p7m8m9m4s5s6s6z", ["p252552", "9p"], ["6z", "5p"]),
        ("234m567m234s678s7z", ["8p", "7z"], [60]),
        ("2p3p4p6p7p8p2s3s5m6m4m1z1z", ["9p"], [60]),
    ],
    ["和了", [-500, -300, 1100, -300], [2, 2, 2, "30符1飜300-500点", "門前清自摸和(1飜)"]],
)  # fmt: skip

# Seat 1 holds 3m 5m 0m and chis the dealer's 4m with 3m and the red 0m ("c141351": 51 is 0m),
# keeping the plain 5m, which it discards at once. It then draws 6s for a single wait: open
# tanyao and the red five in its chi, 2 han, 30 fu (20, tsumo 2, the single wait 2): 500 and
# 1,000. Calling with the plain five instead would leave it the 0m to discard: 1 han, 300-500.
RED_FIVE_CHI = hand(
    [
        ("4m1z1z1z2z2z2z3z3z3z4z4z4z", ["9s", "9p"], ["4m", 60]),
        ("3m5m0m2p3p4p6p7p8p3s4s5s6s", ["c141351", "6s"], ["5m"]),
        ("1m1m1m9m9m9m1p1p1p9p9p9p7z", ["8s"], [60]),
        ("1s1s1s9s9s9s2m2m2m8m8m8m7z", ["8s"], [60]),
    ],
    ["和了", [-1000, 2000, -500, -500],
     [1, 1, 1, "30符2飜500-1000点", "断幺九(1飜)", "赤ドラ(1飜)"]],
)  # fmt: skip
