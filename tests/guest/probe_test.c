// SPDX-License-Identifier: GPL-2.0
/*
 * fclog_probe_option() and fclog-probe on a real kernel, on tmpfs: with a
 * structured log the answers are exact (supported, unknown, refused with
 * the kernel's cause); on the stock kernel an accepted option is still a
 * certain "supported" and every refusal is "cannot tell", never a guess
 * from the message text.  FCLOG_PROBE_LEGACY asks a patched kernel as a
 * stock one is asked, so that the fallback is tested on every kernel.
 *
 * What this guest's kernels (qemu/kernel.config) really have:
 *  - no CONFIG_TMPFS_QUOTA: tmpfs has no "quota" parameter at all, so the
 *    exact answer for it is "unknown" (on a kernel with tmpfs quotas it
 *    would be "supported");
 *  - no CONFIG_TRANSPARENT_HUGEPAGE: tmpfs knows "huge" and takes
 *    huge=never, but refuses huge=within_size with the cause unsupported
 *    ("Unsupported parameter 'huge'").
 * The tests run as root in the initial user namespace, where noswap is
 * accepted.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <jansson.h>

#include "fclog.h"
#include "fctest.h"
#include "mount_api.h"
#include "kselftest_harness.h"

/*
 * Whether this kernel has structured logs; one with the structured posting
 * must have them.
 */
static bool structured_kernel(struct __test_metadata *_metadata)
{
	int fd = sys_fsopen("tmpfs", FSOPEN_CLOEXEC | FSOPEN_STRUCTURED_LOG);

	if (fd >= 0) {
		close(fd);
		return true;
	}
	EXPECT_EQ(EINVAL, errno);
	EXPECT_FALSE(fctest_kernel_has_structured())
		TH_LOG("a kernel with the structured posting refused FSOPEN_STRUCTURED_LOG");
	return false;
}

struct probe_case {
	const char *key, *value;
	enum fclog_probe_answer answer;	/* with a structured log */
	const char *cause;		/* "" for none */
	enum fclog_op expected;
};

static const struct probe_case tmpfs_cases[] = {
	{ "noswap", NULL, FCLOG_PROBE_SUPPORTED, "" },
	{ "huge", "never", FCLOG_PROBE_SUPPORTED, "" },
	{ "size", "2m", FCLOG_PROBE_SUPPORTED, "" },
	/* No CONFIG_TMPFS_QUOTA here: tmpfs has no such parameter. */
	{ "quota", NULL, FCLOG_PROBE_UNKNOWN, "unknown_param" },
	/* No CONFIG_TRANSPARENT_HUGEPAGE: known, this value refused. */
	{ "huge", "within_size", FCLOG_PROBE_REFUSED, "unsupported" },
	{ "fclog_made_up_key", NULL, FCLOG_PROBE_UNKNOWN, "unknown_param" },
	{ "fclog_made_up_key", "1", FCLOG_PROBE_UNKNOWN, "unknown_param" },
	{ "size", "abc", FCLOG_PROBE_REFUSED, "bad_value" },
	/* A string parameter given as a flag: known, given the wrong way. */
	{ "size", NULL, FCLOG_PROBE_REFUSED, "wrong_type", FCLOG_OP_SET_STRING },
};

static void check_case(struct __test_metadata *_metadata,
		       const struct probe_case *c, unsigned int flags,
		       bool structured)
{
	const char *name = c->value ? c->value : "(flag)";
	struct fclog_probe p;

	ASSERT_EQ(0, fclog_probe_option("tmpfs", c->key, c->value, flags, &p))
		TH_LOG("%s=%s: %s", c->key, name, strerror(errno));
	EXPECT_EQ(structured, p.structured);
	if (c->answer == FCLOG_PROBE_SUPPORTED) {
		/* Accepted is certain on every kernel. */
		EXPECT_EQ(FCLOG_PROBE_SUPPORTED, p.answer)
			TH_LOG("%s=%s: %s (%s)", c->key, name,
			       fclog_probe_answer_name(p.answer), p.msg);
		EXPECT_EQ(0, p.errnum);
		EXPECT_STREQ("", p.cause_name);
		return;
	}
	/* Every refusal here is EINVAL, whatever the kernel. */
	EXPECT_EQ(EINVAL, p.errnum) TH_LOG("%s=%s", c->key, name);
	/* The kernel's line, for people, on every kernel. */
	EXPECT_EQ('e', p.msg[0]) TH_LOG("%s=%s: msg \"%s\"", c->key, name, p.msg);
	EXPECT_NE(NULL, strstr(p.msg, "tmpfs") ?: strstr(p.msg, c->key))
		TH_LOG("%s=%s: msg \"%s\"", c->key, name, p.msg);
	if (!structured) {
		EXPECT_EQ(FCLOG_PROBE_CANNOT_TELL, p.answer)
			TH_LOG("%s=%s: %s from a legacy log", c->key, name,
			       fclog_probe_answer_name(p.answer));
		EXPECT_STREQ("", p.cause_name);
		return;
	}
	EXPECT_EQ(c->answer, p.answer)
		TH_LOG("%s=%s: %s, cause \"%s\" (%s)", c->key, name,
		       fclog_probe_answer_name(p.answer), p.cause_name, p.msg);
	EXPECT_STREQ(c->cause, p.cause_name) TH_LOG("%s=%s", c->key, name);
	EXPECT_EQ(c->expected, p.expected) TH_LOG("%s=%s", c->key, name);
}

/* Exact answers where the log is structured, "cannot tell" where not. */
TEST(tmpfs_answers)
{
	bool structured = structured_kernel(_metadata);
	size_t i;

	for (i = 0; i < sizeof(tmpfs_cases) / sizeof(tmpfs_cases[0]); i++)
		check_case(_metadata, &tmpfs_cases[i], 0, structured);
}

/* The fallback, asked of any kernel: refusals become "cannot tell". */
TEST(legacy_fallback_never_guesses)
{
	size_t i;

	for (i = 0; i < sizeof(tmpfs_cases) / sizeof(tmpfs_cases[0]); i++)
		check_case(_metadata, &tmpfs_cases[i], FCLOG_PROBE_LEGACY, false);
}

/*
 * Nothing is mounted and nothing is left for the kernel to print: every
 * context is read empty and never created.  No kernel prints unread
 * messages (kmsg_quiet_test checks that for contexts closed unread); a
 * series that did (its v2 draft printed "unread message" lines, at most
 * 10 per 5 s per user) would show here too: the test first waits out
 * whatever ratelimit window an earlier test opened.
 */
static int count_lines(const char *cmd, const char *needle)
{
	char line[1024];
	int n = 0;
	FILE *f = popen(cmd, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n += !needle || strstr(line, needle);
	pclose(f);
	return n;
}

TEST(probing_mounts_nothing_and_leaves_nothing_unread)
{
	struct fclog_probe p;
	int i, mounts, unread;

	sleep(6);	/* DEFAULT_RATELIMIT_INTERVAL is 5 s */
	mounts = count_lines("cat /proc/self/mountinfo", NULL);
	unread = count_lines("dmesg", "unread message");
	ASSERT_LT(0, mounts);
	for (i = 0; i < 20; i++) {
		ASSERT_EQ(0, fclog_probe_option("tmpfs", "fclog_made_up_key",
						NULL, 0, &p));
		ASSERT_EQ(0, fclog_probe_option("tmpfs", "size", "2m", 0, &p));
	}
	EXPECT_EQ(mounts, count_lines("cat /proc/self/mountinfo", NULL));
	EXPECT_EQ(unread, count_lines("dmesg", "unread message"));
}

TEST(no_such_filesystem_type)
{
	struct fclog_probe p;

	EXPECT_EQ(-1, fclog_probe_option("fclog_no_such_fs", "x", NULL, 0, &p));
	EXPECT_EQ(ENODEV, errno);
	EXPECT_EQ(-1, fclog_probe_option("tmpfs", "x", NULL, 0x100, &p));
	EXPECT_EQ(EINVAL, errno);
}

/* The tool as the guest has it: --json lines and the exit status. */
static int run(const char *args, json_t **lines)
{
	char cmd[512], line[2048];
	json_t *obj;
	FILE *p;
	int status;

	*lines = json_array();
	snprintf(cmd, sizeof(cmd), "/bin/fclog-probe %s 2>/dev/null", args);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p)) {
		obj = json_loads(line, 0, NULL);
		if (obj)
			json_array_append_new(*lines, obj);
	}
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static const char *answer_of(json_t *lines, size_t i)
{
	return json_string_value(json_object_get(json_array_get(lines, i),
						 "answer")) ?: "(none)";
}

TEST(tool_json_and_exit_status)
{
	bool structured = structured_kernel(_metadata);
	json_t *lines, *v;

	EXPECT_EQ(0, run("-t tmpfs --json noswap huge=never", &lines));
	EXPECT_EQ(2, json_array_size(lines));
	EXPECT_STREQ("supported", answer_of(lines, 0));
	EXPECT_STREQ("supported", answer_of(lines, 1));
	v = json_array_get(lines, 1);
	EXPECT_STREQ("huge", json_string_value(json_object_get(v, "key")));
	EXPECT_STREQ("never", json_string_value(json_object_get(v, "value")));
	EXPECT_EQ(structured, json_is_true(json_object_get(v, "structured")));
	json_decref(lines);

	/* A made-up key: unknown (3) where the kernel can say, else 4. */
	EXPECT_EQ(structured ? 3 : 4,
		  run("-t tmpfs --json noswap fclog_made_up_key size=abc", &lines));
	ASSERT_EQ(3, json_array_size(lines));
	EXPECT_STREQ("supported", answer_of(lines, 0));
	EXPECT_STREQ(structured ? "unknown" : "cannot_tell", answer_of(lines, 1));
	EXPECT_STREQ(structured ? "refused" : "cannot_tell", answer_of(lines, 2));
	v = json_array_get(lines, 2);
	EXPECT_EQ(EINVAL, json_integer_value(json_object_get(v, "errno")));
	if (structured) {
		EXPECT_STREQ("bad_value",
			     json_string_value(json_object_get(v, "cause")));
	} else {
		EXPECT_EQ(NULL, json_object_get(v, "cause"));
	}
	json_decref(lines);

	EXPECT_EQ(2, run("-t fclog_no_such_fs x", &lines));
	EXPECT_EQ(0, json_array_size(lines));
	json_decref(lines);
	EXPECT_EQ(1, run("-t tmpfs", &lines));
	json_decref(lines);
}

TEST_HARNESS_MAIN
