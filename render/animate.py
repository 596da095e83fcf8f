"""Short moving pictures for a table's big moments (RULES.md `hubei-laizi` "Pictures that move").

Each is an animated GIF drawn with Pillow, two seconds or less, whose final frame is the still
picture: turning the wild (a tile back flips over to the wild's face), a red / green / wild kong
(the tile drops onto the table and a ring pulses), and banner moments (a robbed kong, a kong
bloom, the start of the last draws, a gold or diamond settlement) where a title grows in over
the tiles concerned. `moments_of(state, events)` names the moments a change made; the Discord
front end plays them over the table picture (`animate_over`, whose last frame is the still
picture) on the table message; `render moment` writes each of them.

>>> data = animate_wild(9 + 4)
>>> data[:6], len(data) < 300_000
(b'GIF89a', True)
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from typing import NamedTuple

from PIL import Image, ImageDraw

from engine.events import Event
from engine.hand import HandState
from engine.i18n import Text
from engine.scoring.base import WinBy
from engine.settlement import Reason
from engine.table_facts import table_facts
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


class Moment(NamedTuple):
    """One moment to animate: its name ("wild" or a key of MOMENTS) and the tiles it shows."""

    name: str
    tiles: tuple[Tile, ...] = ()


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


def _wild_frames(wild: Tile, steps: int = 10, language: str = "en") -> list[Image.Image]:
    """A back flips over to the wild's face; the last frame adds what it is in words."""
    back, face = back_sprite(TILE), tile_sprite(wild, TILE, wild=True)
    title = say(language, "moment.wild.title")
    frames = []
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
    return frames


def _moment_frames(
    kind: str,
    tiles: Sequence[Tile] = (),
    wild: Tile | None = None,
    steps: int = 10,
    language: str = "en",
) -> list[Image.Image]:
    """The tiles drop in, the title grows, a ring pulses; the last frame adds the subtitle."""
    title, subtitle = (words.in_language(language) for words in MOMENTS[kind])
    sprites = [tile_sprite(t, TILE, wild=t == wild) for t in tiles]
    frames = []
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
    return frames


def _frames_of(moment: Moment, steps: int, language: str = "en") -> list[Image.Image]:
    if moment.name == "wild":
        return _wild_frames(moment.tiles[0], steps, language)
    # the wild kong's tile is the wild (badged); the other moments show no wild
    wild = moment.tiles[0] if moment.name == "wild_kong" and moment.tiles else None
    return _moment_frames(moment.name, moment.tiles, wild, steps, language)


def animate_wild(wild: Tile, language: str = "en") -> bytes:
    """The wild is turned: a back flips over to the wild's face, with its corner badge."""
    return _gif(_wild_frames(wild, language=language))


def animate_moment(
    kind: str, tiles: Sequence[Tile] = (), wild: Tile | None = None, language: str = "en"
) -> bytes:
    """A banner moment (see MOMENTS): the tiles drop in, the title grows, a ring pulses."""
    return _gif(_moment_frames(kind, tiles, wild, language=language))


# The table message's animation: each moment's banner over the still picture, then the still.
SHOWN_MOMENTS = 3  # the latest few of one edit (more would leave each too short to read)
BANNER_SCALE = 1.4  # the banner over an 864-px table picture (Discord shows it at 400 px)
BANNER_HOLD_MS = 300  # each banner's last frame (its subtitle)
STILL_HOLD_MS = 300  # the still picture, which then stays


def animate_over(still: Image.Image, moments: Sequence[Moment], language: str = "en") -> bytes:
    """One GIF for the table message: each moment's banner plays over the still picture, and
    the last frame is the still picture itself, pixel for pixel as `render.style.to_png`
    encodes it (its 128 colours come first in the GIF's palette). Two seconds at most; the
    GIF's comment names the moments shown.
    """
    shown = list(moments)[-SHOWN_MOMENTS:]
    if not shown:
        raise ValueError("an animation needs at least one moment")
    # exactly the still's quantization in to_png, so the final frame is the posted picture;
    # the banners are drawn over its colours, so what they leave uncovered stays the same
    still_p = still.convert("RGB").quantize(
        128, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    base = still_p.convert("RGB")
    budget = (MAX_MS - STILL_HOLD_MS) // len(shown)  # each moment's share of two seconds
    hold = min(BANNER_HOLD_MS, budget // 3)
    steps = max(2, min(10, (budget - hold) // FRAME_MS - 1))  # steps + 1 frames, then the hold
    size = (round(WIDTH * BANNER_SCALE), round(HEIGHT * BANNER_SCALE))
    at = ((base.width - size[0]) // 2, (base.height - size[1]) // 2)
    frames: list[Image.Image] = []
    durations: list[int] = []
    for moment in shown:
        banners = _frames_of(moment, steps, language)
        for index, banner in enumerate(banners):
            frame = base.copy()
            frame.paste(banner.resize(size, Image.Resampling.LANCZOS), at)
            frames.append(frame)
            durations.append(hold if index == len(banners) - 1 else FRAME_MS)
    durations.append(STILL_HOLD_MS)
    assert sum(durations) <= MAX_MS, "an animation runs two seconds at most"
    palette = _shared_palette(still_p, frames[len(frames) // 2])
    encoded = [frame.quantize(palette=palette, dither=Image.Dither.NONE) for frame in frames]
    encoded.append(_with_palette(still_p, palette))
    out = io.BytesIO()
    encoded[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=encoded[1:],
        duration=durations,
        optimize=False,  # keep the shared palette: unchanged pixels stay unchanged
        disposal=1,
        comment=("moments: " + " ".join(m.name for m in shown)).encode(),
    )  # no loop count: it plays once and stays on the still
    return out.getvalue()


def _shared_palette(still_p: Image.Image, banner_frame: Image.Image) -> Image.Image:
    """A palette image: the still's 128 colours first, then up to 127 of a banner frame's."""
    colours = still_p.getpalette()[: 128 * 3]  # type: ignore[index]
    extra = banner_frame.quantize(127, method=Image.Quantize.FASTOCTREE).getpalette()
    colours = (colours + [0, 0, 0] * 128)[: 128 * 3] + (extra or [])[: 127 * 3]
    palette = Image.new("P", (1, 1))
    palette.putpalette(colours + [0, 0, 0] * (256 - len(colours) // 3))
    return palette


def _with_palette(still_p: Image.Image, palette: Image.Image) -> Image.Image:
    """The still's own indices (its colours are the palette's first 128) on the shared palette."""
    image = still_p.copy()
    image.putpalette(palette.getpalette())  # type: ignore[arg-type]
    return image


_FIXED_KONGS = {RED: "red_kong", GREEN: "green_kong"}


def _wild_of(state: HandState) -> Tile | None:
    wilds = table_facts(state).wilds
    return wilds[0] if wilds else None


def deal_moments(state: HandState) -> list[Moment]:
    """The moments of a deal: the wild turned, when the hand has one."""
    if not state.preset.animated:
        return []
    wild = _wild_of(state)
    return [Moment("wild", (wild,))] if wild is not None else []


def moments_of(state: HandState, events: Sequence[Event]) -> list[Moment]:
    """The moments in the events of one or more actions (`state` is the hand after them), in
    order. Only public facts count: the wild, a set-down kong tile, wins, caps, and how many
    tiles were drawn (never which). A preset whose rules name no moving pictures
    (`Preset.animated`: hubei-laizi's only, their banners speak of its payments) has none, so
    other families' kong blooms and robbed kongs stay still."""
    if not state.preset.animated:
        return []
    wild = _wild_of(state)
    found: list[Moment] = []
    for event in events:
        if event.kind == "wild" and event.tile is not None:
            found.append(Moment("wild", (event.tile,)))
        elif event.kind == "fixed_kong" and event.tile is not None:
            kind = "wild_kong" if event.tile == wild else _FIXED_KONGS.get(event.tile)
            if kind is not None:
                found.append(Moment(kind, (event.tile,)))
        elif event.kind == "win":
            win = next((w for w in state.wins if w.seat == event.seat), None)
            if win is None:
                continue
            if win.by is WinBy.ROBBING_KONG:
                found.append(Moment("robbed_kong", (win.tile,)))
            if any(p.id == "kong_bloom" for p in win.score.patterns):
                found.append(Moment("kong_bloom", (win.tile,)))
            raised = [p for p in state.payments if p.reason is Reason.CAP and p.payee == win.seat]
            if raised:
                pays = {-d for d in win.deltas if d < 0}
                found.append(Moment("diamond" if pays == {60} else "gold"))
    last = state.preset.last_draws
    if last and _drew_into_last_draws(state.wall_left, events, last):
        found.append(Moment("last_draws"))
    return found


def _drew_into_last_draws(wall_left: int, events: Sequence[Event], last: int) -> bool:
    """Whether one of the events' draws took the wall from `last` tiles to `last - 1`: each
    draw takes one tile, so the wall after a draw is what is left now plus the draws after it."""
    draws_after = 0
    for event in reversed(events):
        if event.kind == "draw":
            if wall_left + draws_after == last - 1:
                return True
            draws_after += 1
    return False


def animations_of(
    state: HandState, events: Sequence[Event], language: str = "en"
) -> list[tuple[str, bytes]]:
    """Each moment of the events as its own GIF (what `render moment` writes), in `language`."""
    pictures = []
    for moment in moments_of(state, events):
        pictures.append((moment.name, _gif(_frames_of(moment, 10, language))))
    return pictures
