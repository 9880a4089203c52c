/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libfclog: read the message log of a Linux filesystem context.
 *
 * An fclog_t reads the fd that fsopen() or fspick() returned.  fclog_next()
 * returns its records one at a time, from a structured log (fc_log v2,
 * FSOPEN_STRUCTURED_LOG: line, NUL, JSON object) or a legacy one (the line
 * alone) alike, so that a tool needs one code path for both kernels, and
 * keeps count of the records the kernel reported lost: a marker record
 * ("w fs_context: N messages lost") stands where they were.
 *
 * Strings in a record are owned by it and valid until its last reference is
 * dropped (fclog_record_unref()).
 *
 * Records of a kernel with structured reports also say what happened
 * ("event": a parameter refused, a superblock shared or in conflict, a
 * create or reconfigure failed), why ("cause", from a fixed set), which
 * parameter, the errno, of a superblock found how it compares with what
 * the context set ("verdict", and each parameter's), and, of a failed
 * create or reconfigure, whether the context can be used again; the
 * reader collects the rejections
 * (fclog_rejections()) so that a program can act on them without ever
 * matching message text, which is not ABI.
 */
#ifndef FCLOG_H
#define FCLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/mount.h>

/*
 * The mount API's constants that came with the fc_log v2 series, with the
 * kernel's values (fclog(7)).  The <linux/mount.h> of a kernel with the
 * series has them; the one a distribution ships (Debian 12's) does not, and
 * a program that follows fclog(7) should not have to define them itself.
 * Each is defined here only where <linux/mount.h> lacks it.
 * FSCONFIG_CMD_CREATE_COMPATIBLE is an enum constant there, which the
 * preprocessor cannot see: it is taken to be missing when
 * FSOPEN_STRUCTURED_LOG is, as the series adds both.  No constant bounds
 * a record's size (none here since libfclog 3.3): the kernel's bound is its
 * own, not ABI, and a reader sizes each read with ioctl(FIONREAD)
 * (fclog(7)).
 */
#ifndef FSOPEN_STRUCTURED_LOG
#define FSOPEN_STRUCTURED_LOG	0x00000002
#define FSCONFIG_CMD_CREATE_COMPATIBLE	9
#endif
#ifndef FSPICK_STRUCTURED_LOG
#define FSPICK_STRUCTURED_LOG	0x00000010
#endif
#ifndef FSOPEN_RETRY
#define FSOPEN_RETRY		0x00000004
#endif
#ifndef FSPICK_RETRY
#define FSPICK_RETRY		0x00000020
#endif

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The version of this header.  The major version is the soname's
 * (libfclog.so.3); the minor one counts additions (a function, a type, an
 * enum value) and macros withdrawn (3.3: the kernel's former bound on a
 * record); the micro one fixes.  FCLOG_VERSION_HEX is 0xMMmmuu, to
 * compare: #if FCLOG_VERSION_HEX >= 0x030200.  fclog_version() gives the
 * same number for the library a program runs with, which may be newer.
 */
#define FCLOG_VERSION_MAJOR	3
#define FCLOG_VERSION_MINOR	3
#define FCLOG_VERSION_MICRO	0
#define FCLOG_VERSION_HEX	((FCLOG_VERSION_MAJOR << 16) | \
				 (FCLOG_VERSION_MINOR << 8) | \
				 FCLOG_VERSION_MICRO)
/* Since libfclog 3.2. */
unsigned int fclog_version(void);

typedef struct fclog fclog_t;

enum fclog_level {
	FCLOG_INFO,
	FCLOG_WARNING,
	FCLOG_ERROR,
};

/*
 * What happened ("event").  The names are ABI; a name this library does not
 * know yet parses as FCLOG_EVENT_OTHER (->event_name still holds it), and
 * such a record is read as one without an event: a newer kernel's records
 * are neither refused nor mistaken for rejections.
 */
enum fclog_event {
	FCLOG_EVENT_NONE,		/* No "event": legacy or plain message */
	FCLOG_EVENT_PARAM_REJECTED,	/* fsconfig(SET_*) refused a parameter
					 * (the context stays usable), or
					 * CREATE refused "source" */
	FCLOG_EVENT_PARAM_DEPRECATED,	/* A warning: accepted, but going away */
	FCLOG_EVENT_SB_SHARED,		/* Information: CREATE mounted a
					 * superblock already in use */
	FCLOG_EVENT_SB_CONFLICT,	/* CREATE_EXCL or CREATE_COMPATIBLE
					 * refused one, or CREATE one of
					 * another user namespace (EBUSY) */
	FCLOG_EVENT_CREATE_FAILED,	/* The outcome of a failed CREATE */
	FCLOG_EVENT_RECONFIGURE_FAILED,	/* ... of a failed RECONFIGURE */
	FCLOG_EVENT_OTHER,		/* An event newer than this library */
};

/*
 * Why ("cause"), on records with an event; a rejection may have none (the
 * filesystem said nothing specific).  Same rules: an unknown name parses as
 * FCLOG_CAUSE_OTHER, ->cause_name keeping it.  Causes added within a
 * soname come after FCLOG_CAUSE_OTHER.
 */
enum fclog_cause {
	FCLOG_CAUSE_NONE,		/* No "cause" */
	FCLOG_CAUSE_UNKNOWN_PARAM,	/* The filesystem has no such parameter */
	FCLOG_CAUSE_WRONG_TYPE,		/* Given with the wrong fsconfig()
					 * command: ->expected names the one */
	FCLOG_CAUSE_BAD_VALUE,		/* Does not parse, or out of range */
	FCLOG_CAUSE_UNMAPPED_ID,	/* A uid or gid without a mapping */
	FCLOG_CAUSE_UNSUPPORTED,	/* Exists, but not here (config, privilege) */
	FCLOG_CAUSE_PERMISSION,		/* The caller may not (LSM, capability) */
	FCLOG_CAUSE_NOT_FOUND,		/* A path could not be looked up */
	FCLOG_CAUSE_NOT_BLOCKDEV,	/* A path is not a block device */
	FCLOG_CAUSE_DUPLICATE,		/* Given once already (a second source) */
	FCLOG_CAUSE_MISSING,		/* Required and never given (source) */
	FCLOG_CAUSE_EXCLUSIVE,		/* CREATE_EXCL met a superblock */
	FCLOG_CAUSE_OTHER_USERNS,	/* The superblock is another user
					 * namespace's */
	FCLOG_CAUSE_RO_CONFLICT,	/* ro/rw differs from the superblock's */
	FCLOG_CAUSE_INCOMPATIBLE,	/* CREATE_COMPATIBLE met a superblock
					 * whose settings differ */
	FCLOG_CAUSE_UNVERIFIABLE,	/* ... one that could not be compared
					 * with everything set (EBUSY), as
					 * any of a filesystem that does not
					 * compare */
	FCLOG_CAUSE_OTHER,		/* A cause newer than this library */
	/*
	 * Since libfclog 3.1: after _OTHER, so that the values a program
	 * built against 3.0 compiled in keep their meaning.
	 */
	FCLOG_CAUSE_NOT_DIRECTORY,	/* A path or fd that must name a
					 * directory does not */
	FCLOG_CAUSE_O_PATH,		/* An fd given with FSCONFIG_SET_FD
					 * was opened with O_PATH */
};

/*
 * The fsconfig() command a record is about ("op"), and with the cause
 * wrong_type the command that gives the parameter ("expected"); same rules.
 */
enum fclog_op {
	FCLOG_OP_NONE,
	FCLOG_OP_SET_FLAG,
	FCLOG_OP_SET_STRING,
	FCLOG_OP_SET_BINARY,
	FCLOG_OP_SET_PATH,
	FCLOG_OP_SET_FD,
	FCLOG_OP_CREATE,
	FCLOG_OP_CREATE_EXCL,
	FCLOG_OP_RECONFIGURE,
	FCLOG_OP_CREATE_COMPATIBLE,
	FCLOG_OP_OTHER,
};

/*
 * How a superblock found compares with what the context set, as a whole
 * ("verdict", on sb_shared and on an sb_conflict that compared); same
 * rules: an unknown name parses as FCLOG_VERDICT_OTHER, ->verdict_name
 * keeping it.  Only COMPATIBLE says that the superblock has everything the
 * context asked for.
 */
enum fclog_verdict {
	FCLOG_VERDICT_NONE,		/* No "verdict": not compared */
	FCLOG_VERDICT_COMPATIBLE,	/* Every parameter set matches, and
					 * the filesystem compares */
	FCLOG_VERDICT_INCOMPATIBLE,	/* A parameter set differs */
	FCLOG_VERDICT_UNKNOWN,		/* Nothing differs, but not everything
					 * could be compared */
	FCLOG_VERDICT_OTHER,		/* A verdict newer than this library */
};

/*
 * Each parameter's verdict ("params": {"mode": "matches", ...}); same
 * rules: an unknown name is FCLOG_MATCH_OTHER, ->match_name keeping it,
 * and is no match.
 */
enum fclog_match {
	FCLOG_MATCH_MATCHES,		/* The superblock has what was set */
	FCLOG_MATCH_DIFFERS,		/* It has something else */
	FCLOG_MATCH_UNKNOWN,		/* The filesystem cannot tell */
	FCLOG_MATCH_OTHER,		/* A match newer than this library */
};

/*
 * One parameter the context set, as the kernel names it: superblock flags
 * as set or cleared ("ro", "rw", "lazytime", "nolazytime", ...), the
 * filesystem's parameters as the caller gave them ("noacl" for a flag
 * cleared with "no"), in the order of its table; never "source".
 */
struct fclog_param {
	char *name;
	enum fclog_match match;
	char *match_name;	/* As the kernel wrote it */
};

/* A boolean the kernel may leave out, or that nothing has told yet. */
enum fclog_tri {
	FCLOG_TRI_UNKNOWN,
	FCLOG_TRI_TRUE,
	FCLOG_TRI_FALSE,
};

struct fclog_record {
	bool structured;	/* Parsed from a JSON object, not a bare line */
	uint64_t seq;		/* Sequence number (structured records only;
				 * jansson refuses any past INT64_MAX) */
	uint64_t lost;		/* A marker of lost records: how many it
				 * stands for, the first being seq; 0 for
				 * any other record */
	enum fclog_level level;
	bool truncated;		/* The kernel cut the line, or the object's
				 * source or msg where the line could not
				 * give it whole (see fclog_parse(3)) */
	char *source;		/* The prefix ("tmpfs"), or "" */
	char *msg;		/* The message, without level and prefix */
	size_t msg_len;		/* It may hold NUL bytes (\u0000) */
	char *text;		/* The line as the kernel wrote it, no newline */

	/*
	 * Structured reports: each field is set only when the record has it
	 * (NULL, 0, false, FCLOG_*_NONE or FCLOG_TRI_UNKNOWN otherwise).  The
	 * strings come from C strings in the kernel and never hold NUL.
	 */
	enum fclog_event event;
	char *event_name;	/* "event" as the kernel wrote it */
	enum fclog_cause cause;
	char *cause_name;	/* "cause" as the kernel wrote it */
	enum fclog_op expected;	/* wrong_type: the command that gives it */
	char *expected_name;	/* "expected" as the kernel wrote it */
	char *param;		/* The key as userspace gave it */
	bool param_truncated;
	char *value;		/* The string or path given (at most 256
				 * bytes), when the cause is about it */
	bool value_truncated;	/* ...cut on a UTF-8 boundary */
	int errnum;		/* "errno": the error returned, positive */
	enum fclog_op op;
	char *op_name;		/* "op" as the kernel wrote it */
	/*
	 * create_failed and reconfigure_failed only: whether the context can
	 * be configured again (see fclog_recoverable())
	 */
	enum fclog_tri recoverable;
	char *sb_type;		/* "superblock": its filesystem type ... */
	char *sb_id;		/* ... and s_id, unless the superblock is
				 * another user namespace's (NULL) */
	/*
	 * sb_shared and sb_conflict, when the superblock was compared: the
	 * verdict, and each parameter set with its own, in the kernel's
	 * order (superblock flags first, then the filesystem's); params is
	 * NULL only without a verdict, and may be empty.
	 */
	enum fclog_verdict verdict;
	char *verdict_name;	/* "verdict" as the kernel wrote it */
	struct fclog_param *params;
	size_t nparams;
	bool params_truncated;	/* The kernel cut the list (512 bytes) */
	bool params_unlisted;	/* Parameters were set that the kernel
				 * cannot name: they count as unknown */
	enum fclog_tri params_applied; /* sb_shared: whether the filesystem
					* then applied the parameters */
};

/* Parse one record as read(2) returned it.  On error, @err says why. */
int fclog_parse(const void *buf, size_t len, struct fclog_record **rec,
		char *err, size_t errlen);
/*
 * A record from fclog_parse() or fclog_next() comes with one reference,
 * the caller's; a reader may hold another (fclog_rejections()).
 * fclog_record_ref() takes one more and returns @rec;
 * fclog_record_unref() drops one, and frees the record with the last.
 * Both take NULL.  Since libfclog 3.2; fclog_record_free() is the name
 * fclog_record_unref() had before, kept for the programs that use it.
 */
struct fclog_record *fclog_record_ref(struct fclog_record *rec);
void fclog_record_unref(struct fclog_record *rec);
void fclog_record_free(struct fclog_record *rec);
const char *fclog_level_name(enum fclog_level level);
/* "param_rejected", ...; NULL for FCLOG_EVENT_NONE and _OTHER. */
const char *fclog_event_name(enum fclog_event event);
/* "unknown_param", ...; NULL for FCLOG_CAUSE_NONE, _OTHER and out of range. */
const char *fclog_cause_name(enum fclog_cause cause);
/* "set_flag", ...; NULL for FCLOG_OP_NONE and _OTHER. */
const char *fclog_op_name(enum fclog_op op);
/* "compatible", ...; NULL for FCLOG_VERDICT_NONE and _OTHER. */
const char *fclog_verdict_name(enum fclog_verdict verdict);
/* "matches", "differs", "unknown"; NULL for FCLOG_MATCH_OTHER. */
const char *fclog_match_name(enum fclog_match match);

/*
 * A rejection: the kernel refused something, a record with the event
 * param_rejected, sb_conflict, create_failed or reconfigure_failed and an
 * "errno".  Deprecation warnings (param_deprecated), sb_shared notes and
 * records of an event this library does not know are not rejections.
 */
bool fclog_record_is_rejection(const struct fclog_record *rec);

/*
 * Print @rec on one line: "level   source: msg" (the level coloured with
 * FCLOG_PRINT_COLOUR), followed with FCLOG_PRINT_DETAIL by the report
 * fields the record has ("[param_rejected bad_value param=size
 * value=\"abc\" errno=EINVAL op=set_string]", control bytes escaped); or
 * with FCLOG_PRINT_JSON one
 * JSON object with every field the record has.  The details are opt-in so
 * that the plain line stays what it always was, on every kernel.
 */
#define FCLOG_PRINT_COLOUR	0x1
#define FCLOG_PRINT_JSON	0x2
#define FCLOG_PRINT_DETAIL	0x4
void fclog_print(FILE *f, const struct fclog_record *rec, unsigned int flags);

/* A reader of @fd, which stays the caller's to close. */
fclog_t *fclog_new(int fd);
void fclog_free(fclog_t *log);

/*
 * The next record: 1 and *@rec set, 0 when the log is empty, -1 on error
 * (errno set, fclog_error() says more).  A record that does not parse is
 * consumed, counted in fclog_skipped() and reported as an error.  Each
 * record is read whole: the buffer starts small and grows to the size
 * FIONREAD gives for a record it cannot hold (without FIONREAD, a stock
 * kernel, it doubles up to 64 KiB).
 */
int fclog_next(fclog_t *log, struct fclog_record **rec);
const char *fclog_error(const fclog_t *log);

/*
 * Records the kernel reported lost (the markers' "lost"), and records this
 * reader never saw although nothing reported them lost (gaps in "seq": read
 * by another reader of the same log).
 */
uint64_t fclog_lost(const fclog_t *log);
uint64_t fclog_unseen(const fclog_t *log);
/* Records read but not understood. */
uint64_t fclog_skipped(const fclog_t *log);

/*
 * Rejections fclog_next() returned since the last fclog_reset() (or
 * fclog_new()), oldest first; past FCLOG_REJECTIONS_MAX the oldest are
 * forgotten, so that a long-lived reader stays bounded.  The reader holds
 * its own reference: the records stay valid until the next fclog_reset()
 * or fclog_free(), whether or not the caller has freed its own.  A legacy
 * log has none.
 *
 * A program that wants to know what one fsconfig() call caused drains the
 * log, resets the reader, makes the call, then drains the log again.
 */
#define FCLOG_REJECTIONS_MAX	256
size_t fclog_rejections(const fclog_t *log);
const struct fclog_record *fclog_rejection(const fclog_t *log, size_t i);
/* The latest rejection since the reset whose "param" is @key, or NULL. */
const struct fclog_record *fclog_rejected(const fclog_t *log, const char *key);
/*
 * Whether the context can still be configured and created (or
 * reconfigured) on the same fd, from the rejections since the reset: the
 * "recoverable" of the latest create_failed or reconfigure_failed record,
 * the only records that decide it; TRUE when only param_rejected records
 * of fsconfig(SET_*) calls were seen (a refused parameter never fails the
 * context: it is left as it was); UNKNOWN when no rejection was seen at
 * all (a legacy log, or nothing failed), or when a rejection of a create
 * or reconfigure (sb_conflict, a source refused at create) was read
 * without the outcome that follows it.
 */
enum fclog_tri fclog_recoverable(const fclog_t *log);
/* Forget the rejections; the counts above are kept. */
void fclog_reset(fclog_t *log);

/*
 * Probing: whether the filesystem type @fstype takes the parameter @key
 * (set as a flag when @value is NULL, else as a string), asked on a fresh
 * context of its own that is never created, so that nothing is mounted and
 * no earlier probe can change the answer.  The answer comes from the
 * return of fsconfig() and the cause of the kernel's param_rejected
 * record, never from message text:
 *
 *   SUPPORTED    fsconfig() accepted it (on any kernel)
 *   UNKNOWN      refused with the cause unknown_param: no such parameter
 *   REFUSED      refused with another documented cause: the key is known,
 *                its value, form (wrong_type) or use here was refused
 *   CANNOT_TELL  refused without a cause this library knows, or on a
 *                kernel without structured logs (FCLOG_PROBE_LEGACY asks
 *                as such a kernel would be asked)
 *
 * Returns 0 with *@out filled, or -1 with errno set when no context could
 * be opened (ENODEV: no such filesystem type; EPERM) or @flags is invalid.
 */
enum fclog_probe_answer {
	FCLOG_PROBE_SUPPORTED,
	FCLOG_PROBE_UNKNOWN,
	FCLOG_PROBE_REFUSED,
	FCLOG_PROBE_CANNOT_TELL,
};

struct fclog_probe {
	enum fclog_probe_answer answer;
	bool structured;	/* Asked with a structured log */
	bool deprecated;	/* Accepted with a param_deprecated warning */
	int errnum;		/* fsconfig()'s errno if refused, else 0 */
	enum fclog_cause cause;	/* The rejection's, if one named the key */
	enum fclog_op expected;	/* With wrong_type: the command that gives it */
	char cause_name[32];	/* "cause" as the kernel wrote it, or "" */
	char msg[256];		/* The line the kernel logged, for people
				 * (its wording is not ABI), or "" */
};

#define FCLOG_PROBE_LEGACY	0x1
int fclog_probe_option(const char *fstype, const char *key, const char *value,
		       unsigned int flags, struct fclog_probe *out);
/* "supported", "unknown", "refused", "cannot_tell"; NULL if out of range. */
const char *fclog_probe_answer_name(enum fclog_probe_answer answer);

/*
 * A file parameter as the tools take it on their command line (--file
 * KEY=VALUE), as the fsconfig() call that gives it:
 *
 *   VALUE      command                    value     aux
 *   PATH       FSCONFIG_SET_PATH          PATH      AT_FDCWD
 *   @N:PATH    FSCONFIG_SET_PATH          PATH      N
 *   @N:        FSCONFIG_SET_PATH_EMPTY    ""        N
 *   @N         FSCONFIG_SET_FD            NULL      N
 *
 * N is an inherited fd, in decimal; a PATH that begins with '@' is
 * written "./@...".  KEY is the first keylen bytes of @arg, and value
 * points into @arg.  Returns 0 with *@out filled, or -1 with errno EINVAL
 * (*@out untouched) for anything else: no '=', an empty KEY or VALUE, an
 * N that is not a decimal number up to INT_MAX.  Since libfclog 3.1.
 */
struct fclog_file_param {
	size_t keylen;
	unsigned int cmd;
	const char *value;
	int aux;
};
int fclog_parse_file_param(const char *arg, struct fclog_file_param *out);

#ifdef __cplusplus
}
#endif

#endif /* FCLOG_H */
