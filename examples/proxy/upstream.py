"""A small MCP server on stdio, written with the official Python MCP SDK (v2, `MCPServer`): the
upstream that `toolgate mcp-proxy` sits in front of in the proxy example.

    python3 upstream.py

Serves `book_flight` (typed, pydantic-constrained, with an output schema), `add`, and `greet`,
which asks the client for a name (an `input_required` round on MCP 2026-07-28, an
`elicitation/create` request of the server's on the 2025 handshake). Every
`tools/call` it receives is appended, arguments exactly as they arrived on the wire, as one JSON
line {"tool": ..., "arguments": {...}} to the file named by $UPSTREAM_LOG (when set), so a test
can show what the upstream saw: repaired values, and no refused call at all. `book_flight` also
sends a log notification "booking ORIGIN-DESTINATION" before it answers. `pip install mcp`
first."""

import json
import os
import warnings
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.resolve import Elicit, Resolve
from mcp.shared.exceptions import MCPDeprecationWarning

# Log notifications are deprecated from protocol 2026-07-28 on (SEP-2577), but are still what a
# handshake-era client (and the proxy) receives; the example sends one on purpose.
warnings.filterwarnings("ignore", category=MCPDeprecationWarning)

Airport = Annotated[str, Field(pattern=r"^[A-Z]{3}$", description="IATA airport code, e.g. CDG")]


class Booking(BaseModel):
    booking: str
    passengers: int
    cabin: Literal["economy", "business", "first"]


async def record_calls(ctx, call_next):
    """Middleware: runs before the SDK validates anything, so it sees the raw wire arguments."""
    path = os.environ.get("UPSTREAM_LOG")
    if path and ctx.method == "tools/call" and ctx.request_id is not None:
        params = ctx.params or {}
        with open(path, "a", encoding="utf-8") as log:
            log.write(json.dumps({"tool": params.get("name"), "arguments": params.get("arguments") or {}}) + "\n")
    return await call_next(ctx)


server = MCPServer("toolgate-example-upstream", middleware=[record_calls])


@server.tool()
async def book_flight(
    origin: Airport,
    destination: Airport,
    date: Annotated[str, Field(description="departure date, YYYY-MM-DD")],
    passengers: Annotated[int, Field(ge=1, le=9)],
    cabin: Literal["economy", "business", "first"],
    ctx: Context,
) -> Booking:
    """Book a flight between two airports."""
    await ctx.info(f"booking {origin}-{destination}")
    return Booking(booking=f"{origin}-{destination}-{date}", passengers=passengers, cabin=cabin)


@server.tool()
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


class Name(BaseModel):
    name: str


def ask_name(ctx: Context):
    return Elicit("Your name?", Name)


@server.tool()
async def greet(who: Annotated[Name, Resolve(ask_name)]) -> str:
    """Greet someone, asking the client for their name."""
    return f"hello {who.name}"


if __name__ == "__main__":
    server.run("stdio")
