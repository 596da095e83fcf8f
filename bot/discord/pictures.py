"""The pictures the bot posts, drawn off the event loop.

The views come in the runtime's snapshots (a public snapshot's `TableView` and `ResultView`
carry no concealed tile of a seat still playing; a private snapshot's `HandView` goes only to
its own player, by DM or ephemeral message). They are drawn and encoded on one worker thread,
so a click is acknowledged before any pixel is drawn and renders never race.
"""

from __future__ import annotations

import asyncio
import io
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import discord
from PIL import Image

from render import render_hand, render_result, render_standings, render_table, to_png
from render.animate import Moment, animate_over
from render.standings import StandingsView
from render.views import HandView, ResultView, TableView

View = HandView | TableView | ResultView | StandingsView


def draw(view: View, language: str = "en") -> bytes:
    """Draw a view and encode it as PNG (blocking: call through `Painter.png`)."""
    return to_png(picture_of(view, language))


def picture_of(view: View, language: str = "en") -> Image.Image:
    """Draw a view in `language` (blocking)."""
    if isinstance(view, HandView):
        return render_hand(view, language=language)
    if isinstance(view, TableView):
        return render_table(view, language=language)
    if isinstance(view, StandingsView):
        return render_standings(view, language=language)
    return render_result(view, language=language)


def draw_animation(view: View, moments: Sequence[Moment], language: str = "en") -> bytes:
    """The moments played over a view's picture, as a GIF ending on that picture (blocking)."""
    return animate_over(picture_of(view, language), moments, language)


class Painter:
    """Draws pictures on one worker thread, remembers the last few, and what each message shows."""

    def __init__(self, keep: int = 16) -> None:
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mahjong-render")
        self._last: dict[object, tuple[View, str, bytes]] = {}
        self._recent: OrderedDict[tuple[View, str], bytes] = OrderedDict()
        self._keep = keep

    async def png(self, view: View, language: str = "en") -> bytes:
        """The PNG of `view` in `language`, drawn off the event loop (or reused if just drawn)."""
        data = self._recent.get((view, language))
        if data is None:
            loop = asyncio.get_running_loop()
            data = await loop.run_in_executor(self._executor, draw, view, language)
            self._recent[(view, language)] = data
            while len(self._recent) > self._keep:
                self._recent.popitem(last=False)
        else:
            self._recent.move_to_end((view, language))
        return data

    async def gif(self, view: View, moments: Sequence[Moment], language: str = "en") -> bytes:
        """The GIF of `moments` played over `view`'s picture, drawn off the event loop."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._executor, draw_animation, view, tuple(moments), language
        )

    async def file(self, view: View, filename: str, language: str = "en") -> discord.File:
        """A discord.File of `view`'s picture in `language`."""
        return discord.File(io.BytesIO(await self.png(view, language)), filename=filename)

    def unchanged(self, key: object, view: View | None, language: str = "en") -> bool:
        """Whether the message `key` already shows exactly this picture, in this language."""
        last = self._last.get(key)
        return view is not None and last is not None and last[:2] == (view, language)

    def remember(
        self, key: object, view: View | None, language: str = "en", data: bytes = b""
    ) -> None:
        """Note what message `key` shows now (None: no picture)."""
        if view is None:
            self._last.pop(key, None)
        else:
            self._last[key] = (view, language, data)

    def close(self) -> None:
        """Stop the worker thread (pending drawings finish first)."""
        self._executor.shutdown(wait=True)
