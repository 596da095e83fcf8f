"""`mahjong-bot render hand|table|result ... -o FILE.png`: draw the pictures the bot sends.

bot/cli.py adds the parser with `add_render_parser(subparsers)` and runs `run_render(args)`.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from engine.i18n import LANGUAGES, Text
from engine.presets import UnknownPresetError
from engine.tiles import (
    SEAT_NAMES,
    InvalidNotationError,
    Meld,
    Tile,
    is_bonus,
    is_red,
    parse_tile,
    parse_tiles,
    tile_name,
    too_many,
)
from render.views import HandView


def add_render_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """Add `render` with its `hand`, `table` and `result` subcommands."""
    render = subparsers.add_parser("render", help="draw a hand, table or result picture (PNG)")
    kinds = render.add_subparsers(dest="render_kind", metavar="KIND", required=True)

    hand = kinds.add_parser("hand", help="a hand as its player sees it in a DM")
    hand.add_argument("tiles", help="concealed tiles, e.g. 123m456p789s11z5z")
    hand.add_argument(
        "--melds",
        action="append",
        default=[],
        metavar="MELD",
        help="an exposed meld, e.g. 'pung 555z' (repeat, or separate with commas)",
    )
    hand.add_argument("--bonus", default="", help="flowers and seasons, e.g. 1f5f")
    hand.add_argument(
        "--drawn",
        help="the tile just drawn, shown apart (default: the last tile when the hand "
        "has a tile to discard, i.e. its count is 2 more than a multiple of 3)",
    )
    hand.add_argument("--seat", default="E", choices=list(SEAT_NAMES), help="seat wind")
    hand.add_argument("--wild", default="", help="tile kinds that are wild, e.g. 7z")
    hand.add_argument("--player", default="", help="the player's name")
    hand.add_argument("--table-name", help="table label (default: a mahjong table, in --lang)")
    hand.add_argument("--channel", default="", help="channel label, e.g. mahjong")
    _output(hand)

    table = kinds.add_parser("table", help="the public table after some simulated actions")
    table.add_argument("--preset", default="hkos-3-v1")
    table.add_argument("--seed", type=int, default=0)
    table.add_argument("--actions", type=int, default=40, help="computer decisions to play first")
    _output(table)

    result = kinds.add_parser("result", help="the result of a simulated hand played to its end")
    result.add_argument("--preset", default="hkos-3-v1")
    result.add_argument("--seed", type=int, default=0)
    _output(result)

    from render.animate import MOMENTS

    moment = kinds.add_parser("moment", help="a short moving picture (GIF): the wild, a kong, ...")
    moment.add_argument("moment", choices=["wild", *MOMENTS], help="which moment")
    moment.add_argument("--tiles", default="", help="the tiles shown, e.g. 7z (the wild: its kind)")
    moment.add_argument("--wild", default="", help="the hand's wild kind, badged, e.g. 5p")
    moment.add_argument("-o", "--output", required=True, metavar="FILE", help="GIF to write")
    _language(moment)
    return render


def _output(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", required=True, metavar="FILE", help="PNG to write")
    _language(parser)


def _language(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lang", default="en", choices=LANGUAGES, help="the language of its words (default en)"
    )


def run_render(args: argparse.Namespace) -> int:
    """Draw the requested picture into args.output; 2 with one line on stderr on bad input."""
    # Pillow loads only when a picture is drawn: bot/cli.py builds this parser for every command
    from render import render_hand, render_result, render_table, to_png

    if args.render_kind == "moment":
        return _write_moment(args)
    try:
        if args.render_kind == "hand":
            image = render_hand(hand_view_from_args(args), args.lang)
        elif args.render_kind == "table":
            from render.adapt import engine_table_view

            view = engine_table_view(args.preset, args.seed, args.actions)
            image = render_table(view, args.lang)
        else:
            from render.adapt import engine_result_view

            image = render_result(engine_result_view(args.preset, args.seed), args.lang)
    except (InvalidNotationError, UnknownPresetError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    data = to_png(image)
    try:
        Path(args.output).write_bytes(data)
    except OSError as error:  # a missing directory, a directory, a full or read-only disk
        print(f"error: cannot write {args.output}: {error.strerror or error}", file=sys.stderr)
        return 2
    print(f"wrote {args.output} ({image.width}x{image.height}, {len(data) // 1024} KB)")
    return 0


def _write_moment(args: argparse.Namespace) -> int:
    from render.animate import animate_moment, animate_wild

    try:
        tiles = parse_tiles(args.tiles)
        wild = parse_tile(args.wild) if args.wild else None
    except InvalidNotationError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.moment == "wild":
        if len(tiles) != 1:
            print("error: the wild moment takes one tile: --tiles 5p", file=sys.stderr)
            return 2
        data = animate_wild(tiles[0], args.lang)
    else:
        data = animate_moment(args.moment, tiles, wild, args.lang)
    try:
        Path(args.output).write_bytes(data)
    except OSError as error:
        print(f"error: cannot write {args.output}: {error.strerror or error}", file=sys.stderr)
        return 2
    print(f"wrote {args.output} ({len(data) // 1024} KB)")
    return 0


def hand_view_from_args(args: argparse.Namespace) -> HandView:
    """Parse the `render hand` arguments into a HandView, refusing impossible hands."""
    concealed = parse_tiles(args.tiles)
    melds = [Meld.parse(text) for item in args.melds for text in item.split(",") if text.strip()]
    bonus = parse_tiles(args.bonus)
    drawn: Tile | None = None
    if args.drawn:
        drawn = parse_tile(args.drawn)
    elif len(concealed) % 3 == 2:
        drawn = concealed.pop()
    _check_possible(concealed + ([drawn] if drawn is not None else []), melds, bonus)
    return HandView(
        table_name=args.table_name or Text("pictures.sample.table_name"),
        channel_name=args.channel,
        seat_wind=SEAT_NAMES.index(args.seat),
        concealed=tuple(concealed),
        drawn=drawn,
        melds=tuple(melds),
        bonus=tuple(bonus),
        wild=frozenset(parse_tiles(args.wild)),
        player_name=args.player,
    )


def _check_possible(concealed: list[Tile], melds: list[Meld], bonus: list[Tile]) -> None:
    if not concealed and not melds:
        raise InvalidNotationError("a hand needs at least one tile")
    if any(is_bonus(tile) for tile in concealed):
        raise InvalidNotationError("flowers and seasons go in --bonus, not in the hand")
    if not all(is_bonus(tile) for tile in bonus):
        raise InvalidNotationError("--bonus takes only flowers and seasons (1f-8f)")
    excess = too_many(concealed + [t for meld in melds for t in meld.tiles])
    if excess is not None:
        tile, count = excess
        has = 1 if is_red(tile) else 4
        raise InvalidNotationError(f"{count} copies of {tile_name(tile)}: a set has {has}")
    doubled = [tile for tile, count in Counter(bonus).items() if count > 1]
    if doubled:
        raise InvalidNotationError(f"each bonus tile exists once, got {len(bonus)} with repeats")
