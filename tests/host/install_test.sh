#!/bin/sh
# make install into a DESTDIR, used as a packager or a user would use it,
# then make uninstall.  TAP, one test per check:
#  - install puts the tools, the header, the libraries, libfclog.pc and
#    every page of man/ under PREFIX (here /opt/fclog) in DESTDIR;
#  - pkg-config (PKG_CONFIG_PATH and PKG_CONFIG_SYSROOT_DIR into DESTDIR)
#    gives flags that build a program against the installed header and
#    link it against the installed shared library, which it runs with;
#    --static ones link it statically (jansson from Requires.private);
#  - a C++ program (tests/host/cxx_program.cc) builds against the installed
#    header with pkg-config's flags, links and runs, and sees the version;
#  - the shared library versions its symbols: FCLOG_3.0, 3.1, 3.2 (readelf
#    -V), each function of fclog.h exported at the version that added it
#    (the man pages say "since libfclog 3.N"), nothing else exported;
#  - fclog.h gives the series' mount API constants with the kernel's values
#    (include-uapi/linux/mount.h) on top of the system's <linux/mount.h>,
#    which lacks them; fclog(7) states the same values; with a
#    <linux/mount.h> that has them, fclog.h before or after it, and
#    <sys/mount.h>, a program builds with no warning;
#  - the installed tools run;
#  - man -l renders every installed page with no message, and man -M
#    finds a page by every function name of fclog.h;
#  - uninstall leaves no file behind.

top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
prefix=/opt/fclog
# The library's names, as the Makefile has them.
version=$(sed -n 's/^LIBFCLOG_VERSION := //p' "$top/Makefile")
soname=$(sed -n 's/^LIBFCLOG_SONAME := //p' "$top/Makefile")
# check RC NAME, tap_end: one TAP test each, the plan and exit status.
. "$top/tests/host/tap.sh"

# Not the make that may be running this test: its flags and variables
# (make check PREFIX=...) are not ours.
mk() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$top" \
		DESTDIR="$root" PREFIX="$prefix" "$@"
}

for tool in pkg-config man; do
	if ! command -v $tool >/dev/null; then
		echo "# $tool is not installed: make deps installs it"
		check 1 "$tool is installed"
		echo "1..$n"
		exit 1
	fi
done

mk install > "$tmp/log" 2>&1
r=$?
[ $r -eq 0 ] || sed 's/^/# /' "$tmp/log"
check $r "make install DESTDIR=... PREFIX=$prefix"

# What is there, against what should be.
(cd "$root" && find . \( -type f -o -type l \) | sed 's|^\.||' | sort) \
	> "$tmp/installed"
{
	for t in "$top"/userspace/tools/*.c; do
		t=${t##*/}
		echo "$prefix/bin/${t%.c}"
	done
	echo "$prefix/include/fclog.h"
	for l in libfclog.a libfclog.so "$soname" "libfclog.so.$version" \
			pkgconfig/libfclog.pc; do
		echo "$prefix/lib/$l"
	done
	(cd "$top/man" && ls man[1-8]/*.[1-8]) | sed "s|^|$prefix/share/man/|"
} | sort > "$tmp/expected"
diff -u --label expected --label installed "$tmp/expected" "$tmp/installed" \
	> "$tmp/diff"
r=$?
sed 's/^/# /' "$tmp/diff"
check $r "install puts tools, header, libraries, .pc and $(ls "$top"/man/man*/* | wc -l) pages in place"

# A program against the installed copy only: no -I or -L into the tree.
cat > "$tmp/prog.c" <<'PROG'
#include <stdio.h>
#include <string.h>
#include <fclog.h>

int main(void)
{
	static const char rec[] = "e tmpfs: Bad value for 'size'\n\0"
		"{\"seq\":3,\"level\":\"error\",\"source\":\"tmpfs\","
		"\"msg\":\"Bad value for 'size'\",\"event\":\"param_rejected\","
		"\"cause\":\"bad_value\",\"param\":\"size\",\"value\":\"abc\","
		"\"errno\":22,\"op\":\"set_string\"}";
	struct fclog_record *r;
	char err[128];

	if (fclog_parse(rec, sizeof(rec) - 1, &r, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	fclog_print(stdout, r, FCLOG_PRINT_DETAIL);
	printf("%s %s\n", fclog_cause_name(r->cause),
	       fclog_probe_answer_name(FCLOG_PROBE_REFUSED));
	fclog_record_free(r);
	return 0;
}
PROG
cat > "$tmp/want" <<'WANT'
error   tmpfs: Bad value for 'size' [param_rejected bad_value param=size value="abc" errno=EINVAL op=set_string]
bad_value refused
WANT
export PKG_CONFIG_PATH="$root$prefix/lib/pkgconfig"
export PKG_CONFIG_SYSROOT_DIR="$root"
flags=$(pkg-config --cflags --libs libfclog)
echo "# pkg-config --cflags --libs libfclog: $flags"
r=0
for want in "-I$root$prefix/include" "-L$root$prefix/lib" -lfclog; do
	case " $flags " in
	*" $want "*) ;;
	*) r=1 ;;
	esac
done
check $r "pkg-config points into DESTDIR"

# shellcheck disable=SC2086
cc -o "$tmp/prog" "$tmp/prog.c" $flags > "$tmp/log" 2>&1
r=$?
[ $r -eq 0 ] || sed 's/^/# /' "$tmp/log"
check $r "a program builds and links with pkg-config's flags"
LD_LIBRARY_PATH="$root$prefix/lib" ldd "$tmp/prog" 2>&1 |
	grep -q "$soname => $root$prefix/lib/$soname "
check $? "it links against the installed $soname"
LD_LIBRARY_PATH="$root$prefix/lib" "$tmp/prog" > "$tmp/got" 2>&1
r=$?
diff -u "$tmp/want" "$tmp/got" | sed 's/^/# /'
cmp -s "$tmp/want" "$tmp/got" && [ $r -eq 0 ]
check $? "it runs with the installed library"

# shellcheck disable=SC2086
cc -static -o "$tmp/prog-static" "$tmp/prog.c" \
	$(pkg-config --static --cflags --libs libfclog) > "$tmp/log" 2>&1 &&
	"$tmp/prog-static" > "$tmp/got" 2>&1 && cmp -s "$tmp/want" "$tmp/got"
r=$?
[ $r -eq 0 ] || sed 's/^/# /' "$tmp/log" "$tmp/got"
check $r "pkg-config --static links it statically, and it runs"

# C++: fclog.h compiles as C++ (pedantic, no warning) and its functions
# are extern "C", or the program does not link.
want_version=$(echo "$version" | awk -F. '{ printf "header %s 0x%02x%02x%02x, library 0x%02x%02x%02x\n", $0, $1, $2, $3, $1, $2, $3 }')
{ head -1 "$tmp/want"; echo bad_value; echo "$want_version"; } > "$tmp/want-cxx"
# shellcheck disable=SC2086
c++ -std=c++11 -Wall -Wextra -pedantic -Werror -o "$tmp/cxx" \
	"$top/tests/host/cxx_program.cc" $flags > "$tmp/log" 2>&1 &&
	LD_LIBRARY_PATH="$root$prefix/lib" "$tmp/cxx" > "$tmp/got" 2>&1 &&
	cmp -s "$tmp/want-cxx" "$tmp/got"
r=$?
[ $r -eq 0 ] || { sed 's/^/# /' "$tmp/log"; diff -u "$tmp/want-cxx" "$tmp/got" | sed 's/^/# /'; }
check $r "a C++ program builds with pkg-config's flags, links, runs, sees $version"

# Symbol versions.  What each version added, from CHANGES; the rest of
# fclog.h's functions are 3.0's.
since_3_1="fclog_parse_file_param"
since_3_2="fclog_record_ref fclog_record_unref fclog_version"
lib=$root$prefix/lib/libfclog.so.$version
readelf -V -W "$lib" > "$tmp/versions" 2>&1
r=0
for v in FCLOG_3.0 FCLOG_3.1 FCLOG_3.2; do
	grep -q "Name: $v\$" "$tmp/versions" || { echo "# no version node $v"; r=1; }
done
grep -q "Parent 1: FCLOG_3.0" "$tmp/versions" &&
	grep -q "Parent 1: FCLOG_3.1" "$tmp/versions" ||
	{ echo "# FCLOG_3.1 does not inherit FCLOG_3.0, or 3.2 3.1"; r=1; }
check $r "readelf -V: version nodes FCLOG_3.0, FCLOG_3.1, FCLOG_3.2, each on the last"

readelf --dyn-syms -W "$lib" |
	awk '$1 ~ /^[0-9]+:$/ && $5 != "LOCAL" && $7 != "UND" && $7 != "ABS" { print $8 }' |
	sort > "$tmp/exported"
funcs=$(sed -n 's/^[a-z].*[ *]\(fclog_[a-z_]*\)(.*/\1/p' \
	"$root$prefix/include/fclog.h" | sort -u)
for f in $funcs; do
	v=3.0
	case " $since_3_1 " in *" $f "*) v=3.1 ;; esac
	case " $since_3_2 " in *" $f "*) v=3.2 ;; esac
	echo "$f@@FCLOG_$v"
done | sort > "$tmp/want-exported"
diff -u --label "fclog.h, by version" --label "exported" "$tmp/want-exported" \
	"$tmp/exported" > "$tmp/diff"
r=$?
sed 's/^/# /' "$tmp/diff"
check $r "every function of fclog.h exported at its version, nothing else ($(wc -l < "$tmp/want-exported"))"

# The pages say when each came: "since libfclog 3.N" on the function's page.
r=0
for v in 3.1 3.2; do
	eval "names=\$since_$(echo $v | tr . _)"
	for f in $names; do
		page=$top/man/man3/$f.3
		[ -f "$page" ] && target=$(sed -n 's|^\.so man3/||p' "$page") &&
			[ -n "$target" ] && page=$top/man/man3/$target
		grep -q "$f" "$page" && grep -qi "since libfclog $v" "$page" ||
			{ echo "# ${page##*/} does not say $f is since libfclog $v"; r=1; }
	done
done
check $r "the man pages say which version added each function of 3.1 and 3.2"

# The constants, as a program following fclog(7) uses them: against the
# installed header and the system's <linux/mount.h> (no include-uapi/).
consts="FSOPEN_STRUCTURED_LOG FSPICK_STRUCTURED_LOG FSOPEN_RETRY FSPICK_RETRY
	FSCONFIG_CMD_CREATE_COMPATIBLE"
{
	echo '#include <stdio.h>'
	echo '#include <fclog.h>'
	echo 'int main(void) {'
	for c in $consts; do
		printf '\tprintf("%s %%lu\\n", (unsigned long)%s);\n' "$c" "$c"
	done
	echo '	return 0; }'
} > "$tmp/consts.c"
# The kernel's values, from the series' uapi header.
for c in $consts; do
	v=$(sed -n "s/^[[:space:]]*#define[[:space:]]*$c[[:space:]]*\([0-9a-fx]*\).*/\1/p; s/^[[:space:]]*$c[[:space:]]*=[[:space:]]*\([0-9]*\),.*/\1/p" \
		"$top/include-uapi/linux/mount.h")
	echo "$c $((v))"
done > "$tmp/want-consts"
# shellcheck disable=SC2086
cc -Wall -Wextra -Werror -o "$tmp/consts" "$tmp/consts.c" $flags > "$tmp/log" 2>&1 &&
	"$tmp/consts" > "$tmp/got" 2>&1 && cmp -s "$tmp/want-consts" "$tmp/got"
r=$?
[ $r -eq 0 ] || { sed 's/^/# /' "$tmp/log"; diff -u "$tmp/want-consts" "$tmp/got" | sed 's/^/# /'; }
check $r "fclog.h on the system's <linux/mount.h>: the series' constants, the kernel's values"

# fclog(7) says so, each with its value, in its Constants section.
sed -n '/^\.SS Constants$/,/^\.SS/p' "$top/man/man7/fclog.7" > "$tmp/section"
r=0
while read -r c v; do
	sed -n "s/^\(.*[[:space:]]\)*$c[[:space:]=]*\([0-9a-fx]*\).*/\2/p" "$tmp/section" |
		head -1 > "$tmp/stated"
	[ -s "$tmp/stated" ] && [ $(($(cat "$tmp/stated"))) -eq "$v" ] ||
		{ echo "# fclog(7) does not state $c = $v"; r=1; }
done < "$tmp/want-consts"
check $r "fclog(7) states the value of each constant"

# Where <linux/mount.h> has them (the series' header), fclog.h's do not
# clash, whichever comes first, <sys/mount.h> included.
r=0
for order in "linux/mount.h fclog.h" "fclog.h linux/mount.h" \
	     "sys/mount.h fclog.h" "fclog.h sys/mount.h linux/mount.h"; do
	{
		for h in $order; do echo "#include <$h>"; done
		echo 'int main(void) { return FSOPEN_STRUCTURED_LOG + FSCONFIG_CMD_CREATE_COMPATIBLE != 11; }'
	} > "$tmp/order.c"
	cc -Wall -Wextra -Werror -I"$top/include-uapi" -I"$root$prefix/include" \
		-o "$tmp/order" "$tmp/order.c" > "$tmp/log" 2>&1 && "$tmp/order" ||
		{ echo "# $order:"; sed 's/^/#   /' "$tmp/log"; r=1; }
done
check $r "fclog.h with a <linux/mount.h> that has them, either order: no clash"

for t in "$root$prefix"/bin/*; do
	"$t" --help | grep -q "^usage: ${t##*/} "
	check $? "installed ${t##*/} runs"
done

# Every page renders, from the man directory as man would (".so" links
# name their target from there), with no message on standard error.
mandir=$root$prefix/share/man
for p in $(cd "$mandir" && ls man[1-8]/*.[1-8]); do
	(cd "$mandir" && MANWIDTH=80 man -l "$p") > "$tmp/out" 2> "$tmp/err"
	r=$?
	[ $r -eq 0 ] && [ ! -s "$tmp/err" ] && grep -q '^NAME' "$tmp/out" &&
		[ "$(wc -l < "$tmp/out")" -gt 10 ]
	r2=$?
	[ $r2 -eq 0 ] || sed 's/^/# /' "$tmp/err"
	check $r2 "man -l renders $p"
done

# A link page of the tree is installed as the same link, so that it works
# wherever man runs (an installed ".so" would too, but not in the tree).
r=0
for p in $(cd "$top/man" && find man[1-8] -type l | sort); do
	[ -L "$mandir/$p" ] &&
		[ "$(readlink "$mandir/$p")" = "$(readlink "$top/man/$p")" ] ||
		{ echo "# $p: not installed as a link to $(readlink "$top/man/$p")"; r=1; }
done
check $r "the link pages are installed as links to their pages"

# "man fclog_rejected": every function of the header finds its page.
funcs=$(sed -n 's/^[a-z].*[ *]\(fclog_[a-z_]*\)(.*/\1/p' \
	"$root$prefix/include/fclog.h" | sort -u)
missing=
for f in $funcs; do
	MANWIDTH=80 man -M "$mandir" 3 "$f" 2>/dev/null | grep -q "$f" ||
		missing="$missing $f"
done
[ -n "$funcs" ] && [ -z "$missing" ]
r=$?
[ -z "$missing" ] || echo "# not found:$missing"
check $r "man -M finds a page for each of the $(echo "$funcs" | wc -w) functions"

mk uninstall > "$tmp/log" 2>&1
r=$?
[ $r -eq 0 ] || sed 's/^/# /' "$tmp/log"
check $r "make uninstall"
left=$(cd "$root" && find . \( -type f -o -type l \))
[ -z "$left" ]
r=$?
[ $r -eq 0 ] || echo "$left" | sed 's/^/# left: /'
check $r "uninstall leaves no file behind"

tap_end
