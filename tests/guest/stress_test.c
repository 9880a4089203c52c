// SPDX-License-Identifier: GPL-2.0
/*
 * What userspace can do to the log, at scale: a million messages into one
 * context, ten thousand contexts closed with errors unread, readers and
 * writers racing on shared fds, and an unprivileged user namespace.  Run on
 * the patched and the debug kernel (KASAN, lockdep); skipped on stock,
 * which has neither bound nor structured records.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fclog.h"
#include "mount_api.h"
#include "fctest.h"
#include "kselftest_harness.h"

/*
 * The bound of a structured log's records, as the slab allocator sizes
 * them (FC_LOG_MAX_STRUCTURED_BYTES: a legacy log's 32 KiB is too small
 * for 64 structured records).
 */
#define STRUCTURED_LOG_BOUND	(64 * 1024)

FIXTURE(series) {
	char printk[64];
};

FIXTURE_SETUP(series)
{
	int fd;
	ssize_t n;

	if (!fctest_kernel_has_structured())
		SKIP(return, FCTEST_NEEDS_STRUCTURED);
	/* vfat prints every obsolete option to the console too: keep it quiet. */
	fd = open("/proc/sys/kernel/printk", O_RDONLY);
	ASSERT_GE(fd, 0);
	n = read(fd, self->printk, sizeof(self->printk) - 1);
	ASSERT_GT(n, 0);
	self->printk[n] = '\0';
	close(fd);
	ASSERT_EQ(0, fctest_write_file("/proc/sys/kernel/printk", "4"));
}

FIXTURE_TEARDOWN(series)
{
	if (self->printk[0])
		fctest_write_file("/proc/sys/kernel/printk", self->printk);
}

/*
 * One error, then a million warnings into one context: memory stays within
 * the bound (unreclaimable slab, where the records are), the error is still
 * there, and the last messages cost what the first ones did.  Under KASAN
 * (the debug kernel) a message costs a hundred times more and freed objects
 * wait in KASAN's quarantine, so there the flood is 20,000 messages and the
 * slab figure means nothing.
 */
TEST_F_TIMEOUT(series, a_million_messages, 600)
{
	const int debug = fctest_kernel_is("debug");
	const int total = debug ? 20000 : 1000000, tenth = total / 10;
	double t0, t_first = 0, t_last_start = 0, t_end;
	long before, after;
	struct fclog_record *rec;
	int fd, i, records = 0, markers = 0;
	fclog_t *log;

	ASSERT_EQ(0, pin_to_this_cpu());
	fd = sys_fsopen("vfat", FSOPEN_CLOEXEC | FSOPEN_STRUCTURED_LOG);
	ASSERT_GE(fd, 0);
	before = slab_bytes_of("SUnreclaim");
	ASSERT_EQ(-1, sys_fsconfig(fd, FSCONFIG_SET_FLAG, "nosuch", NULL, 0));
	t0 = now();
	for (i = 0; i < total; i++) {
		if (i == tenth)
			t_first = now() - t0;
		if (i == total - tenth)
			t_last_start = now();
		ASSERT_EQ(0, sys_fsconfig(fd, FSCONFIG_SET_FLAG, "posix", NULL, 0));
	}
	t_end = now();
	after = slab_bytes_of("SUnreclaim");
	TH_LOG("unreclaimable slab grew %ld bytes; "
	       "first 10%%: %.0f msg/s, last 10%%: %.0f msg/s",
	       after - before, tenth / t_first, tenth / (t_end - t_last_start));
	if (!debug)
		EXPECT_LE(after - before,
			  STRUCTURED_LOG_BOUND + STRUCTURED_LOG_BOUND / 8);
	/* Flat: the last tenth at least half as fast as the first. */
	EXPECT_LE(t_end - t_last_start, 2 * t_first);

	log = fclog_new(fd);
	ASSERT_NE(NULL, log);
	ASSERT_EQ(1, fclog_next(log, &rec));
	EXPECT_EQ(0, rec->seq);
	EXPECT_EQ(FCLOG_ERROR, rec->level);
	fclog_record_free(rec);
	records = 1;
	while (fclog_next(log, &rec) > 0) {
		EXPECT_EQ(FCLOG_WARNING, rec->level);
		if (rec->lost)
			markers++;
		else
			records++;
		fclog_record_free(rec);
	}
	/* The error, the marker of the warnings lost after it, the rest. */
	EXPECT_EQ(64, records);
	EXPECT_EQ(1, markers);
	EXPECT_EQ(total + 1 - records, fclog_lost(log));
	fclog_free(log);
	close(fd);
}

struct race {
	int fd;			/* a reader's own fd */
	int fds[2];		/* writer i logs through fds[i] */
	int writers_done;
	int writer;
	/* Results, per reader. */
	int read, timeouts_while_writing;
	unsigned long long lost;
	unsigned char *seen;	/* by seq, shared: a record read or a marker */
	pthread_mutex_t *lock;
	int duplicates;
};

#define PER_WRITER	5000
/*
 * Each refused parameter is one record, or two when a reader took the
 * filesystem's error before the kernel could add the rejection to it: the
 * rejection then comes in a record of its own.
 */
#define MAX_SEQ		(4 * PER_WRITER)

static void *race_writer(void *arg)
{
	struct race *r = arg;
	char key[32];
	int i;

	for (i = 0; i < PER_WRITER; i++) {
		snprintf(key, sizeof(key), "w%d-%d", r->writer, i);
		sys_fsconfig(r->fds[r->writer], FSCONFIG_SET_FLAG, key, NULL, 0);
	}
	return NULL;
}

static void *race_reader(void *arg)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct race *r = arg;
	struct fclog_record *rec;
	fclog_t *log = fclog_new(r->fd);
	int ep = epoll_create1(EPOLL_CLOEXEC), n, done;
	uint64_t seq, end;

	epoll_ctl(ep, EPOLL_CTL_ADD, r->fd, &ev);
	for (;;) {
		done = __atomic_load_n(&r->writers_done, __ATOMIC_ACQUIRE);
		n = epoll_wait(ep, &ev, 1, 2000);
		/* Writers log without pause: silence while they do is a lost wakeup. */
		if (n == 0 && !done &&
		    !__atomic_load_n(&r->writers_done, __ATOMIC_ACQUIRE))
			r->timeouts_while_writing++;
		while (fclog_next(log, &rec) > 0) {
			/* A marker covers the records it stands for. */
			end = rec->seq + (rec->lost ? rec->lost : 1);
			pthread_mutex_lock(r->lock);
			for (seq = rec->seq; seq < end; seq++)
				if (seq >= MAX_SEQ || r->seen[seq]++)
					r->duplicates++;
			pthread_mutex_unlock(r->lock);
			if (!rec->lost)
				r->read++;
			fclog_record_free(rec);
		}
		if (done)
			break;
	}
	r->lost = fclog_lost(log);
	fclog_free(log);
	close(ep);
	return NULL;
}

/*
 * Two writers and two readers, each pair split between the fd and a dup,
 * race on one log, readers woken by epoll: every message is either read or
 * covered by a marker of lost records, exactly once, by one of the readers.
 */
TEST_F_TIMEOUT(series, readers_and_writers_race, 300)
{
	static unsigned char seen[MAX_SEQ];
	pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	struct race readers[2], writers[2];
	pthread_t rt[2], wt[2];
	int fds[2], i, done = 0;

	fds[0] = sys_fsopen("tmpfs", FSOPEN_CLOEXEC | FSOPEN_STRUCTURED_LOG);
	ASSERT_GE(fds[0], 0);
	fds[1] = dup(fds[0]);
	ASSERT_GE(fds[1], 0);
	for (i = 0; i < 2; i++) {
		readers[i] = (struct race){ .fd = fds[i], .seen = seen,
					    .lock = &lock };
		writers[i] = (struct race){ .fds = { fds[0], fds[1] },
					    .writer = i };
		ASSERT_EQ(0, pthread_create(&rt[i], NULL, race_reader,
					    &readers[i]));
	}
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, pthread_create(&wt[i], NULL, race_writer,
					    &writers[i]));
	for (i = 0; i < 2; i++)
		pthread_join(wt[i], NULL);
	done = 1;
	for (i = 0; i < 2; i++)
		__atomic_store_n(&readers[i].writers_done, done, __ATOMIC_RELEASE);
	for (i = 0; i < 2; i++)
		pthread_join(rt[i], NULL);

	TH_LOG("read %d + %d, lost %llu + %llu", readers[0].read,
	       readers[1].read, readers[0].lost, readers[1].lost);
	EXPECT_EQ(0, readers[0].duplicates + readers[1].duplicates);
	/*
	 * Every message, read or lost, was told to exactly one reader: the
	 * sequence numbers they saw run from 0, without a hole, at least as
	 * far as there were refused parameters.
	 */
	for (i = 0; i < MAX_SEQ; i++)
		if (seen[i] != 1)
			break;
	EXPECT_LE(2 * PER_WRITER, i);
	while (i < MAX_SEQ && !seen[i])
		i++;
	EXPECT_EQ(MAX_SEQ, i) TH_LOG("seq %d seen %d times", i, seen[i]);
	for (i = 0; i < MAX_SEQ && seen[i]; i++)
		;
	EXPECT_EQ(0, readers[0].timeouts_while_writing +
		     readers[1].timeouts_while_writing);
	EXPECT_EQ(i, readers[0].read + readers[1].read +
		     readers[0].lost + readers[1].lost);
	close(fds[0]);
	close(fds[1]);
}

/*
 * An unprivileged user in its own user and mount namespaces: tmpfs mounts,
 * and its structured records hold its own messages and nothing else.
 */
TEST_F(series, unprivileged_user_namespace)
{
	pid_t pid;
	int status;

	ASSERT_EQ(0, mkdir("/tmp/userns", 0777) && errno != EEXIST);
	ASSERT_EQ(0, chmod("/tmp/userns", 0777));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		char map[32], buf[FCTEST_READ_MAX];
		int fd, mfd;
		ssize_t n;

		if (setresgid(1000, 1000, 1000) || setresuid(1000, 1000, 1000))
			_exit(10);
		/* Changing uid made us undumpable: /proc/self would stay root's. */
		if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
			_exit(10);
		if (unshare(CLONE_NEWUSER | CLONE_NEWNS))
			_exit(11);
		snprintf(map, sizeof(map), "0 1000 1");
		if (fctest_write_file("/proc/self/setgroups", "deny") ||
		    fctest_write_file("/proc/self/uid_map", map) ||
		    fctest_write_file("/proc/self/gid_map", map))
			_exit(12);
		fd = sys_fsopen("tmpfs", FSOPEN_CLOEXEC | FSOPEN_STRUCTURED_LOG);
		if (fd < 0)
			_exit(13);
		if (sys_fsconfig(fd, FSCONFIG_SET_FLAG, "inside", NULL, 0) == 0)
			_exit(14);
		n = read(fd, buf, sizeof(buf) - 1);
		if (n <= 0)
			_exit(15);
		buf[n] = '\0';
		/* Our own first record, whole; nothing before or after it. */
		if (strcmp(buf, "e tmpfs: Unknown parameter 'inside'\n") ||
		    strcmp(buf + strlen(buf) + 1,
			   "{\"seq\":0,\"level\":\"error\",\"source\":\"tmpfs\","
			   "\"msg\":\"Unknown parameter 'inside'\","
			   "\"event\":\"param_rejected\","
			   "\"cause\":\"unknown_param\",\"param\":\"inside\","
			   "\"errno\":22,\"op\":\"set_flag\"}"))
			_exit(16);
		if (read(fd, buf, sizeof(buf)) != -1 || errno != ENODATA)
			_exit(17);
		if (sys_fsconfig(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0))
			_exit(18);
		mfd = sys_fsmount(fd, FSMOUNT_CLOEXEC, 0);
		if (mfd < 0 || sys_move_mount(mfd, "", AT_FDCWD, "/tmp/userns",
					      MOVE_MOUNT_F_EMPTY_PATH))
			_exit(19);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST_HARNESS_MAIN
