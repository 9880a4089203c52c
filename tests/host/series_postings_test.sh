#!/bin/bash
# The postings of series/ (series/postings): series/series lists their
# patches in order; each posting has a cover letter and every patch its
# recipients; each posting applies, with git am, on plain 7.3 and only
# the postings it says it applies on (scripts/apply-posting); the fixes
# carry Fixes: and Cc: stable; every cover names its base-commit: and the
# prerequisite-patch-id: of each patch under it.  One TAP test each.
#
# Applying them needs FCTEST_TREE (build/patched/src, a git repository
# whose tag "base" is linux-source-7.3); the postings are applied in a
# worktree of it made for the test, so the tree itself is left as it is.
# Without a tree that one test is skipped (tests/host/kernel_tree.sh); the
# others read series/ only.

top=$(cd "$(dirname "$0")/../.." && pwd)
tree=$FCTEST_TREE
. "$top/tests/host/kernel_tree.sh"
n=0
failures=0

result() {	# result OK DESCRIPTION [DETAIL]
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n $2"
	else
		[ -n "${3:-}" ] && printf '%s\n' "$3" | sed 's/^/# /'
		echo "not ok $n $2"
		failures=$((failures + 1))
	fi
}

postings=$(sed -e 's/#.*//' "$top/series/postings" | awk 'NF { print $1 }')

# series/series is the postings' patches, in order, and nothing else.
want=$(for p in $postings; do
	for f in "$top/series/$p"/[0-9][0-9][0-9][0-9]-*.patch; do
		case ${f##*/} in 0000-*) ;; *) echo "$p/${f##*/}" ;; esac
	done
done)
have=$(sed -e 's/#.*//' "$top/series/series" | awk 'NF')
[ "$want" = "$have" ]
result $? "series/series lists the postings' patches in order" \
	"$(diff <(echo "$want") <(echo "$have"))"

for p in $postings; do
	cover=$top/series/$p/0000-cover-letter.patch
	prefix=$(sed -e 's/#.*//' "$top/series/postings" |
		awk -v n="$p" '$1 == n { for (i = 4; i <= NF; i++) printf "%s%s", (i > 4 ? " " : ""), $i }')
	grep -q "^Subject: \[$prefix 0\+/" "$cover" &&
		grep -q '^To: ' "$cover" && grep -q '^Changes in v2:' "$cover"
	result $? "$p: cover letter [$prefix 0/..] with recipients and changes in v2"

	missing=
	for f in "$top/series/$p"/[0-9][0-9][0-9][0-9]-*.patch; do
		case ${f##*/} in 0000-*) continue ;; esac
		grep -q '^To: ' "$f" || missing="$missing ${f##*/}(To)"
		if grep -q '^diff --git a/include/uapi/' "$f" &&
		   ! grep -q 'linux-api@vger.kernel.org' "$f"; then
			missing="$missing ${f##*/}(linux-api)"
		fi
		if [ "$p" = fixes ] && ! { grep -q '^Fixes: [0-9a-f]\{12\} ("' "$f" &&
			grep -q '^Cc: stable@vger.kernel.org' "$f"; }; then
			missing="$missing ${f##*/}(Fixes/stable)"
		fi
	done
	what="every patch has its recipients"
	[ "$p" = fixes ] && what="$what, Fixes: and Cc: stable"
	[ -z "$missing" ]
	result $? "$p: $what" "$missing"
done

# Where each posting applies: base-commit: in every cover, and a
# prerequisite-patch-id: for each patch of the postings it applies on, in
# order, as git patch-id --stable gives it (what git format-patch --base
# writes); a posting on plain 7.3 has none.
applies_on() {
	sed -e 's/#.*//' "$top/series/postings" | awk -v n="$1" '$1 == n { print $3 }' | tr , ' '
}
bases=
for p in $postings; do
	cover=$top/series/$p/0000-cover-letter.patch
	base=$(sed -n 's/^base-commit: \([0-9a-f]\{40\}\)$/\1/p' "$cover")
	[ "$(wc -w <<<"$base")" = 1 ]
	result $? "$p: the cover letter names its base-commit:" "$(grep -n '^base-commit' "$cover")"
	bases+=" $base"
	want_ids=$(for under in $(applies_on "$p"); do
		[ "$under" = - ] && continue
		for f in "$top/series/$under"/[0-9][0-9][0-9][0-9]-*.patch; do
			case ${f##*/} in 0000-*) continue ;; esac
			git patch-id --stable < "$f" | cut -d' ' -f1
		done
	done)
	have_ids=$(sed -n 's/^prerequisite-patch-id: //p' "$cover")
	[ "$want_ids" = "$have_ids" ]
	result $? "$p: prerequisite-patch-id: lines are the patches of what it applies on ($(applies_on "$p"))" \
		"$(diff <(echo "$want_ids") <(echo "$have_ids"))"
done
[ "$(tr ' ' '\n' <<<"$bases" | awk NF | sort -u | wc -l)" = 1 ]
result $? "every posting names the same base-commit:" "$bases"

if ! have_tree "every posting applies on the base tree" FCTEST_TREE "$tree"; then
	echo "1..$n"
	[ "$failures" -eq 0 ]
	exit
fi

# series/ is the repository's copy: its base-commit: is the tree's base,
# Debian's tarball committed reproducibly (a real posting names mainline's).
base=$(git -C "$tree" rev-parse base^{commit} 2>&1)
[ "$(tr ' ' '\n' <<<"$bases" | awk NF | sort -u)" = "$base" ]
result $? "the base-commit: of series/ is the tree's reproducible base ($base)" "$bases"

# The worktree checks out only the files the series touches: git am needs
# no other, and the whole tree takes a minute to write.
wt=$(mktemp -d)
trap 'git -C "$tree" worktree remove --force "$wt" 2>/dev/null; rm -rf "$wt"' EXIT
paths=$(for f in $have; do
	sed -n 's|^diff --git a/\([^ ]*\) b/.*|/\1|p' "$top/series/$f"
done | sort -u)
if git -C "$tree" worktree add -q --no-checkout --detach "$wt" base 2>/dev/null &&
   git -C "$wt" sparse-checkout set --no-cone $paths 2>/dev/null &&
   git -C "$wt" checkout -q 2>/dev/null; then
	for p in $postings; do
		out=$("$top/scripts/apply-posting" "$wt" "$p" 2>&1)
		result $? "$p applies on the base tree with only what it applies on" "$out"
	done
else
	result 1 "a worktree of $tree at base"
fi

echo "1..$n"
[ "$failures" -eq 0 ]
