"""Calls an MCP server over Streamable HTTP with the official Python MCP SDK's client: the same
valid, repairable, refused and unknown-tool calls and checks as `python_client.py` (both run
`checks.py`), against a server exposing `book_flight` and `get_weather` behind toolgate's gate.

    python3 http_client.py URL

e.g. `python3 examples/servers/http_client.py http://127.0.0.1:3000/mcp` (`pip install mcp`
first). Prints each result, one line each."""

import asyncio
import sys

from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from checks import run_checks


async def main(url):
    async with streamable_http_client(url) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            return await run_checks(session)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    answered = asyncio.run(main(sys.argv[1]))
    print(f"python MCP client over Streamable HTTP: {answered} calls answered as expected")
