"""The chinese-classical family: its preset, rules, scoring and the computers' advice."""
