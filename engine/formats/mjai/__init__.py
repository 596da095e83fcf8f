"""The mjai protocol (Riichi's AI world: Mortal, akochan, the mjai.app arena, mjai-reviewer):
tile names and events (engine.formats.mjai.tiles), a finished game of ours written as an mjai
event log (engine.formats.mjai.export), and one seat's hand rebuilt from the events it is sent and
decided by our computers (engine.formats.mjai.seat)."""
