#!/bin/bash
# The shape of the series as a reviewer reads it, from series/ alone
# (issue 42): what it adds stays where its users are.  One TAP test each.
#  - No patch touches lib/: the JSON writer of the structured records is
#    fs/fc_json.c, beside the log, its one user.
#  - No patch adds an array writer nothing calls (fc_json_array_*).
#  - Every EXPORT_SYMBOL a patch adds is one another patch removes (a
#    move, as logfc()'s into fs/fc_log.c): the series exports nothing new,
#    since nothing it adds has a modular user.

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/host/tap.sh"

patches=$(sed -e 's/#.*//' "$top/series/series" | awk 'NF { print "'"$top"'/series/" $1 }')
[ -n "$patches" ] || { echo "Bail out! series/series lists no patch"; exit 1; }

# Lines a patch adds or removes, with the patch's name in front.
changes() {
	for p in $patches; do
		awk -v p="${p#"$top"/series/}" '
			/^diff --git / { body = 1 }
			body && /^[-+]/ && !/^(\+\+\+|---) / { print p ": " $0 }
		' "$p"
	done
}

lib=$(grep -H '^diff --git a/lib/' $patches | sed "s|^$top/series/||")
check "$([ -z "$lib" ]; echo $?)" "no patch touches lib/ (the JSON writer is in fs/)"
[ -n "$lib" ] && printf '%s\n' "$lib" | sed 's/^/# /'

arrays=$(changes | grep -E '^[^:]*: \+.*json_array_')
check "$([ -z "$arrays" ]; echo $?)" "no patch adds an array writer"
[ -n "$arrays" ] && printf '%s\n' "$arrays" | sed 's/^/# /'

# Per symbol: exports added minus exports removed, over the whole series.
exports=$(changes | sed -n -E 's/^[^:]*: ([-+])EXPORT_SYMBOL(_GPL)?\(([A-Za-z0-9_]+)\);.*/\1 \3/p' |
	awk '{ n[$2] += ($1 == "+") ? 1 : -1 } END { for (s in n) if (n[s] > 0) print s }' | sort)
check "$([ -z "$exports" ]; echo $?)" "the series exports no new symbol"
[ -n "$exports" ] && printf '# new export: %s\n' $exports

tap_end
