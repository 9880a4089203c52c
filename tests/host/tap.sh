# Sourced by the host tests written in shell that count their own TAP
# tests: not a test itself (run-tests runs *_test.sh).
#
# check RC NAME: one TAP test, "ok" when RC is 0, counted in n and
# failures.  tap_end: the plan, then the test's exit status (0 when every
# check passed), as the script's last command.
n=0
failures=0

check() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		failures=$((failures + 1))
	fi
}

tap_end() {
	echo "1..$n"
	[ "$failures" -eq 0 ]
}
