// SPDX-License-Identifier: GPL-2.0
/*
 * libfclog on the host, from fixtures: records of every kind parse into
 * the right fields, malformed ones are refused with a reason, and the reader
 * counts drops and gaps.  TAP, with a closing summary line.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
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
	"\"msg\":\"Unknown parameter 'x'\",\"dropped\":2" extra "}"

static void valid_records(void)
{
	char buf[512], err[128] = "";
	struct fclog_record *rec;
	size_t len;
	int ok;

	len = record(buf, LINE, JSON(""));
	ok = !fclog_parse(buf, len, &rec, err, sizeof(err)) && rec->structured &&
	     rec->seq == 3 && rec->dropped == 2 && rec->level == FCLOG_ERROR &&
	     !strcmp(rec->source, "tmpfs") &&
	     !strcmp(rec->msg, "Unknown parameter 'x'") &&
	     !strcmp(rec->text, "e tmpfs: Unknown parameter 'x'") &&
	     !rec->truncated;
	check(ok, "structured error record", err);
	fclog_record_free(rec);

	len = record(buf, "w vfat: Deprecated parameter 'posix'\n",
		     "{\"seq\":0,\"level\":\"warning\",\"source\":\"vfat\","
		     "\"msg\":\"Deprecated parameter 'posix'\",\"dropped\":0,"
		     "\"truncated\":true}");
	ok = !fclog_parse(buf, len, &rec, err, sizeof(err)) &&
	     rec->level == FCLOG_WARNING && rec->truncated;
	check(ok, "structured warning, truncated", err);
	fclog_record_free(rec);

	len = record(buf, "i no prefix\n", "{\"seq\":9,\"level\":\"info\","
		     "\"source\":\"\",\"msg\":\"no prefix\",\"dropped\":0}");
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
		     "\"source\":\"k\",\"msg\":\"a\\u0000b\\u00e9\",\"dropped\":0}");
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
		  "\"msg\":\"m\",\"dropped\":0}" },
		{ "seq as a string", "{\"seq\":\"3\",\"level\":\"error\","
		  "\"source\":\"\",\"msg\":\"m\",\"dropped\":0}" },
		{ "negative dropped", "{\"seq\":3,\"level\":\"error\","
		  "\"source\":\"\",\"msg\":\"m\",\"dropped\":-1}" },
		{ "unknown level", "{\"seq\":3,\"level\":\"fatal\","
		  "\"source\":\"\",\"msg\":\"m\",\"dropped\":0}" },
		{ "truncated not a boolean", JSON(",\"truncated\":1") },
		{ "msg missing", "{\"seq\":3,\"level\":\"error\","
		  "\"source\":\"\",\"dropped\":0}" },
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
}

/* The largest record the kernel can send parses. */
static void maximum_record(void)
{
	static char buf[FSCONTEXT_LOG_RECORD_MAX], line[1025], json[7000];
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
	sprintf(json + pos, "\",\"dropped\":0,\"truncated\":true}");
	len = record(buf, line, json);
	check(len <= sizeof(buf) && !fclog_parse(buf, len, &rec, err, sizeof(err)) &&
	      rec->msg_len == 1018, "maximum-size record", err);
	fclog_record_free(rec);
}

/* The reader, over a socket that keeps record boundaries like the kernel. */
static void reader_counts_drops_and_gaps(void)
{
	static const struct { unsigned int seq, dropped; } sent[] = {
		{ 36, 36 }, { 37, 0 }, { 40, 2 }, { 41, 0 },
	};
	struct fclog_record *rec;
	char buf[512], json[256];
	int sv[2], got = 0, r;
	fclog_t *log;
	size_t i;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv)) {
		check(0, "reader over a socketpair", "socketpair failed");
		return;
	}
	for (i = 0; i < sizeof(sent) / sizeof(sent[0]); i++) {
		snprintf(json, sizeof(json), "{\"seq\":%u,\"level\":\"error\","
			 "\"source\":\"t\",\"msg\":\"m\",\"dropped\":%u}",
			 sent[i].seq, sent[i].dropped);
		if (write(sv[1], buf, record(buf, "e t: m\n", json)) < 0)
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
	/* Four structured records and the legacy line; 0-35, 38 and 39 lost. */
	check(got == 5, "reader returns every good record", NULL);
	check(fclog_dropped(log) == 38, "reader sums \"dropped\"", NULL);
	check(fclog_unseen(log) == 38, "reader counts seq gaps", NULL);
	check(fclog_skipped(log) == 1, "reader counts what it skipped", NULL);
	fclog_free(log);
	close(sv[0]);
}

int main(void)
{
	printf("TAP version 13\n");
	valid_records();
	legacy_records();
	malformed_records();
	maximum_record();
	reader_counts_drops_and_gaps();
	printf("1..%d\n# %d passed, %d failed\n", n, n - failures, failures);
	return failures ? 1 : 0;
}
