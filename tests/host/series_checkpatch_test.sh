#!/bin/sh
# checkpatch.pl --strict on every patch of the series: one TAP test each.
#
# Needs FCTEST_TREE, a kernel tree (build/patched/src) for checkpatch and
# its lists.  checkpatch's SPDX check runs Debian's python3, which has
# python3-ply and python3-git, whatever python3 comes first in PATH.

top=$(cd "$(dirname "$0")/../.." && pwd)
tree=$FCTEST_TREE
. "$top/tests/host/kernel_tree.sh"
need_tree "checkpatch on every patch" FCTEST_TREE "$tree"
n=0
failures=0

# Three exceptions, named in the cover letters.  The first: checkpatch asks
# whether MAINTAINERS needs updating for every patch that adds a file, even
# when an existing entry already covers it.  The question is ignored for a patch
# only if every file it adds is covered by an F: entry of MAINTAINERS: a
# directory ("dir/", anything below it) or the files of one ("dir/*", not
# its subdirectories).
new_files() {
	awk '/^diff --git / { f = $4; sub("^b/", "", f) }
	     /^new file mode/ { print f }' "$1"
}

covered() {
	files=$(new_files "$1")
	[ -n "$files" ] || return 1
	dirs=$(sed -n 's|^F:[[:space:]]*\(.*/\)$|\1|p' "$tree/MAINTAINERS")
	globs=$(sed -n 's|^F:[[:space:]]*\(.*/\)\*$|\1|p' "$tree/MAINTAINERS")
	for f in $files; do
		found=
		for d in $dirs; do
			case $f in "$d"*) found=1; break ;; esac
		done
		for d in $globs; do
			case $f in "$d"*/*) ;; "$d"*) found=1; break ;; esac
		done
		[ -n "$found" ] || return 1
	done
	return 0
}

# The other: checkpatch's CamelCase check flags every added line that uses
# a mixed-case name, though what it asks for is that new names not be
# mixed case.  It is ignored for a patch only if every name it flags is in
# the tree before the series (tag "base"), as overlayfs's Opt_workdir is.
camelcase_names_exist() {
	names=$(printf '%s\n' "$1" |
		sed -n 's/^CHECK: Avoid CamelCase: <\(.*\)>$/\1/p' | sort -u)
	[ -n "$names" ] || return 1
	for name in $names; do
		git -C "$tree" grep -q -w -F -e "$name" base -- || return 1
	done
	return 0
}

# The third: the tree is a release tarball without history, so checkpatch
# cannot find any commit a Fixes: tag names ("Unknown commit id").  The
# warning is ignored for a patch only if every id it flags is one that a
# Fixes: tag of the patch names with its subject, as upstream spells it.
unknown_ids_are_fixes() {
	ids=$(printf '%s\n' "$1" |
		sed -n "s/^WARNING: Unknown commit id '\([0-9a-f]*\)'.*/\1/p" | sort -u)
	[ -n "$ids" ] || return 1
	for id in $ids; do
		grep -q "^Fixes: $id (\".*\")\$" "$2" || return 1
	done
	return 0
}

checkpatch() {
	(cd "$tree" && PATH=/usr/bin:$PATH scripts/checkpatch.pl --strict -q "$@" 2>&1)
}

for patch in $(sed -e 's/#.*//' "$top/series/series"); do
	p=$top/series/$patch
	n=$((n + 1))
	ignore=
	covered "$p" && ignore="--ignore FILE_PATH_CHANGES"
	out=$(checkpatch $ignore "$p")
	ok=$?
	if [ $ok -ne 0 ] && camelcase_names_exist "$out"; then
		ignore="$ignore --ignore CAMELCASE"
		out=$(checkpatch $ignore "$p")
		ok=$?
	fi
	if [ $ok -ne 0 ] && unknown_ids_are_fixes "$out" "$p"; then
		out=$(checkpatch $ignore --ignore UNKNOWN_COMMIT_ID "$p")
		ok=$?
	fi
	if [ $ok -eq 0 ]; then
		echo "ok $n checkpatch $patch"
	else
		echo "$out" | sed 's/^/# /'
		echo "not ok $n checkpatch $patch"
		failures=$((failures + 1))
	fi
done
# checkpatch caches the tree's CamelCase names in the tree; leave it clean.
rm -f "$tree"/.checkpatch-camelcase.git.*
echo "1..$n"
[ "$n" -gt 0 ] && [ "$failures" -eq 0 ]
