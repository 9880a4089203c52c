/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libfclog: read the message log of a Linux filesystem context.
 *
 * An fclog_t reads the fd that fsopen() or fspick() returned.  fclog_next()
 * returns its records one at a time, from a structured log (fc_log v2,
 * FSOPEN_STRUCTURED_LOG: line, NUL, JSON object) or a legacy one (the line
 * alone) alike, so that a tool needs one code path for both kernels, and
 * keeps count of the records the kernel reported lost.
 *
 * Strings in a record are owned by it and valid until fclog_record_free().
 */
#ifndef FCLOG_H
#define FCLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct fclog fclog_t;

enum fclog_level {
	FCLOG_INFO,
	FCLOG_WARNING,
	FCLOG_ERROR,
};

struct fclog_record {
	bool structured;	/* Parsed from a JSON object, not a bare line */
	uint64_t seq;		/* Sequence number (structured records only;
				 * jansson refuses any past INT64_MAX) */
	uint64_t dropped;	/* Records lost just before this one */
	enum fclog_level level;
	bool truncated;		/* The kernel cut the line */
	char *source;		/* The prefix ("tmpfs"), or "" */
	char *msg;		/* The message, without level and prefix */
	size_t msg_len;		/* It may hold NUL bytes (\u0000) */
	char *text;		/* The line as the kernel wrote it, no newline */
};

/* Parse one record as read(2) returned it.  On error, @err says why. */
int fclog_parse(const void *buf, size_t len, struct fclog_record **rec,
		char *err, size_t errlen);
void fclog_record_free(struct fclog_record *rec);
const char *fclog_level_name(enum fclog_level level);

/*
 * Print @rec on one line: "level   source: msg" (the level coloured with
 * FCLOG_PRINT_COLOUR), or with FCLOG_PRINT_JSON one JSON object.
 */
#define FCLOG_PRINT_COLOUR	0x1
#define FCLOG_PRINT_JSON	0x2
void fclog_print(FILE *f, const struct fclog_record *rec, unsigned int flags);

/* A reader of @fd, which stays the caller's to close. */
fclog_t *fclog_new(int fd);
void fclog_free(fclog_t *log);

/*
 * The next record: 1 and *@rec set, 0 when the log is empty, -1 on error
 * (errno set, fclog_error() says more).  A record that does not parse is
 * consumed, counted in fclog_skipped() and reported as an error.
 */
int fclog_next(fclog_t *log, struct fclog_record **rec);
const char *fclog_error(const fclog_t *log);

/*
 * Records the kernel reported lost ("dropped"), and records this reader never
 * saw (gaps in "seq": lost, or read by another reader of the same log).
 */
uint64_t fclog_dropped(const fclog_t *log);
uint64_t fclog_unseen(const fclog_t *log);
/* Records read but not understood. */
uint64_t fclog_skipped(const fclog_t *log);

#endif /* FCLOG_H */
