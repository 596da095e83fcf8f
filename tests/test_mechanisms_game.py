"""One test preset with every mechanism issue 30 built (tests/rule_presets.py MECHANISMS): rule
owned declarations (a tile laid aside; a stake made with a discard), abortive draws, pot
payments, red fives, a game of six hands with placements and a final score, honba and the pot
carried from hand to hand. A whole game plays through the runtime, the terminal (`play`,
scripted) and its pictures; tests/test_discord_mechanisms.py plays it on the fake Discord."""

from __future__ import annotations

import io
import re
from argparse import Namespace
from collections.abc import Iterator

import pytest
from PIL import Image

from bot.runtime.manager import Runtime
from bot.runtime.snapshots import PublicSnapshot
from bot.runtime.timers import ManualTimers
from bot.terminal import play
from data import Phase, Store
from engine.computer.easy import choose_action
from engine.i18n import worded
from engine.tiles import is_red
from tests.game_presets import registered
from tests.rule_presets import LAY_ASIDE, MECHANISMS, STAKE, declaring
from tests.test_runtime import PLAYERS, Recorder, play_out

SEED = 7  # a game with stakes, a tile laid aside, an abortive draw and a pot carried


class Keeper(Recorder):
    """A recorder that keeps the public snapshots too."""

    def __init__(self) -> None:
        super().__init__()
        self.public: list[PublicSnapshot] = []

    async def table_changed(self, snapshot: PublicSnapshot) -> None:
        self.public.append(snapshot)
        await super().table_changed(snapshot)


@pytest.fixture(autouse=True)
def mechanisms() -> Iterator[None]:
    with registered(MECHANISMS):
        yield


async def test_a_game_of_every_mechanism_plays_through_the_runtime_to_its_standings(
    store: Store,
) -> None:
    front = Keeper()
    runtime = Runtime(store, front, ManualTimers(), seed_source=lambda: SEED)
    await runtime.open()
    table = await runtime.create_table(
        MECHANISMS.id, creator_id=PLAYERS[0][0], creator_name=PLAYERS[0][1], rated=True
    )
    for player_id, name in PLAYERS[1:]:
        await runtime.join(table.id, player_id, name)
    await runtime.start_table(table.id, PLAYERS[0][0])
    seen: set[str] = set()
    dealt: list[tuple[int, int]] = []
    while True:
        session, hand = table.session, table.hand
        assert session is not None and hand is not None
        assert (hand.setup.honba, hand.setup.pot) == (session.honba, session.pot)
        dealt.append((hand.setup.honba, hand.setup.pot))
        await play_out(runtime, table, declaring(choose_action))
        seen |= {a.kind.value for a in hand.log if a.kind in (LAY_ASIDE, STAKE)}
        seen |= {"red five" for a in hand.log if any(map(is_red, a.tiles))}
        outcome = hand.outcome()
        assert outcome is not None
        seen.add(outcome.termination.value)
        seen |= {"pot payment" for p in outcome.payments if p.payer < 0 or p.payee < 0}
        assert sum(session.points) + session.pot == MECHANISMS.start_points * 4
        if table.phase is Phase.GAME_OVER:
            break
        for player_id, _ in PLAYERS:
            await runtime.ready(table.id, player_id)
    assert {"lay_aside", "stake", "red five", "abortive_draw", "win", "pot payment"} <= seen
    assert any(honba for honba, _ in dealt) and any(pot for _, pot in dealt)
    assert len(dealt) == MECHANISMS.game.hands and session.over and session.pot == 0
    stored = await store.game_result(table.id)
    assert stored is not None and stored.hands == 6 and stored.rates
    assert sorted(s.place for s in stored.standings) == [1, 2, 3, 4]
    assert [s.score for s in stored.standings] == [s.score for s in session.standings()]
    last = front.public[-1]
    assert last.phase is Phase.GAME_OVER and last.standings is not None
    lines = [worded(line, "en") for line in last.events]
    assert "Final standings" in lines


def _answers(out: io.StringIO) -> Iterator[str]:
    """A person at the terminal: a declaration whenever the menu offers one (a stake typed by
    its name, then the tile the question offers), else Enter (the suggestion)."""
    shown = 0
    for _ in range(5000):
        said = out.getvalue()[shown:]
        shown = len(out.getvalue())
        asked = re.search(r"'(stake \w+)'", said)
        if asked:  # "Which discard … with a stake into the pot? Type 'stake 4z' or ..."
            yield asked.group(1)
        elif "with a stake into the pot" in said:
            yield "stake"
        elif (laid := re.search(r"(\d+)\. set \w+ aside", said)) is not None:
            yield laid.group(1)
        else:
            yield ""
    raise AssertionError("the game did not end")


async def test_the_terminal_plays_a_game_of_every_mechanism_with_its_pictures(tmp_path) -> None:
    out = io.StringIO()
    answers = _answers(out)
    args = Namespace(
        preset=MECHANISMS.id, seed=SEED, images=str(tmp_path), hands=0, time=None,
        players=None, level="easy", lang="en",
    )  # fmt: skip
    assert await play(args, lambda: next(answers), out, ManualTimers()) == 0
    said = out.getvalue()
    assert "with a stake into the pot" in said and "Final standings" in said
    assert "The game is over. Goodbye." in said
    for name in ("hand.png", "table.png", "standings.png"):
        with Image.open(tmp_path / name) as picture:
            assert picture.width >= 400
    assert list(tmp_path.glob("result-*.png"))
