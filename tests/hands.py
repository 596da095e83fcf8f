"""Helpers the engine tests share: play actions by their notation, read a score's patterns."""

from __future__ import annotations

from engine.actions import Action
from engine.events import Event
from engine.hand import HandState


def act(state: HandState, *texts: str) -> list[Event]:
    """Apply actions written in the log's notation ("0 discard 5m"); their events, in order."""
    events: list[Event] = []
    for text in texts:
        events += state.apply(Action.parse(text))
    return events


def pattern_ids(scored: dict[str, object]) -> dict[str, int]:
    """A score answer's patterns as id -> fan."""
    return {p["id"]: p["fan"] for p in scored["patterns"]}  # type: ignore[attr-defined]
