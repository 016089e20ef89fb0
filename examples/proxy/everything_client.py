"""Calls the npm reference server `@modelcontextprotocol/server-everything` (TypeScript SDK,
2025-era only) through `toolgate mcp-proxy` with the official Python MCP SDK's client, in a
given protocol mode, and checks what the proxy did: the listing passes, a valid call passes, a
repairable call reaches the server repaired (its answer says the repaired sum), a refused call
is answered by the proxy, and requests with ids in every JSON form are each answered once with
their id as sent (raw lines, after the SDK's session).

    python3 everything_client.py MODE SERVER_COMMAND [ARGS...]

MODE: `legacy`, `auto` or `2026-07-28` (the SDK client's `mode`). `pip install mcp` and
`npm install @modelcontextprotocol/server-everything` first, e.g.
`python3 examples/proxy/everything_client.py auto target/debug/toolgate mcp-proxy -- node
node_modules/@modelcontextprotocol/server-everything/dist/index.js stdio`."""

import asyncio
import json
import subprocess
import sys

from mcp import Client, StdioServerParameters


def text_of(result):
    return result.content[0].text if result.content else ""


async def sdk_session(mode, command):
    params = StdioServerParameters(command=command[0], args=command[1:])
    async with Client(params, mode=mode) as client:
        print("protocol version:", client.protocol_version)
        names = sorted(tool.name for tool in (await client.list_tools()).tools)
        assert "echo" in names and "get-sum" in names, names

        echoed = await client.call_tool("echo", {"message": "hi"})
        print("valid:", f"isError={echoed.is_error}", "text=" + text_of(echoed))
        assert not echoed.is_error and "hi" in text_of(echoed), echoed

        summed = await client.call_tool("get-sum", {"a": "2", "b": 3})
        repairs = (summed.meta or {}).get("io.toolgate/repairs", [])
        print("repairable:", f"isError={summed.is_error}", "text=" + text_of(summed), "repairs=" + json.dumps(repairs))
        assert not summed.is_error and "5" in text_of(summed), summed
        assert [r["rule"] for r in repairs] == ["string_to_number"], repairs

        refused = await client.call_tool("get-sum", {"a": "two", "b": 3})
        print("refused:", f"isError={refused.is_error}", "text=" + text_of(refused)[:160])
        assert refused.is_error
        assert json.loads(text_of(refused))["error"]["reason"] == "invalid_arguments"


def raw_ids(command):
    """Requests whose ids are written every way JSON allows, each answered once with its id as
    sent (the server itself drops `2^64` and reads `1.0` as `1`)."""
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def send(line):
        process.stdin.write(line.encode() + b"\n")
        process.stdin.flush()

    send('{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}')
    send('{"jsonrpc":"2.0","method":"notifications/initialized"}')
    ids = ["1.0", "2e0", "-0", "18446744073709551616", '"\\u0061"', "9007199254740993"]
    for id_text in ids:
        send('{"jsonrpc":"2.0","id":%s,"method":"ping"}' % id_text)
    send('[{"jsonrpc":"2.0","id":"b1","method":"ping"},{"jsonrpc":"2.0","id":"b2","method":"tools/call","params":{"name":"get-sum","arguments":{"a":1,"b":"x"}}}]')
    wanted = {"0", *ids, "batch"}
    seen = set()
    while wanted - seen:
        line = process.stdout.readline().decode()
        assert line, f"no answer to {wanted - seen}"
        if line.startswith("["):
            answered = sorted(json.loads(line), key=lambda m: m["id"])
            assert [m["id"] for m in answered] == ["b1", "b2"], line
            seen.add("batch")
            continue
        message = json.loads(line)
        if "method" in message:
            continue
        # The id's text as written: the answer is read as text, not through a float.
        start = line.index('"id":') + len('"id":')
        end = min(at for at in (line.find(",", start), line.find("}", start)) if at >= 0)
        id_text = line[start:end]
        assert id_text in wanted and id_text not in seen, line
        seen.add(id_text)
    process.stdin.close()
    process.wait(timeout=10)
    print("ids answered as sent:", " ".join(sorted(seen)))


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    mode, command = sys.argv[1], sys.argv[2:]
    asyncio.run(sdk_session(mode, command))
    raw_ids(command)
    print(f"python MCP client ({mode}) through the proxy in front of server-everything: as expected")
