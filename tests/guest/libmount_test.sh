#!/bin/sh
# util-linux's mount(8), statically linked, as Debian's 2.41.5 builds it
# (/bin/ul-mount-base) and with the libmount posting (util-linux/,
# /bin/ul-mount), on the same command lines: every refusal the rejections
# tests trigger that mount(8) can give, a remount, a shared superblock,
# a success.  On every kernel, what the posting's mount prints, less the
# lines it adds, is byte for byte what Debian's prints: the messages
# (mnt_context_get_mesgs()) are the same whether the log is structured or
# not.  On a kernel with structured logs it names each refused option,
# its cause and its errno, and says where a superblock was shared; on one
# without, it adds nothing.  One TAP test per command line and kernel check.

n=0
failures=0
check() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		failures=$((failures + 1))
	fi
}

case $FCTEST_KERNEL in
patched|debug) structured=1 ;;
*) structured= ;;
esac

dir=$(mktemp -d)
for m in a b c d e; do mkdir -p "$dir/mnt-$m"; done

# $1: what mount(8) prints on a kernel with structured logs, besides what
# Debian's prints ("" for nothing); the rest: mount(8)'s arguments.
# Each mount is undone before the next, by both binaries alike.
try() {
	want=$1
	shift
	failed_before=$failures
	# The program's name aside.
	{ ul-mount-base "$@" 2>&1; echo "rc=$?"; } |
		sed 's/^ul-mount-base:/ul-mount:/' >"$dir/base"
	umount "$dir/mnt-a" "$dir/mnt-b" 2>/dev/null
	ul-mount "$@" >"$dir/new" 2>&1
	echo "rc=$?" >>"$dir/new"
	umount "$dir/mnt-a" "$dir/mnt-b" 2>/dev/null
	grep -v -e ' refused option ' -e ': shared the .* superblock ' \
		"$dir/new" >"$dir/new-less"
	cmp -s "$dir/base" "$dir/new-less"
	check $? "mount $*: Debian's output, and nothing lost"
	grep -e ' refused option ' -e ': shared the .* superblock ' \
		"$dir/new" | sed 's/^ul-mount: [^:]*: //' >"$dir/added"
	if [ -n "$structured" ]; then
		printf '%s\n' "$want" | grep -v '^$' | cmp -s - "$dir/added"
		check $? "mount $*: says \"$want\""
	else
		cmp -s /dev/null "$dir/added"
		check $? "mount $*: adds nothing on $FCTEST_KERNEL"
	fi
	if [ $failures -gt "$failed_before" ]; then
		sed 's/^/# base: /' "$dir/base"
		sed 's/^/# new:  /' "$dir/new"
	fi
}

a=$dir/mnt-a
try "tmpfs refused option 'size=abc': bad value (Invalid argument)." -t tmpfs -o size=abc none "$a"
try "tmpfs refused option 'nosuchopt': unknown option (Invalid argument)." -t tmpfs -o nosuchopt none "$a"
try "tmpfs refused option 'inode64=yes': wrong kind of value (Invalid argument)." -t tmpfs -o inode64=yes none "$a"
try "tmpfs refused option 'mode': wrong kind of value (Invalid argument)." -t tmpfs -o mode none "$a"
try "vfat refused option 'nosuch': unknown option (Invalid argument)." -t vfat -o nosuch none "$a"
try "vfat refused option 'time_offset': Invalid argument." -t vfat -o time_offset=100000 none "$a"
try "proc refused option 'hidepid': Invalid argument." -t proc -o hidepid=bogus none "$a"
try "proc refused option 'nosuchkey': unknown option (Invalid argument)." -t proc -o nosuchkey=1 none "$a"
try "ext4 refused option 'source=/proc': not a block device (Block device required)." -t ext4 /proc "$a"
try "" -t tmpfs -o size=1m none "$a"

# A remount: the context comes from fspick().
mount -t tmpfs -o size=1m none "$dir/mnt-c"
try "tmpfs refused option 'size=zz': bad value (Invalid argument)." -o remount,size=zz "$dir/mnt-c"
umount "$dir/mnt-c"

# debugfs has one superblock: every mount shares it.
try "shared the debugfs superblock debugfs already in use, which has the options given." \
	-v -t debugfs none "$a"

umount "$dir/mnt-a" 2>/dev/null
rm -rf "$dir"
echo "1..$n"
[ $failures -eq 0 ]
