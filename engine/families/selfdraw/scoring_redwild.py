"""Red Dragon wild scoring (RULES.md `redwild`): the four red dragons are wild; a win is paid a
base of 2 per payer, 4 when the winning hand holds no red dragon; the birds add 2 per hit (their
rule component, engine.families.selfdraw.rules.Birds, settles them after these payments). A self
draw is paid by each other player, a robbed kong by the robbed player for all three. Kong payments
are the seed-004 ones, paid at once (engine.families.sichuan.scoring's).

Decisions where RULES.md leaves room:

- `unit` is "points" and `fan` is the base per payer (2 or 4): the table counts points, not
  fan, and the result picture's headline shows the base. A hand with no red dragon lists no
  pattern of its own (its base is simply 4). `points` is what each payer (or the robbed player,
  for three) pays before the birds.
- Four red dragons lists the pattern `four_red_dragons` (0: it is a win, not a bonus); held by
  a hand that is also complete, it is the same win. It pays the base of a hand with a red dragon
  (2), since it holds four.
- "On your own turn" means with a drawn tile, as every self draw (the dealer's first turn
  included); a player who has just punged discards first. The four cannot be konged.
- The computer player never discards a red dragon while it has another tile to discard.
- A wild stands for any tile, including a fifth copy of a kind; seven pairs may hold four of a
  kind as two pairs, as at every seed-004 table.
"""

from __future__ import annotations

from engine import shapes
from engine.families.sichuan.scoring import kong_payments
from engine.i18n import Text
from engine.preset import Preset
from engine.rules import wild_free
from engine.scoring.base import Pattern, Score, WinBy, WinContext
from engine.scoring.family import NO_CIRCUMSTANCES, no_wall_draw_payments, table_win_payments
from engine.tiles import RED, counts_of

__all__ = ["BASE", "CIRCUMSTANCES", "kong_payments", "score", "wall_draw_payments", "win_payments"]

BASE = 2  # points per payer; doubled when the winning hand holds no red dragon
WILDS = frozenset({RED})
FOUR_WILDS = 4


def score(preset: Preset, ctx: WinContext) -> Score:
    """Score a redwild win: four red dragons on the own turn, or a complete hand with wilds."""
    counts = counts_of(ctx.concealed)
    wilds = sum(counts[kind] for kind in WILDS)
    four_reds = ctx.by is WinBy.SELF_DRAW and wilds >= FOUR_WILDS
    if not four_reds and not is_complete(preset, ctx):
        return Score(
            valid=False,
            unit=preset.unit,
            reason="not_a_winning_hand",
            message=Text("score.redwild.not_winning"),
        )
    base = BASE if wilds else 2 * BASE
    patterns = (Pattern("four_red_dragons", 0),) if four_reds else ()
    if ctx.by is WinBy.SELF_DRAW:
        points = {"each": base}
    else:
        points = {"discarder": (preset.seat_counts[0] - 1) * base}
    return Score(valid=True, fan=base, unit=preset.unit, patterns=patterns, points=points)


def is_complete(preset: Preset, ctx: WinContext) -> bool:
    """Four sets and a pair, or seven pairs (closed), with each wild standing for any tile."""
    if len(ctx.concealed) + 3 * len(ctx.melds) != 3 * preset.sets + 2:
        return False
    counts = counts_of(ctx.concealed)
    jokers = sum(counts[kind] for kind in WILDS)
    return shapes.is_win(wild_free(counts, WILDS), preset.shape_rules, jokers=jokers)


# the loop's hooks this family settles as the default does (engine.scoring.family)
CIRCUMSTANCES = NO_CIRCUMSTANCES
win_payments = table_win_payments
wall_draw_payments = no_wall_draw_payments
