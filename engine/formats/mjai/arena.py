"""Our table speaking mjai to the seats' players: each seat's view of the events (the others'
deals and draws as `?`) and a seat's reaction read back as our engine's action. The tests drive
whole games through `mahjong-bot mjai` bots with it; a table seat played by an mjai engine
(issue 41, item 2) is the same two steps around the engine's process.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.actions import Action
from engine.actions import ActionKind as Kind
from engine.formats.mjai.export import MJAI_SEATS, Writer
from engine.formats.mjai.seat import Event, tile_of
from engine.formats.mjai.tiles import UNKNOWN, MjaiError
from engine.hand import HandState, Phase
from engine.presets import riichi_terms
from engine.tiles import kind_of

Reactor = Callable[[int, list[Event]], Event]  # (player, the events since its last turn)


def seat_view(event: Event, player: int) -> Event:
    """The event as `player` is sent it: the others' deals and draws as `?`."""
    kind = event["type"]
    if kind == "start_kyoku":
        tehais = [
            hand if p == player else [UNKNOWN] * len(hand) for p, hand in enumerate(event["tehais"])
        ]
        return {**event, "tehais": tehais}
    if kind == "tsumo" and event["actor"] != player:
        return {**event, "pai": UNKNOWN}
    return event


def action_of(state: HandState, seat: int, reaction: Event, reaching: bool) -> Action:
    """A seat's mjai reaction as our engine's action (`reaching`: the seat's `reach` was
    accepted, so its `dahai` is the riichi discard); MjaiError for a reaction that is no
    legal action of ours."""
    kind = reaction.get("type")
    window = state.phase is not Phase.TURN
    try:
        if kind == "none":
            action = Action(seat, Kind.PASS)
        elif kind == "dahai":
            action = Action(
                seat, riichi_terms.RIICHI if reaching else Kind.DISCARD, (tile_of(reaction["pai"]),)
            )
        elif kind == "reach":
            action = Action(seat, riichi_terms.RIICHI)  # a declaration: its discard follows
        elif kind == "hora":
            action = Action(seat, Kind.WIN)
        elif kind == "ryukyoku":
            action = Action(seat, riichi_terms.NINE_TERMINALS)
        elif kind == "chi":
            tiles = [tile_of(reaction["pai"]), *map(tile_of, reaction["consumed"])]
            action = Action(seat, Kind.CHOW, tuple(sorted(map(kind_of, tiles))))
        elif kind in ("pon", "daiminkan"):
            claimed = tile_of(reaction["pai"])
            action = Action(seat, Kind.PUNG if kind == "pon" else Kind.KONG, (claimed,))
        elif kind == "ankan":
            action = Action(seat, Kind.CONCEALED_KONG, (kind_of(tile_of(reaction["consumed"][0])),))
        elif kind == "kakan":
            action = Action(seat, Kind.ADDED_KONG, (kind_of(tile_of(reaction["pai"])),))
        else:
            raise MjaiError(f"{kind!r} is no reaction")
    except (KeyError, IndexError, TypeError):
        raise MjaiError(f"a reaction without its fields: {reaction!r}") from None
    legal = state.legal_actions(seat)
    if action.kind is riichi_terms.RIICHI and not action.tiles:
        if any(a.kind is riichi_terms.RIICHI for a in legal):
            return action
    elif action in legal:
        return action
    where = "in a claim window" if window else "on its turn"
    raise MjaiError(f"seat {seat}'s reaction {reaction!r} is not legal {where}")


def reaction_action(
    state: HandState, seat: int, player: int, reaction: Event, react: Reactor
) -> tuple[Action, bool]:
    """A seat's reaction as our action, and whether it declared riichi: a declaration is
    answered with its `reach` event (through `react`) and the discard read back is the riichi
    discard. MjaiError for what is no legal action."""
    action = action_of(state, seat, reaction, False)
    if action.kind is not riichi_terms.RIICHI or action.tiles:
        return action, False
    reaction = react(player, [{"type": "reach", "actor": player}])
    action = action_of(state, seat, reaction, True)
    if action.kind is not riichi_terms.RIICHI:
        raise MjaiError(f"player {player} declared riichi, then {reaction!r}")
    return action, True


def play_hand(state: HandState, names: list[str] | None, react: Reactor) -> list[Event]:
    """A hand of our table played to its end by mjai players: each decision asked of its
    seat's player with the events it has not seen yet (its own view); returns the hand's
    whole log (every tile shown). `names` starts the game's stream (the first hand)."""
    writer = Writer(state)
    sent = [0] * MJAI_SEATS  # how much of the log each player has been sent
    if names is not None:  # sent alone, as arenas do: a bot may load what it needs then
        writer.events.append({"type": "start_game", "names": names})
        for player in range(MJAI_SEATS):
            react(player, [{"type": "start_game", "names": names, "id": player}])
            sent[player] = 1
    writer.start()
    reach_sent: set[int] = set()

    def ask(player: int, extra: list[Event]) -> Event:
        batch = [seat_view(e, player) for e in writer.events[sent[player] :]]
        sent[player] = len(writer.events)
        if player in reach_sent:  # its own reach, sent when it declared, is not sent again
            batch = [e for e in batch if not (e["type"] == "reach" and e["actor"] == player)]
            reach_sent.discard(player)
        return react(player, batch + extra)

    while not state.is_over:
        seat = state.seats_to_act()[0]
        player = writer.player(seat)
        action, reached = reaction_action(state, seat, player, ask(player, []), react)
        if reached:
            reach_sent.add(player)
        writer.apply(action)
    writer.end()
    for player in range(MJAI_SEATS):  # the hand's end, answered with none
        ask(player, [])
    return writer.events
