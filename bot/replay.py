"""Replays of finished hands, discord-free: the export format, checking, frames and pictures.

A stored hand is its setup (the session it was dealt from, an arranged wall, who is always
asked) plus its action log, so replaying the log rebuilds every step. A replay shows every hand
open, as Tenhou logs do: it is only offered for finished hands, when nothing is secret any more.

The export is one JSON object (`ReplayLog.to_json`), versioned by `EXPORT_VERSION`; README.md
("Hand export format") documents it. `mahjong-bot replay --log FILE` plays one back and checks
that the log still leads to the outcome it records.
"""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bot.runtime.recipe import HandRecipe, replay_hand
from data import HandLog, HandNotActiveError, HandRecord, HandStatus, Store, StoredWin
from engine.actions import Action, ActionKind
from engine.hand import HandState, Phase
from engine.i18n import DEFAULT_LANGUAGE, Text, WordedError, text
from engine.names import vocabulary_key
from engine.presets import find_preset
from engine.session import Session
from engine.tiles import format_tiles, sort_tiles
from render.adapt import result_view_from_state, table_view_from_state
from render.views import ResultView, TableView
from render.words import wind_text

EXPORT_FORMAT = "mahjong-bot-hand"
EXPORT_VERSION = 1
GIF_FRAME_MS, GIF_LAST_FRAME_MS = 700, 3000
CALL_KINDS = frozenset(
    {
        ActionKind.CHOW,
        ActionKind.PUNG,
        ActionKind.KONG,
        ActionKind.CONCEALED_KONG,
        ActionKind.ADDED_KONG,
    }
)
# what each action does, worded in the catalogue: pictures.replay.<kind> ("discard", 打出),
# in the preset's words where it has its own (pictures.replay.pung.riichi: "pon")
_VERBS = {kind: f"pictures.replay.{kind.value}" for kind in ActionKind}


class ReplayError(WordedError):
    """A hand that cannot be replayed: unfinished, unreadable, or not leading to its outcome.

    Raised with a catalogue `Text` where a player may read it (`in_language`); `str()` is
    English."""


@dataclass(frozen=True, slots=True)
class ReplaySeat:
    """One table seat of the exported hand (seats count as the table's, not winds)."""

    player_id: str
    human: bool
    name: str

    def to_json(self) -> dict[str, Any]:
        return {"player_id": self.player_id, "human": self.human, "name": self.name}


@dataclass(frozen=True, slots=True)
class ReplayLog:
    """A finished hand as exported: enough to rebuild it and to check where it led."""

    preset: str
    seed: int
    seats: tuple[ReplaySeat, ...]  # by table seat
    setup: dict[str, Any]  # the stored setup: {"session": ..., "wall"?: ..., "ask"?: ...}
    actions: tuple[str, ...]
    deltas: tuple[int, ...]  # by table seat
    wins: tuple[StoredWin, ...]  # winners and discarders by table seat
    hand_id: int | None = None
    table_id: int | None = None
    hand_no: int = 0

    @property
    def seat_count(self) -> int:
        return len(self.seats)

    @property
    def result(self) -> str:
        return "win" if self.wins else "draw"

    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "hand_id": self.hand_id,
            "table_id": self.table_id,
            "hand_no": self.hand_no,
            "preset": self.preset,
            "seed": self.seed,
            "seat_count": self.seat_count,
            "seats": [seat.to_json() for seat in self.seats],
            "setup": self.setup,
            "actions": list(self.actions),
            "outcome": {
                "result": self.result,
                "deltas": list(self.deltas),
                "wins": [win.to_json() for win in self.wins],
            },
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    @classmethod
    def from_json(cls, data: Any) -> ReplayLog:
        """Read an export; ReplayError names what is wrong with one that does not read."""
        if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
            raise ReplayError(text("fixups.replay.not_export", format=EXPORT_FORMAT))
        version = data.get("version")
        if version != EXPORT_VERSION:
            raise ReplayError(
                text("fixups.replay.version", version=repr(version), known=EXPORT_VERSION)
            )
        try:
            seats = tuple(
                ReplaySeat(str(s["player_id"]), bool(s["human"]), str(s["name"]))
                for s in data["seats"]
            )
            outcome = data["outcome"]
            log = cls(
                preset=find_preset(str(data["preset"])).id,
                seed=int(data["seed"]),
                seats=seats,
                setup=dict(data["setup"]),
                actions=tuple(str(Action.parse(line)) for line in data["actions"]),
                deltas=tuple(int(d) for d in outcome["deltas"]),
                wins=tuple(StoredWin.from_json(w) for w in outcome["wins"]),
                hand_id=data.get("hand_id"),
                table_id=data.get("table_id"),
                hand_no=int(data.get("hand_no", 0)),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise ReplayError(f"the export does not read: {error!r}") from None
        if data.get("seat_count") != log.seat_count or len(log.deltas) != log.seat_count:
            raise ReplayError(text("fixups.replay.seats_disagree"))
        return log

    @classmethod
    def loads(cls, text: str) -> ReplayLog:
        try:
            return cls.from_json(json.loads(text))
        except json.JSONDecodeError as error:
            raise ReplayError(f"the export is not JSON: {error}") from None

    def hand_log(self) -> HandLog:
        """The hand as the store keeps it, for `HandRecipe.stored`."""
        return HandLog(
            hand_id=self.hand_id or 0,
            table_id=self.table_id or 0,
            hand_no=self.hand_no,
            seed=self.seed,
            setup=json.dumps(self.setup),
            status=HandStatus.FINISHED,
            started_at=0.0,
            ended_at=None,
            actions=tuple(Action.parse(line) for line in self.actions),
        )


def export_hand(
    stored: HandLog, record: HandRecord | None, names: Sequence[str] | None = None
) -> ReplayLog:
    """A stored hand and its history entry as an export; only finished hands have one.

    `names` are by table seat (default: the player ids).
    """
    if stored.status is not HandStatus.FINISHED or record is None:
        raise ReplayError(text("fixups.replay.not_finished", hand=stored.hand_id))
    names = list(names) if names is not None else [s.player_id for s in record.seats]
    return ReplayLog(
        preset=record.preset,
        seed=stored.seed,
        seats=tuple(ReplaySeat(s.player_id, s.human, names[s.seat]) for s in record.seats),
        setup=json.loads(stored.setup or "{}"),
        actions=stored.lines,
        deltas=tuple(s.delta for s in record.seats),
        wins=record.wins,
        hand_id=stored.hand_id,
        table_id=stored.table_id,
        hand_no=stored.hand_no,
    )


def rebuild(log: ReplayLog, actions: int | None = None) -> tuple[Session, HandState]:
    """The session as the hand was dealt and the hand after its first `actions` (all)."""
    hand_log = log.hand_log()
    if actions is not None:
        hand_log = replace(hand_log, actions=hand_log.actions[:actions])
    try:
        recipe = HandRecipe.stored(hand_log, find_preset(log.preset))
        return recipe.dealt_session(), replay_hand(recipe, hand_log.actions)
    except (KeyError, ValueError) as error:
        raise ReplayError(f"the log does not replay: {error}") from None


def replayed_outcome(log: ReplayLog) -> tuple[tuple[int, ...], tuple[StoredWin, ...]]:
    """Deltas and wins by table seat, as the log replayed on its seed leads to them."""
    session, hand = rebuild(log)
    outcome = hand.outcome()
    if outcome is None:
        raise ReplayError(text("fixups.replay.stops_early"))
    wins = tuple(
        StoredWin(
            seat=session.player_at(win.seat),
            fan=win.score.fan,
            patterns=tuple((p.id, p.fan) for p in win.score.patterns),
            by=win.by.value,
            discarder=None if win.discarder is None else session.player_at(win.discarder),
        )
        for win in outcome.wins
    )
    return tuple(session.finish_hand(outcome)), wins


def check_outcome(log: ReplayLog) -> None:
    """Raise ReplayError unless the log, replayed, ends as the export (or history) says."""
    deltas, wins = replayed_outcome(log)
    if deltas != log.deltas:
        raise ReplayError(f"the log leads to deltas {list(deltas)}, not {list(log.deltas)}")
    if wins != log.wins:
        raise ReplayError(text("fixups.replay.other_wins"))


# ------------------------------------------------------------------ frames


@dataclass(frozen=True, slots=True)
class Frame:
    """The open table after `step` actions of the log; `mark` is 'call', 'win' or ''."""

    step: int
    caption: Text | str  # worded per reader; str(caption) is English
    mark: str
    view: TableView


def _open(view: TableView, hand: HandState) -> TableView:
    """Every hand face up: a replay shows what each seat held."""
    seats = tuple(
        seat
        if seat.revealed
        else replace(seat, concealed_count=0, revealed=tuple(sort_tiles(hand.hands[index])))
        for index, seat in enumerate(view.seats)
    )
    return replace(view, seats=seats)


def _caption(action: Action, names: Sequence[str], vocabulary: str, self_draw: bool) -> Text:
    """'East (Ann): discard 5m'; a win on the seat's own turn said as self draw ('tsumo')."""
    if action.kind is ActionKind.TIME_UP:
        return Text(_VERBS[action.kind])
    who = Text("pictures.win.seat", {"name": names[action.seat], "wind": wind_text(action.seat)})
    what = action.suit or format_tiles(action.tiles)  # the rules' notation, as the export has it
    verb: Text | str = action.kind.value  # a kind a rule declares is named by its notation
    if isinstance(action.kind, ActionKind):
        key = _VERBS[action.kind]
        if self_draw and action.kind is ActionKind.WIN:
            key = "pictures.replay.win_self_draw"
        verb = Text(vocabulary_key(key, vocabulary))
    fields = {"who": who, "verb": verb, "what": f" {what}" if what else ""}
    return Text("pictures.replay.step", fields)


def _mark(action: Action) -> str:
    if action.kind is ActionKind.WIN:
        return "win"
    return "call" if action.kind in CALL_KINDS else ""


def frames(log: ReplayLog) -> list[Frame]:
    """The open table at the deal and after each action that changed it.

    A pass that changes nothing on the table (one of several answers to a claim window) makes
    no frame of its own; the answer that closes the window does.
    """
    session, hand = rebuild(log, actions=0)
    by_player = log.names()
    names = [by_player[session.player_at(s)] for s in range(session.seat_count)]
    label = f"{log.preset} · hand {log.hand_id}" if log.hand_id else log.preset

    def view() -> TableView:
        points = [session.points[session.player_at(s)] + d for s, d in enumerate(hand.points)]
        table = table_view_from_state(hand, names, points, table_name=label, channel_name="replay")
        return _open(table, hand)

    result = [Frame(0, Text("pictures.replay.deal"), "", view())]
    for step, line in enumerate(log.actions, start=1):
        action = Action.parse(line)
        self_draw = hand.phase is Phase.TURN
        try:
            hand.apply(action)
        except ValueError as error:
            raise ReplayError(f"action {step} ({line}) does not apply: {error}") from None
        current = view()
        mark = _mark(action)
        if current == result[-1].view and not mark:
            continue
        caption = _caption(action, names, hand.preset.vocabulary, self_draw)
        result.append(Frame(step, caption, mark, current))
    return result


def jumps(found: Sequence[Frame]) -> list[int]:
    """Indexes of the frames of calls and wins, in order: where a viewer jumps to."""
    return [index for index, frame in enumerate(found) if frame.mark]


def outcome_texts(log: ReplayLog) -> list[Text]:
    """How the hand ended, as the table told it: each win with its fan, patterns and payment
    (or why nobody won), its facts (indicators, honba, sticks, the ready hands), each hand's
    score and who paid whom where every hand is scored, then what every seat received."""
    from bot.runtime.every_hand_words import every_hand_lines, every_hand_parts
    from bot.runtime.words import ending_text, fact_lines, payment_text, win_texts

    session, hand = rebuild(log)
    outcome = hand.outcome()
    if outcome is None:
        raise ReplayError(text("fixups.replay.stops_early"))
    by_player = log.names()
    names = [by_player[session.player_at(s)] for s in range(session.seat_count)]
    lines = [line for win in outcome.wins for line in win_texts(win, hand, names)]
    lines += every_hand_lines(every_hand_parts(outcome, names))  # where every hand is scored
    if not outcome.wins:
        why = ending_text(hand, outcome.termination.value)
        lines.append(text("bot.result.draw", why=why))
    lines += fact_lines(hand, names)  # the indicators, honba, sticks, ready hands, as told
    if any(outcome.deltas):  # what each seat received, as the table's result said it
        lines.append(text("fixups.replay.points", paid=payment_text(outcome.received, names)))
    else:
        lines.append(text("fixups.replay.no_points"))
    return lines


def result_view(log: ReplayLog) -> ResultView:
    session, hand = rebuild(log)
    by_player = log.names()
    names = [by_player[session.player_at(s)] for s in range(session.seat_count)]
    return result_view_from_state(hand, names, table_name=f"{log.preset} · replay")


# ------------------------------------------------------------------ pictures


def frame_png(frame: Frame, language: str = DEFAULT_LANGUAGE) -> bytes:
    from render.style import to_png
    from render.table import render_table

    return to_png(render_table(frame.view, language))


def write_frames(
    log: ReplayLog, directory: Path, *, gif: bool = False, language: str = DEFAULT_LANGUAGE
) -> list[Path]:
    """frame-000.png ... and result.png in `directory`, or one hand.gif of all frames."""
    from render.result import render_result
    from render.style import to_png

    directory.mkdir(parents=True, exist_ok=True)
    found = frames(log)
    if gif:
        path = directory / "hand.gif"
        path.write_bytes(gif_bytes(found, language))
        return [path]
    written = []
    for index, frame in enumerate(found):
        path = directory / f"frame-{index:03d}.png"
        path.write_bytes(frame_png(frame, language))
        written.append(path)
    path = directory / "result.png"
    path.write_bytes(to_png(render_result(result_view(log), language)))
    written.append(path)
    return written


def gif_bytes(found: Sequence[Frame], language: str = DEFAULT_LANGUAGE) -> bytes:
    """The frames as one animated picture that holds its last frame (the win) longer."""
    from render.table import render_table

    pictures = [render_table(frame.view, language).convert("RGB") for frame in found]
    durations = [GIF_FRAME_MS] * (len(pictures) - 1) + [GIF_LAST_FRAME_MS]
    out = io.BytesIO()
    pictures[0].save(
        out, "GIF", save_all=True, append_images=pictures[1:], duration=durations, loop=0
    )
    return out.getvalue()


# ------------------------------------------------------------------ reading from the store


async def stored_replay(store: Store, hand_id: int, viewer_id: str | None = None) -> ReplayLog:
    """A finished hand of the store as an export, named as its table named its players.

    With `viewer_id` (Discord), a private table's hand is refused to anyone who did not play
    in it; without (the command line, whose user holds the database file) nothing is refused.
    """
    try:
        stored = await store.hand_log(hand_id)
    except HandNotActiveError:
        raise ReplayError(text("fixups.replay.no_hand", hand=hand_id)) from None
    if stored.status is HandStatus.PLAYING:
        raise ReplayError(text("fixups.replay.in_play", hand=hand_id))
    if stored.status is HandStatus.ABANDONED:
        raise ReplayError(text("fixups.replay.abandoned", hand=hand_id))
    record = await store.hand_record(hand_id)
    table = await store.table_row(stored.table_id)
    players = {seat.player_id for seat in record.seats} if record else set()
    if viewer_id is not None and table.options.visibility == "private" and viewer_id not in players:
        raise ReplayError(text("fixups.replay.private", hand=hand_id))
    known = table.options.extra.get("names", {})
    names = [str(known.get(s.player_id, s.player_id)) for s in record.seats] if record else None
    return export_hand(stored, record, names)
