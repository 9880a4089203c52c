// SPDX-License-Identifier: GPL-2.0
/*
 * legacy_transcript: drive many of the paths that log into a filesystem
 * context (the VFS, fs_parser and several filesystems; unknown parameters,
 * bad values, values given to flags, deprecated options, CREATE_EXCL
 * refusals) and record every byte read back from the context fd.
 *
 * "make check" runs it on the stock and on the patched kernel and fails
 * unless the two transcripts are identical: without the new flag, the
 * series must not change a single byte a legacy reader sees.  No context
 * gets more than eight messages, so the stock log's eviction never differs.
 * The longest lines the kernel logs are there too: a lookup failure naming
 * a path of PATH_MAX - 1 bytes (ASCII, and multibyte UTF-8), unknown keys
 * of 255 bytes, values of 255 bytes, each read back whole on both kernels.
 *
 * Then a seeded sequence of calls (seeded() below): contexts of several
 * filesystems opened, configured with every command, random keys, values,
 * paths and fds, created, reconfigured, mounted, each call's messages read
 * back at once at random buffer sizes, from 0 up; SEEDED_CALLS calls as
 * root, as many again in a user namespace of its own.  The seed is fixed:
 * both kernels run the same sequence, which branches on what each call
 * returned, so that a kernel answering differently drives the rest of the
 * sequence elsewhere and the transcripts show it.
 *
 * Output is TAP for tests/run-tests: the transcript as "# T: " lines, then
 * one test that fails if a scenario could not be set up at all, and one
 * for each seeded run that could not make its calls.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/loop.h>

#include "fctest.h"

struct op {
	unsigned int cmd;
	const char *key;
	const char *value;	/* "@..." markers are expanded; see expand() */
};

struct scenario {
	const char *fstype;
	const char *image;	/* for block filesystems: mkfs command */
	int pick;		/* fspick() this path instead of fsopen() */
	struct op ops[9];
};

#define SET_FLAG(k)		{ FSCONFIG_SET_FLAG, k, NULL }
#define SET_STRING(k, v)	{ FSCONFIG_SET_STRING, k, v }
#define SET_PATH(k, v)		{ FSCONFIG_SET_PATH, k, v }
#define CREATE			{ FSCONFIG_CMD_CREATE, NULL, NULL }
#define CREATE_EXCL		{ FSCONFIG_CMD_CREATE_EXCL, NULL, NULL }
#define RECONFIGURE		{ FSCONFIG_CMD_RECONFIGURE, NULL, NULL }

static const struct scenario scenarios[] = {
	{ "tmpfs", .ops = {
		SET_FLAG("x"), SET_STRING("nosuch", "1"),
		SET_STRING("size", "lots"), SET_STRING("mode", "0999"),
		SET_STRING("nr_inodes", "-1"), SET_STRING("uid", "4294967295"),
		SET_FLAG("size"), SET_STRING("noswap", "1") } },
	{ "tmpfs", .ops = {
		SET_STRING("source", "one"), SET_STRING("source", "two"),
		SET_STRING("ro", "yes"), SET_STRING("huge", "sometimes"),
		SET_STRING("", "empty key"), CREATE } },
	{ "tmpfs", .pick = 1, .ops = {
		SET_FLAG("x"), SET_STRING("size", "lots"),
		SET_STRING("mpol", "nowhere"), RECONFIGURE } },
	{ "ext4", "mke2fs -F /tmp/transcript.ext2", .ops = {
		SET_STRING("source", "@loop"), SET_FLAG("x"),
		SET_STRING("errors", "bogus"), SET_STRING("commit", "soon"),
		SET_FLAG("journal_path"), SET_STRING("data", "everywhere"),
		SET_STRING("resuid", "-3"), CREATE } },
	{ "vfat", "mkdosfs /tmp/transcript.vfat", .ops = {
		SET_STRING("source", "@loop"), SET_STRING("cvf_format", "x"),
		SET_FLAG("posix"), SET_STRING("conv", "b"),
		SET_STRING("codepage", "999"), SET_STRING("errors", "maybe"),
		SET_FLAG("nosuch"), CREATE } },
	{ "debugfs", .ops = {
		SET_STRING("mode", "abc"), SET_STRING("uid", "x"),
		SET_STRING("gid", "-1"), SET_FLAG("x"), CREATE_EXCL } },
	{ "tracefs", .ops = {
		SET_STRING("mode", "8"), SET_STRING("gid", "nobody"),
		SET_FLAG("x"), CREATE_EXCL } },
	{ "mqueue", .ops = { SET_FLAG("x"), CREATE_EXCL } },
	{ "ext4", .ops = {
		SET_PATH("journal_path", "@longpath"),
		SET_PATH("journal_path", "@utf8path"),
		SET_FLAG("@key255"), SET_FLAG("@utf8key255"),
		SET_STRING("errors", "@value255"),
		SET_STRING("@key255", "@utf8value255") } },
	{ "tmpfs", .ops = {
		SET_STRING("huge", "@value255"), SET_STRING("mpol", "@value255"),
		SET_STRING("@utf8key255", "@value255") } },
};

/*
 * The value or key @v, with its marker expanded into @buf: "@loop" is the
 * image's loop device, "@longpath" and "@utf8path" an absolute path that
 * does not exist, PATH_MAX - 1 bytes long, in 200-byte components of ASCII
 * or of four-byte characters; "@key255", "@value255" and the "@utf8"
 * variants 255 bytes of ASCII or of three-byte characters.
 */
static const char *expand(const char *v, const char *dev, char *buf,
			  size_t size)
{
	const char *unit = "p";
	size_t len = 0, max = 255, n, component = 0;

	if (!v || v[0] != '@')
		return v;
	if (!strcmp(v, "@loop"))
		return dev;
	if (strstr(v, "path"))
		max = 4095;
	if (!strncmp(v, "@utf8", 5))
		unit = max == 4095 ? "\xf0\x9f\x98\x80" : "\xe2\x82\xac";
	n = strlen(unit);
	if (max == 4095)
		buf[len++] = '/';
	while (len + n <= max && len + n < size) {
		if (max == 4095 && component + n > 200) {
			buf[len++] = '/';
			component = 0;
			continue;
		}
		memcpy(buf + len, unit, n);
		len += n;
		component += n;
	}
	buf[len] = '\0';
	return buf;
}

static int failures;

static void print_escaped(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\')
			putchar(p[i]);
		else
			printf("\\x%02x", p[i]);
	}
}

static void drain(int fd)
{
	/* Past any line logged here (the series cuts at 8191): each whole. */
	unsigned char buf[16384];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) >= 0) {
		fputs("# T:   read \"", stdout);
		print_escaped(buf, n);
		puts("\"");
	}
	printf("# T:   read %s\n", strerrorname_np(errno));
}

/* Make an image with @mkfs (its last word is the file) and attach it. */
static int attach_image(const char *mkfs, char *dev, size_t size)
{
	const char *file = strrchr(mkfs, ' ') + 1;
	int ctl, nr, loopfd, filefd;
	struct loop_config config = { .fd = -1 };
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "truncate -s 2M %s && %s >/dev/null 2>&1",
		 file, mkfs);
	if (system(cmd) != 0)
		return -1;
	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	nr = ctl < 0 ? -1 : ioctl(ctl, LOOP_CTL_GET_FREE);
	if (ctl >= 0)
		close(ctl);
	if (nr < 0)
		return -1;
	snprintf(dev, size, "/dev/loop%d", nr);
	loopfd = open(dev, O_RDWR | O_CLOEXEC);
	filefd = open(file, O_RDWR | O_CLOEXEC);
	if (loopfd < 0 || filefd < 0)
		return -1;
	config.fd = filefd;
	if (ioctl(loopfd, LOOP_CONFIGURE, &config))
		return -1;
	close(filefd);
	/* Keep loopfd open: the device stays bound for the mount. */
	return 0;
}

static void run(const struct scenario *s)
{
	static char key[4096], value[4096];
	char dev[32] = "";
	const struct op *op;
	int fd, ret;

	printf("# T: %s %s\n", s->pick ? "fspick" : "fsopen", s->fstype);
	if (s->image && attach_image(s->image, dev, sizeof(dev))) {
		printf("# cannot set up an image for %s\n", s->fstype);
		failures++;
		return;
	}
	fd = s->pick ? sys_fspick(AT_FDCWD, "/tmp", FSPICK_CLOEXEC) :
		       sys_fsopen(s->fstype, FSOPEN_CLOEXEC);
	if (fd < 0) {
		printf("# %s %s: %s\n", s->pick ? "fspick" : "fsopen",
		       s->fstype, strerror(errno));
		failures++;
		return;
	}
	for (op = s->ops; op->cmd || op->key; op++) {
		ret = sys_fsconfig(fd, op->cmd,
				   expand(op->key, dev, key, sizeof(key)),
				   expand(op->value, dev, value, sizeof(value)),
				   op->cmd == FSCONFIG_SET_PATH ? AT_FDCWD : 0);
		/* The loop device's number is not part of the transcript. */
		printf("# T:  fsconfig(cmd %u, \"%s\", \"%s\") = %d %s\n", op->cmd,
		       op->key ?: "", op->value ?: "", ret,
		       ret ? strerrorname_np(errno) : "");
		drain(fd);
	}
	close(fd);
}

/*
 * The seeded sequence.  Calls are drawn from tables, so that the
 * transcript names what was asked, never a number that differs from boot
 * to boot (a loop device's, an fd's).  Unknown commands are stock's own
 * (10 and up; 9 is the series' CREATE_COMPATIBLE, which a legacy program
 * does not know of).
 */
#define SEEDED_CALLS	10000
#define SEEDED_SEED	43

static unsigned long long seeded_state;

/* xorshift64*: the same numbers on every machine, from the seed alone. */
static unsigned int rnd(unsigned int n)
{
	seeded_state ^= seeded_state >> 12;
	seeded_state ^= seeded_state << 25;
	seeded_state ^= seeded_state >> 27;
	return (seeded_state * 0x2545f4914f6cdd1dULL >> 32) % n;
}

#define PICK(a)	((a)[rnd(sizeof(a) / sizeof((a)[0]))])

struct seeded_fs {
	const char *type;
	const char *keys[12];
	const char *values[10];
};

static const struct seeded_fs seeded_fses[] = {
	{ "tmpfs", { "size", "nr_inodes", "mode", "uid", "gid", "huge",
		     "mpol", "noswap", "inode64", "source" },
	  { "1m", "lots", "0", "50%", "0700", "0999", "never", "sometimes",
	    "default", "4294967295" } },
	{ "ramfs", { "mode", "size", "source" }, { "0755", "0999", "1m" } },
	{ "proc", { "hidepid", "gid", "subset", "pidns" },
	  { "0", "invisible", "4", "pid", "x", "100" } },
	{ "sysfs", { "source" }, { "sysfs" } },
	{ "mqueue", { "source" }, { "mqueue" } },
	{ "ext4", { "source", "errors", "data", "commit", "journal_path",
		    "resuid", "noload", "barrier", "nodelalloc", "norecovery" },
	  { "@ext4", "@ext4", "remount-ro", "bogus", "ordered", "journal",
	    "5", "soon", "/nonexistent" } },
	{ "vfat", { "source", "codepage", "iocharset", "errors", "posix",
		    "conv", "uid", "umask", "shortname", "dos1xfloppy" },
	  { "@vfat", "@vfat", "437", "999", "iso8859-1", "nosuch", "lower",
	    "022", "x" } },
	{ "overlay", { "lowerdir", "upperdir", "workdir", "lowerdir+",
		       "redirect_dir", "index", "metacopy", "xino",
		       "userxattr", "volatile" },
	  { "/tmp/seeded/lower", "/tmp/seeded/upper", "/tmp/seeded/work",
	    "/nonexistent", "/tmp/seeded/file", "on", "off", "auto", "x" } },
	{ "nosuchfs", { "x" }, { "x" } },
};

/* Keys and values any filesystem may be given, "@" ones expanded. */
static const char *const seeded_keys[] = {
	"x", "", "ro", "rw", "sync", "dirsync", "lazytime", "source",
	"@key255", "@utf8key255",
};
static const char *const seeded_values[] = {
	"", "0", "-1", "x", "@value255", "@utf8value255",
};
static const char *const seeded_paths[] = {
	"/tmp/seeded/lower", "/tmp/seeded/file", "/nonexistent", "", "/",
	"lower", "@longpath",
};
static const unsigned int seeded_read_sizes[] = {
	0, 1, 2, 7, 16, 31, 40, 64, 100, 200, 8191,
};

/* The fds a SET_FD or a dirfd may name; "bad" is never open. */
enum { FD_DIR, FD_FILE, FD_OPATH, FD_BAD, NR_SEEDED_FDS };
static int seeded_fds[NR_SEEDED_FDS];
static const char *const seeded_fd_names[] = { "dir", "file", "opath", "bad" };
static const char *seeded_ext4, *seeded_vfat;

/* Read every message at once, at random sizes, as a legacy reader might. */
static void seeded_drain(int fd)
{
	unsigned char buf[8192];
	unsigned int size, tries = 0;
	ssize_t n;

	for (;;) {
		size = tries++ < 3 ? PICK(seeded_read_sizes) : 8191;
		n = read(fd, buf, size);
		if (n < 0) {
			printf("# T:   read %u %s\n", size, strerrorname_np(errno));
			if (errno != EMSGSIZE)
				return;
			continue;
		}
		printf("# T:   read %u \"", size);
		print_escaped(buf, n);
		puts("\"");
		tries = 0;
	}
}

static const char *seeded_expand(const char *v, char *buf, size_t size)
{
	if (v && !strcmp(v, "@ext4"))
		return seeded_ext4;
	if (v && !strcmp(v, "@vfat"))
		return seeded_vfat;
	return expand(v, "", buf, size);
}

/* One fsconfig() call, drawn; returns what it returned. */
static int seeded_fsconfig(int fd, const struct seeded_fs *fs)
{
	static char key[4096], value[4096];
	static const unsigned int cmds[] = {
		FSCONFIG_SET_FLAG, FSCONFIG_SET_STRING, FSCONFIG_SET_STRING,
		FSCONFIG_SET_STRING, FSCONFIG_SET_BINARY, FSCONFIG_SET_PATH,
		FSCONFIG_SET_PATH_EMPTY, FSCONFIG_SET_FD, FSCONFIG_CMD_CREATE,
		FSCONFIG_CMD_CREATE, FSCONFIG_CMD_CREATE_EXCL,
		FSCONFIG_CMD_RECONFIGURE, 10, 255, ~0U,
	};
	unsigned int cmd = PICK(cmds), nkeys, nvalues;
	const char *k = NULL, *v = NULL, *vname = "";
	const void *arg = NULL;
	char vdesc[64] = "";
	int aux = 0, ret, which;

	for (nkeys = 0; nkeys < 12 && fs->keys[nkeys]; nkeys++)
		;
	for (nvalues = 0; nvalues < 10 && fs->values[nvalues]; nvalues++)
		;
	if (cmd < FSCONFIG_CMD_CREATE)
		k = rnd(4) ? fs->keys[rnd(nkeys)] : PICK(seeded_keys);
	switch (cmd) {
	case FSCONFIG_SET_STRING:
		vname = v = rnd(4) ? fs->values[rnd(nvalues)] :
				     PICK(seeded_values);
		arg = seeded_expand(v, value, sizeof(value));
		break;
	case FSCONFIG_SET_BINARY:
		vname = "blob";
		arg = "\0\1binary";
		aux = rnd(3) ? 8 : (int)rnd(2) - 1;	/* 8, or -1 or 0 */
		snprintf(vdesc, sizeof(vdesc), "%d", aux);
		break;
	case FSCONFIG_SET_PATH:
	case FSCONFIG_SET_PATH_EMPTY:
		vname = v = rnd(3) ? PICK(seeded_paths) : fs->values[rnd(nvalues)];
		arg = seeded_expand(v, value, sizeof(value));
		which = rnd(NR_SEEDED_FDS + 1);
		aux = which == NR_SEEDED_FDS ? AT_FDCWD : seeded_fds[which];
		snprintf(vdesc, sizeof(vdesc), "%s", which == NR_SEEDED_FDS ?
			 "cwd" : seeded_fd_names[which]);
		break;
	case FSCONFIG_SET_FD:
		which = rnd(NR_SEEDED_FDS);
		aux = seeded_fds[which];
		snprintf(vdesc, sizeof(vdesc), "%s", seeded_fd_names[which]);
		break;
	}
	ret = sys_fsconfig(fd, cmd, seeded_expand(k, key, sizeof(key)), arg,
			   aux);
	printf("# T:  fsconfig(cmd %u, \"%s\", \"%s\", %s) = %d %s\n", cmd,
	       k ?: "", vname, vdesc, ret, ret ? strerrorname_np(errno) : "");
	seeded_drain(fd);
	return ret;
}

/* One context: opened, configured, maybe created and mounted, closed. */
static void seeded_context(unsigned int *calls)
{
	static const unsigned int open_flags[] = { 0, FSOPEN_CLOEXEC, 0x80 };
	static const unsigned int mount_flags[] = { 0, FSMOUNT_CLOEXEC, 0x80 };
	static const unsigned int attrs[] = {
		0, MOUNT_ATTR_RDONLY, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV,
		0x40000000,
	};
	const struct seeded_fs *fs = &PICK(seeded_fses);
	unsigned int flags, attr, i, n = 1 + rnd(12);
	int fd, mfd;

	if (rnd(6) == 0) {
		fs = &seeded_fses[0];
		fd = sys_fspick(AT_FDCWD, "/tmp/seeded/pick", FSPICK_CLOEXEC);
		printf("# T: fspick(tmpfs) = %s\n",
		       fd < 0 ? strerrorname_np(errno) : "fd");
	} else {
		flags = PICK(open_flags);
		fd = sys_fsopen(fs->type, flags);
		printf("# T: fsopen(%s, %#x) = %s\n", fs->type, flags,
		       fd < 0 ? strerrorname_np(errno) : "fd");
	}
	(*calls)++;
	if (fd < 0)
		return;
	for (i = 0; i < n && *calls < SEEDED_CALLS; i++) {
		(*calls)++;
		if (seeded_fsconfig(fd, fs) || rnd(2))
			continue;
		/* After a call that succeeded, now and then an fsmount(). */
		flags = PICK(mount_flags);
		attr = PICK(attrs);
		mfd = sys_fsmount(fd, flags, attr);
		printf("# T:  fsmount(%#x, %#x) = %s\n", flags, attr,
		       mfd < 0 ? strerrorname_np(errno) : "fd");
		(*calls)++;
		seeded_drain(fd);
		if (mfd >= 0)
			close(mfd);
		break;
	}
	close(fd);
}

/* SEEDED_CALLS calls from @seed; false if the run could not be set up. */
static bool seeded(const char *who, unsigned long long seed)
{
	unsigned int calls = 0;

	seeded_state = seed;
	seeded_fds[FD_DIR] = open("/tmp/seeded/lower", O_DIRECTORY | O_CLOEXEC);
	seeded_fds[FD_FILE] = open("/tmp/seeded/file", O_RDONLY | O_CLOEXEC);
	seeded_fds[FD_OPATH] = open("/tmp/seeded/file", O_PATH | O_CLOEXEC);
	seeded_fds[FD_BAD] = 999;
	if (seeded_fds[FD_DIR] < 0 || seeded_fds[FD_FILE] < 0 ||
	    seeded_fds[FD_OPATH] < 0) {
		printf("# seeded, %s: cannot open its fds: %s\n", who,
		       strerror(errno));
		return false;
	}
	/* Relative paths resolve from here ("lower"). */
	if (chdir("/tmp/seeded"))
		return false;
	printf("# T: seeded calls, %s, seed %llu\n", who, seed);
	while (calls < SEEDED_CALLS)
		seeded_context(&calls);
	printf("# T: seeded calls, %s: %u\n", who, calls);
	return true;
}

/* What the seeded runs work on, made once, as root. */
static bool seeded_setup(void)
{
	static char ext4[32], vfat[32];
	int fd, mfd;

	if (system("mkdir -p /tmp/seeded/lower /tmp/seeded/upper "
		   "/tmp/seeded/work /tmp/seeded/pick && "
		   "touch /tmp/seeded/file && "
		   "chmod -R a+rX /tmp/seeded") != 0 ||
	    attach_image("mke2fs -F /tmp/seeded.ext2", ext4, sizeof(ext4)) ||
	    attach_image("mkdosfs /tmp/seeded.vfat", vfat, sizeof(vfat)))
		return false;
	seeded_ext4 = ext4;
	seeded_vfat = vfat;
	/* A tmpfs to fspick(), mounted with the API itself. */
	fd = sys_fsopen("tmpfs", FSOPEN_CLOEXEC);
	if (fd < 0 || sys_fsconfig(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0))
		return false;
	mfd = sys_fsmount(fd, FSMOUNT_CLOEXEC, 0);
	close(fd);
	if (mfd < 0 || sys_move_mount(mfd, "", AT_FDCWD, "/tmp/seeded/pick",
				      MOVE_MOUNT_F_EMPTY_PATH))
		return false;
	close(mfd);
	return true;
}

int main(void)
{
	bool set_up, root_ran;
	size_t i;
	pid_t pid;
	int status;

	printf("TAP version 13\n1..3\n");
	for (i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++)
		run(&scenarios[i]);
	printf("%sok 1 transcript_recorded\n", failures ? "not " : "");

	set_up = seeded_setup();
	if (!set_up)
		printf("# cannot set up the seeded runs: %s\n", strerror(errno));
	root_ran = set_up && seeded("root", SEEDED_SEED);
	printf("%sok 2 seeded_calls_as_root\n", root_ran ? "" : "not ");
	fflush(stdout);

	/* The same number of calls again, in a user namespace of its own. */
	pid = fork();
	if (pid == 0) {
		if (fctest_enter_userns()) {
			printf("# cannot enter a user namespace: %s\n",
			       strerror(errno));
			exit(1);
		}
		exit(set_up && seeded("user namespace", SEEDED_SEED + 1) ? 0 : 1);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid ||
	    !WIFEXITED(status) || WEXITSTATUS(status)) {
		printf("not ok 3 seeded_calls_in_user_namespace\n");
		failures++;
	} else {
		printf("ok 3 seeded_calls_in_user_namespace\n");
	}
	return failures || !root_ran ? 1 : 0;
}
