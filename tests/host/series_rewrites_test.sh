#!/bin/bash
# scripts/series-rewrites on a posting of two made-up patches: it names
# the later patch that removes a line the earlier one added, counts the
# lines, leaves short lines and other postings out, and exits 0 for a
# posting that rewrites nothing; a pair series/rewrites lists is not
# printed when the later changelog has its words, and is an error when it
# lacks them or no longer rewrites.  One TAP test each.

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/host/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/scripts" "$tmp/series/one" "$tmp/series/two"
cp "$top/scripts/series-rewrites" "$tmp/scripts/"
printf '# name commits on prefix\none 2 - PATCH\ntwo 1 one PATCH\n' \
	>"$tmp/series/postings"

# $1: file, $2: lines removed, $3: lines added (each "|"-separated),
# $4: the changelog.
patch() {
	echo "Subject: [PATCH] x"
	echo
	[ -n "$4" ] && printf '%s\n\n' "$4"
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
	"int second_version_of_a_line;" \
	"Rename the variable, as the first
patch left it unnamed." >"$tmp/series/one/0002-rewrite.patch"
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

# series/rewrites: the pair listed with words its changelog has, across
# a line break of the changelog.
printf '# why\none/2 one/1 | as the first patch left it\n' >"$tmp/series/rewrites"
out=$("$tmp/scripts/series-rewrites" one)
rc=$?
check "$([ "$rc" = 0 ] && [ -z "$out" ]; echo $?)" \
	"a listed pair whose changelog says why is not printed, exit 0"
[ -z "$out" ] || echo "# got: $out (exit $rc)"

out=$("$tmp/scripts/series-rewrites" -v one)
check "$([ "$out" = "one/2 rewrites 2 lines of one/1 in fs/a.c (explained)" ]; echo $?)" \
	"-v prints a listed pair as explained"

printf 'one/2 one/1 | because it was wrong\n' >"$tmp/series/rewrites"
out=$("$tmp/scripts/series-rewrites" one)
rc=$?
want='series/rewrites:1: the changelog of one/2 does not say "because it was wrong"'
check "$([ "$rc" = 1 ] && [ "$out" = "$want" ]; echo $?)" \
	"a listed pair whose changelog lacks the words is an error, exit 1"
[ "$out" = "$want" ] || echo "# got: $out (exit $rc)"

printf 'one/2 one/1 | as the first patch left it\ntwo/1 one/1 | x\n' \
	>"$tmp/series/rewrites"
out=$("$tmp/scripts/series-rewrites" two)
rc=$?
want='series/rewrites:2: two/1 no longer rewrites one/1'
check "$([ "$rc" = 1 ] && [ "$out" = "$want" ]; echo $?)" \
	"a listed pair that does not rewrite is an error, exit 1"
[ "$out" = "$want" ] || echo "# got: $out (exit $rc)"

printf 'one/2 | no earlier patch\n' >"$tmp/series/rewrites"
"$tmp/scripts/series-rewrites" one >/dev/null 2>&1
check "$([ $? = 1 ]; echo $?)" "a malformed series/rewrites line is an error"

tap_end
