"""Short moving pictures for a table's big moments (RULES.md `hubei-laizi` "Pictures that move").

Each is an animated GIF drawn with Pillow, two seconds or less, whose final frame is the still
picture: turning the wild (a tile back flips over to the wild's face), a red / green / wild kong
(the tile drops onto the table and a ring pulses), and banner moments (a robbed kong, a kong
bloom, the start of the last draws, a gold or diamond settlement) where a title grows in over
the tiles concerned. `animation_for(event)` names the moment an engine event is, so the runtime
posts one with the table message; `render moment` writes each of them.

>>> data = animate_wild(9 + 4)
>>> data[:6], len(data) < 300_000
(b'GIF89a', True)
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.events import Event
from engine.hand import HandState
from engine.i18n import Text
from engine.rules_hubei import TurnedWildPart
from engine.scoring.base import WinBy
from engine.settlement import Reason
from engine.tiles import GREEN, RED, Tile, tile_name
from render.style import FELT, GOLD, PANEL, TEXT, TEXT_DIM, paste_text, rounded_box, text_width
from render.tiles import back_sprite, tile_sprite
from render.words import say

WIDTH, HEIGHT = 400, 220  # Discord shows an embed image about 400 px wide
TILE = 64
FRAME_MS = 80
MAX_MS = 2000
TITLE_PX, SUB_PX = 30, 20

# banner moments: (title, subtitle), worded in the catalogue (pictures.moment.<name>.*)
MOMENTS: dict[str, tuple[Text, Text]] = {
    name: (Text(f"pictures.moment.{name}.title"), Text(f"pictures.moment.{name}.subtitle"))
    for name in (
        "red_kong",
        "green_kong",
        "wild_kong",
        "robbed_kong",
        "kong_bloom",
        "last_draws",
        "gold",
        "diamond",
    )
}


def _canvas() -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    rounded_box(image, (8, 8, WIDTH - 8, HEIGHT - 8), 14, PANEL)
    return image


def _centred(canvas: Image.Image, sprite: Image.Image, cx: int, cy: int) -> None:
    canvas.paste(sprite, (cx - sprite.width // 2, cy - sprite.height // 2), sprite)


def _gif(frames: Sequence[Image.Image], hold_last_ms: int = 600) -> bytes:
    """Encode frames at FRAME_MS each, the last held; the whole stays within MAX_MS."""
    durations = [FRAME_MS] * (len(frames) - 1) + [hold_last_ms]
    assert sum(durations) <= MAX_MS, "an animation runs two seconds at most"
    palette = [f.quantize(96, method=Image.Quantize.FASTOCTREE) for f in frames]
    out = io.BytesIO()
    palette[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=palette[1:],
        duration=durations,
        loop=1,  # play once (Discord loops GIFs anyway; the last frame is the still)
        optimize=True,
        disposal=1,
    )
    return out.getvalue()


def animate_wild(wild: Tile, language: str = "en") -> bytes:
    """The wild is turned: a back flips over to the wild's face, with its corner badge."""
    back, face = back_sprite(TILE), tile_sprite(wild, TILE, wild=True)
    title = say(language, "moment.wild.title")
    frames = []
    steps = 10
    for step in range(steps + 1):
        canvas = _canvas()
        paste_text(canvas, (WIDTH // 2, 20), title, TITLE_PX, GOLD, align="c")
        angle = math.pi * step / steps
        sprite = back if angle < math.pi / 2 else face
        squeeze = abs(math.cos(angle))
        width = max(2, round(sprite.width * squeeze))
        _centred(canvas, sprite.resize((width, sprite.height)), WIDTH // 2, HEIGHT // 2 + 10)
        frames.append(canvas)
    final = frames[-1].copy()
    caption = say(language, "moment.wild.subtitle", tile=tile_name(wild))
    paste_text(final, (WIDTH // 2, HEIGHT - 48), caption, SUB_PX, TEXT, align="c")
    frames.append(final)
    return _gif(frames)


def animate_moment(
    kind: str, tiles: Sequence[Tile] = (), wild: Tile | None = None, language: str = "en"
) -> bytes:
    """A banner moment (see MOMENTS): the tiles drop in, the title grows, a ring pulses."""
    title, subtitle = (words.in_language(language) for words in MOMENTS[kind])
    sprites = [tile_sprite(t, TILE, wild=t == wild) for t in tiles]
    frames = []
    steps = 10
    total_w = sum(s.width for s in sprites) + 6 * max(0, len(sprites) - 1)
    for step in range(steps + 1):
        progress = step / steps
        ease = 1 - (1 - progress) ** 3
        canvas = _canvas()
        draw = ImageDraw.Draw(canvas)
        cy = HEIGHT // 2 + 16
        if sprites:
            ring = round(20 + 50 * ease)
            alpha_colour = tuple(
                round(c * (1 - ease) + p * ease) for c, p in zip(GOLD, PANEL, strict=True)
            )
            draw.ellipse(
                (WIDTH // 2 - ring, cy - ring, WIDTH // 2 + ring, cy + ring),
                outline=alpha_colour,
                width=4,
            )
            x = WIDTH // 2 - total_w // 2
            drop = round((1 - ease) * -80)
            for sprite in sprites:
                canvas.paste(sprite, (x, cy - sprite.height // 2 + drop), sprite)
                x += sprite.width + 6
        px = max(12, round(TITLE_PX * (0.5 + 0.5 * ease)))
        paste_text(canvas, (WIDTH // 2, 22), title, px, GOLD, align="c")
        frames.append(canvas)
    final = frames[-1].copy()
    if text_width(subtitle, SUB_PX) > WIDTH - 40:
        subtitle = subtitle.replace("：", ":").split(":")[0]
    paste_text(final, (WIDTH // 2, HEIGHT - 44), subtitle, SUB_PX, TEXT_DIM, align="c")
    frames.append(final)
    return _gif(frames)


_FIXED_KONGS = {RED: "red_kong", GREEN: "green_kong"}


def animation_for(event: Event, wild: Tile | None = None) -> tuple[str, bytes] | None:
    """The moving picture an engine event is, as (moment name, GIF bytes), or None.

    `wild` is the hand's wild (it tells a wild kong from a red one and badges the tile).
    """
    if event.kind == "wild" and event.tile is not None:
        return "wild", animate_wild(event.tile)
    if event.kind == "fixed_kong" and event.tile is not None:
        kind = "wild_kong" if event.tile == wild else _FIXED_KONGS.get(event.tile)
        if kind is None:
            return None
        return kind, animate_moment(kind, (event.tile,), wild)
    return None


def moments_of(state: HandState, events: Sequence[Event]) -> list[tuple[str, tuple[Tile, ...]]]:
    """The moments in the events one action made: (moment name, tiles to show), in order."""
    wild_part = state.part_of(TurnedWildPart)
    wild = wild_part.wild if wild_part is not None else None
    found: list[tuple[str, tuple[Tile, ...]]] = []
    for event in events:
        if event.kind == "wild" and event.tile is not None:
            found.append(("wild", (event.tile,)))
        elif event.kind == "fixed_kong" and event.tile is not None:
            kind = "wild_kong" if event.tile == wild else _FIXED_KONGS.get(event.tile)
            if kind is not None:
                found.append((kind, (event.tile,)))
        elif event.kind == "win":
            win = next((w for w in state.wins if w.seat == event.seat), None)
            if win is None:
                continue
            if win.by is WinBy.ROBBING_KONG:
                found.append(("robbed_kong", (win.tile,)))
            if any(p.id == "kong_bloom" for p in win.score.patterns):
                found.append(("kong_bloom", (win.tile,)))
            raised = [p for p in state.payments if p.reason is Reason.CAP and p.payee == win.seat]
            if raised:
                pays = {-d for d in win.deltas if d < 0}
                found.append(("diamond" if pays == {60} else "gold", ()))
    last = state.preset.last_draws
    drew = any(e.kind == "draw" for e in events)
    if last and drew and state.wall_left == last - 1 and not state.is_over:
        found.append(("last_draws", ()))
    return found


def animations_of(
    state: HandState, events: Sequence[Event], language: str = "en"
) -> list[tuple[str, bytes]]:
    """The moving pictures to post with the table message after one action, in `language`."""
    wild_part = state.part_of(TurnedWildPart)
    wild = wild_part.wild if wild_part is not None else None
    pictures = []
    for name, tiles in moments_of(state, events):
        if name == "wild":
            data = animate_wild(tiles[0], language)
        else:
            data = animate_moment(name, tiles, wild, language)
        pictures.append((name, data))
    return pictures
