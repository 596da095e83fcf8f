"""The mahjong engine."""
