#!/bin/bash
# scripts/series-rewrites on a posting of two made-up patches: it names
# the later patch that removes a line the earlier one added, counts the
# lines, leaves short lines and other postings out, and exits 0 for a
# posting that rewrites nothing.  One TAP test each.

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/host/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/scripts" "$tmp/series/one" "$tmp/series/two"
cp "$top/scripts/series-rewrites" "$tmp/scripts/"
printf '# name commits on prefix\none 2 - PATCH\ntwo 1 one PATCH\n' \
	>"$tmp/series/postings"

# $1: file, $2: lines removed, $3: lines added (each "|"-separated).
patch() {
	echo "Subject: [PATCH] x"
	echo
	echo "---"
	echo "diff --git a/$1 b/$1"
	echo "--- a/$1"
	echo "+++ b/$1"
	echo "@@ -1 +1 @@"
	[ -n "$2" ] && printf '%s\n' "$2" | tr '|' '\n' | sed 's/^/-/'
	[ -n "$3" ] && printf '%s\n' "$3" | tr '|' '\n' | sed 's/^/+/'
	echo "-- "
	echo "2.39.5"
}
patch fs/a.c "" "int first_version_of_a_line;|}|	return first_helper(x);" \
	>"$tmp/series/one/0001-add.patch"
patch fs/a.c "int first_version_of_a_line;|}|	return first_helper(x);" \
	"int second_version_of_a_line;" >"$tmp/series/one/0002-rewrite.patch"
echo "cover" >"$tmp/series/one/0000-cover-letter.patch"
patch fs/a.c "int second_version_of_a_line;" "int third;" \
	>"$tmp/series/two/0001-other.patch"

out=$("$tmp/scripts/series-rewrites" one)
rc=$?
check "$([ "$rc" = 1 ] && [ "$out" = "one/2 rewrites 2 lines of one/1 in fs/a.c" ]; echo $?)" \
	"a patch removing two long lines of an earlier one is named, exit 1"
[ "$out" = "one/2 rewrites 2 lines of one/1 in fs/a.c" ] || echo "# got: $out (exit $rc)"

out=$("$tmp/scripts/series-rewrites" two)
rc=$?
check "$([ "$rc" = 0 ] && [ -z "$out" ]; echo $?)" \
	"a line of another posting is not a rewrite, exit 0"
[ -z "$out" ] || echo "# got: $out (exit $rc)"

"$tmp/scripts/series-rewrites" three >/dev/null 2>&1
check "$([ $? = 2 ]; echo $?)" "a posting series/postings lacks is a usage error"

tap_end
