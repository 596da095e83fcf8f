"""tenhou.net/6 logs: read, ordered, their wall rebuilt, replayed, compared and written back."""
