"""When the reader of our output leaves (`mahjong-bot … | head -1`): the command line and the
terminal table stop quietly, as a command killed by SIGPIPE does."""

from __future__ import annotations

import os
import sys

SIGPIPE_STATUS = 141  # a shell's status for a command ended by SIGPIPE (128 + 13)


def reader_went_away() -> int:
    """Stop quietly, with SIGPIPE's status (128 + 13)."""
    stdout_to_nowhere()
    return SIGPIPE_STATUS


def stdout_to_nowhere() -> None:
    """Send what is still buffered for stdout, and anything after, to the null device, so the
    interpreter's last flush cannot raise BrokenPipeError again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
