#!/bin/sh
# struct fs_context stays in stock's slab class (issue 42): every context,
# mount(2)'s and kern_mount()'s included, is a kmalloc() of
# sizeof(struct fs_context), so the series may not move it to a larger
# kmalloc class.  sizeof is read from each tree as its compiler lays the
# struct out: fs/fs_context.c preprocessed with the tree's .config (Kbuild's
# own "make fs/fs_context.i"), plus one line that stores the size, compiled
# to assembly.  The class is the one kmalloc() takes for that size (8 to 96
# bytes as they come, 128, 192, then powers of two).  One TAP test.
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

# $1: tree, $2: object directory; prints sizeof(struct fs_context).
size_of() {
	rm -f "$2/fs/fs_context.i"
	make -s -C "$1" O="$2" fs/fs_context.i >/dev/null 2>&1 || return 1
	{ cat "$2/fs/fs_context.i"
	  echo 'const int fctest_sizeof_fs_context = sizeof(struct fs_context);'
	} > "$2/fs_context_size.i"
	gcc -std=gnu11 -fms-extensions -w -S -o - "$2/fs_context_size.i" |
		awk '/^fctest_sizeof_fs_context:/ { getline; print $2; exit }'
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
ps=$(size_of "$patched" "$out/patched")
ss=$(size_of "$stock" "$out/stock")
case "$ps$ss" in
*[!0-9]*|"")
	echo "# sizeof(struct fs_context) not found: patched '$ps', stock '$ss'"
	echo "not ok 1 $name"; echo "1..1"; exit 1 ;;
esac
pc=$(class_of "$ps")
sc=$(class_of "$ss")
echo "# sizeof(struct fs_context): stock $ss bytes (kmalloc-$sc), patched $ps bytes (kmalloc-$pc)"
if [ "$pc" -le "$sc" ]; then
	echo "ok 1 $name"
else
	echo "not ok 1 $name"
fi
echo "1..1"
[ "$pc" -le "$sc" ]
