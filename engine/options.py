"""Table options: the choices a table of a preset makes when it is created (hk-fw2's minimum,
hubei-laizi's green and white dragons and no minimum; Riichi's `length`), one mechanism.

A preset declares its options (`TableOption`: a name, the values, the default, whether a rated
table may choose another value, how a value changes the preset, and the table minimum each value
sets). A table's choices are one dict, name to value; `choose` makes the preset the table plays,
and `stored` / `from_stored` are that dict as a table and its session keep it (older tables stored
`min_fan` and a list `table_options`: `from_stored` reads those too).

The minimum to win travels only as an option: a preset with one has a `min_fan` option (one
value where it is fixed, as hkos-3-v1's 3) or a switch that sets it (hubei-laizi's
`no_minimum`), and `Preset.min_fan` reads it from there.

>>> from engine.presets import find_preset
>>> fw2 = choose(find_preset("hk-fw2"), {"min_fan": 2})
>>> fw2.min_fan, choices_of(fw2), stored(fw2)
(2, {'min_fan': 2}, {'options': {'min_fan': 2}})
>>> choices_of(from_stored(find_preset("hubei-laizi"), {"table_options": ["no_minimum"]}))
{'green_white': False, 'no_minimum': True}
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from engine.i18n import Text, text

if TYPE_CHECKING:
    from engine.preset import Preset

OptionValue = bool | int | str
STORED_KEY = "options"  # where a table's choices sit in its stored options and its session
_WORDS_TRUE = ("on", "yes", "true")
_WORDS_FALSE = ("off", "no", "false")


@dataclass(frozen=True, slots=True)
class TableOption:
    """One choice a table of a preset makes. `apply` sets the preset's fields from the value
    alone (never from what another value set), so the options apply in any order, again and
    again; the default's `apply` leaves the registry's preset as it is."""

    name: str
    values: tuple[OptionValue, ...]
    default: OptionValue
    apply: Callable[[Preset, OptionValue], Preset] = lambda preset, _: preset  # data only
    rated: bool = True  # a rated table may choose a value other than the default
    # the table minimum to win each value sets, in the order of `values` (none: it sets none)
    minimums: tuple[int, ...] = ()

    @property
    def is_switch(self) -> bool:
        """An on/off option: named alone, it is on."""
        return self.values == (False, True)

    @property
    def is_choice(self) -> bool:
        """A table may choose among values (one value: the preset's fixed rule, as data)."""
        return len(self.values) > 1

    def parse(self, word: str) -> OptionValue:
        """The value a word names ('2', 'east', 'on'); ValueError naming the choices if none."""
        if self.is_switch and word.lower() in _WORDS_TRUE + _WORDS_FALSE:
            return word.lower() in _WORDS_TRUE
        for value in self.values:
            if not isinstance(value, bool) and str(value) == word:
                return value
        raise ValueError(self._refusal(word))

    def check(self, value: object) -> OptionValue:
        """The value itself if the option has it (True is not 1 here); else ValueError."""
        for known in self.values:
            if type(known) is type(value) and known == value:
                return known
        raise ValueError(self._refusal(repr(value)))

    def _refusal(self, shown: str) -> Text:
        values = ", ".join(value_word(v) for v in self.values)
        return text("fixups.preset.option_value", option=self.name, values=values, value=shown)


def minimum_option(*values: int) -> TableOption:
    """The `min_fan` option: a table minimum of one of `values`, the first by default; one
    value is the preset's fixed minimum."""
    return TableOption("min_fan", values, values[0], minimums=values)


def minimum(preset: Preset) -> int:
    """The table minimum to win the preset value plays at (0 where no option sets one)."""
    for option in preset.options:
        if option.minimums:
            value = dict(preset.chosen).get(option.name, option.default)
            return option.minimums[option.values.index(value)]
    return 0


def value_word(value: OptionValue) -> str:
    """A value as people type it: 'on', 'off', '2', 'east'."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def option_named(preset: Preset, name: str) -> TableOption:
    """The preset's option `name`; ValueError if it has none such."""
    for option in preset.options:
        if option.name == name:
            return option
    raise ValueError(text("fixups.preset.no_option", preset=preset.id, option=repr(name)))


def offered_options(preset: Preset) -> tuple[TableOption, ...]:
    """The options a table may choose (a one-value option is the preset's fixed rule)."""
    return tuple(o for o in preset.options if o.is_choice)


def has_option(preset: Preset, name: str) -> bool:
    return any(option.name == name for option in preset.options)


def choices_of(preset: Preset) -> dict[str, OptionValue]:
    """Every option of the preset with the value this preset value plays it at."""
    chosen = dict(preset.chosen)
    return {o.name: chosen.get(o.name, o.default) for o in preset.options}


def choose(preset: Preset, choices: Mapping[str, object]) -> Preset:
    """The preset as a table with these choices (on top of those it has) plays it; the id
    stays. ValueError naming the option or the value a preset does not have."""
    merged = choices_of(preset)
    for name, value in choices.items():
        merged[name] = option_named(preset, name).check(value)
    for option in preset.options:
        preset = option.apply(preset, merged[option.name])
    kept = tuple(
        sorted((o.name, merged[o.name]) for o in preset.options if merged[o.name] != o.default)
    )
    return replace(preset, chosen=kept)


def parse_choices(preset: Preset, words: Iterable[str]) -> dict[str, OptionValue]:
    """Choices as people type them: `green_white` (a switch on), `min_fan=2`, `length:east`."""
    found: dict[str, OptionValue] = {}
    for word in words:
        name, sep, value = word.replace(":", "=").partition("=")
        option = option_named(preset, name)
        if not sep and not option.is_switch:
            raise ValueError(option._refusal("''"))
        chosen = option.parse(value) if sep else True
        if name in found and found[name] != chosen:  # e.g. `--length east --option length=south`
            first, second = value_word(found[name]), value_word(chosen)
            raise ValueError(
                text("fixups.preset.option_twice", option=name, first=first, second=second)
            )
        found[name] = chosen
    return found


def unrated_choices(preset: Preset) -> list[str]:
    """The options this preset value has away from their default that a rated table may not."""
    chosen = dict(preset.chosen)
    return [o.name for o in preset.options if not o.rated and o.name in chosen]


def options_text(preset: Preset) -> str:
    """The choices away from the defaults, as a table's rules line shows them: 'min_fan 2',
    'green_white, no_minimum' ('' at the defaults)."""
    return ", ".join(
        name if value is True else f"{name} {value_word(value)}" for name, value in preset.chosen
    )


def stored(preset: Preset) -> dict[str, object]:
    """What a table and its session keep to play `preset` again: every option's value where a
    table has a choice (nothing for a preset without, so their stored form is as before)."""
    chosen = choices_of(preset)
    kept = {o.name: chosen[o.name] for o in offered_options(preset)}
    return {STORED_KEY: kept} if kept else {}


def from_stored(preset: Preset, data: Mapping[str, object]) -> Preset:
    """The preset as a stored table or session plays it: the choices in `stored`'s form, or in
    the form stored before it (`min_fan`, and a list `table_options` of switches)."""
    choices: dict[str, object] = dict(data.get(STORED_KEY) or {})  # type: ignore[call-overload]
    for name in data.get("table_options") or ():  # type: ignore[attr-defined]
        choices[str(name)] = True
    chosen = choose(preset, choices) if choices else preset
    return with_min_fan(chosen, data.get("min_fan"))  # type: ignore[arg-type]


def min_fan_choices(preset: Preset) -> tuple[int, ...]:
    """The minimums a table of this preset may choose (empty: the preset's own is fixed)."""
    offered = [o for o in offered_options(preset) if o.name == "min_fan"]
    return tuple(int(v) for o in offered for v in o.values)


def with_min_fan(preset: Preset, min_fan: int | None) -> Preset:
    """The preset as a table with this minimum plays it (None: the preset's default): its
    `min_fan` option, or a `no_minimum` switch for 0.

    >>> from engine.presets import find_preset
    >>> with_min_fan(find_preset("hk-fw2"), 3).min_fan
    3
    """
    if min_fan is None or min_fan == preset.min_fan:
        return preset
    if min_fan == 0 and has_option(preset, "no_minimum"):
        return choose(preset, {"no_minimum": True})  # hubei-laizi's switch
    choices = min_fan_choices(preset)
    if min_fan not in choices:
        if not choices:
            raise ValueError(
                text("fixups.preset.fixed_minimum", preset=preset.id, min_fan=preset.min_fan)
            )
        low, high = min(choices), max(choices)
        raise ValueError(
            text(
                "fixups.preset.minimum_range", preset=preset.id, low=low, high=high, min_fan=min_fan
            )
        )
    return choose(preset, {"min_fan": min_fan})
