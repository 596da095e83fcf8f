"""Found by a real client playing whole games (issue 43 item 8): the sticks left on the table at
the game's end go to the leader, said and counted in its change; the rules text of each preset
from its data (Tenhou's triple ron, a win needs a yaku); the README says which rated clock each
preset plays."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from bot.discord.cogs.reference import rules_embed
from bot.runtime.snapshots import public_snapshot
from bot.runtime.table import LiveTable, Seat, TableOptions
from data import Phase
from engine.computer.easy import choose_action
from engine.families.riichi.presets import RIICHI
from engine.presets import PRESETS, find_preset
from engine.session import Seating, Session

TONPUU = replace(RIICHI, game=replace(RIICHI.game, rounds=1))


def _last_hand_with_sticks_left() -> tuple[Session, object]:
    """East 4 of a tonpuu game with 2,000 in sticks on the table and a leader at 40,000: played
    out by the easy computer until a seed ends the game with the sticks still there."""
    for seed in range(40):
        session = Session(
            TONPUU, seed, dealer=3, dealer_changes=3, points=[40000, 20000, 20000, 18000], pot=2000
        )
        hand = session.new_hand()
        while hand.outcome() is None:
            seat = next(s for s in range(4) if hand.legal_actions(s))
            hand.apply(choose_action(hand, seat))
        outcome = hand.outcome()
        assert outcome is not None
        session.finish_hand(outcome)
        if session.over and session.pot_to_leader is not None and not outcome.wins:
            return session, hand
    raise AssertionError("no seed ended the game with the sticks on the table")


def test_the_sticks_left_at_the_game_s_end_are_said_and_counted_for_the_leader() -> None:
    session, hand = _last_hand_with_sticks_left()
    leader, amount = session.pot_to_leader  # type: ignore[misc]
    assert leader == 0 and amount >= 2000
    seats = [Seat("100", "Ann"), *(Seat(f"cpu:{p}", f"Computer {p}") for p in (1, 2, 3))]
    table = LiveTable(
        7, TONPUU, TableOptions(time_control="blitz"), 1, 2, "", seats, Phase.GAME_OVER,
        session, hand, seating=Seating(3, 4),  # type: ignore[arg-type]
    )  # fmt: skip
    public = public_snapshot(table, ended=True)
    assert public.result is not None
    said = [str(line) for line in public.result.lines]
    line = f"the leader, takes them (+{amount:,})."
    assert any(
        s.startswith("The game is over with riichi sticks") and s.endswith(line) for s in said
    )
    by_name = {str(name): (delta, total) for name, delta, total in public.result.points}
    delta, total = by_name["Ann"]
    assert total == session.points[0] and delta == total - 40000  # counted in the change
    view = public.result.view
    assert dict(view.payments)["Ann"] == delta
    assert any(label.key == "pictures.result.row_pot_leader" for label, _ in view.other_payments)  # type: ignore[union-attr]


def test_each_riichi_preset_s_rules_come_from_its_data() -> None:
    def said(preset_id: str) -> str:
        return " ".join(str(f.value) for f in rules_embed(find_preset(preset_id)).fields)

    tenhou = said("riichi")
    assert "up to 2 win; 3 abort the hand" in tenhou and "all of them win" not in tenhou
    assert "at least one yaku" in tenhou and "no minimum" not in tenhou
    assert "chi (from the player on the left), pon, kan" in tenhou and "pung" not in tenhou
    assert "several wins on one discard: all of them win" in said("riichi-majsoul")
    assert "pon and kan (no chi)" in said("sanma") and "108 tiles with red fives" in said("sanma")
    assert "chow, pung, kong" in said("hkos-3-v1")  # the Chinese family keeps its words


def test_the_readme_names_each_preset_s_rated_clock() -> None:
    readme = Path(__file__).parents[1].joinpath("README.md").read_text(encoding="utf-8")
    start = readme.index("A rated table that chooses no clock")
    said = readme[start : readme.index("Quick Play uses", start)]
    clauses = re.findall(r"`(\w+)` at ([^;]+)", said)  # "`standard` at the Riichi presets (…)"
    clock_of = {found: clock for clock, ids in clauses for found in re.findall(r"`([\w-]+)`", ids)}
    for preset in PRESETS.values():
        if preset.rated_time_control != "table":  # the seed-004 tables' clock, said apart
            assert clock_of[preset.id] == preset.rated_time_control, preset.id
