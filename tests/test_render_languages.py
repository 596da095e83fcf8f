"""Every picture in each language: the words come from the catalogue, none is left in English.

Each label a picture draws goes through `render.style.text_image`; recording those calls shows
exactly what a reader sees. In Chinese no English word may remain (tile notation such as 5p,
numbers and the players' own names aside: the names here are Chinese).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from PIL import Image

from engine.computer.easy import choose_action
from engine.computer.simulate import play_out
from engine.hand import HandState
from engine.i18n import Text
from engine.presets import PRESETS, find_preset
from render import style
from render import table as table_module
from render.adapt import hand_view_from_state, result_view_from_state, table_view_from_state
from render.animate import MOMENTS, animate_moment, animate_wild
from render.chart import render_rating_chart
from render.hand import render_hand
from render.result import render_result
from render.samples import sample_bloodflow_result, sample_result_view
from render.table import render_table
from render.views import SetAside, TableView

NAMES = ("阿明", "小红", "阿华", "小丽")
CHINESE = ("zh-CN", "zh-TW")
ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")  # tile notation (5p, 123m) has one letter


@contextmanager
def labels_drawn() -> Iterator[list[str]]:
    """Every text label drawn meanwhile (style.text_image is where each label is made)."""
    seen: list[str] = []
    original = style.text_image

    def recording(text: str, px: int, colour: style.RGB) -> Image.Image:
        seen.append(text)
        return original(text, px, colour)

    style.text_image = recording  # type: ignore[assignment]
    table_module.text_image = recording  # type: ignore[assignment]
    try:
        yield seen
    finally:
        style.text_image = original
        table_module.text_image = original


def english_in(labels: list[str]) -> list[str]:
    return [label for label in labels if ENGLISH_WORD.search(label)]


def _advanced(preset_id: str, seed: int, actions: int) -> HandState:
    state = HandState(find_preset(preset_id), seed)
    for _ in range(actions):
        seats = state.seats_to_act()
        if not seats:
            break
        state.apply(choose_action(state, seats[0]))
    return state


def _pictures(preset_id: str, language: str) -> list[Callable[[], Image.Image]]:
    """The table at three moments, each seat's hand, and a hand played to its end."""
    count = find_preset(preset_id).seat_counts[0]
    names = NAMES[:count]
    draws: list[Callable[[], Image.Image]] = []
    for actions in (1, 25, 60):
        state = _advanced(preset_id, 4, actions)
        view = table_view_from_state(state, names, table_name="一号桌")
        draws.append(lambda view=view: render_table(view, language))
        for seat in range(count):
            hand = hand_view_from_state(state, seat, table_name="一号桌", player_name=names[seat])
            draws.append(lambda hand=hand: render_hand(hand, language))
    for seed in (1, 2, 3):
        ended = play_out(HandState(find_preset(preset_id), seed))
        result = result_view_from_state(ended, names, table_name="一号桌")
        draws.append(lambda result=result: render_result(result, language))
    return draws


@pytest.mark.parametrize("language", CHINESE)
@pytest.mark.parametrize("preset_id", sorted(PRESETS))
def test_no_english_word_in_a_chinese_picture(preset_id: str, language: str) -> None:
    with labels_drawn() as labels:
        for draw in _pictures(preset_id, language):
            draw()
    assert labels and english_in(labels) == []


def test_the_english_pictures_keep_their_words() -> None:
    with labels_drawn() as labels:
        render_result(sample_result_view())
        render_table(table_view_from_state(_advanced("sichuan-bb", 4, 30), NAMES))
    for words in ("Little three dragons 5", "Limit", "Total", "East round", "Dealer"):
        assert any(words in label for label in labels), words
    assert any(label.startswith("Void ") for label in labels)


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("zh-CN", ("小三元 5", "三元牌 1 ×2", "混一色 3", "自摸 1", "满贯", "合计", "13 番")),
        ("zh-TW", ("小三元 5", "三元牌 1 ×2", "混一色 3", "自摸 1", "滿貫", "合計", "13 番")),
    ],
)
def test_a_hong_kong_win_in_chinese_names_its_patterns_in_hong_kong_terms(
    language: str, words: tuple[str, ...]
) -> None:
    view = sample_result_view()
    view = type(view)(**{**_fields(view), "family": "hkos"})
    with labels_drawn() as labels:
        render_result(view, language)
    for word in words:
        assert any(word in label for label in labels), (word, labels)


def _fields(view: object) -> dict[str, object]:
    return {name: getattr(view, name) for name in view.__slots__}  # type: ignore[attr-defined]


def test_a_sichuan_table_in_traditional_characters() -> None:
    state = _advanced("sichuan-bb", 4, 30)
    with labels_drawn() as labels:
        render_table(table_view_from_state(state, NAMES), "zh-TW")
    assert "東風圈" in labels and "莊家" in labels
    assert any(label.startswith("缺") for label in labels)  # the void suits, 缺萬 / 缺筒 / 缺條
    assert any(label.startswith("餘牌 ") for label in labels)


@pytest.mark.parametrize("language", CHINESE)
def test_moving_pictures_and_the_chart_in_chinese(language: str) -> None:
    with labels_drawn() as labels:
        animate_wild(13, language)
        for moment in MOMENTS:
            animate_moment(moment, (33,), None, language)
        render_rating_chart(
            [1500, 1510, 1490], Text("pictures.chart.hands", {"count": 3}), language
        )
    assert english_in(labels) == []
    assert ("金顶" if language == "zh-CN" else "金頂") in labels


@pytest.mark.parametrize("language", ["en", *CHINESE])
def test_words_as_plain_strings_are_drawn_as_they_are(language: str) -> None:
    """A view field may hold plain words (a snapshot not yet worded per reader): drawn as given."""
    view = table_view_from_state(_advanced("guangdong", 4, 3), NAMES)
    plain = TableView(
        **{**_fields(view), "status": "等待", "set_aside": (SetAside("馬", face_down=1),)}
    )
    with labels_drawn() as labels:
        render_table(plain, language)
    assert "馬" in labels


def test_a_view_holding_texts_is_hashable_for_the_picture_caches() -> None:
    view = table_view_from_state(_advanced("guangdong", 4, 3), NAMES)
    assert isinstance(view.status, Text)
    same = table_view_from_state(_advanced("guangdong", 4, 3), NAMES)
    assert {view: 1}[same] == 1


def test_the_eight_win_blood_flow_result_fits_in_chinese() -> None:
    english = render_result(sample_bloodflow_result())
    for language in CHINESE:
        chinese = render_result(sample_bloodflow_result(), language)
        assert chinese.width == english.width and chinese.height <= english.height
