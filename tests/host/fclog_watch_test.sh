#!/bin/bash
# fclog-watch as fclog-watch(1) describes it, with no kernel: numbers that
# are not numbers are usage errors; a read error is a message on standard
# error and exit status 2; a descriptor that always polls readable but has
# nothing to read (as a context fd of a kernel without the series does;
# /dev/null here) is read every 100 ms, not in a busy loop; a record on a
# pipe is printed.  One TAP test each.  The tool is the host's build
# (build/bin, make tools; FCTEST_BIN for another directory).

top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${FCTEST_BIN:-$top/build/bin}
watch=$bin/fclog-watch
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# check RC NAME, tap_end: one TAP test each, the plan and exit status.
. "$top/tests/host/tap.sh"

# shown R NAME: check R NAME, and on a failure the exit status ($rc) and
# what the watcher wrote, as comments.
shown() {
	[ "$1" -eq 0 ] || { echo "# exit $rc"; sed 's/^/# /' "$tmp/out" "$tmp/err"; }
	check "$1" "$2"
}

if [ ! -x "$watch" ]; then
	echo "# no $watch: make tools"
	check 1 "fclog-watch is built"
	exit 1
fi

# Each is refused before anything is read: usage on standard error, exit 1,
# nothing on standard output (fd 3 is /dev/null, which would spin).
for args in "--fd abc" "--fd -2" "--fd 3x" "--fd ''" "--fd 99999999999" \
	    "--idle x" "--idle -1" "--idle 0" "--idle ''" "--idle nan" \
	    "--idle inf" "--idle 1s"; do
	eval "set -- $args"
	timeout 5 "$watch" "$@" >"$tmp/out" 2>"$tmp/err" 3</dev/null
	rc=$?
	[ $rc -eq 1 ] && grep -q "^usage: fclog-watch " "$tmp/err" &&
		grep -q "not a valid number" "$tmp/err" && [ ! -s "$tmp/out" ]
	shown $? "fclog-watch $args: a usage error, exit 1"
done

# fd 3 closed: read() fails with EBADF.  It must say so and fail.
timeout 5 "$watch" --idle 1 >"$tmp/out" 2>"$tmp/err" 3<&-
rc=$?
[ $rc -eq 2 ] && grep -q "^fclog-watch: .*Bad file descriptor" "$tmp/err"
shown $? "a read error (EBADF, fd 3 closed): on standard error, exit 2"

# Readable and empty, for 2 seconds: a 100 ms tick costs a few
# milliseconds of CPU; a busy loop of poll() and read() costs the better
# part of the 2 seconds (some 28,000 system calls a second).
TIMEFORMAT='%U %S'
{ time timeout 10 "$watch" --idle 2 >"$tmp/out" 2>"$tmp/err" 3</dev/null; } \
	2>"$tmp/time"
rc=$?
cpu=$(awk '{ print $1 + $2 }' "$tmp/time")
[ $rc -eq 0 ] && awk -v c="$cpu" 'BEGIN { exit !(c < 0.25) }'
r=$?
[ $r -eq 0 ] || echo "# exit $rc, $cpu s of CPU in 2 s idle"
check $r "a fd that always polls readable is read on a tick, not in a loop ($cpu s CPU in 2 s)"

# A legacy line on a pipe is printed; the writer's end closed is POLLHUP.
printf 'e tmpfs: Unknown parameter '\''x'\''\n' |
	timeout 5 "$watch" --fd 0 >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && grep -qx "error   tmpfs: Unknown parameter 'x'" "$tmp/out" &&
	grep -q "^-- the context failed" "$tmp/out" && [ ! -s "$tmp/err" ]
shown $? "a record on a pipe is printed, then the hang-up ends it (exit 0)"

tap_end
