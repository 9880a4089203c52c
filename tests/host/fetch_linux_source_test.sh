#!/bin/bash
# scripts/fetch-linux-source against a fake apt (apt-get, apt-cache and
# dpkg-deb first in PATH, each logging its arguments): the pinned version
# when the suite lists it; the newest listed, by Debian's ordering and
# said, when it does not; nothing fetched again once the tarball is there;
# a clear failure, and no tarball, when the suite lists none; and only the
# private sources list and lists directory ever given to apt.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/host/tap.sh"
fetch=$top/scripts/fetch-linux-source

. "$top/tests/host/fake_apt.sh"
fake_apt_init

# apt-get: "update" does nothing; "download PKG=VER" writes PKG_VER_all.deb
# (its content: the version).  apt-cache madison lists $FAKE_LISTED.
# dpkg-deb --fsys-tarfile DEB: a tar holding ./usr/src/PKG.tar.xz whose
# content is "source VER".
cat > "$tmp/bin/apt-get" <<'EOF'
#!/bin/bash
echo "apt-get $*" >> "$FAKE_LOG"
for a; do last=$a; done
case " $* " in
*" update "*) exit 0 ;;
*" download "*) pv=$last; echo "${pv#*=}" > "${pv%%=*}_${pv#*=}_all.deb" ;;
*) exit 100 ;;
esac
EOF
fake_apt_cache "http://archive.example/debian trixie-backports/main all Packages"
cat > "$tmp/bin/dpkg-deb" <<'EOF'
#!/bin/bash
echo "dpkg-deb $*" >> "$FAKE_LOG"
deb=$2 d=$(mktemp -d)
pkg=$(basename "$deb"); pkg=${pkg%%_*}
mkdir -p "$d/usr/src"
echo "source $(cat "$deb")" > "$d/usr/src/$pkg.tar.xz"
tar -C "$d" -cf - ./usr/src/"$pkg.tar.xz"
rm -rf "$d"
EOF
chmod +x "$tmp/bin/"*

# run DIR VERSION LISTED: fetch linux-source-7.3 VERSION into DIR with the
# suite listing LISTED; out is what it printed, rc its status.
run() {
	: > "$tmp/log"
	out=$(PATH=$tmp/bin:$PATH FAKE_LOG=$tmp/log FAKE_LISTED=$3 FETCH_APT_ETC=$tmp/etc \
		"$fetch" linux-source-7.3 "$2" trixie-backports "$1" 2>&1)
	rc=$?
}
content() { cat "$1/linux-source-7.3.tar.xz" 2>/dev/null; }

# The pinned version, listed beside others.
d=$tmp/pinned
run "$d" 7.3.4-1~bpo13+1 "7.3.2-1~bpo13+1 7.3.4-1~bpo13+1 7.3.10-1~bpo13+1"
check $((rc != 0)) "the pinned version is fetched (rc $rc)"
[ "$(content "$d")" = "source 7.3.4-1~bpo13+1" ]
check $? "the tarball is the pinned version's"
[ "$(cat "$d/linux-source-7.3.version")" = 7.3.4-1~bpo13+1 ]
check $? "DIR/linux-source-7.3.version names it"
! grep -q NOTE <<<"$out"
check $? "no NOTE when the pinned version is listed"
grep -qx 'apt-get .* download linux-source-7.3=7.3.4-1~bpo13+1' "$tmp/log"
check $? "apt-get downloads PKG=VERSION"
ls "$d"/apt/debs/*.deb >/dev/null 2>&1
check $((! $?)) "the .deb is not kept"

# apt is only ever given the private configuration.
apt_was_private "$d"
check $? "every apt call names the private sources list and lists directory"
grep -qx 'deb \[signed-by=/usr/share/keyrings/debian-archive-keyring.gpg\] http://archive.example/debian trixie-backports main' \
	"$d/apt/sources.list"
check $? "the private list: the machine's archive (not security), the suite, the archive keyring"

# Fetched already: nothing runs.
run "$d" 7.3.4-1~bpo13+1 "7.3.4-1~bpo13+1"
[ "$rc" = 0 ] && [ ! -s "$tmp/log" ] && [ -z "$out" ]
check $? "a second run for the same version fetches nothing and says nothing"

# Not listed any more: the newest listed, by Debian's ordering (7.3.10
# after 7.3.9, a ~bpo before its release), said on stderr.
d=$tmp/gone
run "$d" 7.3.4-1~bpo13+1 "7.3.9-1 7.3.10-1~bpo13+1 7.3.2-1"
check $((rc != 0)) "a version no longer listed: still fetched (rc $rc)"
[ "$(content "$d")" = "source 7.3.10-1~bpo13+1" ]
check $? "the newest listed is taken: 7.3.10-1~bpo13+1, not 7.3.9-1"
grep -q "NOTE: trixie-backports no longer lists linux-source-7.3 7.3.4-1~bpo13+1; taking 7.3.10-1~bpo13+1" <<<"$out"
check $? "and it says so"
[ "$(cat "$d/linux-source-7.3.version")" = 7.3.10-1~bpo13+1 ]
check $? "the version file names what was taken"
run "$d" 7.3.4-1~bpo13+1 "7.3.9-1 7.3.10-1~bpo13+1"
[ "$rc" = 0 ] && [ ! -s "$tmp/log" ]
check $? "a second run for the same pinned version fetches nothing"

# Another pinned version: fetched again.
run "$d" 7.3.2-1 "7.3.2-1 7.3.10-1~bpo13+1"
[ "$(content "$d")" = "source 7.3.2-1" ]
check $? "a new pinned version replaces the tarball"

# Nothing listed: a clear failure, no tarball.
d=$tmp/none
run "$d" 7.3.4-1~bpo13+1 ""
[ "$rc" != 0 ] && grep -q "trixie-backports lists no linux-source-7.3" <<<"$out"
check $? "a suite that lists none: fails, saying so (rc $rc)"
[ ! -e "$d/linux-source-7.3.tar.xz" ] && [ ! -e "$d/linux-source-7.3.version" ]
check $? "and leaves no tarball"

# No archive in the machine's sources: a clear failure.
rm "$tmp/etc/sources.list.d/debian.sources"
d=$tmp/nouri
run "$d" 7.3.4-1~bpo13+1 "7.3.4-1~bpo13+1"
[ "$rc" != 0 ] && grep -q "no Debian archive URI" <<<"$out" && [ ! -s "$tmp/log" ]
check $? "no archive in the machine's sources: fails before any apt call"

tap_end
