"""The calls and checks `python_client.py` (stdio) and `http_client.py` (Streamable HTTP) both run
against the example MCP server (`book_flight` and `get_weather` behind toolgate's gate), over an
initialized official-SDK `ClientSession`. Prints each result, one line each."""

import json

FLIGHT = {"origin": "CDG", "destination": "JFK", "date": "2026-12-01", "passengers": 2, "cabin": "business"}


async def run_checks(session):
    """A valid call, a repairable call, a refused call and an unknown tool; returns how many calls
    were answered as expected (an assertion fails otherwise)."""
    names = sorted(tool.name for tool in (await session.list_tools()).tools)
    print("tools:", names)
    assert names == ["book_flight", "get_weather"], names

    valid = await session.call_tool("book_flight", FLIGHT)
    print("valid:", f"isError={valid.is_error}", "structuredContent=" + json.dumps(valid.structured_content))
    assert not valid.is_error and valid.structured_content["booking"] == "CDG-JFK-2026-12-01"

    sloppy = dict(FLIGHT, passengers="2", cabin="Business")
    repaired = await session.call_tool("book_flight", sloppy)
    repairs = (repaired.meta or {}).get("io.toolgate/repairs", [])
    print("repairable:", f"isError={repaired.is_error}", "structuredContent=" + json.dumps(repaired.structured_content),
          "repairs=" + json.dumps([(r["path"], r["rule"]) for r in repairs]))
    assert not repaired.is_error and repaired.structured_content["passengers"] == 2
    assert sorted(r["rule"] for r in repairs) == ["enum_case", "string_to_number"], repairs

    refused = await session.call_tool("book_flight", dict(FLIGHT, origin="Paris", passengers=12))
    envelope = json.loads(refused.content[0].text)
    print("refused:", f"isError={refused.is_error}", "text=" + refused.content[0].text)
    assert refused.is_error and envelope["error"]["reason"] == "invalid_arguments"
    assert [i["path"] for i in envelope["error"]["issues"]] == ["origin", "passengers"]

    unknown = await session.call_tool("bok_flight", {})
    envelope = json.loads(unknown.content[0].text)
    print("unknown tool:", f"isError={unknown.is_error}", "text=" + unknown.content[0].text)
    assert unknown.is_error and envelope["error"]["did_you_mean"] == "book_flight"
    return 4
