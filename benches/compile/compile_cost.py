#!/usr/bin/env python3
"""Compile cost of toolgate's derive against the usual stack, on the same 50 types.

Generates two crates of N argument types (default 50) with the same fields and
constraints (a bounded string, a bounded integer, an email, a pattern, a bounded list, an
enum, a bounded float, an optional note and, every other type, a nested struct):

- `toolgate_types`: `#[derive(toolgate::Tool, serde::Deserialize)]`, which gives the
  validator, the coercing decoder, the JSON Schema and the tool model;
- `peer_types`: `#[derive(serde::Deserialize, validator::Validate, schemars::JsonSchema)]`,
  which gives the validator and the JSON Schema (schemars reads validator's attributes).

Both live in one generated workspace (under `target/compile-cost/`, with this repository's
`Cargo.lock`, so both use the versions the benches use). The dependencies are built first;
then each crate's own source is touched and it is built again, three times, and the best
time is kept: what a change to the types costs, without the dependencies. With `--cold`,
the script also times a clean build of each crate with all its dependencies.

    python3 benches/compile/compile_cost.py            # cargo check and cargo build --release
    python3 benches/compile/compile_cost.py --types 5  # a quick run
    python3 benches/compile/compile_cost.py --types 2 --rounds 1 --check-only  # CI: it runs

It prints a Markdown table (seconds, and toolgate's time over the peer's) to paste into
`benches/README.md`.
"""

import argparse
import os
import pathlib
import shutil
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
KINDS = ["Alpha", "Beta", "Gamma"]


# Each field: its name, doc and type, then toolgate's attribute and validator's (or None):
# the same constraint written for each. `{i}` is the type's number.
FIELDS = [
    ("name", "A name", "String", "#[tool(length(min = 1, max = 64))]", "#[validate(length(min = 1, max = 64))]"),
    ("count", "How many", "u32", "#[tool(range(min = 1, max = 100))]", "#[validate(range(min = 1, max = 100))]"),
    ("email", "Where to answer", "String", '#[tool(format = "email")]', "#[validate(email)]"),
    ("code", "A 3-letter code", "String", '#[tool(pattern = "^[A-Z]{{3}}$")]', "#[validate(regex(path = *CODE))]"),
    ("tags", "Labels", "Vec<String>", "#[tool(length(max = 5))]", "#[validate(length(max = 5))]"),
    ("kind", "The kind", "Kind{i}", None, None),
    ("score", "A score", "f64", "#[tool(range(min = 0.0, max = 1.0))]", "#[validate(range(min = 0.0, max = 1.0))]"),
    ("note", "Anything else", "Option<String>", "#[tool(length(max = 500))]", "#[validate(length(max = 500))]"),
]
CONTACT_FIELDS = [
    ("email", "Email address", "String", '#[tool(format = "email")]', "#[validate(email)]"),
    ("phone", "Phone number in E.164 form", "Option<String>",
     '#[tool(pattern = r"^\\+[1-9][0-9]{{6,14}}$")]', "#[validate(regex(path = *PHONE))]"),
]
NESTED = ("contact", "Who to contact", "Contact{i}", None, "#[validate(nested)]")


def struct(i: int, doc: str, name: str, derive: str, fields, peer: bool) -> list[str]:
    lines = [f"/// {doc}", derive, f"pub struct {name} {{"]
    for field, field_doc, ty, ours, theirs in fields:
        attribute = theirs if peer else ours
        lines.append(f"    /// {field_doc}")
        if attribute:
            lines.append(f"    {attribute.format(i=i)}")
        lines.append(f"    pub {field}: {ty.format(i=i)},")
    return lines + ["}", ""]


def request_types(i: int, peer: bool) -> str:
    """Type number `i` with its enum and (every other type) nested struct: toolgate's
    derives, or the peers' (`peer`)."""
    nested = i % 2 == 0
    if peer:
        enum_derive = "#[derive(serde::Deserialize, schemars::JsonSchema, Debug, Clone, Copy)]"
        derive = "#[derive(serde::Deserialize, Validate, schemars::JsonSchema, Debug)]"
    else:
        enum_derive = "#[derive(toolgate::Tool, serde::Deserialize, Debug, Clone, Copy)]"
        derive = "#[derive(toolgate::Tool, serde::Deserialize, Debug)]"
    lines = [
        f"/// The kind of request {i}.",
        enum_derive,
        '#[serde(rename_all = "snake_case")]',
        f"pub enum Kind{i} {{ {', '.join(KINDS)} }}",
        "",
    ]
    fields = list(FIELDS)
    if nested:
        lines += struct(i, f"Contact details of request {i}.", f"Contact{i}", derive,
                        CONTACT_FIELDS, peer)
        fields.append(NESTED)
    lines += struct(i, f"Request number {i}.", f"Request{i}", derive, fields, peer)
    return "\n".join(lines)


PEER_PRELUDE = """use std::sync::LazyLock;
use validator::Validate;

static CODE: LazyLock<regex::Regex> = LazyLock::new(|| regex::Regex::new("^[A-Z]{3}$").unwrap());
static PHONE: LazyLock<regex::Regex> =
    LazyLock::new(|| regex::Regex::new(r"^\\+[1-9][0-9]{6,14}$").unwrap());

"""


def write_workspace(base: pathlib.Path, count: int) -> None:
    if base.exists():
        shutil.rmtree(base)
    (base / "toolgate_types" / "src").mkdir(parents=True)
    (base / "peer_types" / "src").mkdir(parents=True)
    (base / "Cargo.toml").write_text(
        '[workspace]\nresolver = "2"\nmembers = ["toolgate_types", "peer_types"]\n'
    )
    shutil.copy(ROOT / "Cargo.lock", base / "Cargo.lock")
    runtime = (ROOT / "runtime").as_posix()
    (base / "toolgate_types" / "Cargo.toml").write_text(
        "[package]\nname = \"toolgate_types\"\nversion = \"0.0.0\"\nedition = \"2021\"\n"
        "publish = false\n\n[dependencies]\n"
        f'toolgate = {{ path = "{runtime}", features = ["derive"] }}\n'
        'serde = { version = "1", features = ["derive"] }\n'
    )
    (base / "peer_types" / "Cargo.toml").write_text(
        "[package]\nname = \"peer_types\"\nversion = \"0.0.0\"\nedition = \"2021\"\n"
        "publish = false\n\n[dependencies]\n"
        'serde = { version = "1", features = ["derive"] }\n'
        'validator = { version = "0.20", features = ["derive"] }\n'
        'serde_json = "1"\n'
        'schemars = "1"\n'
        'regex = "1"\n'
    )
    header = "//! Generated by benches/compile/compile_cost.py.\n#![allow(dead_code)]\n\n"
    (base / "toolgate_types" / "src" / "lib.rs").write_text(
        header + "\n".join(request_types(i, peer=False) for i in range(count))
    )
    (base / "peer_types" / "src" / "lib.rs").write_text(
        header + PEER_PRELUDE + "\n".join(request_types(i, peer=True) for i in range(count))
    )
    (base / "toolgate_types" / "src" / "main.rs").write_text(main_source(count, peer=False))
    (base / "peer_types" / "src" / "main.rs").write_text(main_source(count, peer=True))


def main_source(count: int, peer: bool) -> str:
    """A binary that decodes the text of the file named by its first argument as each of
    the `count` types, and writes each type's JSON Schema: every type's whole road
    instantiated once, as a program that uses them does (toolgate: `decode_bytes`, which
    validates, and `json_schema`; the peers: `from_slice`, `validate()` and `schema_for!`)."""
    lines = [
        "//! Generated by benches/compile/compile_cost.py.",
        "",
        "use validator::Validate;" if peer else "use toolgate::Tool;",
        "",
        "fn main() {",
        "    let path = std::env::args().nth(1).unwrap_or_default();",
        "    let text = std::fs::read(path).unwrap_or_default();",
        "    let mut accepted = 0usize;",
        "    let mut schema_bytes = 0usize;",
    ]
    crate = "peer_types" if peer else "toolgate_types"
    for i in range(count):
        ty = f"{crate}::Request{i}"
        if peer:
            lines.append(
                f"    accepted += serde_json::from_slice::<{ty}>(&text).is_ok_and(|v| v.validate().is_ok()) as usize;"
            )
            lines.append(f"    schema_bytes += schemars::schema_for!({ty}).as_value().to_string().len();")
        else:
            lines.append(f"    accepted += {ty}::decode_bytes(&text).is_ok() as usize;")
            lines.append(f"    schema_bytes += {ty}::json_schema().len();")
    lines += ['    println!("{accepted} {schema_bytes}");', "}", ""]
    return "\n".join(lines)


def cargo(base: pathlib.Path, args: list[str], target: pathlib.Path) -> float:
    env = dict(os.environ, CARGO_TARGET_DIR=str(target), CARGO_INCREMENTAL="0")
    start = time.monotonic()
    done = subprocess.run(
        ["cargo", *args, "--quiet"], cwd=base, env=env, capture_output=True, text=True
    )
    elapsed = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f"cargo {' '.join(args)} failed:\n{done.stderr}")
    return elapsed


def best_rebuild(base: pathlib.Path, crate: str, args: list[str], target: pathlib.Path, rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        (base / crate / "src" / "lib.rs").touch()
        best = min(best, cargo(base, [*args, "-p", crate], target))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--types", type=int, default=50, help="types per crate (default 50)")
    parser.add_argument("--rounds", type=int, default=3, help="rebuilds per measure, best kept")
    parser.add_argument("--cold", action="store_true", help="also time clean builds with dependencies")
    parser.add_argument("--check-only", action="store_true",
                        help="only `cargo check` (CI: the script and both crates keep building, "
                             "without a release build of every dependency)")
    args = parser.parse_args()

    base = ROOT / "target" / "compile-cost"
    write_workspace(base, args.types)
    target = base / "target"
    crates = ["toolgate_types", "peer_types"]
    modes = {"cargo check": ["check"], "cargo build --release": ["build", "--release"]}
    if args.check_only:
        del modes["cargo build --release"]

    rows = []
    for label, mode in modes.items():
        cold = {}
        if args.cold:
            for crate in crates:
                shutil.rmtree(target, ignore_errors=True)
                cold[crate] = cargo(base, [*mode, "-p", crate], target)
        # Dependencies built once, then the crate alone, rebuilt.
        for crate in crates:
            cargo(base, [*mode, "-p", crate], target)
        warm = {c: best_rebuild(base, c, mode, target, args.rounds) for c in crates}
        rows.append((label, f"the {args.types} types and the binary using them", warm))
        if cold:
            rows.append((label, "clean, with dependencies", cold))
        if mode[0] == "build":
            sizes = {c: (target / "release" / c).stat().st_size / 1e6 for c in crates}

    print(f"{args.types} types per crate, and a binary that decodes each; best of {args.rounds} rebuilds")
    print()
    print("| build | what is built | toolgate (`Tool, Deserialize`) | peers (`Deserialize, Validate, JsonSchema`) | toolgate / peers |")
    print("| --- | --- | ---: | ---: | ---: |")
    for label, what, times in rows:
        ours, theirs = times["toolgate_types"], times["peer_types"]
        print(f"| `{label}` | {what} | {ours:.2f} s | {theirs:.2f} s | {ours / theirs:.2f}× |")
    if not args.check_only:
        ours, theirs = sizes["toolgate_types"], sizes["peer_types"]
        print(f"| size of the release binary | | {ours:.2f} MB | {theirs:.2f} MB | {ours / theirs:.2f}× |")


if __name__ == "__main__":
    main()
