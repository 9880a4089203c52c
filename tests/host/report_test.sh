#!/bin/sh
# tests/report decides what "make check" says: prove that it fails every
# way a run can go wrong, and passes only a clean one.  TAP output.

report=$(dirname "$0")/../report
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
failures=0

# check NAME WANT_EXIT WANT_LINE -- ARGS...: run the report, expect its exit
# status and a line matching WANT_LINE (an extended regex) in its output.
check() {
	name=$1 want_rc=$2 want_line=$3
	shift 4
	n=$((n + 1))
	"$report" "$@" >"$tmp/out" 2>&1
	rc=$?
	if [ "$rc" -eq "$want_rc" ] && grep -Eq -- "$want_line" "$tmp/out"; then
		echo "ok $n $name"
	else
		echo "# exit $rc (want $want_rc), want a line /$want_line/ in:"
		sed 's/^/#   /' "$tmp/out"
		echo "not ok $n $name"
		failures=$((failures + 1))
	fi
}

cat >"$tmp/clean" <<'T'
## begin prog
TAP version 13
1..2
ok 1 fixture.first
ok 2 fixture.second # SKIP needs the patched kernel
## end prog rc=0
## done
T
printf '[    0.1] Linux version 6.12\n[    0.2] reboot: Restarting system\n' >"$tmp/console"
check clean_run_passes 0 '^2 passed, 0 failed, 1 skipped$' -- "g:$tmp/clean:$tmp/console"
check clean_run_names_each_test 0 '^PASS g prog: fixture.first$' -- "g:$tmp/clean"
check skip_reason_is_shown 0 '^SKIP g prog: fixture.second \(needs the patched kernel\)$' -- "g:$tmp/clean"

cat >"$tmp/failed" <<'T'
## begin prog
#  RUN           fixture.first ...
# prog.c:42:first:Expected 7 (7) == n (6)
#            FAIL  fixture.first
not ok 1 fixture.first
ok 2 fixture.second
## end prog rc=1
## done
T
check failed_test_fails 1 '^1 passed, 1 failed, 0 skipped$' -- "g:$tmp/failed"
check failure_output_is_shown 1 'prog.c:42:first:Expected 7' -- "g:$tmp/failed"

head -n 3 "$tmp/clean" >"$tmp/unfinished"
check unfinished_run_fails 1 '^FAIL g run did not finish' -- "g:$tmp/unfinished"

sed 's/rc=0/rc=139/' "$tmp/clean" >"$tmp/crashed"
check crash_after_passing_fails 1 '^FAIL g prog: exited 139' -- "g:$tmp/crashed"

printf '## begin prog\n## end prog rc=0\n## done\n' >"$tmp/empty"
check program_without_tests_fails 1 '^FAIL g prog: ran no test$' -- "g:$tmp/empty"

check missing_results_fail 1 '^FAIL g results: no output' -- "g:$tmp/nonexistent"

for splat in 'WARNING: CPU: 0 PID: 1 at fs/fs_context.c:1 logfc+0x1/0x2' \
	     'BUG: KASAN: slab-use-after-free in logfc' \
	     'UBSAN: array-index-out-of-bounds in fs/fsopen.c:30' \
	     'WARNING: possible circular locking dependency detected' \
	     'unreferenced object 0xffff888003a1c000 (size 64):' \
	     'Call Trace:'; do
	{ cat "$tmp/console"; echo "[    1.0] $splat"; } >"$tmp/splat"
	check "splat_fails: ${splat%% *}" 1 '^FAIL g kernel log: splat' -- \
		"g:$tmp/clean:$tmp/splat"
done

# warn_mandlock()'s "WARNING:" is a message, not a splat; a splat after it
# still fails.
{ cat "$tmp/console"
  echo '[    1.0] WARNING: The mand mount option has been deprecated and'
  echo '[    1.0]          and is ignored by this kernel. Remove the mand'
} >"$tmp/mand"
check mand_deprecation_is_no_splat 0 '^PASS g kernel log: no splat$' -- \
	"g:$tmp/clean:$tmp/mand:"
echo '[    1.1] WARNING: CPU: 0 PID: 1 at fs/fc_log.c:1 fc_log_add+0x1/0x2' \
	>>"$tmp/mand"
check splat_after_mand_fails 1 '^FAIL g kernel log: splat' -- \
	"g:$tmp/clean:$tmp/mand"

cat >"$tmp/kunit" <<'T'
[    0.5] KTAP version 1
[    0.5] 1..1
[    0.5]     KTAP version 1
[    0.5]     # Subtest: fc_log_ring
[    0.5]     1..2
[    0.5]     ok 1 keeps_errors
[    0.5]     # evicts_info: EXPECTATION FAILED at fs/fc_log_test.c:10
[    0.5]     not ok 2 evicts_info
[    0.5] not ok 1 fc_log_ring
T
check kunit_cases_are_counted 1 '^FAIL g kunit: fc_log_ring.evicts_info$' -- \
	"g:$tmp/clean:$tmp/kunit"
check kunit_passes_are_counted 1 '^PASS g kunit: fc_log_ring.keeps_errors$' -- \
	"g:$tmp/clean:$tmp/kunit"

# refute NAME UNWANTED_LINE -- ARGS...: no line of the report matches.
refute() {
	name=$1 unwanted=$2
	shift 3
	n=$((n + 1))
	"$report" "$@" >"$tmp/out" 2>&1
	if grep -Eq -- "$unwanted" "$tmp/out"; then
		echo "# unwanted line /$unwanted/ in:"
		sed 's/^/#   /' "$tmp/out"
		echo "not ok $n $name"
		failures=$((failures + 1))
	else
		echo "ok $n $name"
	fi
}

refute kunit_failed_suite_still_ran 'did not run' -- \
	"g:$tmp/clean:$tmp/kunit:fc_log_ring"
check kunit_suite_that_did_not_run_fails 1 '^FAIL g kunit: suite fc_log did not run$' -- \
	"g:$tmp/clean:$tmp/kunit:fc_log_ring,fc_log"
check clean_console_with_suite_passes 0 '^PASS g kernel log: no splat$' -- \
	"g:$tmp/clean:$tmp/console:"

echo "1..$n"
[ "$failures" -eq 0 ]
