// SPDX-License-Identifier: GPL-2.0
/*
 * libfclog on the host, from fixtures: records of every kind parse into
 * the right fields, malformed ones are refused with an error message, and the reader
 * counts drops and gaps, collects rejections and reads large records
 * whole, sized by FIONREAD or, without it, by doubling its buffer.  TAP,
 * with a closing summary line.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <jansson.h>
#include <linux/mount.h>

#include "fclog.h"

static int n, failures;

static void check(int ok, const char *name, const char *why)
{
	n++;
	if (!ok) {
		printf("# %s\n", why ? why : "");
		failures++;
	}
	printf("%sok %d %s\n", ok ? "" : "not ", n, name);
}

/*
 * The reader's tests read from a SOCK_SEQPACKET socket, which keeps record
 * boundaries as a context fd does, but cuts a record a read has no room
 * for.  A context fd fails that read with EMSGSIZE and leaves the record,
 * and answers FIONREAD with the size of the next record: read() and
 * ioctl() below make every such socket do so (the library, linked in,
 * calls these).  fionread_answers false is a kernel without the series
 * (ENOTTY); context_reads counts the reads of such sockets.
 */
static bool fionread_answers = true;
static unsigned int context_reads;

static bool is_context(int fd)
{
	socklen_t len = sizeof(int);
	int type;

	return !getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) &&
	       type == SOCK_SEQPACKET;
}

/* The size of the next record, 0 if none (yet). */
static size_t next_record_size(int fd)
{
	ssize_t next = recv(fd, NULL, 0, MSG_PEEK | MSG_TRUNC | MSG_DONTWAIT);

	return next > 0 ? next : 0;
}

ssize_t read(int fd, void *buf, size_t n)
{
	ssize_t (*real)(int, void *, size_t) = dlsym(RTLD_NEXT, "read");

	if (!is_context(fd))
		return real(fd, buf, n);
	context_reads++;
	if (next_record_size(fd) > n) {
		errno = EMSGSIZE;
		return -1;
	}
	return real(fd, buf, n);
}

int ioctl(int fd, unsigned long request, ...)
{
	int (*real)(int, unsigned long, ...) = dlsym(RTLD_NEXT, "ioctl");
	va_list ap;
	void *arg;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (request != FIONREAD || !is_context(fd))
		return real(fd, request, arg);
	if (!fionread_answers) {
		errno = ENOTTY;
		return -1;
	}
	*(int *)arg = next_record_size(fd);
	return 0;
}

/* A structured record: @line (with its newline), NUL, @json. */
static size_t record(char *buf, const char *line, const char *json)
{
	size_t l = strlen(line), j = strlen(json);

	memcpy(buf, line, l);
	buf[l] = '\0';
	memcpy(buf + l + 1, json, j);
	return l + 1 + j;
}

#define LINE "e tmpfs: Unknown parameter 'x'\n"
#define JSON(extra) "{\"seq\":3,\"level\":\"error\",\"source\":\"tmpfs\"," \
	"\"msg\":\"Unknown parameter 'x'\"" extra "}"

/* The object of a record whose msg is the first 1 KiB of @msg's. */
static const char *long_json(const char *msg, const char *extra)
{
	static char json[2048];

	snprintf(json, sizeof(json), "{\"seq\":1,\"level\":\"error\","
		 "\"source\":\"tmpfs\",\"msg\":\"%.1024s\","
		 "\"msg_truncated\":true%s}", msg, extra);
	return json;
}

/*
 * A message longer than the object's "msg" holds ("msg_truncated"): the
 * record's message is the line's, whole, unless the prefix cannot be found
 * in the line as "source" says it; "truncated" if the line was cut too.
 */
static void long_messages(void)
{
	static char buf[8192], line[3000], msg[2001];
	char err[128] = "";
	struct fclog_record *rec;
	size_t len;
	int ok;

	memset(msg, 'x', 2000);
	snprintf(line, sizeof(line), "e tmpfs: %s\n", msg);

	len = record(buf, line, long_json(msg, ""));
	ok = !fclog_parse(buf, len, &rec, err, sizeof(err)) &&
	     rec->msg_len == 2000 && !memcmp(rec->msg, msg, 2000) &&
	     !rec->truncated;
	check(ok, "msg_truncated: the message is the line's, whole", err);
	fclog_record_free(rec);

	len = record(buf, line, long_json(msg, ",\"truncated\":true"));
	ok = !fclog_parse(buf, len, &rec, err, sizeof(err)) &&
	     rec->msg_len == 2000 && rec->truncated;
	check(ok, "msg_truncated on a cut line: the line's, truncated", err);
	fclog_record_free(rec);

	len = record(buf, "e tmpfsX: xxxx\n", long_json(msg, ""));
	ok = !fclog_parse(buf, len, &rec, err, sizeof(err)) &&
	     rec->msg_len == 1024 && rec->truncated;
	check(ok, "msg_truncated, prefix not in the line: truncated", err);
	fclog_record_free(rec);

	len = record(buf, line, long_json(msg, ",\"source_truncated\":true"));
	ok = !fclog_parse(buf, len, &rec, err, sizeof(err)) &&
	     rec->msg_len == 1024 && rec->truncated;
	check(ok, "source_truncated: the object's msg, truncated", err);
	fclog_record_free(rec);

	len = record(buf, LINE, JSON(",\"msg_truncated\":1"));
	ok = fclog_parse(buf, len, &rec, err, sizeof(err)) == -1 && !rec;
	check(ok, "msg_truncated not a boolean is refused", "parsed");
}

static void valid_records(void)
{
	char buf[512], err[128] = "";
	struct fclog_record *rec;
	size_t len;
	int ok;

	len = record(buf, LINE, JSON(""));
	ok = !fclog_parse(buf, len, &rec, err, sizeof(err)) && rec->structured &&
	     rec->seq == 3 && !rec->lost && rec->level == FCLOG_ERROR &&
	     !strcmp(rec->source, "tmpfs") &&
	     !strcmp(rec->msg, "Unknown parameter 'x'") &&
	     !strcmp(rec->text, "e tmpfs: Unknown parameter 'x'") &&
	     !rec->truncated;
	check(ok, "structured error record", err);
	fclog_record_free(rec);

	len = record(buf, "w vfat: Deprecated parameter 'posix'\n",
		     "{\"seq\":0,\"level\":\"warning\",\"source\":\"vfat\","
		     "\"msg\":\"Deprecated parameter 'posix'\","
		     "\"truncated\":true}");
	ok = !fclog_parse(buf, len, &rec, err, sizeof(err)) &&
	     rec->level == FCLOG_WARNING && rec->truncated;
	check(ok, "structured warning, truncated", err);
	fclog_record_free(rec);

	len = record(buf, "i no prefix\n", "{\"seq\":9,\"level\":\"info\","
		     "\"source\":\"\",\"msg\":\"no prefix\"}");
	ok = !fclog_parse(buf, len, &rec, err, sizeof(err)) &&
	     rec->level == FCLOG_INFO && !strcmp(rec->source, "");
	check(ok, "structured info without a prefix", err);
	fclog_record_free(rec);

	/* Fields may be added: readers ignore the ones they do not know. */
	len = record(buf, LINE, JSON(",\"param\":\"x\",\"later\":[1,{}]"));
	ok = !fclog_parse(buf, len, &rec, err, sizeof(err)) && rec->seq == 3;
	check(ok, "unknown fields are ignored", err);
	fclog_record_free(rec);

	len = record(buf, "e k: a\n", "{\"seq\":0,\"level\":\"error\","
		     "\"source\":\"k\",\"msg\":\"a\\u0000b\\u00e9\"}");
	ok = !fclog_parse(buf, len, &rec, err, sizeof(err)) &&
	     rec->msg_len == 5 && !memcmp(rec->msg, "a\0b\xc3\xa9", 5);
	check(ok, "escaped NUL and non-ASCII in msg", err);
	fclog_record_free(rec);
}

static void legacy_records(void)
{
	static const struct {
		const char *line, *source, *msg;
		enum fclog_level level;
	} cases[] = {
		{ "e tmpfs: Unknown parameter 'x'\n", "tmpfs",
		  "Unknown parameter 'x'", FCLOG_ERROR },
		{ "w vfat: Deprecated parameter 'posix'\n", "vfat",
		  "Deprecated parameter 'posix'", FCLOG_WARNING },
		{ "e Multiple sources\n", "", "Multiple sources", FCLOG_ERROR },
		{ "i Can't: tell\n", "Can't", "tell", FCLOG_INFO },
		{ "e journal_path: not usable as path\n", "journal_path",
		  "not usable as path", FCLOG_ERROR },
		{ "e a message: with a colon\n", "", "a message: with a colon",
		  FCLOG_ERROR },
	};
	char name[96], err[128];
	struct fclog_record *rec;
	size_t i;
	int ok;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		ok = !fclog_parse(cases[i].line, strlen(cases[i].line), &rec,
				  err, sizeof(err)) && !rec->structured &&
		     rec->level == cases[i].level &&
		     !strcmp(rec->source, cases[i].source) &&
		     !strcmp(rec->msg, cases[i].msg);
		snprintf(name, sizeof(name), "legacy line %zu", i);
		check(ok, name, err);
		fclog_record_free(rec);
	}
}

/*
 * The kernel's legacy lines start with 'e', 'w' or 'i' (fclog_parse(3)):
 * any other letter, a capital one included, is refused with EBADMSG, not
 * read as info.
 */
static void legacy_unknown_levels(void)
{
	static const char *const lines[] = {
		"q x: y\n", "E x: y\n", "W tmpfs: Unknown parameter 'x'\n",
		"I x: y\n", "  x: y\n", "1 x: y\n",
	};
	struct fclog_record *rec;
	char name[96], err[128];
	size_t i;
	int ret;

	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		err[0] = '\0';
		errno = 0;
		ret = fclog_parse(lines[i], strlen(lines[i]), &rec, err,
				  sizeof(err));
		snprintf(name, sizeof(name),
			 "refused: legacy level '%c' (EBADMSG, %s)", lines[i][0],
			 err);
		check(ret == -1 && errno == EBADMSG && !rec && err[0], name,
		      ret ? "wrong errno or no message" : "parsed");
		if (!ret)
			fclog_record_free(rec);
	}
}

/*
 * A record counts its references: fclog_record_ref() adds one and returns
 * the record, fclog_record_unref() drops one, and the record lives until
 * the last; fclog_record_free() is fclog_record_unref() under its old name.
 */
static void references(void)
{
	static const char line[] = "e tmpfs: Unknown parameter 'x'\n";
	struct fclog_record *rec, *again;
	char err[128] = "";

	if (fclog_parse(line, strlen(line), &rec, err, sizeof(err))) {
		check(0, "references: a record to count", err);
		return;
	}
	again = fclog_record_ref(rec);
	check(again == rec, "fclog_record_ref() returns the record", NULL);
	fclog_record_ref(rec);
	fclog_record_unref(rec);
	fclog_record_free(again);
	/* One reference left: the record is whole (ASan/valgrind would say). */
	check(!strcmp(rec->source, "tmpfs") && rec->level == FCLOG_ERROR,
	      "a record lives while a reference is held", NULL);
	fclog_record_unref(rec);
	check(fclog_record_ref(NULL) == NULL, "fclog_record_ref(NULL) is NULL",
	      NULL);
	fclog_record_unref(NULL);
	fclog_record_free(NULL);
	check(fclog_record_free == fclog_record_unref,
	      "fclog_record_free is fclog_record_unref (one function)", NULL);
}

/* The header's version and the library's. */
static void versions(void)
{
	char want[32], got[32];

	snprintf(want, sizeof(want), "0x%02x%02x%02x", FCLOG_VERSION_MAJOR,
		 FCLOG_VERSION_MINOR, FCLOG_VERSION_MICRO);
	snprintf(got, sizeof(got), "0x%06x", FCLOG_VERSION_HEX);
	check(!strcmp(want, got), "FCLOG_VERSION_HEX is 0xMMmmuu of the three",
	      got);
	check(FCLOG_VERSION_HEX >= 0x030200, "the header is 3.2 or later",
	      NULL);
	check(fclog_version() == FCLOG_VERSION_HEX,
	      "fclog_version() is the header's FCLOG_VERSION_HEX", NULL);
}

static void malformed_records(void)
{
	static const struct {
		const char *name, *json;
	} cases[] = {
		{ "truncated JSON", "{\"seq\":3,\"level\":\"err" },
		{ "trailing garbage", JSON("") " x" },
		{ "a second object", JSON("") "{}" },
		{ "duplicate key", JSON(",\"seq\":4") },
		{ "invalid UTF-8", "{\"seq\":3,\"level\":\"error\",\"source\":\"\xff\","
		  "\"msg\":\"m\"}" },
		{ "seq as a string", "{\"seq\":\"3\",\"level\":\"error\","
		  "\"source\":\"\",\"msg\":\"m\"}" },
		{ "negative lost", JSON(",\"lost\":-1") },
		{ "lost 0", JSON(",\"lost\":0") },
		{ "lost as a string", JSON(",\"lost\":\"2\"") },
		{ "unknown level", "{\"seq\":3,\"level\":\"fatal\","
		  "\"source\":\"\",\"msg\":\"m\"}" },
		{ "truncated not a boolean", JSON(",\"truncated\":1") },
		{ "msg missing", "{\"seq\":3,\"level\":\"error\","
		  "\"source\":\"\"}" },
		{ "not an object", "[1,2,3]" },
		{ "empty JSON", "" },
	};
	char buf[512], name[96], err[128];
	struct fclog_record *rec;
	size_t i, len;
	int ret;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		len = record(buf, LINE, cases[i].json);
		ret = fclog_parse(buf, len, &rec, err, sizeof(err));
		snprintf(name, sizeof(name), "refused: %s (%s)", cases[i].name,
			 err);
		check(ret == -1 && !rec && err[0], name, "parsed");
	}
	check(fclog_parse("e no newline", 12, &rec, err, sizeof(err)) == -1,
	      "refused: a line without its newline", "parsed");
	check(fclog_parse("", 0, &rec, err, sizeof(err)) == -1,
	      "refused: an empty record", "parsed");
	legacy_unknown_levels();
}

/* The largest record a structured line and message make parses. */
static void maximum_record(void)
{
	static char buf[8192], line[1025], json[7000];
	struct fclog_record *rec;
	char err[128] = "";
	size_t len;
	int i, pos;

	memset(line, 'x', 1023);
	memcpy(line, "e k: ", 5);
	line[1023] = '\n';
	/* jansson integers are signed 64-bit: the largest seq it can hold. */
	pos = sprintf(json, "{\"seq\":9223372036854775807,\"level\":\"warning\","
		      "\"source\":\"k\",\"msg\":\"");
	for (i = 0; i < 1018; i++)
		pos += sprintf(json + pos, "\\u0001");
	sprintf(json + pos, "\",\"truncated\":true}");
	len = record(buf, line, json);
	check(len <= sizeof(buf) && !fclog_parse(buf, len, &rec, err, sizeof(err)) &&
	      rec->msg_len == 1018, "maximum-size record", err);
	fclog_record_free(rec);
}

/* Markers of lost records, structured and legacy, and lines that only look like one. */
static void lost_markers(void)
{
	static const struct {
		const char *line;
		unsigned long long lost;
	} legacy[] = {
		{ "w fs_context: 1 message lost\n", 1 },
		{ "w fs_context: 937 messages lost\n", 937 },
		{ "w fs_context: 18446744073709551615 messages lost\n",
		  18446744073709551615ull },
		/* Not as the kernel writes a marker: ordinary lines. */
		{ "w fs_context: 1 messages lost\n", 0 },
		{ "w fs_context: 2 message lost\n", 0 },
		{ "w fs_context: 02 messages lost\n", 0 },
		{ "w fs_context: +2 messages lost\n", 0 },
		{ "w fs_context: 0 messages lost\n", 0 },
		{ "w fs_context: 2 messages lost!\n", 0 },
		{ "e fs_context: 2 messages lost\n", 0 },
		{ "w tmpfs: 2 messages lost\n", 0 },
	};
	char buf[512], name[96], err[128] = "";
	struct fclog_record *rec;
	size_t i, len;
	int ok;

	len = record(buf, "w fs_context: 36 messages lost\n",
		     "{\"seq\":0,\"level\":\"warning\",\"source\":\"fs_context\","
		     "\"msg\":\"36 messages lost\",\"lost\":36}");
	ok = !fclog_parse(buf, len, &rec, err, sizeof(err)) && rec->structured &&
	     rec->seq == 0 && rec->lost == 36 && rec->level == FCLOG_WARNING;
	check(ok, "structured marker of 36 lost records", err);
	fclog_record_free(rec);

	for (i = 0; i < sizeof(legacy) / sizeof(legacy[0]); i++) {
		ok = !fclog_parse(legacy[i].line, strlen(legacy[i].line), &rec,
				  err, sizeof(err)) && rec->lost == legacy[i].lost;
		snprintf(name, sizeof(name), "legacy line '%.*s' stands for %llu",
			 (int)strlen(legacy[i].line) - 1, legacy[i].line,
			 legacy[i].lost);
		check(ok, name, err);
		fclog_record_free(rec);
	}
}

/*
 * The reader, over a socket that keeps record boundaries like the kernel:
 * markers count as lost, gaps nothing explains as unseen.
 */
static void reader_counts_markers_and_gaps(void)
{
	static const struct { unsigned int seq, lost; } sent[] = {
		{ 0, 36 }, { 36, 0 }, { 37, 0 }, { 38, 2 }, { 40, 0 },
		{ 43, 0 },	/* 41 and 42 were read by someone else */
	};
	struct fclog_record *rec;
	char buf[512], json[256], line[64];
	int sv[2], got = 0, r;
	fclog_t *log;
	size_t i;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv)) {
		check(0, "reader over a socketpair", "socketpair failed");
		return;
	}
	for (i = 0; i < sizeof(sent) / sizeof(sent[0]); i++) {
		if (sent[i].lost) {
			snprintf(line, sizeof(line),
				 "w fs_context: %u messages lost\n", sent[i].lost);
			snprintf(json, sizeof(json), "{\"seq\":%u,\"level\":\"warning\","
				 "\"source\":\"fs_context\",\"msg\":\"%u messages lost\","
				 "\"lost\":%u}", sent[i].seq, sent[i].lost,
				 sent[i].lost);
		} else {
			snprintf(line, sizeof(line), "e t: m\n");
			snprintf(json, sizeof(json), "{\"seq\":%u,\"level\":\"error\","
				 "\"source\":\"t\",\"msg\":\"m\"}", sent[i].seq);
		}
		if (write(sv[1], buf, record(buf, line, json)) < 0)
			break;
	}
	if (write(sv[1], "garbage", 7) < 0 || write(sv[1], "e t: m\n", 7) < 0)
		return;
	close(sv[1]);

	log = fclog_new(sv[0]);
	while ((r = fclog_next(log, &rec)) != 0) {
		if (r > 0)
			got++;
		fclog_record_free(rec);
	}
	check(got == 7, "reader returns every good record", NULL);
	check(fclog_lost(log) == 38, "reader sums the markers' \"lost\"", NULL);
	check(fclog_unseen(log) == 2, "reader counts the gaps no marker explains",
	      NULL);
	check(fclog_skipped(log) == 1, "reader counts what it skipped", NULL);
	fclog_free(log);
	close(sv[0]);
}

/* ---------------------------------------------------- structured rejections */

/* Parse LINE + JSON(@extra); 0 on success, the error in @err otherwise. */
static int parse_extra(const char *extra, struct fclog_record **rec, char *err,
		       size_t errlen)
{
	char buf[4096], json[3500];

	snprintf(json, sizeof(json), JSON("%s"), extra);
	err[0] = '\0';
	return fclog_parse(buf, record(buf, LINE, json), rec, err, errlen);
}

static int streq(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/* Every event of the schema, with the errno it comes with (0: none). */
static void every_event(void)
{
	static const struct {
		const char *name;
		enum fclog_event event;
		int errnum;
		bool rejection;
	} events[] = {
		{ "param_rejected", FCLOG_EVENT_PARAM_REJECTED, EINVAL, true },
		{ "param_deprecated", FCLOG_EVENT_PARAM_DEPRECATED, 0, false },
		{ "sb_shared", FCLOG_EVENT_SB_SHARED, 0, false },
		{ "sb_conflict", FCLOG_EVENT_SB_CONFLICT, EBUSY, true },
		{ "create_failed", FCLOG_EVENT_CREATE_FAILED, EBUSY, true },
		{ "reconfigure_failed", FCLOG_EVENT_RECONFIGURE_FAILED, EINVAL,
		  true },
		/* An errno does not make a rejection of a note. */
		{ "sb_shared", FCLOG_EVENT_SB_SHARED, EBUSY, false },
		{ "param_deprecated", FCLOG_EVENT_PARAM_DEPRECATED, EINVAL,
		  false },
	};
	char extra[256], name[96], err[128];
	struct fclog_record *rec;
	size_t i;
	int ok;

	for (i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		if (events[i].errnum)
			snprintf(extra, sizeof(extra),
				 ",\"event\":\"%s\",\"errno\":%d",
				 events[i].name, events[i].errnum);
		else
			snprintf(extra, sizeof(extra), ",\"event\":\"%s\"",
				 events[i].name);
		ok = !parse_extra(extra, &rec, err, sizeof(err)) &&
		     rec->event == events[i].event &&
		     streq(rec->event_name, events[i].name) &&
		     streq(fclog_event_name(rec->event), events[i].name) &&
		     rec->cause == FCLOG_CAUSE_NONE && !rec->cause_name &&
		     rec->errnum == events[i].errnum &&
		     fclog_record_is_rejection(rec) == events[i].rejection;
		snprintf(name, sizeof(name), "event %s%s%s", events[i].name,
			 events[i].errnum ? " with errno" : "",
			 events[i].rejection ? " (a rejection)" : " (no rejection)");
		check(ok, name, err);
		fclog_record_free(rec);
	}
	/* A rejection needs its errno. */
	ok = !parse_extra(",\"event\":\"param_rejected\",\"param\":\"x\"", &rec,
			  err, sizeof(err)) &&
	     rec->event == FCLOG_EVENT_PARAM_REJECTED &&
	     !fclog_record_is_rejection(rec);
	check(ok, "param_rejected without errno: no rejection", err);
	fclog_record_free(rec);
	/*
	 * An event newer than the library is kept by name, and the record is
	 * read as one without an event: no rejection, even with an errno.
	 */
	ok = !parse_extra(",\"event\":\"quota_exceeded\",\"errno\":122,"
			  "\"op\":\"set_future\"", &rec, err, sizeof(err)) &&
	     rec->event == FCLOG_EVENT_OTHER &&
	     streq(rec->event_name, "quota_exceeded") &&
	     !fclog_event_name(rec->event) && !fclog_record_is_rejection(rec) &&
	     rec->op == FCLOG_OP_OTHER && streq(rec->op_name, "set_future") &&
	     !fclog_op_name(rec->op);
	check(ok, "unknown event and op: FCLOG_*_OTHER, names kept, no rejection",
	      err);
	fclog_record_free(rec);
	check(!fclog_event_name(FCLOG_EVENT_NONE) &&
	      !fclog_cause_name(FCLOG_CAUSE_NONE) &&
	      !fclog_op_name(FCLOG_OP_NONE) &&
	      !fclog_cause_name(FCLOG_CAUSE_OTHER) &&
	      !fclog_cause_name(FCLOG_CAUSE_O_PATH + 1),
	      "no name for _NONE, _OTHER and past the last cause", NULL);
}

/* Every cause of the schema, on a param_rejected (or sb_conflict) record. */
static void every_cause(void)
{
	static const struct {
		const char *name;
		enum fclog_cause cause;
		const char *event;
	} causes[] = {
		{ "unknown_param", FCLOG_CAUSE_UNKNOWN_PARAM, "param_rejected" },
		{ "wrong_type", FCLOG_CAUSE_WRONG_TYPE, "param_rejected" },
		{ "bad_value", FCLOG_CAUSE_BAD_VALUE, "param_rejected" },
		{ "unmapped_id", FCLOG_CAUSE_UNMAPPED_ID, "param_rejected" },
		{ "unsupported", FCLOG_CAUSE_UNSUPPORTED, "param_rejected" },
		{ "permission", FCLOG_CAUSE_PERMISSION, "param_rejected" },
		{ "not_found", FCLOG_CAUSE_NOT_FOUND, "param_rejected" },
		{ "not_blockdev", FCLOG_CAUSE_NOT_BLOCKDEV, "param_rejected" },
		{ "not_directory", FCLOG_CAUSE_NOT_DIRECTORY, "param_rejected" },
		{ "o_path", FCLOG_CAUSE_O_PATH, "param_rejected" },
		{ "duplicate", FCLOG_CAUSE_DUPLICATE, "param_rejected" },
		{ "missing", FCLOG_CAUSE_MISSING, "param_rejected" },
		{ "exclusive", FCLOG_CAUSE_EXCLUSIVE, "sb_conflict" },
		{ "other_userns", FCLOG_CAUSE_OTHER_USERNS, "sb_conflict" },
		{ "ro_conflict", FCLOG_CAUSE_RO_CONFLICT, "sb_conflict" },
		{ "incompatible", FCLOG_CAUSE_INCOMPATIBLE, "sb_conflict" },
		{ "unverifiable", FCLOG_CAUSE_UNVERIFIABLE, "sb_conflict" },
		{ "incompatible", FCLOG_CAUSE_INCOMPATIBLE, "create_failed" },
		{ "unverifiable", FCLOG_CAUSE_UNVERIFIABLE, "create_failed" },
	};
	/* With wrong_type: "expected", the command that gives the parameter. */
	static const struct {
		const char *name;
		enum fclog_op op;
	} expected[] = {
		{ "set_flag", FCLOG_OP_SET_FLAG },
		{ "set_string", FCLOG_OP_SET_STRING },
		{ "set_binary", FCLOG_OP_SET_BINARY },
		{ "set_path", FCLOG_OP_SET_PATH },
		{ "set_fd", FCLOG_OP_SET_FD },
		{ "set_later", FCLOG_OP_OTHER },
	};
	char extra[256], name[96], err[128];
	struct fclog_record *rec;
	size_t i;
	int ok;

	for (i = 0; i < sizeof(causes) / sizeof(causes[0]); i++) {
		snprintf(extra, sizeof(extra),
			 ",\"event\":\"%s\",\"cause\":\"%s\",\"errno\":22",
			 causes[i].event, causes[i].name);
		ok = !parse_extra(extra, &rec, err, sizeof(err)) &&
		     rec->cause == causes[i].cause &&
		     streq(rec->cause_name, causes[i].name) &&
		     streq(fclog_cause_name(rec->cause), causes[i].name) &&
		     rec->expected == FCLOG_OP_NONE && !rec->expected_name &&
		     fclog_record_is_rejection(rec);
		snprintf(name, sizeof(name), "cause %s", causes[i].name);
		check(ok, name, err);
		fclog_record_free(rec);
	}
	/* An unknown cause is kept; the rejection stays one. */
	ok = !parse_extra(",\"event\":\"param_rejected\",\"cause\":\"quota\","
			  "\"param\":\"q\",\"errno\":122,\"op\":\"set_string\"",
			  &rec, err, sizeof(err)) &&
	     rec->cause == FCLOG_CAUSE_OTHER && streq(rec->cause_name, "quota") &&
	     !fclog_cause_name(rec->cause) && fclog_record_is_rejection(rec);
	check(ok, "unknown cause: FCLOG_CAUSE_OTHER, name kept, still a rejection",
	      err);
	fclog_record_free(rec);
	/* A rejection without any cause: the filesystem said nothing. */
	ok = !parse_extra(",\"event\":\"param_rejected\",\"param\":\"time_offset\","
			  "\"value\":\"100000\",\"errno\":22,\"op\":\"set_string\"",
			  &rec, err, sizeof(err)) &&
	     rec->cause == FCLOG_CAUSE_NONE && !rec->cause_name &&
	     fclog_record_is_rejection(rec) && streq(rec->value, "100000");
	check(ok, "param_rejected without a cause is a rejection", err);
	fclog_record_free(rec);
	/* wrong_type names the command that gives the parameter. */
	for (i = 0; i < sizeof(expected) / sizeof(expected[0]); i++) {
		snprintf(extra, sizeof(extra),
			 ",\"event\":\"param_rejected\",\"cause\":\"wrong_type\","
			 "\"expected\":\"%s\",\"param\":\"p\",\"errno\":22,"
			 "\"op\":\"set_fd\"", expected[i].name);
		ok = !parse_extra(extra, &rec, err, sizeof(err)) &&
		     rec->cause == FCLOG_CAUSE_WRONG_TYPE &&
		     rec->expected == expected[i].op &&
		     streq(rec->expected_name, expected[i].name) &&
		     rec->op == FCLOG_OP_SET_FD;
		snprintf(name, sizeof(name), "wrong_type, expected %s",
			 expected[i].name);
		check(ok, name, err);
		fclog_record_free(rec);
	}
}

/* Every command of the schema ("op"), and one newer than the library. */
static void every_op(void)
{
	static const struct {
		const char *name;
		enum fclog_op op;
	} ops[] = {
		{ "set_flag", FCLOG_OP_SET_FLAG },
		{ "set_string", FCLOG_OP_SET_STRING },
		{ "set_binary", FCLOG_OP_SET_BINARY },
		{ "set_path", FCLOG_OP_SET_PATH },
		{ "set_fd", FCLOG_OP_SET_FD },
		{ "create", FCLOG_OP_CREATE },
		{ "create_excl", FCLOG_OP_CREATE_EXCL },
		{ "reconfigure", FCLOG_OP_RECONFIGURE },
		{ "create_compatible", FCLOG_OP_CREATE_COMPATIBLE },
	};
	char extra[256], name[96], err[128];
	struct fclog_record *rec;
	size_t i;
	int ok;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		snprintf(extra, sizeof(extra), ",\"event\":\"create_failed\","
			 "\"errno\":16,\"op\":\"%s\",\"recoverable\":true",
			 ops[i].name);
		ok = !parse_extra(extra, &rec, err, sizeof(err)) &&
		     rec->op == ops[i].op && streq(rec->op_name, ops[i].name) &&
		     streq(fclog_op_name(rec->op), ops[i].name);
		snprintf(name, sizeof(name), "op %s", ops[i].name);
		check(ok, name, err);
		fclog_record_free(rec);
	}
	/* The enum keeps the order the library had, the new one last. */
	check(FCLOG_OP_CREATE_COMPATIBLE == FCLOG_OP_RECONFIGURE + 1 &&
	      FCLOG_OP_OTHER == FCLOG_OP_CREATE_COMPATIBLE + 1 &&
	      FCLOG_CAUSE_UNVERIFIABLE == FCLOG_CAUSE_INCOMPATIBLE + 1 &&
	      FCLOG_CAUSE_INCOMPATIBLE == FCLOG_CAUSE_RO_CONFLICT + 1 &&
	      FCLOG_CAUSE_OTHER == FCLOG_CAUSE_UNVERIFIABLE + 1,
	      "new causes and op come after the old ones, before _OTHER", NULL);
	/* 3.1 kept 3.0's values: its causes come after _OTHER. */
	check(FCLOG_CAUSE_OTHER == 16 &&
	      FCLOG_CAUSE_NOT_DIRECTORY == FCLOG_CAUSE_OTHER + 1 &&
	      FCLOG_CAUSE_O_PATH == FCLOG_CAUSE_NOT_DIRECTORY + 1,
	      "causes of libfclog 3.1 come after _OTHER, which keeps its value",
	      NULL);
}

/* An sb_conflict of CREATE_COMPATIBLE with @verdict and @params (JSON). */
#define COMPARED(verdict, params) ",\"event\":\"sb_conflict\"," \
	"\"cause\":\"incompatible\",\"errno\":16," \
	"\"op\":\"create_compatible\",\"superblock\":{\"type\":" \
	"\"debugfs\",\"id\":\"debugfs\"},\"verdict\":\"" verdict "\"," \
	"\"params\":" params

/* Every verdict and every parameter's match, and names newer than both. */
static void every_verdict(void)
{
	static const struct {
		const char *name;
		enum fclog_verdict verdict;
	} verdicts[] = {
		{ "compatible", FCLOG_VERDICT_COMPATIBLE },
		{ "incompatible", FCLOG_VERDICT_INCOMPATIBLE },
		{ "unknown", FCLOG_VERDICT_UNKNOWN },
		{ "half_compatible", FCLOG_VERDICT_OTHER },
	};
	static const struct {
		const char *name;
		enum fclog_match match;
	} matches[] = {
		{ "matches", FCLOG_MATCH_MATCHES },
		{ "differs", FCLOG_MATCH_DIFFERS },
		{ "unknown", FCLOG_MATCH_UNKNOWN },
		{ "differs_slightly", FCLOG_MATCH_OTHER },
	};
	char extra[512], name[96], err[128];
	struct fclog_record *rec;
	size_t i;
	int ok;

	for (i = 0; i < sizeof(verdicts) / sizeof(verdicts[0]); i++) {
		snprintf(extra, sizeof(extra), COMPARED("%s", "{}"),
			 verdicts[i].name);
		ok = !parse_extra(extra, &rec, err, sizeof(err)) &&
		     rec->verdict == verdicts[i].verdict &&
		     streq(rec->verdict_name, verdicts[i].name) &&
		     (verdicts[i].verdict == FCLOG_VERDICT_OTHER ?
		      !fclog_verdict_name(rec->verdict) :
		      streq(fclog_verdict_name(rec->verdict), verdicts[i].name)) &&
		     rec->params && rec->nparams == 0 &&
		     fclog_record_is_rejection(rec);
		snprintf(name, sizeof(name), "verdict %s%s", verdicts[i].name,
			 verdicts[i].verdict == FCLOG_VERDICT_OTHER ?
			 " (newer: FCLOG_VERDICT_OTHER, name kept)" : "");
		check(ok, name, err);
		fclog_record_free(rec);
	}
	for (i = 0; i < sizeof(matches) / sizeof(matches[0]); i++) {
		snprintf(extra, sizeof(extra),
			 COMPARED("incompatible", "{\"ro\":\"matches\",\"mode\":\"%s\"}"),
			 matches[i].name);
		ok = !parse_extra(extra, &rec, err, sizeof(err)) &&
		     rec->nparams == 2 && streq(rec->params[0].name, "ro") &&
		     rec->params[0].match == FCLOG_MATCH_MATCHES &&
		     streq(rec->params[1].name, "mode") &&
		     rec->params[1].match == matches[i].match &&
		     streq(rec->params[1].match_name, matches[i].name) &&
		     (matches[i].match == FCLOG_MATCH_OTHER ?
		      !fclog_match_name(rec->params[1].match) :
		      streq(fclog_match_name(rec->params[1].match),
			    matches[i].name));
		snprintf(name, sizeof(name), "parameter %s%s", matches[i].name,
			 matches[i].match == FCLOG_MATCH_OTHER ?
			 " (newer: FCLOG_MATCH_OTHER, name kept)" : "");
		check(ok, name, err);
		fclog_record_free(rec);
	}
	check(!fclog_verdict_name(FCLOG_VERDICT_NONE) &&
	      !fclog_verdict_name(FCLOG_VERDICT_OTHER) &&
	      !fclog_match_name(FCLOG_MATCH_OTHER) &&
	      streq(fclog_match_name(FCLOG_MATCH_MATCHES), "matches"),
	      "no name for FCLOG_VERDICT_NONE, _OTHER and FCLOG_MATCH_OTHER",
	      NULL);

	/* The kernel's order, whatever the names' alphabetical order. */
	ok = !parse_extra(COMPARED("unknown", "{\"rw\":\"matches\","
				   "\"nolazytime\":\"matches\",\"uid\":\"unknown\","
				   "\"gid\":\"matches\",\"acl\":\"matches\"}"),
			  &rec, err, sizeof(err)) &&
	     rec->nparams == 5 && streq(rec->params[0].name, "rw") &&
	     streq(rec->params[1].name, "nolazytime") &&
	     streq(rec->params[2].name, "uid") &&
	     rec->params[2].match == FCLOG_MATCH_UNKNOWN &&
	     streq(rec->params[3].name, "gid") &&
	     streq(rec->params[4].name, "acl") && !rec->params_truncated &&
	     !rec->params_unlisted;
	check(ok, "params keep the kernel's order", err);
	fclog_record_free(rec);

	ok = !parse_extra(COMPARED("unknown", "{\"mode\":\"matches\"},"
				   "\"params_truncated\":true,\"params_unlisted\":true"),
			  &rec, err, sizeof(err)) &&
	     rec->nparams == 1 && rec->params_truncated && rec->params_unlisted &&
	     rec->params_applied == FCLOG_TRI_UNKNOWN;
	check(ok, "params_truncated and params_unlisted", err);
	fclog_record_free(rec);

	ok = !parse_extra(COMPARED("unknown", "{},\"params_truncated\":false,"
				   "\"params_unlisted\":false"),
			  &rec, err, sizeof(err)) &&
	     rec->params && !rec->nparams && !rec->params_truncated &&
	     !rec->params_unlisted;
	check(ok, "params_truncated and params_unlisted false", err);
	fclog_record_free(rec);

	/* A record without a verdict (other_userns: never compared). */
	ok = !parse_extra(",\"event\":\"sb_conflict\",\"cause\":\"other_userns\","
			  "\"errno\":16,\"op\":\"create_compatible\","
			  "\"superblock\":{\"type\":\"mqueue\"}",
			  &rec, err, sizeof(err)) &&
	     rec->verdict == FCLOG_VERDICT_NONE && !rec->verdict_name &&
	     !rec->params && !rec->nparams &&
	     rec->op == FCLOG_OP_CREATE_COMPATIBLE;
	check(ok, "sb_conflict not compared: no verdict, no params", err);
	fclog_record_free(rec);

	/* Another kernel's parameter names are names like any other. */
	ok = !parse_extra(COMPARED("incompatible",
				   "{\"a\\u00e9\\\"b\":\"differs\"}"),
			  &rec, err, sizeof(err)) &&
	     rec->nparams == 1 && streq(rec->params[0].name, "a\xc3\xa9\"b");
	check(ok, "a parameter name with escapes", err);
	fclog_record_free(rec);
}

/* The schema's examples, every field checked. */
static void schema_examples(void)
{
	struct fclog_record *rec;
	char err[128], buf[1024];
	size_t len;
	int ok;

	ok = !parse_extra(",\"event\":\"param_rejected\",\"cause\":\"bad_value\","
			  "\"param\":\"size\",\"value\":\"abc\",\"errno\":22,"
			  "\"op\":\"set_string\"", &rec, err, sizeof(err)) &&
	     rec->event == FCLOG_EVENT_PARAM_REJECTED &&
	     rec->cause == FCLOG_CAUSE_BAD_VALUE && streq(rec->param, "size") &&
	     streq(rec->value, "abc") && !rec->value_truncated &&
	     rec->errnum == EINVAL && rec->op == FCLOG_OP_SET_STRING &&
	     rec->expected == FCLOG_OP_NONE &&
	     rec->recoverable == FCLOG_TRI_UNKNOWN && !rec->sb_type &&
	     !rec->params && rec->params_applied == FCLOG_TRI_UNKNOWN;
	check(ok, "example: param_rejected, bad_value", err);
	fclog_record_free(rec);

	ok = !parse_extra(",\"event\":\"param_rejected\",\"cause\":\"wrong_type\","
			  "\"expected\":\"set_flag\",\"param\":\"inode64\","
			  "\"value\":\"yes\",\"errno\":22,\"op\":\"set_string\"",
			  &rec, err, sizeof(err)) &&
	     rec->cause == FCLOG_CAUSE_WRONG_TYPE &&
	     rec->expected == FCLOG_OP_SET_FLAG && rec->op == FCLOG_OP_SET_STRING;
	check(ok, "example: param_rejected, wrong_type, expected set_flag", err);
	fclog_record_free(rec);

	ok = !parse_extra(",\"event\":\"param_deprecated\",\"param\":\"posix\","
			  "\"op\":\"set_flag\"", &rec, err, sizeof(err)) &&
	     rec->event == FCLOG_EVENT_PARAM_DEPRECATED &&
	     streq(rec->param, "posix") && rec->op == FCLOG_OP_SET_FLAG &&
	     !rec->errnum && !fclog_record_is_rejection(rec);
	check(ok, "example: param_deprecated, no rejection", err);
	fclog_record_free(rec);

	ok = !parse_extra(",\"event\":\"sb_conflict\",\"cause\":\"exclusive\","
			  "\"errno\":16,\"op\":\"create_excl\","
			  "\"superblock\":{\"type\":\"debugfs\",\"id\":\"debugfs\"}",
			  &rec, err, sizeof(err)) &&
	     rec->event == FCLOG_EVENT_SB_CONFLICT &&
	     rec->cause == FCLOG_CAUSE_EXCLUSIVE && rec->errnum == EBUSY &&
	     rec->op == FCLOG_OP_CREATE_EXCL && streq(rec->sb_type, "debugfs") &&
	     streq(rec->sb_id, "debugfs") && !rec->param &&
	     rec->recoverable == FCLOG_TRI_UNKNOWN &&
	     fclog_record_is_rejection(rec);
	check(ok, "example: sb_conflict, exclusive", err);
	fclog_record_free(rec);

	ok = !parse_extra(",\"event\":\"create_failed\",\"cause\":\"exclusive\","
			  "\"errno\":16,\"op\":\"create_excl\",\"recoverable\":false",
			  &rec, err, sizeof(err)) &&
	     rec->event == FCLOG_EVENT_CREATE_FAILED &&
	     rec->cause == FCLOG_CAUSE_EXCLUSIVE &&
	     rec->recoverable == FCLOG_TRI_FALSE && fclog_record_is_rejection(rec);
	check(ok, "example: create_failed, unrecoverable", err);
	fclog_record_free(rec);

	ok = !parse_extra(",\"event\":\"reconfigure_failed\",\"errno\":22,"
			  "\"op\":\"reconfigure\",\"recoverable\":true",
			  &rec, err, sizeof(err)) &&
	     rec->event == FCLOG_EVENT_RECONFIGURE_FAILED &&
	     rec->cause == FCLOG_CAUSE_NONE && rec->op == FCLOG_OP_RECONFIGURE &&
	     rec->recoverable == FCLOG_TRI_TRUE && fclog_record_is_rejection(rec);
	check(ok, "example: reconfigure_failed, recoverable, no cause", err);
	fclog_record_free(rec);

	ok = !parse_extra(",\"event\":\"sb_shared\",\"op\":\"create_compatible\","
			  "\"superblock\":{\"type\":\"debugfs\",\"id\":\"debugfs\","
			  "\"dev\":7},\"verdict\":\"compatible\",\"params\":"
			  "{\"mode\":\"matches\",\"uid\":\"matches\"},"
			  "\"params_applied\":true", &rec, err, sizeof(err)) &&
	     rec->event == FCLOG_EVENT_SB_SHARED && !rec->errnum &&
	     rec->op == FCLOG_OP_CREATE_COMPATIBLE &&
	     !fclog_record_is_rejection(rec) &&
	     rec->verdict == FCLOG_VERDICT_COMPATIBLE && rec->nparams == 2 &&
	     streq(rec->params[0].name, "mode") &&
	     rec->params[0].match == FCLOG_MATCH_MATCHES &&
	     streq(rec->params[0].match_name, "matches") &&
	     streq(rec->params[1].name, "uid") &&
	     rec->params[1].match == FCLOG_MATCH_MATCHES &&
	     !rec->params_truncated && !rec->params_unlisted &&
	     rec->params_applied == FCLOG_TRI_TRUE;
	check(ok, "example: sb_shared (unknown superblock field ignored)", err);
	fclog_record_free(rec);

	/* The ABI's example of a refusal, verbatim. */
	len = record(buf, "w debugfs: reusing existing filesystem not allowed, "
		     "its settings differ\n", "{\"seq\":3,\"level\":\"warning\","
		     "\"source\":\"debugfs\",\"msg\":\"reusing existing "
		     "filesystem not allowed, its settings differ\",\"event\":"
		     "\"sb_conflict\",\"cause\":\"incompatible\",\"errno\":16,"
		     "\"op\":\"create_compatible\",\"superblock\":{\"type\":"
		     "\"debugfs\",\"id\":\"debugfs\"},\"verdict\":"
		     "\"incompatible\",\"params\":{\"mode\":\"differs\"}}");
	ok = !fclog_parse(buf, len, &rec, err, sizeof(err)) &&
	     rec->event == FCLOG_EVENT_SB_CONFLICT &&
	     rec->cause == FCLOG_CAUSE_INCOMPATIBLE && rec->errnum == EBUSY &&
	     rec->op == FCLOG_OP_CREATE_COMPATIBLE &&
	     rec->verdict == FCLOG_VERDICT_INCOMPATIBLE && rec->nparams == 1 &&
	     streq(rec->params[0].name, "mode") &&
	     rec->params[0].match == FCLOG_MATCH_DIFFERS &&
	     rec->params_applied == FCLOG_TRI_UNKNOWN &&
	     fclog_record_is_rejection(rec);
	check(ok, "example: sb_conflict, incompatible, mode differs", err);
	fclog_record_free(rec);

	/* A filesystem that compares nothing, with nothing set. */
	ok = !parse_extra(",\"event\":\"sb_conflict\",\"cause\":\"unverifiable\","
			  "\"errno\":16,\"op\":\"create_compatible\","
			  "\"superblock\":{\"type\":\"sysfs\",\"id\":\"sysfs\"},"
			  "\"verdict\":\"unknown\",\"params\":{}",
			  &rec, err, sizeof(err)) &&
	     rec->cause == FCLOG_CAUSE_UNVERIFIABLE &&
	     rec->verdict == FCLOG_VERDICT_UNKNOWN && rec->params &&
	     rec->nparams == 0;
	check(ok, "example: sb_conflict, unverifiable, nothing set", err);
	fclog_record_free(rec);

	/* CREATE_EXCL compares too, and keeps its cause. */
	ok = !parse_extra(",\"event\":\"sb_conflict\",\"cause\":\"exclusive\","
			  "\"errno\":16,\"op\":\"create_excl\","
			  "\"superblock\":{\"type\":\"ext4\",\"id\":\"loop0\"},"
			  "\"verdict\":\"incompatible\",\"params\":"
			  "{\"commit\":\"differs\",\"errors\":\"differs\"}",
			  &rec, err, sizeof(err)) &&
	     rec->cause == FCLOG_CAUSE_EXCLUSIVE &&
	     rec->verdict == FCLOG_VERDICT_INCOMPATIBLE && rec->nparams == 2 &&
	     rec->params[1].match == FCLOG_MATCH_DIFFERS;
	check(ok, "example: sb_conflict, exclusive, with a verdict", err);
	fclog_record_free(rec);

	/* Another user namespace's superblock: its type, not which one. */
	ok = !parse_extra(",\"event\":\"sb_conflict\",\"cause\":\"other_userns\","
			  "\"errno\":16,\"superblock\":{\"type\":\"mqueue\"}",
			  &rec, err, sizeof(err)) &&
	     streq(rec->sb_type, "mqueue") && !rec->sb_id;
	check(ok, "superblock of another user namespace: type, no id", err);
	fclog_record_free(rec);

	ok = !parse_extra(",\"event\":\"sb_shared\",\"superblock\":"
			  "{\"type\":\"x\",\"id\":\"\"},\"verdict\":\"unknown\","
			  "\"params\":{},\"params_truncated\":true,"
			  "\"params_applied\":false",
			  &rec, err, sizeof(err)) &&
	     rec->params && rec->nparams == 0 && rec->params_truncated &&
	     rec->params_applied == FCLOG_TRI_FALSE && streq(rec->sb_id, "");
	check(ok, "sb_shared: empty params, truncated, not applied", err);
	fclog_record_free(rec);

	/* Fields may be added, next to the new ones too. */
	ok = !parse_extra(",\"event\":\"param_rejected\",\"cause\":\"unknown_param\","
			  "\"param\":\"x\",\"errno\":22,\"hint\":{\"a\":[1]},"
			  "\"errno_name\":\"EINVAL\"", &rec, err, sizeof(err)) &&
	     rec->cause == FCLOG_CAUSE_UNKNOWN_PARAM && streq(rec->param, "x");
	check(ok, "unknown fields beside the report fields are ignored", err);
	fclog_record_free(rec);

	/* Nothing of a report in a record without the fields. */
	ok = !parse_extra("", &rec, err, sizeof(err)) &&
	     rec->event == FCLOG_EVENT_NONE && !rec->event_name &&
	     rec->cause == FCLOG_CAUSE_NONE && !rec->cause_name &&
	     rec->expected == FCLOG_OP_NONE && !rec->expected_name &&
	     !rec->param && !rec->value && !rec->errnum &&
	     rec->op == FCLOG_OP_NONE && rec->recoverable == FCLOG_TRI_UNKNOWN &&
	     rec->verdict == FCLOG_VERDICT_NONE && !rec->verdict_name &&
	     !rec->params && !rec->nparams && !rec->params_unlisted &&
	     !fclog_record_is_rejection(rec);
	check(ok, "a record without report fields has none", err);
	fclog_record_free(rec);
	ok = !fclog_parse(LINE, strlen(LINE), &rec, err, sizeof(err)) &&
	     !rec->structured && rec->event == FCLOG_EVENT_NONE &&
	     rec->cause == FCLOG_CAUSE_NONE &&
	     !rec->param && !rec->errnum && !fclog_record_is_rejection(rec);
	check(ok, "a legacy line parses with no event", err);
	fclog_record_free(rec);
}

/* A value the kernel cut at 256 bytes, escaped as the encoder does. */
static void truncated_value(void)
{
	char extra[2048], err[128];
	struct fclog_record *rec;
	int i, pos, ok;

	pos = sprintf(extra, ",\"event\":\"param_rejected\",\"cause\":"
		      "\"bad_value\",\"param\":\"k\",\"value\":\"");
	for (i = 0; i < 253; i++)
		pos += sprintf(extra + pos, "\\u00%02x", 1 + i % 31);
	pos += sprintf(extra + pos, "\u00e9\"");	/* 255 bytes, cut at 256 */
	sprintf(extra + pos, ",\"value_truncated\":true,\"errno\":22");
	ok = !parse_extra(extra, &rec, err, sizeof(err)) &&
	     rec->value && strlen(rec->value) == 255 && rec->value_truncated &&
	     rec->value[0] == 1 && !strcmp(rec->value + 253, "\xc3\xa9");
	check(ok, "value_truncated with a 255-byte escaped value", err);
	fclog_record_free(rec);
}

/* Every new field with the wrong type: refused, with a message naming it. */
static void wrong_types(void)
{
	static const struct {
		const char *extra, *names;
	} cases[] = {
		{ ",\"event\":1", "event" },
		{ ",\"event\":null", "event" },
		{ ",\"event\":[\"param_rejected\"]", "event" },
		{ ",\"event\":\"param_rejected\\u0000\"", "event" },
		{ ",\"cause\":true", "cause" },
		{ ",\"cause\":{}", "cause" },
		{ ",\"cause\":\"bad_\\u0000value\"", "cause" },
		{ ",\"expected\":3", "expected" },
		{ ",\"expected\":null", "expected" },
		{ ",\"param\":true", "param" },
		{ ",\"param\":\"a\\u0000b\"", "param" },
		{ ",\"param_truncated\":\"yes\"", "param_truncated" },
		{ ",\"value\":[\"abc\"]", "value" },
		{ ",\"value\":42", "value" },
		{ ",\"value_truncated\":1", "value_truncated" },
		{ ",\"errno\":\"22\"", "errno" },
		{ ",\"errno\":22.0", "errno" },
		{ ",\"errno\":0", "errno" },
		{ ",\"errno\":-22", "errno" },
		{ ",\"errno\":4096", "errno" },
		{ ",\"errno\":true", "errno" },
		{ ",\"op\":6", "op" },
		{ ",\"recoverable\":\"true\"", "recoverable" },
		{ ",\"recoverable\":0", "recoverable" },
		{ ",\"superblock\":\"debugfs\"", "superblock" },
		{ ",\"superblock\":[\"debugfs\",\"debugfs\"]", "superblock" },
		{ ",\"superblock\":null", "superblock" },
		{ ",\"superblock\":{\"id\":\"x\"}", "superblock" },
		{ ",\"superblock\":{\"type\":1,\"id\":\"x\"}", "superblock.type" },
		{ ",\"superblock\":{\"type\":\"x\",\"id\":null}", "superblock.id" },
		{ ",\"superblock\":{\"type\":\"x\",\"id\":\"a\",\"id\":\"b\"}",
		  "duplicate" },
		{ ",\"params\":\"mode\"", "params" },
		{ ",\"params\":null", "params" },
		/* v2's list of keys is no longer the format. */
		{ ",\"params\":[]", "params" },
		{ ",\"params\":[\"mode\",\"uid\"]", "params" },
		{ ",\"params\":{\"mode\":1}", "params.mode" },
		{ ",\"params\":{\"mode\":\"matches\",\"uid\":null}", "params.uid" },
		{ ",\"params\":{\"mode\":true}", "params.mode" },
		{ ",\"params\":{\"mode\":[\"matches\"]}", "params.mode" },
		{ ",\"params\":{\"mode\":{\"match\":\"differs\"}}", "params.mode" },
		{ ",\"params\":{\"mode\":\"matc\\u0000hes\"}", "params.mode" },
		{ ",\"params\":{\"mo\\u0000de\":\"matches\"}", "NUL byte" },
		{ ",\"params\":{\"mode\":\"differs\",\"mode\":\"matches\"}",
		  "duplicate" },
		{ ",\"verdict\":1", "verdict" },
		{ ",\"verdict\":null", "verdict" },
		{ ",\"verdict\":[\"compatible\"]", "verdict" },
		{ ",\"verdict\":\"compat\\u0000ible\"", "verdict" },
		{ ",\"params_truncated\":\"no\"", "params_truncated" },
		{ ",\"params_unlisted\":1", "params_unlisted" },
		{ ",\"params_unlisted\":null", "params_unlisted" },
		{ ",\"params_applied\":1", "params_applied" },
	};
	char name[160], err[128];
	struct fclog_record *rec;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ret = parse_extra(cases[i].extra, &rec, err, sizeof(err));
		snprintf(name, sizeof(name), "refused: %s (%s)", cases[i].extra + 1,
			 err);
		check(ret == -1 && !rec && strstr(err, cases[i].names), name,
		      ret ? "the message does not name the field" : "parsed");
	}
}

/*
 * A rejection record of exactly @size bytes, with every rejection field,
 * into @buf; its parameters are p00000, p00001...: their number in
 * *@params.  @json is scratch of @size bytes.
 */
static size_t make_rejection_record(char *buf, char *json, size_t size,
				    int *params)
{
	char line[1025];
	size_t i, room;
	int pos;

	*params = 0;
	memset(line, 'x', 1023);
	memcpy(line, "w k: ", 5);
	line[1023] = '\n';
	line[1024] = '\0';
	pos = sprintf(json, "{\"seq\":1,\"level\":\"warning\",\"source\":\"k\","
		      "\"msg\":\"m\",\"truncated\":true,"
		      "\"event\":\"sb_shared\",\"param\":\"");
	for (i = 0; i < 255; i++)
		pos += sprintf(json + pos, "\\u001f");
	pos += sprintf(json + pos, "\",\"value\":\"");
	for (i = 0; i < 256; i++)
		pos += sprintf(json + pos, "\\u0001");
	pos += sprintf(json + pos, "\",\"value_truncated\":true,\"op\":\"create\","
		       "\"superblock\":{\"type\":\"debugfs\",\"id\":\"debugfs\"},"
		       "\"verdict\":\"unknown\",\"params\":{");
	/* Fill with parameters, leaving room for the closing fields. */
	room = size - strlen(line) - 1 - 120;
	while ((size_t)pos + 20 < room) {
		pos += sprintf(json + pos, "%s\"p%05d\":\"%s\"",
			       *params ? "," : "", *params,
			       *params % 2 ? "unknown" : "differs");
		(*params)++;
	}
	pos += sprintf(json + pos, "},\"params_truncated\":true,"
		       "\"params_unlisted\":true,"
		       "\"params_applied\":false,\"pad\":\"");
	/* Pad with an unknown field up to the exact size. */
	while (strlen(line) + 1 + pos + 2 < size)
		json[pos++] = 'z';
	strcpy(json + pos, "\"}");
	return record(buf, line, json);
}

/*
 * Read @len bytes of @buf, one record, with a reader over a context-like
 * socket: 1 and the record in *@rec, or what fclog_next() returned, its
 * errno kept and its error in @err; the reads it took in *@reads.
 */
static int read_back(const char *buf, size_t len, struct fclog_record **rec,
		     unsigned int *reads, char *err, size_t err_size)
{
	fclog_t *log;
	int sv[2], r, err_no;

	*rec = NULL;
	snprintf(err, err_size, "socketpair failed");
	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv))
		return -1;
	r = write(sv[1], buf, len) == (ssize_t)len ? 0 : -1;
	close(sv[1]);
	log = fclog_new(sv[0]);
	context_reads = 0;
	if (!r && log)
		r = fclog_next(log, rec);
	err_no = errno;
	*reads = context_reads;
	snprintf(err, err_size, "%s", log ? fclog_error(log) : "fclog_new failed");
	fclog_free(log);
	close(sv[0]);
	errno = err_no;
	return r;
}

/*
 * The kernel's bound on a record is its own, not ABI; a structured record
 * may reach about 24 KiB.  This one is larger: it parses with every
 * rejection field, and the reader, whose first buffer is far smaller,
 * reads it whole: sized by FIONREAD in two reads (the first fails with
 * EMSGSIZE and leaves it), or, on a kernel without FIONREAD, by doubling.
 * A record past 64 KiB is read where FIONREAD gives its size, and refused
 * where nothing does, saying so.
 */
#define LARGE_RECORD	32768
#define UNSIZED_RECORD	40000
#define HUGE_RECORD	100000

/*
 * Read @len bytes of @buf back through a reader (read_back()), FIONREAD
 * answering as fionread_answers says: the record whole, its @params
 * parameters all there, in exactly @want_reads reads.
 */
static void check_read_back(const char *buf, size_t len, int params,
			    unsigned int want_reads, const char *name)
{
	struct fclog_record *rec;
	char err[256] = "", what[300];
	unsigned int reads;
	int r;

	r = read_back(buf, len, &rec, &reads, err, sizeof(err));
	snprintf(what, sizeof(what), "%d, %u reads: %s", r, reads, err);
	check(r == 1 && rec->nparams == (size_t)params && reads == want_reads,
	      name, what);
	fclog_record_free(rec);
}

static void large_rejection_record(void)
{
	char *buf = malloc(HUGE_RECORD), *json = malloc(HUGE_RECORD);
	struct fclog_record *rec, *read_rec = NULL;
	char last[16], err[256] = "", what[300];
	unsigned int reads;
	size_t len;
	int params, r;

	if (!buf || !json) {
		check(0, "large records", "out of memory");
		return;
	}
	len = make_rejection_record(buf, json, LARGE_RECORD, &params);
	snprintf(last, sizeof(last), "p%05d", params - 1);
	check(len == LARGE_RECORD &&
	      !fclog_parse(buf, len, &rec, err, sizeof(err)) &&
	      rec->event == FCLOG_EVENT_SB_SHARED && strlen(rec->param) == 255 &&
	      strlen(rec->value) == 256 && rec->value_truncated &&
	      rec->nparams == (size_t)params &&
	      streq(rec->params[params - 1].name, last) &&
	      rec->params[params - 1].match == ((params - 1) % 2 ?
		FCLOG_MATCH_UNKNOWN : FCLOG_MATCH_DIFFERS) &&
	      rec->params_truncated && rec->params_unlisted &&
	      rec->params_applied == FCLOG_TRI_FALSE,
	      "a 32768-byte rejection record parses", err);
	fclog_record_free(rec);

	check_read_back(buf, len, params, 2,
			"reader reads a 32768-byte record whole, sized by FIONREAD in two reads");

	/*
	 * Without FIONREAD the reader starts at 16 KiB, as libfclog always
	 * did, and doubles: 16, 32, then 64 KiB for a record of 40000 bytes.
	 */
	len = make_rejection_record(buf, json, UNSIZED_RECORD, &params);
	fionread_answers = false;
	check_read_back(buf, len, params, 3,
			"without FIONREAD the reader doubles its buffer from 16 KiB to a 40000-byte record");

	len = make_rejection_record(buf, json, HUGE_RECORD, &params);
	fionread_answers = true;
	check_read_back(buf, len, params, 2,
			"reader reads a 100000-byte record whole where FIONREAD sizes it");

	fionread_answers = false;
	r = read_back(buf, len, &read_rec, &reads, err, sizeof(err));
	snprintf(what, sizeof(what), "%d, errno %d: %s", r, errno, err);
	check(r == -1 && errno == EMSGSIZE && !read_rec &&
	      strstr(err, "larger than 65536 bytes"),
	      "without FIONREAD a record past 64 KiB is refused, EMSGSIZE, saying so",
	      what);
	fionread_answers = true;
	free(buf);
	free(json);
}

/* Send one structured record to @fd: seq, level, then @extra fields. */
static void send_record(int fd, unsigned int seq, const char *level,
			const char *extra)
{
	char buf[1024], json[900];

	snprintf(json, sizeof(json), "{\"seq\":%u,\"level\":\"%s\","
		 "\"source\":\"t\",\"msg\":\"m\"%s}", seq, level,
		 extra);
	if (write(fd, buf, record(buf, "e t: m\n", json)) < 0)
		perror("write");
}

/* Read @log until it has nothing more (the socket is non-blocking). */
static int drain(fclog_t *log)
{
	struct fclog_record *rec;
	int got = 0;

	while (fclog_next(log, &rec) > 0) {
		got++;
		fclog_record_free(rec);	/* the reader keeps its own */
	}
	return got;
}

#define REJECT(key, cause) ",\"event\":\"param_rejected\",\"cause\":\"" \
	cause "\",\"param\":\"" key "\",\"errno\":22,\"op\":\"set_string\""

/* The reader collects rejections since its last reset, and knows the state. */
static void reader_collects_rejections(void)
{
	const struct fclog_record *r;
	unsigned int seq = 0;
	fclog_t *log;
	int sv[2], i, ok;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) ||
	    fcntl(sv[0], F_SETFL, O_NONBLOCK)) {
		check(0, "reader collects rejections", "socketpair failed");
		return;
	}
	log = fclog_new(sv[0]);
	check(fclog_rejections(log) == 0 && !fclog_rejection(log, 0) &&
	      !fclog_rejected(log, "size") &&
	      fclog_recoverable(log) == FCLOG_TRI_UNKNOWN,
	      "a new reader has no rejections, recoverable unknown", NULL);

	/* Parameter phase: three rejections and records that are not. */
	send_record(sv[1], seq++, "error", REJECT("size", "bad_value"));
	send_record(sv[1], seq++, "warning", ",\"event\":\"param_deprecated\","
		    "\"param\":\"posix\",\"op\":\"set_flag\"");
	send_record(sv[1], seq++, "error", "");
	send_record(sv[1], seq++, "error", REJECT("nosuch", "unknown_param"));
	send_record(sv[1], seq++, "error", ",\"event\":\"future_event\","
		    "\"param\":\"future\",\"errno\":22,\"op\":\"set_flag\"");
	send_record(sv[1], seq++, "error", ",\"event\":\"param_rejected\","
		    "\"param\":\"size\",\"value\":\"lots\",\"errno\":22,"
		    "\"op\":\"set_string\"");
	drain(log);
	r = fclog_rejected(log, "size");
	ok = fclog_rejections(log) == 3 &&
	     fclog_rejection(log, 0)->seq == 0 &&
	     fclog_rejection(log, 2)->seq == 5 && !fclog_rejection(log, 3) &&
	     r && r->seq == 5 && streq(r->value, "lots") &&
	     r->cause == FCLOG_CAUSE_NONE &&
	     fclog_rejected(log, "nosuch") && !fclog_rejected(log, "posix") &&
	     !fclog_rejected(log, "future") && !fclog_rejected(log, "siz");
	check(ok, "reader keeps rejections, the latest per key, not warnings "
	      "nor unknown events", NULL);
	check(fclog_recoverable(log) == FCLOG_TRI_TRUE,
	      "after parameter rejections only: recoverable", NULL);

	/* A failed CREATE decides, the latest one. */
	send_record(sv[1], seq++, "error", ",\"event\":\"create_failed\","
		    "\"errno\":22,\"op\":\"create\",\"recoverable\":false");
	drain(log);
	check(fclog_recoverable(log) == FCLOG_TRI_FALSE &&
	      fclog_rejections(log) == 4,
	      "create_failed recoverable:false: unrecoverable", NULL);
	send_record(sv[1], seq++, "error", ",\"event\":\"create_failed\","
		    "\"cause\":\"exclusive\",\"errno\":16,\"op\":\"create_excl\","
		    "\"recoverable\":true");
	drain(log);
	check(fclog_recoverable(log) == FCLOG_TRI_TRUE,
	      "the latest create_failed decides", NULL);
	send_record(sv[1], seq++, "error", ",\"event\":\"create_failed\","
		    "\"errno\":16,\"op\":\"create\"");
	drain(log);
	check(fclog_recoverable(log) == FCLOG_TRI_UNKNOWN,
	      "create_failed without recoverable: unknown", NULL);
	send_record(sv[1], seq++, "error", ",\"event\":\"reconfigure_failed\","
		    "\"errno\":22,\"op\":\"reconfigure\",\"recoverable\":false");
	drain(log);
	r = fclog_rejection(log, fclog_rejections(log) - 1);
	check(fclog_recoverable(log) == FCLOG_TRI_FALSE && r &&
	      r->event == FCLOG_EVENT_RECONFIGURE_FAILED &&
	      r->op == FCLOG_OP_RECONFIGURE && r->errnum == EINVAL,
	      "reconfigure_failed is a rejection and decides: unrecoverable",
	      NULL);
	send_record(sv[1], seq++, "error", ",\"event\":\"reconfigure_failed\","
		    "\"errno\":22,\"op\":\"reconfigure\",\"recoverable\":true");
	drain(log);
	check(fclog_recoverable(log) == FCLOG_TRI_TRUE,
	      "reconfigure_failed recoverable:true: recoverable", NULL);

	/*
	 * Only outcomes decide: an sb_conflict, or a source refused at
	 * create, says nothing of the context until its create_failed.
	 */
	fclog_reset(log);
	send_record(sv[1], seq++, "warning", ",\"event\":\"sb_conflict\","
		    "\"cause\":\"exclusive\",\"errno\":16,\"op\":\"create_excl\","
		    "\"superblock\":{\"type\":\"debugfs\",\"id\":\"debugfs\"}");
	drain(log);
	check(fclog_rejections(log) == 1 &&
	      fclog_recoverable(log) == FCLOG_TRI_UNKNOWN,
	      "sb_conflict alone: a rejection, recoverable unknown", NULL);
	send_record(sv[1], seq++, "error", ",\"event\":\"create_failed\","
		    "\"cause\":\"exclusive\",\"errno\":16,\"op\":\"create_excl\","
		    "\"recoverable\":false");
	drain(log);
	check(fclog_recoverable(log) == FCLOG_TRI_FALSE,
	      "sb_conflict then create_failed: the outcome decides", NULL);
	fclog_reset(log);
	send_record(sv[1], seq++, "error", ",\"event\":\"create_failed\","
		    "\"errno\":22,\"op\":\"create\",\"recoverable\":true");
	send_record(sv[1], seq++, "error", ",\"event\":\"param_rejected\","
		    "\"cause\":\"not_found\",\"param\":\"source\","
		    "\"value\":\"/dev/nope\",\"errno\":2,\"op\":\"create\"");
	drain(log);
	check(fclog_recoverable(log) == FCLOG_TRI_UNKNOWN &&
	      fclog_rejected(log, "source"),
	      "a source refused at create after an outcome: unknown again",
	      NULL);
	send_record(sv[1], seq++, "error", ",\"event\":\"create_failed\","
		    "\"cause\":\"not_found\",\"errno\":2,\"op\":\"create\","
		    "\"recoverable\":true");
	drain(log);
	check(fclog_recoverable(log) == FCLOG_TRI_TRUE,
	      "...until its own create_failed", NULL);
	send_record(sv[1], seq++, "error", REJECT("size", "bad_value"));
	drain(log);
	check(fclog_recoverable(log) == FCLOG_TRI_TRUE,
	      "a parameter refused after a recoverable create: recoverable",
	      NULL);

	fclog_reset(log);
	check(fclog_rejections(log) == 0 && !fclog_rejected(log, "size") &&
	      fclog_recoverable(log) == FCLOG_TRI_UNKNOWN && fclog_unseen(log) == 0,
	      "reset forgets rejections and state, keeps counts", NULL);

	/* Notes are no rejections and decide nothing. */
	send_record(sv[1], seq++, "info", ",\"event\":\"sb_shared\","
		    "\"superblock\":{\"type\":\"mqueue\",\"id\":\"mqueue\"},"
		    "\"verdict\":\"compatible\",\"params\":{},"
		    "\"params_applied\":false");
	drain(log);
	check(fclog_rejections(log) == 0 &&
	      fclog_recoverable(log) == FCLOG_TRI_UNKNOWN,
	      "sb_shared is no rejection", NULL);

	/* Bounded: a flood keeps the newest FCLOG_REJECTIONS_MAX. */
	for (i = 0; i < FCLOG_REJECTIONS_MAX + 44; i++) {
		send_record(sv[1], seq++, "error", REJECT("k", "unknown_param"));
		if (i % 50 == 49)
			drain(log);	/* before the socket buffer fills */
	}
	drain(log);
	ok = fclog_rejections(log) == FCLOG_REJECTIONS_MAX &&
	     fclog_rejection(log, FCLOG_REJECTIONS_MAX - 1)->seq == seq - 1 &&
	     fclog_rejection(log, 0)->seq == seq - FCLOG_REJECTIONS_MAX;
	check(ok, "rejections are bounded, the newest kept", NULL);

	/* Legacy lines are never rejections. */
	fclog_reset(log);
	if (write(sv[1], "e tmpfs: Unknown parameter 'x'\n", 31) < 0)
		perror("write");
	check(drain(log) == 1 && fclog_rejections(log) == 0 &&
	      fclog_recoverable(log) == FCLOG_TRI_UNKNOWN,
	      "a legacy line is no rejection", NULL);
	fclog_free(log);
	close(sv[0]);
	close(sv[1]);
}

/* fclog_print(): @rec as @flags print it, in @out. */
static void print_to(char *out, size_t size, const struct fclog_record *rec,
		     unsigned int flags)
{
	FILE *f = fmemopen(out, size, "w");

	out[0] = '\0';
	if (!f)
		return;
	fclog_print(f, rec, flags);
	fclose(f);
}

static void print_rejections(void)
{
	struct fclog_record *rec;
	char out[1024], err[128];
	json_t *obj;

	if (parse_extra(",\"event\":\"param_rejected\",\"cause\":\"bad_value\","
			"\"param\":\"size\",\"value\":\"a\\u001b[31m\\\"\","
			"\"value_truncated\":true,\"errno\":22,"
			"\"op\":\"set_string\"", &rec, err, sizeof(err))) {
		check(0, "print a rejection", err);
		return;
	}
	print_to(out, sizeof(out), rec, 0);
	check(!strcmp(out, "error   tmpfs: Unknown parameter 'x'\n"),
	      "print: the plain line is unchanged", out);
	print_to(out, sizeof(out), rec, FCLOG_PRINT_DETAIL);
	check(!strcmp(out, "error   tmpfs: Unknown parameter 'x' [param_rejected "
		      "bad_value param=size value=\"a\\x1b[31m\\\"\"(cut) "
		      "errno=EINVAL op=set_string]\n"),
	      "print: details, control bytes escaped", out);
	print_to(out, sizeof(out), rec, FCLOG_PRINT_JSON);
	obj = json_loads(out, 0, NULL);
	check(obj && streq(json_string_value(json_object_get(obj, "event")),
			   "param_rejected") &&
	      streq(json_string_value(json_object_get(obj, "cause")),
		    "bad_value") &&
	      !json_object_get(obj, "expected") &&
	      streq(json_string_value(json_object_get(obj, "value")),
		    "a\x1b[31m\"") &&
	      json_integer_value(json_object_get(obj, "errno")) == 22 &&
	      !json_object_get(obj, "recoverable") &&
	      json_is_true(json_object_get(obj, "value_truncated")) &&
	      !json_object_get(obj, "superblock") &&
	      streq(json_string_value(json_object_get(obj, "msg")),
		    "Unknown parameter 'x'"),
	      "print: JSON carries the report fields", out);
	json_decref(obj);
	fclog_record_free(rec);

	if (parse_extra(",\"event\":\"param_rejected\",\"cause\":\"wrong_type\","
			"\"expected\":\"set_flag\",\"param\":\"inode64\","
			"\"value\":\"yes\",\"errno\":22,\"op\":\"set_string\"",
			&rec, err, sizeof(err))) {
		check(0, "print wrong_type", err);
		return;
	}
	print_to(out, sizeof(out), rec, FCLOG_PRINT_DETAIL);
	check(!strcmp(out, "error   tmpfs: Unknown parameter 'x' [param_rejected "
		      "wrong_type expected=set_flag param=inode64 value=\"yes\" "
		      "errno=EINVAL op=set_string]\n"),
	      "print: wrong_type names the expected command", out);
	print_to(out, sizeof(out), rec, FCLOG_PRINT_JSON);
	obj = json_loads(out, 0, NULL);
	check(obj && streq(json_string_value(json_object_get(obj, "expected")),
			   "set_flag"),
	      "print: JSON carries expected", out);
	json_decref(obj);
	fclog_record_free(rec);

	/* The file causes: a path's value is told back, an fd has none. */
	if (parse_extra(",\"event\":\"param_rejected\",\"cause\":\"not_directory\","
			"\"param\":\"upperdir\",\"value\":\"upper/f\",\"errno\":20,"
			"\"op\":\"set_path\"", &rec, err, sizeof(err))) {
		check(0, "print not_directory", err);
		return;
	}
	print_to(out, sizeof(out), rec, FCLOG_PRINT_DETAIL);
	check(!strcmp(out, "error   tmpfs: Unknown parameter 'x' [param_rejected "
		      "not_directory param=upperdir value=\"upper/f\" "
		      "errno=ENOTDIR op=set_path]\n"),
	      "print: not_directory with the path", out);
	fclog_record_free(rec);
	if (parse_extra(",\"event\":\"param_rejected\",\"cause\":\"o_path\","
			"\"param\":\"workdir\",\"errno\":9,\"op\":\"set_fd\"",
			&rec, err, sizeof(err))) {
		check(0, "print o_path", err);
		return;
	}
	print_to(out, sizeof(out), rec, FCLOG_PRINT_DETAIL);
	check(!strcmp(out, "error   tmpfs: Unknown parameter 'x' [param_rejected "
		      "o_path param=workdir errno=EBADF op=set_fd]\n"),
	      "print: o_path, no value", out);
	fclog_record_free(rec);

	if (parse_extra(",\"event\":\"create_failed\",\"cause\":\"exclusive\","
			"\"errno\":16,\"op\":\"create_excl\",\"recoverable\":true",
			&rec, err, sizeof(err))) {
		check(0, "print create_failed", err);
		return;
	}
	print_to(out, sizeof(out), rec, FCLOG_PRINT_DETAIL);
	check(!strcmp(out, "error   tmpfs: Unknown parameter 'x' [create_failed "
		      "exclusive errno=EBUSY op=create_excl recoverable]\n"),
	      "print: create_failed details", out);
	print_to(out, sizeof(out), rec, FCLOG_PRINT_JSON);
	obj = json_loads(out, 0, NULL);
	check(obj && json_is_true(json_object_get(obj, "recoverable")),
	      "print: JSON carries recoverable", out);
	json_decref(obj);
	fclog_record_free(rec);

	if (parse_extra(",\"event\":\"sb_shared\",\"op\":\"create\","
			"\"superblock\":{\"type\":\"debugfs\",\"id\":\"debugfs\"},"
			"\"verdict\":\"incompatible\",\"params\":{\"mode\":"
			"\"differs\",\"uid\":\"matches\"},\"params_applied\":true",
			&rec, err, sizeof(err))) {
		check(0, "print sb_shared", err);
		return;
	}
	print_to(out, sizeof(out), rec, FCLOG_PRINT_DETAIL);
	check(!strcmp(out, "error   tmpfs: Unknown parameter 'x' [sb_shared "
		      "op=create superblock=debugfs:debugfs verdict=incompatible "
		      "params=mode:differs,uid:matches applied]\n"),
	      "print: sb_shared details, a verdict per parameter", out);
	print_to(out, sizeof(out), rec, FCLOG_PRINT_JSON);
	obj = json_loads(out, JSON_REJECT_DUPLICATES, NULL);
	check(obj && json_object_size(json_object_get(obj, "params")) == 2 &&
	      streq(json_string_value(json_object_get(json_object_get(obj,
			"params"), "mode")), "differs") &&
	      streq(json_string_value(json_object_get(json_object_get(obj,
			"params"), "uid")), "matches") &&
	      streq(json_string_value(json_object_get(obj, "verdict")),
		    "incompatible") &&
	      !json_object_get(obj, "params_unlisted") &&
	      !json_object_get(obj, "params_truncated") &&
	      streq(json_string_value(json_object_get(json_object_get(obj,
			"superblock"), "id")), "debugfs") &&
	      json_is_true(json_object_get(obj, "params_applied")),
	      "print: JSON carries superblock, verdict and params", out);
	/* What fclog_print() writes, libfclog reads back the same. */
	check(obj && !strncmp(out, "{", 1) &&
	      strstr(out, "\"params\":{\"mode\":\"differs\",\"uid\":\"matches\"}"),
	      "print: JSON params in the kernel's order", out);
	json_decref(obj);
	fclog_record_free(rec);

	/* Unknown names, cut and unlisted lists, an empty one. */
	if (parse_extra(",\"event\":\"sb_conflict\",\"cause\":\"unverifiable\","
			"\"errno\":16,\"op\":\"create_compatible\",\"verdict\":"
			"\"unknown\",\"params\":{\"ro\":\"matches\",\"x\\u001b\":"
			"\"sort_of\"},\"params_truncated\":true,"
			"\"params_unlisted\":true", &rec, err, sizeof(err))) {
		check(0, "print an unverifiable sb_conflict", err);
		return;
	}
	print_to(out, sizeof(out), rec, FCLOG_PRINT_DETAIL);
	check(!strcmp(out, "error   tmpfs: Unknown parameter 'x' [sb_conflict "
		      "unverifiable errno=EBUSY op=create_compatible "
		      "verdict=unknown params=ro:matches,x\\x1b:sort_of,... "
		      "unlisted]\n"),
	      "print: cut and unlisted params, an unknown match kept", out);
	print_to(out, sizeof(out), rec, FCLOG_PRINT_JSON);
	obj = json_loads(out, 0, NULL);
	check(obj && streq(json_string_value(json_object_get(json_object_get(obj,
			"params"), "x\x1b")), "sort_of") &&
	      json_is_true(json_object_get(obj, "params_truncated")) &&
	      json_is_true(json_object_get(obj, "params_unlisted")),
	      "print: JSON carries cut and unlisted params", out);
	json_decref(obj);
	fclog_record_free(rec);

	if (parse_extra(",\"event\":\"sb_conflict\",\"cause\":\"unverifiable\","
			"\"errno\":16,\"op\":\"create_compatible\",\"verdict\":"
			"\"unknown\",\"params\":{}", &rec, err, sizeof(err))) {
		check(0, "print an empty params", err);
		return;
	}
	print_to(out, sizeof(out), rec, FCLOG_PRINT_DETAIL);
	check(strstr(out, " verdict=unknown params={}]\n") != NULL,
	      "print: empty params", out);
	print_to(out, sizeof(out), rec, FCLOG_PRINT_JSON);
	obj = json_loads(out, 0, NULL);
	check(obj && json_is_object(json_object_get(obj, "params")) &&
	      !json_object_size(json_object_get(obj, "params")),
	      "print: JSON keeps an empty params object", out);
	json_decref(obj);
	fclog_record_free(rec);
}

int main(void)
{
	printf("TAP version 13\n");
	valid_records();
	long_messages();
	legacy_records();
	references();
	versions();
	malformed_records();
	maximum_record();
	lost_markers();
	reader_counts_markers_and_gaps();
	every_event();
	every_cause();
	every_op();
	every_verdict();
	schema_examples();
	truncated_value();
	wrong_types();
	large_rejection_record();
	reader_collects_rejections();
	print_rejections();
	printf("1..%d\n# %d passed, %d failed\n", n, n - failures, failures);
	return failures ? 1 : 0;
}
