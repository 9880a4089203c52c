// SPDX-License-Identifier: GPL-2.0
/*
 * Structured records as a userspace JSON parser sees them: every record,
 * whatever bytes its key held, parses with jansson in strict mode, has
 * exactly the documented fields with the documented types, and its "msg"
 * decodes to the message with each byte that is not UTF-8 as U+FFFD.
 *
 * On the stock kernel FSOPEN_STRUCTURED_LOG does not exist: the tests skip
 * there and fail on every kernel that carries the series.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>

#include "fctest.h"
#include "mount_api.h"
#include "kselftest_harness.h"

#define REPLACEMENT "\xef\xbf\xbd"	/* U+FFFD in UTF-8 */

/* fsopen tmpfs with a structured log, or SKIP where the kernel lacks it. */
#define OPEN_STRUCTURED(fd) do {					\
	fd = sys_fsopen("tmpfs", FSOPEN_CLOEXEC | FSOPEN_STRUCTURED_LOG); \
	if (fd < 0 && errno == EINVAL && !fctest_kernel_has_structured())	\
		SKIP(return, FCTEST_NEEDS_STRUCTURED);	\
	ASSERT_GE(fd, 0);						\
} while (0)

/*
 * Log "Unknown parameter '<key>'", read the record, parse its JSON strictly
 * and check the fields.  Returns the parsed object (caller decrefs).
 */
static json_t *log_and_parse(struct __test_metadata *_metadata, int fd,
			     const char *key)
{
	/* The record's own fields, then the report of an unknown parameter. */
	static const struct {
		const char *name;
		json_type type;
	} fields[] = {
		{ "seq", JSON_INTEGER }, { "level", JSON_STRING },
		{ "source", JSON_STRING }, { "msg", JSON_STRING },
		{ "event", JSON_STRING }, { "cause", JSON_STRING },
		{ "param", JSON_STRING }, { "errno", JSON_INTEGER },
		{ "op", JSON_STRING },
	};
	const size_t nr_fields = sizeof(fields) / sizeof(fields[0]);
	char buf[FCTEST_READ_MAX];
	json_error_t error;
	size_t text, i;
	json_t *obj;
	ssize_t n;

	if (sys_fsconfig(fd, FSCONFIG_SET_FLAG, key, NULL, 0) == 0 ||
	    errno != EINVAL) {
		TH_LOG("fsconfig did not fail with EINVAL");
		return NULL;
	}
	n = read(fd, buf, sizeof(buf));
	if (n <= 0) {
		TH_LOG("read: %s", strerror(errno));
		return NULL;
	}
	text = strnlen(buf, n);
	if (text == (size_t)n) {
		TH_LOG("no NUL in the record");
		return NULL;
	}
	/* The object is everything after the NUL: no trailing bytes. */
	obj = json_loadb(buf + text + 1, n - text - 1, JSON_REJECT_DUPLICATES,
			 &error);
	if (!obj) {
		TH_LOG("jansson: %s at %d: '%.*s'", error.text, error.position,
		       (int)(n - text - 1), buf + text + 1);
		return NULL;
	}
	if (!json_is_object(obj) || json_object_size(obj) != nr_fields) {
		TH_LOG("not an object of %zu fields", nr_fields);
		json_decref(obj);
		return NULL;
	}
	for (i = 0; i < nr_fields; i++) {
		json_t *v = json_object_get(obj, fields[i].name);

		if (!v || json_typeof(v) != fields[i].type) {
			TH_LOG("field %s missing or mistyped", fields[i].name);
			json_decref(obj);
			return NULL;
		}
	}
	if (strcmp(json_string_value(json_object_get(obj, "event")),
		   "param_rejected") ||
	    strcmp(json_string_value(json_object_get(obj, "cause")),
		   "unknown_param") ||
	    json_integer_value(json_object_get(obj, "errno")) != EINVAL ||
	    strcmp(json_string_value(json_object_get(obj, "op")), "set_flag")) {
		TH_LOG("not the report of an unknown flag");
		json_decref(obj);
		return NULL;
	}
	return obj;
}

/*
 * Check that "msg" is "Unknown parameter '<want>'" and "param" is <want>,
 * byte for byte.
 */
static int msg_is(json_t *obj, const char *want)
{
	json_t *msg = json_object_get(obj, "msg");
	json_t *param = json_object_get(obj, "param");
	char expected[1024];
	int len;

	len = snprintf(expected, sizeof(expected), "Unknown parameter '%s'",
		       want);
	/* The key comes back in "param" exactly as in the message. */
	return json_string_length(msg) == (size_t)len &&
	       !memcmp(json_string_value(msg), expected, len) &&
	       json_string_length(param) == strlen(want) &&
	       !memcmp(json_string_value(param), want, strlen(want));
}

TEST(every_byte_in_a_key)
{
	char key[3] = "k", want[8];
	json_t *obj;
	int fd, b;

	OPEN_STRUCTURED(fd);
	for (b = 1; b < 256; b++) {
		key[1] = b;
		obj = log_and_parse(_metadata, fd, key);
		ASSERT_NE(NULL, obj) TH_LOG("byte %#x", b);
		snprintf(want, sizeof(want), "k%s", b < 0x80 ? key + 1 : REPLACEMENT);
		EXPECT_TRUE(msg_is(obj, want)) TH_LOG("byte %#x", b);
		EXPECT_STREQ("tmpfs", json_string_value(json_object_get(obj, "source")));
		EXPECT_STREQ("error", json_string_value(json_object_get(obj, "level")));
		/* Read as logged, one by one: nothing lost, no marker. */
		EXPECT_EQ(NULL, json_object_get(obj, "lost"));
		json_decref(obj);
	}
	close(fd);
}

TEST(hostile_keys)
{
	static const struct {
		const char *key, *msg;
	} cases[] = {
		{ "\",\"level\":\"info", "\",\"level\":\"info" },
		{ "\\\"}{", "\\\"}{" },
		{ "line\nbreak\r\x1b[31mred", "line\nbreak\r\x1b[31mred" },
		{ "\xc3\xa9t\xc3\xa9", "\xc3\xa9t\xc3\xa9" },
		{ "\xc0\xaf", REPLACEMENT REPLACEMENT },
		{ "\xed\xa0\x80", REPLACEMENT REPLACEMENT REPLACEMENT },
		{ "\xf4\x90\x80\x80", REPLACEMENT REPLACEMENT REPLACEMENT REPLACEMENT },
		{ "end\xe2\x82", "end" REPLACEMENT REPLACEMENT },
	};
	json_t *obj;
	size_t i;
	int fd;

	OPEN_STRUCTURED(fd);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		obj = log_and_parse(_metadata, fd, cases[i].key);
		ASSERT_NE(NULL, obj) TH_LOG("case %zu", i);
		EXPECT_TRUE(msg_is(obj, cases[i].msg)) TH_LOG("case %zu", i);
		json_decref(obj);
	}
	close(fd);
}

/* fsconfig() keys are at most 255 bytes: such a key comes through whole. */
TEST(longest_key)
{
	char key[256];
	json_t *obj;
	int fd;

	OPEN_STRUCTURED(fd);
	memset(key, 'k', 255);
	key[255] = '\0';
	obj = log_and_parse(_metadata, fd, key);
	ASSERT_NE(NULL, obj);
	EXPECT_TRUE(msg_is(obj, key));
	json_decref(obj);
	close(fd);
}

/*
 * A hostile ext4 source (quotes, a forged field, escape sequences, a
 * newline, bytes that are not UTF-8): the param_rejected report of the
 * lookup (cause not_found) echoes it as "value", which decodes back to the
 * bytes given (U+FFFD for the ones that are not UTF-8), and the line
 * before the NUL holds the bytes as they were.
 */
TEST(hostile_source_path)
{
	static const char source[] =
		"/nonexistent/\",\"level\":\"info\x1b[31m\nred\\\x01\xff";
	static const char decoded[] =
		"/nonexistent/\",\"level\":\"info\x1b[31m\nred\\\x01"
		REPLACEMENT;
	char buf[FCTEST_READ_MAX];
	json_error_t error;
	json_t *obj, *value;
	size_t text;
	ssize_t n;
	int fd;

	fd = sys_fsopen("ext4", FSOPEN_CLOEXEC | FSOPEN_STRUCTURED_LOG);
	if (fd < 0 && errno == EINVAL && !fctest_kernel_has_structured())
		SKIP(return, FCTEST_NEEDS_STRUCTURED);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, sys_fsconfig(fd, FSCONFIG_SET_STRING, "source", source,
				  0));
	ASSERT_EQ(-1, sys_fsconfig(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0));
	ASSERT_EQ(ENOENT, errno);

	/* The first record is the lookup failure. */
	n = read(fd, buf, sizeof(buf));
	ASSERT_GT(n, 0);
	text = strnlen(buf, n);
	ASSERT_LT(text, (size_t)n);
	ASSERT_NE(NULL, memmem(buf, text, source, strlen(source)));
	obj = json_loadb(buf + text + 1, n - text - 1, JSON_REJECT_DUPLICATES,
			 &error);
	ASSERT_NE(NULL, obj) TH_LOG("jansson: %s", error.text);
	EXPECT_STREQ("param_rejected",
		     json_string_value(json_object_get(obj, "event")));
	EXPECT_STREQ("not_found",
		     json_string_value(json_object_get(obj, "cause")));
	EXPECT_STREQ("create", json_string_value(json_object_get(obj, "op")));
	EXPECT_EQ(ENOENT, json_integer_value(json_object_get(obj, "errno")));
	EXPECT_EQ(NULL, json_object_get(obj, "recoverable"));
	EXPECT_STREQ("error", json_string_value(json_object_get(obj, "level")));
	EXPECT_STREQ("source", json_string_value(json_object_get(obj, "param")));
	value = json_object_get(obj, "value");
	ASSERT_TRUE(json_is_string(value));
	EXPECT_EQ(strlen(decoded), json_string_length(value));
	EXPECT_EQ(0, memcmp(decoded, json_string_value(value),
			    strlen(decoded)));
	json_decref(obj);
	close(fd);
}

TEST_HARNESS_MAIN
