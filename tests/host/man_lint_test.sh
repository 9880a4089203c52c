#!/bin/sh
# The man pages of man/: one TAP test each.
#
#  - a page lints clean: "mandoc -T lint" (every level, style included)
#    and "groff -man -ww -z" print nothing;
#  - a link page (another name of a page) is a symbolic link to a page of
#    its own directory, not a ".so" page: ".so manN/page.N" is resolved from
#    the directory man runs in, so "man -l man/man3/fclog_error.3" from the
#    repository (or from anywhere but a man directory) found no page;
#  - every link page renders with "man -l" from the repository root and
#    from another directory, with nothing on standard error;
#  - every page of ours another page refers to ("fclog_next (3)") exists;
#  - the library's pages carry the version (.TH) and the soname
#    (libfclog(3)) the Makefile builds;
#  - every function fclog.h declares has a page of its name, and the page
#    it leads to names it in NAME (so that "man fclog_rejected" finds it).

top=$(cd "$(dirname "$0")/../.." && pwd)
n=0
failures=0

ok() {
	n=$((n + 1))
	echo "ok $n $1"
}

not_ok() {
	n=$((n + 1))
	echo "not ok $n $1"
	failures=$((failures + 1))
}

if ! command -v mandoc >/dev/null || ! command -v groff >/dev/null ||
   ! command -v man >/dev/null; then
	echo "# mandoc, groff or man is not installed: make deps installs them"
	not_ok "mandoc, groff and man are installed"
	echo "1..$n"
	exit 1
fi

cd "$top/man" || exit 1
pages=$(ls man[1-8]/*.[1-8])
[ -n "$pages" ] || not_ok "man/ has pages"

# The page a link page leads to, or the page itself.
target() {
	if [ -L "$1" ]; then
		echo "$(dirname "$1")/$(readlink "$1")"
	else
		echo "$1"
	fi
}

# A link page as a reader in the tree reads it: from the repository root,
# and from elsewhere by its full path; nothing on standard error.
renders() {
	for from in "$top" /; do
		out=$(cd "$from" && MANWIDTH=80 man -l "$top/man/$1" 2>&1 >/dev/null)
		rendered=$(cd "$from" && MANWIDTH=80 man -l "$top/man/$1" 2>/dev/null |
			grep -c .)
		if [ -z "$out" ] && [ "$rendered" -gt 10 ]; then
			ok "man -l man/$1 renders from $from"
		else
			echo "$out" | sed 's/^/# /'
			not_ok "man -l man/$1 renders from $from"
		fi
	done
}

for p in $pages; do
	if [ -L "$p" ]; then
		t=$(target "$p")
		case $(readlink "$p") in
		*/*)	echo "# $p -> $(readlink "$p"): not a page of its directory"
			not_ok "$p links to a page of its directory" ;;
		*)	if [ -f "$t" ] && [ ! -L "$t" ] &&
			   ! head -n 1 "$t" | grep -q '^\.so '; then
				ok "$p links to $t"
			else
				not_ok "$p links to a page of its directory"
			fi ;;
		esac
		renders "$p"
		continue
	fi
	if head -n 1 "$p" | grep -q '^\.so '; then
		echo "# $p: $(cat "$p"): .so is resolved from where man runs"
		not_ok "$p is a page, or a symbolic link to one (no .so)"
		renders "$p"
		continue
	fi
	out=$(mandoc -T lint "$p" 2>&1; groff -man -ww -z "$p" 2>&1)
	if [ -z "$out" ]; then
		ok "$p lints clean"
	else
		echo "$out" | sed 's/^/# /'
		not_ok "$p lints clean"
	fi
done

# References to our own pages: ".BR fclog_next (3)", "\fBfclog_next\fP(3)".
missing=$(sed -n 's/\\f[BIRP]//g; s/^\.[BIR]*  *//; s/"//g; p' $pages |
	grep -oE '(lib)?fclog[-_a-z0-9]* *\([1-8]\)' | tr -d ' ' | sort -u |
	while read -r ref; do
		name=${ref%(*} sec=${ref#*(}; sec=${sec%)}
		[ -f "man$sec/$name.$sec" ] || echo "$ref"
	done)
if [ -z "$missing" ]; then
	ok "every page of ours that a page refers to exists"
else
	echo "# missing: $missing"
	not_ok "every page of ours that a page refers to exists"
fi

# The library's pages name the version and soname the Makefile builds.
version=$(sed -n 's/^LIBFCLOG_VERSION := //p' "$top/Makefile")
soname=$(sed -n 's/^LIBFCLOG_SONAME := //p' "$top/Makefile")
stale=$(for p in $(find man3 -name '*.3' -type f); do
	grep -q "^\.TH .* \"libfclog $version\" " "$p" || echo "$p"
done)
grep -q "$soname" man3/libfclog.3 || stale="$stale man3/libfclog.3 (soname)"
if [ -n "$version" ] && [ -z "$stale" ]; then
	ok "the library's pages are of libfclog $version ($soname)"
else
	echo "# not of libfclog $version ($soname):" $stale
	not_ok "the library's pages are of libfclog $version ($soname)"
fi

# Every function of the header: its own name finds a page that names it.
funcs=$(sed -n 's/^[a-z].*[ *]\(fclog_[a-z_]*\)(.*/\1/p' \
	"$top/userspace/include/fclog.h" | sort -u)
[ -n "$funcs" ] || not_ok "fclog.h declares functions"
for f in $funcs; do
	if [ -f "man3/$f.3" ] &&
	   sed -n '/^\.SH NAME/,/^\.SH/p' "$(target "man3/$f.3")" |
			grep -qE "(^|[ ,])$f(,|\$| )"; then
		ok "$f(3) has a page that names it"
	else
		not_ok "$f(3) has a page that names it"
	fi
done

echo "1..$n"
[ "$failures" -eq 0 ]
