"""The selfdraw family: its presets, rules, scoring and the computers' advice."""
