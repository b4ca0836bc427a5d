"""qwixx-bot: the Qwixx family of dice games, played in Discord channels."""

from pathlib import Path


def _assets() -> Path:
    """The asset files (fonts, On Board boards, computer players' tables).

    The checkout keeps them in the top-level ``assets/`` folder; the package ships the
    same folder as ``bot/assets`` (pyproject.toml maps it). An installed wheel has
    only the latter; a checkout, or an editable install of one, only the former.
    """
    package = Path(__file__).resolve().parent
    shipped = package / "assets"
    return shipped if shipped.is_dir() else package.parent / "assets"


ASSETS = _assets()
