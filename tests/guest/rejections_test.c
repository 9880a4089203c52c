// SPDX-License-Identifier: GPL-2.0
/*
 * Every kind of report the kernel writes, read through libfclog from a real
 * kernel into the struct a runtime acts on: tmpfs parameters refused
 * (param_rejected, with their causes), a debugfs CREATE_EXCL that meets the
 * superblock (sb_conflict, then a recoverable create_failed) and a CREATE
 * that shares it (sb_shared), an ext4 source refused at create, a create
 * refused for want of privilege, a sysfs create that fails for good (sysfs
 * declares nothing), a tmpfs reconfigure refused and retried on the same
 * fd, and parameters of filesystems the series never touched (vfat, proc)
 * refused all the same.  The kernel's side of the same reports is tested by
 * the series' filesystems/fsconfig_report kselftest; this is the reader.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "fclog.h"
#include "fctest.h"
#include "mount_api.h"
#include "kselftest_harness.h"

/*
 * A structured context that asks for retries (FSOPEN_RETRY), and its
 * reader, or the test skipped on stock.
 */
#define OPEN(fd, log, type) do {					\
	fd = sys_fsopen(type, FSOPEN_CLOEXEC | FSOPEN_STRUCTURED_LOG |	\
			      FSOPEN_RETRY);				\
	if (fd < 0 && errno == EINVAL && !fctest_kernel_has_structured())	\
		SKIP(return, FCTEST_NEEDS_STRUCTURED);	\
	ASSERT_GE(fd, 0) TH_LOG("fsopen(%s): %s", type, strerror(errno)); \
	log = fclog_new(fd);						\
	ASSERT_NE(NULL, log);						\
} while (0)

/* Read every pending record; the reader keeps the rejections. */
static int drain(fclog_t *log)
{
	struct fclog_record *rec;
	int r;

	while ((r = fclog_next(log, &rec)) > 0)
		fclog_record_free(rec);
	return r;
}

/* The latest record read with @event, among the reader's rejections. */
static const struct fclog_record *find(fclog_t *log, enum fclog_event event)
{
	const struct fclog_record *found = NULL;
	size_t i;

	for (i = 0; i < fclog_rejections(log); i++)
		if (fclog_rejection(log, i)->event == event)
			found = fclog_rejection(log, i);
	return found;
}

static const struct {
	unsigned int cmd;
	const char *key, *value;
	enum fclog_cause cause;
	enum fclog_op expected, op;
} tmpfs_cases[] = {
	{ FSCONFIG_SET_FLAG, "nosuchopt", NULL, FCLOG_CAUSE_UNKNOWN_PARAM,
	  FCLOG_OP_NONE, FCLOG_OP_SET_FLAG },
	{ FSCONFIG_SET_STRING, "size", "abc", FCLOG_CAUSE_BAD_VALUE,
	  FCLOG_OP_NONE, FCLOG_OP_SET_STRING },
	/* A flag given a value, a value given as a flag. */
	{ FSCONFIG_SET_STRING, "inode64", "yes", FCLOG_CAUSE_WRONG_TYPE,
	  FCLOG_OP_SET_FLAG, FCLOG_OP_SET_STRING },
	{ FSCONFIG_SET_FLAG, "mode", NULL, FCLOG_CAUSE_WRONG_TYPE,
	  FCLOG_OP_SET_STRING, FCLOG_OP_SET_FLAG },
};

/* Each refused tmpfs parameter, as the struct a runtime reads. */
TEST(tmpfs_rejections_parse_into_structs)
{
	const struct fclog_record *rej;
	unsigned int i;
	fclog_t *log;
	int fd;

	OPEN(fd, log, "tmpfs");
	for (i = 0; i < sizeof(tmpfs_cases) / sizeof(tmpfs_cases[0]); i++) {
		fclog_reset(log);
		ASSERT_EQ(-1, sys_fsconfig(fd, tmpfs_cases[i].cmd,
					   tmpfs_cases[i].key,
					   tmpfs_cases[i].value, 0));
		ASSERT_EQ(0, drain(log)) TH_LOG("%s", fclog_error(log));
		rej = fclog_rejected(log, tmpfs_cases[i].key);
		ASSERT_NE(NULL, rej) TH_LOG("case %u", i);
		EXPECT_TRUE(fclog_record_is_rejection(rej));
		EXPECT_EQ(FCLOG_ERROR, rej->level);
		EXPECT_EQ(FCLOG_EVENT_PARAM_REJECTED, rej->event)
			TH_LOG("case %u", i);
		EXPECT_EQ(tmpfs_cases[i].cause, rej->cause)
			TH_LOG("case %u: %s", i, rej->cause_name);
		EXPECT_EQ(tmpfs_cases[i].expected, rej->expected)
			TH_LOG("case %u", i);
		EXPECT_EQ(EINVAL, rej->errnum);
		EXPECT_EQ(tmpfs_cases[i].op, rej->op);
		/* Only the outcome of a create or reconfigure says that. */
		EXPECT_EQ(FCLOG_TRI_UNKNOWN, rej->recoverable);
		if (tmpfs_cases[i].value) {
			EXPECT_STREQ(tmpfs_cases[i].value, rej->value);
		} else {
			EXPECT_EQ(NULL, rej->value);
		}
		/* Refused parameters leave the context usable. */
		EXPECT_EQ(FCLOG_TRI_TRUE, fclog_recoverable(log));
	}
	EXPECT_EQ(0, fclog_skipped(log));
	/* ... and it is: it creates. */
	EXPECT_EQ(0, sys_fsconfig(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0));
	fclog_free(log);
	close(fd);
}

/*
 * CREATE_EXCL on debugfs, which is mounted with mode=0700: sb_conflict,
 * which compares nothing (no verdict), and a recoverable create_failed;
 * then CREATE on the same fd: sb_shared with mode=0755 compared as
 * differing, the mode applied.
 */
TEST(debugfs_exclusive_then_share)
{
	const struct fclog_record *rec;
	fclog_t *log, *first_log;
	int fd, first, mfd, found = 0;
	struct fclog_record *r;

	/*
	 * Make sure the superblock exists, whatever else is mounted, with
	 * mode=0700 whatever tests before set (debugfs applies a shared
	 * superblock's new mode).
	 */
	OPEN(first, first_log, "debugfs");
	ASSERT_EQ(0, sys_fsconfig(first, FSCONFIG_SET_STRING, "mode", "0700", 0));
	ASSERT_EQ(0, sys_fsconfig(first, FSCONFIG_CMD_CREATE, NULL, NULL, 0));
	mfd = sys_fsmount(first, FSMOUNT_CLOEXEC, 0);
	ASSERT_GE(mfd, 0);

	OPEN(fd, log, "debugfs");
	ASSERT_EQ(0, sys_fsconfig(fd, FSCONFIG_SET_STRING, "mode", "0755", 0));
	ASSERT_EQ(-1, sys_fsconfig(fd, FSCONFIG_CMD_CREATE_EXCL, NULL, NULL,
				   0));
	ASSERT_EQ(EBUSY, errno);
	ASSERT_EQ(0, drain(log)) TH_LOG("%s", fclog_error(log));

	rec = find(log, FCLOG_EVENT_SB_CONFLICT);
	ASSERT_NE(NULL, rec);
	EXPECT_EQ(FCLOG_WARNING, rec->level);
	EXPECT_EQ(FCLOG_CAUSE_EXCLUSIVE, rec->cause);
	EXPECT_EQ(EBUSY, rec->errnum);
	EXPECT_EQ(FCLOG_OP_CREATE_EXCL, rec->op);
	EXPECT_STREQ("debugfs", rec->sb_type);
	EXPECT_STREQ("debugfs", rec->sb_id);
	EXPECT_EQ(FCLOG_TRI_UNKNOWN, rec->recoverable);
	/* CREATE_EXCL refuses whatever it meets: nothing compared. */
	EXPECT_EQ(FCLOG_VERDICT_NONE, rec->verdict);
	EXPECT_EQ(NULL, rec->verdict_name);
	EXPECT_EQ(NULL, rec->params);
	EXPECT_EQ(0, rec->nparams);
	EXPECT_FALSE(rec->params_truncated);
	EXPECT_FALSE(rec->params_unlisted);
	EXPECT_EQ(FCLOG_TRI_UNKNOWN, rec->params_applied);
	rec = find(log, FCLOG_EVENT_CREATE_FAILED);
	ASSERT_NE(NULL, rec);
	EXPECT_EQ(FCLOG_CAUSE_EXCLUSIVE, rec->cause);
	EXPECT_EQ(EBUSY, rec->errnum);
	EXPECT_EQ(FCLOG_OP_CREATE_EXCL, rec->op);
	EXPECT_EQ(FCLOG_TRI_TRUE, rec->recoverable);
	EXPECT_EQ(FCLOG_TRI_TRUE, fclog_recoverable(log));

	/* sb_shared is a note, not a rejection: read it as a record. */
	fclog_reset(log);
	ASSERT_EQ(0, sys_fsconfig(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0));
	while (fclog_next(log, &r) > 0) {
		if (r->event == FCLOG_EVENT_SB_SHARED) {
			found = 1;
			EXPECT_FALSE(fclog_record_is_rejection(r));
			EXPECT_EQ(FCLOG_INFO, r->level);
			EXPECT_EQ(FCLOG_OP_CREATE, r->op);
			EXPECT_EQ(FCLOG_CAUSE_NONE, r->cause);
			EXPECT_STREQ("debugfs", r->sb_type);
			/*
			 * Compared by the CREATE that shares it, as it was
			 * found, before the mode was applied.
			 */
			EXPECT_EQ(FCLOG_VERDICT_INCOMPATIBLE, r->verdict);
			EXPECT_EQ(1, r->nparams);
			if (r->nparams == 1) {
				EXPECT_STREQ("mode", r->params[0].name);
				EXPECT_EQ(FCLOG_MATCH_DIFFERS,
					  r->params[0].match);
			}
			EXPECT_EQ(FCLOG_TRI_TRUE, r->params_applied);
		}
		fclog_record_free(r);
	}
	EXPECT_TRUE(found);
	EXPECT_EQ(0, fclog_rejections(log));
	fclog_free(log);
	close(fd);
	close(mfd);
	fclog_free(first_log);
	close(first);
}

/*
 * ext4 declares that get_tree_bdev()'s failures before the device is
 * opened leave the context as it was: a source refused at create is a
 * param_rejected naming it, create_failed says recoverable, and the same
 * fd takes parameters again.
 */
TEST(ext4_wrong_source_can_retry)
{
	static const struct {
		const char *source;	/* NULL: none given */
		enum fclog_cause cause;
		int err;
	} sources[] = {
		{ "/proc", FCLOG_CAUSE_NOT_BLOCKDEV, ENOTBLK },
		{ "/nonexistent", FCLOG_CAUSE_NOT_FOUND, ENOENT },
		{ NULL, FCLOG_CAUSE_MISSING, EINVAL },
	};
	const struct fclog_record *rec;
	unsigned int i;
	fclog_t *log;
	int fd;

	for (i = 0; i < sizeof(sources) / sizeof(sources[0]); i++) {
		/* "source" may be given once: a new fd for each. */
		OPEN(fd, log, "ext4");
		if (sources[i].source)
			ASSERT_EQ(0, sys_fsconfig(fd, FSCONFIG_SET_STRING,
						  "source", sources[i].source,
						  0));
		ASSERT_EQ(-1, sys_fsconfig(fd, FSCONFIG_CMD_CREATE, NULL, NULL,
					   0));
		ASSERT_EQ(sources[i].err, errno) TH_LOG("case %u", i);
		ASSERT_EQ(0, drain(log)) TH_LOG("%s", fclog_error(log));
		rec = fclog_rejected(log, "source");
		ASSERT_NE(NULL, rec) TH_LOG("case %u", i);
		EXPECT_EQ(FCLOG_EVENT_PARAM_REJECTED, rec->event);
		EXPECT_EQ(sources[i].cause, rec->cause) TH_LOG("case %u: %s", i,
							       rec->cause_name);
		EXPECT_EQ(sources[i].err, rec->errnum);
		EXPECT_EQ(FCLOG_OP_CREATE, rec->op);
		EXPECT_EQ(FCLOG_TRI_UNKNOWN, rec->recoverable);
		if (sources[i].source) {
			EXPECT_STREQ(sources[i].source, rec->value);
		} else {
			EXPECT_EQ(NULL, rec->value);
		}
		rec = find(log, FCLOG_EVENT_CREATE_FAILED);
		ASSERT_NE(NULL, rec) TH_LOG("case %u", i);
		EXPECT_EQ(sources[i].cause, rec->cause);
		EXPECT_EQ(sources[i].err, rec->errnum);
		EXPECT_EQ(FCLOG_OP_CREATE, rec->op);
		EXPECT_EQ(FCLOG_TRI_TRUE, rec->recoverable);
		EXPECT_EQ(FCLOG_TRI_TRUE, fclog_recoverable(log));
		EXPECT_EQ(0, sys_fsconfig(fd, FSCONFIG_SET_FLAG, "ro", NULL, 0))
			TH_LOG("case %u: %s", i, strerror(errno));
		if (!sources[i].source) {
			EXPECT_EQ(0, sys_fsconfig(fd, FSCONFIG_SET_STRING,
						  "source", "/proc", 0));
		}
		fclog_free(log);
		close(fd);
	}
}

/*
 * sysfs declares nothing: its CREATE_EXCL conflict is reported, but the
 * context fails as it does on a kernel without the series, and the reader
 * says so before the next call finds out with EBUSY.
 */
TEST(sysfs_failed_create_is_final)
{
	const struct fclog_record *rec;
	fclog_t *log;
	int fd;

	OPEN(fd, log, "sysfs");
	ASSERT_EQ(-1, sys_fsconfig(fd, FSCONFIG_CMD_CREATE_EXCL, NULL, NULL,
				   0));
	ASSERT_EQ(EBUSY, errno);
	ASSERT_EQ(0, drain(log)) TH_LOG("%s", fclog_error(log));
	rec = find(log, FCLOG_EVENT_SB_CONFLICT);
	ASSERT_NE(NULL, rec);
	EXPECT_EQ(FCLOG_CAUSE_EXCLUSIVE, rec->cause);
	EXPECT_STREQ("sysfs", rec->sb_type);
	EXPECT_EQ(FCLOG_TRI_UNKNOWN, rec->recoverable);
	rec = find(log, FCLOG_EVENT_CREATE_FAILED);
	ASSERT_NE(NULL, rec);
	EXPECT_EQ(FCLOG_CAUSE_EXCLUSIVE, rec->cause);
	EXPECT_EQ(EBUSY, rec->errnum);
	EXPECT_EQ(FCLOG_OP_CREATE_EXCL, rec->op);
	EXPECT_EQ(FCLOG_TRI_FALSE, rec->recoverable);
	EXPECT_EQ(FCLOG_TRI_FALSE, fclog_recoverable(log));
	EXPECT_EQ(-1, sys_fsconfig(fd, FSCONFIG_SET_FLAG, "ro", NULL, 0));
	EXPECT_EQ(EBUSY, errno);
	EXPECT_EQ(-1, sys_fsconfig(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0));
	EXPECT_EQ(EBUSY, errno);
	fclog_free(log);
	close(fd);
}

/*
 * sysfs does not compare: CREATE_COMPATIBLE refuses the superblock in use
 * as it cannot vouch for it (sb_conflict unverifiable, verdict unknown,
 * nothing set, EBUSY), and sysfs declares no retry: create_failed says
 * the context cannot be used again.  A new context then CREATEs: sysfs
 * shares the superblock in use, and, not comparing, can only call it
 * unknown (nothing set, nothing listed).
 */
TEST(sysfs_compatible_is_unverifiable)
{
	const struct fclog_record *rec;
	struct fclog_record *r;
	fclog_t *log;
	int fd, mfd, shared = 0;

	OPEN(fd, log, "sysfs");
	ASSERT_EQ(-1, sys_fsconfig(fd, FSCONFIG_CMD_CREATE_COMPATIBLE, NULL,
				   NULL, 0));
	ASSERT_EQ(EBUSY, errno);
	ASSERT_EQ(0, drain(log)) TH_LOG("%s", fclog_error(log));
	rec = find(log, FCLOG_EVENT_SB_CONFLICT);
	ASSERT_NE(NULL, rec);
	EXPECT_EQ(FCLOG_WARNING, rec->level);
	EXPECT_STREQ("sysfs", rec->source);
	EXPECT_EQ(FCLOG_CAUSE_UNVERIFIABLE, rec->cause);
	EXPECT_EQ(EBUSY, rec->errnum);
	EXPECT_EQ(FCLOG_OP_CREATE_COMPATIBLE, rec->op);
	EXPECT_EQ(FCLOG_VERDICT_UNKNOWN, rec->verdict);
	EXPECT_STREQ("sysfs", rec->sb_type);
	EXPECT_EQ(0, rec->nparams);
	rec = find(log, FCLOG_EVENT_CREATE_FAILED);
	ASSERT_NE(NULL, rec);
	EXPECT_EQ(FCLOG_CAUSE_UNVERIFIABLE, rec->cause);
	EXPECT_EQ(EBUSY, rec->errnum);
	EXPECT_EQ(FCLOG_TRI_FALSE, rec->recoverable);
	EXPECT_EQ(FCLOG_TRI_FALSE, fclog_recoverable(log));
	EXPECT_EQ(-1, sys_fsconfig(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0));
	EXPECT_EQ(EBUSY, errno);
	fclog_free(log);
	close(fd);

	OPEN(fd, log, "sysfs");
	ASSERT_EQ(0, sys_fsconfig(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0))
		TH_LOG("create: %s", strerror(errno));
	while (fclog_next(log, &r) > 0) {
		if (r->event == FCLOG_EVENT_SB_SHARED) {
			shared = 1;
			EXPECT_EQ(FCLOG_OP_CREATE, r->op);
			EXPECT_STREQ("sysfs", r->sb_type);
			EXPECT_EQ(FCLOG_VERDICT_UNKNOWN, r->verdict)
				TH_LOG("%s", r->verdict_name ?: "no verdict");
			EXPECT_NE(NULL, r->params);
			EXPECT_EQ(0, r->nparams);
			EXPECT_FALSE(r->params_unlisted);
			EXPECT_EQ(FCLOG_TRI_FALSE, r->params_applied);
		}
		fclog_record_free(r);
	}
	EXPECT_TRUE(shared);
	EXPECT_EQ(0, fclog_rejections(log));
	mfd = sys_fsmount(fd, FSMOUNT_CLOEXEC, 0);
	EXPECT_LE(0, mfd);
	if (mfd >= 0)
		close(mfd);
	fclog_free(log);
	close(fd);
}

/*
 * Root of a user namespace of its own, but not of the initial one: ext4
 * (not FS_USERNS_MOUNT) refuses the create before trying anything, with the
 * cause permission, and the context takes parameters again.  The harness
 * runs each test in a process of its own.
 */
TEST(create_without_privilege_can_retry)
{
	const struct fclog_record *rec;
	fclog_t *log;
	int fd;

	if (setresgid(1000, 1000, 1000) || setresuid(1000, 1000, 1000))
		SKIP(return, "cannot become uid 1000: %s", strerror(errno));
	/* Changing uid made us undumpable: /proc/self would stay root's. */
	ASSERT_EQ(0, prctl(PR_SET_DUMPABLE, 1, 0, 0, 0));
	if (unshare(CLONE_NEWUSER | CLONE_NEWNS))
		SKIP(return, "no user namespaces: %s", strerror(errno));
	ASSERT_EQ(0, fctest_write_file("/proc/self/setgroups", "deny"));
	ASSERT_EQ(0, fctest_write_file("/proc/self/uid_map", "0 1000 1"));
	ASSERT_EQ(0, fctest_write_file("/proc/self/gid_map", "0 1000 1"));

	OPEN(fd, log, "ext4");
	ASSERT_EQ(-1, sys_fsconfig(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0));
	ASSERT_EQ(EPERM, errno);
	ASSERT_EQ(0, drain(log)) TH_LOG("%s", fclog_error(log));
	rec = find(log, FCLOG_EVENT_CREATE_FAILED);
	ASSERT_NE(NULL, rec);
	EXPECT_EQ(FCLOG_CAUSE_PERMISSION, rec->cause)
		TH_LOG("%s", rec->cause_name);
	EXPECT_EQ(EPERM, rec->errnum);
	EXPECT_EQ(FCLOG_OP_CREATE, rec->op);
	EXPECT_EQ(FCLOG_TRI_TRUE, rec->recoverable);
	EXPECT_EQ(FCLOG_TRI_TRUE, fclog_recoverable(log));
	EXPECT_EQ(0, sys_fsconfig(fd, FSCONFIG_SET_FLAG, "ro", NULL, 0));
	fclog_free(log);
	close(fd);
}

/*
 * tmpfs checks a reconfigure before it changes anything, and says so: one
 * that fails (fewer inodes than in use) leaves the context, opened with
 * FSPICK_RETRY, taking parameters, reconfigure_failed says recoverable, and a RECONFIGURE with
 * a better value then succeeds on the same fd.
 */
TEST(tmpfs_failed_reconfigure_can_retry)
{
	const struct fclog_record *rec;
	static char fill[16384];
	int fd, mfd, pfd;
	struct statfs sfs;
	fclog_t *log;

	OPEN(fd, log, "tmpfs");
	fclog_free(log);
	ASSERT_EQ(0, sys_fsconfig(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0));
	mfd = sys_fsmount(fd, FSMOUNT_CLOEXEC, 0);
	ASSERT_GE(mfd, 0);
	close(fd);
	/* More inodes in use than asked for below: the root and this. */
	fd = openat(mfd, "fill", O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(sizeof(fill), write(fd, fill, sizeof(fill)));
	close(fd);

	pfd = sys_fspick(mfd, "", FSPICK_EMPTY_PATH | FSPICK_CLOEXEC |
				  FSPICK_STRUCTURED_LOG | FSPICK_RETRY);
	ASSERT_GE(pfd, 0);
	log = fclog_new(pfd);
	ASSERT_NE(NULL, log);
	ASSERT_EQ(0, sys_fsconfig(pfd, FSCONFIG_SET_STRING, "nr_inodes", "1",
				  0));
	ASSERT_EQ(-1, sys_fsconfig(pfd, FSCONFIG_CMD_RECONFIGURE, NULL, NULL,
				   0));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(0, drain(log)) TH_LOG("%s", fclog_error(log));
	rec = find(log, FCLOG_EVENT_RECONFIGURE_FAILED);
	ASSERT_NE(NULL, rec);
	EXPECT_EQ(EINVAL, rec->errnum);
	EXPECT_EQ(FCLOG_OP_RECONFIGURE, rec->op);
	EXPECT_EQ(FCLOG_TRI_TRUE, rec->recoverable);
	EXPECT_EQ(FCLOG_TRI_TRUE, fclog_recoverable(log));

	/* The context kept nr_inodes=1: ask for enough instead. */
	fclog_reset(log);
	ASSERT_EQ(0, sys_fsconfig(pfd, FSCONFIG_SET_STRING, "nr_inodes", "100",
				  0)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, sys_fsconfig(pfd, FSCONFIG_CMD_RECONFIGURE, NULL, NULL,
				  0)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, drain(log)) TH_LOG("%s", fclog_error(log));
	EXPECT_EQ(0, fclog_rejections(log));
	ASSERT_EQ(0, fstatfs(mfd, &sfs));
	EXPECT_EQ(100, sfs.f_files);
	fclog_free(log);
	close(pfd);
	close(mfd);
}

/* One refused call on @fd: its only rejection, in *@rec (NULL if none). */
#define REFUSE(fd, log, rec, cmd, key, value) do {			\
	fclog_reset(log);						\
	ASSERT_EQ(-1, sys_fsconfig(fd, cmd, key, value, 0));		\
	ASSERT_EQ(EINVAL, errno);					\
	ASSERT_EQ(0, drain(log)) TH_LOG("%s", fclog_error(log));	\
	ASSERT_EQ(1, fclog_rejections(log)) TH_LOG("%s", key);		\
	rec = fclog_rejected(log, key);					\
	ASSERT_NE(NULL, rec) TH_LOG("%s", key);				\
} while (0)

/*
 * vfat's parameters were never touched by the series, yet a refused one is
 * a param_rejected all the same: with the cause fs_parser gives (an
 * unknown key), or with none when vfat refuses a value without a word
 * (time_offset out of range), in a record of its own.  A deprecated flag
 * is a param_deprecated warning, not a rejection.
 */
TEST(vfat_parameters_are_reported)
{
	const struct fclog_record *rec;
	struct fclog_record *r;
	fclog_t *log;
	int fd, n = 0;

	OPEN(fd, log, "vfat");
	REFUSE(fd, log, rec, FSCONFIG_SET_FLAG, "nosuch", NULL);
	EXPECT_EQ(FCLOG_EVENT_PARAM_REJECTED, rec->event);
	EXPECT_EQ(FCLOG_CAUSE_UNKNOWN_PARAM, rec->cause);
	EXPECT_EQ(EINVAL, rec->errnum);
	EXPECT_EQ(FCLOG_OP_SET_FLAG, rec->op);
	EXPECT_STREQ("vfat", rec->source);

	REFUSE(fd, log, rec, FSCONFIG_SET_STRING, "time_offset", "100000");
	EXPECT_EQ(FCLOG_EVENT_PARAM_REJECTED, rec->event);
	EXPECT_EQ(FCLOG_CAUSE_NONE, rec->cause) TH_LOG("%s", rec->cause_name);
	EXPECT_EQ(NULL, rec->cause_name);
	/* No cause about it: the value, maybe a secret, is not told back. */
	EXPECT_EQ(NULL, rec->value);
	EXPECT_EQ(EINVAL, rec->errnum);
	EXPECT_EQ(FCLOG_OP_SET_STRING, rec->op);
	EXPECT_EQ(FCLOG_ERROR, rec->level);
	EXPECT_TRUE(rec->structured);
	/* vfat logged nothing: the kernel's own record, structured only. */
	EXPECT_STREQ("vfat", rec->source);
	EXPECT_STREQ("Parameter 'time_offset' refused", rec->msg);
	EXPECT_EQ(FCLOG_TRI_TRUE, fclog_recoverable(log));

	fclog_reset(log);
	ASSERT_EQ(0, sys_fsconfig(fd, FSCONFIG_SET_FLAG, "posix", NULL, 0));
	while (fclog_next(log, &r) > 0) {
		if (r->event == FCLOG_EVENT_PARAM_DEPRECATED) {
			n++;
			EXPECT_EQ(FCLOG_WARNING, r->level);
			EXPECT_STREQ("posix", r->param);
			EXPECT_EQ(FCLOG_OP_SET_FLAG, r->op);
			EXPECT_EQ(0, r->errnum);
			EXPECT_FALSE(fclog_record_is_rejection(r));
		}
		fclog_record_free(r);
	}
	EXPECT_EQ(1, n);
	EXPECT_EQ(0, fclog_rejections(log));
	fclog_free(log);
	close(fd);
}

/*
 * proc, which the series never touched either: a value it refuses with a
 * message of its own (no cause), and a key it does not have (unknown_param,
 * from the VFS).  Neither value is about the cause: neither is told back.
 */
TEST(proc_parameters_are_reported)
{
	const struct fclog_record *rec;
	fclog_t *log;
	int fd;

	OPEN(fd, log, "proc");
	REFUSE(fd, log, rec, FSCONFIG_SET_STRING, "hidepid", "bogus");
	EXPECT_EQ(FCLOG_EVENT_PARAM_REJECTED, rec->event);
	EXPECT_EQ(FCLOG_CAUSE_NONE, rec->cause) TH_LOG("%s", rec->cause_name);
	EXPECT_EQ(NULL, rec->value);
	EXPECT_EQ(EINVAL, rec->errnum);
	EXPECT_EQ(FCLOG_OP_SET_STRING, rec->op);
	EXPECT_EQ(FCLOG_ERROR, rec->level);

	REFUSE(fd, log, rec, FSCONFIG_SET_STRING, "nosuchkey", "1");
	EXPECT_EQ(FCLOG_EVENT_PARAM_REJECTED, rec->event);
	EXPECT_EQ(FCLOG_CAUSE_UNKNOWN_PARAM, rec->cause)
		TH_LOG("%s", rec->cause_name);
	EXPECT_EQ(NULL, rec->value);
	EXPECT_EQ(EINVAL, rec->errnum);
	EXPECT_EQ(FCLOG_OP_SET_STRING, rec->op);
	EXPECT_EQ(FCLOG_TRI_TRUE, fclog_recoverable(log));
	fclog_free(log);
	close(fd);
}

TEST_HARNESS_MAIN
