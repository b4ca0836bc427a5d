"""A bot's process killed in the middle of a request leaves the stand-in a request whose
body never arrives. Discord would serve nothing and report nothing; so does the stand-in
(it counted it among its own crashes, and a test that kills a process failed by chance)."""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit

import pytest

from bot.sandbox import Sandbox
from bot.sandbox.rest import SENDER_LEFT

BOUNDARY = "cut-short"
BODIES = {
    # cut in the middle of the first part's headers, as a killed process leaves a card's edit
    "multipart": (
        f"multipart/form-data; boundary={BOUNDARY}",
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="payload_js',
    ),
    "json": ("application/json", '{"content": "half a'),
}


@pytest.mark.parametrize("kind", sorted(BODIES))
async def test_a_request_whose_sender_leaves_mid_body_is_not_served_nor_a_failure(
    sb: Sandbox, kind: str
) -> None:
    url = urlsplit(sb.server.base_url)
    assert url.hostname is not None and url.port is not None
    path = f"/channels/{sb.channel.id}/messages"
    content_type, partial = BODIES[kind]
    head = (
        f"POST {url.path}{path} HTTP/1.1\r\nHost: {url.netloc}\r\n"
        "Authorization: Bot sandbox-token\r\n"
        f"Content-Type: {content_type}\r\nContent-Length: 4096\r\n\r\n"
    )
    _, writer = await asyncio.open_connection(url.hostname, url.port)
    writer.write((head + partial).encode())
    await writer.drain()
    writer.close()  # the process is gone: the other 4,000 bytes never come
    await writer.wait_closed()

    call = await sb.wait_for(
        lambda: next((c for c in sb.server.calls if c.path == path and c.status), None)
    )
    assert call.status == SENDER_LEFT
    assert call.body is None and call.answer is None
    assert sb.failures == []
    assert sb.messages(sb.channel) == []
