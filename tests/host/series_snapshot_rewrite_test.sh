#!/bin/bash
# scripts/series-snapshot-rewrite on a made-up history of three commits:
# a replay that changes nothing gives the same commit ids; a transform
# changes every tree from the commit that has the file it edits, and
# only those; a message filter rewrites one message; it refuses a dirty
# tree.  One TAP test each.

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/host/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rewrite="$top/scripts/series-snapshot-rewrite"
cd "$tmp" || exit 1
git init -q .
export GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@placeholder.invalid \
	GIT_COMMITTER_NAME=C GIT_COMMITTER_EMAIL=c@placeholder.invalid
commit() { GIT_AUTHOR_DATE="@$1 +0000" GIT_COMMITTER_DATE="@$1 +0000" \
	git commit -q -m "$2" -m "Why $2."; }
echo a >a; git add a; commit 0 base; git tag base
echo b >b; git add b; commit 100 "add b"
echo c >>b; echo d >d; git add b d; commit 200 "grow b, add d"
old=$(git rev-parse HEAD)

"$rewrite" base true >/dev/null
check "$([ "$(git rev-parse HEAD)" = "$old" ]; echo $?)" \
	"a replay that changes nothing gives the same commit ids"

"$rewrite" base '[ -f b ] && sed -i "1s/^b$/B/" b; true' >/dev/null
[ "$(git show HEAD~1:b)" = B ] && [ "$(git show HEAD:b)" = "$(printf 'B\nc')" ] &&
	[ "$(git rev-parse HEAD~2)" = "$(git rev-parse base)" ]
check $? "the transform edits every tree that has the file, from where it comes"
[ "$(git log -1 --format='%an %ae %ad %cn %B' --date=raw HEAD)" = \
  "A a@placeholder.invalid 200 +0000 C grow b, add d

Why grow b, add d." ]
check $? "authors, dates and messages are kept"

"$rewrite" base true 'if [ "$SR_INDEX" = 2 ]; then sed "s/Why/Because/"; else cat; fi' >/dev/null
[ "$(git log -1 --format=%b HEAD)" = "Because grow b, add d." ] &&
	[ "$(git log -1 --format=%b HEAD~1)" = "Why add b." ]
check $? "the message filter rewrites the message it is asked to"

echo x >>a
"$rewrite" base true >/dev/null 2>&1
check "$([ $? = 1 ]; echo $?)" "refused: uncommitted changes"
tap_end
