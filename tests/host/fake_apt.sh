# Sourced by the tests of scripts/fetch-linux-source and
# scripts/fetch-debian-source: not a test itself (run-tests runs
# *_test.sh).  A fake apt first in PATH, in a temporary directory.
#
# fake_apt_init: $tmp (removed at exit), $tmp/bin for the fakes, and
# $tmp/etc, the machine's apt configuration as the scripts read it: an
# archive and a security archive.
# fake_apt_cache ENTRY: an apt-cache whose "madison PKG" lists each
# version of $FAKE_LISTED as "PKG | VERSION | ENTRY", logging its
# arguments to $FAKE_LOG.
# apt_was_private DIR: whether every apt call in $tmp/log named DIR's
# private sources list and lists directory, and nothing else; the calls
# that did not are printed as TAP comments.

fake_apt_init() {
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	mkdir -p "$tmp/bin" "$tmp/etc/sources.list.d"
	printf 'Types: deb\nURIs: http://archive.example/debian\nSuites: bookworm\nComponents: main\n\nTypes: deb\nURIs: http://security.example/debian-security\nSuites: bookworm-security\nComponents: main\n' \
		> "$tmp/etc/sources.list.d/debian.sources"
}

fake_apt_cache() {
	cat > "$tmp/bin/apt-cache" <<EOF2
#!/bin/bash
echo "apt-cache \$*" >> "\$FAKE_LOG"
for a; do pkg=\$a; done
for v in \$FAKE_LISTED; do
	echo "\$pkg | \$v | $1"
done
EOF2
	chmod +x "$tmp/bin/apt-cache"
}

apt_was_private() {
	local line private=1

	while read -r line; do
		case $line in
		apt-get*|apt-cache*)
			case $line in
			*"Dir::Etc::sourcelist=$1/apt/sources.list"*"Dir::Etc::sourceparts=-"*"Dir::State::Lists=$1/apt/lists"*) ;;
			*) private=0; echo "# $line" ;;
			esac ;;
		esac
	done < "$tmp/log"
	[ "$private" = 1 ]
}
