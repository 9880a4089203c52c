// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libfclog: ask the kernel whether a filesystem takes one option, from a
 * context that is never created; see fclog_probe_option() in fclog.h.
 *
 * The answer comes from what the kernel states: the return of fsconfig()
 * and, in a structured log, the "cause" of the param_rejected record that
 * names the key.  Message text is never read for it (it is not ABI): a
 * legacy log (a kernel without FSOPEN_STRUCTURED_LOG) proves an accepted
 * option supported, and leaves a refused one "cannot tell".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fclog.h"
#include "mount_api.h"

static const char *const answer_names[] = {
	[FCLOG_PROBE_SUPPORTED] = "supported",
	[FCLOG_PROBE_UNKNOWN] = "unknown",
	[FCLOG_PROBE_REFUSED] = "refused",
	[FCLOG_PROBE_CANNOT_TELL] = "cannot_tell",
};

const char *fclog_probe_answer_name(enum fclog_probe_answer answer)
{
	return answer <= FCLOG_PROBE_CANNOT_TELL ? answer_names[answer] : NULL;
}

/*
 * What a rejection's cause says about the key.  unknown_param: the
 * filesystem (and the VFS, and every security module) has no such key.
 * Every other documented cause is given by whoever parsed the key, so
 * someone knows it: its value, its form (wrong_type) or its use here
 * (unsupported, permission) was refused.  No cause, or one newer than
 * this library, says nothing about the key.
 */
static enum fclog_probe_answer answer_of(const struct fclog_record *rej)
{
	switch (rej->cause) {
	case FCLOG_CAUSE_UNKNOWN_PARAM:
		return FCLOG_PROBE_UNKNOWN;
	case FCLOG_CAUSE_NONE:
	case FCLOG_CAUSE_OTHER:
		return FCLOG_PROBE_CANNOT_TELL;
	default:
		return FCLOG_PROBE_REFUSED;
	}
}

/* Read the whole log: what it says about @key goes into @out. */
static void drain(fclog_t *log, const char *key, struct fclog_probe *out)
{
	struct fclog_record *rec;
	int r;

	while ((r = fclog_next(log, &rec)) != 0) {
		if (r < 0) {
			if (errno != EBADMSG)
				return;	/* a read error, not a bad record */
			continue;
		}
		if (rec->event == FCLOG_EVENT_PARAM_DEPRECATED && rec->param &&
		    !strcmp(rec->param, key))
			out->deprecated = true;
		/* The last error logged is the one that refused it. */
		if (rec->level == FCLOG_ERROR || !*out->msg)
			snprintf(out->msg, sizeof(out->msg), "%s", rec->text);
		fclog_record_unref(rec);
	}
}

int fclog_probe_option(const char *fstype, const char *key, const char *value,
		       unsigned int flags, struct fclog_probe *out)
{
	const struct fclog_record *rej;
	fclog_t *log;
	int fd, ret, err;

	memset(out, 0, sizeof(*out));
	if (flags & ~FCLOG_PROBE_LEGACY || !fstype || !key) {
		errno = EINVAL;
		return -1;
	}
	out->structured = !(flags & FCLOG_PROBE_LEGACY);
	fd = out->structured ? sys_fsopen(fstype, FSOPEN_CLOEXEC |
					  FSOPEN_STRUCTURED_LOG) : -1;
	if (fd < 0 && (!out->structured || errno == EINVAL)) {
		/* A kernel without structured logs: EINVAL for the flag. */
		out->structured = false;
		fd = sys_fsopen(fstype, FSOPEN_CLOEXEC);
	}
	if (fd < 0)
		return -1;	/* ENODEV: no such filesystem type; EPERM */
	log = fclog_new(fd);
	if (!log) {
		close(fd);
		errno = ENOMEM;
		return -1;
	}

	ret = value ? sys_fsconfig(fd, FSCONFIG_SET_STRING, key, value, 0) :
		      sys_fsconfig(fd, FSCONFIG_SET_FLAG, key, NULL, 0);
	err = errno;
	drain(log, key, out);
	if (!ret) {
		/* Accepted: on any kernel, a certain answer. */
		out->answer = FCLOG_PROBE_SUPPORTED;
	} else {
		out->errnum = err;
		rej = out->structured ? fclog_rejected(log, key) : NULL;
		out->answer = rej ? answer_of(rej) : FCLOG_PROBE_CANNOT_TELL;
		if (rej) {
			out->cause = rej->cause;
			out->expected = rej->expected;
			snprintf(out->cause_name, sizeof(out->cause_name), "%s",
				 rej->cause_name ?: "");
		}
	}
	/*
	 * Closed with nothing unread, so that a patched kernel has nothing to
	 * print to its own log; the context was never created.
	 */
	fclog_free(log);
	close(fd);
	return 0;
}
