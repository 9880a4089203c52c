// SPDX-License-Identifier: GPL-2.0
/*
 * Every kind of report the kernel writes, read through libfclog from a real
 * kernel into the struct a runtime acts on: tmpfs rejections, a debugfs
 * CREATE_EXCL that finds the superblock then a CREATE that reuses it, an
 * ext4 source that is not a block device, a tmpfs reconfigure refused.
 * The kernel's side of the same reports is tested by the series'
 * fc_log_reject_test; this is the reader.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "fclog.h"
#include "fctest.h"
#include "mount_api.h"
#include "kselftest_harness.h"

/* A structured context and its reader, or the test skipped on stock. */
#define OPEN(fd, log, type) do {					\
	fd = sys_fsopen(type, FSOPEN_CLOEXEC | FSOPEN_STRUCTURED_LOG);	\
	if (fd < 0 && errno == EINVAL && !fctest_kernel_has_series())	\
		SKIP(return, "no structured logs on this kernel");	\
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

/* The latest record read with @reason, among the reader's rejections. */
static const struct fclog_record *find(fclog_t *log, enum fclog_reason reason)
{
	const struct fclog_record *found = NULL;
	size_t i;

	for (i = 0; i < fclog_rejections(log); i++)
		if (fclog_rejection(log, i)->reason == reason)
			found = fclog_rejection(log, i);
	return found;
}

static const struct {
	unsigned int cmd;
	const char *key, *value;
	enum fclog_reason reason;
	enum fclog_op op;
} tmpfs_cases[] = {
	{ FSCONFIG_SET_FLAG, "nosuchopt", NULL, FCLOG_REASON_UNKNOWN_PARAM,
	  FCLOG_OP_SET_FLAG },
	{ FSCONFIG_SET_STRING, "size", "abc", FCLOG_REASON_BAD_VALUE,
	  FCLOG_OP_SET_STRING },
	{ FSCONFIG_SET_STRING, "inode64", "yes",
	  FCLOG_REASON_VALUE_NOT_EXPECTED, FCLOG_OP_SET_STRING },
	{ FSCONFIG_SET_FLAG, "mode", NULL, FCLOG_REASON_VALUE_REQUIRED,
	  FCLOG_OP_SET_FLAG },
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
		EXPECT_EQ(tmpfs_cases[i].reason, rej->reason) TH_LOG("case %u", i);
		EXPECT_EQ(EINVAL, rej->errnum);
		EXPECT_EQ(tmpfs_cases[i].op, rej->op);
		EXPECT_EQ(FCLOG_TRI_TRUE, rej->recoverable);
		if (tmpfs_cases[i].value) {
			EXPECT_STREQ(tmpfs_cases[i].value, rej->value);
		} else {
			EXPECT_EQ(NULL, rej->value);
		}
		/* Refused parameters leave the context usable. */
		EXPECT_EQ(FCLOG_TRI_TRUE, fclog_recoverable(log));
	}
	EXPECT_EQ(0, fclog_skipped(log));
	fclog_free(log);
	close(fd);
}

/*
 * CREATE_EXCL on debugfs, which is mounted: sb_exists and a recoverable
 * create_failed; then CREATE on the same fd: sb_reused with the key set.
 */
TEST(debugfs_exclusive_then_reuse)
{
	const struct fclog_record *rec;
	fclog_t *log, *first_log;
	int fd, first, mfd, found = 0;
	struct fclog_record *r;

	/* Make sure the superblock exists, whatever else is mounted. */
	OPEN(first, first_log, "debugfs");
	ASSERT_EQ(0, sys_fsconfig(first, FSCONFIG_CMD_CREATE, NULL, NULL, 0));
	mfd = sys_fsmount(first, FSMOUNT_CLOEXEC, 0);
	ASSERT_GE(mfd, 0);

	OPEN(fd, log, "debugfs");
	ASSERT_EQ(0, sys_fsconfig(fd, FSCONFIG_SET_STRING, "mode", "0755", 0));
	ASSERT_EQ(-1, sys_fsconfig(fd, FSCONFIG_CMD_CREATE_EXCL, NULL, NULL,
				   0));
	ASSERT_EQ(EBUSY, errno);
	ASSERT_EQ(0, drain(log)) TH_LOG("%s", fclog_error(log));

	rec = find(log, FCLOG_REASON_SB_EXISTS);
	ASSERT_NE(NULL, rec);
	EXPECT_EQ(FCLOG_WARNING, rec->level);
	EXPECT_EQ(EBUSY, rec->errnum);
	EXPECT_EQ(FCLOG_OP_CREATE_EXCL, rec->op);
	EXPECT_STREQ("debugfs", rec->sb_type);
	EXPECT_STREQ("debugfs", rec->sb_id);
	/* v1 said "create_would_reuse", always true: no longer sent. */
	EXPECT_FALSE(rec->create_would_reuse);
	rec = find(log, FCLOG_REASON_CREATE_FAILED);
	ASSERT_NE(NULL, rec);
	EXPECT_EQ(FCLOG_TRI_TRUE, rec->recoverable);
	EXPECT_EQ(FCLOG_TRI_TRUE, fclog_recoverable(log));

	/* sb_reused is a note, not a rejection: read it as a record. */
	fclog_reset(log);
	ASSERT_EQ(0, sys_fsconfig(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0));
	while (fclog_next(log, &r) > 0) {
		if (r->reason == FCLOG_REASON_SB_REUSED) {
			found = 1;
			EXPECT_FALSE(fclog_record_is_rejection(r));
			EXPECT_EQ(FCLOG_INFO, r->level);
			EXPECT_STREQ("debugfs", r->sb_type);
			EXPECT_EQ(1, r->nparams);
			if (r->nparams == 1) {
				EXPECT_STREQ("mode", r->params[0]);
			}
			EXPECT_EQ(FCLOG_TRI_TRUE, r->params_applied);
		}
		fclog_record_free(r);
	}
	EXPECT_TRUE(found);
	fclog_free(log);
	close(fd);
	close(mfd);
	fclog_free(first_log);
	close(first);
}

/* A failure no get_tree vouches for: not recoverable, and EBUSY after. */
TEST(ext4_not_blockdev_is_final)
{
	const struct fclog_record *rec;
	fclog_t *log;
	int fd;

	OPEN(fd, log, "ext4");
	ASSERT_EQ(0, sys_fsconfig(fd, FSCONFIG_SET_STRING, "source", "/proc",
				  0));
	ASSERT_EQ(-1, sys_fsconfig(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0));
	ASSERT_EQ(ENOTBLK, errno);
	ASSERT_EQ(0, drain(log)) TH_LOG("%s", fclog_error(log));
	rec = fclog_rejected(log, "source");
	ASSERT_NE(NULL, rec);
	EXPECT_EQ(FCLOG_REASON_NOT_BLOCKDEV, rec->reason);
	EXPECT_EQ(ENOTBLK, rec->errnum);
	EXPECT_STREQ("/proc", rec->value);
	EXPECT_EQ(FCLOG_OP_CREATE, rec->op);
	EXPECT_EQ(FCLOG_TRI_FALSE, fclog_recoverable(log));
	EXPECT_EQ(-1, sys_fsconfig(fd, FSCONFIG_SET_FLAG, "ro", NULL, 0));
	EXPECT_EQ(EBUSY, errno);
	fclog_free(log);
	close(fd);
}

/* A reconfigure tmpfs refuses: the reader says the context is done for. */
TEST(tmpfs_failed_reconfigure_is_final)
{
	const struct fclog_record *rec;
	static char fill[16384];
	int fd, mfd, pfd;
	fclog_t *log;

	OPEN(fd, log, "tmpfs");
	fclog_free(log);
	ASSERT_EQ(0, sys_fsconfig(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0));
	mfd = sys_fsmount(fd, FSMOUNT_CLOEXEC, 0);
	ASSERT_GE(mfd, 0);
	close(fd);
	/* More in use than the size asked for below. */
	fd = openat(mfd, "fill", O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(sizeof(fill), write(fd, fill, sizeof(fill)));
	close(fd);

	pfd = sys_fspick(mfd, "", FSPICK_EMPTY_PATH | FSPICK_CLOEXEC |
				  FSPICK_STRUCTURED_LOG);
	ASSERT_GE(pfd, 0);
	log = fclog_new(pfd);
	ASSERT_NE(NULL, log);
	ASSERT_EQ(0, sys_fsconfig(pfd, FSCONFIG_SET_STRING, "size", "4k", 0));
	ASSERT_EQ(-1, sys_fsconfig(pfd, FSCONFIG_CMD_RECONFIGURE, NULL, NULL,
				   0));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(0, drain(log)) TH_LOG("%s", fclog_error(log));
	rec = find(log, FCLOG_REASON_RECONFIGURE_FAILED);
	ASSERT_NE(NULL, rec);
	EXPECT_EQ(EINVAL, rec->errnum);
	EXPECT_EQ(FCLOG_OP_RECONFIGURE, rec->op);
	EXPECT_EQ(FCLOG_TRI_FALSE, fclog_recoverable(log));
	EXPECT_EQ(-1, sys_fsconfig(pfd, FSCONFIG_SET_STRING, "size", "2m", 0));
	EXPECT_EQ(EBUSY, errno);
	fclog_free(log);
	close(pfd);
	close(mfd);
}

TEST_HARNESS_MAIN
