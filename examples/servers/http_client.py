"""Calls an MCP server over Streamable HTTP with the official Python MCP SDK's client: the same
valid, repairable, refused and unknown-tool calls and checks as `python_client.py` (both run
`checks.py`), against a server exposing `book_flight` and `get_weather` behind toolgate's gate.

    python3 http_client.py [--mode MODE] URL

e.g. `python3 examples/servers/http_client.py http://127.0.0.1:3000/mcp` (`pip install mcp`
first); `--mode` as for `python_client.py`. Prints each result, one line each."""

import asyncio
import sys

from mcp import Client

from checks import run_checks


async def main(url, mode):
    async with Client(url, mode=mode) as client:
        print("protocol version:", client.protocol_version)
        return await run_checks(client)


if __name__ == "__main__":
    args = sys.argv[1:]
    mode = "auto"
    if args[:1] == ["--mode"]:
        mode, args = args[1], args[2:]
    if len(args) != 1:
        sys.exit(__doc__)
    answered = asyncio.run(main(args[0], mode))
    print(f"python MCP client ({mode}) over Streamable HTTP: {answered} calls answered as expected")
