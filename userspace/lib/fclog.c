// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libfclog: parse and read fs_context log records; see fclog.h.
 *
 * A structured record is "<line>\n" NUL "<JSON object>", nothing after the
 * object.  The object is parsed strictly (jansson: valid UTF-8, no
 * duplicate keys, no trailing data) and its known fields must have their
 * documented types; unknown fields are ignored, as the format allows fields
 * to be added.  A legacy record is the line alone.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>
#include <linux/mount.h>

#include "fclog.h"

/* Stock kernels bound nothing; past this, a legacy line is refused. */
#define FCLOG_LEGACY_MAX	(64 * 1024)

struct fclog {
	int fd;
	char *buf;
	size_t size;
	bool have_seq;		/* A structured record was read */
	uint64_t next_seq;	/* After the last one */
	uint64_t dropped, unseen, skipped;
	char error[256];
};

static const char *const level_names[] = {
	[FCLOG_INFO] = "info",
	[FCLOG_WARNING] = "warning",
	[FCLOG_ERROR] = "error",
};

const char *fclog_level_name(enum fclog_level level)
{
	return level <= FCLOG_ERROR ? level_names[level] : "?";
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	errno = EBADMSG;
	return -1;
}

void fclog_record_free(struct fclog_record *rec)
{
	if (!rec)
		return;
	free(rec->source);
	free(rec->msg);
	free(rec->text);
	free(rec);
}

/*
 * "<l> <prefix>: <message>": the line does not mark where a prefix ends, so
 * take the text before the first ": " as the prefix if it has no space in
 * it ("tmpfs: Bad value..."), and no prefix otherwise ("Multiple sources").
 */
static int parse_legacy(struct fclog_record *rec, char *err, size_t errlen)
{
	const char *line = rec->text, *colon, *msg;

	if (strlen(line) < 2 || line[1] != ' ')
		return fail(err, errlen, "legacy line without a level: '%.40s'",
			    line);
	rec->level = line[0] == 'e' ? FCLOG_ERROR :
		     line[0] == 'w' ? FCLOG_WARNING : FCLOG_INFO;
	msg = line + 2;
	colon = strstr(msg, ": ");
	if (colon && colon > msg && !memchr(msg, ' ', colon - msg)) {
		rec->source = strndup(msg, colon - msg);
		msg = colon + 2;
	} else {
		rec->source = strdup("");
	}
	rec->msg = strdup(msg);
	rec->msg_len = strlen(msg);
	if (!rec->source || !rec->msg)
		return -1;
	return 0;
}

/* The string field @name of @obj, copied; -1 if it is missing or no string. */
static int get_string(json_t *obj, const char *name, char **out, size_t *len,
		      char *err, size_t errlen)
{
	json_t *v = json_object_get(obj, name);

	if (!json_is_string(v))
		return fail(err, errlen, "\"%s\" is %s", name,
			    v ? "not a string" : "missing");
	*out = malloc(json_string_length(v) + 1);
	if (!*out)
		return -1;
	memcpy(*out, json_string_value(v), json_string_length(v) + 1);
	if (len)
		*len = json_string_length(v);
	return 0;
}

static int get_count(json_t *obj, const char *name, uint64_t *out, char *err,
		     size_t errlen)
{
	json_t *v = json_object_get(obj, name);

	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return fail(err, errlen, "\"%s\" is %s", name,
			    v ? "not a count" : "missing");
	*out = json_integer_value(v);
	return 0;
}

static int parse_json(struct fclog_record *rec, const char *json, size_t len,
		      char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *obj, *v;
	char *level = NULL;
	int ret = -1, i;

	/* \u0000 is valid JSON: a message may hold NUL bytes. */
	obj = json_loadb(json, len, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL,
			 &jerr);
	if (!obj)
		return fail(err, errlen, "bad JSON at %d: %s", jerr.position,
			    jerr.text);
	if (!json_is_object(obj)) {
		fail(err, errlen, "JSON is not an object");
		goto out;
	}
	if (get_count(obj, "seq", &rec->seq, err, errlen) ||
	    get_count(obj, "dropped", &rec->dropped, err, errlen) ||
	    get_string(obj, "source", &rec->source, NULL, err, errlen) ||
	    get_string(obj, "msg", &rec->msg, &rec->msg_len, err, errlen) ||
	    get_string(obj, "level", &level, NULL, err, errlen))
		goto out;
	for (i = FCLOG_INFO; i <= FCLOG_ERROR; i++)
		if (!strcmp(level, level_names[i]))
			break;
	if (i > FCLOG_ERROR) {
		fail(err, errlen, "unknown level \"%.20s\"", level);
		goto out;
	}
	rec->level = i;
	v = json_object_get(obj, "truncated");
	if (v && !json_is_boolean(v)) {
		fail(err, errlen, "\"truncated\" is not a boolean");
		goto out;
	}
	rec->truncated = json_is_true(v);
	rec->structured = true;
	ret = 0;
out:
	free(level);
	json_decref(obj);
	return ret;
}

int fclog_parse(const void *buf, size_t len, struct fclog_record **out,
		char *err, size_t errlen)
{
	const char *p = buf, *nul = memchr(p, '\0', len);
	size_t text_len = nul ? (size_t)(nul - p) : len;
	struct fclog_record *rec;

	*out = NULL;
	if (!text_len || p[text_len - 1] != '\n')
		return fail(err, errlen, "the line does not end in a newline");
	rec = calloc(1, sizeof(*rec));
	if (!rec)
		return -1;
	rec->text = strndup(p, text_len - 1);
	if (!rec->text ||
	    (nul ? parse_json(rec, nul + 1, len - text_len - 1, err, errlen) :
		   parse_legacy(rec, err, errlen))) {
		fclog_record_free(rec);
		return -1;
	}
	*out = rec;
	return 0;
}

void fclog_print(FILE *f, const struct fclog_record *rec, unsigned int flags)
{
	static const char *const colour[] = {
		[FCLOG_INFO] = "", [FCLOG_WARNING] = "\033[33m",
		[FCLOG_ERROR] = "\033[31m",
	};
	bool c = flags & FCLOG_PRINT_COLOUR;
	json_t *obj;

	if (flags & FCLOG_PRINT_JSON) {
		obj = json_pack("{s:s, s:s, s:s%, s:b, s:I, s:I, s:b}",
				"level", fclog_level_name(rec->level),
				"source", rec->source,
				"msg", rec->msg, rec->msg_len,
				"structured", rec->structured,
				"seq", (json_int_t)rec->seq,
				"dropped", (json_int_t)rec->dropped,
				"truncated", rec->truncated);
		if (obj) {
			json_dumpf(obj, f, JSON_COMPACT);
			fputc('\n', f);
			json_decref(obj);
		}
		return;
	}
	fprintf(f, "%s%-7s%s %s%s%s%s\n", c ? colour[rec->level] : "",
		fclog_level_name(rec->level), c ? "\033[0m" : "", rec->source,
		*rec->source ? ": " : "", rec->msg,
		rec->truncated ? " [cut]" : "");
}

fclog_t *fclog_new(int fd)
{
	fclog_t *log = calloc(1, sizeof(*log));

	if (!log)
		return NULL;
	log->fd = fd;
	log->size = FSCONTEXT_LOG_RECORD_MAX;
	log->buf = malloc(log->size);
	if (!log->buf) {
		free(log);
		return NULL;
	}
	return log;
}

void fclog_free(fclog_t *log)
{
	if (!log)
		return;
	free(log->buf);
	free(log);
}

const char *fclog_error(const fclog_t *log)
{
	return log->error;
}

uint64_t fclog_dropped(const fclog_t *log)
{
	return log->dropped;
}

uint64_t fclog_unseen(const fclog_t *log)
{
	return log->unseen;
}

uint64_t fclog_skipped(const fclog_t *log)
{
	return log->skipped;
}

/* Account for what came before @rec: reported drops and seq gaps. */
static void account(fclog_t *log, const struct fclog_record *rec)
{
	if (!rec->structured)
		return;
	log->dropped += rec->dropped;
	if (log->have_seq && rec->seq > log->next_seq)
		log->unseen += rec->seq - log->next_seq;
	else if (!log->have_seq)
		log->unseen += rec->seq;
	log->have_seq = true;
	log->next_seq = rec->seq + 1;
}

int fclog_next(fclog_t *log, struct fclog_record **rec)
{
	ssize_t n;
	char *bigger;

	*rec = NULL;
	log->error[0] = '\0';
	for (;;) {
		n = read(log->fd, log->buf, log->size);
		if (n == 0)	/* Not from a context fd, but an end all the same */
			return 0;
		if (n > 0)
			break;
		if (errno == ENODATA)
			return 0;
		if (errno != EMSGSIZE || log->size >= FCLOG_LEGACY_MAX) {
			snprintf(log->error, sizeof(log->error), "read: %s%s",
				 strerror(errno), errno == EMSGSIZE ?
				 " (record larger than 64 KiB)" : "");
			return -1;
		}
		/* Only a stock kernel's unbounded legacy lines get here. */
		bigger = realloc(log->buf, log->size * 2);
		if (!bigger)
			return -1;
		log->buf = bigger;
		log->size *= 2;
	}
	if (fclog_parse(log->buf, n, rec, log->error, sizeof(log->error))) {
		log->skipped++;
		return -1;
	}
	account(log, *rec);
	return 1;
}
