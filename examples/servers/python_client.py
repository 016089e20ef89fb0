"""Calls the example MCP server with the official Python MCP SDK's client: a valid call, a
repairable call, a refused call and an unknown tool, and checks each answer.

    python3 python_client.py SERVER_COMMAND [ARGS...]

e.g. `python3 examples/servers/python_client.py target/debug/examples/mcp_server` (`.ci/run`
runs it; `pip install mcp` first). Prints each result, one line each. The calls and checks are
in `checks.py`, shared with `http_client.py`, which makes them over Streamable HTTP."""

import asyncio
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from checks import run_checks


async def main(command):
    params = StdioServerParameters(command=command[0], args=command[1:])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            return await run_checks(session)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    answered = asyncio.run(main(sys.argv[1:]))
    print(f"python MCP client: {answered} calls answered as expected")
