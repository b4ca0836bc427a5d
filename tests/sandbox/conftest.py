"""Fixtures running the demo bot against a fresh sandbox."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.sandbox import Sandbox

from .demo_bot import DemoBot


@pytest.fixture
async def sb() -> AsyncIterator[Sandbox]:
    """A started sandbox with members Ana and Ben."""
    async with Sandbox(members=["Ana", "Ben"]) as sandbox:
        yield sandbox


@pytest.fixture
async def bot(sb: Sandbox) -> DemoBot:
    """The demo bot, logged in to the sandbox and ready."""
    demo = DemoBot()
    await sb.run_bot(demo)
    return demo
