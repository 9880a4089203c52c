// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fclog-retry: mount with every option the kernel accepts, dropping the
 * optional ones it rejects, by the events in the context's structured log.
 *
 *   fclog-retry -t TYPE [-r KEY[=VALUE]]... [-o KEY[=VALUE]]...
 *               [--file KEY=VALUE]...
 *               [--exclusive [--allow-reuse | --reuse-if-compatible]]
 *               [--json] SOURCE TARGET
 *
 * -r options are required, -o options optional, one per flag (so that a
 * value may hold commas).  "KEY=VALUE" is set as a string, "KEY" as a flag.
 * --file gives a file parameter as fclog-mount takes it (VALUE: PATH,
 * @N:PATH, @N: or @N; fclog_parse_file_param()), required: a layer or a
 * journal dropped would mount something else than what was asked.  All
 * are set in the order given, after SOURCE ("none": no source), which is
 * required.
 *
 * It acts on what the kernel states, never on message text (which is not
 * ABI): the return of each fsconfig() and the "event", "cause", "param",
 * "errno" and "recoverable" fields of the records (libfclog's rejections).
 *
 *  - fsconfig(SET_*) refused with a param_rejected record naming the key,
 *    whatever its cause (unknown_param, bad_value, wrong_type, unsupported,
 *    one newer than libfclog, or none at all): an optional option is
 *    dropped and configuration goes on on the same fd, since the kernel
 *    never applied a refused parameter; a required one ends the run.
 *  - CREATE refused with rejections naming keys that were set: the kernel
 *    had accepted those, they are in the context and only a fresh fd is
 *    rid of them.  Optional ones are dropped, required ones (the source
 *    refused at create: missing, not_found, not_blockdev) end the run.
 *    The same fd is used again only when the create_failed record says the
 *    context is recoverable (it asks for that with FSOPEN_RETRY) and no
 *    dropped option had been accepted.
 *  - CREATE_EXCL refused because a superblock exists (sb_conflict, or
 *    create_failed, with the cause exclusive): the run ends, or with
 *    --allow-reuse the next attempt is a plain CREATE, on the same fd when
 *    create_failed says recoverable, else on a fresh one.  A conflict of
 *    another cause (other_userns, ro_conflict) a plain CREATE meets too.
 *  - With --reuse-if-compatible the create is FSCONFIG_CMD_CREATE_COMPATIBLE:
 *    one call that makes a new superblock or shares the one in use exactly
 *    when the kernel says that every parameter set matches it (verdict
 *    "compatible"), so that nothing can change the superblock between the
 *    comparison and the sharing.  Refused (sb_conflict, or create_failed,
 *    with the cause incompatible or unverifiable), it reports each option
 *    that differs and each the kernel could not compare; an optional option
 *    that differs is dropped like any other the kernel refused and the
 *    next attempt, on a fresh context, asks again; a required one that
 *    differs, any option the kernel could not compare (or did not list),
 *    or nothing left to drop ends the run (exit 6).  The kernel names each
 *    parameter as it was given ("noacl"), so an option is found by its
 *    key alone.  A filesystem that does not compare cannot vouch for a
 *    superblock: the kernel refuses the one in use as unverifiable
 *    (exit 6, as above).  A kernel without the command refuses it with
 *    EOPNOTSUPP and no record of it: the tool says that this kernel
 *    cannot compare and stops (exit 7).  It never falls back to CREATE,
 *    which would share whatever is there, nor guesses.
 *  - Anything else (no rejection to act on, nothing left to drop) ends it.
 *
 * Attempts: an attempt is one CREATE (or CREATE_EXCL).  Options dropped at
 * fsconfig() time cost none, as the context goes on.  Every attempt after
 * the first follows a failed CREATE that dropped at least one option or
 * the exclusivity, and a failed CREATE that drops nothing ends the run; so
 * with k rejections (rejected options, including those a CREATE_COMPATIBLE
 * found different, plus one for a refused CREATE_EXCL) there are at most
 * k + 1 attempts.
 *
 * Without FSOPEN_STRUCTURED_LOG (a stock kernel) it says that it cannot
 * retry by cause and makes one attempt, as fclog-mount would.
 *
 * Output: each attempt, each option set, every record of the log with its
 * event, cause, param and errno, each option dropped (with the cause, if
 * the kernel gave one), then the options mounted with and the number of
 * attempts.  With --json, one object per line: the kernel's records (as
 * fclog_print() writes them: they are the objects with "level", and their
 * "event", if any, is the kernel's) and the tool's own events (no "level";
 * "event": legacy, request, attempt, set, drop, reuse, create, result);
 * the last line is the result.  When the kernel compared a superblock, the
 * result also has its "verdict" and the kernel's names of the parameters
 * that differ ("differs") and that it could not compare ("unknown"); when
 * CREATE_COMPATIBLE was refused with EOPNOTSUPP, "cannot_compare" says
 * who cannot: "kernel".
 *
 * Exit status: 0 mounted; 1 usage; 2 fsopen() failed; 3 a required option
 * was rejected; 4 a failure with no rejection to act on (legacy kernel, no
 * rejection naming the option, nothing left to drop); 5 fsmount() or move_mount()
 * failed; 6 CREATE_EXCL found an existing superblock (no --allow-reuse), or
 * CREATE_COMPATIBLE one it would not share (--reuse-if-compatible); 7
 * CREATE_COMPATIBLE cannot compare: the kernel has no
 * FSCONFIG_CMD_CREATE_COMPATIBLE.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>

#include "fclog.h"
#include "mount_api.h"

enum {
	EXIT_USAGE = 1, EXIT_OPEN, EXIT_REQUIRED, EXIT_STUCK, EXIT_MOUNT,
	EXIT_EXISTS, EXIT_CANNOT_COMPARE,
};
#define RETRY	-1		/* create(): try again */

struct opt {
	const char *arg;	/* As given: "key=value" or "key" */
	char *key;
	unsigned int cmd;	/* FSCONFIG_SET_FLAG, _SET_STRING, or a file's */
	const char *value;	/* fsconfig()'s: NULL for a flag or an fd */
	int aux;		/* A file's dirfd or fd */
	bool required;
	bool is_source;		/* SOURCE, not an -r or -o option */
	bool applied;		/* Accepted by fsconfig() on the current fd */
	bool dropped;
	char cause[64];		/* Why it was dropped: the cause, or "" */
	int errnum;
};

static struct opt *opts;
static int nopts, fd = -1, attempts;
static const char *type;
static bool structured = true, exclusive, allow_reuse, fresh, json_out;
static bool reuse_compatible;	/* --reuse-if-compatible */
/* The latest record with a "verdict" this attempt read. */
static struct fclog_record *compared;
static unsigned int print_flags = FCLOG_PRINT_DETAIL;
static fclog_t *ctx_log;
static char why[512];		/* Why the run ended, when it failed */
/* Exit 7: who cannot compare, "filesystem" or "kernel"; else NULL. */
static const char *cannot_compare;

static const char *errname(int err)
{
	return strerrorname_np(err) ?: "?";
}

/* An event: with --json the object @ev, else the line @fmt. */
static void say(json_t *ev, const char *fmt, ...)
{
	va_list ap;

	if (json_out && ev) {
		json_dumpf(ev, stdout, JSON_COMPACT);
		putchar('\n');
	} else if (!json_out) {
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
	}
	json_decref(ev);
}

static int stop(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return status;
}

/* Print every record now in the log; the reader keeps the rejections. */
static void drain(void)
{
	struct fclog_record *rec;
	int r;

	while ((r = fclog_next(ctx_log, &rec)) != 0) {
		if (r < 0) {
			fprintf(stderr, "fclog-retry: %s\n", fclog_error(ctx_log));
			if (errno != EBADMSG)
				return;	/* a read error, not a bad record */
			continue;
		}
		if (!json_out)
			fputs("    ", stdout);
		fclog_print(stdout, rec, print_flags);
		if (rec->verdict != FCLOG_VERDICT_NONE) {
			fclog_record_unref(compared);
			compared = rec;		/* ours to free */
			continue;
		}
		fclog_record_unref(rec);
	}
}

/* A fresh context: every option not dropped has to be set again. */
static int open_context(void)
{
	int i;

	if (ctx_log) {
		fclog_free(ctx_log);
		close(fd);
		ctx_log = NULL;
	}
	/*
	 * FSOPEN_RETRY came with the structured log: where the kernel has
	 * it, a create that failed leaving no trace keeps the context.  The
	 * tool works without it too, on a fresh fd after every failure.
	 */
	fd = sys_fsopen(type, FSOPEN_CLOEXEC |
			(structured ? FSOPEN_STRUCTURED_LOG | FSOPEN_RETRY : 0));
	if (fd < 0 && errno == EINVAL && structured)
		fd = sys_fsopen(type, FSOPEN_CLOEXEC | FSOPEN_STRUCTURED_LOG);
	if (fd < 0 && errno == EINVAL && structured) {
		structured = false;
		say(json_pack("{s:s}", "event", "legacy"),
		    "this kernel has no FSOPEN_STRUCTURED_LOG: fclog-retry cannot retry by cause, one attempt only\n");
		fd = sys_fsopen(type, FSOPEN_CLOEXEC);
	}
	if (fd < 0)
		return stop(EXIT_OPEN, "fsopen %s: %s", type, strerror(errno));
	ctx_log = fclog_new(fd);
	if (!ctx_log)
		return stop(EXIT_OPEN, "out of memory");
	for (i = 0; i < nopts; i++)
		opts[i].applied = false;
	fresh = true;
	return 0;
}

/* The cause of @rej for people: its name, or that the kernel gave none. */
static const char *cause_of(const struct fclog_record *rej)
{
	return rej->cause_name ?: "no cause given";
}

static void drop(struct opt *o, const struct fclog_record *rej, const char *at)
{
	o->dropped = true;
	o->errnum = rej->errnum;
	snprintf(o->cause, sizeof(o->cause), "%s", rej->cause_name ?: "");
	say(json_pack("{s:s, s:s, s:s?, s:i, s:s}", "event", "drop",
		      "option", o->arg, "cause", rej->cause_name,
		      "errno", o->errnum, "at", at),
	    "  drop %s: %s (%s) at %s\n", o->arg, cause_of(rej),
	    errname(o->errnum), at);
}

/* Set @o on the context: 0 when set or dropped, else an exit status. */
static int set_one(struct opt *o)
{
	const struct fclog_record *rej;
	int ret, err;

	fclog_reset(ctx_log);
	ret = sys_fsconfig(fd, o->cmd, o->key, o->value, o->aux);
	err = errno;
	say(json_pack("{s:s, s:s, s:b, s:b, s:s?}", "event", "set",
		      "option", o->arg, "required", o->required, "ok", !ret,
		      "error", ret ? errname(err) : NULL),
	    ret ? "  set %s: %s\n" : "  set %s\n", o->arg, errname(err));
	drain();
	if (!ret) {
		o->applied = true;
		return 0;
	}
	rej = fclog_rejected(ctx_log, o->key);
	if (!rej)
		return stop(o->required ? EXIT_REQUIRED : EXIT_STUCK,
			    "%s option %s refused (%s) %s",
			    o->required ? "required" : "optional", o->arg,
			    errname(err), structured ?
			    "with no rejection naming it: not dropped" :
			    "and a legacy log gives no cause: cannot retry by cause");
	if (o->required)
		return stop(EXIT_REQUIRED, "required option %s rejected: %s (%s)",
			    o->arg, cause_of(rej), errname(rej->errnum));
	drop(o, rej, "fsconfig");
	return 0;
}

static int configure(void)
{
	int i, status;

	for (i = 0; i < nopts; i++) {
		if (opts[i].dropped || opts[i].applied)
			continue;
		status = set_one(&opts[i]);
		if (status)
			return status;
	}
	return 0;
}

/*
 * The option that set the kernel's parameter @name: the last one given
 * with that key, whose value is the one compared (the kernel names a
 * parameter as it was given, "noacl" as "noacl"); NULL if no option did.
 */
static struct opt *option_of(const char *name)
{
	struct opt *found = NULL;
	int i;

	for (i = 0; i < nopts; i++) {
		if (opts[i].dropped || opts[i].is_source)
			continue;
		if (!strcmp(opts[i].key, name))
			found = &opts[i];
	}
	return found;
}

/*
 * CREATE_COMPATIBLE refused the superblock in use (@refusal: the
 * sb_conflict, or the create_failed if that was lost; @cmp: the
 * sb_conflict, with the verdicts, or NULL).  Only an optional option that
 * differs can go: drop each (*@accepted if one had been accepted) and
 * return 0.  A required option that differs, anything the kernel could
 * not compare or did not list, or nothing to drop: an exit status, stop()
 * saying why.
 */
static int weigh(const struct fclog_record *cmp,
		 const struct fclog_record *refusal, bool *accepted)
{
	bool blocked = !cmp || cmp->params_truncated || cmp->params_unlisted;
	char list[384] = "";
	const struct fclog_param *p;
	size_t i, len = 0;
	struct opt *o;
	int dropped = 0;

	for (i = 0; cmp && i < cmp->nparams; i++) {
		p = &cmp->params[i];
		if (p->match == FCLOG_MATCH_MATCHES)
			continue;
		o = option_of(p->name);
		if (p->match != FCLOG_MATCH_DIFFERS || !o || o->required)
			blocked = true;
		if (len < sizeof(list))
			len += snprintf(list + len, sizeof(list) - len,
					"%s%s %s%s%s%s", len ? "; " : ": ",
					p->name, p->match_name,
					o ? " (" : "", o ? o->arg : "",
					!o ? "" : o->required ? ", required)" :
					")");
	}
	if (cmp && cmp->params_unlisted && len < sizeof(list))
		len += snprintf(list + len, sizeof(list) - len,
				"%sparameters the kernel cannot name",
				len ? "; " : ": ");
	if (cmp && cmp->params_truncated && len < sizeof(list))
		snprintf(list + len, sizeof(list) - len, "%sthe list was cut",
			 len ? "; " : ": ");
	for (i = 0; !blocked && cmp && i < cmp->nparams; i++) {
		if (cmp->params[i].match != FCLOG_MATCH_DIFFERS)
			continue;
		o = option_of(cmp->params[i].name);
		*accepted |= o->applied;
		drop(o, refusal, "create");
		dropped++;
	}
	if (dropped)
		return 0;
	return stop(EXIT_EXISTS, "CREATE_COMPATIBLE: the %s superblock (%s) in use is %s%s; not shared",
		    refusal->sb_type ?: type, refusal->sb_id ?: "?",
		    cmp && cmp->verdict == FCLOG_VERDICT_UNKNOWN ?
		    "not known to have what was asked (verdict unknown)" :
		    cmp && cmp->verdict_name ? cmp->verdict_name :
		    refusal->cause_name, *list ? list :
		    !cmp && refusal->cause == FCLOG_CAUSE_UNVERIFIABLE ?
		    ": not everything set could be compared (the record naming it was not read)" :
		    "");
}

/*
 * The kernel's rejection of this CREATE_COMPATIBLE: the latest rejection
 * with that op, preferring the outcome (create_failed); NULL if the kernel
 * logged none, as one without the command does.
 */
static const struct fclog_record *compatible_rejection(void)
{
	const struct fclog_record *rej, *found = NULL;
	int i;

	for (i = 0; (rej = fclog_rejection(ctx_log, i)); i++)
		if (rej->op == FCLOG_OP_CREATE_COMPATIBLE &&
		    (!found || rej->event == FCLOG_EVENT_CREATE_FAILED))
			found = rej;
	return found;
}

/* One attempt: 0 when created, RETRY, or an exit status. */
static int create(void)
{
	const struct fclog_record *rej, *sb = NULL, *refusal = NULL, *cmp = NULL;
	bool progress = false, accepted = false, conflict = false;
	unsigned int cmd = !exclusive ? FSCONFIG_CMD_CREATE :
			   reuse_compatible ? FSCONFIG_CMD_CREATE_COMPATIBLE :
			   FSCONFIG_CMD_CREATE_EXCL;
	int i, j, ret, err, status;

	attempts++;
	fclog_reset(ctx_log);
	fclog_record_unref(compared);
	compared = NULL;
	ret = sys_fsconfig(fd, cmd, NULL, NULL, 0);
	err = errno;
	say(json_pack("{s:s, s:i, s:b, s:b, s:b, s:s?}", "event", "create",
		      "attempt", attempts, "exclusive", exclusive,
		      "compatible", cmd == FSCONFIG_CMD_CREATE_COMPATIBLE,
		      "ok", !ret, "error", ret ? errname(err) : NULL),
	    ret ? "  %s: %s\n" : "  %s\n",
	    cmd == FSCONFIG_CMD_CREATE_COMPATIBLE ? "create (compatible only)" :
	    exclusive ? "create (exclusive)" : "create", errname(err));
	drain();
	if (!ret && compared && compared->event == FCLOG_EVENT_SB_SHARED &&
	    compared->verdict == FCLOG_VERDICT_COMPATIBLE)
		say(NULL, "  the %s superblock (%s) in use has every option asked: shared\n",
		    compared->sb_type ?: type, compared->sb_id ?: "?");
	if (!ret)
		return 0;
	/*
	 * A kernel that does not know the command refuses it before it looks
	 * at the context, logging nothing: nothing can be compared, and a
	 * plain CREATE would share whatever is there, which is the caller's
	 * choice.  (A kernel that knows it answers a filesystem that does not
	 * compare with an unverifiable superblock, EBUSY, handled below.)
	 */
	if (cmd == FSCONFIG_CMD_CREATE_COMPATIBLE && err == EOPNOTSUPP &&
	    !compatible_rejection()) {
		cannot_compare = "kernel";
		return stop(EXIT_CANNOT_COMPARE, "this kernel cannot compare a superblock in use with the options (no FSCONFIG_CMD_CREATE_COMPATIBLE: %s); nothing was mounted or shared",
			    errname(err));
	}
	if (!structured)
		return stop(EXIT_STUCK, "CREATE failed (%s) and a legacy log gives no cause: cannot retry by cause",
			    errname(err));

	for (i = 0; (rej = fclog_rejection(ctx_log, i)); i++) {
		/*
		 * CREATE_EXCL met a superblock: sb_conflict names it, and
		 * create_failed repeats the cause (which is all there is
		 * if the sb_conflict record was lost).
		 */
		if (rej->cause == FCLOG_CAUSE_EXCLUSIVE &&
		    (rej->event == FCLOG_EVENT_SB_CONFLICT ||
		     rej->event == FCLOG_EVENT_CREATE_FAILED)) {
			conflict = true;
			if (rej->event == FCLOG_EVENT_SB_CONFLICT)
				sb = rej;
		}
		/* CREATE_COMPATIBLE would not share it: the same, with verdicts. */
		if ((rej->cause == FCLOG_CAUSE_INCOMPATIBLE ||
		     rej->cause == FCLOG_CAUSE_UNVERIFIABLE) &&
		    (rej->event == FCLOG_EVENT_SB_CONFLICT ||
		     rej->event == FCLOG_EVENT_CREATE_FAILED)) {
			if (!refusal || rej->event == FCLOG_EVENT_SB_CONFLICT)
				refusal = rej;
			if (rej->event == FCLOG_EVENT_SB_CONFLICT)
				cmp = rej;
		}
		for (j = 0; rej->param && j < nopts; j++) {
			if (opts[j].dropped || strcmp(opts[j].key, rej->param))
				continue;
			if (opts[j].required)
				return stop(EXIT_REQUIRED, "required option %s rejected: %s (%s)",
					    opts[j].arg, cause_of(rej),
					    errname(rej->errnum));
			accepted |= opts[j].applied;
			drop(&opts[j], rej, "create");
			progress = true;
		}
	}
	if (conflict && exclusive) {
		if (!allow_reuse)
			return stop(EXIT_EXISTS, "CREATE_EXCL: a %s superblock (%s) exists; --allow-reuse would mount it",
				    sb && sb->sb_type ? sb->sb_type : type,
				    sb && sb->sb_id ? sb->sb_id : "?");
		exclusive = false;
		progress = true;
		say(json_pack("{s:s, s:s?, s:s?}", "event", "reuse",
			      "type", sb ? sb->sb_type : NULL,
			      "id", sb ? sb->sb_id : NULL),
		    "  a %s superblock (%s) exists: --allow-reuse, next attempt without exclusive\n",
		    sb && sb->sb_type ? sb->sb_type : type,
		    sb && sb->sb_id ? sb->sb_id : "?");
	}
	if (refusal) {
		status = weigh(cmp, refusal, &accepted);
		if (status)
			return status;
		progress = true;
	}
	if (!progress)
		return stop(EXIT_STUCK, "CREATE failed (%s) with no rejected option left to drop",
			    errname(err));
	if (fclog_recoverable(ctx_log) == FCLOG_TRI_TRUE && !accepted) {
		fresh = false;
		return RETRY;
	}
	return open_context() ?: RETRY;
}

static int mount_at(const char *target)
{
	int mfd, err;

	mfd = sys_fsmount(fd, FSMOUNT_CLOEXEC, 0);
	if (mfd < 0 || sys_move_mount(mfd, "", AT_FDCWD, target,
				      MOVE_MOUNT_F_EMPTY_PATH)) {
		err = errno;
		drain();
		if (mfd >= 0)
			close(mfd);
		return stop(EXIT_MOUNT, "mount on %s: %s", target, strerror(err));
	}
	drain();
	close(mfd);
	return 0;
}

/*
 * The latest comparison, to @ev: the verdict, and the kernel's names of
 * the parameters that differ and of those it could not compare.
 */
static void add_verdict(json_t *ev)
{
	json_t *lists[2] = { json_array(), json_array() };
	size_t i;

	for (i = 0; i < compared->nparams; i++)
		if (compared->params[i].match != FCLOG_MATCH_MATCHES)
			json_array_append_new(lists[compared->params[i].match ==
						    FCLOG_MATCH_DIFFERS],
					      json_string(compared->params[i].name));
	json_object_set_new(ev, "verdict",
			    json_string(compared->verdict_name));
	json_object_set_new(ev, "differs", lists[1]);
	json_object_set_new(ev, "unknown", lists[0]);
}

/* The outcome: the options kept and dropped, and the attempts made. */
static void result(int status, const char *target)
{
	json_t *kept = json_array(), *dropped = json_array(), *ev;
	size_t i;
	int n;

	for (n = 0; n < nopts; n++) {
		if (opts[n].is_source)
			continue;
		if (opts[n].dropped)
			json_array_append_new(dropped, json_pack("{s:s, s:s?, s:i}",
					      "option", opts[n].arg, "cause",
					      *opts[n].cause ? opts[n].cause : NULL,
					      "errno", opts[n].errnum));
		else
			json_array_append_new(kept, json_string(opts[n].arg));
	}
	ev = json_pack("{s:s, s:i, s:b, s:i, s:b, s:b, s:O, s:O, s:s?}",
		       "event", "result", "exit", status, "mounted", !status,
		       "attempts", attempts, "structured", structured,
		       "exclusive", exclusive, "options", kept,
		       "dropped", dropped, "error", status ? why : NULL);
	if (ev && compared)
		add_verdict(ev);
	if (ev && cannot_compare)
		json_object_set_new(ev, "cannot_compare",
				    json_string(cannot_compare));
	if (status)
		say(ev, "not mounted (%d CREATE attempt%s): %s\n", attempts,
		    attempts == 1 ? "" : "s", why);
	else
		say(ev, "mounted %s on %s after %d attempt%s\n", type, target,
		    attempts, attempts == 1 ? "" : "s");
	if (!json_out) {
		fputs(status ? "  options left:" : "  options:", stdout);
		for (i = 0; i < json_array_size(kept); i++)
			printf(" %s", json_string_value(json_array_get(kept, i)));
		fputs(json_array_size(kept) ? "\n" : " (none)\n", stdout);
		for (n = 0; n < nopts; n++)
			if (opts[n].dropped)
				printf("  dropped: %s (%s, %s)\n", opts[n].arg,
				       *opts[n].cause ? opts[n].cause :
				       "no cause given", errname(opts[n].errnum));
	}
	if (status)
		fprintf(stderr, "fclog-retry: %s\n", why);
	json_decref(kept);
	json_decref(dropped);
}

static void add_option(const char *arg, bool required)
{
	struct opt *o = &opts[nopts++];
	const char *eq = strchr(arg, '=');

	o->arg = arg;
	o->key = strndup(arg, eq ? (size_t)(eq - arg) : strlen(arg));
	o->cmd = eq ? FSCONFIG_SET_STRING : FSCONFIG_SET_FLAG;
	o->value = eq ? eq + 1 : NULL;
	o->required = required;
}

/* --file: 0, or -1 if @arg does not parse (nothing has been sent yet). */
static int add_file(const char *arg)
{
	struct opt *o = &opts[nopts];
	struct fclog_file_param p;

	if (fclog_parse_file_param(arg, &p)) {
		fprintf(stderr, "fclog-retry: --file %s: not KEY=PATH, KEY=@N:PATH, KEY=@N: or KEY=@N\n",
			arg);
		return -1;
	}
	nopts++;
	o->arg = arg;
	o->key = strndup(arg, p.keylen);
	o->cmd = p.cmd;
	o->value = p.value;
	o->aux = p.aux;
	o->required = true;
	return 0;
}

/* The options asked for, before anything is tried. */
static void request(const char *source, const char *target)
{
	json_t *lists[2] = { json_array(), json_array() };	/* -o, -r */
	size_t i;
	int n;

	for (n = 0; n < nopts; n++)
		if (!opts[n].is_source)
			json_array_append_new(lists[opts[n].required],
					      json_string(opts[n].arg));
	say(json_pack("{s:s, s:s, s:s, s:s, s:O, s:O, s:b, s:b}", "event",
		      "request", "type", type, "source", source, "target",
		      target, "required", lists[1], "optional", lists[0],
		      "exclusive", exclusive,
		      "reuse_if_compatible", reuse_compatible),
	    "mount %s %s on %s%s\n", type, source, target,
	    reuse_compatible ? " (CREATE_COMPATIBLE)" :
	    exclusive ? " (CREATE_EXCL)" : "");
	for (n = 1; !json_out && n >= 0; n--) {
		if (!json_array_size(lists[n]))
			continue;
		fputs(n ? "  required:" : "  optional:", stdout);
		for (i = 0; i < json_array_size(lists[n]); i++)
			printf(" %s", json_string_value(json_array_get(lists[n], i)));
		putchar('\n');
	}
	json_decref(lists[0]);
	json_decref(lists[1]);
}

/* --help: on standard output; a usage error: on standard error. */
static void usage(FILE *f)
{
	fprintf(f, "usage: fclog-retry -t TYPE [-r KEY[=VALUE]]... [-o KEY[=VALUE]]...\n"
		"                   [--file KEY=VALUE]...\n"
		"                   [--exclusive [--allow-reuse | --reuse-if-compatible]]\n"
		"                   [--json] SOURCE TARGET\n"
		"  -t TYPE        the filesystem type\n"
		"  -r KEY[=VALUE] a required option: if the kernel rejects it, stop (exit 3)\n"
		"  -o KEY[=VALUE] an optional option: dropped if the kernel rejects it\n"
		"      --file KEY=VALUE  a file parameter, required; VALUE is PATH (from the\n"
		"                 working directory), @N:PATH (from the inherited fd N), @N:\n"
		"                 (fd N itself) or @N (the open file fd N holds); ./@... for\n"
		"                 a PATH that begins with @\n"
		"      --exclusive  create with FSCONFIG_CMD_CREATE_EXCL\n"
		"      --allow-reuse  with --exclusive: on a superblock in use, CREATE again\n"
		"      --reuse-if-compatible  with --exclusive: share a superblock in use only\n"
		"                 if every option matches (FSCONFIG_CMD_CREATE_COMPATIBLE)\n"
		"      --json     the records and the tool's own events, one JSON object a line\n"
		"      --help     this text\n"
		"KEY=VALUE is set as a string, KEY as a flag.  Exit status: 0 mounted, 1 usage,\n"
		"2 fsopen() failed, 3 a required option refused, 4 a failure with no\n"
		"rejection to act on, 5 fsmount()/move_mount() failed, 6 a superblock in use\n"
		"not shared (--exclusive), 7 the kernel has no CREATE_COMPATIBLE.\n");
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "file", required_argument, NULL, 'f' },
		{ "exclusive", no_argument, NULL, 'x' },
		{ "allow-reuse", no_argument, NULL, 'a' },
		{ "reuse-if-compatible", no_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	const char *source, *target;
	char *arg;
	int c, status;

	/* Slot 0 is the source; at most one option per argument after it. */
	opts = calloc(argc + 1, sizeof(*opts));
	if (!opts)
		return EXIT_USAGE;
	nopts = 1;
	while ((c = getopt_long(argc, argv, "t:r:o:", longopts, NULL)) != -1) {
		switch (c) {
		case 't': type = optarg; break;
		case 'r': add_option(optarg, true); break;
		case 'o': add_option(optarg, false); break;
		case 'f':
			if (add_file(optarg))
				goto usage;
			break;
		case 'x': exclusive = true; break;
		case 'a': allow_reuse = true; break;
		case 'c': reuse_compatible = true; break;
		case 'j': json_out = true; break;
		case 'h': usage(stdout); return 0;
		default: goto usage;
		}
	}
	if (!type || argc - optind != 2)
		goto usage;
	if (reuse_compatible && (!exclusive || allow_reuse)) {
		fputs("fclog-retry: --reuse-if-compatible goes with --exclusive, not with --allow-reuse\n",
		      stderr);
		goto usage;
	}
	source = argv[optind];
	target = argv[optind + 1];
	if (json_out)
		print_flags = FCLOG_PRINT_JSON;
	else if (isatty(STDOUT_FILENO))
		print_flags |= FCLOG_PRINT_COLOUR;
	setvbuf(stdout, NULL, _IOLBF, 0);

	if (strcmp(source, "none")) {
		/* "source=..." in messages, like every other option. */
		if (asprintf(&arg, "source=%s", source) < 0)
			return EXIT_USAGE;
		opts[0].arg = arg;
		opts[0].key = strdup("source");
		opts[0].cmd = FSCONFIG_SET_STRING;
		opts[0].value = source;
		opts[0].required = true;
		opts[0].is_source = true;
	} else {
		opts++;		/* no source to set */
		nopts--;
	}

	request(source, target);
	for (status = open_context(); !status;) {
		say(json_pack("{s:s, s:i, s:s, s:b, s:b}", "event", "attempt",
			      "attempt", attempts + 1, "context",
			      fresh ? "fresh" : "same", "exclusive", exclusive,
			      "structured", structured),
		    "attempt %d, on %s context%s\n", attempts + 1,
		    fresh ? "a fresh" : "the same",
		    reuse_compatible ? ", CREATE_COMPATIBLE" :
		    exclusive ? ", CREATE_EXCL" : "");
		status = configure();
		if (!status)
			status = create();
		if (!status) {
			status = mount_at(target);
			break;
		}
		if (status == RETRY)
			status = 0;
	}
	result(status, target);
	fclog_record_unref(compared);
	if (ctx_log) {
		fclog_free(ctx_log);
		close(fd);
	}
	return status;

usage:
	usage(stderr);
	return EXIT_USAGE;
}
