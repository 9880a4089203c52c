#!/bin/bash
# make export-series stamps the poster's identity at export, never in the
# repository: it refuses, naming AUTHOR= and EMAIL=, no identity, a
# placeholder one, a team's name, an example address; a real posting
# needs its base in mainline (LINUX_GIT=, checked, or BASE_COMMIT=) and
# is not written into the checkout.  With the tree
# (FCTEST_TREE, build/patched/src at the series): PLACEHOLDER=1 writes
# series/ byte for byte, and a real identity is on every patch and cover
# and no other identity is.
#
# The refusals need no tree (they come before it is read); the exports
# are skipped without one (tests/host/kernel_tree.sh).

top=$(cd "$(dirname "$0")/../.." && pwd)
tree=$FCTEST_TREE
. "$top/tests/host/tap.sh"
. "$top/tests/host/kernel_tree.sh"
export=$top/scripts/export-series
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Exports with no git identity but what a test gives.
export HOME=$tmp GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
unset AUTHOR EMAIL PLACEHOLDER BASE_COMMIT BASE_TAG LINUX_GIT
base=0123456789abcdef0123456789abcdef01234567

# refused TEST WORD [VAR=VALUE...]: export-series --check, with VARs in its
# environment, exits non-zero, and its message names WORD.
refused() {
	local what=$1 word=$2 out rc
	shift 2
	out=$(env "$@" "$export" --check "$tmp/no-tree" "$tmp/out" 2>&1)
	rc=$?
	[ "$rc" -ne 0 ] && grep -qF -- "$word" <<<"$out"
	check $? "refused: $what"
	[ "$rc" -ne 0 ] || echo "# exited 0: $out"
	grep -qF -- "$word" <<<"$out" || echo "# does not say $word: $out"
}

refused "no identity at all" "AUTHOR=" X=
refused "no identity at all, the message names EMAIL=" "EMAIL=" X=
refused "the machine's team identity" "AUTHOR=" \
	AUTHOR="Seed f7096fbd maintainers" \
	EMAIL=maintainers@users.noreply.a-seed-f7096fbd.example BASE_COMMIT=$base
refused "the repository's placeholder as AUTHOR=" "AUTHOR=" \
	AUTHOR="Series Placeholder" EMAIL=export-with-AUTHOR-and-EMAIL@placeholder.invalid \
	BASE_COMMIT=$base
refused "a project's name" "not a person" \
	AUTHOR="The fc_log developers" EMAIL=fclog@kernel.org BASE_COMMIT=$base
refused "a build identity" "not a person" \
	AUTHOR=fclog-build EMAIL=fclog-build@kernel.org BASE_COMMIT=$base
for address in a.person@example.com a.person@example.org person@host.example \
		person@x.invalid person@localhost person@users.noreply.github.com \
		not-an-address; do
	refused "a person at $address" "EMAIL=" AUTHOR="A Person" EMAIL=$address \
		BASE_COMMIT=$base
done
refused "a real identity without LINUX_GIT= or BASE_COMMIT=" "BASE_COMMIT=" \
	AUTHOR="A Person" EMAIL=a@b.org
refused "a LINUX_GIT= without the base's tag" "LINUX_GIT=" \
	AUTHOR="A Person" EMAIL=a@b.org LINUX_GIT=$top
refused "a BASE_COMMIT= that is not a commit id" "BASE_COMMIT=" \
	AUTHOR="A Person" EMAIL=a@b.org BASE_COMMIT=v7.3.4
refused "PLACEHOLDER=1 with an AUTHOR=" "AUTHOR=" PLACEHOLDER=1 AUTHOR="A Person"
out=$(AUTHOR="A Person" EMAIL=a@b.org BASE_COMMIT=$base \
	"$export" --check "$tmp/no-tree" "$top/series" 2>&1)
[ $? -ne 0 ] && grep -q 'not written into the repository' <<<"$out"
check $? "refused: a real posting written into series/"
out=$(AUTHOR="A Person" EMAIL=a@b.org BASE_COMMIT=$base \
	"$export" --check "$tmp/no-tree" "$tmp/out" 2>&1)
check $? "a person at a real address with BASE_COMMIT= is taken"
[ -z "$out" ] || echo "# $out"

if ! have_tree "exports from the tree" FCTEST_TREE "$tree"; then
	tap_end
	exit
fi

# The repository's copy, byte for byte.
PLACEHOLDER=1 "$export" "$tree" "$tmp/placeholder" > "$tmp/placeholder.log" 2>&1
rc=$?
check $rc "PLACEHOLDER=1 exports"
[ $rc = 0 ] || sed 's/^/# /' "$tmp/placeholder.log"
# series/rewrites is the repository's own (scripts/series-rewrites), not exported.
d=$(diff -r -x cover-letter.txt -x postings -x recipients -x rewrites \
	"$top/series" "$tmp/placeholder" 2>&1)
[ $rc = 0 ] && [ -z "$d" ]
check $? "PLACEHOLDER=1 writes series/ byte for byte"
[ -z "$d" ] || head -40 <<<"$d" | sed 's/^/# /'

# The base checked in a clone of mainline (here the tree itself, whose
# tag "base" stands for v7.3.4): a commit where a file the series
# changes differs is refused.
out=$(AUTHOR="A Person" EMAIL=a@b.org LINUX_GIT=$tree BASE_COMMIT=$(git -C "$tree" rev-parse HEAD) \
	"$export" "$tree" "$tmp/wrong-base" 2>&1)
[ $? -ne 0 ] && grep -q 'does not apply on' <<<"$out" && [ ! -e "$tmp/wrong-base/series" ]
check $? "refused: a base where the files the series changes differ"
base=$(git -C "$tree" rev-parse base^{commit})

# A real posting: exactly the poster's From: and Signed-off-by:.
AUTHOR="A Person" EMAIL=a@b.org LINUX_GIT=$tree BASE_TAG=base \
	"$export" "$tree" "$tmp/real" > "$tmp/real.log" 2>&1
rc=$?
check $rc "a real identity exports"
[ $rc = 0 ] || sed 's/^/# /' "$tmp/real.log"
bad=
for f in "$tmp"/real/*/[0-9][0-9][0-9][0-9]-*.patch; do
	name=${f#"$tmp"/real/}
	# From:, folded or not.
	from=$(awk '/^From: / { h = $0; getline l; if (l ~ /^ /) h = h l; print h; exit }' "$f")
	[ "$from" = "From: A Person <a@b.org>" ] || bad+=" $name(From: $from)"
	case $name in */0000-cover-letter.patch)
		grep -q '^Signed-off-by:' "$f" && bad+=" $name(signed off)"
		grep -qx "base-commit: $base" "$f" || bad+=" $name(base-commit)"
		continue ;;
	esac
	sob=$(sed -n '1,/^---$/s/^Signed-off-by: //p' "$f")
	[ "$sob" = "A Person <a@b.org>" ] || bad+=" $name(Signed-off-by: $sob)"
	# An LLM helped write it, and the patch says so before the sign-off.
	trailers=$(sed -n '1,/^---$/{/^\(Assisted-by\|Signed-off-by\): /p}' "$f" | cut -d: -f1 | tr '\n' ' ')
	[ "$trailers" = "Assisted-by Signed-off-by " ] || bad+=" $name(trailers: $trailers)"
done
[ -z "$bad" ]
check $? "every patch and cover is from the poster, every patch assisted by an LLM and signed off by the poster alone"
[ -z "$bad" ] || echo "# $bad"
left=$(grep -rlic 'placeholder\|f7096fbd\|\.example>' "$tmp/real")
[ -z "$left" ]
check $? "no placeholder identity left in the real posting"
[ -z "$left" ] || echo "# $left"
# Only the identity differs: the same patches, the same recipients.
d=$(diff -r -x cover-letter.txt -x postings -x recipients "$top/series" "$tmp/real" |
	grep '^[<>]' | grep -v '^[<>] \(From\|Signed-off-by\): \|^[<>] base-commit: \|^[<>] \(Series Placeholder\|A Person\) ([0-9]*):$' |
	grep -v "^[<>] \+\(Debian's tarball, as the fc_log harness commits it reproducibly\|the commit of [^ ]* in the stable tree\)[.;]\$" |
	grep -v '^[<>] # series/postings says which postings they make\.  From: ')
[ -z "$d" ]
check $? "the real posting differs from series/ only in identity and base-commit:"
[ -z "$d" ] || head -20 <<<"$d" | sed 's/^/# /'
tap_end
