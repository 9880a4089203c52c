#!/bin/bash
# scripts/export-util-linux on a made-up tree with a tag base and two
# commits: the patches and the cover letter it writes (subject and text
# from cover-letter.txt, the commits' identity, the last commit's date,
# no commit ids), an earlier export's stale patch removed, and what it
# refuses.  Then the repository's util-linux/ as the script writes it,
# where build/util-linux/src holds it.  One TAP test each.

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/host/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export="$top/scripts/export-util-linux"
id=(-c user.name="Series Placeholder" -c user.email=p@placeholder.invalid)

src=$tmp/src out=$tmp/out
mkdir -p "$src" "$out"
git -C "$src" init -q
echo a >"$src/a.c"
git -C "$src" add a.c
GIT_AUTHOR_DATE="@0 +0000" GIT_COMMITTER_DATE="@0 +0000" \
	git -C "$src" "${id[@]}" commit -q -m base
git -C "$src" tag base
echo b >>"$src/a.c"
GIT_AUTHOR_DATE="@86400 +0000" git -C "$src" "${id[@]}" commit -q -am "lib: one" -m "Why one."
echo c >>"$src/a.c"
GIT_AUTHOR_DATE="@172800 +0000" git -C "$src" "${id[@]}" commit -q -am "lib: two" -m "Why two."
printf 'lib: the subject\n\nThe text of the cover.\n' >"$out/cover-letter.txt"
echo stale >"$out/0009-old.patch"

"$export" "$src" "$out" >/dev/null
check $? "exports a tree with two commits"
ls "$out" >"$tmp/ls"
printf '%s\n' 0000-cover-letter.patch 0001-lib-one.patch 0002-lib-two.patch \
	cover-letter.txt | cmp -s - "$tmp/ls"
check $? "writes the cover and two patches, removes the stale one"
cover=$out/0000-cover-letter.patch
grep -qx 'Subject: \[RFC PATCH 0/2\] lib: the subject' "$cover" &&
	grep -qx 'The text of the cover.' "$cover" && ! grep -q '\*\*\*' "$cover"
check $? "the cover's subject and text are cover-letter.txt's"
grep -qx 'From: Series Placeholder <p@placeholder.invalid>' "$cover" &&
	grep -qx 'Date: Sat, 3 Jan 1970 00:00:00 +0000' "$cover"
check $? "the cover is from the commits' identity, dated as the last commit"
! grep -h '^From [0-9a-f]' "$out"/0*.patch | grep -vq '^From 0\{40\} '
check $? "no commit id of the tree in the patches"
grep -qx 'Subject: \[RFC PATCH 2/2\] lib: two' "$out/0002-lib-two.patch"
check $? "the patches are numbered, RFC"

echo dirty >>"$src/a.c"
"$export" "$src" "$out" >/dev/null 2>&1
check "$([ $? = 1 ]; echo $?)" "refused: uncommitted changes"
git -C "$src" checkout -q a.c
git -C "$src" tag -d base >/dev/null
"$export" "$src" "$out" >/dev/null 2>&1
check "$([ $? = 1 ]; echo $?)" "refused: no tag base"
git -C "$src" tag base HEAD~2
rm "$out/cover-letter.txt"
"$export" "$src" "$out" >/dev/null 2>&1
check "$([ $? = 1 ]; echo $?)" "refused: no cover-letter.txt"

ul=$top/build/util-linux/src
if [ -d "$ul/.git" ] && [ -s "$top/build/util-linux/source.stamp" ] &&
   [ "$(git -C "$ul" rev-parse HEAD)" = "$(cat "$top/build/util-linux/source.stamp")" ]; then
	mkdir -p "$tmp/ul"
	cp "$top/util-linux/cover-letter.txt" "$tmp/ul/"
	"$export" "$ul" "$tmp/ul" >/dev/null
	diff -r "$top/util-linux" "$tmp/ul" >"$tmp/diff"
	check $? "util-linux/ is what the script writes from build/util-linux/src"
	sed 's/^/# /' "$tmp/diff" | head -20
else
	echo "ok $((n + 1)) # SKIP build/util-linux/src is not util-linux/'s (make util-linux)"
	n=$((n + 1))
fi
tap_end
