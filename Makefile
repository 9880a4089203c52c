# fc_log v2: build the series into a 7.3 kernel, boot it under QEMU, test it.
#
#   make check       host tests, then the guest suite on the patched, the
#                    fc-log (the fixes and fc-log postings alone), the
#                    stock and the debug kernel, then the cost gate
#                    (instructions per operation against the goals, stock,
#                    patched and fc-log under -icount); ends "N passed,
#                    N failed, ..."
#   make host-check  the host tests alone, with no kernel tree: the library,
#                    the tools, the man pages, the scripts; the tests that
#                    read a kernel tree skip, saying why (make check runs
#                    them); ends "N passed, N failed, N skipped"
#   make demo        boot the patched kernel and show what its log returns
#   make shell       boot a kernel with an interactive shell (GUEST=stock for
#                    the baseline; leave with "exit")
#   make fuzz        the syscall fuzzer alone on the debug kernel, longer
#                    (FUZZ_SECONDS=600, FUZZ_SEED=the clock; FUZZ_KERNEL=
#                    stock or patched, FUZZ_PHASES=userns, FUZZ_RUNS=20)
#   make bench       stock against patched, side by side: instructions per
#                    operation (each kernel booted once under QEMU's
#                    -icount), then time and memory (both kernels booted in
#                    turn, BENCH_ROUNDS times; medians) (bench-run: the same
#                    with the kernels already built)
#   make icount-gate the instruction counts of the kernels as built, with
#                    small batches (under a minute); fails when a goal of
#                    the issue is not met
#   make kernel      build the patched kernel only      (build/patched)
#   make baseline    build the stock kernel only        (build/stock)
#   make fc-log-kernel  the fixes and fc-log postings alone (build/fc-log)
#   make debug-kernel  the patched kernel with KASAN, kmemleak, lockdep, UBSAN
#   make util-linux  mount(8) from Debian's util-linux, static, for the
#                    guest: with util-linux/'s patches and without
#                    (build/util-linux/{new,base}/obj/mount.static)
#   make export-util-linux  write the commits of build/util-linux/src as
#                    util-linux/, the libmount posting
#   make initramfs   build the guest's initramfs        (build/initramfs.cpio)
#   make export-series  write the commits of build/patched/src as postings:
#                    PLACEHOLDER=1 to series/ (the repository's copy),
#                    AUTHOR= EMAIL= LINUX_GIT= OUT= for the real posting
#   make bisect-check    build the kernel after each patch of the series,
#                    then each posting alone on what it applies on
#   make lint        checkpatch --strict on every patch of the series, no
#                    fix-up inside a posting (series/rewrites), and
#                    W=1 + sparse on the files it touches against stock
#   make uapi-check  include-uapi/ must equal the series' uapi headers
#   make lib         libfclog, static and shared    (build/libfclog.{a,so})
#   make tools       fclog-mount, -watch, -retry and -probe for this host
#                    (build/bin; libfclog linked in, jansson shared)
#   make install     the tools, libfclog (header, libraries, pkg-config
#                    file) and the man pages (PREFIX=/usr/local, BINDIR,
#                    LIBDIR, INCLUDEDIR, MANDIR, DESTDIR); install-lib:
#                    the library alone; uninstall: remove what install put.
#                    Staged in a DESTDIR, pkg-config finds it with
#                    PKG_CONFIG_PATH=$DESTDIR$LIBDIR/pkgconfig and
#                    PKG_CONFIG_SYSROOT_DIR=$DESTDIR (which it prefixes to
#                    the -I and -L paths)
#   make man-lint    mandoc and groff lint every page of man/ (make check too)
#   make deps        install the Debian packages this needs (run as root)
#   make clean       remove what was built, keep the extracted kernel trees
#   make distclean   remove build/ entirely
#
# Variables: CFLAGS, CPPFLAGS and LDFLAGS are added after the project's
# own to the library's and the tools' builds (a packager's win);
# ONLY=prog[,prog] runs only those test programs in the guest;
# FCTEST_TIMEOUT=seconds bounds each guest boot (default 900);
# BENCH_ROUNDS=n boots per kernel in make bench (default 3), BENCH_SCALE=x
# scales its iteration counts (default 1; 0.05 for a quick look);
# ICOUNT_BATCH=n operations per batch (default 2000) and ICOUNT_FLOOD=n
# messages in the flood (default 1000000) of its instruction counts;
# BENCH_STOCK= and BENCH_PATCHED= boot other bzImages in bench-run and
# icount-gate.
#
# Everything is built in build/, which git ignores:
#   build/source         linux-source-7.3's tarball and util-linux's source
#                        package, fetched through apt with private sources
#                        lists (scripts/fetch-linux-source, fetch-debian-source)
#   build/stock/src      that tarball extracted, as Debian ships it
#   build/patched/src    the same tree as a git repository: tag "base" is
#                        the tarball, the commits on top are series/
#   build/fc-log/src     a worktree of it at the end of the fc-log posting
#   build/*/obj          kernel objects (O=), configured from qemu/kernel.config
#   build/patched/debug-obj  the debug kernel (qemu/debug.config on top)
#   build/util-linux     util-linux's source package as a git repository
#                        with util-linux/ applied (src), and two builds of
#                        it (new: HEAD, base: Debian's), each a copy that
#                        autogen.sh regenerates (tree) and its objects (obj)
#   build/guest          static test programs and tools for the guest
#   build/bin            the tools, built for this host (make tools, install)
#   build/host, build/fuzz  host tests and the parser's fuzz target
#   build/check          console and result logs of the last "make check"
#   build/bench          the benchmark's programs, rounds and results.json

SHELL := /bin/bash
.DELETE_ON_ERROR:
# .config and friends are made by pattern rules: keep make from deleting
# them as intermediate files.
.SECONDARY:
# One kernel build at a time: each already uses every core.
.NOTPARALLEL:

TOP     := $(CURDIR)
B       := $(TOP)/build
NPROC   := $(shell nproc)
# The kernel under the series: Debian's linux-source-7.3, from
# trixie-backports, the version the series was last tested against.  The
# package is downloaded, never installed (scripts/fetch-linux-source); if
# the suite no longer lists this version, the newest it lists is taken,
# and the build says so.
SOURCE_PACKAGE := linux-source-7.3
SOURCE_VERSION := 7.3.4-1~bpo13+1
SOURCE_SUITE := trixie-backports
SOURCE_DIR := $(B)/source
TARBALL := $(SOURCE_DIR)/$(SOURCE_PACKAGE).tar.xz
FRAGMENT := qemu/kernel.config
PATCHES := $(addprefix series/,$(shell sed -e 's/\#.*//' series/series))

# Debian packages: the kernel build, QEMU, the guest's userland, jansson.
# python3-ply and python3-git are for checkpatch.pl's SPDX check; clang and
# libclang-rt-14-dev for the libFuzzer target; sparse for make lint;
# mandoc lints the man pages, man-db and pkgconf are what the install test
# renders them and links against the installed library with, g++ what it
# builds its C++ program with; valgrind counts the instructions of
# libfclog's parser for make bench; debian-archive-keyring verifies the
# private sources lists that fetch the kernel and util-linux; dpkg-dev
# unpacks util-linux's source package, and autoconf, automake, libtool and
# autopoint regenerate its build as Debian's does.
DEBS := debian-archive-keyring gcc make bc bison flex libelf-dev libssl-dev \
	perl cpio xz-utils git ccache qemu-system-x86 busybox-static \
	libjansson-dev python3-ply python3-git clang libclang-rt-14-dev sparse \
	mandoc man-db pkgconf g++ valgrind \
	dpkg-dev autoconf automake libtool autopoint

# Command-line variables (ONLY=, GUEST=) are for this Makefile, not for the
# kernel's: keep make from handing them down to the kernel build.
MAKEOVERRIDES :=

# Both kernels compile identical files under paths that differ only in
# build/stock vs build/patched: with the base directory set, ccache sees
# the same relative paths and the second kernel is mostly cache hits.
export CCACHE_BASEDIR := $(B)
export CCACHE_NOHASHDIR := 1

# $(call kbuild,SRC,OBJ) runs the kernel's make on a tree;
# $(call kmake,KERNEL) does it for build/KERNEL/{src,obj}.
kbuild = $(MAKE) -s -C $(1) O=$(2) CC="ccache gcc" -j$(NPROC) \
	KBUILD_BUILD_USER=fclog KBUILD_BUILD_HOST=qemu
kmake = $(call kbuild,$(B)/$(1)/src,$(B)/$(1)/obj)

BZIMAGE = $(B)/$(1)/obj/arch/x86/boot/bzImage
INITRAMFS := $(B)/initramfs.cpio
# The benchmark's own initramfs (make bench, and make check's cost gate).
BENCH_DIR := $(B)/bench
BENCH_INITRAMFS := $(BENCH_DIR)/initramfs.cpio

.PHONY: all check host-check demo shell kernel baseline fc-log-kernel initramfs deps clean distclean \
	host-tests export-series export-identity bisect-check lint uapi-check debug-kernel fuzz \
	lib tools install install-lib uninstall man-lint util-linux export-util-linux FORCE
all: kernel baseline initramfs host-tests

# ---------------------------------------------------------------- packages

deps:
	@missing=; for p in $(DEBS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | \
			grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "  DEPS   installing:$$missing"; \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -q --no-install-recommends $$missing; \
	fi

# ----------------------------------------------------------- kernel trees

# Identifies the fetched tarball (its version, size and time); rewritten
# only when that changes, so that the trees are extracted again only then.
# fetch-linux-source downloads nothing when the tarball of SOURCE_VERSION
# is already there.
$(B)/tarball.id: FORCE | deps
	@scripts/fetch-linux-source $(SOURCE_PACKAGE) $(SOURCE_VERSION) \
		$(SOURCE_SUITE) $(SOURCE_DIR)
	@id="$$(cat $(SOURCE_DIR)/$(SOURCE_PACKAGE).version) $$(stat -c '%s %Y' $(TARBALL))"; \
	if [ "$$(cat $@ 2>/dev/null)" != "$$id" ]; then echo "$$id" > $@; fi

$(B)/stock/source.stamp: $(B)/tarball.id
	@echo "  EXTRACT build/stock/src"
	@rm -rf $(B)/stock/src && mkdir -p $(B)/stock/src
	@tar -xf $(TARBALL) -C $(B)/stock/src --strip-components=1
	@touch $@

# The patched tree is a git repository so that "git am" applies the series
# (no fuzz, ever: a patch that does not apply exactly fails by name) and
# so that re-applying it rewrites only the files the series touches.  Its
# base commit is reproducible (fixed identity and dates): the same tarball
# gives the same id on every machine, the base-commit: of series/'s cover
# letters (a real posting names mainline's instead: make export-series).
$(B)/patched/extract.stamp: $(B)/tarball.id
	@echo "  EXTRACT build/patched/src (as a git repository)"
	@rm -rf $(B)/patched/src && mkdir -p $(B)/patched/src
	@tar -xf $(TARBALL) -C $(B)/patched/src --strip-components=1
	@cd $(B)/patched/src && git init -q && git config gc.auto 0 && \
		git add -A -f && \
		GIT_AUTHOR_DATE="@0 +0000" GIT_COMMITTER_DATE="@0 +0000" \
		$(GIT_ID) commit -q -m "$(SOURCE_PACKAGE) $$(cut -d' ' -f1 $<)" && \
		git tag base
	@rm -f $(B)/patched/source.stamp
	@touch $@

GIT_ID := git -c user.name=fclog-build -c user.email=fclog-build@localhost \
	-c commit.gpgsign=false

# Reset to "base" and apply series/ in the order of series/series.  Refuses
# to throw away work: the tree must be clean and at the commit the last
# application left (develop there, then export with "git format-patch").
$(B)/patched/source.stamp: $(B)/patched/extract.stamp series/series $(PATCHES)
	@cd $(B)/patched/src && \
	if [ -n "$$(git status --porcelain --ignored)" ]; then \
		echo "build/patched/src has uncommitted changes; commit or stash them first." >&2; \
		exit 1; \
	fi && \
	if [ -s $@ ] && [ "$$(git rev-parse HEAD)" != "$$(cat $@)" ]; then \
		echo "build/patched/src has commits that are not in series/; export them" >&2; \
		echo "(git format-patch base) or reset to $$(cat $@) first." >&2; \
		exit 1; \
	fi && \
	git reset -q --hard base && git clean -fdxq && \
	for p in $(PATCHES); do \
		echo "  APPLY  $$p"; \
		if ! $(GIT_ID) am -q $(TOP)/$$p; then \
			git am --abort; \
			echo "series: $$p does not apply to $(SOURCE_PACKAGE) $$(cut -d' ' -f1 $(B)/tarball.id)" >&2; \
			exit 1; \
		fi; \
	done && \
	git rev-parse HEAD > $@

# The fc-log posting alone: 7.3 with the fixes and fc-log postings and
# nothing after them (series/postings), the kernel that posting's
# maintainer would test.  Its tree is a git worktree of build/patched/src,
# detached at the last commit of fc-log, so that a new series rewrites
# only the files that changed; a worktree whose repository was extracted
# again is made anew.
FCLOG := $(B)/fc-log
FCLOG_POSTINGS := fixes|fc-log
$(FCLOG)/source.stamp: $(B)/patched/source.stamp series/postings
	@n=$$(grep -cE '^($(FCLOG_POSTINGS))/' series/series); \
	commit=$$(git -C $(B)/patched/src rev-list --reverse \
		base..$$(cat $(B)/patched/source.stamp) | sed -n "$${n}p"); \
	if [ -z "$$commit" ]; then \
		echo "$@: no commit ends posting fc-log ($$n patches)" >&2; exit 1; \
	fi; \
	echo "  TREE   build/fc-log/src: postings $(FCLOG_POSTINGS) ($$n patches)"; \
	if ! git -C $(FCLOG)/src rev-parse -q --verify HEAD >/dev/null 2>&1; then \
		rm -rf $(FCLOG)/src && mkdir -p $(FCLOG) && \
		git -C $(B)/patched/src worktree prune && \
		git -C $(B)/patched/src worktree add -q --detach $(FCLOG)/src $$commit; \
	else \
		git -C $(FCLOG)/src checkout -q --detach -f $$commit && \
		git -C $(FCLOG)/src clean -fdxq; \
	fi && \
	echo $$commit > $@

# Write the commits on top of "base" in build/patched/src as postings (the
# developer's side of the loop above): one directory per posting, as
# series/postings divides them, each with its cover letter, base-commit:
# and prerequisite-patch-id: lines, and the recipients
# scripts/get_maintainer.pl and series/recipients give
# (scripts/export-series).  The poster's identity is stamped on at export
# and never kept in the repository:
#   make export-series PLACEHOLDER=1     the repository's copy, series/
#   make export-series AUTHOR="Your Name" EMAIL=you@your.domain \
#        LINUX_GIT=~/linux-stable OUT=dir
#                                        the real posting, in OUT, on
#                                        v7.3.4 of that clone (checked)
# (AUTHOR and EMAIL default to git config user.name and user.email; a
# placeholder, example or team identity is refused.)  After the
# repository's copy the tree is the series, so the stamp records it and
# nothing is re-applied.
# The identity is checked before anything is fetched or extracted.
OUT :=
export-series: export-identity $(B)/patched/extract.stamp
	@cd $(B)/patched/src && \
	if [ -n "$$(git status --porcelain --ignored)" ]; then \
		echo "build/patched/src has uncommitted changes; commit them first." >&2; \
		exit 1; \
	fi
	@scripts/export-series $(B)/patched/src $(OUT)
	@if [ -z "$(OUT)" ]; then \
		git -C $(B)/patched/src rev-parse HEAD > $(B)/patched/source.stamp; \
		echo "  SERIES $$(grep -vc '^#' series/series) patches written to series/"; \
	fi
export-identity:
	@scripts/export-series --check $(B)/patched/src $(OUT)

# ------------------------------------------------------------------ kernels

# The stock kernel is configured from qemu/kernel.config; the patched one
# also from qemu/series.config, the options that only the series has.
$(B)/stock/fragment.config: $(FRAGMENT)
	@mkdir -p $(@D) && cat $^ > $@
$(B)/patched/fragment.config: $(FRAGMENT) qemu/series.config
	@mkdir -p $(@D) && cat $^ > $@
$(FCLOG)/fragment.config: $(FRAGMENT) qemu/fc-log.config
	@mkdir -p $(@D) && cat $^ > $@

# $(call configure,SRC,OBJ,FRAGMENT): allnoconfig plus the fragment, then
# proof that every line of the fragment made it into .config: a dependency
# the fragment forgot makes Kconfig drop an option silently, which would
# leave a test quietly testing nothing.
define configure
	@echo "  CONFIG $(patsubst $(B)/%,build/%,$(2))"
	@mkdir -p $(2)
	@$(call kbuild,$(1),$(2)) allnoconfig KCONFIG_ALLCONFIG=$(3)
	@missing=$$(grep -E '^CONFIG_' $(3) | while read -r l; do \
		grep -qxF "$$l" $(2)/.config || echo "$$l"; done); \
	if [ -n "$$missing" ]; then \
		echo "$(2): options of the fragment that did not stick:" >&2; \
		echo "$$missing" >&2; rm -f $(2)/.config; exit 1; \
	fi
endef

$(B)/%/obj/.config: $(B)/%/fragment.config $(B)/%/source.stamp
	$(call configure,$(B)/$*/src,$(B)/$*/obj,$<)

# Always ask kbuild: it knows what changed.
$(B)/%/obj/arch/x86/boot/bzImage: $(B)/%/obj/.config FORCE
	@echo "  KERNEL build/$*"
	@$(call kmake,$*) bzImage

kernel: $(call BZIMAGE,patched)
baseline: $(call BZIMAGE,stock)
fc-log-kernel: $(call BZIMAGE,fc-log)

# The debug kernel: the patched tree, configured with qemu/debug.config on
# top (KASAN, kmemleak, lockdep, UBSAN...), built beside obj/.
DEBUG_OBJ := $(B)/patched/debug-obj
DEBUG_BZIMAGE := $(DEBUG_OBJ)/arch/x86/boot/bzImage

$(B)/debug.config: $(FRAGMENT) qemu/series.config qemu/debug.config
	@mkdir -p $(@D) && cat $^ > $@
$(DEBUG_OBJ)/.config: $(B)/debug.config $(B)/patched/source.stamp
	$(call configure,$(B)/patched/src,$(DEBUG_OBJ),$<)
$(DEBUG_BZIMAGE): $(DEBUG_OBJ)/.config FORCE
	@echo "  KERNEL build/patched/debug-obj"
	@$(call kbuild,$(B)/patched/src,$(DEBUG_OBJ)) bzImage

debug-kernel: $(DEBUG_BZIMAGE)

# Every patch must build on its own: apply the series one patch at a time
# and build after each, in build/patched/bisect-obj (beside obj/, so that
# ccache sees the same relative paths; configured afresh each step,
# as options appear with the patches that add them).  Then every posting
# alone, on only what series/postings says it applies on, as its
# maintainer would take it (scripts/apply-posting); each such kernel is
# kept as build/patched/posting-NAME.bzImage (make icount-gate
# BENCH_PATCHED= measures one).
bisect_build = $(call kbuild,$(B)/patched/src,$(B)/patched/bisect-obj) allnoconfig \
		KCONFIG_ALLCONFIG=$(B)/patched/fragment.config && \
	$(call kbuild,$(B)/patched/src,$(B)/patched/bisect-obj) bzImage
POSTINGS := $(shell sed -e 's/\#.*//' series/postings | awk 'NF { print $$1 }')

bisect-check: $(B)/patched/source.stamp $(B)/patched/fragment.config
	@cd $(B)/patched/src && git reset -q --hard base && git clean -fdxq
	@mkdir -p $(B)/patched/bisect-obj
	@for p in $(PATCHES); do \
		echo "  APPLY  $$p"; \
		$(GIT_ID) -C $(B)/patched/src am -q $(TOP)/$$p || exit 1; \
		$(bisect_build) || \
			{ echo "bisect-check: the kernel does not build with $$p" >&2; exit 1; }; \
	done
	@for posting in $(POSTINGS); do \
		scripts/apply-posting $(B)/patched/src $$posting || exit 1; \
		$(bisect_build) || \
			{ echo "bisect-check: posting $$posting does not build alone" >&2; exit 1; }; \
		cp $(B)/patched/bisect-obj/arch/x86/boot/bzImage \
			$(B)/patched/posting-$$posting.bzImage; \
	done
	@cd $(B)/patched/src && git reset -q --hard base && git clean -fdxq && \
		for p in $(PATCHES); do $(GIT_ID) am -q $(TOP)/$$p || exit 1; done
	@git -C $(B)/patched/src rev-parse HEAD > $(B)/patched/source.stamp
	@echo "  BISECT every patch builds ($(words $(PATCHES)) patches), and every posting alone ($(POSTINGS))"

# ------------------------------------------------------------- util-linux

# util-linux as Debian packages it (issue 45: libmount, the reader of the
# log that most systems run): its source package, fetched through apt as
# the kernel's is (scripts/fetch-debian-source), unpacked with Debian's
# patches into build/util-linux/src, a git repository whose tag "base" is
# that package, with util-linux/'s patches (the libmount posting, a
# reader of structured logs) applied on top as commits, so that patches
# to it are written with git format-patch (make export-util-linux).
# Two builds, each of a copy of the tree: mount.static (mount(8) with
# libmount and libblkid linked in) with the posting (build/util-linux/new)
# and as Debian has it (build/util-linux/base), both in the guest's
# initramfs (tests/guest/libmount_test.sh).
UL_PACKAGE := util-linux
UL_VERSION := 2.41.5-0+deb13u1
UL_SUITE := trixie
UL := $(B)/util-linux
UL_MOUNT := $(UL)/new/obj/mount.static
UL_BASE_MOUNT := $(UL)/base/obj/mount.static
UL_PATCHES := $(sort $(filter-out %/0000-cover-letter.patch, \
	$(wildcard util-linux/[0-9][0-9][0-9][0-9]-*.patch)))
UL_CONFIGURE := --disable-all-programs --enable-libmount --enable-libblkid \
	--enable-mount --enable-static-programs=mount --disable-shared \
	--enable-static --disable-nls --disable-pylibmount --disable-liblastlog2 \
	--disable-bash-completion --without-udev --without-systemd \
	--without-econf --without-btrfs --without-selinux --without-python \
	--without-ncurses --without-tinfo

# Rewritten only when the fetched version changes, as tarball.id is.
$(UL)/source.id: FORCE | deps
	@scripts/fetch-debian-source $(UL_PACKAGE) $(UL_VERSION) $(UL_SUITE) \
		$(SOURCE_DIR)
	@mkdir -p $(@D)
	@id="$$(cat $(SOURCE_DIR)/$(UL_PACKAGE).version)"; \
	if [ "$$(cat $@ 2>/dev/null)" != "$$id" ]; then echo "$$id" > $@; fi

$(UL)/source.stamp: $(UL)/source.id $(UL_PATCHES)
	@if [ -s $@ ] && [ -d $(UL)/src ] && \
	    [ "$$(git -C $(UL)/src rev-parse HEAD)" != "$$(cat $@)" ]; then \
		echo "build/util-linux/src has commits that are not in util-linux/;" >&2; \
		echo "make export-util-linux, or reset it to $$(cat $@) first." >&2; \
		exit 1; \
	fi
	@echo "  EXTRACT build/util-linux/src (as a git repository)"
	@rm -rf $(UL)/src
	@dpkg-source -q -x --no-copy "$$(cat $(SOURCE_DIR)/$(UL_PACKAGE).dsc)" $(UL)/src \
		> $(UL)/extract.log 2>&1 || { cat $(UL)/extract.log >&2; exit 1; }
	@cd $(UL)/src && git init -q && git config gc.auto 0 && \
		git add -A -f && \
		GIT_AUTHOR_DATE="@0 +0000" GIT_COMMITTER_DATE="@0 +0000" \
		$(GIT_ID) commit -q -m "$(UL_PACKAGE) $$(cat $<)" && \
		git tag base && \
		for p in $(UL_PATCHES); do \
			echo "  APPLY  $$p"; \
			$(GIT_ID) am -q $(TOP)/$$p || { git am --abort; exit 1; }; \
		done && \
		git rev-parse HEAD > $@
	@git -C $(UL)/src rev-parse base | cmp -s - $(UL)/base.id || \
		git -C $(UL)/src rev-parse base > $(UL)/base.id

# Debian's tree, which only a new source package changes: the file is
# rewritten by the extraction only when it changes, so that a new patch of
# util-linux/ rebuilds build/util-linux/new alone.
$(UL)/base.id: $(UL)/source.stamp ;

# $(call ul_build,DIR,REF): the build of REF of build/util-linux/src in
# build/util-linux/DIR: its tree (DIR/tree), regenerated by autogen.sh as
# Debian's build does (Debian's patches change Makefile.am files), and
# configured with only what mount(8) needs (DIR/obj).
ul_build = rm -rf $(UL)/$(1) && mkdir -p $(UL)/$(1)/tree $(UL)/$(1)/obj && \
	git -C $(UL)/src archive $(2) | tar -x -C $(UL)/$(1)/tree && \
	{ cd $(UL)/$(1)/tree && ./autogen.sh > ../autogen.log 2>&1 || \
		{ cat ../autogen.log >&2; exit 1; }; } && \
	{ cd $(UL)/$(1)/obj && ../tree/configure -q $(UL_CONFIGURE) > ../configure.log 2>&1 || \
		{ cat ../configure.log >&2; rm -f config.status; exit 1; }; }

# mount(8) with the libmount posting (HEAD), and as Debian builds it
# (base): the guest runs both on the same command lines.
$(UL)/new/obj/config.status: $(UL)/source.stamp
	@echo "  CONFIG build/util-linux/new (util-linux/ applied)"
	@$(call ul_build,new,HEAD)
$(UL)/base/obj/config.status: $(UL)/base.id
	@echo "  CONFIG build/util-linux/base (Debian's)"
	@$(call ul_build,base,base)

$(UL)/%/obj/mount.static: $(UL)/%/obj/config.status
	@echo "  UL     build/util-linux/$*/obj/mount.static"
	@$(MAKE) -s -C $(UL)/$*/obj -j$(NPROC) mount.static > $(UL)/$*/make.log 2>&1 || \
		{ tail -n 30 $(UL)/$*/make.log >&2; exit 1; }

util-linux: $(UL_MOUNT) $(UL_BASE_MOUNT)

# The commits of build/util-linux/src since base, as util-linux/ (a
# posting of its own: scripts/export-util-linux).
export-util-linux:
	@scripts/export-util-linux $(UL)/src util-linux
	@git -C $(UL)/src rev-parse HEAD > $(UL)/source.stamp

# ---------------------------------------------------------------- userspace

# The project's own flags.  A packager's CFLAGS, CPPFLAGS and LDFLAGS (from
# the environment or the command line) come after them in the library's
# and the tools' builds, so that theirs win where the two differ (-g0 over
# -g) and reach every link (-Wl,-z,now the shared library).  -Werror is for
# the project's own checks only: check, host-check and host-tests set
# WERROR, and what only the checks build (host tests, the guest's and the
# benchmark's programs) always has it; a package built with a newer
# compiler must not fail on its new warnings.
FCLOG_CFLAGS := -O2 -g -Wall -Wextra
WERROR :=
LIB_CFLAGS = $(FCLOG_CFLAGS) $(WERROR) $(CFLAGS)
LIB_CPPFLAGS = $(USER_CPPFLAGS) $(CPPFLAGS)
CHECK_CFLAGS := $(FCLOG_CFLAGS) -Werror
# kselftest_harness.h is written for the selftests' -Wall.
TEST_CFLAGS := -O2 -g -Wall -Werror
# Userspace builds against the series' uapi headers, never the host's.
USER_CPPFLAGS := -I$(TOP)/include-uapi -I$(TOP)/userspace/include
# kselftest_harness.h, from the kernel tree.
SELFTESTS := $(B)/stock/src/tools/testing/selftests

GUEST_TESTS := $(patsubst tests/guest/%.c,$(B)/guest/tests/%,\
	$(wildcard tests/guest/*.c))
GUEST_TOOLS := $(B)/guest/bin/fclog-demo \
	$(patsubst userspace/tools/%.c,$(B)/guest/bin/%,$(wildcard userspace/tools/*.c))
# The series' own kselftests, from the patched tree against include-uapi/:
# mainline's fclog.c as the series extends it, and the reports of real
# filesystems.  The guest runs them on the patched kernels.
SERIES_SELFTEST_SRCS := filesystems/fclog \
	filesystems/fsconfig_report/fsconfig_report_test
SERIES_SELFTESTS := $(addprefix $(B)/guest/series/,$(notdir $(SERIES_SELFTEST_SRCS)))
# fclog.c as the fc-log posting has it, from its own tree, for the fc-log
# kernel (the structured posting adds its tests to it).
FCLOG_SELFTEST_SRCS := filesystems/fclog
FCLOG_SELFTESTS := $(addprefix $(B)/guest/series-fc-log/,$(notdir $(FCLOG_SELFTEST_SRCS)))

$(B)/guest/tests/%: tests/guest/%.c tests/guest/*.h userspace/include/*.h \
		include-uapi/linux/*.h $(B)/libfclog.a | $(B)/stock/source.stamp
	@echo "  CC     $@"
	@mkdir -p $(@D)
	@$(CC) $(TEST_CFLAGS) -static $(USER_CPPFLAGS) -I$(SELFTESTS) -o $@ $< \
		$(B)/libfclog.a -ljansson -lpthread

# $(call selftest_cc,TREE,SRCS,FLAGS): build the kselftest $@ from TREE's
# tools/testing/selftests, its source the one of SRCS named as $@ is.
# -D_GNU_SOURCE= as the selftests' lib.mk builds them (fclog.c needs it for
# CLONE_NEWNS).
selftest_cc = @echo "  CC     $@"; mkdir -p $(@D); \
	$(CC) -O2 -g -static -D_GNU_SOURCE= $(3) -I$(1)/tools/testing/selftests \
		-o $@ $(1)/tools/testing/selftests/$(filter %/$(notdir $@),$(2)).c \
		-lpthread

$(SERIES_SELFTESTS): $(B)/patched/source.stamp include-uapi/linux/*.h
	$(call selftest_cc,$(B)/patched/src,$(SERIES_SELFTEST_SRCS),$(TEST_CFLAGS) -I$(TOP)/include-uapi)
$(FCLOG_SELFTESTS): $(FCLOG)/source.stamp include-uapi/linux/*.h
	$(call selftest_cc,$(FCLOG)/src,$(FCLOG_SELFTEST_SRCS),$(TEST_CFLAGS) -I$(TOP)/include-uapi)

# The kernel's own mount-API selftests, from the stock tree against its own
# uapi headers: they must pass on every kernel.  Programs that print no TAP
# are wrapped by tests/tap-wrap, which reports their exit status.
STOCK_SUITES := mount_setattr/mount_setattr_test \
	filesystems/statmount/statmount_test proc/proc-fsconfig-hidepid \
	filesystems/fclog
STOCK_SUITE_BINS := $(addprefix $(B)/guest/suites/,$(notdir $(STOCK_SUITES)))
# ftracetest is a shell script that runs under busybox; only the tracefs
# mount-option cases are copied (tests/ftrace-wrap runs them).
FTRACE_FILES := ftracetest test.d/functions \
	test.d/00basic/mount_options.tc test.d/00basic/test_ownership.tc

$(B)/stock/headers.stamp: $(call BZIMAGE,stock)
	@$(call kmake,stock) headers
	@touch $@

$(STOCK_SUITE_BINS): $(B)/stock/headers.stamp
	$(call selftest_cc,$(B)/stock/src,$(STOCK_SUITES),-I$(B)/stock/obj/usr/include)

$(B)/guest/bin/%: userspace/tools/%.c $(B)/libfclog.a
	@echo "  CC     $@"
	@mkdir -p $(@D)
	@$(CC) $(CHECK_CFLAGS) -static $(USER_CPPFLAGS) -o $@ $< $(B)/libfclog.a -ljansson

$(B)/guest/bin/fclog-demo: userspace/demo/fclog-demo.c userspace/include/*.h \
		include-uapi/linux/*.h $(B)/libfclog.a
	@echo "  CC     $@"
	@mkdir -p $(@D)
	@$(CC) $(CHECK_CFLAGS) -static $(USER_CPPFLAGS) -o $@ $< $(B)/libfclog.a -ljansson

# The kernel's own initramfs writer, built for the host.
$(B)/gen_init_cpio: | $(B)/stock/source.stamp
	@$(CC) -O2 -o $@ $(B)/stock/src/usr/gen_init_cpio.c

# $(call initramfs_base,DIRS): the gen_init_cpio lines every guest needs:
# the usual directories and DIRS, a console, busybox as /bin/sh, /init.
initramfs_base = for d in /bin /dev /proc /sys /tmp /mnt $(1) /root; do \
		echo "dir $$d 0755 0 0"; \
	done; \
	echo "nod /dev/console 0600 0 0 c 5 1"; \
	echo "file /bin/busybox /bin/busybox 0755 0 0"; \
	echo "slink /bin/sh busybox 0777 0 0"; \
	echo "file /init $(TOP)/qemu/init 0755 0 0"

# The guest: busybox, /init, the runner, the tests and the tools.  Built as
# a gen_init_cpio list so that no root privileges or device nodes are needed
# on the host.
$(INITRAMFS): $(B)/gen_init_cpio qemu/init qemu/mkfs.ext4 qemu/etc/* \
		tests/run-tests tests/tap-wrap tests/ftrace-wrap tests/fclog-on-stock \
		$(GUEST_TESTS) $(SERIES_SELFTESTS) $(FCLOG_SELFTESTS) \
		$(STOCK_SUITE_BINS) $(GUEST_TOOLS) /bin/busybox \
		$(UL_MOUNT) $(UL_BASE_MOUNT) tests/guest/libmount_test.sh
	@echo "  CPIO   $@"
	@{ \
	$(call initramfs_base,/etc /tests /tests/series /tests/series-fc-log /tests/on-stock /suites \
		/suites/ftrace /suites/ftrace/test.d /suites/ftrace/test.d/00basic); \
	echo "file /etc/passwd $(TOP)/qemu/etc/passwd 0644 0 0"; \
	echo "file /etc/group $(TOP)/qemu/etc/group 0644 0 0"; \
	echo "file /bin/run-tests $(TOP)/tests/run-tests 0755 0 0"; \
	for f in $(GUEST_TOOLS); do \
		echo "file /bin/$${f##*/} $$f 0755 0 0"; \
	done; \
	for f in $(GUEST_TESTS); do \
		echo "file /tests/$${f##*/} $$f 0755 0 0"; \
	done; \
	for f in $(SERIES_SELFTESTS); do \
		echo "file /tests/series/$${f##*/} $$f 0755 0 0"; \
	done; \
	for f in $(FCLOG_SELFTESTS); do \
		echo "file /tests/series-fc-log/$${f##*/} $$f 0755 0 0"; \
	done; \
	echo "file /tests/on-stock/fclog $(TOP)/tests/fclog-on-stock 0755 0 0"; \
	echo "file /bin/tap-wrap $(TOP)/tests/tap-wrap 0755 0 0"; \
	echo "file /bin/mkfs.ext4 $(TOP)/qemu/mkfs.ext4 0755 0 0"; \
	echo "file /bin/ul-mount $(UL_MOUNT) 0755 0 0"; \
	echo "file /bin/ul-mount-base $(UL_BASE_MOUNT) 0755 0 0"; \
	echo "file /tests/libmount $(TOP)/tests/guest/libmount_test.sh 0755 0 0"; \
	for f in $(STOCK_SUITE_BINS); do \
		echo "file /suites/$${f##*/} $$f 0755 0 0"; \
		echo "slink /tests/$${f##*/} /bin/tap-wrap 0777 0 0"; \
	done; \
	for f in $(FTRACE_FILES); do \
		echo "file /suites/ftrace/$$f $(SELFTESTS)/ftrace/$$f 0755 0 0"; \
	done; \
	echo "file /tests/ftracetest $(TOP)/tests/ftrace-wrap 0755 0 0"; \
	} > $(B)/initramfs.list
	@$(B)/gen_init_cpio $(B)/initramfs.list > $@

initramfs: $(INITRAMFS)

# ----------------------------------------------------------------- libfclog

# The library, for the host tests and, linked statically, the guest's tools
# (the host and the guest are both x86_64 with the same libc).
LIBFCLOG_SRCS := $(wildcard userspace/lib/*.c)
LIBFCLOG_HDRS := userspace/include/fclog.h
# The soname changes only when the ABI breaks (a field removed, moved or
# given another type, an enum value renumbered, a signature changed);
# fields are added at the end of the record, enum values before _OTHER
# only with a new soname (within one, after it).  The minor version counts
# additions (a function, a type, an enum value) and macros withdrawn.
LIBFCLOG_VERSION := 3.3.0
LIBFCLOG_SONAME := libfclog.so.3

$(B)/libfclog.a: $(LIBFCLOG_SRCS) $(LIBFCLOG_HDRS) include-uapi/linux/*.h
	@echo "  AR     $@"
	@mkdir -p $(B)/libfclog
	@for c in $(LIBFCLOG_SRCS); do \
		$(CC) $(LIB_CFLAGS) $(LIB_CPPFLAGS) -c -o $(B)/libfclog/$$(basename $$c .c).o $$c || exit 1; \
	done
	@ar rcs $@ $(patsubst userspace/lib/%.c,$(B)/libfclog/%.o,$(LIBFCLOG_SRCS))

# The same sources as position-independent objects, for the shared library,
# its symbols versioned by userspace/lib/libfclog.map (FCLOG_3.0, ...).
LIBFCLOG_MAP := userspace/lib/libfclog.map
$(B)/libfclog.so: $(LIBFCLOG_SRCS) $(LIBFCLOG_HDRS) $(LIBFCLOG_MAP) include-uapi/linux/*.h
	@echo "  LD     $@"
	@mkdir -p $(B)/libfclog/pic
	@for c in $(LIBFCLOG_SRCS); do \
		$(CC) $(LIB_CFLAGS) -fPIC $(LIB_CPPFLAGS) -c -o $(B)/libfclog/pic/$$(basename $$c .c).o $$c || exit 1; \
	done
	@$(CC) $(LIB_CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(LIBFCLOG_SONAME) \
		-Wl,--version-script=$(LIBFCLOG_MAP) -o $@ \
		$(patsubst userspace/lib/%.c,$(B)/libfclog/pic/%.o,$(LIBFCLOG_SRCS)) -ljansson

lib: $(B)/libfclog.a $(B)/libfclog.so

# The tools for this host, to install: libfclog linked in statically (its
# soname may change, the tools go with the library they were built with),
# jansson as a shared library, as Debian ships it.
TOOLS := $(patsubst userspace/tools/%.c,%,$(wildcard userspace/tools/*.c))
HOST_TOOLS := $(addprefix $(B)/bin/,$(TOOLS))

$(B)/bin/%: userspace/tools/%.c userspace/include/*.h include-uapi/linux/*.h \
		$(B)/libfclog.a
	@echo "  CC     $@"
	@mkdir -p $(@D)
	@$(CC) $(LIB_CFLAGS) $(LIB_CPPFLAGS) $(LDFLAGS) -o $@ $< $(B)/libfclog.a -ljansson

tools: $(HOST_TOOLS)

# --------------------------------------------------------- install, man pages

# The pages, in man(7) format: section 1 the tools, 3 the library (one
# page per group of functions, a symbolic link to it for every other name
# a reader may look up), 7 the log itself.  Installed as they are, the
# links as links.  Not ".so" pages: man resolves ".so man3/x.3" from the
# directory it runs in, which works installed but not for "man -l" in the
# tree.
MAN_PAGES := $(sort $(wildcard man/man1/*.1 man/man3/*.3 man/man7/*.7))

# DESTDIR-aware, for packaging; the .pc file is written with the paths used.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man

install-lib: lib userspace/libfclog.pc.in
	@echo "  INSTALL libfclog to $(DESTDIR)$(PREFIX)"
	@install -d $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(LIBDIR)/pkgconfig
	@install -m 0644 $(LIBFCLOG_HDRS) $(DESTDIR)$(INCLUDEDIR)/
	@install -m 0644 $(B)/libfclog.a $(DESTDIR)$(LIBDIR)/
	@install -m 0755 $(B)/libfclog.so $(DESTDIR)$(LIBDIR)/libfclog.so.$(LIBFCLOG_VERSION)
	@ln -sf libfclog.so.$(LIBFCLOG_VERSION) $(DESTDIR)$(LIBDIR)/$(LIBFCLOG_SONAME)
	@ln -sf $(LIBFCLOG_SONAME) $(DESTDIR)$(LIBDIR)/libfclog.so
	@sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
		-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(LIBFCLOG_VERSION)|' \
		userspace/libfclog.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/libfclog.pc

# Everything: the library as install-lib installs it, the tools, the pages.
install: install-lib tools
	@echo "  INSTALL tools and man pages to $(DESTDIR)$(PREFIX)"
	@install -d $(DESTDIR)$(BINDIR)
	@install -m 0755 $(HOST_TOOLS) $(DESTDIR)$(BINDIR)/
	@for p in $(MAN_PAGES); do \
		d=$(DESTDIR)$(MANDIR)/$$(basename $$(dirname $$p)); \
		install -d $$d || exit 1; \
		if [ -L $$p ]; then \
			ln -sf $$(readlink $$p) $$d/$$(basename $$p) || exit 1; \
		else \
			install -m 0644 $$p $$d/ || exit 1; \
		fi; \
	done

# Exactly the files install put there, by the same lists; the directories
# stay (they may have been there before, and may hold other files).
uninstall:
	@echo "  UNINSTALL from $(DESTDIR)$(PREFIX)"
	@rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(TOOLS)) \
		$(addprefix $(DESTDIR)$(INCLUDEDIR)/,$(notdir $(LIBFCLOG_HDRS))) \
		$(addprefix $(DESTDIR)$(LIBDIR)/,libfclog.a libfclog.so \
			$(LIBFCLOG_SONAME) libfclog.so.$(LIBFCLOG_VERSION)) \
		$(DESTDIR)$(LIBDIR)/pkgconfig/libfclog.pc \
		$(patsubst man/%,$(DESTDIR)$(MANDIR)/%,$(MAN_PAGES))

# The pages' lint is a host test (make check runs it); this runs it alone.
man-lint:
	@tests/host/man_lint_test.sh

# --------------------------------------------------------------- host tests

# Shell tests run from the tree; C tests are built against libfclog.
HOST_C_TESTS := $(patsubst tests/host/%.c,$(B)/host/tests/%,\
	$(wildcard tests/host/*.c))
HOST_TESTS := $(wildcard tests/host/*_test.sh) $(HOST_C_TESTS)

$(B)/host/tests/%: tests/host/%.c $(B)/libfclog.a
	@echo "  CC     $@"
	@mkdir -p $(@D)
	@$(CC) $(CHECK_CFLAGS) $(USER_CPPFLAGS) -o $@ $< $(B)/libfclog.a -ljansson
# They compile the tool in, against a fake kernel.
$(B)/host/tests/fclog_retry_test: userspace/tools/fclog-retry.c \
	userspace/include/mount_api.h
$(B)/host/tests/fclog_probe_test: userspace/tools/fclog-probe.c \
	userspace/include/mount_api.h
$(B)/host/tests/fclog_mount_test: userspace/tools/fclog-mount.c \
	userspace/include/mount_api.h

# The parser under libFuzzer, AddressSanitizer and UBSan (tests/host/fuzz_test.sh).
FUZZER := $(B)/fuzz/fclog_parse_fuzz
$(FUZZER): tests/fuzz/fclog_parse_fuzz.c $(LIBFCLOG_SRCS) $(LIBFCLOG_HDRS)
	@echo "  CLANG  $@"
	@mkdir -p $(@D)
	@clang -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined $(USER_CPPFLAGS) -o $@ \
		tests/fuzz/fclog_parse_fuzz.c $(LIBFCLOG_SRCS) -ljansson

# The tools' --help and the install test run the host's build of the tools.
# Built for the checks, the library and the tools are held to -Werror.
host-tests check host-check: WERROR := -Werror
host-tests: $(HOST_TESTS) $(FUZZER) $(HOST_TOOLS)

# ------------------------------------------------------------------- checks

# The series' own checks are host tests too (so make check runs them); these
# targets run them alone.  They read the patched tree; the W=1 and sparse
# comparison (tests/host/series_warnings_test.sh) builds the files the
# series touches in both trees, in build/lint, from the kernels' configs.
LINT_ENV := FCTEST_TREE=$(B)/patched/src FCTEST_STOCK_TREE=$(B)/stock/src \
	FCTEST_PATCHED_CONFIG=$(B)/patched/obj/.config \
	FCTEST_STOCK_CONFIG=$(B)/stock/obj/.config FCTEST_LINT_OBJ=$(B)/lint

lint: $(B)/patched/obj/.config $(B)/stock/obj/.config
	@FCTEST_TREE=$(B)/patched/src tests/host/series_checkpatch_test.sh
	@tests/host/series_no_fixups_test.sh
	@$(LINT_ENV) tests/host/series_warnings_test.sh

# make host-check: the host tests alone, on a machine with no kernel tree:
# it builds the library, the tools, the host tests and the parser's fuzz
# target, nothing of a kernel.  The tests that read a kernel tree (the
# series' checkpatch, the postings applied, warnings, include-uapi/ and
# fclog(7) against mount_api.rst) skip, saying so, when the tree is not
# there; make check, which builds the trees first, runs them all and fails
# any whose tree is missing (FCTEST_NEED_TREE).
host-check: host-tests
	@mkdir -p $(B)/host-check
	@echo "  HOST   tests/host (log in build/host-check/host.log)"
	@$(LINT_ENV) FCTEST_FUZZER=$(FUZZER) \
		tests/run-tests $(HOST_TESTS) > $(B)/host-check/host.log 2>&1; \
	tests/report host:$(B)/host-check/host.log

uapi-check: $(B)/patched/source.stamp
	@FCTEST_TREE=$(B)/patched/src tests/host/uapi_sync_test.sh

# KUnit suites of the series that must have run in the patched guest, and
# in the guest of the fc-log posting alone.
KUNIT_SUITES := fc_log,fc_json,fsconfig
FCLOG_KUNIT_SUITES := fc_log

# $(call boot_check,NAME,BZIMAGE): boot it, keep its logs in build/check/NAME.
# A guest that has to be killed is reported by tests/report ("did not finish").
boot_check = echo "  BOOT   $(1) kernel (logs in build/check/$(1))"; \
	FCTEST_ONLY=$(ONLY) qemu/boot check $(2) $(INITRAMFS) \
		$(1) $(B)/check/$(1) || \
		echo "  BOOT   $(1): QEMU exited $$? (124: killed after the timeout)"

# The kernels: the whole series (patched), the fixes and fc-log postings
# alone (fc-log), stock, and the series as a debug build.  The cost gate
# last: stock, patched and fc-log booted once more each under -icount
# (about 15 s each), tests/bench/icount-gate's verdicts counted as one
# test per goal ("icount", "icount-fc-log").  The fc-log kernel is held
# to the fc-log posting's own goal, every legacy operation at most
# FCLOG_LEGACY_GOAL times stock's, with no ceiling: it is met.
FCLOG_LEGACY_GOAL := 1.00
check: deps $(call BZIMAGE,patched) $(call BZIMAGE,fc-log) $(call BZIMAGE,stock) \
		$(DEBUG_BZIMAGE) $(INITRAMFS) $(BENCH_INITRAMFS) host-tests
	@mkdir -p $(B)/check
	@echo "  HOST   tests/host"
	@$(LINT_ENV) FCTEST_NEED_TREE=1 FCTEST_FUZZER=$(FUZZER) \
		tests/run-tests $(HOST_TESTS) > $(B)/check/host.log 2>&1
	@$(call boot_check,patched,$(call BZIMAGE,patched))
	@$(call boot_check,fc-log,$(call BZIMAGE,fc-log))
	@$(call boot_check,stock,$(call BZIMAGE,stock))
	@$(call boot_check,debug,$(DEBUG_BZIMAGE))
	@$(call icount_boot,stock,$(call BZIMAGE,stock))
	@$(call icount_boot,patched,$(call BZIMAGE,patched))
	@$(call icount_boot,fc-log,$(call BZIMAGE,fc-log))
	@tests/bench/icount-gate -t $(B)/check/icount.log \
		$(ICOUNT_GATE_DIR)/stock/results.log \
		$(ICOUNT_GATE_DIR)/patched/results.log > $(B)/check/icount-gate.txt || true
	@tests/bench/icount-gate -t $(B)/check/icount-fc-log.log -n fc-log -S \
		-l $(FCLOG_LEGACY_GOAL) \
		$(ICOUNT_GATE_DIR)/stock/results.log \
		$(ICOUNT_GATE_DIR)/fc-log/results.log > $(B)/check/icount-gate-fc-log.txt || true
	@tests/compare-transcripts $(B)/check/stock/results.log \
		$(B)/check/patched/results.log > $(B)/check/transcripts.log
	@tests/compare-transcripts $(B)/check/stock/results.log \
		$(B)/check/fc-log/results.log > $(B)/check/transcripts-fc-log.log
	@tests/report host:$(B)/check/host.log \
		compare:$(B)/check/transcripts.log \
		compare-fc-log:$(B)/check/transcripts-fc-log.log \
		patched:$(B)/check/patched/results.log:$(B)/check/patched/console.log:$(KUNIT_SUITES) \
		fc-log:$(B)/check/fc-log/results.log:$(B)/check/fc-log/console.log:$(FCLOG_KUNIT_SUITES) \
		stock:$(B)/check/stock/results.log:$(B)/check/stock/console.log \
		debug:$(B)/check/debug/results.log:$(B)/check/debug/console.log:$(KUNIT_SUITES) \
		icount:$(B)/check/icount.log \
		icount-fc-log:$(B)/check/icount-fc-log.log

# make fuzz: the syscall fuzzer (tests/guest/syscall_fuzz.c) alone, on the
# debug kernel (FUZZ_KERNEL=patched or stock for the others, which boot
# faster), for FUZZ_SECONDS (half as root, half in a user namespace; each
# phase the whole time when FUZZ_PHASES names only one: root or userns),
# FUZZ_RUNS times in a row from FUZZ_SEED (default: the clock; printed, so
# that a failure can be replayed), the seed one higher each run.  make
# check runs it too, once, for 60 s on the debug kernel and 16 s on the
# others.  Any invalid record or kernel splat fails it.
FUZZ_SECONDS ?= 600
FUZZ_SEED ?=
FUZZ_PHASES ?= root,userns
FUZZ_RUNS ?= 1
FUZZ_KERNEL ?= debug
FUZZ_BZIMAGE = $(if $(filter debug,$(FUZZ_KERNEL)),$(DEBUG_BZIMAGE),$(call BZIMAGE,$(FUZZ_KERNEL)))
fuzz: $(FUZZ_BZIMAGE) $(INITRAMFS)
	@mkdir -p $(B)/fuzz-run
	@echo "  BOOT   $(FUZZ_KERNEL) kernel, syscall_fuzz ($(FUZZ_PHASES)) for $(FUZZ_SECONDS) s, $(FUZZ_RUNS) run(s) (logs in build/fuzz-run)"
	@FCTEST_ONLY=syscall_fuzz FCTEST_FUZZ_SECONDS=$(FUZZ_SECONDS) \
		FCTEST_FUZZ_SEED=$(FUZZ_SEED) FCTEST_FUZZ_PHASES=$(FUZZ_PHASES) \
		FCTEST_FUZZ_RUNS=$(FUZZ_RUNS) \
		FCTEST_TIMEOUT=$$(( $(FUZZ_SECONDS) * $(FUZZ_RUNS) * 3 + 600 )) \
		qemu/boot check $(FUZZ_BZIMAGE) $(INITRAMFS) $(FUZZ_KERNEL) \
		$(B)/fuzz-run || true
	@grep '^# ' $(B)/fuzz-run/results.log || true
	@tests/report $(FUZZ_KERNEL):$(B)/fuzz-run/results.log:$(B)/fuzz-run/console.log

demo: $(call BZIMAGE,patched) $(INITRAMFS)
	@qemu/boot demo $(call BZIMAGE,patched) $(INITRAMFS) patched

GUEST ?= patched
shell: $(call BZIMAGE,$(GUEST)) $(INITRAMFS)
	@qemu/boot shell $(call BZIMAGE,$(GUEST)) $(INITRAMFS) $(GUEST)

# ------------------------------------------------------------------- bench

# make bench: first what an operation costs in guest instructions
# (tests/bench/fc_log_cost.c), each kernel booted once under QEMU's -icount
# (qemu/boot icount: one CPU, the clock counts instructions, the same on
# every run), ICOUNT_BATCH operations per batch, a flood of ICOUNT_FLOOD
# messages; libfclog's parser counted under valgrind.  Then what has no
# instruction figure (tests/bench/fc_log_bench.c: the epoll wake-up across
# CPUs, slab memory), in the stock and the patched kernel booted in turn as
# check boots them (TCG, same -smp/-m), stock, patched, stock, patched...:
# BENCH_ROUNDS rounds, so that a change in the host's load hits both
# (tests/bench/run); after each pair libfclog's parser is timed on the
# host.  tests/bench/report prints the instruction table with the issue's
# goals (tests/bench/icount-gate), then the time and memory table (medians
# across rounds, ratio, spread), and writes build/bench/results.json; each
# boot's logs are in build/bench/icount/ and build/bench/round-N/.  The
# benchmark has its own initramfs (busybox, /init, the two programs):
# bench-run needs no kernel tree but gen_init_cpio.
BENCH_ROUNDS ?= 3
BENCH_SCALE ?= 1
ICOUNT_BATCH ?= 2000
ICOUNT_FLOOD ?= 1000000
BENCH_STOCK ?= $(call BZIMAGE,stock)
BENCH_PATCHED ?= $(call BZIMAGE,patched)

$(BENCH_DIR)/fc_log_bench: tests/bench/fc_log_bench.c tests/guest/fctest.h \
		userspace/include/*.h include-uapi/linux/*.h
	@echo "  CC     $@"
	@mkdir -p $(@D)
	@$(CC) $(CHECK_CFLAGS) -static $(USER_CPPFLAGS) -Itests/guest -o $@ $< -lpthread

$(BENCH_DIR)/fc_log_cost: tests/bench/fc_log_cost.c userspace/include/*.h \
		include-uapi/linux/*.h
	@echo "  CC     $@"
	@mkdir -p $(@D)
	@$(CC) $(CHECK_CFLAGS) -static $(USER_CPPFLAGS) -o $@ $<

$(BENCH_DIR)/fclog_parse_bench: tests/bench/fclog_parse_bench.c $(B)/libfclog.a
	@echo "  CC     $@"
	@mkdir -p $(@D)
	@$(CC) $(CHECK_CFLAGS) $(USER_CPPFLAGS) -o $@ $< $(B)/libfclog.a -ljansson

$(BENCH_INITRAMFS): $(B)/gen_init_cpio qemu/init $(BENCH_DIR)/fc_log_bench \
		$(BENCH_DIR)/fc_log_cost /bin/busybox
	@echo "  CPIO   $@"
	@{ \
	$(call initramfs_base,/bench); \
	echo "file /bench/fc_log_bench $(BENCH_DIR)/fc_log_bench 0755 0 0"; \
	echo "file /bench/fc_log_cost $(BENCH_DIR)/fc_log_cost 0755 0 0"; \
	} > $(BENCH_DIR)/initramfs.list
	@$(B)/gen_init_cpio $(BENCH_DIR)/initramfs.list > $@

.PHONY: bench bench-run icount-gate
bench: $(call BZIMAGE,stock) $(call BZIMAGE,patched) bench-run

bench-run: $(BENCH_INITRAMFS) $(BENCH_DIR)/fclog_parse_bench
	@BENCH_ROUNDS=$(BENCH_ROUNDS) BENCH_SCALE=$(BENCH_SCALE) \
		ICOUNT_BATCH=$(ICOUNT_BATCH) ICOUNT_FLOOD=$(ICOUNT_FLOOD) \
		tests/bench/run $(BENCH_DIR) $(BENCH_STOCK) $(BENCH_PATCHED) \
		$(BENCH_INITRAMFS) $(BENCH_DIR)/fc_log_bench \
		$(BENCH_DIR)/fclog_parse_bench

# make icount-gate: the instruction counts alone, as a gate: the stock and
# the patched kernel as they are built (this builds no kernel) booted once
# each under -icount with small batches (the counts differ from make
# bench's by a few instructions, the verdicts do not), about 15 s a boot;
# tests/bench/icount-gate prints the table and fails when a goal is not
# met.  Logs in build/bench/icount-gate/.
ICOUNT_GATE_BATCH ?= 200
ICOUNT_GATE_FLOOD ?= 20000
ICOUNT_GATE_DIR := $(BENCH_DIR)/icount-gate

# $(call icount_boot,NAME,BZIMAGE): boot it under -icount, logs in
# $(ICOUNT_GATE_DIR)/NAME; a guest that did not finish fails the gate.
icount_boot = echo "  ICOUNT $(1) kernel (logs in $(ICOUNT_GATE_DIR)/$(1))"; \
	FCTEST_BATCH=$(ICOUNT_GATE_BATCH) FCTEST_FLOOD=$(ICOUNT_GATE_FLOOD) \
		qemu/boot icount $(2) $(BENCH_INITRAMFS) $(1) $(ICOUNT_GATE_DIR)/$(1) || \
		echo "  ICOUNT $(1): QEMU exited $$? (124: killed after the timeout)"

# $(call icount_gate,STOCK,PATCHED,OPTIONS): both boots, then the gate
# (make check adds -t, for one TAP test per goal).
icount_gate = $(call icount_boot,stock,$(1)); \
	$(call icount_boot,patched,$(2)); \
	tests/bench/icount-gate $(3) $(ICOUNT_GATE_DIR)/stock/results.log \
		$(ICOUNT_GATE_DIR)/patched/results.log

icount-gate: $(BENCH_INITRAMFS)
	@$(call icount_gate,$(BENCH_STOCK),$(BENCH_PATCHED))

clean:
	rm -rf $(B)/guest $(B)/check $(B)/fuzz-run $(B)/bench $(B)/initramfs.* $(B)/gen_init_cpio \
		$(B)/host $(B)/fuzz $(B)/libfclog $(B)/libfclog.a $(B)/libfclog.so \
		$(B)/lint $(B)/bin $(B)/host-check

distclean:
	rm -rf $(B)

FORCE:
