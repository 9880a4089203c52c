// SPDX-License-Identifier: GPL-2.0
/*
 * fclog-retry on a real kernel: given good, unknown and badly-valued
 * optional options, it mounts with exactly the good ones within k + 1
 * attempts (k: the options rejected), acting only on the structured
 * rejections; a rejected required option ends the run with exit status 3;
 * CREATE_EXCL on an existing superblock ends it with 6, or with
 * --allow-reuse mounts it on the same context; with --reuse-if-compatible
 * it shares debugfs exactly when the kernel says every option matches the
 * superblock in use, and otherwise names what differs (exit 6) and leaves
 * the superblock as it was; a filesystem that does not compare (sysfs)
 * has the superblock in use refused as unverifiable (exit 6), and a
 * kernel without FSCONFIG_CMD_CREATE_COMPATIBLE, which logs nothing,
 * makes it say that the kernel cannot compare (exit 7).
 *
 * The tool is run as the guest has it (/bin/fclog-retry) and its --json
 * output parsed, so that what is tested is what a user runs.  The decision
 * logic itself is tested against a fake kernel on the host
 * (tests/host/fclog_retry_test.c), including CREATE-time rejections, which
 * tmpfs never makes.
 *
 * On the stock kernel FSOPEN_STRUCTURED_LOG does not exist: the tests that
 * need it skip there (and fail on every kernel that carries the series);
 * one test checks the tool's legacy fallback there instead.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>
#include <jansson.h>

#include "fctest.h"
#include "mount_api.h"
#include "kselftest_harness.h"

/* SKIP where the kernel has no structured logs and is meant not to. */
#define REQUIRE_STRUCTURED() do {					\
	int __fd = sys_fsopen("tmpfs", FSOPEN_CLOEXEC | FSOPEN_STRUCTURED_LOG); \
	if (__fd < 0 && errno == EINVAL && !fctest_kernel_has_structured())	\
		SKIP(return, FCTEST_NEEDS_STRUCTURED);	\
	ASSERT_LE(0, __fd);						\
	close(__fd);							\
} while (0)

/* The tool's output: every line parsed, and the final result. */
struct run {
	int status;		/* exit status, -1 if it did not exit */
	json_t *lines;		/* array of every JSON line */
	json_t *result;		/* the "result" event, borrowed from lines */
	char out[16384];	/* the raw output, for TH_LOG */
};

static const char *str(json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key)) ?: "";
}

/* Run /bin/fclog-retry --json @args; its output in @r. */
static void retry(struct run *r, const char *args)
{
	char cmd[1024], line[4096];
	size_t len = 0;
	json_t *obj;
	FILE *p;

	r->lines = json_array();
	r->result = NULL;
	r->out[0] = '\0';
	/* FCLOG_RETRY: another build of the tool, to run this off the guest. */
	snprintf(cmd, sizeof(cmd), "%s --json %s 2>&1",
		 getenv("FCLOG_RETRY") ?: "/bin/fclog-retry", args);
	p = popen(cmd, "r");
	if (!p) {
		r->status = -1;
		return;
	}
	while (fgets(line, sizeof(line), p)) {
		if (len < sizeof(r->out))
			len += snprintf(r->out + len, sizeof(r->out) - len, "%s",
					line);
		obj = json_loads(line, 0, NULL);
		if (!obj)
			continue;	/* a message on stderr */
		json_array_append_new(r->lines, obj);
		if (!strcmp(str(obj, "event"), "result"))
			r->result = obj;
	}
	r->status = pclose(p);
	r->status = WIFEXITED(r->status) ? WEXITSTATUS(r->status) : -1;
}

static int attempts(const struct run *r)
{
	return json_integer_value(json_object_get(r->result, "attempts"));
}

/* The "options" (or "dropped" options) of the result, comma-joined. */
static const char *options(const struct run *r, const char *which)
{
	static char buf[512];
	json_t *list = json_object_get(r->result, which), *v;
	size_t i, len = 0;

	buf[0] = '\0';
	json_array_foreach(list, i, v) {
		if (json_is_object(v))
			v = json_object_get(v, "option");
		len += snprintf(buf + len, sizeof(buf) - len, "%s%s",
				i ? "," : "", json_string_value(v));
		if (len >= sizeof(buf))
			break;
	}
	return buf;
}

/* The cause the result gives for dropping @option, or "". */
static const char *drop_cause(const struct run *r, const char *option)
{
	json_t *v;
	size_t i;

	json_array_foreach(json_object_get(r->result, "dropped"), i, v)
		if (!strcmp(str(v, "option"), option))
			return str(v, "cause");
	return "";
}

/*
 * Whether the kernel logged a record (an object with "level", not one of
 * the tool's own events) with @event and @cause during the run.
 */
static bool logged(const struct run *r, const char *event, const char *cause)
{
	json_t *v;
	size_t i;

	json_array_foreach(r->lines, i, v)
		if (json_object_get(v, "level") &&
		    !strcmp(str(v, "event"), event) &&
		    !strcmp(str(v, "cause"), cause))
			return true;
	return false;
}

static void mkdir_p(const char *path)
{
	mkdir(path, 0755);
	umount2(path, MNT_DETACH);	/* a previous run's */
}

static dev_t dev_of(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : st.st_dev;
}

/*
 * k = 3 rejected options (an unknown key, two bad values) among good ones,
 * two of them for keys that are also given good values: exactly the good
 * options are kept, in order, and applied.  tmpfs refuses each at
 * fsconfig() time, so they cost no attempt at all.
 */
TEST(optional_options_converge_to_the_good_ones)
{
	static const char *target = "/tmp/retrier-mixed";
	struct run r;
	struct statfs sfs;
	struct stat st;

	REQUIRE_STRUCTURED();
	mkdir_p(target);
	retry(&r, "-t tmpfs -o size=2m -o nosuchopt -o mode=0710 -o size=abc "
		  "-o mode=99999999 none /tmp/retrier-mixed");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.out);
	ASSERT_NE(NULL, r.result) TH_LOG("%s", r.out);
	EXPECT_TRUE(json_is_true(json_object_get(r.result, "structured")));
	EXPECT_LE(attempts(&r), 3 + 1);
	EXPECT_EQ(1, attempts(&r)) TH_LOG("fsconfig()-time drops need no new attempt");
	EXPECT_STREQ("size=2m,mode=0710", options(&r, "options"));
	EXPECT_STREQ("nosuchopt,size=abc,mode=99999999", options(&r, "dropped"));
	EXPECT_STREQ("unknown_param", drop_cause(&r, "nosuchopt"));
	EXPECT_STREQ("bad_value", drop_cause(&r, "size=abc"));
	EXPECT_STREQ("bad_value", drop_cause(&r, "mode=99999999"));
	EXPECT_TRUE(logged(&r, "param_rejected", "unknown_param")) TH_LOG("%s", r.out);

	/* The mount has what the tool says it kept. */
	ASSERT_NE(dev_of("/tmp"), dev_of(target));
	ASSERT_EQ(0, stat(target, &st));
	EXPECT_EQ(0710, st.st_mode & 07777);
	ASSERT_EQ(0, statfs(target, &sfs));
	EXPECT_EQ(2 << 20, sfs.f_blocks * sfs.f_bsize);
	umount2(target, MNT_DETACH);
	json_decref(r.lines);
}

/* A required option that is accepted stays; the optional misfits go. */
TEST(required_options_are_kept)
{
	static const char *target = "/tmp/retrier-required";
	struct statfs sfs;
	struct stat st;
	struct run r;

	REQUIRE_STRUCTURED();
	mkdir_p(target);
	retry(&r, "-t tmpfs -r mode=0750 -o nosuchopt -o nr_inodes=100 "
		  "-o nr_inodes=lots none /tmp/retrier-required");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.out);
	EXPECT_LE(attempts(&r), 2 + 1);
	EXPECT_STREQ("mode=0750,nr_inodes=100", options(&r, "options"));
	EXPECT_STREQ("nosuchopt,nr_inodes=lots", options(&r, "dropped"));
	ASSERT_EQ(0, stat(target, &st));
	EXPECT_EQ(0750, st.st_mode & 07777);
	ASSERT_EQ(0, statfs(target, &sfs));
	EXPECT_EQ(100, sfs.f_files);
	umount2(target, MNT_DETACH);
	json_decref(r.lines);
}

/* Exit status 3, naming the option and the cause; nothing mounted. */
TEST(rejected_required_option_fails)
{
	static const char *target = "/tmp/retrier-fail";
	struct run r;

	REQUIRE_STRUCTURED();
	mkdir_p(target);
	retry(&r, "-t tmpfs -o mode=0700 -r size=abc none /tmp/retrier-fail");
	ASSERT_EQ(3, r.status) TH_LOG("%s", r.out);
	ASSERT_NE(NULL, r.result) TH_LOG("%s", r.out);
	EXPECT_FALSE(json_is_true(json_object_get(r.result, "mounted")));
	EXPECT_NE(NULL, strstr(str(r.result, "error"), "size=abc"));
	EXPECT_NE(NULL, strstr(str(r.result, "error"), "bad_value"));
	EXPECT_EQ(0, attempts(&r));
	EXPECT_EQ(dev_of("/tmp"), dev_of(target));
	json_decref(r.lines);

	retry(&r, "-t tmpfs -r nosuchopt none /tmp/retrier-fail");
	EXPECT_EQ(3, r.status) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(str(r.result, "error"), "unknown_param"));
	EXPECT_EQ(dev_of("/tmp"), dev_of(target));
	json_decref(r.lines);
}

/*
 * mqueue's superblock for the initial IPC namespace exists from boot:
 * CREATE_EXCL is refused with sb_conflict, cause exclusive (exit 6), and
 * with --allow-reuse the tool mounts it with a plain CREATE on the same
 * context, the create_failed record having said it is recoverable (mqueue
 * declares its early failures so): k = 1, 2 attempts.
 */
TEST(exclusive_on_an_existing_superblock)
{
	static const char *target = "/tmp/retrier-mqueue";
	json_t *v, *second = NULL;
	struct run r;
	size_t i;

	REQUIRE_STRUCTURED();
	mkdir_p(target);
	retry(&r, "-t mqueue --exclusive none /tmp/retrier-mqueue");
	ASSERT_EQ(6, r.status) TH_LOG("%s", r.out);
	EXPECT_TRUE(logged(&r, "sb_conflict", "exclusive")) TH_LOG("%s", r.out);
	EXPECT_TRUE(logged(&r, "create_failed", "exclusive")) TH_LOG("%s", r.out);
	EXPECT_EQ(1, attempts(&r));
	EXPECT_EQ(dev_of("/tmp"), dev_of(target));
	json_decref(r.lines);

	retry(&r, "-t mqueue --exclusive --allow-reuse none /tmp/retrier-mqueue");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.out);
	EXPECT_EQ(2, attempts(&r));
	EXPECT_FALSE(json_is_true(json_object_get(r.result, "exclusive")));
	json_array_foreach(r.lines, i, v)
		if (!strcmp(str(v, "event"), "attempt") &&
		    json_integer_value(json_object_get(v, "attempt")) == 2)
			second = v;
	ASSERT_NE(NULL, second) TH_LOG("%s", r.out);
	EXPECT_STREQ("same", str(second, "context"));
	EXPECT_TRUE(logged(&r, "sb_shared", "")) TH_LOG("%s", r.out);
	EXPECT_NE(dev_of("/tmp"), dev_of(target));
	umount2(target, MNT_DETACH);
	json_decref(r.lines);
}

/* The permission bits of @path, or -1. */
static int mode_of(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (int)(st.st_mode & 07777);
}

/*
 * Give the debugfs superblock mode=0700, whatever tests before did to it
 * (debugfs applies a plain CREATE's parameters to the superblock in use).
 */
static int debugfs_mode_0700(void)
{
	int fd = sys_fsopen("debugfs", FSOPEN_CLOEXEC), ret;

	if (fd < 0)
		return -1;
	ret = sys_fsconfig(fd, FSCONFIG_SET_STRING, "mode", "0700", 0) ?:
	      sys_fsconfig(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0);
	close(fd);
	return ret ?: mode_of("/sys/kernel/debug") == 0700 ? 0 : -1;
}

/* The names in the result's array @which, comma-joined. */
static const char *names(const struct run *r, const char *which)
{
	static char buf[256];
	json_t *v;
	size_t i, len = 0;

	buf[0] = '\0';
	json_array_foreach(json_object_get(r->result, which), i, v)
		len += snprintf(buf + len, len < sizeof(buf) ? sizeof(buf) - len : 0,
				"%s%s", i ? "," : "", json_string_value(v));
	return buf;
}

/* The kernel's record of @event with op create_compatible, or NULL. */
static json_t *compatible_record(const struct run *r, const char *event)
{
	json_t *v;
	size_t i;

	json_array_foreach(r->lines, i, v)
		if (json_object_get(v, "level") &&
		    !strcmp(str(v, "event"), event) &&
		    !strcmp(str(v, "op"), "create_compatible"))
			return v;
	return NULL;
}

/*
 * debugfs, mounted with mode=0700: --exclusive --reuse-if-compatible with
 * mode=0700 shares it in one attempt, as it is (not reconfigured:
 * params_applied false); with mode=0755 required it is
 * refused (exit 6) naming the mode, and the superblock keeps 0700, where
 * --allow-reuse would have changed it for everyone; with mode=0755
 * optional the tool drops it and shares the superblock as it is.
 */
TEST(reuse_if_compatible_on_debugfs)
{
	static const char *target = "/tmp/retrier-debugfs";
	dev_t debugfs = dev_of("/sys/kernel/debug");
	json_t *rec;
	struct run r;

	REQUIRE_STRUCTURED();
	ASSERT_NE(0, debugfs);
	ASSERT_EQ(0, debugfs_mode_0700());
	mkdir_p(target);

	retry(&r, "-t debugfs --exclusive --reuse-if-compatible -r mode=0700 "
		  "none /tmp/retrier-debugfs");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.out);
	EXPECT_EQ(1, attempts(&r));
	EXPECT_STREQ("compatible", str(r.result, "verdict")) TH_LOG("%s", r.out);
	EXPECT_STREQ("", names(&r, "differs"));
	rec = compatible_record(&r, "sb_shared");
	ASSERT_NE(NULL, rec) TH_LOG("%s", r.out);
	EXPECT_STREQ("compatible", str(rec, "verdict"));
	EXPECT_STREQ("matches", str(json_object_get(rec, "params"), "mode"));
	/* Shared as compatible: debugfs does not reconfigure it. */
	EXPECT_TRUE(json_is_false(json_object_get(rec, "params_applied")))
		TH_LOG("%s", r.out);
	EXPECT_EQ(debugfs, dev_of(target));
	EXPECT_EQ(0700, mode_of(target));
	umount2(target, MNT_DETACH);
	json_decref(r.lines);

	retry(&r, "-t debugfs --exclusive --reuse-if-compatible -r mode=0755 "
		  "none /tmp/retrier-debugfs");
	ASSERT_EQ(6, r.status) TH_LOG("%s", r.out);
	EXPECT_FALSE(json_is_true(json_object_get(r.result, "mounted")));
	EXPECT_STREQ("incompatible", str(r.result, "verdict")) TH_LOG("%s", r.out);
	EXPECT_STREQ("mode", names(&r, "differs"));
	EXPECT_STREQ("", names(&r, "unknown"));
	EXPECT_NE(NULL, strstr(str(r.result, "error"),
			       "mode differs (mode=0755, required)"))
		TH_LOG("%s", r.out);
	EXPECT_TRUE(logged(&r, "sb_conflict", "incompatible")) TH_LOG("%s", r.out);
	EXPECT_TRUE(logged(&r, "create_failed", "incompatible")) TH_LOG("%s", r.out);
	rec = compatible_record(&r, "sb_conflict");
	ASSERT_NE(NULL, rec) TH_LOG("%s", r.out);
	EXPECT_STREQ("differs", str(json_object_get(rec, "params"), "mode"));
	EXPECT_EQ(1, attempts(&r));
	EXPECT_NE(debugfs, dev_of(target));
	/* Refused, not reconfigured. */
	EXPECT_EQ(0700, mode_of("/sys/kernel/debug"));
	json_decref(r.lines);

	retry(&r, "-t debugfs --exclusive --reuse-if-compatible -r uid=0 "
		  "-o mode=0755 none /tmp/retrier-debugfs");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.out);
	EXPECT_EQ(2, attempts(&r));
	EXPECT_STREQ("uid=0", options(&r, "options"));
	EXPECT_STREQ("mode=0755", options(&r, "dropped"));
	EXPECT_STREQ("incompatible", drop_cause(&r, "mode=0755"));
	EXPECT_STREQ("compatible", str(r.result, "verdict"));
	EXPECT_EQ(debugfs, dev_of(target));
	EXPECT_EQ(0700, mode_of("/sys/kernel/debug"));
	umount2(target, MNT_DETACH);
	json_decref(r.lines);
}

/*
 * sysfs does not compare: the kernel refuses the superblock in use with
 * sb_conflict (unverifiable, verdict unknown) and EBUSY, as it cannot
 * vouch for it.  The tool mounts nothing (exit 6): no CREATE behind the
 * user's back.
 */
TEST(reuse_if_compatible_on_a_filesystem_that_does_not_compare)
{
	static const char *target = "/tmp/retrier-sysfs";
	json_t *rec;
	struct run r;

	REQUIRE_STRUCTURED();
	mkdir_p(target);
	retry(&r, "-t sysfs --exclusive --reuse-if-compatible none /tmp/retrier-sysfs");
	ASSERT_EQ(6, r.status) TH_LOG("%s", r.out);
	ASSERT_NE(NULL, r.result) TH_LOG("%s", r.out);
	EXPECT_FALSE(json_is_true(json_object_get(r.result, "mounted")));
	EXPECT_EQ(NULL, json_object_get(r.result, "cannot_compare"));
	EXPECT_STREQ("unknown", str(r.result, "verdict")) TH_LOG("%s", r.out);
	EXPECT_EQ(1, attempts(&r));
	rec = compatible_record(&r, "sb_conflict");
	ASSERT_NE(NULL, rec) TH_LOG("%s", r.out);
	EXPECT_STREQ("unverifiable", str(rec, "cause"));
	EXPECT_EQ(EBUSY, json_integer_value(json_object_get(rec, "errno")));
	rec = compatible_record(&r, "create_failed");
	ASSERT_NE(NULL, rec) TH_LOG("%s", r.out);
	EXPECT_FALSE(json_is_true(json_object_get(rec, "recoverable")));
	EXPECT_EQ(dev_of("/tmp"), dev_of(target));
	json_decref(r.lines);
}

/*
 * A kernel without FSCONFIG_CMD_CREATE_COMPATIBLE (stock 7.3) refuses
 * the command with EOPNOTSUPP: the tool says it cannot compare and mounts
 * nothing (exit 7), rather than fall back to a CREATE that would share
 * whatever is there.
 */
TEST(reuse_if_compatible_without_the_command)
{
	static const char *target = "/tmp/retrier-nocompare";
	dev_t debugfs = dev_of("/sys/kernel/debug");
	struct run r;
	int fd;

	/* Asked of the kernel itself, not of its name. */
	fd = sys_fsopen("debugfs", FSOPEN_CLOEXEC);
	ASSERT_LE(0, fd);
	if (sys_fsconfig(fd, FSCONFIG_CMD_CREATE_COMPATIBLE, NULL, NULL, 0) == 0 ||
	    errno != EOPNOTSUPP) {
		close(fd);
		ASSERT_TRUE(fctest_kernel_has_structured())
			TH_LOG("a kernel without the structured posting has CREATE_COMPATIBLE?");
		SKIP(return, "this kernel has FSCONFIG_CMD_CREATE_COMPATIBLE");
	}
	close(fd);
	EXPECT_FALSE(fctest_kernel_has_structured());
	mkdir_p(target);
	retry(&r, "-t debugfs --exclusive --reuse-if-compatible -r mode=0700 "
		  "none /tmp/retrier-nocompare");
	ASSERT_EQ(7, r.status) TH_LOG("%s", r.out);
	ASSERT_NE(NULL, r.result) TH_LOG("%s", r.out);
	EXPECT_FALSE(json_is_true(json_object_get(r.result, "mounted")));
	EXPECT_NE(NULL, strstr(str(r.result, "error"), "this kernel cannot compare"))
		TH_LOG("%s", r.out);
	EXPECT_STREQ("kernel", str(r.result, "cannot_compare")) TH_LOG("%s", r.out);
	EXPECT_EQ(NULL, json_object_get(r.result, "verdict"));
	EXPECT_EQ(1, attempts(&r));
	EXPECT_NE(debugfs, dev_of(target));
	json_decref(r.lines);
}

/*
 * Without structured logs (stock, or the fc-log posting alone) the tool
 * says it cannot retry by cause: good
 * options mount in one attempt, a refused one ends the run (exit 4).
 */
TEST(legacy_kernel_one_attempt)
{
	static const char *target = "/tmp/retrier-legacy";
	struct run r;

	if (fctest_kernel_has_structured())
		SKIP(return, "the legacy fallback is for kernels without structured logs");
	mkdir_p(target);
	retry(&r, "-t tmpfs -o size=2m none /tmp/retrier-legacy");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.out);
	EXPECT_FALSE(json_is_true(json_object_get(r.result, "structured")));
	EXPECT_EQ(1, attempts(&r));
	umount2(target, MNT_DETACH);
	json_decref(r.lines);

	retry(&r, "-t tmpfs -o size=2m -o nosuchopt none /tmp/retrier-legacy");
	EXPECT_EQ(4, r.status) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(str(r.result, "error"), "cannot retry by cause"));
	EXPECT_EQ(dev_of("/tmp"), dev_of(target));
	json_decref(r.lines);
}

TEST_HARNESS_MAIN
