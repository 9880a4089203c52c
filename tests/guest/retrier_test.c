// SPDX-License-Identifier: GPL-2.0
/*
 * fclog-retry on a real kernel: given good, unknown and badly-valued
 * optional options, it mounts with exactly the good ones within k + 1
 * attempts (k: the options rejected), acting only on the structured
 * rejections; a rejected required option ends the run with exit status 3;
 * CREATE_EXCL on an existing superblock ends it with 6, or with
 * --allow-reuse mounts it on the same context.
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
	if (__fd < 0 && errno == EINVAL && !fctest_kernel_has_series())	\
		SKIP(return, "no structured logs on this kernel");	\
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

/*
 * Without the series the tool says it cannot retry by cause: good
 * options mount in one attempt, a refused one ends the run (exit 4).
 */
TEST(legacy_kernel_one_attempt)
{
	static const char *target = "/tmp/retrier-legacy";
	struct run r;

	if (fctest_kernel_has_series())
		SKIP(return, "the legacy fallback is for kernels without the series");
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
