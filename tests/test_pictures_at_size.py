"""Pictures at Discord's size: scaled as an embed shows them (a 400 x 300 box), tiles measured.

Each picture is drawn, reduced with a good filter as Discord's client does, and measured in the
reduced image: pond tiles at least 16 px wide, the latest discard and the turn arrow at least
24 px, table pictures wide enough (4:3 or wider) that the 300 px height never shrinks them.
"""

from __future__ import annotations

import dataclasses

import pytest
from PIL import Image

from engine.computer.easy import choose_action
from engine.families.riichi.presets import RIICHI, RIICHI_MAJSOUL
from engine.hand import HandState
from engine.i18n import LANGUAGES, Text, worded
from engine.presets import PRESETS
from engine.tiles import Meld, MeldKind, parse_tile, parse_tiles
from render import hand as hand_module
from render import render_hand, render_result, render_table, style
from render import table as table_module
from render.adapt import engine_table_view, hand_view_from_state, table_view_from_state
from render.samples import (
    birds_revealed,
    horse_face_down,
    sample_bloodflow_result,
    sample_hand_view,
    sample_marked_hand_view,
    sample_result_view,
    sample_table_view,
    wild_indicator,
)
from render.style import FELT, GOLD
from render.tiles import Geometry, tile_sprite
from render.views import HandView, TableView
from render.words import preset_text
from tests import riichi_scenes
from tests.riichi_scenes import NAMES

EMBED_W, EMBED_H = 400, 300


def shown_scale(image: Image.Image) -> float:
    """How much Discord's embed box (400 x 300, never enlarged) scales this picture."""
    return min(1.0, EMBED_W / image.width, EMBED_H / image.height)


def shown(image: Image.Image) -> Image.Image:
    scale = shown_scale(image)
    size = (round(image.width * scale), round(image.height * scale))
    return image.resize(size, Image.Resampling.LANCZOS)


def light_run(image: Image.Image, x: int, y: int) -> int:
    """Width of the run of ivory pixels through (x, y) on row y: a tile face, measured."""

    def light(px: int) -> bool:
        r, g, b = image.getpixel((px, y))[:3]
        return min(r, g, b) > 170

    if not light(x):
        return 0
    left, right = x, x
    while left > 0 and light(left - 1):
        left -= 1
    while right < image.width - 1 and light(right + 1):
        right += 1
    return right - left + 1


def footprint_run(image: Image.Image, x: int, y: int, background: tuple[int, ...]) -> int:
    """Width of the run through (x, y) of pixels unlike the background: a lone tile, measured."""

    def tile(px: int) -> bool:
        pixel = image.getpixel((px, y))
        return sum(abs(a - b) for a, b in zip(pixel[:3], background[:3], strict=True)) > 60

    left, right = x, x
    while left > 0 and tile(left - 1):
        left -= 1
    while right < image.width - 1 and tile(right + 1):
        right += 1
    return right - left + 1 if tile(x) else 0


def table_cases() -> list[tuple[str, TableView]]:
    cases = [
        (f"{preset_id}-{actions}", engine_table_view(preset_id, 5, actions))
        for preset_id in sorted(PRESETS)
        for actions in (1, 60, 400)
    ]
    cases += [
        ("4-seats-birds-horse", sample_table_view(discards=22, set_aside=birds_revealed())),
        ("4-seats-horse", sample_table_view(discards=12, clocks=True, set_aside=horse_face_down())),
        ("3-seats", sample_table_view(discards=24, seats=3, set_aside=wild_indicator())),
        ("2-seats", sample_table_view(discards=44, seats=2, set_aside=wild_indicator())),
        ("16-tile-hands", sample_table_view(discards=18, hand_size=16)),
    ]
    # Riichi (taken as Preset objects, playable or not): dora, sticks, a sideways discard
    cases += [
        (f"{preset.id}-{actions}", engine_table_view(preset, 5, actions))
        for preset in (RIICHI, RIICHI_MAJSOUL)
        for actions in (1, 60, 400)
    ]
    cases += [
        ("riichi-kong-sideways", table_view_from_state(riichi_scenes.mid_hand(), NAMES)),
        ("riichi-won", table_view_from_state(riichi_scenes.riichi_win(), NAMES)),
    ]
    return cases


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("name", "view"), table_cases(), ids=[n for n, _ in table_cases()])
def test_table_reads_at_400_px(name: str, view: TableView, language: str) -> None:
    image = render_table(view, language)
    small = shown(image)
    scale = small.width / image.width
    assert small.width == EMBED_W, f"{name}: {image.size} is shown {small.size}, not 400 wide"
    plan = table_module.plan_table(view, language)
    # each seat's latest discard alone in its pond (same layout): its footprint is measurable
    alone = dataclasses.replace(
        view,
        latest=None,
        seats=tuple(
            dataclasses.replace(seat, pond=seat.pond[-1:], claimed=frozenset())
            for seat in view.seats
        ),
    )
    alone_small = shown(render_table(alone, language))
    measured = []
    for seat_plan in table_module.plan_table(alone, language).seats:
        for _, x, y in seat_plan.pond:
            middle_x = round((x + table_module.POND / 2) * scale)
            rows = range(
                round(y * scale) + 1, round((y + Geometry(table_module.POND).face_h) * scale)
            )
            # artwork unlike the face can only cut a run short: the widest row is the tile
            widths = [
                footprint_run(
                    alone_small, middle_x, row, alone_small.getpixel((round((x - 4) * scale), row))
                )
                for row in rows
            ]
            measured.append(max(widths))
    if measured:
        assert min(measured) >= 16, f"{name}: pond tiles {measured} px wide at 400 px"
    if view.latest is not None:
        x0, y0, x1, y1 = plan.centre
        gold = small.crop(tuple(round(v * scale) for v in (x0, y0 + 40, x1, y1)))
        if view.turn is not None:  # the arrow to the seat to act
            hits = [
                (px, py)
                for py in range(gold.height)
                for px in range(gold.width)
                if _near(gold.getpixel((px, py)), GOLD)
            ]
            assert hits, f"{name}: no turn arrow"
            width = max(p for p, _ in hits) - min(p for p, _ in hits) + 1
            assert width >= 24, f"{name}: turn arrow {width} px at 400 px"


def _near(pixel: tuple[int, ...], colour: tuple[int, int, int]) -> bool:
    return all(abs(a - b) <= 24 for a, b in zip(pixel[:3], colour, strict=True))


def test_the_latest_discard_in_the_centre_is_at_least_24_px_wide_at_400() -> None:
    view = sample_table_view(discards=10)
    image = render_table(view)
    small = shown(image)
    scale = small.width / image.width
    plan = table_module.plan_table(view)
    x0, y0, x1, y1 = plan.centre
    cx = (x0 + x1) // 2
    # the tile sits in the middle of the centre: find its top by scanning down the middle
    column = [small.getpixel((round(cx * scale), y))[:3] for y in range(small.height)]
    top = next(
        y for y in range(round((y0 + 40) * scale), round(y1 * scale)) if min(column[y]) > 170
    )
    width = light_run(small, round(cx * scale), top + 2)
    assert width >= 24, f"latest discard {width} px at 400 px"


@pytest.mark.parametrize("language", LANGUAGES)
def test_seat_count_changes_the_layout_not_the_size(language: str) -> None:
    sizes = {
        render_table(sample_table_view(seats=n, discards=12), language).size for n in (2, 3, 4)
    }
    assert sizes == {(864, 648)}
    sides = [
        [plan.side for plan in table_module.plan_table(sample_table_view(seats=n)).seats]
        for n in (2, 3, 4)
    ]
    assert sides == [
        ["bottom", "top"],
        ["bottom", "right", "left"],
        ["bottom", "right", "top", "left"],
    ]


def test_panels_never_overlap_and_stay_inside() -> None:
    for n in (2, 3, 4):
        plan = table_module.plan_table(sample_table_view(seats=n, discards=20))
        boxes = [p.box for p in plan.seats] + [plan.centre] + ([plan.header] if plan.header else [])
        for box in boxes:
            assert 0 <= box[0] < box[2] <= plan.width and 0 <= box[1] < box[3] <= plan.height
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
        for seat_plan in plan.seats:
            x0, y0, x1, y1 = seat_plan.box
            tile_h = Geometry(table_module.POND).height
            for _, x, y in seat_plan.pond:
                assert x0 <= x and x + table_module.POND <= x1 and y0 <= y and y + tile_h <= y1


@pytest.mark.parametrize(
    ("name", "draw", "min_width"),
    [
        ("one win", lambda lang: render_result(sample_result_view(), lang), 400),
        ("draw", lambda lang: render_result(sample_result_view(draw=True), lang), 400),
        (
            "blood flow, eight wins",
            lambda lang: render_result(sample_bloodflow_result(), lang),
            380,
        ),
        ("hand 14", lambda lang: render_hand(sample_hand_view(14), lang), 400),
        ("hand 17", lambda lang: render_hand(sample_hand_view(17), lang), 400),
        ("marked hand", lambda lang: render_hand(sample_marked_hand_view(), lang), 400),
    ],
)
@pytest.mark.parametrize("language", LANGUAGES)
def test_results_and_hands_are_shown_wide(name: str, draw, min_width: int, language: str) -> None:  # type: ignore[no-untyped-def]
    """Wide enough that the embed's 300 px height leaves them (nearly) 400 px wide."""
    small = shown(draw(language))
    assert small.width >= min_width, f"{name}: shown {small.size}"


def test_eight_wins_fit_where_one_panel_per_win_would_not() -> None:
    view = sample_bloodflow_result()
    merged = render_result(view)
    one_each = render_result(dataclasses.replace(view, wins=view.wins[:2]))
    assert merged.height < 2 * one_each.height
    assert merged.width == 800


@pytest.mark.parametrize(("seats", "discards"), [(4, 28), (3, 28), (2, 60), (2, 64), (4, 34)])
def test_long_ponds_stay_inside_their_panels(seats: int, discards: int) -> None:
    view = sample_table_view(seats=seats, discards=discards)
    plan = table_module.plan_table(view)
    tile_h = Geometry(table_module.POND).height
    for seat_plan, seat in zip(plan.seats, view.seats, strict=True):
        assert len(seat_plan.pond) == len(seat.pond)
        x0, y0, x1, y1 = seat_plan.box
        for _, x, y in seat_plan.pond:
            assert x0 <= x and x + table_module.POND <= x1 and y0 <= y and y + tile_h <= y1
    fits = discards <= (28 if seats > 2 else 60)
    assert ((plan.width, plan.height) == (864, 648)) == fits  # grows only past four full rows


def ink_blobs(tile: int, size: int, scale: float) -> int:
    """Separate patches of colour on a tile's face shown at `scale`: its pips or sticks, counted.

    Ink is a strongly coloured or dark pixel; ivory (light, greyish) is not. Pips or sticks that
    blur together at that size count as one.
    """
    sprite = tile_sprite(tile, size)
    small = sprite.resize(
        (round(sprite.width * scale), round(sprite.height * scale)), Image.Resampling.LANCZOS
    )
    face_h = round(Geometry(size).face_h * scale)

    def inked(x: int, y: int) -> bool:
        r, g, b, a = small.getpixel((x, y))
        coloured = max(r, g, b) - min(r, g, b) > 60 and min(r, g, b) < 165
        return a > 200 and (coloured or max(r, g, b) < 120)

    ink = {(x, y) for y in range(1, face_h - 1) for x in range(1, small.width - 1) if inked(x, y)}
    count, seen = 0, set()
    for start in ink:
        if start in seen:
            continue
        count += 1
        stack = [start]
        seen.add(start)
        while stack:
            x, y = stack.pop()
            for near in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if near in ink and near not in seen:
                    seen.add(near)
                    stack.append(near)
    return count


@pytest.mark.parametrize("suit", ["p", "s"])
def test_dots_and_bamboo_can_be_counted_in_a_pond_at_400_px(suit: str) -> None:
    """6, 8 and 9 dots (or bamboo) in a pond are told apart by counting: at 400 px every pip
    and stick of 2-9 stands apart from its neighbours."""
    scale = EMBED_W / 864  # the table picture is 864 px wide
    pond = table_module.POND
    counts = [ink_blobs(parse_tile(f"{rank}{suit}"), pond, scale) for rank in range(2, 10)]
    assert counts == list(range(2, 10))


def hands_in_play(preset_id: str, seats: int) -> list[tuple[str, HandView]]:
    """Each seat's hand when it has just drawn, over a hand played by the computer: from the
    deal to its longest meld-laden moments."""
    state = HandState(PRESETS[preset_id], 11, seat_count=seats)
    views = []
    while not state.is_over:
        seat = state.seats_to_act()[0]
        if state.drawn is not None and state.turn == seat and len(views) < 40:
            view = hand_view_from_state(state, seat, table_name=f"{preset_id} table #12")
            views.append((f"{preset_id}-{seats}-{len(views)}", view))
        state.apply(choose_action(state, seat))
    return views[::3]


def hand_cases() -> list[tuple[str, HandView]]:
    cases = [
        case
        for preset_id in sorted(PRESETS)
        for seats in PRESETS[preset_id].seat_counts
        for case in hands_in_play(preset_id, seats)
    ]
    kongs = tuple(Meld(MeldKind.KONG, (t,) * 4, t, 2) for t in parse_tiles("1m9p1s1z"))
    many = dataclasses.replace(
        sample_hand_view(5), melds=kongs, bonus=tuple(parse_tiles("12345678f"))
    )
    return [
        *cases,
        ("sample-14", sample_hand_view(14)),
        ("sample-17", sample_hand_view(17)),
        ("marked", sample_marked_hand_view()),
        ("four-kongs-eight-flowers", many),
    ]


def drawn_tile_width(image: Image.Image, plan: hand_module.HandPlan) -> int:
    """The drawn tile (alone at the end of its row) measured where Discord shows the picture."""
    small = shown(image)
    scale = small.width / image.width
    _, x, y = plan.tiles[-1]
    middle_x = round((x + hand_module.TILE / 2) * scale)
    rows = range(round(y * scale) + 1, round((y + Geometry(hand_module.TILE).face_h) * scale))
    return max(footprint_run(small, middle_x, row, FELT) for row in rows)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("name", "view"), hand_cases(), ids=[n for n, _ in hand_cases()])
def test_hand_tiles_are_at_least_28_px_wide_at_400(
    name: str, view: HandView, language: str
) -> None:
    """Every preset and seat count, sixteen-tile hands and hands full of melds and flowers: the
    hand's tiles stay at least 28 px wide in Discord's 400 x 300 box (long hands take two rows)."""
    plan = hand_module.plan_hand(view, language)
    image = render_hand(view, language)
    assert image.size == (plan.width, plan.height)
    assert plan.shown_tile() >= 28, f"{name}: {image.size} shows tiles {plan.shown_tile():.1f} px"
    label = hand_module.LABEL_PX * plan.shown_tile() / hand_module.TILE
    assert label >= 12, f"{name}: the tile names under the tiles are {label:.1f} px"
    if view.drawn is not None:
        measured = drawn_tile_width(image, plan)
        assert measured >= 28, f"{name}: the drawn tile is {measured} px wide at 400 px"


# ----------------------------------------------------------------------------- words


def drawn_words(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every label a picture draws from now on (paste_text and pill both make one)."""
    seen: list[str] = []
    make = style.text_image

    def recording(text: str, px: int, colour: tuple[int, int, int]) -> Image.Image:
        seen.append(text)
        return make(text, px, colour)

    monkeypatch.setattr(style, "text_image", recording)
    return seen


def statuses() -> list[Text]:
    return [
        Text("pictures.status.claims"),
        Text("pictures.status.rob"),
        Text("pictures.status.opening", {"what": Text("pictures.opening.swap_three")}),
    ]


def worded_tables() -> list[tuple[str, TableView]]:
    hubei = preset_text("hubei-laizi", PRESETS["hubei-laizi"].name)
    cases = []
    for status in statuses():
        for seats in (4, 3, 2):
            view = sample_table_view(discards=12, seats=seats, set_aside=wild_indicator())
            view = dataclasses.replace(view, turn=None, status=status, preset_name=hubei)
            if status.key == "pictures.status.opening":  # before the first discard
                view = dataclasses.replace(view, latest=None)
            cases.append((f"{status.key}-{seats}", view))
    return cases


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_words_are_cut_in_the_pictures(monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    """A status in the centre ("The latest discard is open to calls"), a preset's name in the
    header ("Hubei wild-kong (红中赖子杠)") and a long table name wrap or shrink: every word is
    drawn, none ends in an ellipsis."""
    seen = drawn_words(monkeypatch)
    long_name = "Table #12 · Friday night mahjong at Carmen's"
    for name, view in worded_tables():
        seen.clear()
        render_table(view, language)
        drawn = "".join("".join(seen).split())  # lines joined, spaces aside
        assert not [t for t in seen if t.endswith("…")], f"{name}: {seen}"
        shown_parts = (view.status, view.preset_name) if len(view.seats) < 4 else (view.status,)
        for part in shown_parts:  # four seats leave no side for the preset's name
            whole = "".join(worded(part, language).split())
            assert whole in drawn, f"{name}: {whole} is not all in {seen}"
    for view in (sample_hand_view(14), sample_marked_hand_view()):
        seen.clear()
        render_hand(dataclasses.replace(view, table_name=long_name), language)
        assert long_name in seen, seen


@pytest.mark.parametrize(("name", "view"), table_cases(), ids=[n for n, _ in table_cases()])
def test_melds_and_flowers_are_larger_than_pond_tiles_at_400_px(name: str, view: TableView) -> None:
    """Another seat's melds and flowers are what its hand has shown: at 400 px they are drawn
    larger than its pond (18.5 px against 16.7), where the seat's card holds them."""
    scale = EMBED_W / render_table(view).width
    plan = table_module.plan_table(view)
    for seat, seat_plan in zip(view.seats, plan.seats, strict=True):
        if seat.melds or seat.bonus:
            shown_size = seat_plan.meld_size * scale
            assert seat_plan.meld_size > table_module.POND, f"{name}: {shown_size:.1f} px"
            sizes = {
                sprite.width
                for group, _, _ in seat_plan.groups
                for sprite, _, _ in group.pieces
                if sprite.width == seat_plan.meld_size
            }
            assert sizes, f"{name}: no tile drawn {seat_plan.meld_size} px wide"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_status_in_the_centre_stays_in_the_centre(language: str) -> None:
    """However crowded the centre (a wild indicator under the round, the latest discard), its
    status is drawn inside it: it changes no pixel outside the centre box."""
    from PIL import ImageChops

    for name, view in worded_tables():
        plan = table_module.plan_table(view, language)
        if plan.header is not None:
            continue  # there the status is in the header
        with_status = render_table(view, language)
        without = render_table(dataclasses.replace(view, status=""), language)
        box = ImageChops.difference(with_status, without).getbbox()
        assert box is not None, f"{name}: no status drawn"
        x0, y0, x1, y1 = plan.centre
        assert x0 <= box[0] and y0 <= box[1] and box[2] <= x1 and box[3] <= y1, (name, box)
