#!/bin/bash
# No posting of series/ carries a fix-up (issue 42): for each posting,
# scripts/series-rewrites finds no patch that changes lines an earlier
# patch of the same posting added, unless series/rewrites lists the pair
# and the later changelog says why in the words listed.  One TAP test a
# posting; what the script reports is printed as TAP comments.

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/host/tap.sh"
for posting in $(awk '!/^#/ && NF { print $1 }' "$top/series/postings"); do
	out=$("$top/scripts/series-rewrites" "$posting" 2>&1)
	rc=$?
	[ -z "$out" ] || { printf '%s\n' "$out" | sed 's/^/# /'; rc=1; }
	check "$rc" "posting $posting rewrites nothing but what series/rewrites explains"
done
tap_end
