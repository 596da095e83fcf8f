"""`mahjong-bot score` for the Riichi presets (DESIGN.md "Riichi in the `score` contract").

A request is checked field by field (one sentence naming the bad field, as for every preset),
valued by `engine.families.riichi.scoring` and answered with han, fu, yaku, limit, points and, when
the paying seats are known, deltas with honba and the pot.

>>> answer = score_riichi({"preset": "riichi", "hand": "234567m234p55s678s", "win": "8s",
...                       "by": "self_draw", "seat": "S"})
>>> answer["han"], answer["points"], answer["deltas"]
(3, {'dealer': 1300, 'others': 700}, {'E': -1300, 'S': 2700, 'W': -700, 'N': -700})
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.families.riichi.scoring import (
    FLAGS,
    RIICHI_RULES,
    RiichiHand,
    RiichiRules,
    RiichiValue,
    Table,
    liable_seat,
    points_of,
    value_hand,
    win_deltas,
)
from engine.formats.score_fields import (
    RequestError,
    _choice,
    _count,
    _flags,
    _language,
    _melds,
    _one_tile,
    _tiles,
    check_copies,
    check_fields,
    check_hand_size,
    checked_source,
)
from engine.i18n import text as catalogued
from engine.i18n import worded
from engine.scoring.base import WinBy
from engine.tiles import (
    FIVES,
    NORTH,
    SEAT_NAMES,
    Meld,
    MeldKind,
    Tile,
    kind_of,
    red_five_of,
    tile_name,
)

FIELDS = (
    "preset",
    "hand",
    "win",
    "melds",
    "by",
    "from",
    "seat",
    "round",
    "dora",
    "ura",
    "honba",
    "sticks",
    "flags",
    "nuki",
    "lang",
)
# Riichi's meld names, and the notation's own (accepted too)
MELD_WORDS = {
    "chi": "chow",
    "pon": "pung",
    "kan": "kong",
    "added_kan": "added_kong",
    "closed_kan": "concealed_kong",
}
SETS = 4  # and a pair (a kan counts as three tiles)
MOST_INDICATORS = 5  # the first and one for each of four kans
MOST_NUKI = 4
MOST_COUNTERS = 99  # honba and sticks: a bound on nonsense, not a rule


def score_riichi(request: dict[str, Any]) -> dict[str, object]:
    """Answer one Riichi score request (the caller saw `preset` name a Riichi preset)."""
    language = _language(request)
    rules, hand, table = parse_riichi(request)
    value = value_hand(rules, hand)
    if not value.valid:
        key = "score.riichi.no_yaku" if value.reason == "no_yaku" else "score.riichi.not_winning"
        message = worded(catalogued(key), language)
        return {"valid": False, "reason": value.reason, "message": message}
    return answer(rules, hand, table, value)


def answer(
    rules: RiichiRules, hand: RiichiHand, table: Table, value: RiichiValue
) -> dict[str, object]:
    """The JSON answer of a valid hand: deltas when the paying seats are known."""
    out: dict[str, object] = {
        "valid": True,
        "han": value.han,
        # a limit hand's value is its limit: no fu, as a tenhou.net/6 log and `replay` write it
        "fu": None if value.limit is not None else value.fu,
        "unit": "han",
        "yaku": [{"id": y.id, "han": y.han} for y in value.yaku],
        "limit": None if value.limit is None else value.limit.value,
        "points": points_of(rules, value, hand),
    }
    liable = liable_seat(hand, value)
    if liable is not None:
        out["liable"] = SEAT_NAMES[liable[0]]
    if hand.by is WinBy.SELF_DRAW or table.discarder is not None:
        deltas = win_deltas(rules, value, hand, table)
        out["deltas"] = dict(zip(SEAT_NAMES, deltas, strict=False))
    return out


def parse_riichi(request: dict[str, Any]) -> tuple[RiichiRules, RiichiHand, Table]:
    """Check a Riichi request and build its hand and table."""
    check_fields(request, FIELDS)
    rules = RIICHI_RULES[request["preset"]]
    seats = list(SEAT_NAMES[: rules.players])
    seat = _choice(request, "seat", "E", seats, SEAT_NAMES.index)
    flags = set(_flags(request, FLAGS))
    if "double_riichi" in flags:
        flags.add("riichi")  # double riichi is a riichi
    hand = RiichiHand(
        concealed=tuple(_tiles(request, "hand")),
        win=_one_tile(request, "win"),
        melds=_riichi_melds(request.get("melds", [])),
        by=_choice(request, "by", "discard", [b.value for b in WinBy], WinBy),
        seat=seat,
        round_wind=_choice(request, "round", "E", seats, SEAT_NAMES.index),
        dora=tuple(_tiles(request, "dora", "")),
        ura=tuple(_tiles(request, "ura", "")),
        flags=frozenset(flags),
        nuki=_nuki(request, rules),
    )
    discarder = None
    if request.get("from") is not None:
        discarder = _choice(request, "from", "E", seats, SEAT_NAMES.index)
    table = Table(
        discarder=checked_source(discarder, hand.by, hand.seat),
        honba=_count(request, "honba", MOST_COUNTERS) or 0,
        sticks=_count(request, "sticks", MOST_COUNTERS) or 0,
    )
    check_tiles(rules, hand)
    check_melds(rules, hand)
    check_flags(hand)
    return rules, hand, table


def _riichi_melds(texts: object) -> tuple[Meld, ...]:
    """`chi 345m`, `pon 555z from W`, `kan`, `added_kan`, `closed_kan` (or the notation's own
    names), in the order made."""
    if isinstance(texts, list):
        texts = [_riichi_words(text) if isinstance(text, str) else text for text in texts]
    return _melds(texts, "melds")


def _riichi_words(text: str) -> str:
    word, _, rest = text.strip().partition(" ")
    return f"{MELD_WORDS.get(word.lower(), word)} {rest}"


def _nuki(request: dict[str, Any], rules: RiichiRules) -> int:
    if request.get("nuki") is None:
        return 0
    if not rules.nuki:
        raise RequestError(catalogued("fixups.riichi.no_nuki", preset=rules.id))
    return _count(request, "nuki", MOST_NUKI) or 0


def check_tiles(rules: RiichiRules, hand: RiichiHand) -> None:
    """Every tile one the preset's set has, no more copies of a physical tile than the set
    (a red five once, its plain fives three times; indicators and norths set aside count
    too), fourteen tiles with melds counted as three, the winning tile in the hand."""
    meld_tiles = [t for m in hand.melds for t in m.tiles]
    in_set = set(rules.wall)
    fields = (
        ("hand", hand.concealed),
        ("melds", meld_tiles),
        ("dora", hand.dora),
        ("ura", hand.ura),
    )
    for field, tiles in fields:
        for tile in tiles:
            if tile not in in_set:
                raise RequestError(
                    catalogued(
                        "fixups.score.tile_unused",
                        field=field,
                        preset=rules.id,
                        tile=tile_name(tile),
                    )
                )
    held = Counter([*hand.concealed, *meld_tiles, *hand.dora, *hand.ura])
    held[NORTH] += hand.nuki
    wall = Counter(rules.wall)
    check_copies(
        rules.id, wall, held, "fixups.riichi.too_many", lambda t: {"red": _red_note(t, wall)}
    )
    check_hand_size(rules.id, SETS, hand.concealed, hand.melds, hand.win)
    if len(hand.dora) > MOST_INDICATORS:
        raise RequestError(
            catalogued("fixups.riichi.indicators", most=MOST_INDICATORS, count=len(hand.dora))
        )


def _red_note(tile: Tile, wall: Counter[Tile]) -> str:
    """' (+ 0m)' after a plain five whose red one the set has, else nothing."""
    if tile not in FIVES:
        return ""
    red = red_five_of(tile)
    return f" (+ {tile_name(red)})" if wall[red] else ""


def check_melds(rules: RiichiRules, hand: RiichiHand) -> None:
    """No chi where the preset has none; a chi only from the player on the left; a claimed
    meld from another seat in play."""
    players = rules.players
    for index, meld in enumerate(hand.melds):
        if meld.kind is MeldKind.CHOW and not rules.chi:
            raise RequestError(
                catalogued("fixups.score.no_chows", index=index, meld=str(meld), preset=rules.id)
            )
        source = meld.from_seat
        if source is None:
            continue
        left = (hand.seat - 1) % players
        if source >= players or source == hand.seat:
            raise RequestError(
                catalogued(
                    "fixups.riichi.meld_source",
                    index=index,
                    meld=str(meld),
                    seat=SEAT_NAMES[source],
                    seats=" ".join(SEAT_NAMES[:players]),
                )
            )
        if meld.kind is MeldKind.CHOW and source != left:
            raise RequestError(
                catalogued(
                    "fixups.riichi.chi_source",
                    index=index,
                    meld=str(meld),
                    seat=SEAT_NAMES[source],
                    left=SEAT_NAMES[left],
                )
            )


def check_flags(hand: RiichiHand) -> None:
    """Refuse circumstances that contradict each other or the hand."""
    flags, by = hand.flags, hand.by
    riichi = "riichi" in flags
    self_draw = by is WinBy.SELF_DRAW
    opened = next((m for m in hand.melds if not m.is_concealed), None)
    if riichi and opened is not None:
        flag = "double_riichi" if "double_riichi" in flags else "riichi"
        raise RequestError(catalogued("fixups.riichi.riichi_open", flag=flag, meld=str(opened)))
    if "ippatsu" in flags and not riichi:
        raise RequestError(catalogued("fixups.riichi.ippatsu"))
    if hand.ura and not riichi:
        raise RequestError(catalogued("fixups.riichi.ura_without_riichi"))
    if hand.ura and len(hand.ura) != len(hand.dora):
        raise RequestError(
            catalogued("fixups.riichi.ura_count", ura=len(hand.ura), dora=len(hand.dora))
        )
    # a replacement tile follows a kan, or (sanma) a north set aside, which is a call too
    replaced = hand.nuki > 0 or any(m.kind.is_kong for m in hand.melds)
    called = hand.nuki > 0 or bool(hand.melds)
    refused = {
        "rinshan": not (self_draw and replaced),
        "chankan": by is not WinBy.ROBBING_KONG,
        "haitei": not self_draw or "rinshan" in flags,
        "houtei": by is not WinBy.DISCARD,
        "tenhou": not self_draw or hand.seat != 0 or called,
        "chiihou": not self_draw or hand.seat == 0 or called,
    }
    for flag, wrong in refused.items():
        if flag in flags and wrong:
            raise RequestError(catalogued(f"fixups.riichi.{flag}"))
    if by is WinBy.ROBBING_KONG:
        kind = kind_of(hand.win)
        held = sum(kind_of(t) == kind for t in [*hand.concealed, *_tiles_of(hand.melds)])
        if held != 1:
            raise RequestError(
                catalogued("fixups.score.robbing_held", tile=tile_name(hand.win), held=held)
            )


def _tiles_of(melds: tuple[Meld, ...]) -> list[Tile]:
    return [t for m in melds for t in m.tiles]
