#!/bin/sh
# What the README tells a new user must be true.  TAP, one test each:
#  - its example loop, compiled as it is printed, reads every record of a
#    log and goes on past one that does not parse (fclog_next(3): EBADMSG
#    consumes it), stopping at the end of the log;
#  - its list of causes names every cause of fclog.h (FCLOG_CAUSE_*, but
#    NONE and OTHER), and the count it and its table give is that number;
#  - its Layout names every file and directory of qemu/ and of tests/;
#  - it documents make host-check, and PKG_CONFIG_SYSROOT_DIR where it
#    documents a DESTDIR install;
#  - docs/testing.md gives no timing of an old series as current;
#  - fclog(7), the README and mount_api.rst give the log's bounds as the
#    kernel tree (FCTEST_TREE) defines them: records, bytes, and bytes of
#    a structured log.

top=$(cd "$(dirname "$0")/../.." && pwd)
readme=$top/README.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# check RC NAME, tap_end: one TAP test each, the plan and exit status.
. "$top/tests/host/tap.sh"

# The example: the indented block that starts with "#include <fclog.h>",
# as the body of a function of fd, against three records on a
# SOCK_SEQPACKET socket (one read, one record, as from a context fd): a
# good one, one with no level the kernel writes, a good one.
sed -n '/^    #include <fclog.h>/,/^[^ ]/p' "$readme" | sed '1d;$d' |
	sed 's/^    //' > "$tmp/loop"
{
	cat <<'HEAD'
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <fclog.h>

static void readme_example(int fd)
{
HEAD
	cat "$tmp/loop"
	cat <<'TAIL'
}

int main(void)
{
	static const char *const records[] = {
		"e tmpfs: Unknown parameter 'x'\n",
		"q not a line of the kernel's\n",
		"w vfat: Deprecated parameter 'posix'\n",
	};
	int sv[2];
	size_t i;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv))
		return 2;
	for (i = 0; i < sizeof(records) / sizeof(records[0]); i++)
		if (write(sv[1], records[i], strlen(records[i])) < 0)
			return 2;
	close(sv[1]);
	readme_example(sv[0]);
	return 0;
}
TAIL
} > "$tmp/example.c"
cat > "$tmp/want" <<'WANT'
error   tmpfs: Unknown parameter 'x'
warning vfat: Deprecated parameter 'posix'
WANT
if [ ! -s "$tmp/loop" ]; then
	echo "# no example block in README.md"
	r=1
elif ! cc -Wall -Werror -I"$top/include-uapi" -I"$top/userspace/include" \
		-o "$tmp/example" "$tmp/example.c" \
		"$top"/userspace/lib/*.c -ljansson > "$tmp/log" 2>&1; then
	sed 's/^/# /' "$tmp/log" "$tmp/example.c"
	r=1
else
	timeout 10 "$tmp/example" > "$tmp/got" 2>&1
	cmp -s "$tmp/want" "$tmp/got"
	r=$?
	diff -u "$tmp/want" "$tmp/got" | sed 's/^/# /'
fi
check $r "README's example loop reads past a record that does not parse"

# The causes: fclog.h's, lower-cased, against the README's list.
sed -n 's/^[[:space:]]*FCLOG_CAUSE_\([A-Z_]*\),.*/\1/p' \
	"$top/userspace/include/fclog.h" | grep -vx 'NONE\|OTHER' |
	tr 'A-Z' 'a-z' | sort > "$tmp/causes"
count=$(wc -l < "$tmp/causes")
tr '\n' ' ' < "$readme" | sed -n 's/.*`cause` says why, one of \(.*\), or is absent.*/\1/p' |
	sed 's/([^)]*)//g' | grep -o '`[a-z_]*`' | tr -d '`' | sort > "$tmp/listed"
diff -u --label fclog.h --label README.md "$tmp/causes" "$tmp/listed" | sed 's/^/# /'
cmp -s "$tmp/causes" "$tmp/listed"
check $? "README lists every cause of fclog.h ($count)"
grep -q "($count documented causes[),]" "$readme" &&
	tr '\n' ' ' < "$readme" | grep -q "\`o_path\` ($count), or is absent"
check $? "README's table and list both count $count causes"

# The layout: every entry of qemu/ and tests/ is named.
layout=$(sed -n '/^## Layout/,/^## /p' "$readme")
missing=
for d in qemu tests; do
	for f in $(cd "$top" && ls "$d"); do
		echo "$layout" | grep -qE "^ +$d/$f(/| |\$)" ||
			missing="$missing $d/$f"
	done
done
[ -z "$missing" ]
r=$?
[ $r -eq 0 ] || echo "# not in README's Layout:$missing"
check $r "README's Layout names every entry of qemu/ and tests/"

grep -q 'make host-check' "$readme"
check $? "README documents make host-check"
grep -q 'PKG_CONFIG_SYSROOT_DIR' "$readme" &&
	grep -q 'PKG_CONFIG_SYSROOT_DIR' "$top/Makefile"
check $? "README and make help say PKG_CONFIG_SYSROOT_DIR for a DESTDIR install"

# Timings of the 26- and 30-patch series only as such, never as current.
stale=$(grep -nE '\((26|30) patches|for the (26|30) patches' "$top/docs/testing.md")
[ -z "$stale" ]
r=$?
[ $r -eq 0 ] || echo "$stale" | sed 's/^/# stale: /'
check $r "docs/testing.md gives no old series' timing as current"

# The bounds, read from fs/internal.h: each document says each of them.
. "$top/tests/host/kernel_tree.sh"
name="fclog(7), README and mount_api.rst give the log's bounds"
if have_tree "$name" FCTEST_TREE "$FCTEST_TREE"; then
	bound() {
		sed -n "s/^#define $1[[:space:]]*(*\([0-9]*\)[^0-9]*\([0-9]*\).*/\1 \2/p" \
			"$FCTEST_TREE/fs/internal.h" |
			awk '{ print $2 == "" ? $1 : $1 * $2 }'
	}
	records=$(bound FC_LOG_MAX_RECORDS)
	kib=$(($(bound FC_LOG_MAX_BYTES) / 1024))
	skib=$(($(bound FC_LOG_MAX_STRUCTURED_BYTES) / 1024))
	rst=$FCTEST_TREE/Documentation/filesystems/mount_api.rst
	man=$(tr '\n' ' ' < "$top/man/man7/fclog.7" | sed 's/\\~/ /g')
	r=0
	echo "$man" | grep -q "at most $records records and at most $kib KiB of them, $skib KiB in a structured log" ||
		{ echo "# fclog(7) lacks $records records, $kib KiB, $skib KiB structured"; r=1; }
	tr '\n' ' ' < "$readme" | grep -q "$records records (at most $kib KiB, $skib KiB structured)" ||
		{ echo "# README lacks $records records (at most $kib KiB, $skib KiB structured)"; r=1; }
	tr '\n' ' ' < "$rst" | tr -s ' ' | grep -q "at most $records records and at most $kib KiB of them (record allocations as the slab allocator sizes them), $skib KiB in a structured log" ||
		{ echo "# mount_api.rst lacks the bounds $records, $kib KiB, $skib KiB"; r=1; }
	check $r "$name ($records, $kib KiB, $skib KiB)"
fi

tap_end
