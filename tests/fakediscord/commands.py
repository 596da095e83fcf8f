"""The synced command tree: storing a sync like Discord does, and building command data from it.

Building INTERACTION_CREATE data from what the bot synced (not from the bot's Python objects)
is the point: a slash command the bot forgot to sync, or an option whose type changed, fails
here as it would for a real user.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .messages import invalid_form

SUBCOMMAND, SUBCOMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, NUMBER = 3, 4, 5, 10
_NAME = re.compile(r"^[-_\w]{1,32}$")

OptionConverter = Callable[[dict[str, Any], Any], Any]


def store_sync(
    body: list[dict[str, Any]],
    previous: Sequence[dict[str, Any]],
    new_id: Callable[[], int],
    application_id: int,
    guild_id: int | None,
) -> list[dict[str, Any]]:
    """Return the stored commands for a bulk overwrite; a command keeps its id across syncs."""
    check_sync(body)
    old = {(c["name"], c.get("type", 1)): c for c in previous}
    stored = []
    for command in body:
        kept = old.get((command["name"], command.get("type", 1)))
        item = {
            "type": 1,
            "description": "",
            "default_member_permissions": None,
            "nsfw": False,
            **command,
            "id": kept["id"] if kept else str(new_id()),
            "application_id": str(application_id),
            "version": str(new_id()),
        }
        if guild_id is not None:
            item["guild_id"] = str(guild_id)
        stored.append(item)
    return stored


def check_sync(body: list[dict[str, Any]]) -> None:
    """Raise the 400 Discord gives for a command list it would not accept."""
    errors: dict[str, str] = {}
    seen: set[tuple[str, int]] = set()
    for index, command in enumerate(body):
        key = (command.get("name", ""), command.get("type", 1))
        if key in seen:
            errors[f"{index}.name"] = f"duplicate command {key[0]!r}"
        seen.add(key)
        if key[1] == 1:
            errors |= _option_errors(f"{index}", command)
    if errors:
        raise invalid_form(errors)


def _option_errors(path: str, node: dict[str, Any]) -> dict[str, str]:
    errors: dict[str, str] = {}
    name = node.get("name", "")
    if not _NAME.match(name) or name != name.lower():
        errors[f"{path}.name"] = f"{name!r} must be 1-32 lowercase word characters or -"
    if not 1 <= len(node.get("description", "")) <= 100:
        errors[f"{path}.description"] = "must be 1-100 characters"
    options = node.get("options", [])
    if len(options) > 25:
        errors[f"{path}.options"] = "Must be 25 or fewer in length."
    required = [bool(o.get("required")) for o in options if o.get("type") not in (1, 2)]
    if required != sorted(required, reverse=True):
        errors[f"{path}.options"] = "required options must come before optional ones"
    if len(node.get("choices", [])) > 25:
        errors[f"{path}.choices"] = "Must be 25 or fewer in length."
    for index, option in enumerate(options):
        errors |= _option_errors(f"{path}.options.{index}", option)
    return errors


def find_command(
    commands: Sequence[dict[str, Any]], name: str, kind: int = 1
) -> dict[str, Any] | None:
    """Return the stored command with this name and type."""
    return next((c for c in commands if c["name"] == name and c.get("type", 1) == kind), None)


def command_paths(commands: Sequence[dict[str, Any]]) -> list[str]:
    """List invocable slash paths, e.g. ``["demo hello", "demo slow"]``."""
    paths: list[str] = []
    for command in commands:
        if command.get("type", 1) == 1:
            paths += _paths(command["name"], command.get("options", []))
    return sorted(paths)


def _paths(prefix: str, options: list[dict[str, Any]]) -> list[str]:
    nested = [o for o in options if o.get("type") in (SUBCOMMAND, SUBCOMMAND_GROUP)]
    if not nested:
        return [prefix]
    return [p for o in nested for p in _paths(f"{prefix} {o['name']}", o.get("options", []))]


def resolve_path(
    command: dict[str, Any], parts: Sequence[str]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Walk subcommand groups and subcommands; return that chain and the leaf's option defs."""
    chain: list[dict[str, Any]] = []
    defs: list[dict[str, Any]] = command.get("options", [])
    for part in parts:
        node = next(
            (o for o in defs if o["name"] == part and o["type"] in (SUBCOMMAND, SUBCOMMAND_GROUP)),
            None,
        )
        if node is None:
            raise LookupError(f"/{command['name']} has no subcommand path {' '.join(parts)!r}")
        chain.append(node)
        defs = node.get("options", [])
    if any(o["type"] in (SUBCOMMAND, SUBCOMMAND_GROUP) for o in defs):
        raise LookupError(
            f"/{command['name']} {' '.join(parts)} needs a subcommand; "
            f"choose one of {command_paths([command])}"
        )
    return chain, defs


def build_options(
    defs: Sequence[dict[str, Any]],
    given: Mapping[str, Any],
    convert: OptionConverter,
    *,
    focused: str | None = None,
) -> list[dict[str, Any]]:
    """Build the leaf options; with ``focused`` (autocomplete) values are partial and unchecked."""
    by_name = {d["name"]: d for d in defs}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        raise ValueError(f"unknown options {unknown}; the command takes {sorted(by_name)}")
    if focused is not None and focused not in given:
        raise ValueError(f"focused option {focused!r} needs a (partial) value in options")
    built = []
    for definition in defs:
        name = definition["name"]
        if name not in given:
            if definition.get("required") and focused is None:
                raise ValueError(f"required option {name!r} is missing")
            continue
        entry: dict[str, Any] = {"name": name, "type": definition["type"]}
        if name == focused:
            entry |= {"value": str(given[name]), "focused": True}
        else:
            entry["value"] = convert(definition, given[name])
        built.append(entry)
    return built


def nest_options(
    chain: Sequence[dict[str, Any]], leaf: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Wrap leaf options in their subcommand (and group) entries."""
    options = leaf
    for node in reversed(chain):
        options = [{"name": node["name"], "type": node["type"], "options": options}]
    return options


def check_primitive(definition: dict[str, Any], value: Any) -> Any:
    """Check a string/number/boolean value against its definition, as the Discord client would."""
    kind, name = definition["type"], definition["name"]
    expected = {STRING: (str,), INTEGER: (int,), NUMBER: (int, float), BOOLEAN: (bool,)}[kind]
    if not isinstance(value, expected) or (kind != BOOLEAN and isinstance(value, bool)):
        raise ValueError(f"option {name!r} takes {expected[0].__name__}, got {value!r}")
    choices = [choice["value"] for choice in definition.get("choices", [])]
    if choices and value not in choices:
        raise ValueError(f"option {name!r} must be one of {choices}, got {value!r}")
    size = len(value) if kind == STRING else value
    low = definition.get("min_length" if kind == STRING else "min_value")
    high = definition.get("max_length" if kind == STRING else "max_value")
    if kind != BOOLEAN and ((low is not None and size < low) or (high is not None and size > high)):
        raise ValueError(f"option {name!r} must be within [{low}, {high}], got {value!r}")
    return value
