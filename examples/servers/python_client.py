"""Calls the example MCP server with the official Python MCP SDK's client: a valid call, a
repairable call, a refused call and an unknown tool, and checks each answer.

    python3 python_client.py [--mode MODE] SERVER_COMMAND [ARGS...]

e.g. `python3 examples/servers/python_client.py target/debug/examples/mcp_server` (`.ci/run`
runs it; `pip install mcp` first). `--mode` is the SDK client's protocol mode: `legacy` (the
2025 initialize handshake), `2026-07-28` (MCP's stateless era) or `auto` (the default:
`server/discover` first). Prints each result, one line each. The calls and checks are in
`checks.py`, shared with `http_client.py`, which makes them over Streamable HTTP."""

import asyncio
import sys

from mcp import Client, StdioServerParameters

from checks import run_checks


async def main(command, mode):
    params = StdioServerParameters(command=command[0], args=command[1:])
    async with Client(params, mode=mode) as client:
        print("protocol version:", client.protocol_version)
        return await run_checks(client)


if __name__ == "__main__":
    args = sys.argv[1:]
    mode = "auto"
    if args[:1] == ["--mode"]:
        mode, args = args[1], args[2:]
    if not args:
        sys.exit(__doc__)
    answered = asyncio.run(main(args, mode))
    print(f"python MCP client ({mode}): {answered} calls answered as expected")
