#!/bin/sh
# tests/compare-transcripts must pass identical transcripts only.  TAP.

compare=$(dirname "$0")/../compare-transcripts
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
failures=0

# run NAME WANT (ok|not ok) A B
run() {
	n=$((n + 1))
	"$compare" "$3" "$4" >"$tmp/out"
	if grep -q "^$2 1 stock_and_patched_transcripts_identical" "$tmp/out"; then
		echo "ok $n $1"
	else
		sed 's/^/# /' "$tmp/out"
		echo "not ok $n $1"
		failures=$((failures + 1))
	fi
}

transcript() {
	printf '## begin legacy_transcript\n1..1\n# T: fsopen tmpfs\n'
	printf '# T:   read "%s"\nok 1 transcript_recorded\n' "$1"
	printf '## end legacy_transcript rc=0\n## begin other\n# T: not part of it\n## done\n'
}

transcript "e tmpfs: Unknown parameter 'x'\\x0a" >"$tmp/a"
transcript "e tmpfs: Unknown parameter 'x'\\x0a" >"$tmp/b"
transcript "e tmpfs: Unknown parameter 'y'\\x0a" >"$tmp/c"
sed 's/not part of it/differs outside/' "$tmp/b" >"$tmp/d"
: >"$tmp/empty"

run identical_transcripts_pass ok "$tmp/a" "$tmp/b"
run one_changed_byte_fails "not ok" "$tmp/a" "$tmp/c"
run other_programs_output_is_ignored ok "$tmp/a" "$tmp/d"
run missing_transcript_fails "not ok" "$tmp/a" "$tmp/empty"
run both_missing_fails "not ok" "$tmp/empty" "$tmp/empty"

echo "1..$n"
[ "$failures" -eq 0 ]
