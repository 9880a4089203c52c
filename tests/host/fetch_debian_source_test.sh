#!/bin/bash
# scripts/fetch-debian-source against a fake apt (apt-get and apt-cache
# first in PATH, each logging its arguments): the pinned version when the
# suite lists it; the newest listed, by Debian's ordering and said, when it
# does not; nothing fetched again once the package is there; a clear
# failure, and no package, when the suite lists none; and only the private
# "deb-src" sources list and lists directory ever given to apt.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/host/tap.sh"
fetch=$top/scripts/fetch-debian-source

. "$top/tests/host/fake_apt.sh"
fake_apt_init

# apt-get: "update" does nothing; "source --download-only PKG=VER" writes
# the .dsc, the upstream tarball and the Debian tarball (their content:
# the version), or fails if $FAKE_SOURCE_FAILS is set.  apt-cache
# madison lists $FAKE_LISTED, as source entries.
cat > "$tmp/bin/apt-get" <<'EOF'
#!/bin/bash
echo "apt-get $*" >> "$FAKE_LOG"
for a; do last=$a; done
case " $* " in
*" update "*) exit 0 ;;
*" source --download-only "*)
	[ -z "$FAKE_SOURCE_FAILS" ] || exit 100
	pkg=${last%%=*} ver=${last#*=} up=${ver%-*}
	echo "$ver" > "${pkg}_$ver.dsc"
	echo "$ver" > "${pkg}_$up.orig.tar.xz"
	echo "$ver" > "${pkg}_$ver.debian.tar.xz" ;;
*) exit 100 ;;
esac
EOF
fake_apt_cache "http://archive.example/debian trixie/main Sources"
chmod +x "$tmp/bin/"*

# run DIR VERSION LISTED: fetch util-linux VERSION into DIR with the suite
# listing LISTED; out is what it printed, rc its status.
run() {
	: > "$tmp/log"
	out=$(PATH=$tmp/bin:$PATH FAKE_LOG=$tmp/log FAKE_LISTED=$3 FETCH_APT_ETC=$tmp/etc \
		"$fetch" util-linux "$2" trixie "$1" 2>&1)
	rc=$?
}
# The version of the .dsc that DIR/util-linux.dsc names.
dsc_version() { cat "$(cat "$1/util-linux.dsc" 2>/dev/null)" 2>/dev/null; }

# The pinned version, listed beside others.
d=$tmp/pinned
run "$d" 2.41.5-0+deb13u1 "2.41.4-1 2.41.5-0+deb13u1 2.41.10-1"
check $((rc != 0)) "the pinned version is fetched (rc $rc)"
[ "$(dsc_version "$d")" = 2.41.5-0+deb13u1 ]
check $? "DIR/util-linux.dsc names the pinned version's .dsc"
[ -s "$d/util-linux/util-linux_2.41.5.orig.tar.xz" ] &&
	[ -s "$d/util-linux/util-linux_2.41.5-0+deb13u1.debian.tar.xz" ]
check $? "the upstream and Debian tarballs are beside it"
[ "$(cat "$d/util-linux.version")" = 2.41.5-0+deb13u1 ]
check $? "DIR/util-linux.version names it"
! grep -q NOTE <<<"$out"
check $? "no NOTE when the pinned version is listed"
grep -qx 'apt-get .* source --download-only util-linux=2.41.5-0+deb13u1' "$tmp/log"
check $? "apt-get downloads the source of PKG=VERSION, and builds nothing"

# apt is only ever given the private configuration.
apt_was_private "$d"
check $? "every apt call names the private sources list and lists directory"
grep -qx 'deb-src \[signed-by=/usr/share/keyrings/debian-archive-keyring.gpg\] http://archive.example/debian trixie main' \
	"$d/apt/sources.list"
check $? "the private list: deb-src, the machine's archive (not security), the suite, the archive keyring"

# Fetched already: nothing runs.
run "$d" 2.41.5-0+deb13u1 "2.41.5-0+deb13u1"
[ "$rc" = 0 ] && [ ! -s "$tmp/log" ] && [ -z "$out" ]
check $? "a second run for the same version fetches nothing and says nothing"

# Not listed any more: the newest listed, by Debian's ordering (2.41.10
# after 2.41.9, a +deb13u1 after its release), said on stderr.
d=$tmp/gone
run "$d" 2.41.5-0+deb13u1 "2.41.9-1 2.41.10-1 2.41.10-1+deb13u1 2.41.2-1"
check $((rc != 0)) "a version no longer listed: still fetched (rc $rc)"
[ "$(dsc_version "$d")" = 2.41.10-1+deb13u1 ]
check $? "the newest listed is taken: 2.41.10-1+deb13u1"
grep -q "NOTE: trixie no longer lists util-linux 2.41.5-0+deb13u1; taking 2.41.10-1+deb13u1" <<<"$out"
check $? "and it says so"
run "$d" 2.41.5-0+deb13u1 "2.41.10-1+deb13u1"
[ "$rc" = 0 ] && [ ! -s "$tmp/log" ]
check $? "a second run for the same pinned version fetches nothing"

# Another pinned version: fetched again, the old files gone.
run "$d" 2.41.2-1 "2.41.2-1 2.41.10-1"
[ "$(dsc_version "$d")" = 2.41.2-1 ] && [ ! -e "$d/util-linux/util-linux_2.41.10-1+deb13u1.dsc" ]
check $? "a new pinned version replaces the package"

# A download that fails: no package, and the next run tries again.
d=$tmp/fails
out=$(PATH=$tmp/bin:$PATH FAKE_LOG=$tmp/log FAKE_LISTED=2.41.5-0+deb13u1 \
	FETCH_APT_ETC=$tmp/etc FAKE_SOURCE_FAILS=1 \
	"$fetch" util-linux 2.41.5-0+deb13u1 trixie "$d" 2>&1)
rc=$?
[ "$rc" != 0 ] && [ ! -e "$d/util-linux.dsc" ] && [ ! -e "$d/util-linux.version" ]
check $? "a failed download: fails, and leaves no package (rc $rc)"
run "$d" 2.41.5-0+deb13u1 "2.41.5-0+deb13u1"
[ "$rc" = 0 ] && [ "$(dsc_version "$d")" = 2.41.5-0+deb13u1 ]
check $? "the next run fetches it"

# Nothing listed: a clear failure, no package.
d=$tmp/none
run "$d" 2.41.5-0+deb13u1 ""
[ "$rc" != 0 ] && grep -q "trixie lists no util-linux" <<<"$out"
check $? "a suite that lists none: fails, saying so (rc $rc)"
[ ! -e "$d/util-linux.dsc" ] && [ ! -e "$d/util-linux.version" ]
check $? "and leaves no package"

# No archive in the machine's sources: a clear failure.
rm "$tmp/etc/sources.list.d/debian.sources"
d=$tmp/nouri
run "$d" 2.41.5-0+deb13u1 "2.41.5-0+deb13u1"
[ "$rc" != 0 ] && grep -q "no Debian archive URI" <<<"$out" && [ ! -s "$tmp/log" ]
check $? "no archive in the machine's sources: fails before any apt call"

tap_end
