#!/bin/bash
# Who each patch of series/ goes to, against what the posting needs, not
# against series/recipients (which the export reads):
#  - every patch that changes a filesystem (fs/NAME/, tmpfs's mm/shmem.c,
#    mqueue's ipc/mqueue.c) has a person in To:, and, with the tree
#    (FCTEST_TREE), every maintainer MAINTAINERS names for those files;
#  - every patch that changes what userspace reads from the fd (the log,
#    the fd's file operations, the uapi headers, the mount API's document)
#    goes to linux-api;
#  - every patch that adds to a KUnit suite goes to kunit-dev;
#  - every patch that changes the mount API's document goes to the VFS
#    maintainers;
#  - every posting reaches the mount API's author and the LPC 2025
#    session's; the ABI postings (those with a patch of the second kind)
#    reach util-linux (list and maintainer), systemd's list and
#    man-pages (list and maintainer);
#  - every cover letter says why each recipient series/recipients adds is
#    there, one line each.

top=$(cd "$(dirname "$0")/../.." && pwd)
tree=$FCTEST_TREE
. "$top/tests/host/tap.sh"
. "$top/tests/host/kernel_tree.sh"

postings=$(sed -e 's/#.*//' "$top/series/postings" | awk 'NF { print $1 }')
FS_PATHS='^(fs/[^/]+/|mm/shmem\.c$|ipc/mqueue\.c$)'
ABI_PATHS='^(fs/fc_log\.c|fs/fsopen\.c|include/uapi/|Documentation/filesystems/mount_api\.rst)'

paths() { sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "$1"; }
# The To: and Cc: headers, unfolded, one address a line.
header() {	# header FILE NAME
	awk -v h="$2:" 'done { next } /^$/ { done = 1 }
		$1 == h { on = 1; sub(/^[^:]*: */, ""); print; next }
		on && /^ / { sub(/^ +/, ""); print; next } { on = 0 }' "$1" | sed 's/,$//'
}
recipients() { header "$1" To; header "$1" Cc; }
has() { recipients "$1" | grep -qiF "<$2>" || recipients "$1" | grep -qixF "$2"; }
# verdict BAD TEST WHAT: one TAP test, passed when BAD (what failed) is empty.
verdict() {
	[ -z "$1" ]
	check $? "$2"
	[ -z "$1" ] || echo "# $3:$1"
}

fs_bad= fs_maint_bad= abi_bad= kunit_bad= doc_bad=
for p in $postings; do
	for f in "$top/series/$p"/[0-9][0-9][0-9][0-9]-*.patch; do
		name=$p/${f##*/}
		case $name in */0000-*) continue ;; esac
		fs=$(paths "$f" | grep -E "$FS_PATHS" | grep -v '^fs/tests/')
		if [ -n "$fs" ]; then
			header "$f" To | grep -q ' <' || fs_bad+=" $name"
			if [ -n "$tree" ] && [ -d "$tree" ]; then
				for m in $(cd "$tree" && scripts/get_maintainer.pl --no-git \
					--no-git-fallback --nol --nor --norolestats \
					$(sed 's/^/-f /' <<<"$fs") 2>/dev/null |
					sed -n 's/.*<\(.*\)>.*/\1/p'); do
					has "$f" "$m" || fs_maint_bad+=" $name($m)"
				done
			fi
		fi
		if paths "$f" | grep -qE "$ABI_PATHS"; then
			has "$f" linux-api@vger.kernel.org || abi_bad+=" $name"
		fi
		if paths "$f" | grep -qx 'Documentation/filesystems/mount_api.rst'; then
			for a in viro@zeniv.linux.org.uk brauner@kernel.org; do
				has "$f" "$a" || doc_bad+=" $name($a)"
			done
		fi
		if paths "$f" | grep -qE '_kunit\.c$'; then
			has "$f" kunit-dev@googlegroups.com || kunit_bad+=" $name"
		fi
	done
done
verdict "$fs_bad" "every patch that changes a filesystem has a person in To:" "only lists"
verdict "$abi_bad" "every patch that changes what userspace reads goes to linux-api" "not to linux-api"
verdict "$doc_bad" "every patch that changes mount_api.rst goes to the VFS maintainers" "missing"
verdict "$kunit_bad" "every patch that adds KUnit tests goes to kunit-dev" "not to kunit-dev"

for p in $postings; do
	cover=$top/series/$p/0000-cover-letter.patch
	missing=
	want="dhowells@redhat.com cyphar@cyphar.com"
	if cat "$top/series/$p"/[0-9][0-9][0-9][0-9]-*.patch | paths /dev/stdin | grep -qE "$ABI_PATHS"; then
		want+=" linux-api@vger.kernel.org kzak@redhat.com util-linux@vger.kernel.org systemd-devel@lists.freedesktop.org"
		want+=" alx@kernel.org linux-man@vger.kernel.org"
	fi
	for a in $want; do
		has "$cover" "$a" || missing+=" $a"
	done
	verdict "$missing" "$p: the cover reaches the mount API's and the log's people ($(wc -w <<<"$want") addresses)" "missing"

	# Each address series/recipients adds to this posting (by posting=, or
	# by files= matching a path it changes) has its line in the cover.
	unsaid=
	posting_paths=$(cat "$top/series/$p"/[0-9][0-9][0-9][0-9]-*.patch | paths /dev/stdin)
	while read -r sel kind rest; do
		case $sel in
		posting=*) tr , '\n' <<<"${sel#posting=}" | grep -qxF "$p" || continue ;;
		cover=*) tr , '\n' <<<"${sel#cover=}" | grep -qxF "$p" || continue ;;
		files=*) grep -qE "^(${sel#files=})" <<<"$posting_paths" || continue ;;
		esac
		addr=$(sed -e 's/[[:space:]]*:[[:space:]].*//' -e 's/.*<\(.*\)>.*/\1/' <<<"$rest")
		grep -qF -- "$addr>: " "$cover" || grep -qF -- " - $addr: " "$cover" ||
			unsaid+=" $addr"
	done < <(sed -e 's/^[[:space:]]*#.*//' "$top/series/recipients" | awk NF)
	verdict "$unsaid" "$p: the cover says why each added recipient is there" "no reason given"
done

if have_tree "every filesystem's maintainers have its patches" FCTEST_TREE "$tree"; then
	verdict "$fs_maint_bad" "every filesystem's maintainers have its patches" "missing"
fi
tap_end
