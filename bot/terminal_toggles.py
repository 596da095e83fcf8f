"""The terminal's switches of the runtime's automatic moves (bot/runtime/automatic.py): typed at
any prompt, `auto win`, `no calls` or `auto discard` turns one on or off (each is off at the
start, as at a Discord table), and the line says which are on."""

from __future__ import annotations

from bot.runtime.automatic import TOGGLES, toggles_of
from bot.runtime.manager import Runtime
from bot.runtime.toggles import set_toggle
from engine.i18n import translate

# what the player may type for each toggle (spaces, hyphens and underscores alike)
_TYPED = {toggle: toggle.replace("_", " ") for toggle in TOGGLES}


def toggle_typed(answer: str) -> str | None:
    """The toggle a typed line names (`auto win`, `auto-win`, `no_calls`), or None."""
    typed = " ".join(answer.strip().lower().replace("-", " ").replace("_", " ").split())
    return next((toggle for toggle, words in _TYPED.items() if typed == words), None)


async def flip(runtime: Runtime, table_id: int, player_id: str, toggle: str, language: str) -> str:
    """Turn the toggle over for the player; the line saying what is on now."""
    on = toggle not in toggles_of(runtime.get(table_id), player_id)
    chosen = await set_toggle(runtime, table_id, player_id, toggle, on)
    names = [translate(language, f"terminal.toggle.{t}") for t in TOGGLES if t in chosen]
    word = translate(language, f"terminal.toggle.{toggle}")
    state = translate(language, "terminal.toggle.on" if on else "terminal.toggle.off", toggle=word)
    listed = ", ".join(names) or translate(language, "terminal.toggle.none")
    return translate(language, "terminal.toggle.now", change=state, on=listed)
