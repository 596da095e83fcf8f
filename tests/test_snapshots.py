"""The public snapshot is built from nothing a seat hides (RULES.md "Hidden information stays
hidden"): two tables with the same public history whose seats hold different concealed tiles
(in the same numbers) give the same public snapshot, the same picture and the same message.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from bot.discord.pictures import draw
from bot.discord.surface import result_surface, table_surface
from bot.runtime import LiveTable, Seat
from bot.runtime.snapshots import private_snapshot, public_moment, public_snapshot
from data import Phase, TableOptions
from engine.actions import ActionKind
from engine.computer.easy import choose_action
from engine.computer.simulate import play_out
from engine.events import Phase as HandPhase
from engine.hand import HandState
from engine.i18n import worded
from engine.presets import PRESETS
from engine.rules import AfterWinPart
from engine.session import Session
from engine.table_facts import table_facts
from engine.tiles import counts_of, is_bonus

NAMES = ("Ann", "Bob", "Cat", "Dan")


def live_table(hand: HandState, humans: int) -> LiveTable:
    """A table around `hand` as the runtime would hold it (some seats people, some computers)."""
    count = len(hand.hands)
    session = Session(hand.preset, 1)
    seats: list[Seat | None] = [
        Seat(str(100 + p), NAMES[p]) if p < humans else Seat(f"cpu:{p}", f"Computer {p}")
        for p in range(count)
    ]
    phase = Phase.PLAYING if not hand.is_over else Phase.BETWEEN_HANDS
    table = LiveTable(
        7, hand.preset, TableOptions(time_control="blitz"), 1, 2, "", seats, phase, session, hand
    )
    table.hand_id = 1
    table.deadline = 1_700_000_042.0 if not hand.is_over else None
    return table


def hidden_elsewhere(state: HandState, rng: random.Random) -> HandState:
    """The same public history with the concealed tiles dealt out differently: every seat whose
    hand is hidden keeps its number of tiles, the tiles come from the hidden pool (those hands and
    the wall), and a claim window waits for other seats."""
    other = copy.deepcopy(state)
    locked = other.require(AfterWinPart).locked
    # a wall draw lays the ready hands open where being ready is paid (Riichi's tenpai hands)
    shown_hands = set(table_facts(other).ready or ()) if other.is_over else set()
    hidden = [s for s in other.seats_in_play() if not locked[s] and s not in shown_hands]
    # the dead wall's indicator positions stay: their turned tiles are public (Riichi's dora)
    wall_part = other.wall_part
    rule = wall_part.rule
    shown = range(wall_part.dead_end - rule.dead_wall, wall_part.dead_end - rule.replacements)
    shown = shown if rule.replacements else range(0)
    wall_slots = [
        i for i in range(other.front, other.back) if not is_bonus(other.wall[i]) and i not in shown
    ]
    pool = [t for seat in hidden for t in other.hands[seat]] + [other.wall[i] for i in wall_slots]
    rng.shuffle(pool)
    for seat in hidden:
        for tile in list(other.hands[seat]):
            other._remove(seat, tile)  # the engine's own bookkeeping of per-seat counts
    for seat in hidden:
        size = len(state.hands[seat])
        for tile in pool[:size]:
            other._add(seat, tile)
        del pool[:size]
    for slot, tile in zip(wall_slots, pool, strict=True):
        other.wall[slot] = tile
    if other.drawn is not None and other.turn in hidden and other.phase is HandPhase.TURN:
        other.drawn = other.hands[other.turn][-1]
    if other.phase in (HandPhase.CLAIMS, HandPhase.ROB):
        source = other.claim_from
        candidates = [s for s in hidden if s != source]
        waiting = rng.sample(candidates, rng.randint(1, len(candidates))) if candidates else []
        other.pending = {seat: None for seat in waiting}
    other._legal_cache.clear()  # what each seat may do follows from its (new) tiles
    if other.window is not None:
        other.window.options.clear()
    for seat in range(len(other.hands)):  # the mutation kept the engine's invariants
        assert other.tile_counts(seat) == counts_of(other.hands[seat])
    return other


def payload(snapshot: object) -> str:
    surface = table_surface(snapshot, "general")  # type: ignore[arg-type]
    embed = surface.embed.to_dict() if surface.embed else {}
    components = surface.view.to_components() if surface.view else []
    parts = [surface.content, embed, components, surface.filename]
    if snapshot.ended:  # type: ignore[attr-defined]
        result = result_surface(snapshot, "general")  # type: ignore[arg-type]
        parts += [result.content, result.embed.to_dict() if result.embed else {}]
    return json.dumps(parts, sort_keys=True, default=str)


def states(preset_id: str, seed: int) -> list[HandState]:
    """Moments of one hand played by a mix of the computer's and random legal moves."""
    rng = random.Random(seed)
    hand = HandState(PRESETS[preset_id], seed)
    moments = [copy.deepcopy(hand)]
    while not hand.is_over:
        seat = hand.seats_to_act()[0]
        legal = hand.legal_actions(seat)
        action = choose_action(hand, seat) if rng.random() < 0.6 else rng.choice(legal)
        hand.apply(action)
        if rng.random() < 0.3 or hand.phase is not HandPhase.TURN:
            moments.append(copy.deepcopy(hand))
    moments.append(hand)
    return moments


@pytest.mark.parametrize("preset_id", sorted(PRESETS))
def test_the_public_snapshot_does_not_depend_on_hidden_tiles(preset_id: str) -> None:
    rng = random.Random(preset_id)
    phases: set[HandPhase] = set()
    played: set[str] = set()
    drawn_pictures = 0
    for seed in range(4):
        for state in states(preset_id, seed):
            phases.add(state.phase)
            played.update(a.kind.value for a in state.log)
            for humans in (1, len(state.hands)):
                one = public_snapshot(live_table(state, humans), ended=state.is_over)
                other_state = hidden_elsewhere(state, rng)
                other = public_snapshot(live_table(other_state, humans), ended=state.is_over)
                assert one == other, (preset_id, seed, state.describe())
                assert payload(one) == payload(other)
                if rng.random() < 0.04:  # drawing is slow: a sample of the pictures
                    assert one.table_view is not None and other.table_view is not None
                    assert draw(one.table_view) == draw(other.table_view)
                    drawn_pictures += 1
    assert drawn_pictures
    assert {HandPhase.TURN, HandPhase.CLAIMS, HandPhase.OVER} <= phases
    if PRESETS[preset_id].openings:
        assert HandPhase.OPENING in phases
    assert DECLARED_IN_PLAY.get(preset_id, set()) <= played


# the declarations of a preset's own parts the hands above are known to reach (sanma's nuki sets
# a north aside in public, its replacement draw hidden)
DECLARED_IN_PLAY = {"sanma": {"nuki"}}


def test_the_mutation_really_hides_other_tiles() -> None:
    """The test above would prove nothing if the two tables held the same tiles."""
    state = states("hkos-3-v1", 1)[5]
    other = hidden_elsewhere(state, random.Random(3))
    assert [len(h) for h in other.hands] == [len(h) for h in state.hands]
    assert [sorted(h) for h in other.hands] != [sorted(h) for h in state.hands]
    # and the private snapshots, which may show them, do differ
    assert private_snapshot(live_table(state, 4), 0) != private_snapshot(live_table(other, 4), 0)


def test_claim_windows_show_the_same_buttons_whoever_may_claim() -> None:
    seen: dict[str, set[tuple[str, ...]]] = {}
    for preset_id in sorted(PRESETS):
        for state in states(preset_id, 2):
            if state.phase in (HandPhase.CLAIMS, HandPhase.ROB):
                calls = public_snapshot(live_table(state, len(state.hands))).calls
                seen.setdefault(preset_id, set()).add(calls)
    for preset_id, sets in seen.items():
        chow = ("chow",) if PRESETS[preset_id].chow else ()
        assert sets == {(*chow, "pung", "kong", "win", "pass")}, preset_id


def test_the_public_moment_ignores_how_many_answered_a_window() -> None:
    state = next(s for s in states("hkos-3-v1", 1) if s.phase is HandPhase.CLAIMS)
    moment = public_moment(state)
    seat = state.seats_to_act()[0]
    pass_action = next(a for a in state.legal_actions(seat) if a.kind is ActionKind.PASS)
    state.apply(pass_action)
    if state.phase is HandPhase.CLAIMS:  # others still to answer: the same moment
        assert public_moment(state) == moment
    else:
        assert public_moment(state) > moment


def test_between_hands_each_total_counts_the_finished_hand_once() -> None:
    """The result said alice -96 total -96; the table message with Ready said -192."""
    seed = next(s for s in range(50) if any(play_out(HandState(PRESETS["hkos-3-v1"], s)).points))
    hand = play_out(HandState(PRESETS["hkos-3-v1"], seed))
    table = live_table(hand, 4)
    assert table.session is not None and table.phase is Phase.BETWEEN_HANDS
    table.session.finish_hand(hand.outcome())  # as the runtime does when a hand ends
    totals = [table.session.points[table.player_at(wind)] for wind in range(4)]
    public = public_snapshot(table, ended=True)
    assert [seat.points for seat in public.seats] == totals
    assert public.result is not None and [t for _, _, t in public.result.points] == totals
    assert public.table_view is not None
    assert [seat.points for seat in public.table_view.seats] == totals


def test_computer_names_in_pictures_are_in_the_readers_language() -> None:
    """The table picture names a computer seat 电脑 n to a Chinese server, as its text does."""
    from engine.i18n import worded

    state = states("hkos-3-v1", 0)[0]
    view = public_snapshot(live_table(state, 1)).table_view
    assert view is not None
    names = {lang: sorted(worded(s.name, lang) for s in view.seats) for lang in ("en", "zh-TW")}
    assert names["en"] == ["Ann", "Computer 1", "Computer 2", "Computer 3"]
    assert names["zh-TW"] == ["Ann", "電腦 1", "電腦 2", "電腦 3"]


def test_a_results_lines_name_the_computers_in_the_readers_language() -> None:
    """A finished hand's points lines and result post say 电脑 n to a Chinese reader."""
    from engine.i18n import worded

    hand = play_out(HandState(PRESETS["sichuan-bb"], 4))
    table = live_table(hand, 1)
    assert table.session is not None
    table.session.finish_hand(hand.outcome())
    public = public_snapshot(table, ended=True)
    assert public.result is not None
    lines = [worded(line, "zh-CN") for line in public.result.lines]
    names = sorted(worded(name, "zh-CN") for name, _, _ in public.result.points)
    assert names == ["Ann", "电脑 1", "电脑 2", "电脑 3"]
    assert all("Computer" not in line for line in lines)
    assert any("电脑 2" in line for line in lines)
    post = result_surface(public, "general", language="zh-CN")
    embed = json.dumps(post.embed.to_dict() if post.embed else {}, ensure_ascii=False)
    assert "Computer" not in embed and "电脑 1" in embed


@pytest.mark.parametrize(("language", "title"), [("zh-CN", "7号桌"), ("zh-TW", "7號桌")])
def test_the_hand_pictures_title_is_in_the_readers_language(language: str, title: str) -> None:
    """The DM's hand picture says which table in the reader's language, as the table picture
    does (it was worded in English before the reader was known)."""
    state = states("hkos-3-v1", 1)[5]
    view = private_snapshot(live_table(state, 4), 0).hand_view
    assert view is not None
    assert worded(view.table_name, language) == title
    assert worded(view.table_name, "en") == "Table #7"
