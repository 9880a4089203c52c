#!/bin/sh
# W=1 and sparse (C=2) on every C file the series touches, built in the
# patched tree and, where it exists there, in the stock tree: the series
# must add no warning.  One TAP test per file.
#
# Warnings are compared without their line and column numbers, as a
# multiset: a warning the stock file already had may move, not multiply.
#
# Needs FCTEST_TREE (build/patched/src, a git repository whose tag "base"
# is the stock tree), FCTEST_STOCK_TREE (build/stock/src), the .config of
# each (FCTEST_PATCHED_CONFIG, FCTEST_STOCK_CONFIG) and FCTEST_LINT_OBJ, a
# directory for the objects: the kernels' own build directories are left
# alone, as W=1 would make their next build recompile these files.

top=$(cd "$(dirname "$0")/../.." && pwd)
patched=$FCTEST_TREE
stock=$FCTEST_STOCK_TREE
. "$top/tests/host/kernel_tree.sh"
need_tree "no new W=1 or sparse warning" FCTEST_TREE "$patched"
need_tree "no new W=1 or sparse warning" FCTEST_STOCK_TREE "$stock"
out=${FCTEST_LINT_OBJ:?set FCTEST_LINT_OBJ to a build directory}

if ! command -v sparse >/dev/null; then
	echo "ok 1 no new W=1 or sparse warning # SKIP sparse is not installed (make deps)"
	echo "1..1"
	exit 0
fi

# The C files the series changes; KUnit files are built as part of the file
# that includes them, selftests are userspace.
files=$(git -C "$patched" diff --name-only base..HEAD -- '*.c' |
	grep -v -e '^tools/' -e '/tests/')

# $1: tree, $2: object directory, $3: file; prints the warnings its build
# gives (of the files it includes too), tree and line numbers stripped.
warnings() {
	rm -f "$2/${3%.c}.o"
	make -s -C "$1" O="$2" W=1 C=2 CC="ccache gcc" "${3%.c}.o" 2>&1 |
		grep -E '(warning|error):' |
		sed -E -e "s|$1/||" -e 's|:[0-9]+(:[0-9]+)?: |: |' | sort
}

prepare_obj "$patched" "${FCTEST_PATCHED_CONFIG:?}" "$out/patched" ||
	{ echo "1..0 # SKIP cannot prepare $out/patched"; exit 1; }
prepare_obj "$stock" "${FCTEST_STOCK_CONFIG:?}" "$out/stock" ||
	{ echo "1..0 # SKIP cannot prepare $out/stock"; exit 1; }

n=0
failures=0
for f in $files; do
	n=$((n + 1))
	warnings "$patched" "$out/patched" "$f" > "$out/patched.warnings"
	if [ -f "$stock/$f" ]; then
		warnings "$stock" "$out/stock" "$f" > "$out/stock.warnings"
	else
		: > "$out/stock.warnings"
	fi
	new=$(comm -13 "$out/stock.warnings" "$out/patched.warnings")
	if [ -z "$new" ]; then
		echo "ok $n W=1 and sparse: $f ($(wc -l < "$out/stock.warnings") before, $(wc -l < "$out/patched.warnings") after)"
	else
		echo "$new" | sed 's/^/# new: /'
		echo "not ok $n W=1 and sparse: $f"
		failures=$((failures + 1))
	fi
done
echo "1..$n"
[ "$n" -gt 0 ] && [ "$failures" -eq 0 ]
