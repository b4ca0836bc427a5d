"""qwixx-bot: the Qwixx family of dice games, played in Discord channels."""

from pathlib import Path

ASSETS = Path(__file__).resolve().parent.parent / "assets"
