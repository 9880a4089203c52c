#!/bin/sh
# Every tool: --help prints its usage on standard output and exits 0; a bad
# option prints it on standard error and exits 1; the options its usage
# names are those its man page's OPTIONS describes, which describes every
# option its SYNOPSIS shows.
# One TAP test per tool and check.  The tools are the host's build
# (build/bin, make tools; FCTEST_BIN for another directory).

top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${FCTEST_BIN:-$top/build/bin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# check RC NAME, tap_end: one TAP test each, the plan and exit status.
. "$top/tests/host/tap.sh"

# The options ("-t", "--json") named in the text on standard input, sorted.
options() {
	sed 's/\\-/-/g; s/\\f[BIRP]//g' |
		grep -oE '(^|[][ ,|"])--?[a-z][a-z-]*' | sed 's/^[^-]*//' | sort -u
}

# Lines of section @2 of man page @1.
section() {
	sed -n "/^\.SH $2\$/,/^\.SH/p" "$1" | sed '1d;$d'
}

tools=$(cd "$top/userspace/tools" && ls *.c | sed 's/\.c$//')
[ -n "$tools" ] || check 1 "userspace/tools has tools"
for t in $tools; do
	page=$top/man/man1/$t.1
	if [ ! -x "$bin/$t" ]; then
		echo "# no $bin/$t: make tools"
		check 1 "$t is built"
		continue
	fi

	"$bin/$t" --help > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ $rc -eq 0 ] && grep -q "^usage: $t " "$tmp/out" && [ ! -s "$tmp/err" ]
	r=$?
	[ $r -eq 0 ] || { echo "# exit $rc"; sed 's/^/# /' "$tmp/out" "$tmp/err"; }
	check $r "$t --help: usage on standard output, exit 0"

	"$bin/$t" --no-such-option > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ $rc -eq 1 ] && grep -q "^usage: $t " "$tmp/err" && [ ! -s "$tmp/out" ]
	r=$?
	[ $r -eq 0 ] || { echo "# exit $rc"; sed 's/^/# /' "$tmp/out" "$tmp/err"; }
	check $r "$t --no-such-option: usage on standard error, exit 1"

	if [ ! -f "$page" ]; then
		check 1 "$t has a man page"
		continue
	fi
	# --help is every tool's, whether its usage names it or not.
	{ "$bin/$t" --help; echo --help; } | options > "$tmp/help"
	section "$page" OPTIONS | grep -A1 '^\.TP' | grep -v '^\.TP\|^--$' |
		options > "$tmp/man"
	section "$page" SYNOPSIS | options > "$tmp/synopsis"
	diff -u --label "$t --help" --label "$t.1 OPTIONS" "$tmp/help" \
		"$tmp/man" > "$tmp/diff"
	r=$?
	[ -s "$tmp/help" ] || r=1
	sed 's/^/# /' "$tmp/diff"
	check $r "$t: --help and $t(1) OPTIONS name the same options ($(wc -l < "$tmp/help"))"
	# A long alias ("-t, --type") need not be in the synopsis.
	extra=$(comm -23 "$tmp/synopsis" "$tmp/man")
	[ -z "$extra" ] && [ -s "$tmp/synopsis" ]
	r=$?
	[ -z "$extra" ] || echo "# in SYNOPSIS only:" $extra
	check $r "$t(1): OPTIONS describes every option of SYNOPSIS"

	# --help explains, not only lists: each option of the page's
	# OPTIONS, --help included, opens a line of its own, and every exit
	# status of the page's EXIT STATUS is given after "Exit status:".
	"$bin/$t" --help > "$tmp/out"
	missing=
	for o in $(cat "$tmp/man"); do
		grep -qE -- "^ +(-[a-z], )?$o( |,|\$)" "$tmp/out" ||
			missing="$missing $o"
	done
	[ -z "$missing" ]
	r=$?
	[ -z "$missing" ] || echo "# no line of its own in --help:$missing"
	check $r "$t --help: each option has a line saying what it does"
	section "$page" "EXIT STATUS" | grep -A1 '^\.TP' |
		sed -n 's/^\.B \([0-9][0-9]*\)$/\1/p' > "$tmp/codes"
	tr '\n' ' ' < "$tmp/out" | sed -n 's/.*Exit status://p' > "$tmp/said"
	missing=
	for c in $(cat "$tmp/codes"); do
		grep -qE "(^|[^0-9])$c([^0-9]|$)" "$tmp/said" ||
			missing="$missing $c"
	done
	[ -s "$tmp/codes" ] && [ -s "$tmp/said" ] && [ -z "$missing" ]
	r=$?
	[ $r -eq 0 ] || echo "# exit statuses of $t(1) not in --help:$missing ($(cat "$tmp/codes" | tr '\n' ' '))"
	check $r "$t --help: gives every exit status of $t(1) ($(wc -l < "$tmp/codes"))"
done
tap_end
