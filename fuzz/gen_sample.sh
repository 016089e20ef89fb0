#!/bin/sh
# Compiles a sample of the code the `gen` fuzz target makes the schema compiler write
# (fuzz/README.md, "Compiling generated code"): compiling inside the fuzzer would be far too
# slow, so the target keeps what it generates (TOOLGATE_FUZZ_GEN_KEEP) while it replays a
# corpus, and this script compiles the first COUNT distinct files (by name, a hash of the
# code) into one edition-2024 library, each file in its own module, then:
#   - cargo build                          (errors and warnings, per generated file)
#   - cargo test --doc                     (how many doctests rustdoc finds: must be 0)
#   - RUSTDOCFLAGS=-Dwarnings cargo doc    (rustdoc lints on the descriptions)
#
# usage: fuzz/gen_sample.sh CORPUS_DIR [COUNT]     (COUNT 0: every file)
# Needs the gen target built (RUSTC_BOOTSTRAP=1 cargo fuzz build --sanitizer none gen).
# Work folder: $GEN_SAMPLE_DIR (default /tmp/toolgate-gen-sample), made afresh.
set -eu
fuzz=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$fuzz/.." && pwd)
corpus=$1
count=${2:-20}
work=${GEN_SAMPLE_DIR:-/tmp/toolgate-gen-sample}
binary="$fuzz/target/x86_64-unknown-linux-gnu/release/gen"

rm -rf "$work"
mkdir -p "$work/kept" "$work/crate/src/gen"
# The target panics on a finding; the replay goes on past none, so it must be clean.
TOOLGATE_FUZZ_GEN_KEEP="$work/kept" "$binary" -runs=0 "$corpus" >"$work/replay.log" 2>&1
kept=$(ls "$work/kept" | grep -c '\.rs$' || true)
if [ "$count" = 0 ]; then count=$kept; fi
ls "$work/kept" | grep '\.rs$' | sort | head -n "$count" >"$work/sample.txt"
echo "replay: $(grep -oE 'Done [0-9]+ runs' "$work/replay.log" || echo 'see replay.log')"
echo "distinct generated files: $kept; compiled: $(wc -l <"$work/sample.txt")"

cat >"$work/crate/Cargo.toml" <<EOF
[package]
name = "toolgate-gen-sample"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
toolgate = { path = "$root/runtime", features = ["derive"] }
serde = { version = "1", features = ["derive"] }
serde_json = "1"

[workspace]
EOF

{
    echo "//! A sample of the code the gen fuzz target generated, one module per file."
    echo "#![allow(missing_docs)]"
    while read -r file; do
        stem=${file%.rs}
        cp "$work/kept/$file" "$work/crate/src/gen/"
        cp "$work/kept/$stem.json" "$work/crate/src/gen/"
        echo "/// Generated from \`src/gen/$stem.json\`."
        echo "pub mod g$stem {"
        echo "    include!(\"gen/$file\");"
        echo "}"
    done <"$work/sample.txt"
} >"$work/crate/src/lib.rs"

cd "$work/crate"
status=0
echo "== cargo build"
if cargo build --message-format=short >"$work/build.log" 2>&1; then
    echo "build: ok"
else
    echo "build: FAILED"
    status=1
fi
grep -E '^src/gen/[0-9a-f]+\.rs:[0-9]+:[0-9]+: (error|warning)' "$work/build.log" |
    sed -E 's/^src\/gen\/([0-9a-f]+)\.rs:[0-9]+:[0-9]+: (error|warning)(\[[^]]*\])?: (.*)$/\2 \1 \4/' |
    sort | uniq -c | sort -rn | head -40 || true
echo "warnings: $(grep -cE '^src/[^:]+:[0-9]+:[0-9]+: warning' "$work/build.log" || true)," \
    "errors: $(grep -cE '^src/[^:]+:[0-9]+:[0-9]+: error' "$work/build.log" || true)" \
    "(full log: $work/build.log)"
if [ $status = 0 ]; then
    echo "== cargo test --doc"
    cargo test --doc >"$work/doctest.log" 2>&1 || status=1
    grep -E '^running [0-9]+ tests?|^test result' "$work/doctest.log" || tail -20 "$work/doctest.log"
    echo "== RUSTDOCFLAGS=-Dwarnings cargo doc --no-deps"
    if RUSTDOCFLAGS=-Dwarnings cargo doc --no-deps >"$work/doc.log" 2>&1; then
        echo "doc: ok"
    else
        echo "doc: FAILED"
        grep -E '^(error|warning)' "$work/doc.log" | sort | uniq -c | sort -rn | head -20
        status=1
    fi
fi
exit $status
