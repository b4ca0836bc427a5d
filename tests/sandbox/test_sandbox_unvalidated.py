"""Without Discord's OpenAPI description the stand-in still refuses what its own checks
find: message and component limits, the 3-second acknowledgement, 15-minute tokens,
unknown endpoints.

The tests of those checks are imported from ``test_sandbox_faults`` and collected here
again, with the ``sb`` fixture below: the same tests, on a stand-in that has no
description, whether or not this checkout has one beside it.
"""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.sandbox import Sandbox

from .test_sandbox_faults import (  # noqa: F401 -- collected here again
    test_interaction_not_acknowledged_in_time_fails,
    test_interaction_token_expires_after_15_minutes,
    test_message_limits_answer_invalid_form_body,
    test_unknown_endpoint_is_404_and_recorded,
)


@pytest.fixture
async def sb(tmp_path: Path) -> AsyncIterator[Sandbox]:
    """A started sandbox with members Ana and Ben, and no OpenAPI description."""
    async with Sandbox(members=["Ana", "Ben"], openapi=tmp_path / "absent.json") as sandbox:
        assert sandbox.server.validator is None
        yield sandbox
