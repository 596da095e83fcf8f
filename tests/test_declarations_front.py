"""The front ends offer a rule's own declarations in words: the part declares its label key,
the Discord controls and the terminal word the action from it (en, zh-CN, zh-TW), and a
declaration made with a discard asks which tile, offering only the tiles the rule allows."""

from __future__ import annotations

import pytest

from bot.discord import ids
from bot.discord.surface import hand_controls
from bot.runtime.snapshots import Decision
from bot.terminal import Ask, read_answer
from engine.actions import Action
from engine.hand import HandState
from tests.rule_presets import LAY_ASIDE, MECHANISMS, STAKE
from tests.test_discord_units import components, flat

# seat 0 may set its north aside, and stake with the north or the white (either leaves it
# waiting on the other)
HANDS = ["123m456m789m111p4z5z", "123s456s789s11s99p", "234m567m234p567p9s", "345m678m345p678p9s"]


def turn() -> Decision:
    hand = HandState.arranged(MECHANISMS, HANDS)
    return Decision(
        hand.decision_version,
        "turn",
        hand.legal_actions(0),
        None,
        None,
        labels=tuple(hand.declaration_labels.items()),
        with_discard=hand.declared_with_discard,
    )


def test_the_parts_declare_their_words_and_which_declaration_takes_a_discard() -> None:
    decision = turn()
    assert dict(decision.labels) == {
        "lay_aside": "bot.declare.set_aside",
        "stake": "bot.declare.stake",
    }
    assert decision.with_discard == frozenset({"stake"})
    stakes = [a for a in decision.actions if a.kind is STAKE]
    assert [str(a) for a in stakes] == ["0 stake 4z", "0 stake 5z"]  # only discards left ready


@pytest.mark.parametrize(
    ("language", "lay_aside", "stake"),
    [
        ("en", "set 4z aside (and draw a replacement)", "discard 5z with a stake into the pot"),
        ("zh-CN", "拔出4z（并补一张）", "押一注入池，打出5z"),
        ("zh-TW", "拔出4z（並補一張）", "押一注入池，打出5z"),
    ],
)
def test_a_declaration_is_worded_from_its_label(language: str, lay_aside: str, stake: str) -> None:
    decision = turn()
    assert decision.words(Action(0, LAY_ASIDE, (30,))).in_language(language) == lay_aside
    assert decision.words(Action.parse("0 stake 5z")).in_language(language) == stake
    assert decision.words(Action.parse("0 discard 5z")).in_language("en") == "discard 5z"


def test_the_dm_controls_word_the_declaration_and_ask_for_the_stakes_discard() -> None:
    decision = turn()
    view = hand_controls(7, ids.Stamp(1, 0), list(decision.actions), [], decision=decision)
    items = flat(view)
    labels = [i.get("label") for i in items if i["type"] == 2]
    assert "set 4z aside (and draw a replacement)" in labels
    assert not any("stake" in str(label) for label in labels)  # the stake is a menu, not buttons
    (menu,) = [i for i in items if i["type"] == 3]
    assert menu["placeholder"] == "discard … with a stake into the pot: which tile?"
    assert [o["value"] for o in menu["options"]] == ["stake 4z", "stake 5z"]  # only those
    assert menu["custom_id"] == "mj:7:pick:1.0:0:1"  # a menu id of its own
    assert len(components(view)) <= 5
    (zh,) = [
        i
        for i in flat(
            hand_controls(
                7, ids.Stamp(1, 0), list(decision.actions), [], language="zh-CN", decision=decision
            )
        )
        if i["type"] == 3
    ]
    assert zh["placeholder"] == "押一注入池，打出…：打哪一张？"


def test_a_declaration_menu_id_reads_back_as_its_own_select() -> None:
    match = next(
        t.fullmatch("mj:7:pick:1.0:0:1") for t in ids.TEMPLATES if t.fullmatch("mj:7:pick:1.0:0:1")
    )
    assert match is not None and match["menu"] == "1" and match["seat"] == "0"


def test_the_terminal_asks_which_tile_a_stake_discards() -> None:
    decision = turn()
    asked = read_answer("stake", decision)
    assert isinstance(asked, Ask) and "'stake 4z'" in asked.text and "'stake 5z'" in asked.text
    assert read_answer("stake 5z", decision) == Action.parse("0 stake 5z")
    assert read_answer("lay_aside", decision) == Action(0, LAY_ASIDE, (30,))
    refused = read_answer("stake 1m", decision)  # not a tile the rule allows
    assert isinstance(refused, Ask)
