#!/bin/sh
# checkpatch.pl --strict on every patch of the series: one TAP test each.
#
# Needs FCTEST_TREE, a kernel tree (build/patched/src) for checkpatch and
# its lists.  checkpatch's SPDX check runs Debian's python3, which has
# python3-ply and python3-git, whatever python3 comes first in PATH.

top=$(cd "$(dirname "$0")/../.." && pwd)
tree=${FCTEST_TREE:?set FCTEST_TREE to a kernel tree}
n=0
failures=0

for p in "$top"/series/[0-9][0-9][0-9][0-9]-*.patch; do
	case ${p##*/} in 0000-*) continue ;; esac
	n=$((n + 1))
	if out=$(cd "$tree" && PATH=/usr/bin:$PATH scripts/checkpatch.pl --strict -q "$p" 2>&1); then
		echo "ok $n checkpatch ${p##*/}"
	else
		echo "$out" | sed 's/^/# /'
		echo "not ok $n checkpatch ${p##*/}"
		failures=$((failures + 1))
	fi
done
echo "1..$n"
[ "$n" -gt 0 ] && [ "$failures" -eq 0 ]
