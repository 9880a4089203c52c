#!/bin/sh
# include-uapi/ is what userspace builds against: each header must be
# exactly the one in the patched tree (FCTEST_TREE).  One TAP test each.

top=$(cd "$(dirname "$0")/../.." && pwd)
tree=$FCTEST_TREE
. "$top/tests/host/kernel_tree.sh"
need_tree "include-uapi/ is the patched tree's uapi" FCTEST_TREE "$tree"
n=0
failures=0

for f in $(cd "$top/include-uapi" && find . -name '*.h' | sort); do
	f=${f#./}
	n=$((n + 1))
	if cmp -s "$top/include-uapi/$f" "$tree/include/uapi/$f"; then
		echo "ok $n include-uapi/$f matches the series"
	else
		diff -u "$top/include-uapi/$f" "$tree/include/uapi/$f" | head -20 | sed 's/^/# /'
		echo "not ok $n include-uapi/$f matches the series"
		failures=$((failures + 1))
	fi
done
echo "1..$n"
[ "$n" -gt 0 ] && [ "$failures" -eq 0 ]
