"""Readable goldens of seeded computer-only sessions, one file per preset (see regen.py)."""
