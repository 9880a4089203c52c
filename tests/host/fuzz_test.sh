#!/bin/sh
# Run the libFuzzer target of fclog_parse() for a bounded time from the
# committed corpus (tests/fuzz/corpus; new inputs go to a scratch copy).
# One TAP test: it fails on any crash, sanitizer report or leak.
#
# FCTEST_FUZZER: the built target; FCTEST_FUZZ_SECONDS: how long (20).

top=$(cd "$(dirname "$0")/../.." && pwd)
fuzzer=${FCTEST_FUZZER:?set FCTEST_FUZZER to the built fuzz target}
seconds=${FCTEST_FUZZ_SECONDS:-20}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Inputs past the largest record the kernel sends (a structured record may
# reach about 24 KiB; the kernel's bound is its own, no header states it).
max_len=32768

cp -r "$top/tests/fuzz/corpus" "$tmp/corpus"
if (cd "$tmp" && "$fuzzer" -max_total_time="$seconds" -max_len="$max_len" \
	-print_final_stats=1 corpus) >"$tmp/log" 2>&1; then
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/log")
	echo "ok 1 fclog_parse survives ${runs:-?} fuzzed inputs in ${seconds}s"
	status=0
else
	tail -40 "$tmp/log" | sed 's/^/# /'
	echo "not ok 1 fclog_parse survives fuzzed inputs"
	status=1
fi
echo "1..1"
exit $status
