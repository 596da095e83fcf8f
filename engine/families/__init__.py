"""The rule families: one folder each (presets, rules, scoring, the computers' advice); only the
registry (engine.presets) imports them."""
