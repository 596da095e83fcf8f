"""Every hand scored (chinese-classical), in words: each seat's points, doubles and score, then
who paid whom, read from the hand's outcome (engine.every_hand). The terminal's result lines and
the Discord result post say these; the result picture draws the same."""

from __future__ import annotations

from collections.abc import Sequence

from engine.every_hand import Transfer, seat_scores, transfers
from engine.i18n import Number, Text, text
from engine.outcome import Outcome
from engine.scoring.base import SeatScore
from engine.settlement import Reason


def seat_score_text(hand: SeatScore, name: Text | str) -> Text:
    """'Carol: 24 points, 3 doubles = 192'; 'Carol: a limit hand, 1,000'; a hand cut to the
    limit says so."""
    score = Number(hand.score)
    if hand.limit:
        return text("bot.every_hand.limit_hand", name=name, score=score)
    said = text("bot.every_hand.at_limit", score=score) if hand.capped else score
    return text(
        "bot.every_hand.seat", name=name, points=hand.points, count=hand.doubles, score=said
    )


def transfer_text(transfer: Transfer, names: Sequence[Text | str]) -> Text:
    """'Alice pays Carol 384 (×2 with East)'; the losers' settlement says it is one."""
    key = "settlement" if transfer.reason is Reason.SETTLEMENT else "win"
    double = text("bot.every_hand.double", times=transfer.times) if transfer.times > 1 else ""
    return text(
        f"bot.every_hand.{key}",
        payer=names[transfer.payer],
        payee=names[transfer.payee],
        amount=Number(transfer.amount),
        double=double,
    )


Part = tuple[Text, tuple[Text, ...]]  # a heading and its lines


def every_hand_parts(outcome: Outcome, names: Sequence[Text | str]) -> tuple[Part, ...]:
    """Each seat's score, and who paid whom, each under its heading; none where the hand's win
    did not score every hand (other presets, a draw)."""
    hands = seat_scores(outcome)
    if not hands:
        return ()
    scores = tuple(seat_score_text(hand, names[hand.seat]) for hand in hands)
    parts = [(text("bot.every_hand.scores"), scores)]
    paid = transfers(outcome)
    if paid:
        parts.append((text("bot.every_hand.paid"), tuple(transfer_text(t, names) for t in paid)))
    return tuple(parts)


def every_hand_lines(parts: Sequence[Part]) -> list[Text]:
    """The parts as lines: each heading, then its lines."""
    return [line for heading, lines in parts for line in (heading, *lines)]
