// SPDX-License-Identifier: GPL-2.0
/*
 * libfclog and its tools against a real kernel: the library reports exactly
 * the records the kernel evicted, reads legacy logs into the same struct,
 * reads a record larger than its first buffer whole, and fclog-watch
 * streams records written while it waits.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fclog.h"
#include "fctest.h"
#include "mount_api.h"
#include "kselftest_harness.h"

/* One error, then 1000 warnings: what the library counts is what was lost. */
TEST(flood_reports_exactly_the_evicted)
{
	struct fclog_record *rec;
	int fd, i, r, records = 0, errors = 0, markers = 0;
	fclog_t *log;

	fd = sys_fsopen("vfat", FSOPEN_CLOEXEC | FSOPEN_STRUCTURED_LOG);
	if (fd < 0 && errno == EINVAL && !fctest_kernel_has_structured())
		SKIP(return, FCTEST_NEEDS_STRUCTURED);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(-1, sys_fsconfig(fd, FSCONFIG_SET_FLAG, "nosuch", NULL, 0));
	for (i = 0; i < 1000; i++)
		ASSERT_EQ(0, sys_fsconfig(fd, FSCONFIG_SET_FLAG, "posix", NULL, 0));

	log = fclog_new(fd);
	ASSERT_NE(NULL, log);
	while ((r = fclog_next(log, &rec)) > 0) {
		if (rec->lost)
			markers++;
		else
			records++;
		errors += rec->level == FCLOG_ERROR;
		fclog_record_free(rec);
	}
	ASSERT_EQ(0, r) TH_LOG("%s", fclog_error(log));
	EXPECT_EQ(1, errors);
	EXPECT_EQ(1, markers);
	EXPECT_GE(records, 64);
	EXPECT_EQ(1001 - records, fclog_lost(log));
	/* One reader: the marker accounts for every gap. */
	EXPECT_EQ(0, fclog_unseen(log));
	EXPECT_EQ(0, fclog_skipped(log));
	fclog_free(log);
	close(fd);
}

/* Without the flag the same struct comes back, from the line alone. */
TEST(legacy_log_reads_into_the_same_struct)
{
	struct fclog_record *rec;
	fclog_t *log;
	int fd;

	fd = sys_fsopen("tmpfs", FSOPEN_CLOEXEC);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(-1, sys_fsconfig(fd, FSCONFIG_SET_STRING, "size", "lots", 0));
	log = fclog_new(fd);
	ASSERT_NE(NULL, log);
	ASSERT_EQ(1, fclog_next(log, &rec));
	EXPECT_FALSE(rec->structured);
	EXPECT_EQ(FCLOG_ERROR, rec->level);
	EXPECT_STREQ("tmpfs", rec->source);
	EXPECT_STREQ("Bad value for 'size'", rec->msg);
	fclog_record_free(rec);
	EXPECT_EQ(0, fclog_next(log, &rec));
	fclog_free(log);
	close(fd);
}

/* fclog_new()'s first buffer (FCLOG_FIRST_SIZE in userspace/lib/fclog.c). */
#define FIRST_BUFFER	1024

/*
 * Every read() of this program, the library's included, goes to the kernel
 * as it would; those of counted_fd are counted.
 */
static int counted_fd = -1;
static unsigned int counted_reads;

ssize_t read(int fd, void *buf, size_t n)
{
	if (fd == counted_fd)
		counted_reads++;
	return syscall(SYS_read, fd, buf, n);
}

/*
 * A record larger than the reader's first buffer comes back whole, sized
 * by FIONREAD: the first read fails with EMSGSIZE, which leaves the
 * record, and the second, with the buffer grown to the size FIONREAD
 * gives, returns it.  Doubling the buffer instead would take three reads,
 * the record being past twice the first buffer.  tmpfs refuses a 255-byte
 * key of control characters (U+0001), each escaped to six bytes in the
 * JSON, twice ("msg" and "param"): with the line, about 3,500 bytes.
 */
TEST(record_larger_than_the_first_buffer_is_read_whole)
{
	struct fclog_record *rec;
	char key[256], want[300];
	fclog_t *log;
	int fd, size;

	fd = sys_fsopen("tmpfs", FSOPEN_CLOEXEC | FSOPEN_STRUCTURED_LOG);
	if (fd < 0 && errno == EINVAL && !fctest_kernel_has_structured())
		SKIP(return, FCTEST_NEEDS_STRUCTURED);
	ASSERT_GE(fd, 0);
	memset(key, '\x01', sizeof(key) - 1);
	key[sizeof(key) - 1] = '\0';
	ASSERT_EQ(-1, sys_fsconfig(fd, FSCONFIG_SET_FLAG, key, NULL, 0));
	ASSERT_EQ(EINVAL, errno);
	/* Else the reader need not grow, or could double in two reads. */
	ASSERT_EQ(0, ioctl(fd, FIONREAD, &size));
	ASSERT_GT(size, 2 * FIRST_BUFFER);

	log = fclog_new(fd);
	ASSERT_NE(NULL, log);
	counted_fd = fd;
	counted_reads = 0;
	ASSERT_EQ(1, fclog_next(log, &rec)) TH_LOG("%s", fclog_error(log));
	counted_fd = -1;
	EXPECT_EQ(2, counted_reads);
	EXPECT_TRUE(rec->structured);
	EXPECT_EQ(FCLOG_ERROR, rec->level);
	EXPECT_EQ(FCLOG_EVENT_PARAM_REJECTED, rec->event);
	EXPECT_EQ(FCLOG_CAUSE_UNKNOWN_PARAM, rec->cause);
	EXPECT_EQ(FCLOG_OP_SET_FLAG, rec->op);
	EXPECT_EQ(EINVAL, rec->errnum);
	/* The key whole, in the report, the message and the line. */
	EXPECT_STREQ(key, rec->param);
	snprintf(want, sizeof(want), "Unknown parameter '%s'", key);
	EXPECT_STREQ(want, rec->msg);
	EXPECT_NE(NULL, strstr(rec->text, want));
	fclog_record_unref(rec);
	/* Nothing was lost or skipped on the way, and nothing is left. */
	EXPECT_EQ(0, fclog_next(log, &rec)) TH_LOG("%s", fclog_error(log));
	EXPECT_EQ(0, fclog_skipped(log));
	EXPECT_EQ(0, fclog_lost(log));
	fclog_free(log);
	close(fd);
}

/*
 * Start fclog-watch on context fd @fd (its fd 3), with "--idle @idle" unless
 * @idle is NULL; its stdout is the read end left in *@out.  The pid, or -1.
 */
static pid_t start_watcher(int fd, const char *idle, int *out)
{
	int pipefd[2];
	pid_t pid;

	if (pipe(pipefd))
		return -1;
	pid = fork();
	if (pid == 0) {
		/* dup2() clears FD_CLOEXEC, except on itself. */
		if (fd == 3)
			fcntl(3, F_SETFD, 0);
		dup2(fd, 3);
		dup2(pipefd[1], 1);
		execl("/bin/fclog-watch", "fclog-watch", "--fd", "3",
		      idle ? "--idle" : (char *)NULL, idle, (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	*out = pipefd[0];
	return pid;
}

/* fclog-watch, blocked in poll(), prints each record as it is logged. */
TEST(watcher_streams_records_written_while_it_waits)
{
	int fd, out, status, i;
	char buf[4096], key[8];
	ssize_t n, len = 0;
	pid_t pid;

	fd = sys_fsopen("tmpfs", FSOPEN_CLOEXEC | FSOPEN_STRUCTURED_LOG);
	if (fd < 0 && errno == EINVAL && !fctest_kernel_has_structured())
		SKIP(return, FCTEST_NEEDS_STRUCTURED);
	ASSERT_GE(fd, 0);
	pid = start_watcher(fd, "3", &out);
	ASSERT_GE(pid, 0);
	for (i = 1; i <= 3; i++) {
		usleep(300000);
		snprintf(key, sizeof(key), "w%d", i);
		ASSERT_EQ(-1, sys_fsconfig(fd, FSCONFIG_SET_FLAG, key, NULL, 0));
	}
	while ((n = read(out, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	buf[len] = '\0';
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_STREQ("error   tmpfs: Unknown parameter 'w1'\n"
		     "error   tmpfs: Unknown parameter 'w2'\n"
		     "error   tmpfs: Unknown parameter 'w3'\n", buf);
	close(out);
	close(fd);
}

/*
 * fclog-watch, with no idle limit, stops by itself once the context fails
 * for good: it prints what was logged, says so and exits 0.
 */
TEST(watcher_stops_when_the_context_fails)
{
	int fd, out, status, i;
	char buf[4096];
	ssize_t n, len = 0;
	pid_t pid;

	fd = sys_fsopen("sysfs", FSOPEN_CLOEXEC | FSOPEN_STRUCTURED_LOG);
	if (fd < 0 && errno == EINVAL && !fctest_kernel_has_structured())
		SKIP(return, FCTEST_NEEDS_STRUCTURED);
	ASSERT_GE(fd, 0);
	pid = start_watcher(fd, NULL, &out);
	ASSERT_GE(pid, 0);
	usleep(300000);
	/*
	 * /sys is mounted: CREATE_EXCL meets its superblock, and sysfs does
	 * not declare that a failed create left its context intact, so the
	 * context fails with it.
	 */
	ASSERT_EQ(-1, sys_fsconfig(fd, FSCONFIG_CMD_CREATE_EXCL, NULL, NULL,
				   0));
	ASSERT_EQ(EBUSY, errno);
	/* It must exit on its own, in well under 10 s. */
	for (i = 0; i < 100 && waitpid(pid, &status, WNOHANG) == 0; i++)
		usleep(100000);
	if (i == 100) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	ASSERT_LT(i, 100) TH_LOG("fclog-watch still waits on a failed context");
	while ((n = read(out, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	buf[len] = '\0';
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_NE(NULL, strstr(buf, "create_failed") ?: strstr(buf, "Create failed"))
		TH_LOG("%s", buf);
	EXPECT_NE(NULL, strstr(buf, "-- the context failed"));
	close(out);
	close(fd);
}

/* Run fclog-mount with @args; its stdout in @out, its exit status returned. */
static int fclog_mount(const char *args, char *out, size_t size)
{
	char cmd[256];
	size_t len;
	FILE *p;
	int status;

	snprintf(cmd, sizeof(cmd), "/bin/fclog-mount %s 2>/dev/null", args);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	len = fread(out, 1, size - 1, p);
	out[len] = '\0';
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(mount_tool_reports_a_refused_option)
{
	char out[1024];

	ASSERT_EQ(0, mkdir("/tmp/fclog-mount", 0755) && errno != EEXIST);
	/* 3: an option was refused; the record says which and why. */
	ASSERT_EQ(3, fclog_mount("-t tmpfs -o mode=0700,size=lots none /tmp/fclog-mount",
				 out, sizeof(out)));
	EXPECT_STREQ("error   tmpfs: Bad value for 'size'\n", out);
	ASSERT_EQ(3, fclog_mount("--json -t tmpfs -o nosuch none /tmp/fclog-mount",
				 out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "\"msg\":\"Unknown parameter 'nosuch'\""));
	EXPECT_NE(NULL, strstr(out, "\"level\":\"error\""));
}

TEST(mount_tool_mounts)
{
	struct stat tmp, mnt;
	char out[1024];

	ASSERT_EQ(0, mkdir("/tmp/fclog-mount2", 0755) && errno != EEXIST);
	ASSERT_EQ(0, fclog_mount("-t tmpfs -o size=1m,mode=0710 none /tmp/fclog-mount2",
				 out, sizeof(out)));
	EXPECT_STREQ("", out);
	ASSERT_EQ(0, stat("/tmp", &tmp));
	ASSERT_EQ(0, stat("/tmp/fclog-mount2", &mnt));
	EXPECT_NE(tmp.st_dev, mnt.st_dev);
	EXPECT_EQ(0710, mnt.st_mode & 07777);
	umount2("/tmp/fclog-mount2", MNT_DETACH);
}

TEST_HARNESS_MAIN
