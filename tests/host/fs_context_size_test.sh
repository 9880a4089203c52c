#!/bin/sh
# struct fs_context stays in stock's slab class (issue 42): every context,
# mount(2)'s and kern_mount()'s included, is a kmalloc() of
# sizeof(struct fs_context), so the series may not move it to a larger
# kmalloc class.  sizeof is read from each tree as its compiler lays the
# struct out: fs/fs_context.c preprocessed with the tree's .config (Kbuild's
# own "make fs/fs_context.i"), plus one line that stores the size, compiled
# to assembly.  The class is the one kmalloc() takes for that size (8 to 96
# bytes as they come, 128, 192, then powers of two).
# And struct fs_parameter keeps stock's size (issue 41): every fsconfig()
# zeroes one on its stack before it looks at its fd, so a larger one costs
# every call, a bad fd's included (gcc zeroes 40 bytes with five stores,
# 48 with rep stos).  Two TAP tests.
#
# Needs what series_warnings_test.sh needs (FCTEST_TREE, FCTEST_STOCK_TREE,
# their .configs, FCTEST_LINT_OBJ) and shares its object directories
# (prepare_obj, tests/host/kernel_tree.sh).

top=$(cd "$(dirname "$0")/../.." && pwd)
patched=$FCTEST_TREE
stock=$FCTEST_STOCK_TREE
. "$top/tests/host/kernel_tree.sh"
name="struct fs_context in stock's kmalloc class"
need_tree "$name" FCTEST_TREE "$patched"
need_tree "$name" FCTEST_STOCK_TREE "$stock"
out=${FCTEST_LINT_OBJ:?set FCTEST_LINT_OBJ to a build directory}

# $1: tree, $2: object directory; prints sizeof(struct fs_context) and
# sizeof(struct fs_parameter), on one line.
size_of() {
	rm -f "$2/fs/fs_context.i"
	make -s -C "$1" O="$2" fs/fs_context.i >/dev/null 2>&1 || return 1
	{ cat "$2/fs/fs_context.i"
	  echo 'const int fctest_sizeof_fs_context = sizeof(struct fs_context);'
	  echo 'const int fctest_sizeof_fs_parameter = sizeof(struct fs_parameter);'
	} > "$2/fs_context_size.i"
	gcc -std=gnu11 -fms-extensions -w -S -o - "$2/fs_context_size.i" |
		awk '/^fctest_sizeof_fs_(context|parameter):/ { getline; s = s " " $2 }
		     END { print s }'
}

# kmalloc's class for $1 bytes (kmalloc_size_roundup() with the default
# KMALLOC_MIN_SIZE of 8: 8, 16, 32, 64, 96, 128, 192, 256, ...).
class_of() {
	awk -v n="$1" 'BEGIN {
		if (n <= 64) { c = 8; while (c < n) c *= 2 }
		else if (n <= 96) c = 96
		else if (n <= 128) c = 128
		else if (n <= 192) c = 192
		else { c = 256; while (c < n) c *= 2 }
		print c }'
}

prepare_obj "$patched" "${FCTEST_PATCHED_CONFIG:?}" "$out/patched" ||
	{ echo "not ok 1 $name # cannot prepare $out/patched"; echo "1..1"; exit 1; }
prepare_obj "$stock" "${FCTEST_STOCK_CONFIG:?}" "$out/stock" ||
	{ echo "not ok 1 $name # cannot prepare $out/stock"; echo "1..1"; exit 1; }
set -- $(size_of "$patched" "$out/patched") $(size_of "$stock" "$out/stock")
ps=$1 pp=$2 ss=$3 sp=$4
case "$ps$pp$ss$sp" in
*[!0-9]*|"")
	echo "# sizes not found: patched '$ps' '$pp', stock '$ss' '$sp'"
	echo "not ok 1 $name"; echo "not ok 2 struct fs_parameter keeps stock's size"
	echo "1..2"; exit 1 ;;
esac
pc=$(class_of "$ps")
sc=$(class_of "$ss")
fail=0
echo "# sizeof(struct fs_context): stock $ss bytes (kmalloc-$sc), patched $ps bytes (kmalloc-$pc)"
if [ "$pc" -le "$sc" ]; then
	echo "ok 1 $name"
else
	echo "not ok 1 $name"; fail=1
fi
echo "# sizeof(struct fs_parameter): stock $sp bytes, patched $pp bytes"
if [ "$pp" -le "$sp" ]; then
	echo "ok 2 struct fs_parameter keeps stock's size"
else
	echo "not ok 2 struct fs_parameter keeps stock's size"; fail=1
fi
echo "1..2"
exit $fail
