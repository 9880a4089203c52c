#!/bin/sh
# The Makefile as a packager uses it: CFLAGS, CPPFLAGS and LDFLAGS from the
# command line or the environment come after the project's own in every
# compile and link of the library and the tools (a -g0 wins over -g; a
# -Wl,-z,now reaches the shared library), -Werror is only in the project's
# own checks, and a build with such flags gives what they ask for.  One TAP
# test each.  Works on a copy of the files the library and the tools are
# built from, so that build/ is left alone.

top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# check RC NAME, tap_end: one TAP test each, the plan and exit status.
. "$top/tests/host/tap.sh"

mkdir -p "$tmp/src/series"
cp -r "$top/Makefile" "$top/userspace" "$top/include-uapi" "$tmp/src/"
cp "$top/series/series" "$top/series/postings" "$tmp/src/series/"
# Not the make that may be running this test: its flags and variables are
# not ours.
mk() {
	env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS -u CFLAGS -u CPPFLAGS -u LDFLAGS \
		make -C "$tmp/src" --no-print-directory "$@"
}

# $1: the make -n output; each compile of the library and the tools has
# -g0 after -g and -DFCLOG_PACKAGER, and no -Werror; each link (the shared
# library, a tool) has -Wl,-z,now.  A command continued over lines (\) is
# one.  Prints what is wrong.
flags_ok() {
	sed -e ':a' -e '/\\$/{N;s/\\\n//;ba' -e '}' "$1" | awk '
	/ -c -o .*libfclog/ || / -o .*\/build\/(bin\/|libfclog\.so)/ {
		seen++
		g = index($0, " -g "); g0 = index($0, " -g0")
		if (!g || !g0 || g0 < g) { print "-g0 not after -g: " $0; bad = 1 }
		if ($0 ~ / -Werror/) { print "-Werror: " $0; bad = 1 }
		if ($0 ~ / -c -o / && $0 !~ /-DFCLOG_PACKAGER/) {
			print "no CPPFLAGS: " $0; bad = 1
		}
		if ($0 !~ / -c -o / && $0 !~ /-Wl,-z,now/) {
			print "no LDFLAGS: " $0; bad = 1
		}
	}
	END { if (seen < 4) { print "only " seen " commands"; bad = 1 }
	      exit bad }'
}

mk -n -B lib tools CFLAGS=-g0 CPPFLAGS=-DFCLOG_PACKAGER \
	LDFLAGS=-Wl,-z,now > "$tmp/n.cmdline" 2>&1
flags_ok "$tmp/n.cmdline" > "$tmp/why"
r=$?
sed 's/^/# /' "$tmp/why" | head -5
check $r "make lib tools CFLAGS=... CPPFLAGS=... LDFLAGS=...: after the project's, no -Werror"

env CFLAGS=-g0 CPPFLAGS=-DFCLOG_PACKAGER LDFLAGS=-Wl,-z,now \
	make -C "$tmp/src" --no-print-directory -n -B lib tools \
	> "$tmp/n.env" 2>&1
flags_ok "$tmp/n.env" > "$tmp/why"
r=$?
sed 's/^/# /' "$tmp/why" | head -5
check $r "CFLAGS, CPPFLAGS, LDFLAGS from the environment: the same"

# The checks keep -Werror on what they build.
env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS -u CFLAGS -u CPPFLAGS -u LDFLAGS \
	make -C "$top" --no-print-directory -n -B host-tests > "$tmp/n.check" 2>&1
grep ' -c -o .*libfclog' "$tmp/n.check" > "$tmp/compiles"
[ -s "$tmp/compiles" ] && ! grep -qv -- ' -Werror ' "$tmp/compiles"
r=$?
check $r "make host-tests builds the library with -Werror"

# A real build, flags from the environment as dpkg-buildflags gives them:
# a warning the packager's flags turn on is no error, -g0
# leaves no debugging information, -z now binds the library and the tools
# at load.
if env CFLAGS="-g0 -Wpadded" LDFLAGS=-Wl,-z,now \
	make -C "$tmp/src" --no-print-directory lib tools > "$tmp/build" 2>&1
then r=0; else r=1; tail -5 "$tmp/build" | sed 's/^/# /'; fi
grep -q 'Wpadded' "$tmp/build" || { echo "# -Wpadded warned of nothing"; r=1; }
check $r "CFLAGS='-g0 -Wpadded' make lib tools: warnings, and no error"

so=$tmp/src/build/libfclog.so
readelf -d "$so" 2>/dev/null | grep -q 'BIND_NOW\|FLAGS_1.*NOW'
check $? "LDFLAGS=-Wl,-z,now: libfclog.so has BIND_NOW (readelf -d)"
readelf -d "$tmp/src/build/bin/fclog-mount" 2>/dev/null | grep -q 'BIND_NOW\|FLAGS_1.*NOW'
check $? "LDFLAGS=-Wl,-z,now: fclog-mount has BIND_NOW"
[ -f "$so" ] && ! readelf -S "$so" | grep -q '\.debug_info'
check $? "CFLAGS=-g0: libfclog.so has no .debug_info"

tap_end
