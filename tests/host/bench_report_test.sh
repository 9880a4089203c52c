#!/bin/sh
# tests/bench/report decides what "make bench" says: the instruction table
# (tests/bench/icount-gate) with its goals, then medians across rounds, the
# ratio, "n/a", the noise warning, unfinished or disturbed boots, and
# results.json.  TAP output.

report=$(dirname "$0")/../bench/report
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
failures=0

# guest DIR ROUND KERNEL FACTOR [LINES...]: a results.log with the usual
# metrics, times FACTOR, then LINES, then "## done".
guest() {
	d=$1/round-$2/$3 f=$4
	shift 4
	mkdir -p "$d"
	echo "0.50 0.02" >"$d/load"
	echo "[    0.0] Linux version 6.12" >"$d/console.log"
	{
		echo "# bench: kernel=$3"
		awk -v f="$f" 'BEGIN {
			printf "BENCH idle_context legacy %.1f bytes samples=3\n", 1000 * f
			printf "BENCH flood_context legacy %.1f bytes samples=1\n", 30000 * f
		}'
		for l in "$@"; do echo "$l"; done
		echo "## done rc=0"
	} >"$d/results.log"
}

# check NAME WANT_LINE DIR: the report of DIR has a line matching WANT_LINE.
check() {
	n=$((n + 1))
	BENCH_SCALE=1 "$report" "$3" >"$tmp/out" 2>&1
	if grep -Eq -- "$2" "$tmp/out"; then
		echo "ok $n $1"
	else
		echo "# want a line /$2/ in:"
		sed 's/^/#   /' "$tmp/out"
		echo "not ok $n $1"
		failures=$((failures + 1))
	fi
}

refute() {
	n=$((n + 1))
	BENCH_SCALE=1 "$report" "$3" >"$tmp/out" 2>&1
	if grep -Eq -- "$2" "$tmp/out"; then
		echo "# unwanted line /$2/ in:"
		sed 's/^/#   /' "$tmp/out"
		echo "not ok $n $1"
		failures=$((failures + 1))
	else
		echo "ok $n $1"
	fi
}

# cost DIR KERNEL [LINES...]: an icount boot's results.log, with the
# usual header and ending.
cost() {
	d=$1/icount/$2
	shift 2
	mkdir -p "$d"
	{
		echo "# cost: kernel=${d##*/} batch=200 batches=5 flood=20000 clocksource=tsc"
		for l in "$@"; do echo "$l"; done
		echo "## done rc=0"
	} >"$d/results.log"
}

# Three quiet rounds; patched 2% slower, epoll only on patched; the
# instruction counts of one icount boot each; libfclog counted.
q=$tmp/quiet
for r in 1 2 3; do
	guest "$q" $r stock "1.00$r" \
		"BENCH epoll_wakeup legacy n/a ns # no poll support"
	guest "$q" $r patched "1.02$r" \
		"BENCH epoll_wakeup legacy 40000.0 ns samples=21"
	echo "BENCH libfclog_parse structured 30000$r rec/s" >"$q/round-$r/host.log"
done
cost "$q" stock "COST fsconfig_read legacy 5000.0 insn" \
	"COST fsconfig_read structured n/a insn # fsopen refuses the mode"
cost "$q" patched "COST fsconfig_read legacy 5100.0 insn" \
	"COST fsconfig_read structured 6500.0 insn"
echo "BENCH libfclog_parse_insn structured 22000.4 insn/rec records=10000" \
	>"$q/host-insn.log"
check median_and_ratio '^ +idle_context +legacy +bytes +1002 +1022 +1\.02x +0%/0% +<= 1\.05x +yes$' "$q"
check stock_cannot_poll '^ +epoll_wakeup +legacy +ns +n/a +40000 +- ' "$q"
check host_rows '^ +libfclog_parse +structured +rec/s +300002 +0% +22000$' "$q"
check instructions_first '^fsconfig_read +5000 +5100 +1\.020x <=1\.05x +yes +6500 +1\.300x <=1\.20x +NO$' "$q"
check instruction_goal_missed '^FAIL fsconfig_read structured: 6500 insn, 1\.300x stock legacy 5000 .*: 500 insn over' "$q"
refute quiet_rounds_are_not_noisy '^!!|WARNING' "$q"
n=$((n + 1))
if command -v python3 >/dev/null; then
	if python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
m = {(x["metric"], x["mode"]): x for x in d["metrics"]}
x = m["idle_context", "legacy"]
assert d["rounds"] == 3 and len(d["boots"]) == 6
assert x["stock"]["values"] == [1001.0, 1002.0, 1003.0], x
assert x["patched"]["median"] == 1022 and x["met"] == "yes" and not x["noisy"]
assert m["epoll_wakeup", "legacy"]["stock"]["median"] is None
assert d["host"][0]["insn_per_record"] == 22000.4
i = {x["metric"]: x for x in d["instructions"]["rows"]}["fsconfig_read"]
assert i["stock"] == 5000 and i["structured"] == 6500 and i["structured_goal"] == 1.2
assert d["instructions"]["not_met"] >= 1
' "$q/results.json"; then
		echo "ok $n results_json"
	else
		echo "not ok $n results_json"
		failures=$((failures + 1))
	fi
else
	echo "ok $n results_json # SKIP no python3 to read it with"
fi

# A noisy round: the ratio is flagged, the goal undecided.
z=$tmp/noisy
for r in 1 2 3; do
	guest "$z" $r stock 1
	guest "$z" $r patched 1
done
guest "$z" 2 stock 1.5
check noisy_row_is_marked '^!! +idle_context +legacy .* 50%/0% +<= 1\.05x +\?$' "$z"
check noisy_warning '^!! WARNING: spread across rounds above 10%' "$z"

# One round: no spread, so nothing is meaningful.
o=$tmp/one
guest "$o" 1 stock 1
guest "$o" 1 patched 1
check single_round_is_noisy '^!! +idle_context +legacy +bytes +1000 +1000 +1\.00x +-/- ' "$o"

# A guest that never finished, one disturbed by a build, one that splatted.
b=$tmp/bad
guest "$b" 1 stock 1
guest "$b" 1 patched 1
guest "$b" 2 stock 1
mkdir -p "$b/round-2/patched"
echo "BENCH idle_context legacy 1000.0 bytes" >"$b/round-2/patched/results.log"
echo "0.90 1.70" >"$b/round-1/patched/load"
echo "[    1.0] BUG: kernel NULL pointer dereference" >>"$b/round-2/stock/console.log"
sed -i 's/^# bench: .*/& tsc_khz=2300000 (calibrated in the guest)/' \
	"$b/round-1/stock/results.log"
check unfinished_boot 'round 2, patched: the guest did not finish' "$b"
check guest_clock 'round 1, stock: timed by the guest.s own clock' "$b"
check busy_host 'round 1, patched: other processes used 1\.70 CPUs' "$b"
check splat 'round 2, stock: kernel splat' "$b"

# The gate alone: every figure of fc_log_cost, patched as cheap as stock,
# then one legacy operation 6% dearer, a boot that did not finish, and
# batches of other sizes.
gate=$(dirname "$0")/../bench/icount-gate
all="fsconfig_read reject_read read_record read_report fsconfig_accepted
	fsconfig_logged fsopen_close create_excl unread_close flood_first flood_last"
g=$tmp/gate
legacy=$(for m in $all; do echo "COST $m legacy 1000.0 insn"; done)
structured=$(for m in $all; do echo "COST $m structured 1000.0 insn"; done)
# One line an argument: split at newlines only.
ifs=$IFS IFS='
'
# shellcheck disable=SC2086
cost "$g" stock "COST fsconfig_badfd legacy 200.0 insn" $legacy
# shellcheck disable=SC2086
cost "$g" patched "COST fsconfig_badfd legacy 200.0 insn" $legacy $structured
IFS=$ifs
# gate_check NAME WANT_STATUS WANT_LINE: the gate on $g/icount.
gate_check() {
	n=$((n + 1))
	"$gate" "$g/icount/stock/results.log" "$g/icount/patched/results.log" \
		>"$tmp/out" 2>&1
	st=$?
	if [ "$st" -eq "$2" ] && grep -Eq -- "$3" "$tmp/out"; then
		echo "ok $n $1"
	else
		echo "# want exit $2 (got $st) and a line /$3/ in:"
		sed 's/^/#   /' "$tmp/out"
		echo "not ok $n $1"
		failures=$((failures + 1))
	fi
}
gate_check gate_passes 0 '^icount-gate: ok, all 19 goals met$'
# No goal has a ceiling: an accepted parameter in a structured log one
# instruction over its 1.05x fails, as 1.108x did before it was met.
sed -i 's/^COST fsconfig_accepted structured 1000.0/COST fsconfig_accepted structured 1051.0/' \
	"$g/icount/patched/results.log"
gate_check gate_fails_structured_over_105 1 '^FAIL fsconfig_accepted structured: 1051 insn, 1\.051x .*1 insn over'
gate_check gate_fails_summary 1 '^icount-gate: FAIL, 1 of 19 goals not met$'
# -t: one TAP test per goal, as tests/report reads them, the failure named.
n=$((n + 1))
"$gate" -t "$tmp/gate.tap" "$g/icount/stock/results.log" \
	"$g/icount/patched/results.log" >/dev/null 2>&1
if [ "$(head -1 "$tmp/gate.tap")" = "## begin icount-gate" ] &&
   grep -qx '1\.\.19' "$tmp/gate.tap" &&
   [ "$(grep -c '^ok ' "$tmp/gate.tap")" -eq 18 ] &&
   grep -Eq '^not ok [0-9]+ fsconfig_accepted structured$' "$tmp/gate.tap" &&
   grep -Eq '^ok [0-9]+ create_excl legacy$' "$tmp/gate.tap" &&
   ! grep -q 'SKIP' "$tmp/gate.tap" &&
   grep -qx '## end icount-gate rc=1' "$tmp/gate.tap" &&
   grep -qx '## done' "$tmp/gate.tap"; then
	echo "ok $n gate_tap"
else
	echo "# want 19 TAP tests, 18 ok and the structured one not ok, framed for tests/report:"
	sed 's/^/#   /' "$tmp/gate.tap"
	echo "not ok $n gate_tap"
	failures=$((failures + 1))
fi
sed -i 's/^COST fsconfig_accepted structured 1051.0/COST fsconfig_accepted structured 1000.0/' \
	"$g/icount/patched/results.log"
sed -i 's/^COST create_excl legacy 1000.0/COST create_excl legacy 1060.0/' \
	"$g/icount/patched/results.log"
gate_check gate_fails_legacy_over_105 1 '^FAIL create_excl legacy: 1060 insn, 1\.060x stock 1000 \(goal <= 1\.05x\): 10 insn over'
sed -i '/^## done/d' "$g/icount/stock/results.log"
gate_check gate_fails_unfinished_boot 1 '^FAIL stock: no "## done rc=0"'
echo "## done rc=0" >>"$g/icount/stock/results.log"
sed -i 's/batch=200/batch=2000/' "$g/icount/stock/results.log"
gate_check gate_fails_other_sizes 1 '^FAIL stock and patched measured with other sizes'

n=$((n + 1))
if "$report" "$tmp/nothing" >/dev/null 2>&1; then
	echo "not ok $n no_rounds_fails"
	failures=$((failures + 1))
else
	echo "ok $n no_rounds_fails"
fi

echo "1..$n"
[ "$failures" -eq 0 ]
