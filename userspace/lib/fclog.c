// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libfclog: parse and read fs_context log records; see fclog.h.
 *
 * A structured record is "<line>\n" NUL "<JSON object>", nothing after the
 * object.  The object is parsed strictly (jansson: valid UTF-8, no
 * duplicate keys, no trailing data) and its known fields must have their
 * documented types; unknown fields are ignored, as the format allows fields
 * to be added.  A legacy record is the line alone.
 *
 * Records are reference counted, so that a reader can keep the rejections
 * it returned (fclog_rejections()) while callers free their records as
 * they always did.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <jansson.h>
#include <linux/mount.h>

#include "fclog.h"

/*
 * A reader's first buffer.  Most records are a few hundred bytes (a line
 * and a report of a few fields); a larger one fails the read with
 * EMSGSIZE, which leaves it in place, and fclog_next() grows the buffer to
 * the size FIONREAD gives, then reads it again.  The kernel's bound on a
 * record is its own, not ABI: nothing here relies on it.
 */
#define FCLOG_FIRST_SIZE	1024

/*
 * The first buffer where the fd does not answer FIONREAD (a kernel without
 * the series): what libfclog always started with, since such a kernel
 * cannot say how large a record is, and older kernels (before
 * fetch_message_locked() checked the size) took a message off the log
 * even when a read's buffer was too small for it.
 */
#define FCLOG_UNSIZED_FIRST_SIZE	16384

/*
 * A kernel without FIONREAD on a context (stock) does not say how large a
 * record is, and bounds nothing: the buffer doubles up to this, past which
 * a legacy line is refused.
 */
#define FCLOG_LEGACY_MAX	(64 * 1024)

/*
 * The most FIONREAD may make the buffer: far past any record a kernel
 * makes (a structured record may reach about 24 KiB), so that a size that
 * is no record's cannot make the reader allocate without end.
 */
#define FCLOG_SIZED_MAX		(1024 * 1024)

/* The kernel's MAX_ERRNO: "errno" is what a syscall returned. */
#define FCLOG_MAX_ERRNO		4095

struct fclog {
	int fd;
	char *buf;
	size_t size;
	bool have_seq;		/* A structured record was read */
	uint64_t next_seq;	/* After the last one */
	uint64_t lost, unseen, skipped;
	/* Since the last fclog_reset(), each holding a reference: */
	struct fclog_record *rejections[FCLOG_REJECTIONS_MAX];
	size_t nrejections;
	/* The latest create_failed or reconfigure_failed: the context's fate */
	struct fclog_record *outcome;
	/*
	 * A rejection of a create or reconfigure was read after the outcome
	 * above, if any: the call's own outcome is still to come.
	 */
	bool pending;
	char error[256];
};

/*
 * A record and its reference count, which callers never see: the record
 * comes first, so that a record's address is its box's.
 */
struct fclog_box {
	struct fclog_record rec;
	unsigned int refs;
};

struct fclog_record *fclog_record_ref(struct fclog_record *rec)
{
	struct fclog_box *box = (struct fclog_box *)rec;

	if (rec)
		__atomic_add_fetch(&box->refs, 1, __ATOMIC_RELAXED);
	return rec;
}

unsigned int fclog_version(void)
{
	return FCLOG_VERSION_HEX;
}

static const char *const level_names[] = {
	[FCLOG_INFO] = "info",
	[FCLOG_WARNING] = "warning",
	[FCLOG_ERROR] = "error",
};

const char *fclog_level_name(enum fclog_level level)
{
	return level <= FCLOG_ERROR ? level_names[level] : "?";
}

/* Documentation/filesystems/mount_api.rst of the series; ABI. */
static const char *const event_names[] = {
	[FCLOG_EVENT_PARAM_REJECTED] = "param_rejected",
	[FCLOG_EVENT_PARAM_DEPRECATED] = "param_deprecated",
	[FCLOG_EVENT_SB_SHARED] = "sb_shared",
	[FCLOG_EVENT_SB_CONFLICT] = "sb_conflict",
	[FCLOG_EVENT_CREATE_FAILED] = "create_failed",
	[FCLOG_EVENT_RECONFIGURE_FAILED] = "reconfigure_failed",
};

/* Entries 0 (_NONE) and FCLOG_CAUSE_OTHER are NULL: they have no name. */
static const char *const cause_names[] = {
	[FCLOG_CAUSE_UNKNOWN_PARAM] = "unknown_param",
	[FCLOG_CAUSE_WRONG_TYPE] = "wrong_type",
	[FCLOG_CAUSE_BAD_VALUE] = "bad_value",
	[FCLOG_CAUSE_UNMAPPED_ID] = "unmapped_id",
	[FCLOG_CAUSE_UNSUPPORTED] = "unsupported",
	[FCLOG_CAUSE_PERMISSION] = "permission",
	[FCLOG_CAUSE_NOT_FOUND] = "not_found",
	[FCLOG_CAUSE_NOT_BLOCKDEV] = "not_blockdev",
	[FCLOG_CAUSE_DUPLICATE] = "duplicate",
	[FCLOG_CAUSE_MISSING] = "missing",
	[FCLOG_CAUSE_EXCLUSIVE] = "exclusive",
	[FCLOG_CAUSE_OTHER_USERNS] = "other_userns",
	[FCLOG_CAUSE_RO_CONFLICT] = "ro_conflict",
	[FCLOG_CAUSE_INCOMPATIBLE] = "incompatible",
	[FCLOG_CAUSE_UNVERIFIABLE] = "unverifiable",
	[FCLOG_CAUSE_NOT_DIRECTORY] = "not_directory",
	[FCLOG_CAUSE_O_PATH] = "o_path",
};
#define FCLOG_NCAUSES	(sizeof(cause_names) / sizeof(cause_names[0]))

static const char *const op_names[] = {
	[FCLOG_OP_SET_FLAG] = "set_flag",
	[FCLOG_OP_SET_STRING] = "set_string",
	[FCLOG_OP_SET_BINARY] = "set_binary",
	[FCLOG_OP_SET_PATH] = "set_path",
	[FCLOG_OP_SET_FD] = "set_fd",
	[FCLOG_OP_CREATE] = "create",
	[FCLOG_OP_CREATE_EXCL] = "create_excl",
	[FCLOG_OP_RECONFIGURE] = "reconfigure",
	[FCLOG_OP_CREATE_COMPATIBLE] = "create_compatible",
};

static const char *const verdict_names[] = {
	[FCLOG_VERDICT_COMPATIBLE] = "compatible",
	[FCLOG_VERDICT_INCOMPATIBLE] = "incompatible",
	[FCLOG_VERDICT_UNKNOWN] = "unknown",
};

/* Entry 0 is used: every parameter has a verdict. */
static const char *const match_names[] = {
	[FCLOG_MATCH_MATCHES] = "matches",
	[FCLOG_MATCH_DIFFERS] = "differs",
	[FCLOG_MATCH_UNKNOWN] = "unknown",
};

const char *fclog_event_name(enum fclog_event event)
{
	return event < FCLOG_EVENT_OTHER ? event_names[event] : NULL;
}

const char *fclog_cause_name(enum fclog_cause cause)
{
	return (size_t)cause < FCLOG_NCAUSES ? cause_names[cause] : NULL;
}

const char *fclog_op_name(enum fclog_op op)
{
	return op < FCLOG_OP_OTHER ? op_names[op] : NULL;
}

const char *fclog_verdict_name(enum fclog_verdict verdict)
{
	return verdict < FCLOG_VERDICT_OTHER ? verdict_names[verdict] : NULL;
}

const char *fclog_match_name(enum fclog_match match)
{
	return match < FCLOG_MATCH_OTHER ? match_names[match] : NULL;
}

/*
 * The index of @name among the @n entries of @names from @first on, or
 * @other; NULL entries name nothing.
 */
static int lookup_from(const char *const *names, int first, int n, int other,
		       const char *name)
{
	int i;

	for (i = first; i < n; i++)
		if (names[i] && !strcmp(names[i], name))
			return i;
	return other;
}

/* The same, entry 0 (_NONE) unused and _OTHER last. */
static int lookup(const char *const *names, int other, const char *name)
{
	return lookup_from(names, 1, other, other, name);
}

bool fclog_record_is_rejection(const struct fclog_record *rec)
{
	switch (rec->event) {
	case FCLOG_EVENT_PARAM_REJECTED:
	case FCLOG_EVENT_SB_CONFLICT:
	case FCLOG_EVENT_CREATE_FAILED:
	case FCLOG_EVENT_RECONFIGURE_FAILED:
		return rec->errnum > 0;
	default:
		return false;
	}
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

void fclog_record_unref(struct fclog_record *rec)
{
	struct fclog_box *box = (struct fclog_box *)rec;
	size_t i;

	if (!rec || __atomic_sub_fetch(&box->refs, 1, __ATOMIC_ACQ_REL))
		return;
	free(rec->source);
	free(rec->msg);
	free(rec->text);
	free(rec->event_name);
	free(rec->cause_name);
	free(rec->expected_name);
	free(rec->param);
	free(rec->value);
	free(rec->op_name);
	free(rec->sb_type);
	free(rec->sb_id);
	free(rec->verdict_name);
	for (i = 0; i < rec->nparams; i++) {
		free(rec->params[i].name);
		free(rec->params[i].match_name);
	}
	free(rec->params);
	free(box);
}

/*
 * fclog_record_free() was the name of fclog_record_unref() until 3.2, when
 * fclog_record_ref() made the pair: programs built against 3.0 and 3.1
 * call it, bound to FCLOG_3.0, so it stays there, the same function.  It is
 * the default version of the name (@@), so that their sources still build.
 */
void fclog_record_free_v3_0(struct fclog_record *rec)
	__attribute__((alias("fclog_record_unref")));
__asm__(".symver fclog_record_free_v3_0, fclog_record_free@@FCLOG_3.0");

/*
 * A legacy log has no field to say that a line is the marker of lost
 * records, but only the VFS logs as "fs_context", and only the marker reads
 * exactly so: take the count from it.
 */
static void legacy_marker(struct fclog_record *rec)
{
	unsigned long long lost;
	char want[64];

	if (rec->level != FCLOG_WARNING || strcmp(rec->source, "fs_context") ||
	    sscanf(rec->msg, "%llu", &lost) != 1)
		return;
	/* Nothing else: no sign, no spaces, no leading zeros. */
	snprintf(want, sizeof(want), "%llu message%s lost", lost,
		 lost == 1 ? "" : "s");
	if (lost && !strcmp(rec->msg, want))
		rec->lost = lost;
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
	/*
	 * The kernel writes only these three letters: anything else is not
	 * a line of its log, and a level guessed for it would be a lie.
	 */
	switch (line[0]) {
	case 'e': rec->level = FCLOG_ERROR; break;
	case 'w': rec->level = FCLOG_WARNING; break;
	case 'i': rec->level = FCLOG_INFO; break;
	default:
		return fail(err, errlen, "unknown level '%c' in legacy line: '%.40s'",
			    line[0], line);
	}
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
	legacy_marker(rec);
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

/*
 * A name-like string of the report fields: @v must be a string without
 * NUL (it was a C string in the kernel; one with a NUL would compare equal
 * to a key it is not).  @name is for the message.
 */
static int copy_name(json_t *v, const char *name, char **out, char *err,
		     size_t errlen)
{
	if (!json_is_string(v))
		return fail(err, errlen, "\"%s\" is not a string", name);
	if (strlen(json_string_value(v)) != json_string_length(v))
		return fail(err, errlen, "\"%s\" holds a NUL byte", name);
	*out = strdup(json_string_value(v));
	return *out ? 0 : -1;
}

/* An optional string field: absent leaves *@out NULL. */
static int opt_string(json_t *obj, const char *name, char **out, char *err,
		      size_t errlen)
{
	json_t *v = json_object_get(obj, name);

	return v ? copy_name(v, name, out, err, errlen) : 0;
}

/* An optional boolean field, as a bool (absent: false) and a tri-state. */
static int opt_bool(json_t *obj, const char *name, bool *out,
		    enum fclog_tri *tri, char *err, size_t errlen)
{
	json_t *v = json_object_get(obj, name);

	if (!v)
		return 0;
	if (!json_is_boolean(v))
		return fail(err, errlen, "\"%s\" is not a boolean", name);
	if (out)
		*out = json_is_true(v);
	if (tri)
		*tri = json_is_true(v) ? FCLOG_TRI_TRUE : FCLOG_TRI_FALSE;
	return 0;
}

/* "superblock": {"type": string[, "id": string]}. */
static int parse_superblock(struct fclog_record *rec, json_t *sb, char *err,
			    size_t errlen)
{
	json_t *type = json_object_get(sb, "type"), *id = json_object_get(sb, "id");

	if (!json_is_object(sb))
		return fail(err, errlen, "\"superblock\" is not an object");
	if (!type)
		return fail(err, errlen, "\"superblock\" has no \"type\"");
	/* No "id": a superblock of another user namespace, not named. */
	return copy_name(type, "superblock.type", &rec->sb_type, err, errlen) ?:
	       (id ? copy_name(id, "superblock.id", &rec->sb_id, err, errlen) :
		0);
}

/*
 * "params": an object mapping each parameter set to its verdict, a string;
 * kept in the kernel's order (jansson keeps an object's insertion order).
 * A parameter's name comes from a C string in the kernel, like the keys of
 * the other fields: one with a NUL is refused.  An unknown verdict is kept
 * by name, as FCLOG_MATCH_OTHER.
 */
static int parse_params(struct fclog_record *rec, json_t *params, char *err,
			size_t errlen)
{
	struct fclog_param *p;
	char name[48];
	const char *key;
	size_t keylen;
	json_t *v;

	if (!json_is_object(params))
		return fail(err, errlen, "\"params\" is not an object");
	/* calloc: every entry NULL until set, which fclog_record_unref() needs. */
	rec->params = calloc(json_object_size(params) + 1, sizeof(*rec->params));
	if (!rec->params)
		return -1;
	json_object_keylen_foreach(params, key, keylen, v) {
		snprintf(name, sizeof(name), "params.%.32s", key);
		if (strlen(key) != keylen)
			return fail(err, errlen, "a \"params\" key holds a NUL byte");
		p = &rec->params[rec->nparams++];
		p->name = strdup(key);
		if (!p->name || copy_name(v, name, &p->match_name, err, errlen))
			return -1;
		p->match = lookup_from(match_names, 0, FCLOG_MATCH_OTHER,
				       FCLOG_MATCH_OTHER, p->match_name);
	}
	return 0;
}

/*
 * The report fields (the series' mount_api.rst): each optional, each
 * type-checked; an unknown event, cause or op is kept by name, as the sets
 * may grow.
 */
static int parse_report(struct fclog_record *rec, json_t *obj, char *err,
			size_t errlen)
{
	json_t *v;

	if (opt_string(obj, "event", &rec->event_name, err, errlen) ||
	    opt_string(obj, "cause", &rec->cause_name, err, errlen) ||
	    opt_string(obj, "expected", &rec->expected_name, err, errlen) ||
	    opt_string(obj, "param", &rec->param, err, errlen) ||
	    opt_bool(obj, "param_truncated", &rec->param_truncated, NULL, err,
		     errlen) ||
	    opt_string(obj, "value", &rec->value, err, errlen) ||
	    opt_bool(obj, "value_truncated", &rec->value_truncated, NULL, err,
		     errlen) ||
	    opt_string(obj, "op", &rec->op_name, err, errlen) ||
	    opt_bool(obj, "recoverable", NULL, &rec->recoverable, err, errlen) ||
	    opt_string(obj, "verdict", &rec->verdict_name, err, errlen) ||
	    opt_bool(obj, "params_truncated", &rec->params_truncated, NULL, err,
		     errlen) ||
	    opt_bool(obj, "params_unlisted", &rec->params_unlisted, NULL, err,
		     errlen) ||
	    opt_bool(obj, "params_applied", NULL, &rec->params_applied, err,
		     errlen))
		return -1;
	if (rec->event_name)
		rec->event = lookup(event_names, FCLOG_EVENT_OTHER,
				    rec->event_name);
	if (rec->cause_name)
		rec->cause = lookup_from(cause_names, 1, FCLOG_NCAUSES,
					 FCLOG_CAUSE_OTHER, rec->cause_name);
	if (rec->op_name)
		rec->op = lookup(op_names, FCLOG_OP_OTHER, rec->op_name);
	if (rec->expected_name)
		rec->expected = lookup(op_names, FCLOG_OP_OTHER,
				       rec->expected_name);
	if (rec->verdict_name)
		rec->verdict = lookup(verdict_names, FCLOG_VERDICT_OTHER,
				      rec->verdict_name);
	v = json_object_get(obj, "errno");
	if (v && !json_is_integer(v))
		return fail(err, errlen, "\"errno\" is not an integer");
	if (v && (json_integer_value(v) < 1 ||
		  json_integer_value(v) > FCLOG_MAX_ERRNO))
		return fail(err, errlen, "\"errno\" is out of range (1-%d)",
			    FCLOG_MAX_ERRNO);
	rec->errnum = v ? json_integer_value(v) : 0;
	v = json_object_get(obj, "superblock");
	if (v && parse_superblock(rec, v, err, errlen))
		return -1;
	v = json_object_get(obj, "params");
	if (v && parse_params(rec, v, err, errlen))
		return -1;
	return 0;
}

/*
 * The object's "msg" holds the first KiB of a longer message
 * ("msg_truncated"); the line holds all of it, up to its own cut, past
 * "<l> <prefix>: ".  Take it from there when the prefix is found there as
 * "source" says it, byte for byte (an escaped or replaced byte would not
 * be): true if the message now is the line's.
 */
static bool msg_from_line(struct fclog_record *rec)
{
	size_t n = strlen(rec->source), start = 2 + n + (n ? 2 : 0);
	const char *line = rec->text;
	char *msg;

	if (strlen(line) < start || memcmp(line + 2, rec->source, n) ||
	    (n && memcmp(line + 2 + n, ": ", 2)) ||
	    strlen(line + start) <= rec->msg_len ||
	    memcmp(line + start, rec->msg, rec->msg_len))
		return false;
	msg = strdup(line + start);
	if (!msg)
		return false;
	free(rec->msg);
	rec->msg = msg;
	rec->msg_len = strlen(msg);
	return true;
}

static int parse_json(struct fclog_record *rec, const char *json, size_t len,
		      char *err, size_t errlen)
{
	bool source_cut = false, msg_cut = false;
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
	v = json_object_get(obj, "lost");
	if (v && (get_count(obj, "lost", &rec->lost, err, errlen) ||
		  (!rec->lost && fail(err, errlen, "\"lost\" is 0"))))
		goto out;
	if (get_count(obj, "seq", &rec->seq, err, errlen) ||
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
	if (opt_bool(obj, "source_truncated", &source_cut, NULL, err, errlen) ||
	    opt_bool(obj, "msg_truncated", &msg_cut, NULL, err, errlen))
		goto out;
	if (msg_cut && !source_cut && msg_from_line(rec))
		msg_cut = false;
	rec->truncated = json_is_true(v) || source_cut || msg_cut;
	if (parse_report(rec, obj, err, errlen))
		goto out;
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
	struct fclog_box *box;

	*out = NULL;
	if (!text_len || p[text_len - 1] != '\n')
		return fail(err, errlen, "the line does not end in a newline");
	box = calloc(1, sizeof(*box));
	if (!box)
		return -1;
	box->refs = 1;
	rec = &box->rec;
	rec->text = strndup(p, text_len - 1);
	if (!rec->text ||
	    (nul ? parse_json(rec, nul + 1, len - text_len - 1, err, errlen) :
		   parse_legacy(rec, err, errlen))) {
		fclog_record_unref(rec);
		return -1;
	}
	*out = rec;
	return 0;
}

/* Add the report fields @rec has to @obj, named as the kernel names them. */
static void json_add_report(json_t *obj, const struct fclog_record *rec)
{
	json_t *params;
	size_t i;

#define ADD_STRING(name, s) \
	do { if (s) json_object_set_new(obj, name, json_string(s)); } while (0)
#define ADD_TRUE(name, b) \
	do { if (b) json_object_set_new(obj, name, json_true()); } while (0)
#define ADD_TRI(name, t) \
	do { if (t != FCLOG_TRI_UNKNOWN) \
		json_object_set_new(obj, name, json_boolean(t == FCLOG_TRI_TRUE)); \
	} while (0)
	ADD_STRING("event", rec->event_name);
	ADD_STRING("cause", rec->cause_name);
	ADD_STRING("expected", rec->expected_name);
	ADD_STRING("param", rec->param);
	ADD_TRUE("param_truncated", rec->param_truncated);
	ADD_STRING("value", rec->value);
	ADD_TRUE("value_truncated", rec->value_truncated);
	if (rec->errnum)
		json_object_set_new(obj, "errno", json_integer(rec->errnum));
	ADD_STRING("op", rec->op_name);
	ADD_TRI("recoverable", rec->recoverable);
	if (rec->sb_type)
		json_object_set_new(obj, "superblock",
				    json_pack("{s:s, s:s*}", "type", rec->sb_type,
					      "id", rec->sb_id));
	ADD_STRING("verdict", rec->verdict_name);
	if (rec->params) {
		params = json_object();
		for (i = 0; i < rec->nparams; i++)
			json_object_set_new(params, rec->params[i].name,
					    json_string(rec->params[i].match_name));
		json_object_set_new(obj, "params", params);
	}
	ADD_TRUE("params_truncated", rec->params_truncated);
	ADD_TRUE("params_unlisted", rec->params_unlisted);
	ADD_TRI("params_applied", rec->params_applied);
#undef ADD_STRING
#undef ADD_TRUE
#undef ADD_TRI
}

/*
 * A string the kernel echoed from userspace (a key, a value): a terminal
 * must not interpret its control bytes, so they are escaped.
 */
static void print_escaped(FILE *f, const char *s, bool quoted)
{
	const unsigned char *p;

	if (quoted)
		fputc('"', f);
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\x%02x", *p);
		else if (quoted && (*p == '"' || *p == '\\'))
			fprintf(f, "\\%c", *p);
		else
			fputc(*p, f);
	}
	if (quoted)
		fputc('"', f);
}

/*
 * " [event cause expected=... param=... value=\"...\" errno=EINVAL ...]",
 * what it has.
 */
static void print_detail(FILE *f, const struct fclog_record *rec)
{
	const char *errname;
	size_t i;

	if (!rec->event_name && !rec->cause_name)
		return;
	fputs(" [", f);
	if (rec->event_name)
		print_escaped(f, rec->event_name, false);
	if (rec->cause_name) {
		if (rec->event_name)
			fputc(' ', f);
		print_escaped(f, rec->cause_name, false);
	}
	if (rec->expected_name) {
		fputs(" expected=", f);
		print_escaped(f, rec->expected_name, false);
	}
	if (rec->param) {
		fputs(" param=", f);
		print_escaped(f, rec->param, false);
	}
	if (rec->value) {
		fputs(" value=", f);
		print_escaped(f, rec->value, true);
		if (rec->value_truncated)
			fputs("(cut)", f);
	}
	if (rec->errnum) {
		errname = strerrorname_np(rec->errnum);
		if (errname)
			fprintf(f, " errno=%s", errname);
		else
			fprintf(f, " errno=%d", rec->errnum);
	}
	if (rec->op_name) {
		fputs(" op=", f);
		print_escaped(f, rec->op_name, false);
	}
	if (rec->recoverable != FCLOG_TRI_UNKNOWN)
		fputs(rec->recoverable == FCLOG_TRI_TRUE ? " recoverable" :
		      " unrecoverable", f);
	if (rec->sb_type) {
		fputs(" superblock=", f);
		print_escaped(f, rec->sb_type, false);
		if (rec->sb_id) {
			fputc(':', f);
			print_escaped(f, rec->sb_id, false);
		}
	}
	if (rec->verdict_name) {
		fputs(" verdict=", f);
		print_escaped(f, rec->verdict_name, false);
	}
	if (rec->params) {
		fputs(" params=", f);
		for (i = 0; i < rec->nparams; i++) {
			if (i)
				fputc(',', f);
			print_escaped(f, rec->params[i].name, false);
			fputc(':', f);
			print_escaped(f, rec->params[i].match_name, false);
		}
		if (rec->params_truncated)
			fputs(i ? ",..." : "...", f);
		if (!rec->nparams && !rec->params_truncated)
			fputs("{}", f);
		if (rec->params_unlisted)
			fputs(" unlisted", f);
	}
	if (rec->params_applied != FCLOG_TRI_UNKNOWN)
		fputs(rec->params_applied == FCLOG_TRI_TRUE ? " applied" :
		      " not-applied", f);
	fputc(']', f);
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
				"lost", (json_int_t)rec->lost,
				"truncated", rec->truncated);
		if (obj) {
			json_add_report(obj, rec);
			json_dumpf(obj, f, JSON_COMPACT);
			fputc('\n', f);
			json_decref(obj);
		}
		return;
	}
	fprintf(f, "%s%-7s%s %s%s%s%s", c ? colour[rec->level] : "",
		fclog_level_name(rec->level),
		c && *colour[rec->level] ? "\033[0m" : "", rec->source,
		*rec->source ? ": " : "", rec->msg,
		rec->truncated ? " [cut]" : "");
	if (flags & FCLOG_PRINT_DETAIL)
		print_detail(f, rec);
	fputc('\n', f);
}

fclog_t *fclog_new(int fd)
{
	fclog_t *log = calloc(1, sizeof(*log));
	int next;

	if (!log)
		return NULL;
	log->fd = fd;
	log->size = ioctl(fd, FIONREAD, &next) < 0 ? FCLOG_UNSIZED_FIRST_SIZE :
						      FCLOG_FIRST_SIZE;
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
	fclog_reset(log);
	free(log->buf);
	free(log);
}

const char *fclog_error(const fclog_t *log)
{
	return log->error;
}

uint64_t fclog_lost(const fclog_t *log)
{
	return log->lost;
}

uint64_t fclog_unseen(const fclog_t *log)
{
	return log->unseen;
}

uint64_t fclog_skipped(const fclog_t *log)
{
	return log->skipped;
}

void fclog_reset(fclog_t *log)
{
	size_t i;

	for (i = 0; i < log->nrejections; i++)
		fclog_record_unref(log->rejections[i]);
	log->nrejections = 0;
	fclog_record_unref(log->outcome);
	log->outcome = NULL;
	log->pending = false;
}

size_t fclog_rejections(const fclog_t *log)
{
	return log->nrejections;
}

const struct fclog_record *fclog_rejection(const fclog_t *log, size_t i)
{
	return i < log->nrejections ? log->rejections[i] : NULL;
}

const struct fclog_record *fclog_rejected(const fclog_t *log, const char *key)
{
	size_t i;

	for (i = log->nrejections; i-- > 0;)
		if (log->rejections[i]->param &&
		    !strcmp(log->rejections[i]->param, key))
			return log->rejections[i];
	return NULL;
}

enum fclog_tri fclog_recoverable(const fclog_t *log)
{
	if (log->pending)
		return FCLOG_TRI_UNKNOWN;
	if (log->outcome)
		return log->outcome->recoverable;
	/* Refusing a parameter leaves the context in its parameter phase. */
	return log->nrejections ? FCLOG_TRI_TRUE : FCLOG_TRI_UNKNOWN;
}

/* A parameter refused by fsconfig(SET_*), which never fails the context. */
static bool parameter_phase(const struct fclog_record *rec)
{
	return rec->event == FCLOG_EVENT_PARAM_REJECTED &&
	       rec->op >= FCLOG_OP_SET_FLAG && rec->op <= FCLOG_OP_SET_FD;
}

/* Keep a reference to @rec if it is a rejection. */
static void remember(fclog_t *log, struct fclog_record *rec)
{
	if (!fclog_record_is_rejection(rec))
		return;
	if (rec->event == FCLOG_EVENT_CREATE_FAILED ||
	    rec->event == FCLOG_EVENT_RECONFIGURE_FAILED) {
		/* Only an outcome says whether the context survived. */
		fclog_record_unref(log->outcome);
		log->outcome = fclog_record_ref(rec);
		log->pending = false;
	} else if (!parameter_phase(rec)) {
		/*
		 * A create or reconfigure was refused (sb_conflict, a source
		 * refused at create): its outcome follows, until then
		 * nothing is known, whatever an earlier call's outcome said.
		 */
		log->pending = true;
	}
	/*
	 * Bounded, so that a long-lived reader (fclog-watch on a flood)
	 * does not grow without end: past the bound the newest matter most.
	 */
	if (log->nrejections == FCLOG_REJECTIONS_MAX) {
		fclog_record_unref(log->rejections[0]);
		memmove(log->rejections, log->rejections + 1,
			(FCLOG_REJECTIONS_MAX - 1) * sizeof(log->rejections[0]));
		log->nrejections--;
	}
	log->rejections[log->nrejections++] = fclog_record_ref(rec);
}

/* Account for @rec and what came before it: markers and seq gaps. */
static void account(fclog_t *log, const struct fclog_record *rec)
{
	log->lost += rec->lost;
	if (!rec->structured)
		return;
	if (log->have_seq && rec->seq > log->next_seq)
		log->unseen += rec->seq - log->next_seq;
	else if (!log->have_seq)
		log->unseen += rec->seq;
	log->have_seq = true;
	/* A marker stands for the records from its seq on. */
	log->next_seq = rec->seq + (rec->lost ? rec->lost : 1);
}

int fclog_next(fclog_t *log, struct fclog_record **rec)
{
	size_t need, max;
	char *bigger;
	int next, err;
	ssize_t n;

	*rec = NULL;
	log->error[0] = '\0';
	for (;;) {
		n = read(log->fd, log->buf, log->size);
		if (n == 0)	/* Not from a context fd, but an end all the same */
			return 0;
		if (n > 0)
			break;
		err = errno;
		if (err == ENODATA)
			return 0;
		if (err != EMSGSIZE) {
			snprintf(log->error, sizeof(log->error), "read: %s",
				 strerror(err));
			errno = err;
			return -1;
		}
		/*
		 * Too large for the buffer, and left in place: the kernel
		 * says how large (FIONREAD).  A stock kernel does not, and
		 * its legacy lines have no bound but this reader's: double,
		 * up to that.  A size no larger than the buffer is of a
		 * record that is no longer the next one (another reader of
		 * the log took it): doubling then still ends the loop.
		 */
		if (ioctl(log->fd, FIONREAD, &next) < 0 || next <= 0 ||
		    (size_t)next <= log->size)
			next = 0;
		if (next) {
			need = next;
			max = FCLOG_SIZED_MAX;
		} else {
			need = log->size < FCLOG_LEGACY_MAX / 2 ?
			       log->size * 2 : FCLOG_LEGACY_MAX;
			max = FCLOG_LEGACY_MAX;
		}
		if (need > max || need <= log->size) {
			if (next)
				snprintf(log->error, sizeof(log->error),
					 "read: %s (a record of %d bytes, more than this reader takes: %d KiB)",
					 strerror(err), next,
					 FCLOG_SIZED_MAX / 1024);
			else
				snprintf(log->error, sizeof(log->error),
					 "read: %s (a record larger than %zu bytes, and the kernel does not say how large)",
					 strerror(err), log->size);
			errno = err;
			return -1;
		}
		bigger = realloc(log->buf, need);
		if (!bigger) {
			snprintf(log->error, sizeof(log->error),
				 "read: %s (no memory for a record of %zu bytes)",
				 strerror(ENOMEM), need);
			errno = ENOMEM;
			return -1;
		}
		log->buf = bigger;
		log->size = need;
	}
	if (fclog_parse(log->buf, n, rec, log->error, sizeof(log->error))) {
		log->skipped++;
		return -1;
	}
	account(log, *rec);
	remember(log, *rec);
	return 1;
}
