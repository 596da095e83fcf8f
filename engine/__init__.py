"""The mahjong engine."""

# The preset registry first: presets built from rule components import engine.rules, which
# imports the registry's enums, so the registry must start loading before engine.rules does.
from engine import presets as _presets  # noqa: F401
