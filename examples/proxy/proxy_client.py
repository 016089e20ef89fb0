"""Calls `upstream.py` through `toolgate mcp-proxy` with the official Python MCP SDK's client, and
checks what the proxy did: a valid call passes (log notification included), a repairable call
reaches the upstream repaired, a refused call never reaches it, an unknown tool gets a hint.

    python3 proxy_client.py [--direct] [--mode MODE] UPSTREAM_LOG_PATH SERVER_COMMAND [ARGS...]

e.g. `python3 examples/proxy/proxy_client.py /tmp/upstream.jsonl target/debug/toolgate mcp-proxy
-- python3 examples/proxy/upstream.py`. The server is started with UPSTREAM_LOG=UPSTREAM_LOG_PATH
in its environment (the proxy's child inherits it); upstream.py appends every call it receives
there. `--direct` points the client at upstream.py itself, with no proxy in between, and skips
what only the proxy provides (repairs, refusal envelopes, did_you_mean). `--mode` is the SDK
client's protocol mode: `legacy` (the 2025 initialize handshake), `2026-07-28` (MCP's stateless
era: no handshake, `_meta` on every request) or `auto` (the default: `server/discover` first, the
handshake where the server does not know it). Prints each result, one line each. `pip install
mcp` first."""

import asyncio
import json
import os
import sys

from mcp import Client, StdioServerParameters

FLIGHT = {"origin": "CDG", "destination": "JFK", "date": "2026-12-01", "passengers": 2, "cabin": "business"}


def upstream_calls(path):
    """The calls upstream.py has logged so far, oldest first."""
    try:
        with open(path, encoding="utf-8") as log:
            return [json.loads(line) for line in log if line.strip()]
    except FileNotFoundError:
        return []


def text_of(result):
    return result.content[0].text if result.content else ""


async def arrived(notes, message):
    """Whether `message` is among the log notifications, given a moment: the SDK hands each
    notification to the callback in a task of its own, which may run after the call returns."""
    for _ in range(40):
        if message in notes:
            return True
        await asyncio.sleep(0.05)
    return False


async def main(log_path, command, direct, mode):
    notes = []

    async def on_log(params):
        notes.append(params.data)

    # stdio_client merges `env` over a minimal default environment; pass ours whole, so the
    # proxy (and, through it, the upstream) finds PATH, PYTHONPATH, virtualenvs and the like.
    params = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ, UPSTREAM_LOG=log_path))
    calls = 0
    # Log notifications are an opt-in of the stateless era (`log_level`); the handshake era
    # sends them anyway.
    async def on_elicit(ctx, params):
        from mcp_types import ElicitResult

        return ElicitResult(action="accept", content={"name": "Ada"})

    async with Client(params, mode=mode, logging_callback=on_log, log_level="info", elicitation_callback=on_elicit) as session:
        if True:
            print("protocol version:", session.protocol_version)
            names = sorted(tool.name for tool in (await session.list_tools()).tools)
            print("tools:", names)
            assert names == ["add", "book_flight", "greet"], names

            # The server asks the client for a name: an `input_required` round (2026-07-28)
            # or a request of the server's (the handshake era) passes through the proxy.
            greeted = await session.call_tool("greet", {})
            calls += 1
            print("elicited:", f"isError={greeted.is_error}", "text=" + text_of(greeted))
            assert not greeted.is_error and text_of(greeted) == "hello Ada", greeted

            valid = await session.call_tool("book_flight", FLIGHT)
            calls += 1
            notified = await arrived(notes, "booking CDG-JFK")
            print("valid:", f"isError={valid.is_error}", "structuredContent=" + json.dumps(valid.structured_content),
                  "notifications=" + json.dumps(notes))
            assert not valid.is_error and valid.structured_content["booking"] == "CDG-JFK-2026-12-01", valid
            assert notified, notes
            assert upstream_calls(log_path)[-1] == {"tool": "book_flight", "arguments": FLIGHT}

            sloppy = dict(FLIGHT, passengers="2", cabin="Business")
            repaired = await session.call_tool("book_flight", sloppy)
            calls += 1
            repairs = (repaired.meta or {}).get("io.toolgate/repairs", [])
            seen = upstream_calls(log_path)[-1]["arguments"]
            print("repairable:", f"isError={repaired.is_error}", "structuredContent=" + json.dumps(repaired.structured_content),
                  "repairs=" + json.dumps(repairs), "upstream saw=" + json.dumps(seen),
                  *(["text=" + text_of(repaired)] if repaired.is_error else []))
            if not direct:
                assert not repaired.is_error, text_of(repaired)
                assert repaired.structured_content["passengers"] == 2
                assert repaired.structured_content["cabin"] == "business"
                assert all(set(r) >= {"path", "rule", "from", "to"} for r in repairs), repairs
                assert sorted(r["rule"] for r in repairs) == ["enum_case", "string_to_number"], repairs
                # `2 == 2.0` in Python, so check the type too: the upstream got a JSON integer.
                assert seen["passengers"] == 2 and type(seen["passengers"]) is int, seen
                assert seen["cabin"] == "business", seen

            before = len(upstream_calls(log_path))
            refused = await session.call_tool("book_flight", dict(FLIGHT, origin="Paris", passengers=12))
            calls += 1
            after = len(upstream_calls(log_path))
            print("refused:", f"isError={refused.is_error}", f"upstream calls {before}->{after}", "text=" + text_of(refused))
            assert refused.is_error
            if not direct:
                envelope = json.loads(text_of(refused))
                assert envelope["error"]["reason"] == "invalid_arguments", envelope
                assert [i["path"] for i in envelope["error"]["issues"]] == ["origin", "passengers"], envelope
                assert after == before, "the refused call reached the upstream"

            unknown = await session.call_tool("bok_flight", {})
            calls += 1
            print("unknown tool:", f"isError={unknown.is_error}", "text=" + text_of(unknown))
            assert unknown.is_error
            if not direct:
                assert json.loads(text_of(unknown))["error"]["did_you_mean"] == "book_flight"
    return calls


if __name__ == "__main__":
    args = sys.argv[1:]
    direct = bool(args) and args[0] == "--direct"
    if direct:
        args = args[1:]
    mode = "auto"
    if args[:1] == ["--mode"]:
        mode, args = args[1], args[2:]
    if len(args) < 2:
        sys.exit(__doc__)
    answered = asyncio.run(main(args[0], args[1:], direct, mode))
    if direct:
        print(f"python MCP client straight to the upstream: {answered} calls answered as expected")
    else:
        print(f"python MCP client through the proxy: {answered} calls answered as expected")
