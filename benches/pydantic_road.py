#!/usr/bin/env python3
"""The run-time road's peer: pydantic v2 (lax mode) on the same BFCL calls.

Run it right after `cargo bench -p toolgate-bench --bench runtime_road`, on the same machine:

    python3 benches/pydantic_road.py [CRITERION_DIR]

Every tool of `tests/data/bfcl/cases.jsonl` becomes a pydantic model (`create_model`, built
once, outside the timing) from its `parameters`: `string`, `integer`, `number`/`float`,
`boolean`, arrays of those (`array`, `tuple`), nested objects as nested models, `enum` as a
`Literal`, `any` and untyped objects as `Any`/`dict`; required fields are required, optional
ones default to their declared default or `None`. One pass validates every argument text of
`tests/data/bfcl/cases-expanded.jsonl` with `Model.model_validate_json(text)` (lax mode, the
default: `"2"` is taken for an integer), catching `ValidationError`; the script times several
passes and prints the median, in calls per second, for all calls and for the ones the corpus
expects accepted and refused. A tool whose schema it cannot turn into a model is counted and
its calls are left out of every set (toolgate's figure covers them; the count is printed).

If criterion's results of `runtime_road` are found (default `target/criterion`), it prints
toolgate's calls per second over the same set and the ratio.

What pydantic does here is less than toolgate's work: it does not log repairs, build
structured issues with paths in document order, or check `enum` case-insensitively; its errors
are built but not rendered (`str()` is not called), as toolgate's hints are not built in
`runtime_road/all`.
"""

import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any, List, Literal, Optional

from pydantic import BaseModel, ValidationError, create_model

ROOT = Path(__file__).resolve().parent.parent
PASSES = 7

SCALARS = {"string": str, "integer": int, "number": float, "float": float, "boolean": bool}


class Unsupported(Exception):
    pass


def python_type(schema, name):
    """The Python type pydantic validates a property's schema with."""
    if not isinstance(schema, dict):
        raise Unsupported(f"{name}: schema is not an object")
    if "enum" in schema and schema["enum"]:
        return Literal[tuple(schema["enum"])]
    kind = schema.get("type")
    if kind in SCALARS:
        return SCALARS[kind]
    if kind in ("array", "tuple"):
        items = schema.get("items")
        return List[python_type(items, name + "[]")] if items else List[Any]
    if kind in ("dict", "object"):
        properties = schema.get("properties")
        if properties:
            return model_of(schema, name)
        return dict
    if kind in (None, "any"):
        return Any
    raise Unsupported(f"{name}: type {kind!r}")


def model_of(schema, name):
    """A pydantic model of an object schema (its properties, with required ones required)."""
    required = set(schema.get("required") or [])
    fields = {}
    for key, prop in (schema.get("properties") or {}).items():
        annotation = python_type(prop, f"{name}.{key}")
        if key in required:
            fields[key] = (annotation, ...)
        else:
            fields[key] = (Optional[annotation], prop.get("default") if isinstance(prop, dict) else None)
    safe = "".join(c if c.isalnum() else "_" for c in name) or "Tool"
    try:
        return create_model(safe, __base__=BaseModel, **fields)
    except Exception as error:  # a field name pydantic refuses (leading underscore, ...)
        raise Unsupported(f"{name}: {error}") from error


def load():
    tools = [json.loads(line) for line in (ROOT / "tests/data/bfcl/cases.jsonl").open()]
    calls = [json.loads(line) for line in (ROOT / "tests/data/bfcl/cases-expanded.jsonl").open()]
    return tools, calls


def one_pass(calls):
    accepted = 0
    for model, text, _ in calls:
        try:
            model.model_validate_json(text)
            accepted += 1
        except ValidationError:
            pass
    return accepted


def median_seconds(calls):
    times = []
    for _ in range(PASSES):
        start = time.perf_counter()
        one_pass(calls)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def toolgate_calls_per_second(criterion_dir, bench_id):
    estimates = criterion_dir / "runtime_road" / bench_id / "new" / "estimates.json"
    benchmark = criterion_dir / "runtime_road" / bench_id / "new" / "benchmark.json"
    if not estimates.is_file() or not benchmark.is_file():
        return None
    ns = json.loads(estimates.read_text())["median"]["point_estimate"]
    elements = (json.loads(benchmark.read_text()).get("throughput") or {}).get("Elements")
    return elements / (ns / 1e9) if elements else None


def main():
    criterion_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "target" / "criterion"
    tools, cases = load()
    models, unsupported = [], 0
    for tool in tools:
        definition = tool["tool"]
        try:
            models.append(model_of(definition.get("parameters") or {}, definition["name"]))
        except Unsupported:
            models.append(None)
            unsupported += 1
    calls = [
        (models[case["corpus_line"]], case["arguments"], case["expect"]["ok"])
        for case in cases
        if models[case["corpus_line"]] is not None
    ]
    left_out = len(cases) - len(calls)
    sets = {
        "all": calls,
        "expect_ok": [call for call in calls if call[2]],
        "expect_refused": [call for call in calls if not call[2]],
    }
    import pydantic

    print(f"pydantic {pydantic.VERSION} (lax), BFCL corpus: {len(tools)} tools ({unsupported} not "
          f"turned into models), {len(calls)} calls timed ({left_out} of those tools' calls left out)")
    accepted = one_pass(calls)
    agree = sum(1 for model, text, ok in calls if (one_pass([(model, text, ok)]) == 1) == ok)
    print(f"pydantic accepts {accepted}; agrees with the corpus's expectation on {agree} of {len(calls)}")
    print(f"  {'id':<16} {'calls':>7} {'median':>10} {'calls/s':>12} {'toolgate calls/s':>17} {'ratio':>7}")
    for bench_id, chosen in sets.items():
        seconds = median_seconds(chosen)
        rate = len(chosen) / seconds
        theirs = toolgate_calls_per_second(criterion_dir, bench_id)
        tail = f" {theirs:>17,.0f} {theirs / rate:>6.2f}x" if theirs else ""
        print(f"  {bench_id:<16} {len(chosen):>7} {seconds * 1e3:>8.2f} ms {rate:>12,.0f}{tail}")
    print("(toolgate's figure is criterion's latest runtime_road run, over all 24,605 calls)")


if __name__ == "__main__":
    main()
