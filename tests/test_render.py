"""Pictures: every tile renders and differs, sizes, PNG budget, and no hidden tile on the table."""

from __future__ import annotations

import argparse
import dataclasses
import io

import pytest
from PIL import Image, ImageChops, ImageDraw

from engine.presets import PRESETS
from engine.tiles import NUM_TILE_IDS, Meld, MeldKind, Tile, parse_tile, parse_tiles
from render import (
    HandView,
    ResultView,
    SeatView,
    TableView,
    back_sprite,
    pretty_pattern,
    render_hand,
    render_result,
    render_table,
    tile_sprite,
    to_png,
)
from render import hand as hand_module
from render import result as result_module
from render import table as table_module
from render.cli import add_render_parser, run_render
from render.compose import meld_group
from render.samples import (
    sample_bloodflow_result,
    sample_hand_view,
    sample_marked_hand_view,
    sample_result_view,
    sample_table_view,
)
from render.style import font
from render.tiles import FLOWERS, NUMERALS, SEASONS, WINDS, Geometry, turned_sprite

SIZES = (24, 60)
PNG_BUDGET = 100 * 1024


def same_where_opaque(crop: Image.Image, sprite: Image.Image) -> bool:
    """True when the crop shows exactly the sprite on every fully opaque sprite pixel."""
    opaque = sprite.getchannel("A").point(lambda a: 255 if a == 255 else 0).convert("RGB")
    diff = ImageChops.difference(crop.convert("RGB"), sprite.convert("RGB"))
    return ImageChops.multiply(diff, opaque).getbbox() is None


# ----------------------------------------------------------------------------- sprites


@pytest.mark.parametrize("size", SIZES)
def test_every_tile_renders_at_its_size_and_all_differ(size: int) -> None:
    sprites = [tile_sprite(tile, size) for tile in range(NUM_TILE_IDS)]
    geometry = Geometry(size)
    for sprite in sprites:
        assert sprite.mode == "RGBA"
        assert sprite.size == (size, geometry.height)
    faces = {sprite.tobytes() for sprite in sprites}
    assert len(faces) == NUM_TILE_IDS  # no two tiles look the same
    assert back_sprite(size).tobytes() not in faces
    assert back_sprite(size).size == sprites[0].size


def test_every_preset_tile_set_renders_a_face_with_artwork() -> None:
    """Each tile is an opaque ivory face (not a back) carrying coloured ink on it."""
    back = back_sprite(40)
    for preset in PRESETS.values():
        for tile in preset.tile_kinds:
            sprite = tile_sprite(tile, 40)
            assert sprite.tobytes() != back.tobytes()
            face = sprite.convert("RGB").crop((8, 8, 32, 44))  # inside the rim
            colours = face.getcolors(24 * 36) or []
            ink = [rgb for n, rgb in colours if max(rgb) - min(rgb) > 60 or max(rgb) < 120]
            assert sum(n for n, rgb in colours if rgb in ink) > 20, tile  # artwork, not blank
            ivory = sum(n for n, (r, g, b) in colours if min(r, g, b) > 200 and r >= b)
            assert ivory > 24 * 36 // 4, tile  # on an ivory face, not a green back


def test_sprites_are_cached() -> None:
    assert tile_sprite(12, 44) is tile_sprite(12, 44)
    assert tile_sprite(12, 44, wild=True) is tile_sprite(12, 44, wild=True)
    assert back_sprite(44) is back_sprite(44)
    assert turned_sprite(12, 44) is turned_sprite(12, 44)


def test_wild_badge_marks_only_the_top_right_corner() -> None:
    for tile in (parse_tile("7z"), parse_tile("5p"), parse_tile("1m")):
        plain, wild = tile_sprite(tile, 60), tile_sprite(tile, 60, wild=True)
        box = ImageChops.difference(plain.convert("RGB"), wild.convert("RGB")).getbbox()
        assert box is not None
        assert box[0] >= plain.width // 2 and box[3] <= plain.height // 3


def test_turned_sprite_lies_sideways() -> None:
    upright, turned = tile_sprite(4, 40), turned_sprite(4, 40)
    geometry = Geometry(40)
    assert turned.size == (geometry.face_h, 40 + geometry.depth)
    assert turned.height < upright.height


def test_font_has_every_glyph_we_draw() -> None:
    """No tofu: each glyph differs from what the font draws for a code point it lacks."""
    face = font(48)

    def ink(text: str) -> bytes:
        mask = Image.new("L", (96, 96))
        ImageDraw.Draw(mask).text((8, 8), text, font=face, fill=255)
        return mask.tobytes()

    missing = ink("\U000f0000")  # a private-use code point no font maps
    glyphs = NUMERALS + "萬" + WINDS + "中發" + FLOWERS + SEASONS + "筒條"
    for glyph in glyphs:
        assert ink(glyph) != missing, glyph


# ----------------------------------------------------------------------------- melds


def test_claimed_tile_is_turned_towards_its_giver() -> None:
    def turned_at(meld: Meld, seat: int) -> list[int]:
        group = meld_group(meld, 40, seat)
        return [i for i, (sprite, _, _) in enumerate(group.pieces) if sprite.width > 40]

    pung = parse_tile("5z")
    assert turned_at(Meld(MeldKind.PUNG, (pung,) * 3, pung, 0), 1) == [0]  # from the left
    assert turned_at(Meld(MeldKind.PUNG, (pung,) * 3, pung, 3), 1) == [1]  # from across
    assert turned_at(Meld(MeldKind.PUNG, (pung,) * 3, pung, 2), 1) == [2]  # from the right
    assert turned_at(Meld(MeldKind.KONG, (pung,) * 4, pung, 2), 1) == [3]
    added = meld_group(Meld(MeldKind.ADDED_KONG, (pung,) * 4, pung, 3), 40, 1)
    assert len(added.pieces) == 4 and added.height > tile_sprite(pung, 40).height


def test_claimed_tile_turns_by_the_table_s_seat_count() -> None:
    def turned_at(giver: int, seat: int, seats: int) -> int:
        pung = parse_tile("5z")
        group = meld_group(Meld(MeldKind.PUNG, (pung,) * 3, pung, giver), 40, seat, seats=seats)
        return next(i for i, (sprite, _, _) in enumerate(group.pieces) if sprite.width > 40)

    assert turned_at(0, 1, 3) == 0  # three seats: the one before sits left
    assert turned_at(2, 1, 3) == 2  # the one after sits right
    assert turned_at(2, 0, 3) == 0  # seat 2 is before seat 0 at three seats (across at four)
    assert turned_at(2, 0, 4) == 1
    assert turned_at(1, 0, 2) == 1  # two seats: the other player sits across


def test_concealed_kong_shows_two_tiles_face_down() -> None:
    kong = Meld(MeldKind.CONCEALED_KONG, (parse_tile("9s"),) * 4)
    sprites = [sprite for sprite, _, _ in meld_group(kong, 40).pieces]
    assert [sprite is back_sprite(40) for sprite in sprites] == [True, False, False, True]


# ----------------------------------------------------------------------------- hand


def hand(tiles: str, **changes: object) -> HandView:
    view = HandView("Table", "chan", 0, tuple(parse_tiles(tiles)))
    return dataclasses.replace(view, **changes)  # type: ignore[arg-type]


def test_hand_width_grows_with_tile_count_in_one_row_until_tiles_would_show_too_small() -> None:
    """One row while Discord shows its tiles at least MIN_SHOWN px wide; then two rows."""
    tiles = "123456789m1234p"
    plans = [hand_module.plan_hand(hand(tiles[:n] + "p")) for n in (5, 8, 11, 14)]
    plans.append(hand_module.plan_hand(hand(tiles, drawn=parse_tile("5z"))))  # 14 tiles
    rows = [len(plan.labels_at) for plan in plans]
    assert rows == [1, 1, 1, 1, 2]
    widths = [plan.width for plan in plans[:4]]
    assert widths == sorted(widths) and len(set(widths)) == 4
    assert len({plan.height for plan in plans[:4]}) == 1
    assert all(plan.shown_tile() >= hand_module.MIN_SHOWN for plan in plans)


def test_seventeen_tile_hand_fits_in_two_rows() -> None:
    view = hand("1112345678999m123p", drawn=parse_tile("5m"))
    plan = hand_module.plan_hand(view)
    image = render_hand(view)
    assert image.size == (plan.width, plan.height) and image.width <= hand_module.MAX_WIDTH
    assert len(plan.tiles) == 17 and len(plan.labels_at) == 2  # every tile is in the picture
    assert plan.tiles[-1][0] == parse_tile("5m")  # the drawn tile last


def test_many_melds_wrap_within_the_maximum_width() -> None:
    kongs = tuple(Meld(MeldKind.KONG, (t,) * 4, t, 2) for t in parse_tiles("1m9p1s1z5z"))
    image = render_hand(hand("7z", drawn=parse_tile("7z"), melds=kongs))
    assert image.width <= hand_module.MAX_WIDTH


def test_drawn_tile_is_set_apart() -> None:
    for tiles in ("1234m", "123m456p789s1122z"):  # one row, two rows
        plan = hand_module.plan_hand(hand(tiles, drawn=parse_tile("3z")))
        assert len(plan.labels_at) == (1 if len(tiles) < 8 else 2)
        (*_, (_, before, row_y)), (drawn, x, y) = plan.tiles[:-1], plan.tiles[-1]
        assert drawn == parse_tile("3z") and y == row_y
        assert x - before == hand_module.TILE + hand_module.DRAWN_GAP


def test_hand_title_says_your_hand_for_you_and_names_others() -> None:
    assert hand_module._subtitle(hand("1m", player_name="You")).startswith("Your hand")
    assert hand_module._subtitle(hand("1m")).startswith("Your hand")
    assert hand_module._subtitle(hand("1m", player_name="Bob")).startswith("Bob's hand")


def test_void_tiles_and_blocks_are_marked_on_the_hand() -> None:
    plain = hand("123m45s", drawn=parse_tile("6p"))
    marked = dataclasses.replace(plain, void_suit="s", blocked=("No pung until your next draw",))
    image, base = render_hand(marked), render_hand(plain)
    assert image.height > base.height  # a line of notes
    y = hand_module.HEADER + Geometry(hand_module.TILE).height + 2
    bamboo_x = hand_module.MARGIN + 3 * (hand_module.TILE + 1) + hand_module.TILE // 2
    char_x = hand_module.MARGIN + hand_module.TILE // 2
    assert image.getpixel((bamboo_x, y)) == hand_module.VOID_BAR  # under a bamboo tile
    assert image.getpixel((char_x, y)) != hand_module.VOID_BAR  # not under a character


def test_hand_sorts_suits_then_honours_with_fixed_kinds_first() -> None:
    view = hand("5z1s9m1m", fixed_first=frozenset({parse_tile("5z")}))
    ordered = sorted(view.concealed, key=hand_module.sort_key(view))
    assert ordered == parse_tiles("5z") + parse_tiles("19m1s")


# ----------------------------------------------------------------------------- table


def test_views_cannot_carry_hidden_tiles() -> None:
    """The public views have a count of concealed tiles, and nothing else about them."""
    seat_fields = {f.name for f in dataclasses.fields(SeatView)}
    table_fields = {f.name for f in dataclasses.fields(TableView)}
    assert "concealed_count" in seat_fields
    assert not {"concealed", "hand", "tiles", "hidden", "drawn"} & (seat_fields | table_fields)


def hidden_table(counts: tuple[int, ...] = (14, 13, 13, 13)) -> TableView:
    view = sample_table_view(seed=3, discards=6)
    seats = tuple(
        dataclasses.replace(seat, concealed_count=n, melds=())
        for seat, n in zip(view.seats, counts, strict=True)
    )
    return dataclasses.replace(view, seats=seats)


def test_hidden_hands_are_a_count_with_one_back_and_never_faces() -> None:
    view = hidden_table()
    image = render_table(view)
    plan = table_module.plan_table(view)
    back = back_sprite(table_module.SMALL)
    faces = [tile_sprite(tile, table_module.SMALL) for tile in range(34)]
    for seat_plan in plan.seats:
        assert seat_plan.count_at is not None
        x, y = seat_plan.count_at
        crop = image.crop((x, y, x + back.width, y + back.height))
        assert same_where_opaque(crop, back)
        assert not any(same_where_opaque(crop, face) for face in faces)
    # one back per seat, not a row of them: the picture holds as many backs as seats
    assert (
        sum(1 for sp in plan.seats for g, _, _ in sp.groups for p in g.pieces if p[0] is back) == 4
    )


def engine_state_with_known_hands():  # type: ignore[no-untyped-def]
    engine_hand = pytest.importorskip("engine.hand")
    ai = pytest.importorskip("engine.computer.easy")
    state = engine_hand.HandState(PRESETS["hkos-3-v1"], seed=11)
    for _ in range(30):
        seats = state.seats_to_act()
        if not seats:
            break
        state.apply(ai.choose_action(state, seats[0]))
    return state


def test_table_of_a_real_state_draws_none_of_its_hidden_tiles() -> None:
    """Tiles only a hand holds (not in any pond, meld or bonus) appear nowhere in the picture."""
    from render.adapt import table_view_from_state

    state = engine_state_with_known_hands()
    view = table_view_from_state(state)
    public: set[Tile] = set()
    for seat in view.seats:
        public |= set(seat.pond) | set(seat.bonus) | {t for m in seat.melds for t in m.tiles}
    hidden_only = {t for hand_tiles in state.hands for t in hand_tiles} - public
    assert hidden_only
    image = render_table(view)
    plan = table_module.plan_table(view)
    sizes = (table_module.POND, *table_module.MELD_SIZES, table_module.SMALL, table_module.LATEST)
    suspects = [tile_sprite(t, size) for t in hidden_only for size in sizes]
    places = [
        (x + dx, base + dy)
        for sp in plan.seats
        for g, x, base in sp.groups
        for _, dx, dy in g.pieces
    ]
    places += [(x, y) for sp in plan.seats for _, x, y in sp.pond]
    for x, y in places:
        for sprite in suspects:
            crop = image.crop((x, y, x + sprite.width, y + sprite.height))
            assert not same_where_opaque(crop, sprite)
    assert [s.concealed_count for s in view.seats] == [len(h) for h in state.hands]


def test_table_marks_the_latest_discard_and_dims_claimed_tiles() -> None:
    view = sample_table_view()
    image = render_table(view)
    plan = table_module.plan_table(view)
    seat, index = view.latest  # type: ignore[misc]
    _, x, y = plan.seats[seat].pond[index]
    tile = view.seats[seat].pond[index]
    crop = image.crop((x, y, x + table_module.POND, y + Geometry(table_module.POND).height))
    assert same_where_opaque(crop, tile_sprite(tile, table_module.POND))
    frame_pixel = image.getpixel((x - 2, y + 10))
    assert frame_pixel != image.getpixel((x - 8, y + 10))  # the frame around it
    claimed = next(i for i, s in enumerate(view.seats) if s.claimed)
    index = min(view.seats[claimed].claimed)
    _, x, y = plan.seats[claimed].pond[index]
    tile = view.seats[claimed].pond[index]
    crop = image.crop((x, y, x + table_module.POND, y + Geometry(table_module.POND).height))
    assert not same_where_opaque(crop, tile_sprite(tile, table_module.POND))


def test_table_size_is_stable_until_a_pond_outgrows_four_rows() -> None:
    short, full = sample_table_view(discards=6), sample_table_view(discards=24)
    assert render_table(short).size == render_table(full).size == (864, 648)
    assert render_table(sample_table_view(discards=32)).height > 648


# ----------------------------------------------------------------------------- result, PNG


def test_result_renders_for_a_win_and_a_draw() -> None:
    win, draw = render_result(sample_result_view()), render_result(sample_result_view(draw=True))
    assert win.width == draw.width
    assert win.height > draw.height


def test_repeated_wins_by_the_same_hand_merge_into_one_panel() -> None:
    one = sample_result_view()
    three = dataclasses.replace(one, wins=one.wins * 3)
    assert render_result(three).size == render_result(one).size
    [merged] = result_module.merge_wins(three.wins)
    assert merged.count == 3 and merged.win_tiles == [one.wins[0].win_tile]
    other = dataclasses.replace(one.wins[0], winner="Bob")
    assert len(result_module.merge_wins((*three.wins, other))) == 2
    assert (
        render_result(dataclasses.replace(one, wins=(one.wins[0], other))).height
        > render_result(one).height
    )


def test_bloodflow_result_merges_and_pays_by_kind() -> None:
    view = sample_bloodflow_result()
    merged = result_module.merge_wins(view.wins)
    assert [(g.first.winner, g.count) for g in merged] == [
        ("Alice", 3),
        ("Bob", 2),
        ("Carmen", 1),
        ("Dai", 1),
        ("Alice", 1),
    ]
    assert result_module.ways_text(merged[0]) == "self draw · discards from Carmen, Dai"
    rows = dict(result_module.payment_rows(view))
    assert list(rows) == ["Wins", "Kongs", "Wall draw", "Total"]
    assert rows["Total"] == [88, -10, -38, -40]
    columns = zip(rows["Wins"], rows["Kongs"], rows["Wall draw"], strict=True)
    assert [sum(c) for c in columns] == rows["Total"]  # the kinds add up to the totals
    assert result_module.payment_rows(sample_result_view()) == [("Total", [64, -32, -16, -16])]


def test_pattern_line_counts_repeats() -> None:
    win = sample_result_view().wins[0]
    assert "Dragon pung 1 ×2" in result_module.pattern_line(win, "faan")


@pytest.mark.parametrize(
    "image",
    [
        pytest.param(lambda: render_hand(sample_hand_view(14)), id="hand14"),
        pytest.param(lambda: render_hand(sample_hand_view(17)), id="hand17"),
        pytest.param(lambda: render_table(sample_table_view(discards=24)), id="table"),
        pytest.param(lambda: render_result(sample_result_view()), id="result"),
        pytest.param(lambda: render_result(sample_bloodflow_result()), id="bloodflow"),
        pytest.param(lambda: render_table(sample_table_view(seats=2, discards=44)), id="table2"),
        pytest.param(lambda: render_hand(sample_marked_hand_view()), id="marked-hand"),
    ],
)
def test_png_is_a_small_palette_image(image) -> None:  # type: ignore[no-untyped-def]
    picture = image()
    data = to_png(picture)
    assert len(data) <= PNG_BUDGET
    decoded = Image.open(io.BytesIO(data))
    assert decoded.mode == "P" and decoded.size == picture.size


def test_pretty_pattern_names() -> None:
    assert pretty_pattern("little_three_dragons") == "Little three dragons"
    assert pretty_pattern("self_draw") == "Self draw"
    assert pretty_pattern("Half flush") == "Half flush"


def test_result_view_patterns_are_name_value_pairs() -> None:
    view = ResultView("t", "p", "faan", payments=[("a", 1), ("b", -1)])
    assert view.payments == (("a", 1), ("b", -1)) and view.is_draw


# ----------------------------------------------------------------------------- command line


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_render_parser(parser.add_subparsers(dest="command"))
    return parser.parse_args(argv)


def test_cli_renders_a_hand(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "hand.png"
    hand_args = ["123m456p789s11z5z", "--melds", "pung 555z", "--bonus", "1f"]
    labels = ["--table-name", "Friday", "--channel", "mahjong"]
    args = parse(["render", "hand", *hand_args, *labels, "-o", str(out)])
    assert run_render(args) == 0
    assert Image.open(out).size[0] > 0
    assert "wrote" in capsys.readouterr().out


def test_cli_refuses_bad_and_impossible_hands(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = str(tmp_path / "x.png")
    assert run_render(parse(["render", "hand", "123x", "-o", out])) == 2
    assert run_render(parse(["render", "hand", "11111m", "-o", out])) == 2
    assert run_render(parse(["render", "hand", "11m", "--bonus", "1f1f", "-o", out])) == 2
    assert capsys.readouterr().err.count("error:") == 3


def test_cli_table_and_result_from_the_engine(tmp_path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("engine.hand")
    for argv in (
        ["render", "table", "--preset", "hkos-3-v1", "--seed", "7", "--actions", "40"],
        ["render", "result", "--preset", "hkos-3-v1", "--seed", "7"],
    ):
        out = tmp_path / f"{argv[1]}.png"
        assert run_render(parse([*argv, "-o", str(out)])) == 0
        assert len(out.read_bytes()) <= PNG_BUDGET
