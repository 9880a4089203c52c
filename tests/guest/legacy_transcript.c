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
 * Output is TAP for tests/run-tests: the transcript as "# T: " lines, then
 * one test that fails if a scenario could not be set up at all.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/loop.h>

#include "mount_api.h"

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

int main(void)
{
	size_t i;

	printf("TAP version 13\n1..1\n");
	for (i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++)
		run(&scenarios[i]);
	printf("%sok 1 transcript_recorded\n", failures ? "not " : "");
	return failures ? 1 : 0;
}
