"""What the engine reads and writes for others: the score contract's readers, tenhou.net/6 logs."""
