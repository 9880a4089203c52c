// SPDX-License-Identifier: GPL-2.0
/*
 * fclog-mount and fclog-retry --file on a real kernel: an overlay on a
 * tmpfs whose layers are given as file parameters, by a path from a
 * directory fd (@N:PATH), by a directory fd itself (@N:), by an open
 * directory (@N), by a path (PATH), and mixed with -o strings, in
 * command-line order; the file is read through the merged directory and
 * a new one lands in the upper layer.  A regular file as upperdir is
 * refused with the cause not_directory, an O_PATH fd with o_path.
 *
 * The tools are run as the guest has them (/bin/fclog-mount,
 * /bin/fclog-retry; FCLOG_MOUNT and FCLOG_RETRY name other builds), with
 * fork() and exec(), not through a shell: the directory fds the test
 * opens (O_RDONLY | O_DIRECTORY, not close-on-exec) reach them as they
 * are.  What the tools send for each form is tested against a fake kernel
 * on the host (tests/host/fclog_mount_test.c, fclog_retry_test.c).
 *
 * Stock 6.12's overlayfs takes layers as strings only: FSCONFIG_SET_PATH
 * and FSCONFIG_SET_FD on them are refused with EINVAL ("Bad value for
 * 'lowerdir+'").  Whether a kernel takes them is asked of the kernel
 * itself: where it does not, the first test checks that refusal, and the
 * tests of layers given as files skip, saying so; on a kernel with the
 * series they must pass.  An O_PATH fd is refused with EBADF on every
 * kernel: stock logs nothing, the series a o_path record.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <jansson.h>

#include "fctest.h"
#include "mount_api.h"
#include "kselftest_harness.h"

#define BASE	"/tmp/file-param"
#define MERGED	BASE "/merged"

static const char *fclog_mount(void)
{
	return getenv("FCLOG_MOUNT") ?: "/bin/fclog-mount";
}

static const char *fclog_retry(void)
{
	return getenv("FCLOG_RETRY") ?: "/bin/fclog-retry";
}

/*
 * Run @tool with the arguments @fmt makes, split at spaces: its standard
 * output and error, interleaved, in @out (cut to fit), its exit status
 * returned (-1 if it did not exit).
 */
static int run(char *out, size_t size, const char *tool, const char *fmt, ...)
{
	char args[1024], *argv[32], *tok, *save = NULL, scratch[4096];
	int argc = 0, pipefd[2], status;
	size_t len = 0;
	va_list ap;
	ssize_t r;
	pid_t pid;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	argv[argc++] = (char *)tool;
	for (tok = strtok_r(args, " ", &save); tok && argc < 31;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	out[0] = '\0';
	if (pipe2(pipefd, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		dup2(pipefd[1], STDOUT_FILENO);
		dup2(pipefd[1], STDERR_FILENO);
		execv(tool, argv);
		_exit(127);
	}
	close(pipefd[1]);
	/* Read to the end, so that a long output cannot block the tool. */
	while ((r = read(pipefd[0], len < size - 1 ? out + len : scratch,
			 len < size - 1 ? size - 1 - len : sizeof(scratch))) > 0)
		if (len < size - 1)
			len += r;
	out[len] = '\0';
	close(pipefd[0]);
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The JSON line of @out whose @key is @value (a string), or NULL. */
static json_t *line_with(const char *out, const char *key, const char *value)
{
	const char *p, *nl;
	json_t *obj;

	for (p = out; *p; p = nl + !!*nl) {
		nl = strchrnul(p, '\n');
		obj = json_loadb(p, nl - p, 0, NULL);
		if (json_is_string(json_object_get(obj, key)) &&
		    !strcmp(json_string_value(json_object_get(obj, key)), value))
			return obj;
		json_decref(obj);
	}
	return NULL;
}

/* What @path holds (up to @size - 1 bytes), or "" if it cannot be read. */
static const char *read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, size - 1);

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

static dev_t dev_of(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : st.st_dev;
}

/*
 * A tmpfs at BASE with lower/hello, lower2/hello and lower2/only2, and
 * empty upper, work and merged; the test's fds of BASE, upper and work,
 * inherited by the tools.
 */
FIXTURE(overlay) {
	int base, upper, work;
};

FIXTURE_SETUP(overlay)
{
	static const char *const dirs[] = {
		"lower", "lower2", "upper", "work", "merged",
	};
	char path[64];
	size_t i;

	mkdir(BASE, 0755);
	umount2(MERGED, MNT_DETACH);	/* a previous run's */
	umount2(BASE, MNT_DETACH);
	ASSERT_EQ(0, mount("tmpfs", BASE, "tmpfs", 0, "size=1m"))
		TH_LOG("tmpfs on %s: %s", BASE, strerror(errno));
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), BASE "/%s", dirs[i]);
		ASSERT_EQ(0, mkdir(path, 0755));
	}
	ASSERT_EQ(0, fctest_write_file(BASE "/lower/hello", "lower\n"));
	ASSERT_EQ(0, fctest_write_file(BASE "/lower2/hello", "lower2\n"));
	ASSERT_EQ(0, fctest_write_file(BASE "/lower2/only2", "only in lower2\n"));
	/* Not close-on-exec: the tools are given them by number. */
	self->base = open(BASE, O_RDONLY | O_DIRECTORY);
	self->upper = open(BASE "/upper", O_RDONLY | O_DIRECTORY);
	self->work = open(BASE "/work", O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, self->base);
	ASSERT_LE(0, self->upper);
	ASSERT_LE(0, self->work);
}

FIXTURE_TEARDOWN(overlay)
{
	umount2(MERGED, MNT_DETACH);
	close(self->base);
	close(self->upper);
	close(self->work);
	umount2(BASE, MNT_DETACH);
}

/* Read the log of @fd empty, so that closing it reports nothing. */
static void drain(int fd)
{
	char buf[FSCONTEXT_LOG_RECORD_MAX];

	while (read(fd, buf, sizeof(buf)) > 0)
		;
}

/*
 * Whether this kernel's overlayfs takes a layer as a file parameter,
 * asked of the kernel: upperdir as the directory fd @dirfd itself
 * (FSCONFIG_SET_PATH_EMPTY), on a context never created.  Stock 6.12
 * refuses it with EINVAL; a kernel with the series must take it.
 */
static bool layers_as_files(struct __test_metadata *_metadata, int dirfd)
{
	int fd = sys_fsopen("overlay", FSOPEN_CLOEXEC), ret, err;

	ASSERT_LE(0, fd) TH_LOG("no overlayfs (qemu/kernel.config has CONFIG_OVERLAY_FS=y): %s",
				strerror(errno));
	ret = sys_fsconfig(fd, FSCONFIG_SET_PATH_EMPTY, "upperdir", "", dirfd);
	err = errno;
	drain(fd);
	close(fd);
	if (!ret)
		return true;
	/* Asserted: an EXPECT's failure would be hidden by the SKIP that follows. */
	ASSERT_FALSE(fctest_kernel_has_series())
		TH_LOG("a kernel with the series refused upperdir by fd: %s",
		       strerror(err));
	ASSERT_EQ(EINVAL, err);
	return false;
}

/*
 * Each way a file parameter can be given: lowerdir+ as a path from the
 * fd of BASE (@N:lower), upperdir as its fd itself (@N:), workdir as the
 * open directory (@N).  hello is read from the lower layer through the
 * merged directory, and a file made there lands in the upper one.
 */
TEST_F(overlay, layers_from_a_dirfd_a_dirfd_itself_and_an_fd)
{
	char out[4096], buf[64];
	int status;

	if (!layers_as_files(_metadata, self->upper)) {
		/* Stock: the first file parameter refused, nothing mounted. */
		status = run(out, sizeof(out), fclog_mount(),
			     "-t overlay --file lowerdir+=@%d:lower --file upperdir=@%d: "
			     "--file workdir=@%d overlay " MERGED,
			     self->base, self->upper, self->work);
		ASSERT_EQ(3, status) TH_LOG("%s", out);
		ASSERT_NE(NULL, strstr(out, "Bad value for 'lowerdir+'")) TH_LOG("%s", out);
		ASSERT_NE(NULL, strstr(out, "fclog-mount: file lowerdir+: Invalid argument"))
			TH_LOG("%s", out);
		ASSERT_EQ(dev_of(BASE), dev_of(MERGED));
		SKIP(return, "stock overlayfs takes layers as strings only: --file lowerdir+=@N:lower refused with EINVAL, as expected");
	}
	status = run(out, sizeof(out), fclog_mount(),
		     "-t overlay --file lowerdir+=@%d:lower --file upperdir=@%d: "
		     "--file workdir=@%d overlay " MERGED,
		     self->base, self->upper, self->work);
	ASSERT_EQ(0, status) TH_LOG("%s", out);
	ASSERT_NE(dev_of(BASE), dev_of(MERGED));
	EXPECT_STREQ("lower\n", read_file(MERGED "/hello", buf, sizeof(buf)));
	ASSERT_EQ(0, fctest_write_file(MERGED "/new", "upper\n"));
	EXPECT_STREQ("upper\n", read_file(BASE "/upper/new", buf, sizeof(buf)))
		TH_LOG("upperdir=@%d: is not the upper layer", self->upper);
	EXPECT_EQ(0, umount2(MERGED, 0)) TH_LOG("%s", strerror(errno));
}

/*
 * Files and -o strings set in command-line order: lowerdir+ from the fd
 * of BASE, then lower2 as an -o string, so that lower is the upper of the
 * two lower layers (hello is lower's, only2 comes from lower2); upperdir
 * as a path, workdir as a path from the fd of BASE.
 */
TEST_F(overlay, files_and_strings_in_command_line_order)
{
	char out[4096], buf[64];
	int status;

	if (!layers_as_files(_metadata, self->upper))
		SKIP(return, "stock overlayfs takes layers as strings only");
	status = run(out, sizeof(out), fclog_mount(),
		     "-t overlay --file lowerdir+=@%d:lower -o lowerdir+=" BASE "/lower2 "
		     "--file upperdir=" BASE "/upper --file workdir=@%d:work "
		     "overlay " MERGED, self->base, self->base);
	ASSERT_EQ(0, status) TH_LOG("%s", out);
	EXPECT_STREQ("lower\n", read_file(MERGED "/hello", buf, sizeof(buf)))
		TH_LOG("the -o layer came before the --file one");
	EXPECT_STREQ("only in lower2\n", read_file(MERGED "/only2", buf, sizeof(buf)));
	EXPECT_EQ(0, umount2(MERGED, 0)) TH_LOG("%s", strerror(errno));
}

/* A regular file where a directory must be: not_directory, ENOTDIR. */
TEST_F(overlay, a_file_for_a_directory_is_not_directory)
{
	char out[4096];
	json_t *rec;
	int status;

	if (!layers_as_files(_metadata, self->upper))
		SKIP(return, "stock overlayfs takes layers as strings only");
	status = run(out, sizeof(out), fclog_mount(),
		     "--json -t overlay --file lowerdir+=@%d:lower "
		     "--file upperdir=@%d:lower/hello --file workdir=@%d overlay " MERGED,
		     self->base, self->base, self->work);
	ASSERT_EQ(3, status) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "fclog-mount: file upperdir: Not a directory"))
		TH_LOG("%s", out);
	rec = line_with(out, "cause", "not_directory");
	ASSERT_NE(NULL, rec) TH_LOG("%s", out);
	EXPECT_STREQ("param_rejected", json_string_value(json_object_get(rec, "event")));
	EXPECT_STREQ("upperdir", json_string_value(json_object_get(rec, "param")));
	EXPECT_STREQ("set_path", json_string_value(json_object_get(rec, "op")));
	EXPECT_EQ(ENOTDIR, json_integer_value(json_object_get(rec, "errno")));
	EXPECT_STREQ("lower/hello", json_string_value(json_object_get(rec, "value")) ?: "")
		TH_LOG("%s", out);
	json_decref(rec);
	EXPECT_EQ(dev_of(BASE), dev_of(MERGED));
}

/*
 * An O_PATH fd names a directory without opening it: refused with EBADF
 * on every kernel, as a closed fd is.  The series says why, in a
 * structured log only: param_rejected, cause o_path, op set_fd, no
 * value; fclog-mount names the fd.  Stock says nothing.
 */
TEST_F(overlay, an_o_path_fd_is_o_path)
{
	int path_fd, status;
	char out[4096], want[128];
	json_t *rec;

	path_fd = open(BASE "/upper", O_PATH | O_DIRECTORY);
	ASSERT_LE(0, path_fd);
	status = run(out, sizeof(out), fclog_mount(),
		     "--json -t overlay --file upperdir=@%d "
		     "--file lowerdir+=@%d:lower --file workdir=@%d overlay " MERGED,
		     path_fd, self->base, self->work);
	close(path_fd);
	ASSERT_EQ(3, status) TH_LOG("%s", out);
	EXPECT_EQ(dev_of(BASE), dev_of(MERGED));
	rec = line_with(out, "cause", "o_path");
	if (!fctest_kernel_has_series()) {
		EXPECT_EQ(NULL, rec) TH_LOG("%s", out);
		EXPECT_NE(NULL, strstr(out, "fclog-mount: file upperdir: Bad file descriptor"))
			TH_LOG("%s", out);
		json_decref(rec);
		return;
	}
	snprintf(want, sizeof(want),
		 "fclog-mount: file upperdir: fd %d is an O_PATH fd (Bad file descriptor): give it as upperdir=@%d:",
		 path_fd, path_fd);
	EXPECT_NE(NULL, strstr(out, want)) TH_LOG("%s", out);
	ASSERT_NE(NULL, rec) TH_LOG("%s", out);
	EXPECT_STREQ("param_rejected", json_string_value(json_object_get(rec, "event")));
	EXPECT_STREQ("upperdir", json_string_value(json_object_get(rec, "param")));
	EXPECT_STREQ("set_fd", json_string_value(json_object_get(rec, "op")));
	EXPECT_EQ(EBADF, json_integer_value(json_object_get(rec, "errno")));
	EXPECT_EQ(NULL, json_object_get(rec, "value"));
	json_decref(rec);
}

/*
 * fclog-retry with the layers as files (required) and an unknown optional
 * option: the option is dropped at fsconfig() time, the overlay mounted in
 * one attempt with the files kept.
 */
TEST_F(overlay, retry_keeps_the_files_and_drops_the_unknown)
{
	char out[8192], buf[64];
	json_t *res, *dropped;
	int status;

	if (!layers_as_files(_metadata, self->upper))
		SKIP(return, "stock overlayfs takes layers as strings only");
	status = run(out, sizeof(out), fclog_retry(),
		     "--json -t overlay --file lowerdir+=@%d:lower -o fclog_no_such_option "
		     "--file upperdir=@%d: --file workdir=@%d overlay " MERGED,
		     self->base, self->upper, self->work);
	ASSERT_EQ(0, status) TH_LOG("%s", out);
	res = line_with(out, "event", "result");
	ASSERT_NE(NULL, res) TH_LOG("%s", out);
	EXPECT_EQ(1, json_integer_value(json_object_get(res, "attempts")));
	dropped = json_array_get(json_object_get(res, "dropped"), 0);
	EXPECT_STREQ("fclog_no_such_option",
		     json_string_value(json_object_get(dropped, "option")) ?: "");
	EXPECT_STREQ("unknown_param",
		     json_string_value(json_object_get(dropped, "cause")) ?: "");
	EXPECT_EQ(3, json_array_size(json_object_get(res, "options")));
	json_decref(res);
	EXPECT_STREQ("lower\n", read_file(MERGED "/hello", buf, sizeof(buf)));
	EXPECT_EQ(0, umount2(MERGED, 0)) TH_LOG("%s", strerror(errno));
}

TEST_HARNESS_MAIN
