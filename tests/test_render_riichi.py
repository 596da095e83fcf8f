"""What a Riichi player sees (issue 32): the table's public facts (engine/table_facts.py) in the
table picture, the result picture, the result's lines, the terminal and the standings; each
fact present where it applies, absent where not, and nothing drawn from a hidden tile.

The presets are taken as the Preset objects (engine.families.riichi.presets), playable or not."""

from __future__ import annotations

import dataclasses

import pytest

from bot.runtime.snapshots import PublicSnapshot
from bot.runtime.words import ending_text, fact_lines, standing_lines, win_line, win_texts
from bot.terminal import counters_text, pond_text, table_text
from data import Phase
from engine.families.riichi.presets import RIICHI, RIICHI_MAJSOUL
from engine.families.riichi.rules import DoraPart
from engine.families.riichi.scoring import YAKU_IDS
from engine.game import standings
from engine.hand import HandState
from engine.hand_setup import HandSetup
from engine.i18n import LANGUAGES, Number, text
from engine.presets import find_preset
from engine.scoring.names import pattern_name
from engine.table_facts import TableFacts, table_facts
from engine.tiles import parse_tile, parse_tiles
from render import render_result, render_table
from render import table as table_module
from render.adapt import result_view_from_state, table_view_from_state, win_value
from render.result import limit_words, pattern_line, total_words
from render.standings import StandingRow, StandingsView, render_standings
from render.table import points_text
from render.views import TableView, WinView
from tests import riichi_scenes as scenes
from tests.hands import act
from tests.riichi_scenes import NAMES

BOTH = [RIICHI, RIICHI_MAJSOUL]


def table(state: HandState) -> TableView:
    return table_view_from_state(state, NAMES, table_name="Table 1")


def words(lines: list[object], language: str = "en") -> list[str]:
    return [line.in_language(language) for line in lines]  # type: ignore[attr-defined]


# ------------------------------------------------------------------------------- the table


@pytest.mark.parametrize("preset", BOTH, ids=lambda p: p.id)
def test_the_table_shows_dora_honba_pot_points_and_the_riichi(preset: object) -> None:
    state = scenes.mid_hand(preset)  # type: ignore[arg-type]
    view = table(state)
    (dora,) = view.indicators
    # the deal's indicator and the concealed kong's, turned at once; three still face down
    assert dora.tiles == tuple(parse_tiles("3s3m")) and dora.face_down == 3
    assert (view.honba, view.pot, view.sticks) == (1, 2000, 2)  # one stick before, one now
    assert view.thousands and [s.points for s in view.seats] == [24000, 25000, 25000, 25000]
    assert [s.staked for s in view.seats] == [True, False, False, False]
    # the riichi discard (1z) was called: the dealer's next discard lies sideways
    east = view.seats[0]
    assert east.pond[:2] == tuple(parse_tiles("1z7z")) and 0 in east.claimed
    assert east.turned == {1} and not any(s.turned for s in view.seats[1:])


def test_the_riichi_discard_itself_lies_sideways_when_nobody_calls_it() -> None:
    state = HandState.arranged(RIICHI, scenes.RIICHI_HANDS, setup=HandSetup(points=scenes.POINTS))
    act(state, "0 riichi 1z")
    view = table(state)
    assert view.seats[0].turned == {0}
    assert not view.seats[0].staked and view.sticks == 0  # the stick waits for the claims
    act(state, "2 pass")
    assert table(state).seats[0].staked and table(state).sticks == 1


def test_a_table_of_another_family_shows_none_of_it() -> None:
    state = HandState(find_preset("hkos-3-v1"), 3)
    assert table_facts(state) == TableFacts()
    view = table(state)
    assert view.indicators == () and view.honba is None and view.pot is None
    assert view.sticks is None and not view.thousands
    assert not any(s.staked or s.turned for s in view.seats)


def test_points_read_in_thousands_at_a_table_of_thousands() -> None:
    assert points_text(25000, True, "en") == "25.0k pts"
    assert points_text(-1300, True, "zh-CN") == "−1.3k 分"
    assert points_text(30, False, "en") == "30 pts"
    assert Number(24300, thousands=True).in_language("zh-TW") == "24.3"


def test_a_sideways_tile_pushes_the_rest_of_its_row_along() -> None:
    view = table(scenes.mid_hand())
    plan = table_module.plan_table(view)
    xs = [x for _, x, _ in plan.seats[0].pond]
    step = table_module.POND + 1
    assert xs[1] - xs[0] == step  # the sideways tile starts where an upright one would
    assert xs[2] - xs[1] == step + table_module._turn_extra()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_riichi_pictures_draw_in_every_language(language: str) -> None:
    for scene in (scenes.mid_hand, scenes.riichi_win):
        assert render_table(table(scene()), language).size == (864, 648)
    for scene in (scenes.riichi_win, scenes.double_ron, scenes.exhaustive_draw):
        image = render_result(result_view_from_state(scene(), NAMES), language)
        assert image.width == 800


# ------------------------------------------------------------------------------- hidden tiles


def with_back(back: str) -> HandState:
    """The mid-hand table with another dead wall behind its turned indicators."""
    setup = HandSetup(honba=1, pot=1000, points=scenes.POINTS)
    state = HandState.arranged(
        RIICHI, scenes.RIICHI_HANDS, draws="9p7z3m2z", replacements=back, setup=setup
    )
    act(state, "0 riichi 1z", "2 pung 1z", "2 discard 5s", "3 discard 9p", "0 discard 7z")
    act(state, "1 discard 3m", "2 concealed_kong 2z")
    scenes.quietly(state, 3)
    return state


def test_the_dead_walls_hidden_tiles_never_reach_the_table() -> None:
    # the same turned indicators and replacement drawn; the ura indicators, the unturned
    # indicators and the replacements still in the dead wall differ
    other = scenes.dead_wall("8p9m9m9m", "9p9p9p7p7p", "3s3m7z7z7z")
    assert other != scenes.BACK
    assert table(with_back(scenes.BACK)) == table(with_back(other))
    assert table_facts(with_back(scenes.BACK)) == table_facts(with_back(other))


def test_ura_indicators_only_after_a_riichi_win() -> None:
    for state in (scenes.mid_hand(), scenes.double_ron(), scenes.exhaustive_draw()):
        assert table_facts(state).indicator("ura") is None
        if state.is_over:
            kinds = [item.label for item in result_view_from_state(state, NAMES).set_aside]
            assert text("pictures.indicators.ura") not in kinds
    state = scenes.riichi_win()
    ura = table_facts(state).indicator("ura")
    dora = state.part_of(DoraPart)
    assert dora is not None and ura is not None and ura.tiles == dora.ura_indicators()
    assert ura.tiles == (parse_tile("1p"),)
    assert not any(seat.staked for seat in table(state).seats)  # the win took the stick
    labels = [item.label for item in result_view_from_state(state, NAMES).set_aside]
    assert labels == [text("pictures.indicators.dora"), text("pictures.indicators.ura")]


# ------------------------------------------------------------------------------- the result


def test_a_riichi_win_names_its_yaku_fu_limit_ura_and_payments() -> None:
    view = result_view_from_state(scenes.riichi_win(), NAMES)
    (win,) = view.wins
    assert dict(win.patterns) == {"ippatsu": 1, "double_riichi": 2, "ura_dora": 1}
    assert (win.total, win.fu, win.limit) == (4, 40, True)
    assert total_words(win, view.unit, "en") == "40 fu 4 han 12,000"  # as Tenhou: 40符4飜 12000点
    assert total_words(win, view.unit, "zh-CN") == "40符 4 番 12,000"
    assert limit_words(win, "en") == "Mangan" and limit_words(win, "zh-TW") == "滿貫"
    assert "Double riichi 2" in pattern_line(win, view.family)
    assert "两立直 2" in pattern_line(win, view.family, "zh-CN")
    # the dealer's mangan ron: 12,000, and the own stick back from the pot: +13,000 as Tenhou
    # shows it (the stick left Ann's points at the riichi); the Pot row kept, not netted to 0
    assert dict(view.payments) == {"Ann": 13000, "Bo": -12000, "Cy": 0, "Di": 0}
    assert view.other_payments == ((text("pictures.result.row_pot.riichi"), (("Ann", 1000),)),)


def test_a_yakuman_is_named_not_counted() -> None:
    win = WinView(
        "Ann",
        (),
        parse_tile("5z"),
        patterns=(("daisangen", 13),),
        total=13,
        limit=True,
        limit_name=text("pictures.limit.yakuman"),
        limit_patterns=frozenset({"daisangen"}),
    )
    assert pattern_line(win, "riichi") == "Daisangen Yakuman"
    assert pattern_line(win, "riichi", "zh-CN") == "大三元 役满"
    assert limit_words(dataclasses.replace(win, limit_name=""), "en") == "Limit"


def test_a_double_ron_shows_both_wins_and_the_honba_with_the_first() -> None:
    view = result_view_from_state(scenes.double_ron(), NAMES)
    assert [w.winner for w in view.wins] == ["Bo", "Cy"]
    first, second = view.wins
    assert [n.in_language("en") for n in first.notes] == ["2 honba +600"]  # type: ignore[union-attr]
    assert second.notes == ()
    pot = dict(view.other_payments)[text("pictures.result.row_pot.riichi")]
    assert dict(pot) == {"Bo": 2000}
    assert dict(view.payments) == {"Ann": -5800, "Bo": 5200, "Cy": 2600, "Di": 0}


def test_an_exhaustive_draw_says_who_was_tenpai_and_the_tenpai_payments() -> None:
    state = scenes.exhaustive_draw()
    view = result_view_from_state(state, NAMES)
    assert view.is_draw and view.note == text("pictures.result.wall_ran_out")
    assert [d.in_language("en") for d in view.details] == ["Tenpai: Ann, Cy"]  # type: ignore[union-attr]
    assert [d.in_language("zh-CN") for d in view.details] == ["听牌：Ann、Cy"]  # type: ignore[union-attr]
    checks = dict(view.other_payments)[text("pictures.result.row_wall_draw")]
    assert dict(checks) == {"Ann": 1500, "Bo": -1500, "Cy": 1500, "Di": -1500}


def test_nagashi_mangan_is_named() -> None:
    state = scenes.exhaustive_draw()
    state.ponds[1][:] = parse_tiles("19m19p19s1234567z")  # as in test_riichi_rules
    facts = table_facts(state)
    assert facts.nagashi == (1,)
    from render.adapt import ending_details

    assert [d.in_language("en") for d in ending_details(facts, NAMES)] == ["Nagashi mangan: Bo"]


@pytest.mark.parametrize(
    ("scene", "ending", "english"),
    [
        (scenes.nine_terminals, "nine_terminals", "Nine terminals and honours: abortive draw"),
        (scenes.four_winds, "four_winds", "Four winds discarded: abortive draw"),
        (scenes.triple_ron, "winners", "Triple ron: abortive draw"),
    ],
)
def test_an_abortive_draw_names_its_kind(scene: object, ending: str, english: str) -> None:
    state = scene()  # type: ignore[operator]
    assert table_facts(state).ending == ending
    view = result_view_from_state(state, NAMES)
    assert view.is_draw and view.note.in_language("en") == english  # type: ignore[union-attr]
    assert view.details == ()  # nobody's tenpai is told at an abortive draw
    outcome = state.outcome()
    assert outcome is not None
    said = ending_text(state, outcome.termination.value).in_language("en")
    assert said.endswith("an abortive draw") and said != "an abortive draw"


def test_triple_ron_pays_all_three_at_mahjong_soul() -> None:
    state = scenes.triple_ron(RIICHI_MAJSOUL)
    assert table_facts(state).ending == ""
    assert len(result_view_from_state(state, NAMES).wins) == 3


# ------------------------------------------------------------------------------- in words


def test_the_result_lines_tell_han_fu_limit_indicators_honba_and_pot() -> None:
    state = scenes.riichi_win()
    outcome = state.outcome()
    assert outcome is not None
    (win,) = outcome.wins
    assert win_line(win, NAMES, "han").in_language("en") == (
        "Ann won by a discard from Bo: 40 fu 4 han, mangan"
    )
    # the hand's own value in points after its fu and han, as Tenhou writes it
    valued = win_line(win, NAMES, "han", "riichi", win_value(state, win))
    assert valued.in_language("en") == "Ann won by a discard from Bo: 40 fu 4 han, mangan 12,000"
    assert valued.in_language("zh-CN").endswith("40符4番，满贯 12,000点")
    told = words(win_texts(win, state, NAMES))  # type: ignore[arg-type]
    assert not any(line.startswith("Payment") for line in told)  # the result says it in order
    assert "(ippatsu 1, double riichi 2, ura dora 1)" in told[0]
    assert words(fact_lines(state, NAMES)) == [  # type: ignore[arg-type]
        "Dora indicators 3s; ura indicators 1p.",
        "Riichi sticks: Ann takes 1,000 from the pot.",
    ]
    double = words(fact_lines(scenes.double_ron(), NAMES), "zh-CN")  # type: ignore[arg-type]
    assert double == ["宝牌指示牌 3z。", "2本场：Bo +600。", "供托：Bo 收取 2,000。"]
    draw = words(fact_lines(scenes.exhaustive_draw(), NAMES))  # type: ignore[arg-type]
    assert draw[0] == "Dora indicators 4z." and len(draw) == 3  # the ready hands laid open
    assert draw[1].startswith("Ann was tenpai: ") and draw[2].startswith("Cy was tenpai: ")


def test_the_terminal_prints_the_same_facts() -> None:
    view = table(scenes.mid_hand())
    counters = counters_text(view, "en")
    # the hand's name ('East 1, 1 honba') says the honba: the counters say only the pot
    assert view.hand_name == text(
        "bot.hand_name.riichi.honba", hand=view.hand_name.fields["hand"], honba=1
    )  # type: ignore[union-attr]
    assert counters == " · Dora indicators 3s3m (+3 face down) · pot 2,000"
    assert pond_text(view.seats[0]) == "(1z) [7z] 1m"
    snapshot = PublicSnapshot(
        1, text("bot.table.title", table=1), None, None, None, "hkos-3-v1", "", "", "", False,
        "public", text("bot.clock.untimed"), Phase.PLAYING, 4, (), text("bot.status.hand_over"),
        table_view=view,
    )  # fmt: skip
    lines = table_text(snapshot, "en").splitlines()
    assert lines[0].startswith("--- East 1, 1 honba · wall ")
    assert "Dora indicators 3s3m" in lines[0] and "riichi" in lines[1] and "riichi" not in lines[2]
    assert "宝牌指示 3s3m（另3张未翻）" in table_text(snapshot, "zh-CN")
    plain = table(HandState(find_preset("hkos-3-v1"), 3))
    assert counters_text(plain, "en") == ""


# ------------------------------------------------------------------------------- game end


@pytest.mark.parametrize(
    ("preset", "scores"),
    [(RIICHI, ["+53", "+8", "-20", "-41"]), (RIICHI_MAJSOUL, ["+32.6", "+8.4", "-10.4", "-30.6"])],
    ids=["tenhou", "majsoul"],
)
def test_the_standings_show_place_points_and_the_final_score(
    preset: object, scores: list[str]
) -> None:
    points = (42600, 28400, 19600, 9400)
    rows = tuple(
        StandingRow(s.place, NAMES[s.player], s.points, s.score)
        for s in sorted(standings(preset.game, points), key=lambda s: s.place)  # type: ignore[attr-defined]
    )
    view = StandingsView("Table 1", "Riichi", 8, rows)
    lines = words(standing_lines(view))  # type: ignore[arg-type]
    assert [line.rsplit(" ", 1)[-1] for line in lines] == scores
    assert "42,600" in lines[0] and lines[0].startswith("1.")
    for language in LANGUAGES:
        assert render_standings(view, language).width == 800


# ------------------------------------------------------------------------------- yaku names


def test_every_yaku_is_named_in_every_language() -> None:
    ids = {*YAKU_IDS.values(), "nuki_dora"}
    for yaku in ids:
        english = pattern_name("riichi", yaku, "en")
        assert english and "_" not in english
        for language in ("zh-CN", "zh-TW"):
            name = pattern_name("riichi", yaku, language)
            assert name and all("\u4e00" <= ch <= "\u9fff" for ch in name), (yaku, name)
    assert pattern_name("riichi", "tanyao", "zh-CN") == "断幺九"
    assert pattern_name("riichi", "menzen_tsumo", "zh-TW") == "門前清自摸和"


def test_tenpai_payments_are_said_in_riichi_words() -> None:
    from bot.runtime.words import payment_line
    from engine.settlement import PaymentDetail, Reason

    paid = PaymentDetail((Reason.NOT_READY,), (1500, -1500, 1500, -1500))
    names = ("Ann", "Bo", "Cy", "Di")
    riichi = payment_line(paid, names, "riichi")
    assert (
        riichi.in_language("en") == "Tenpai payments: Ann +1,500, Bo -1,500, Cy +1,500, Di -1,500."
    )
    assert riichi.in_language("zh-CN").startswith("不听罚符")
    assert payment_line(paid, names).in_language("en").startswith("Wall-draw check")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", ["Computer 2", "Computer 22", "Computer player 2"])
def test_the_latest_discards_name_keeps_clear_of_the_sticks_in_sanma(
    language: str, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from render.adapt import engine_table_view
    from render.sticks import stick_sprite

    view = engine_table_view("sanma", 5, 45)  # South to play: the sticks in the left corner
    assert view.turn == 1 and view.latest is not None and view.sticks == 1
    named = [dataclasses.replace(seat, name=name) for seat in view.seats]
    view = dataclasses.replace(view, seats=tuple(named))
    labels: list[tuple[str, int, int, bool]] = []  # text, left, right, centred
    paste_text = table_module.paste_text

    def recording(
        canvas: object, xy: tuple[int, int], text: str, *rest: object, **k: object
    ) -> int:
        width = paste_text(canvas, xy, text, *rest, **k)  # type: ignore[arg-type]
        centred = k.get("align") == "c"
        left = xy[0] - width // 2 if centred else xy[0]
        labels.append((text, left, left + width, centred))
        return width

    monkeypatch.setattr(table_module, "paste_text", recording)
    render_table(view, language)
    stick = stick_sprite(1000).width + 6
    counters = [(left - stick, right) for text, left, right, _ in labels if text.startswith("×")]
    # the discarder's name under the latest discard: the one name drawn centred
    (under,) = [label for label in labels if label[0][:4] == name[:4] and label[3]]
    assert len(counters) == 2
    assert all(under[2] < left or under[1] > right for left, right in counters), (under, counters)
