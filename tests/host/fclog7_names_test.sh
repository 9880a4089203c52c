#!/bin/sh
# fclog(7) and the series' Documentation/filesystems/mount_api.rst must name
# the same fields, levels, events (with level and errno), causes (with
# errno) and commands, so that the page cannot drift from the kernel's
# documentation.  One TAP test per kind of name; a difference is shown as
# a diff, "-" for the kernel's documentation, "+" for the page.
#
# From mount_api.rst, "The Message Log" section, its simple tables:
#   "Field" tables  the first column (``event`` or seq); every
#                   ``*_truncated`` named in a row; in an "object" row the
#                   keys quoted in it ({"type": ..} of superblock gives
#                   superblock.type); the ``"values"`` of the level row;
#                   the ``commands`` of the op row
#   "Event" table   name, level and errno ("any", or none)
#   "Cause" table   name and errno(s)
# From fclog(7): the tag of every .TP under .SS "Record fields" and
# "Report fields" (fields), Levels, Events ("(level, errno)"), Causes
# ("(errno, ...)") and Commands.
#
# FCTEST_TREE is the patched kernel tree (build/patched/src by default).

top=$(cd "$(dirname "$0")/../.." && pwd)
tree=${FCTEST_TREE:-$top/build/patched/src}
rst=$tree/Documentation/filesystems/mount_api.rst
page=$top/man/man7/fclog.7
. "$top/tests/host/kernel_tree.sh"
need_tree "fclog(7) names what mount_api.rst names" FCTEST_TREE "$tree"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -f "$rst" ]; then
	echo "# no $rst: set FCTEST_TREE to the patched kernel tree"
	echo "not ok 1 mount_api.rst found"
	echo "1..1"
	exit 1
fi

# "KIND NAME [ATTRS]" lines from the rst's tables.
awk '
function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
function unquote(s) { gsub(/``/, "", s); return trim(s) }
# The names in @s matching the regular expression @re (a string), each
# printed as "KIND PREFIXname", without its quotes.
function names(s, re, kind, prefix,    m) {
	while (match(s, re)) {
		m = substr(s, RSTART, RLENGTH)
		gsub(/[`"]/, "", m)
		sub(/:$/, "", m)
		print kind, prefix m
		s = substr(s, RSTART + RLENGTH)
	}
}
function errnos(s,    n, i, j, t, a, out) {
	gsub(/[ ,]+/, " ", s)
	n = split(trim(s), a, " ")
	if (n == 0)
		return "-"
	# Sorted, so that the order written does not matter.
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	out = a[1]
	for (i = 2; i <= n; i++)
		out = out "," a[i]
	return out
}
function flush(    name, all, i) {
	if (!inrow)
		return
	inrow = 0
	name = unquote(cell[1])
	# The cells but the name: type and meaning.
	all = ""
	for (i = 2; i <= ncol; i++)
		all = all " " cell[i]
	if (kind == "Field") {
		print "field", name
		names(all, "``[a-z_]+_truncated``", "field", "")
		if (all ~ /^ *object/)
			names(all, "\"[a-z_]+\":", "field", name ".")
		if (name == "level")
			names(all, "``\"[a-z]+\"``", "level", "")
		# expected lists a part of them, after the cause it goes with
		if (name == "op")
			names(all, "``[a-z_]+``", "op", "")
	} else if (kind == "Event") {
		print "event", name, "level=" trim(cell[2]), \
			"errno=" errnos(cell[3])
	} else if (kind == "Cause") {
		print "cause", name, "errno=" errnos(cell[2])
	}
}
/^The Message Log$/ { inlog = 1 }
!inlog { next }
/^ *=+( +=+)+ *$/ {
	if (state == 0) {
		# The columns start where the runs of "=" do.
		ncol = 0
		for (i = 1; i <= length($0); i++)
			if (substr($0, i, 1) == "=" && (i == 1 || substr($0, i - 1, 1) == " "))
				start[++ncol] = i
		state = 1
	} else if (state == 1) {
		state = 2
	} else {
		flush()
		state = 0
	}
	next
}
state == 1 { kind = trim(substr($0, start[1], start[2] - start[1])); next }
state == 2 {
	if (trim($0) == "")
		next
	first = trim(substr($0, start[1], start[2] - start[1]))
	if (first != "") {
		flush()
		inrow = 1
		for (i = 1; i <= ncol; i++)
			cell[i] = ""
	}
	for (i = 1; i <= ncol; i++) {
		end = i < ncol ? start[i + 1] - start[i] : length($0)
		cell[i] = cell[i] " " substr($0, start[i], end)
	}
}
' "$rst" | sort -u > "$tmp/rst"

# The same from the page.
awk '
function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
function errnos(s,    n, i, j, t, a, out) {
	gsub(/[ ,]+/, " ", s)
	n = split(trim(s), a, " ")
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	out = a[1]
	for (i = 2; i <= n; i++)
		out = out "," a[i]
	return n ? out : "-"
}
/^\.SS / { ss = $0; sub(/^\.SS +/, "", ss); gsub(/"/, "", ss); next }
/^\.T[PQ]$/ { tag = 1; next }
tag {
	tag = 0
	if ($1 != ".B" && $1 != ".BR")
		next
	name = $2
	gsub(/"/, "", name)
	attrs = $0
	if (!sub(/^[^"]*"[^"]*" *"? *\(/, "", attrs) && \
	    !sub(/^\.BR? +[^ ]+ +" *\(/, "", attrs))
		attrs = ""
	sub(/\)" *$/, "", attrs)
	if (ss == "Record fields" || ss == "Report fields") {
		print "field", name
	} else if (ss == "Levels") {
		print "level", name
	} else if (ss == "Commands") {
		print "op", name
	} else if (ss == "Events") {
		split(attrs, a, ", ")
		e = a[2]
		if (e == "any errno") e = "any"
		else if (e == "no errno") e = ""
		print "event", name, "level=" a[1], "errno=" errnos(e)
	} else if (ss == "Causes") {
		print "cause", name, "errno=" errnos(attrs)
	}
}
' "$page" | sort -u > "$tmp/page"

n=0
failures=0
for kind in field level event cause op; do
	n=$((n + 1))
	grep "^$kind " "$tmp/rst" > "$tmp/rst.$kind"
	grep "^$kind " "$tmp/page" > "$tmp/page.$kind"
	what="fclog(7) and mount_api.rst name the same ${kind}s"
	if [ ! -s "$tmp/rst.$kind" ]; then
		echo "# no $kind found in $rst: has its layout changed?"
		echo "not ok $n $what"
		failures=$((failures + 1))
	elif diff -u --label mount_api.rst --label fclog.7 \
			"$tmp/rst.$kind" "$tmp/page.$kind" > "$tmp/diff"; then
		echo "ok $n $what ($(wc -l < "$tmp/rst.$kind"))"
	else
		sed 's/^/# /' "$tmp/diff"
		echo "not ok $n $what"
		failures=$((failures + 1))
	fi
done
echo "1..$n"
[ "$failures" -eq 0 ]
