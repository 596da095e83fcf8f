"""`python -m bot` runs the same command line as `mahjong-bot`."""

import sys

from bot.cli import main

sys.exit(main())
