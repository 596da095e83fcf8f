# The presets module first: the presets hold rule components (engine.rules), which are defined
# over the preset types, so importing engine.rules before engine.presets would be circular.
from engine import presets as _presets  # noqa: F401
