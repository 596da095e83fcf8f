"""`mahjong-bot play`: one human in the terminal against computers, on the same runtime as
Discord and on the same snapshots. Each public event is one line; each decision is a numbered
menu (with the time left on a clock); Enter takes the suggested move.

An answer is given for the menu that was on screen when it was typed: if the decision changed
meanwhile (a clock ran out and played for you), the answer is refused and the current menu shown.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import secrets
import sys
import termios
import threading
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from bot.pipes import SIGPIPE_STATUS, stdout_to_nowhere
from bot.runtime import (
    Decision,
    ManualTimers,
    PrivateSnapshot,
    PublicSnapshot,
    Runtime,
    SchedulerTimers,
    StaleActionError,
    TableError,
    Timers,
)
from bot.runtime.clocks import fixed_clock
from bot.runtime.table import seat_count_for
from bot.runtime.words import (
    SUIT_WORDS,
    action_words,
    clock_text,
    in_person,
    meld_text,
    seat_name,
)
from bot.terminal_lines import WIDTH, head_text, legend, seat_key, together, within
from bot.terminal_toggles import flip, toggle_typed
from data import Store
from data.errors import StoreError
from engine.actions import Action, ActionKind
from engine.i18n import DEFAULT_LANGUAGE, Number, Text, has, language_of, text, translate, worded
from engine.names import vocabulary_key
from engine.presets import TIME_CONTROLS, UnknownPresetError, find_preset
from engine.tiles import InvalidNotationError, format_tiles, parse_tiles, sort_tiles, tile_name
from render.adapt import KONGS_LABEL
from render.hand import ready_notes
from render.views import SeatView, TableView
from render.words import preset_text, say, suit_text, wind_text

PLAYER_ID = "local"
KONGS = (ActionKind.KONG, ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG)
Reader = Callable[[], str | None]


# ------------------------------------------------------------------ reading answers


@dataclass(frozen=True)
class Ask:
    """Not an action: what to tell the player (a mistake, or a question when it is ambiguous)."""

    text: str


SYNONYMS = {
    "pass on": "swap",
    "set aside": "remove",
    "concealed kong": "kong",
    "closed kan": "kong",  # Riichi's words for the kongs, as its menus say them
    "added kan": "kong",
    "add": "kong",
}
# the calls in Chinese, typed as the menu's first word: 碰 5m, 杠, 胡, 过
CHINESE_WORDS = {
    "胡": "win",
    "和": "win",
    "过": "pass",
    "過": "pass",
    "碰": "pung",
    "吃": "chow",
    "杠": "kong",
    "槓": "kong",
    "打": "discard",
    "换": "swap",
    "換": "swap",
    "缺": "void",
}
# the Riichi words for the calls (Preset.vocabulary "riichi" words its menus so), typed anywhere
RIICHI_WORDS = {"ron": "win", "tsumo": "win", "chi": "chow", "pon": "pung", "kan": "kong"}
CHINESE_SUITS = {"万": "m", "萬": "m", "筒": "p", "饼": "p", "餅": "p", "条": "s", "條": "s"}


def _say(language: str, key: str, /, **fields: object) -> str:
    return translate(language, f"terminal.{key}", **fields)


def _ask(language: str, key: str, /, **fields: object) -> Ask:
    return Ask(_say(language, f"ask.{key}", **fields))


def _what(word: str, decision: Decision) -> Text:
    return Text(vocabulary_key(f"terminal.what.{word}", decision.vocabulary))


def _pick(candidates: list[Action], what: str, language: str, decision: Decision) -> Action | Ask:
    if len(candidates) == 1:
        return candidates[0]
    named = [decision.typed(a) for a in candidates]
    if len(candidates) > 3:
        return _ask(language, "which_example", what=_what(what, decision), example=named[0])
    choices = _say(language, "ask.or").join(f"'{words}'" for words in named)
    return _ask(language, "which_of", what=_what(what, decision), choices=choices)


def _in_english(text: str) -> str:
    """An answer typed with Chinese call and suit words (or Riichi's: 'pon 5m', 'ron'), in
    the menu's English words."""
    word, _, rest = text.partition(" ")
    glued = word[1:2].isdigit() or word[1:] in CHINESE_SUITS  # '碰5m', '缺万'
    if word[:1] in CHINESE_WORDS and (len(word) == 1 or glued):
        rest = f"{word[1:]} {rest}".strip()  # '碰5m' as '碰 5m', '缺万' as '缺 万'
        word = CHINESE_WORDS[word[:1]]
    rest = CHINESE_SUITS.get(rest, rest)
    if text in CHINESE_SUITS:
        return CHINESE_SUITS[text]
    return f"{RIICHI_WORDS.get(word, word)} {rest}".strip()


def _tiles(text: str) -> list[int] | None:
    try:
        return parse_tiles(text)
    except (InvalidNotationError, ValueError):
        return None


def read_answer(
    text: str,
    decision: Decision,
    concealed: tuple[int, ...] = (),
    void: str | None = None,
    language: str = DEFAULT_LANGUAGE,
) -> Action | Ask:
    """A menu answer: Enter, a number, or words like '5m', 'win', 'pass', 'chow 345m',
    'kong', 'kong 5z', 'void m', 'm', or three tiles in any order ('931p'); the calls and suits
    may be typed in Chinese too ('碰 5m', '胡', '过', '缺万'). A refusal is in `language`."""
    actions = list(decision.actions)
    text = _in_english(" ".join(text.strip().lower().split()))
    if not text:
        return decision.suggestion or actions[0]
    if text.isdigit():
        index = int(text) - 1
        if 0 <= index < len(actions):
            return actions[index]
        return _ask(language, "no_choice", number=text, count=len(actions))
    for action in actions:
        if text == action_words(action).lower():
            return action
    for phrase, word in SYNONYMS.items():  # the menu's wording, with tiles in any order
        if text.startswith(phrase + " "):
            text = word + text[len(phrase) :]
    word, _, rest = text.partition(" ")
    kinds = decision.kinds
    declared = _declaration(word, rest, decision, language)
    if declared is not None:
        return declared
    # a suit: 'void m', 'm', 'characters'
    suit = next((s for s, w in SUIT_WORDS.items() if rest in (s, w) or text in (s, w)), None)
    if ActionKind.VOID in kinds and (word == "void" or suit):
        if suit is None:
            return _ask(language, "choose_suit")
        return next(a for a in actions if a.suit == suit)
    if word == "win":
        wins = [a for a in actions if a.kind is ActionKind.WIN]
        return wins[0] if wins else _ask(language, "no_win")
    if word == "pass":
        passes = [a for a in actions if a.kind is ActionKind.PASS]
        return passes[0] if passes else _ask(language, "no_pass")
    if word in ("kong", "pung", "chow", "discard", "swap", "remove", "void"):
        kind_words = {"kong": KONGS, "swap": (ActionKind.SWAP,), "remove": (ActionKind.REMOVE,)}
        wanted = kind_words.get(word, (ActionKind(word),))
        candidates = [a for a in actions if a.kind in wanted]
        if not candidates:
            return _ask(language, "not_available", what=_what(word, decision))
        if not rest:
            return _pick(candidates, word, language, decision)
        tiles = _tiles(rest)
        if tiles is None:
            return _ask(language, "not_a_tile", answer=repr(rest))
        found = _by_tiles(tiles, candidates, concealed, decision, language)
        if found is not None:
            return found
        missing = _missing(tiles, concealed)
        if missing and decision.kind != "claim":
            return _ask(language, "not_held", tiles=format_tiles(missing))
        return _ask(language, "cannot", what=_what(word, decision), tiles=format_tiles(tiles))
    tiles = _tiles(text)
    if tiles is None:
        return _ask(language, "not_understood", answer=repr(text))
    found = _by_tiles(tiles, actions, concealed, decision, language)
    if isinstance(found, Action | Ask):
        return found
    return _why_not(tiles, decision, concealed, void, language)


def _declaration(word: str, rest: str, decision: Decision, language: str) -> Action | Ask | None:
    """A declaration a rule owns, typed by its name ('stake', 'stake 5m'); one made with a
    discard asks which tile when several are offered (only those). None: not a declaration."""
    candidates = [a for a in decision.actions if a.kind.value == word and decision.declared(a)]
    if not candidates:  # a declaration of these rules not offered now: say why
        why = dict(decision.refusals).get(word)
        return None if why is None else Ask(why.in_language(language))
    key = decision.declared(candidates[0])
    assert key is not None
    if rest:
        tiles = _tiles(rest)
        chosen = [a for a in candidates if tiles is not None and list(a.tiles) == tiles]
        if chosen:
            return chosen[0]
    elif word not in decision.with_discard:  # alone, one made with a discard lists its tiles
        return candidates[0]
    choices = _say(language, "ask.or").join(f"'{word} {format_tiles(a.tiles)}'" for a in candidates)
    return _ask(language, "which_of", what=text(key, tiles="…"), choices=choices)


def _by_tiles(
    tiles: list[int],
    candidates: list[Action],
    concealed: tuple[int, ...],
    decision: Decision,
    language: str,
) -> Action | Ask | None:
    """The candidate whose tiles are these (in any order), or a call whose meld they are
    ('pon 555m', 'chi 406m': how a five and its red five are told apart); a question if
    several are."""
    wanted = sorted(tiles)
    matches = [a for a in candidates if wanted in (sorted(a.tiles), sorted(decision.meld_of(a)))]
    if not matches and len(wanted) == 1:
        matches = [a for a in candidates if a.tiles and a.tiles[0] == wanted[0]]
    if not matches:
        return None
    return _pick(matches, "one", language, decision)


def _missing(tiles: list[int], concealed: tuple[int, ...]) -> list[int]:
    """The tiles named more often than the hand holds them."""
    return sorted(t for t in set(tiles) if concealed.count(t) < tiles.count(t))


def _why_not(
    tiles: list[int],
    decision: Decision,
    concealed: tuple[int, ...],
    void: str | None,
    language: str,
) -> Ask:
    """Say exactly what is wrong with an answer naming tiles."""
    names = format_tiles(tiles)
    missing = _missing(tiles, concealed)
    if missing and decision.kind != "claim":
        return _ask(language, "not_held", tiles=format_tiles(missing))
    discards = [a for a in decision.actions if a.kind is ActionKind.DISCARD]
    voids_first = all(tile_name(a.tile)[-1] == void for a in discards)
    if void and decision.kind == "turn" and len(tiles) == 1 and discards and voids_first:
        return _ask(language, "void_first", suit=suit_text(void))
    if decision.kind == "claim":
        return _ask(language, "cannot_claim", tiles=names)
    return _ask(language, "not_a_choice", tiles=names)


# ------------------------------------------------------------------ printing the table


def columns(text: str) -> int:
    """How many terminal columns `text` takes (a Chinese character takes two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def padded(text: str, width: int) -> str:
    """`text` filled with spaces to `width` columns."""
    return text + " " * max(0, width - columns(text))


def table_text(public: PublicSnapshot, language: str = DEFAULT_LANGUAGE) -> str:
    """The public table in a few lines: each seat's hidden count, melds, flowers, discards."""
    view = public.table_view
    if view is None:
        return worded(public.status_text, language)
    extras = "".join(
        _say(language, "table.face_down", label=worded(item.label, language), count=item.face_down)
        for item in view.set_aside
        if item.face_down
    )
    if view.wild:
        extras += _say(language, "table.wild", tiles=format_tiles(sorted(view.wild)))
    extras += counters_text(view, language)
    last_draws = find_preset(public.preset_id).last_draws
    if last_draws and view.wall_left < last_draws:  # the wall's end is held back for them
        extras += _say(language, "table.last_draws", count=last_draws)
    head = f"--- {head_text(view, language, extras)} ---"
    lines = within(head if columns(head) <= WIDTH else head.removesuffix(" ---"), 4)
    winds = [say(language, f"wind.{wind}") for wind in range(4)]
    wind_width = max(map(columns, winds))
    for index, seat in enumerate(view.seats):
        void = (
            _say(language, "table.void", suit=suit_text(seat.void_suit)) if seat.void_suit else ""
        )
        hidden = f"{seat.concealed_count:>2}"
        state = _say(language, "table.out" if seat.won else "table.hidden", count=hidden)
        if seat.staked:
            state += _say(language, "table.riichi")
        line = translate(
            language,
            seat_key(public.preset_id),
            marker=">" if view.turn == index else " ",
            wind=padded(winds[index], wind_width),
            name=padded(worded(seat.name, language), 11),
            points=Number(seat.points).in_language(language).rjust(5),
            state=state,
            void=void,
            melds=melds_text(seat, view.wild, language, public.vocabulary) or "-",
            flowers=format_tiles(sorted(seat.bonus)) or "-",
            pond=pond_text(seat) or "-",
        )
        lines += within(line, wind_width + 2)  # more discards go on under the seat
    return "\n".join(lines)


def pond_text(seat: SeatView) -> str:
    """A seat's discards one by one in the order made, a claimed one in brackets, the one
    lying sideways (the riichi discard) in square brackets: '3z (5m) [1p] 4s'."""
    return " ".join(
        f"({tile_name(tile)})"
        if index in seat.claimed
        else f"[{tile_name(tile)}]"
        if index in seat.turned
        else tile_name(tile)
        for index, tile in enumerate(seat.pond)
    )


def counters_text(view: TableView, language: str) -> str:
    """The table's indicators (dora: the turned ones, and how many wait face down), honba
    and the pot, where the rules show them:
    ' · Dora indicators 3s3m (+3 face down) · 1 honba · pot 2,000'."""
    words = ""
    for item in view.indicators:
        label, tiles = worded(item.label, language), format_tiles(item.tiles) or "-"
        words += _say(language, "table.indicators", label=label, tiles=tiles)
        if item.face_down:
            words += _say(language, "table.face_down_indicators", count=item.face_down)
    if view.honba is not None and view.pot is not None:
        pot = Number(view.pot).in_language(language)
        if view.hand_name:  # the hand's name says its honba
            words += _say(language, "table.pot", pot=pot)
        else:
            words += _say(language, "table.sticks", honba=view.honba, pot=pot)
    return words


def melds_text(seat: SeatView, wilds: frozenset[int], language: str, vocabulary: str = "") -> str:
    """A seat's melds, then the tiles it set down as kongs (hubei-laizi's red and wild kongs)
    and any other tiles it laid apart, under their label (sanma's norths: 'Nuki 4z4z')."""
    words = [meld_text(m, vocabulary).in_language(language) for m in seat.melds]
    for item in seat.set_aside:
        if item.label != KONGS_LABEL:
            words.append(f"{worded(item.label, language)} {format_tiles(item.tiles)}")
            continue
        for tile in item.tiles:
            key = "table.wild_kong" if tile in wilds else "table.fixed_kong"
            words.append(_say(language, key, tile=tile_name(tile)))
    return " ".join(words)


def hand_line(
    private: PrivateSnapshot, language: str = DEFAULT_LANGUAGE, vocabulary: str = ""
) -> str:
    view = private.hand_view
    assert view is not None and private.wind is not None
    tiles = format_tiles(sort_tiles(view.concealed))
    text = _say(language, "hand.line", wind=wind_text(private.wind), tiles=tiles)
    if view.drawn is not None:
        text += _say(language, "hand.drew", tile=tile_name(view.drawn))
    if view.melds:
        melds = " ".join(meld_text(m, vocabulary).in_language(language) for m in view.melds)
        text += _say(language, "hand.melds", melds=melds)
    if private.void:
        text += _say(language, "hand.void", suit=suit_text(private.void))
    notes = [worded(note, language) for note in view.blocked]  # tw-16: "you passed 5p: ..."
    notes += [note for note, _ in ready_notes(view, language)]  # riichi, the waits
    return text + "".join(_say(language, "hand.note", note=note) for note in notes)


def standings(public: PublicSnapshot | None, language: str = DEFAULT_LANGUAGE) -> str:
    """The totals, best first (the hand in play counted as it stands)."""
    if public is None or not public.seats or public.seats[0].points is None:
        return _say(language, "standings.none")
    ranked = sorted(public.seats, key=lambda s: -(s.points or 0))
    table = ", ".join(
        together(  # an entry is never cut across two lines at 80 columns
            _say(
                language,
                "standings.entry",
                rank=n,
                name=worded(seat_name(s.name, s.player_id), language),
                points=Number(s.points or 0),
            )
        )
        for n, s in enumerate(ranked, 1)
    )
    return _say(language, "standings.line", table=table)


# ------------------------------------------------------------------ the front end


class TerminalFront:
    """Prints every public event as a line and queues what the prompt loop must answer."""

    def __init__(
        self,
        out: TextIO,
        images: Path | None,
        language: str = DEFAULT_LANGUAGE,
        db: str | None = None,
    ) -> None:
        self.out = out
        self.images = images
        self.language = language
        self.db = db  # the file that keeps the hands (`play --db`), said at each hand's end
        self.gone = False  # the reader of `out` left (a closed pipe): nothing more is said
        self.inbox: asyncio.Queue[PublicSnapshot | PrivateSnapshot] = asyncio.Queue()
        self.public: PublicSnapshot | None = None
        self.at_prompt = False  # a "> " prompt ends the last line written
        self.you = say(language, "hand.you")  # the player's name, told in the second person

    def say(self, text: Text | str = "") -> None:
        if self.gone:
            return
        text = "\n".join(
            part for line in worded(text, self.language).split("\n") for part in within(line, 2)
        )
        try:
            if self.at_prompt:  # news while the player is at the prompt starts a line of its own
                self.out.write("\n")
                self.at_prompt = False
            print(text, file=self.out, flush=True)
        except BrokenPipeError:  # `play … | head`: the reader left; the prompt loop stops
            self.gone = True
            if self.out is sys.stdout:
                stdout_to_nowhere()

    def line(self, key: str, /, **fields: object) -> None:
        """Say the terminal's own message `terminal.<key>`."""
        self.say(_say(self.language, key, **fields))

    def prompt(self) -> None:
        self.out.write("> ")
        self.out.flush()
        self.at_prompt = True

    async def table_changed(self, snapshot: PublicSnapshot) -> None:
        self.public = snapshot
        for line in snapshot.events:
            self.say(in_person(line, self.you))
        if self.images:
            if snapshot.table_view is not None:
                await self._write("table.png", snapshot.table_view)
            if snapshot.ended and snapshot.result is not None:
                await self._write(f"result-{snapshot.result.hand_number}.png", snapshot.result.view)
            if snapshot.standings is not None:
                await self._write("standings.png", snapshot.standings)
        if snapshot.ended:
            if self.db is not None and snapshot.hand_id is not None:
                self.line("stored", hand=snapshot.hand_id, db=self.db)
            await self.inbox.put(snapshot)

    async def hand_changed(self, snapshot: PrivateSnapshot) -> None:
        for line in snapshot.events:
            self.say(str(line))
        if self.images and snapshot.hand_view is not None:
            await self._write("hand.png", snapshot.hand_view)
        await self.inbox.put(snapshot)

    async def _write(self, name: str, view: object) -> None:
        """Draw on the loop itself: one notice's snapshots then all arrive before the prompt
        loop looks at them (the menu shows the table as it is)."""
        from render import render_hand, render_result, render_table, to_png  # Pillow: only now
        from render.standings import StandingsView, render_standings
        from render.views import HandView, TableView

        assert self.images is not None
        if isinstance(view, HandView):
            image = render_hand(view, self.language)
        elif isinstance(view, TableView):
            image = render_table(view, self.language)
        elif isinstance(view, StandingsView):
            image = render_standings(view, self.language)
        else:
            image = render_result(view, self.language)  # type: ignore[arg-type]
        (self.images / name).write_bytes(to_png(image))


class LineReader:
    """Reads one line at a time on a daemon thread, so Ctrl-C never waits for Enter.

    It cannot take back a line being typed: when the decision changes meanwhile, that line is
    refused as being for an earlier moment.
    """

    def __init__(self, read: Reader) -> None:
        self._read = read

    def discard_pending(self) -> bool:
        return False

    def prompt(self) -> None:
        pass

    def close(self) -> None:
        pass

    def request(self) -> asyncio.Future[str | None]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[str | None] = loop.create_future()

        def work() -> None:
            try:
                line: str | None = self._read()
            except (EOFError, OSError):
                line = None

            def deliver() -> None:  # unless the menu has been answered another way
                if not future.done():
                    future.set_result(line)

            loop.call_soon_threadsafe(deliver)

        threading.Thread(target=work, name="mahjong-input", daemon=True).start()
        return future


class TtyReader:
    """Reads the terminal's lines on the event loop (canonical mode: whole lines only).

    When a clock plays for the player, `discard_pending` flushes whatever they were typing, so
    every line read afterwards was typed after the new menu appeared and answers it.
    """

    def __init__(self, fd: int, front: TerminalFront) -> None:
        self.fd, self.front = fd, front
        self._lines: list[str | None] = []
        self._partial = b""
        self._waiter: asyncio.Future[str | None] | None = None
        self._loop = asyncio.get_running_loop()
        self._loop.add_reader(fd, self._readable)

    def _readable(self) -> None:
        data = os.read(self.fd, 4096)
        if not data:
            self._lines.append(None)  # Ctrl-D
        else:
            *complete, self._partial = (self._partial + data).split(b"\n")
            self._lines += [line.decode(errors="replace") for line in complete]
            self.front.at_prompt = False  # the terminal echoed the Enter
        self._deliver()

    def _deliver(self) -> None:
        if self._waiter is not None and not self._waiter.done() and self._lines:
            self._waiter.set_result(self._lines.pop(0))
            self._waiter = None

    def request(self) -> asyncio.Future[str | None]:
        self.prompt()
        self._waiter = self._loop.create_future()
        future = self._waiter
        self._deliver()
        return future

    def prompt(self) -> None:
        self.front.prompt()

    def discard_pending(self) -> bool:
        termios.tcflush(self.fd, termios.TCIFLUSH)
        self._lines = [line for line in self._lines if line is None]
        self._partial = b""
        return True

    def close(self) -> None:
        self._loop.remove_reader(self.fd)


LineSource = LineReader | TtyReader


def _key(decision: Decision | None) -> tuple[object, ...] | None:
    return None if decision is None else (decision.version, decision.kind, decision.actions)


class PromptLoop:
    """Answers decisions and the next-hand prompt until the player quits or `hands` are done.

    What arrives (the runtime's snapshots, through the front's inbox) and what the player types
    (a line read while the loop waits) meet here: the prompt on screen answers the decision it
    was shown for, and a line typed for a decision that has moved on is refused."""

    def __init__(
        self, runtime: Runtime, front: TerminalFront, table_id: int, reader: LineSource, hands: int
    ) -> None:
        self.runtime, self.front, self.table_id = runtime, front, table_id
        self.reader, self.hands = reader, hands
        self.played = 0
        self.private: PrivateSnapshot | None = None  # the latest own snapshot
        self.over = False  # the hand is over: Enter deals the next one
        self.shown: tuple[object, ...] | None = None  # what the prompt on screen is for
        self.line: asyncio.Future[str | None] | None = None
        self.asked_for: tuple[object, ...] | None = None  # what was on screen when the read began

    def current(self) -> tuple[object, ...] | None:
        if self.over:
            return ("next hand", self.played)
        return _key(self.private.decision) if self.private is not None else None

    def quit_now(self) -> int:
        self.front.say(standings(self.front.public, self.front.language))
        self.front.line("bye")
        return 0

    def take(self, item: PublicSnapshot | PrivateSnapshot) -> int | None:
        """Note what arrived; a number when the loop is done."""
        if isinstance(item, PublicSnapshot):
            if item.standings is not None:  # the preset's game is over: its lines are out
                self.front.line("game_over")
                return 0
            self.played += 1
            if self.hands and self.played >= self.hands:
                return self.quit_now()
            was = self.current()
            self.over, self.private = True, None
            self.moved(was)
            return None
        was = self.current()
        self.private = item
        if item.decision is not None:
            self.over = False
        self.moved(was)
        return None

    def moved(self, was: tuple[object, ...] | None) -> None:
        """The decision changed while a line was being read (a clock played for the player)."""
        if self.line is None or self.current() == was:
            return
        if not self.line.done() and self.reader.discard_pending():
            self.asked_for = self.current()  # what is typed from now on answers what comes next
        else:
            self.front.line("go_on")

    def show(self) -> None:
        """Put up the prompt for the decision now, unless it is up or a read answers another."""
        now = self.current()
        if now is not None and self.shown != now and (self.line is None or self.asked_for == now):
            if self.over:
                self.front.line("next_hand")
            else:
                assert self.private is not None and self.private.decision is not None
                show_menu(self.front, self.runtime, self.private)
            if self.line is not None:
                self.reader.prompt()  # the read under way now answers this
            self.shown = now
        if self.shown is not None and self.shown == now and self.line is None:
            self.line, self.asked_for = self.reader.request(), now

    async def run(self) -> int:
        front = self.front
        while True:
            while not front.inbox.empty():  # what the last answer (or a clock) brought
                if (code := self.take(front.inbox.get_nowait())) is not None:
                    return code
            if front.gone:
                return SIGPIPE_STATUS
            self.show()
            inbox = asyncio.ensure_future(front.inbox.get())
            waiting: set[asyncio.Future[object]] = {inbox}  # type: ignore[arg-type]
            if self.line is not None:
                waiting.add(self.line)  # type: ignore[arg-type]
            done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            if inbox not in done:
                inbox.cancel()
            else:
                if (code := self.take(inbox.result())) is not None:
                    return code
                if front.gone:
                    return SIGPIPE_STATUS
                continue
            answer = self.line.result() if self.line is not None else None
            self.line = None
            if answer is None or answer.strip().lower() in ("q", "quit"):
                return self.quit_now()
            toggle = toggle_typed(answer)
            if toggle is not None:  # a switch, at any prompt; the prompt stays
                language = front.language
                front.say(await flip(self.runtime, self.table_id, PLAYER_ID, toggle, language))
                continue
            await self.answer(answer)

    async def answer(self, answer: str) -> None:
        """What the player typed for the prompt on screen."""
        front = self.front
        if self.asked_for != self.current():
            if answer.strip():
                front.line("earlier")
            self.shown = None
            return
        if self.over:
            if answer.strip():
                front.line("next_hand_again")
                return
            await self.runtime.ready(self.table_id, PLAYER_ID)
            self.over, self.shown = False, None
            return
        private = self.private
        assert private is not None and private.decision is not None
        choice = read_answer(
            answer, private.decision, private.concealed, private.void, front.language
        )
        if isinstance(choice, Ask):
            front.say(choice.text)
            return
        try:
            await self.runtime.act(self.table_id, PLAYER_ID, choice, private.decision.version)
        except StaleActionError as error:
            front.line("not_accepted", error=error.in_language(front.language))
            self.shown = None
        except TableError as error:
            front.line("not_accepted", error=error.in_language(front.language))


def show_menu(front: TerminalFront, runtime: Runtime, private: PrivateSnapshot) -> None:
    decision = private.decision
    assert decision is not None
    language = front.language
    if front.public is not None:
        front.say(table_text(front.public, language))
    vocabulary = front.public.vocabulary if front.public is not None else ""
    front.say(hand_line(private, language, vocabulary))
    if decision.deadline is not None:
        left = max(0, math.ceil(decision.deadline - runtime.timers.now()))
        front.line("clock", seconds=left)
    for number, action in enumerate(decision.actions, 1):
        hint = _say(language, "suggested") if action == decision.suggestion else ""
        words = decision.words(action).in_language(language)
        front.say(f"  {number:>2}. {words}{hint}")


# ------------------------------------------------------------------ running it


def image_dir(value: str | None) -> Path | None:
    """The --images directory, made if need be; a TableError with one line if it cannot be."""
    if not value:
        return None
    path = Path(value)
    if path.exists() and not path.is_dir():
        raise TableError(Text("terminal.images_file", {"path": value}))
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        reason = error.strerror or str(error)
        raise TableError(
            Text("terminal.images_cannot", {"path": value, "reason": reason})
        ) from None
    return path


def terminal_language(choice: str | None, environ: dict[str, str] | None = None) -> str:
    """`--lang`, else the POSIX locale (LC_ALL, LC_MESSAGES, LANG, the first one set)."""
    if choice:
        return choice
    env = os.environ if environ is None else environ
    locale = next((env[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(name)), None)
    return language_of(locale)


async def play(
    args: argparse.Namespace,
    read: Reader | None,
    out: TextIO,
    timers: Timers | None = None,
) -> int:
    """Play in the terminal; `read` gives the next line (None: read the terminal itself)."""
    preset = find_preset(args.preset)
    language = terminal_language(getattr(args, "lang", None))
    # untimed unless asked, except where the rules fix the clock (the Sichuan table clock)
    time = args.time or fixed_clock(preset, rated=False) or "untimed"
    if time not in TIME_CONTROLS:
        choices = ", ".join(TIME_CONTROLS)
        raise TableError(Text("terminal.unknown_time", {"time": repr(time), "choices": choices}))
    players = seat_count_for(preset, args.players, rated=False)
    images = image_dir(args.images)
    db = getattr(args, "db", None)
    front = TerminalFront(out, images, language, db)
    if timers is None:
        timers = ManualTimers() if TIME_CONTROLS[time].untimed else SchedulerTimers()
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    store = await Store.open(db or ":memory:")  # a file keeps the hands for `replay`
    try:
        await _own_tables_only(store, db)
    except BaseException:
        await store.close()
        raise
    runtime = Runtime(store, front, timers, seed_source=lambda: seed)
    table_id: int | None = None
    try:
        await runtime.open()
        you = front.you  # the player's name: "You", 你
        table = await runtime.create_table(
            preset.id,
            creator_id=PLAYER_ID,
            creator_name=you,
            computers=players - 1,
            time_control=time,
            min_fan=getattr(args, "min_fan", None),
            table_options=getattr(args, "option", None) or (),
            name=_say(language, "table_name"),
            players=players,
            level=args.level,
        )
        table_id = table.id
        # the banner only once the table has taken every argument (level, minimum, ...)
        name = preset_text(preset.id, preset.name)
        front.line("welcome", preset=name, id=preset.id, seed=seed, you=you)
        if not table.time_control.untimed:  # what the clock gives, and what it does at zero
            clock = clock_text(table.time_control).in_language(language)
            rule_key = table.time_control.on_timeout_key
            if not preset.openings and has(f"{rule_key}.no_opening"):  # no swap or void to say
                rule_key += ".no_opening"
            rule = translate(language, rule_key)
            front.line("clock_rule", clock=clock, rule=rule)
        front.say(legend(preset.id, language))  # what the discards' marks mean, once
        await runtime.start_table(table.id, PLAYER_ID)
        reader: LineSource = LineReader(read) if read else TtyReader(sys.stdin.fileno(), front)
        try:
            return await PromptLoop(runtime, front, table.id, reader, args.hands).run()
        finally:
            reader.close()
    except asyncio.CancelledError:  # Ctrl-C
        front.say("")
        front.say(standings(front.public, front.language))
        raise
    finally:
        await runtime.close()
        if db and table_id is not None:  # the finished hands stay; no bot restores the table
            await store.close_table(table_id, "the terminal player left")
        await store.close()


async def _own_tables_only(store: Store, db: str | None) -> None:
    """`play --db FILE` restores no Discord table: a file holding one (a running bot's
    database) is refused, since this process would play its clocks too. A terminal table an
    earlier `play` left open (it was killed) is closed; its finished hands stay."""
    loaded, _ = await store.load_active_tables()
    if any(item.table.guild_id is not None for item in loaded):
        raise TableError(Text("terminal.db_has_tables", {"db": repr(db)}))
    for item in loaded:
        await store.close_table(item.table.id, "the terminal player left")


def _stdin_line() -> str | None:
    try:
        return input("> ")
    except EOFError:
        return None


def run_terminal(args: argparse.Namespace) -> int:
    """Entry point of `mahjong-bot play`."""
    language = terminal_language(getattr(args, "lang", None))
    try:
        read = None if sys.stdin.isatty() else _stdin_line
        return asyncio.run(play(args, read, sys.stdout))
    except (UnknownPresetError, TableError, StoreError) as error:
        message = error.in_language(language) if isinstance(error, TableError) else str(error)
        print(f"error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(_say(language, "bye"))
        return 130
