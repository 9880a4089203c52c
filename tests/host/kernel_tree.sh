# Sourced by the host tests that read a kernel tree (build/patched/src,
# build/stock/src): not a test itself (run-tests runs *_test.sh).
#
# need_tree TEST VAR DIR: DIR, the value of the variable VAR, must be a
# directory.  When it is not, the test is one TAP test, TEST, and exits:
#  - skipped, naming the reason, on a machine with no kernel tree (make
#    host-check, or a test run by hand): the userspace can be checked
#    without one;
#  - failed under make check (FCTEST_NEED_TREE=1), which builds the trees
#    before it runs the tests: there a missing tree is a broken run, and
#    a skip would hide that the series went unchecked.
need_tree() {
	[ -n "$3" ] && [ -d "$3" ] && return 0
	if [ -n "$FCTEST_NEED_TREE" ]; then
		echo "# $2 (${3:-unset}) is not a directory, and make check needs it"
		echo "not ok 1 $1"
		echo "1..1"
		exit 1
	fi
	echo "ok 1 $1 # SKIP no kernel tree: $2 is ${3:-unset}, not a directory (make check builds it)"
	echo "1..1"
	exit 0
}

# have_tree TEST VAR DIR: the same for a test whose other checks need no
# tree: true when DIR is a directory; else one TAP test, TEST, numbered
# n + 1 (the caller's n and failures are counted), skipped or failed as
# above, and false, so that the caller goes on without the tree.
have_tree() {
	[ -n "$3" ] && [ -d "$3" ] && return 0
	n=$((n + 1))
	if [ -n "$FCTEST_NEED_TREE" ]; then
		echo "# $2 (${3:-unset}) is not a directory, and make check needs it"
		echo "not ok $n $1"
		failures=$((failures + 1))
		return 1
	fi
	echo "ok $n $1 # SKIP no kernel tree: $2 is ${3:-unset}, not a directory (make check builds it)"
	return 1
}

# prepare_obj TREE CONFIG DIR: DIR, an object directory of TREE apart from
# the kernels' own, configured with CONFIG and prepared for building
# single files; done again only when CONFIG changed.  False if it fails.
prepare_obj() {
	if ! cmp -s "$2" "$3/.config.orig" 2>/dev/null; then
		mkdir -p "$3"
		cp "$2" "$3/.config"
		cp "$2" "$3/.config.orig"
		make -s -C "$1" O="$3" olddefconfig prepare >/dev/null 2>&1 ||
			return 1
	fi
}
