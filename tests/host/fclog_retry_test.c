// SPDX-License-Identifier: GPL-2.0
/*
 * fclog-retry's decisions on the host, against a fake kernel: the tool's
 * own source is compiled in, and syscall() and read() are replaced here,
 * so that fsopen/fsconfig/fsmount/move_mount reach a model of a context
 * that logs structured reports (or legacy lines) as the schema says:
 * param_rejected for a refused parameter, sb_conflict then create_failed
 * for a CREATE_EXCL that meets a superblock (compared with nothing: no
 * verdict), create_failed with "recoverable" for every failed CREATE; and
 * a superblock in use that it compares with what the context set as a
 * kernel with FSCONFIG_CMD_CREATE_COMPATIBLE does (a "verdict" and each
 * parameter's, named as given, superblock flags first, on sb_shared and
 * on the sb_conflict of CREATE_COMPATIBLE, which shares only a compatible
 * one); a filesystem that does not compare has the superblock in use
 * refused as unverifiable (EBUSY, verdict unknown); an older kernel
 * refuses that command with EOPNOTSUPP and no record.
 *
 * The model refuses what a scenario lists, at fsconfig() time or at CREATE
 * (one key per CREATE, as a fill_super stops at its first complaint), and
 * counts what the tool did: contexts opened, CREATEs, fsconfig() on a
 * failed or stale context (which a correct retrier never does), keys set
 * again after their rejection, and what the mounted context held.  That
 * checks the attempts the tool reports and the k + 1 bound against the
 * calls it really made; where a scenario says, every fsconfig() call is
 * checked, in order, with its command, key, value and aux (--file's forms
 * among -r's and -o's options, set again on a fresh context).  The guest test (retrier_test) runs the same tool
 * on a real kernel.  TAP, with a closing summary line.
 */
#define main fclog_retry_main
#include "../../userspace/tools/fclog-retry.c"
#undef main

#include <dlfcn.h>
#include <sys/mman.h>
#include <sys/wait.h>

/* ------------------------------------------------------------ the model */

struct fake_param {
	const char *key;	/* "key", or "key=value" for that value only */
	bool at_create;		/* accepted by fsconfig(), refused by CREATE */
	const char *cause;	/* "": a record without a cause; NULL: refused
				 * with no record at all */
	int errnum;
	const char *event;	/* NULL: param_rejected */
};

struct scenario {
	const char *name;
	const char *args;	/* fclog-retry's arguments after --json */
	struct fake_param params[6];
	bool legacy;		/* no FSOPEN_STRUCTURED_LOG */
	bool sb_in_use;		/* CREATE_EXCL finds a superblock */
	bool sb_conflict_lost;	/* ...and only its create_failed is read */
	bool unrecoverable;	/* a failed CREATE fails the context */
	bool no_retry;		/* a kernel without FSOPEN_RETRY */
	bool create_fails;	/* CREATE fails, with no rejection */
	/*
	 * The superblock in use, as "key[=value]" the way a context sets
	 * it, comma-joined: what the filesystem compares ("" for a
	 * filesystem that compares but has no parameter); NULL: it
	 * compares nothing, every parameter is unknown.  Its order is the
	 * order of the filesystem's table, in which the kernel lists them.
	 */
	const char *sb_has;
	/*
	 * The flags of the table that take "no" ("acl": "noacl" clears
	 * it), comma-joined; any other key that starts with "no" is a
	 * parameter of its own.
	 */
	const char *negatable;
	bool unlisted;		/* ...and parameters set it cannot name */
	bool no_compare;	/* A filesystem without ->compare_param */
	bool no_compatible;	/* A kernel without CREATE_COMPATIBLE */
	int k;			/* rejections the tool should meet */
	/* expected: */
	int exit, attempts, contexts;
	const char *options;	/* kept, comma-joined */
	/* With a comparison: the result's verdict, differs and unknown. */
	const char *verdict, *differs, *unknown;
	bool no_verdict;	/* The result has no verdict */
	const char *cannot_compare;	/* The result's, on exit 7 */
	const char *error;	/* A part of the result's error */
	/* The fsconfig() calls, one a line, as note_call() writes them. */
	const char *calls;
};

/* What the tool did, shared with the parent across fork(). */
struct stats {
	int contexts, creates, misuse, resets_of_rejected;
	int by_cmd[16];		/* fsconfig() calls per create command */
	char mounted[256];
	char calls[2048];	/* every fsconfig() call, in order */
};

#define FAKE_FD		900	/* context fds: 900, 901, ... */
#define FAKE_MNT_FD	899

static const struct scenario *sc;
static struct stats *stats;
static struct {
	int fd, seq;
	bool failed, created;
	bool retry;		/* opened with FSOPEN_RETRY */
	char set[16][64];	/* keys set, as "key=value" or "key" */
	int nset;
	char rejected[16][64];	/* keys refused on any context so far */
	int nrejected;
	char queue[16][1024];	/* records not read yet */
	size_t len[16];
	int head, tail;
} ctx;

static void push(const char *line, const char *fmt, ...)
{
	char json[900];
	va_list ap;
	size_t l = strlen(line);
	int i = ctx.tail++ % 16;

	memcpy(ctx.queue[i], line, l);
	ctx.len[i] = l;
	if (sc->legacy)
		return;
	va_start(ap, fmt);
	vsnprintf(json, sizeof(json), fmt, ap);
	va_end(ap);
	ctx.queue[i][l] = '\0';
	ctx.len[i] += 1 + snprintf(ctx.queue[i] + l + 1, sizeof(ctx.queue[i]) - l - 1,
				   "{\"seq\":%d,\"level\":\"%s\",\"source\":\"fake\","
				   "\"msg\":\"m\"%s}", ctx.seq++,
				   line[0] == 'e' ? "error" : line[0] == 'w' ?
				   "warning" : "info", json);
}

/* The scenario's entry for @key set to @value (NULL: a flag). */
static const struct fake_param *lookup_param(const char *key, const char *value)
{
	const struct fake_param *p;
	size_t kl = strlen(key);

	for (p = sc->params; p->key; p++) {
		if (strncmp(p->key, key, kl) || (p->key[kl] && p->key[kl] != '='))
			continue;
		if (!p->key[kl] || (value && !strcmp(p->key + kl + 1, value)))
			return p;
	}
	return NULL;
}

static int fail_with(int err)
{
	errno = err;
	return -1;
}

static int fake_fsopen(unsigned int flags)
{
	if (sc->legacy && (flags & FSOPEN_STRUCTURED_LOG))
		return fail_with(EINVAL);
	if ((sc->legacy || sc->no_retry) && (flags & FSOPEN_RETRY))
		return fail_with(EINVAL);
	memset(&ctx.fd, 0, offsetof(typeof(ctx), rejected));
	ctx.retry = flags & FSOPEN_RETRY;
	ctx.head = ctx.tail = 0;
	ctx.fd = FAKE_FD + stats->contexts++;
	return ctx.fd;
}

/*
 * Whether a failed CREATE fails the context: as the kernel does, unless
 * the filesystem declared the failure harmless and the context was opened
 * with FSOPEN_RETRY.
 */
static bool create_fails_context(void)
{
	return sc->unrecoverable || !ctx.retry;
}

/* Whether @list (comma-joined) has @word. */
static bool listed(const char *list, const char *word, size_t len)
{
	const char *p;

	for (p = list; p && *p; p += strcspn(p, ","), p += *p == ',')
		if (strcspn(p, ",") == len && !strncmp(p, word, len))
			return true;
	return false;
}

/* The superblock flags the VFS parses, as set and as cleared. */
static const char *const vfs_flags[][2] = {
	{ "ro", "rw" }, { "sync", "async" }, { "dirsync", NULL },
	{ "lazytime", "nolazytime" }, { "mand", "nomand" },
};

/*
 * Which parameter @set ("key" or "key=value") sets, into @id: its table
 * entry ("acl" for "noacl" if acl is negatable, "ro" for "rw"); -1 for a
 * superblock flag (its rank in vfs_flags), else 0.
 */
static int param_id(const char *set, char *id, size_t size)
{
	size_t len = strcspn(set, "=");
	size_t i;

	for (i = 0; i < sizeof(vfs_flags) / sizeof(vfs_flags[0]); i++)
		if ((strlen(vfs_flags[i][0]) == len &&
		     !strncmp(set, vfs_flags[i][0], len)) ||
		    (vfs_flags[i][1] && strlen(vfs_flags[i][1]) == len &&
		     !strncmp(set, vfs_flags[i][1], len))) {
			snprintf(id, size, "%s", vfs_flags[i][0]);
			return -1 - (int)i;
		}
	if (len > 2 && !strncmp(set, "no", 2) &&
	    listed(sc->negatable, set + 2, len - 2)) {
		set += 2;
		len -= 2;
	}
	snprintf(id, size, "%.*s", (int)len, set);
	return 0;
}

/*
 * The superblock's setting of the parameter @id, as a context would set
 * it, into @has, and its rank in the table (from 1); 0 if the superblock
 * does not compare it.
 */
static int sb_setting(const char *id, char *has, size_t size)
{
	char list[256], other[64], *tok, *save = NULL;
	int rank = 0;

	if (!sc->sb_has)
		return 0;
	snprintf(list, sizeof(list), "%s", sc->sb_has);
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		rank++;
		param_id(tok, other, sizeof(other));
		if (!strcmp(other, id)) {
			snprintf(has, size, "%s", tok);
			return rank;
		}
	}
	return 0;
}

/*
 * Compare the context with the superblock in use: ",\"verdict\":...,
 * \"params\":{...}" into @json, each parameter once, named as it was
 * given last and with the value set last, as the kernel lists them:
 * superblock flags first, then the filesystem's in the order of its table
 * (here: of sb_has, then the ones it does not compare, as set); the
 * verdict is returned (0 compatible, 1 incompatible, 2 unknown).
 */
static int compare(char *json, size_t size)
{
	char id[64], other[64], has[64], params[400];
	bool differs = false, unknown = sc->unlisted || !sc->sb_has ||
					sc->no_compare;
	int i, j, r, last, rank[16], order[16], n = 0;
	size_t len = 0;

	params[0] = '\0';
	for (i = 0; i < ctx.nset; i++) {
		r = param_id(ctx.set[i], id, sizeof(id));
		for (j = 0, last = i; j < ctx.nset; j++) {
			param_id(ctx.set[j], other, sizeof(other));
			if (!strcmp(id, other)) {
				if (j < i)
					break;
				last = j;
			}
		}
		if (j < i)
			continue;	/* listed already */
		if (!r)
			r = sb_setting(id, has, sizeof(has)) ?: 100 + i;
		order[n++] = last;
		rank[last] = r;
	}
	/* In the kernel's order: by rank, flags (negative) first. */
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && rank[order[j - 1]] > rank[order[j]]; j--) {
			last = order[j];
			order[j] = order[j - 1];
			order[j - 1] = last;
		}
	for (i = 0; i < n; i++) {
		const char *set = ctx.set[order[i]];

		param_id(set, id, sizeof(id));
		if (rank[order[i]] < 0) {
			/* The VFS compares flags, as set or cleared. */
			bool is_set = !strcmp(set, id);

			strcpy(other, (sc->sb_has && listed(sc->sb_has, id,
							    strlen(id))) ==
				      is_set ? "matches" : "differs");
			differs |= other[0] == 'd';
		} else if (sc->no_compare || !sb_setting(id, has, sizeof(has))) {
			unknown = true;
			strcpy(other, "unknown");
		} else if (strcmp(has, set)) {
			differs = true;
			strcpy(other, "differs");
		} else {
			strcpy(other, "matches");
		}
		len += snprintf(params + len, sizeof(params) - len,
				"%s\"%.*s\":\"%s\"", len ? "," : "",
				(int)strcspn(set, "="), set, other);
	}
	i = differs ? 1 : unknown ? 2 : 0;
	snprintf(json, size, ",\"verdict\":\"%s\",\"params\":{%s}%s",
		 i == 1 ? "incompatible" : i == 2 ? "unknown" : "compatible",
		 params, sc->unlisted ? ",\"params_unlisted\":true" : "");
	return i;
}

static int fake_create(unsigned int cmd)
{
	const struct fake_param *p = NULL, *bad;
	bool excl = cmd == FSCONFIG_CMD_CREATE_EXCL;
	const char *op = cmd == FSCONFIG_CMD_CREATE_EXCL ? "create_excl" :
			 cmd == FSCONFIG_CMD_CREATE_COMPATIBLE ?
			 "create_compatible" : "create";
	char verdict[512];
	int i, compat = 0;

	stats->creates++;
	/* CREATE_EXCL refuses whatever it meets: it compares nothing. */
	verdict[0] = '\0';
	if (sc->sb_in_use && !excl)
		compat = compare(verdict, sizeof(verdict));
	if (sc->sb_in_use && (excl || (cmd == FSCONFIG_CMD_CREATE_COMPATIBLE &&
				       compat))) {
		const char *cause = excl ? "exclusive" : compat == 1 ?
				    "incompatible" : "unverifiable";

		if (!sc->sb_conflict_lost)
			push("w fake: superblock exists\n", ",\"event\":\"sb_conflict\","
			     "\"cause\":\"%s\",\"errno\":16,"
			     "\"op\":\"%s\",\"superblock\":"
			     "{\"type\":\"fake\",\"id\":\"fake0\"}%s", cause, op,
			     verdict);
		push("e fake: CREATE failed\n", ",\"event\":\"create_failed\","
		     "\"cause\":\"%s\",\"errno\":16,"
		     "\"op\":\"%s\",\"recoverable\":%s", cause, op,
		     create_fails_context() ? "false" : "true");
		ctx.failed = create_fails_context();
		return fail_with(EBUSY);
	}
	for (i = 0; i < ctx.nset; i++) {
		char key[64], *eq;

		strcpy(key, ctx.set[i]);
		eq = strchr(key, '=');
		if (eq)
			*eq++ = '\0';
		p = lookup_param(key, eq);
		if (p && p->at_create)
			break;
	}
	if (i == ctx.nset && !sc->create_fails) {
		ctx.created = true;
		if (sc->sb_in_use)	/* shared, as the kernel compared it */
			push("i fake: reusing\n", ",\"event\":\"sb_shared\","
			     "\"op\":\"%s\",\"superblock\":{\"type\":\"fake\","
			     "\"id\":\"fake0\"}%s,\"params_applied\":false",
			     op, verdict);
		return 0;
	}
	bad = i < ctx.nset ? p : NULL;
	if (bad) {
		push("e fake: bad at create\n", ",\"event\":\"%s\"%s%s%s,"
		     "\"param\":\"%.*s\",\"errno\":%d,\"op\":\"%s\"",
		     p->event ?: "param_rejected",
		     *p->cause ? ",\"cause\":\"" : "", p->cause,
		     *p->cause ? "\"" : "",
		     (int)strcspn(ctx.set[i], "="), ctx.set[i], p->errnum, op);
		strcpy(ctx.rejected[ctx.nrejected++ % 16], ctx.set[i]);
	}
	push("e fake: CREATE failed\n", ",\"event\":\"create_failed\"%s%s%s,"
	     "\"errno\":%d,\"op\":\"%s\",\"recoverable\":%s",
	     bad && *bad->cause ? ",\"cause\":\"" : "", bad ? bad->cause : "",
	     bad && *bad->cause ? "\"" : "", EINVAL, op,
	     create_fails_context() ? "false" : "true");
	ctx.failed = create_fails_context();
	return fail_with(EINVAL);
}

static const char *cmd_name(unsigned int cmd)
{
	static const char *const names[] = {
		[FSCONFIG_SET_FLAG] = "set_flag",
		[FSCONFIG_SET_STRING] = "set_string",
		[FSCONFIG_SET_BINARY] = "set_binary",
		[FSCONFIG_SET_PATH] = "set_path",
		[FSCONFIG_SET_PATH_EMPTY] = "set_path_empty",
		[FSCONFIG_SET_FD] = "set_fd",
		[FSCONFIG_CMD_CREATE] = "create",
		[FSCONFIG_CMD_RECONFIGURE] = "reconfigure",
		[FSCONFIG_CMD_CREATE_EXCL] = "create_excl",
		[FSCONFIG_CMD_CREATE_COMPATIBLE] = "create_compatible",
	};

	return cmd < sizeof(names) / sizeof(names[0]) && names[cmd] ?
	       names[cmd] : "?";
}

/* Note an fsconfig() call: "set_path lowerdir+ \"lower\" 7". */
static void note_call(unsigned int cmd, const char *key, const char *value,
		      int aux)
{
	size_t len = strlen(stats->calls);
	char quoted[256];

	snprintf(quoted, sizeof(quoted), "\"%s\"", value);
	snprintf(stats->calls + len, sizeof(stats->calls) - len, "%s %s %s %d\n",
		 cmd_name(cmd), key ?: "NULL", value ? quoted : "NULL", aux);
}

/* The "op" the kernel logs for a command that sets a parameter. */
static const char *op_of(unsigned int cmd)
{
	return cmd == FSCONFIG_SET_PATH_EMPTY ? "set_path" : cmd_name(cmd);
}

static int fake_fsconfig(int fd, unsigned int cmd, const char *key,
			 const char *value, int aux)
{
	const struct fake_param *p;
	char set[64];
	int i;

	note_call(cmd, key, value, aux);
	if (cmd < 16)
		stats->by_cmd[cmd]++;
	/* Refused before the fd is looked at, as fsconfig() does. */
	if (cmd == FSCONFIG_CMD_CREATE_COMPATIBLE && sc->no_compatible) {
		stats->creates++;
		return fail_with(EOPNOTSUPP);
	}
	/* A retrier never uses a stale, failed or created context. */
	if (fd != ctx.fd || ctx.failed || ctx.created) {
		stats->misuse++;
		return fail_with(fd != ctx.fd ? EBADF : EBUSY);
	}
	if (cmd == FSCONFIG_CMD_CREATE || cmd == FSCONFIG_CMD_CREATE_EXCL ||
	    cmd == FSCONFIG_CMD_CREATE_COMPATIBLE)
		return fake_create(cmd);
	/* As the tool's syntax gives it: a file by its fd, if it has one. */
	if (cmd == FSCONFIG_SET_FD)
		snprintf(set, sizeof(set), "%s=@%d", key, aux);
	else if (cmd == FSCONFIG_SET_PATH_EMPTY ||
		 (cmd == FSCONFIG_SET_PATH && aux != AT_FDCWD))
		snprintf(set, sizeof(set), "%s=@%d:%s", key, aux, value);
	else
		snprintf(set, sizeof(set), value ? "%s=%s" : "%s", key, value);
	for (i = 0; i < ctx.nrejected; i++)
		if (!strcmp(ctx.rejected[i], set))
			stats->resets_of_rejected++;
	p = lookup_param(key, value);
	if (p && !p->at_create) {
		if (p->cause)
			push("e fake: bad\n", ",\"event\":\"%s\"%s%s%s,"
			     "\"param\":\"%s\",%s%s%s\"errno\":%d,\"op\":\"%s\"",
			     p->event ?: "param_rejected",
			     *p->cause ? ",\"cause\":\"" : "", p->cause,
			     *p->cause ? "\"" : "", key,
			     value ? "\"value\":\"" : "", value ?: "",
			     value ? "\"," : "", p->errnum, op_of(cmd));
		strcpy(ctx.rejected[ctx.nrejected++ % 16], set);
		return fail_with(p->errnum);
	}
	if (strcmp(key, "source"))
		strcpy(ctx.set[ctx.nset++ % 16], set);
	return 0;
}

static int fake_move_mount(int from)
{
	int i;

	if (from != FAKE_MNT_FD)
		return fail_with(EBADF);
	stats->mounted[0] = '\0';
	for (i = 0; i < ctx.nset; i++)
		snprintf(stats->mounted + strlen(stats->mounted),
			 sizeof(stats->mounted) - strlen(stats->mounted),
			 "%s%s", i ? "," : "", ctx.set[i]);
	return 0;
}

/* The mount API goes to the model, anything else to the C library. */
long syscall(long nr, ...)
{
	long (*real)(long, ...) = dlsym(RTLD_NEXT, "syscall");
	long a[5];
	va_list ap;
	int i;

	va_start(ap, nr);
	for (i = 0; i < 5; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	switch (nr) {
	case __NR_fsopen:
		return fake_fsopen(a[1]);
	case __NR_fsconfig:
		return fake_fsconfig(a[0], a[1], (const char *)a[2],
				     (const char *)a[3], a[4]);
	case __NR_fsmount:
		return a[0] == ctx.fd && ctx.created ? FAKE_MNT_FD :
		       fail_with(EINVAL);
	case __NR_move_mount:
		return fake_move_mount(a[0]);
	}
	return real(nr, a[0], a[1], a[2], a[3], a[4]);
}

/* A context fd reads its records, then ENODATA, as the kernel's does. */
ssize_t read(int fd, void *buf, size_t n)
{
	ssize_t (*real)(int, void *, size_t) = dlsym(RTLD_NEXT, "read");
	int i;

	if (fd < FAKE_FD)
		return real(fd, buf, n);
	if (fd != ctx.fd)
		return fail_with(EBADF);
	if (ctx.head == ctx.tail)
		return fail_with(ENODATA);
	/* Too small a buffer leaves the record, as the kernel does. */
	i = ctx.head % 16;
	if (ctx.len[i] > n)
		return fail_with(EMSGSIZE);
	ctx.head++;
	memcpy(buf, ctx.queue[i], ctx.len[i]);
	return ctx.len[i];
}

/* ------------------------------------------------------------ the tests */

static int n, failures;

static void check(int ok, const char *name, const char *why_not)
{
	n++;
	if (!ok) {
		printf("# %s\n", why_not ? why_not : "");
		failures++;
	}
	printf("%sok %d %s\n", ok ? "" : "not ", n, name);
}

/* Run the tool on @s in a child; its result object, NULL if none. */
static json_t *run(const struct scenario *s, int *status, char *out, size_t size)
{
	char args[512], *argv[32], *tok, *save = NULL, line[2048];
	json_t *res = NULL, *obj;
	int argc = 0, pipefd[2];
	size_t len = 0;
	pid_t pid;
	FILE *f;

	snprintf(args, sizeof(args), "fclog-retry --json %s", s->args);
	for (tok = strtok_r(args, " ", &save); tok && argc < 31;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	memset(stats, 0, sizeof(*stats));
	fflush(stdout);
	if (pipe(pipefd) || (pid = fork()) < 0)
		return NULL;
	if (!pid) {
		dup2(pipefd[1], 1);
		dup2(pipefd[1], 2);
		close(pipefd[0]);
		sc = s;
		exit(fclog_retry_main(argc, argv));
	}
	close(pipefd[1]);
	f = fdopen(pipefd[0], "r");
	out[0] = '\0';
	while (f && fgets(line, sizeof(line), f)) {
		len += snprintf(out + len, len < size ? size - len : 0, "# %s", line);
		obj = json_loads(line, 0, NULL);
		if (json_is_string(json_object_get(obj, "event")) &&
		    !strcmp(json_string_value(json_object_get(obj, "event")),
			    "result")) {
			json_decref(res);
			res = obj;
		} else {
			json_decref(obj);
		}
	}
	if (f)
		fclose(f);
	waitpid(pid, status, 0);
	*status = WIFEXITED(*status) ? WEXITSTATUS(*status) : -1;
	return res;
}

/*
 * Whether each option the result says was dropped names the cause the
 * model gave (null for a rejection without one).
 */
static bool drops_name_causes(const struct scenario *s, json_t *res)
{
	const struct fake_param *p;
	char key[64], *eq;
	json_t *v, *cause;
	size_t i;

	sc = s;
	json_array_foreach(json_object_get(res, "dropped"), i, v) {
		snprintf(key, sizeof(key), "%s",
			 json_string_value(json_object_get(v, "option")) ?: "");
		eq = strchr(key, '=');
		if (eq)
			*eq++ = '\0';
		p = lookup_param(key, eq);
		cause = json_object_get(v, "cause");
		/* Dropped because the superblock in use has another value. */
		if (!p && s->sb_has && json_is_string(cause) &&
		    !strcmp(json_string_value(cause), "incompatible"))
			continue;
		if (!p || !p->cause || !cause ||
		    (*p->cause ? !json_is_string(cause) ||
				 strcmp(json_string_value(cause), p->cause) :
				 !json_is_null(cause)))
			return false;
	}
	return true;
}

/* The strings of the array @name of @res, comma-joined. */
static void joined(json_t *res, const char *name, char *buf, size_t size)
{
	json_t *kept = json_object_get(res, name);
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < json_array_size(kept) && len < size; i++)
		len += snprintf(buf + len, size - len, "%s%s", i ? "," : "",
				json_string_value(json_array_get(kept, i)));
}

static void kept_options(json_t *res, char *buf, size_t size)
{
	joined(res, "options", buf, size);
}

/*
 * What the result says of the comparison, as @s expects it: the verdict,
 * the parameters that differ and those unknown, a part of the error.
 */
static bool comparison_as_expected(const struct scenario *s, json_t *res)
{
	char list[256];

	if (s->verdict && !json_is_string(json_object_get(res, "verdict")))
		return false;
	if (s->no_verdict && (json_object_get(res, "verdict") ||
			      json_object_get(res, "differs") ||
			      json_object_get(res, "unknown")))
		return false;
	if (s->cannot_compare ?
	    !json_is_string(json_object_get(res, "cannot_compare")) ||
	    strcmp(json_string_value(json_object_get(res, "cannot_compare")),
		   s->cannot_compare) :
	    json_object_get(res, "cannot_compare") != NULL)
		return false;
	if (s->verdict &&
	    strcmp(json_string_value(json_object_get(res, "verdict")), s->verdict))
		return false;
	joined(res, "differs", list, sizeof(list));
	if (s->differs && strcmp(list, s->differs))
		return false;
	joined(res, "unknown", list, sizeof(list));
	if (s->unknown && strcmp(list, s->unknown))
		return false;
	return !s->error ||
	       (json_is_string(json_object_get(res, "error")) &&
		strstr(json_string_value(json_object_get(res, "error")), s->error));
}

static const struct scenario scenarios[] = {
	{
		.name = "fsconfig-time rejections cost no attempt",
		.args = "-t fake -o a=1 -o nosuch -o b=bad -o c -o d=x none /mnt",
		.params = { { "nosuch", false, "unknown_param", EINVAL },
			    { "b", false, "bad_value", EINVAL } },
		.k = 2, .exit = 0, .attempts = 1, .contexts = 1,
		.options = "a=1,c,d=x",
	}, {
		.name = "a CREATE-time rejection: a fresh context without it",
		.args = "-t fake -o a=1 -o late=x -o z none /mnt",
		.params = { { "late", true, "bad_value", EINVAL } },
		.k = 1, .exit = 0, .attempts = 2, .contexts = 2,
		.options = "a=1,z",
	}, {
		.name = "a CREATE-time rejection, context failed: a fresh one",
		.args = "-t fake -o a=1 -o late=x none /mnt",
		.params = { { "late", true, "bad_value", EINVAL } },
		.unrecoverable = true,
		.k = 1, .exit = 0, .attempts = 2, .contexts = 2,
		.options = "a=1",
	}, {
		.name = "three CREATE-time rejections and one at fsconfig: 4 attempts",
		.args = "-t fake -o a=1 -o late1=x -o nosuch -o late2=y -o late3 -r r=1 src /mnt",
		.params = { { "late1", true, "bad_value", EINVAL },
			    { "late2", true, "unmapped_id", EINVAL },
			    { "late3", true, "unsupported", EOPNOTSUPP },
			    { "nosuch", false, "unknown_param", EINVAL } },
		.k = 4, .exit = 0, .attempts = 4, .contexts = 4,
		.options = "a=1,r=1",
	}, {
		.name = "the same key twice: only the rejected value goes",
		.args = "-t fake -o size=1m -o size=abc none /mnt",
		.params = { { "size=abc", false, "bad_value", EINVAL } },
		.k = 1, .exit = 0, .attempts = 1, .contexts = 1,
		.options = "size=1m",
	}, {
		.name = "a flag given a value (wrong_type) is dropped",
		.args = "-t fake -o a=1 -o inode64=yes none /mnt",
		.params = { { "inode64", false, "wrong_type", EINVAL } },
		.k = 1, .exit = 0, .attempts = 1, .contexts = 1,
		.options = "a=1",
	}, {
		.name = "a cause newer than the library still drops the option",
		.args = "-t fake -o a=1 -o q=9 none /mnt",
		.params = { { "q", false, "quota_exceeded", EDQUOT } },
		.k = 1, .exit = 0, .attempts = 1, .contexts = 1,
		.options = "a=1",
	}, {
		.name = "a rejection with no cause still drops the option",
		.args = "-t fake -o a=1 -o time_offset=100000 none /mnt",
		.params = { { "time_offset", false, "", EINVAL } },
		.k = 1, .exit = 0, .attempts = 1, .contexts = 1,
		.options = "a=1",
	}, {
		.name = "a CREATE-time rejection with no cause: a fresh context",
		.args = "-t fake -o a=1 -o late=x none /mnt",
		.params = { { "late", true, "", EINVAL } },
		.k = 1, .exit = 0, .attempts = 2, .contexts = 2,
		.options = "a=1",
	}, {
		.name = "an event newer than the library is no rejection: exit 4",
		.args = "-t fake -o a=1 -o q=9 none /mnt",
		.params = { { "q", false, "", EDQUOT, "param_quota" } },
		.k = 1, .exit = 4, .attempts = 0, .contexts = 1,
		.options = "a=1,q=9",
	}, {
		.name = "a required option rejected by fsconfig: exit 3",
		.args = "-t fake -r a=bad -o b=1 none /mnt",
		.params = { { "a", false, "bad_value", EINVAL } },
		.k = 1, .exit = 3, .attempts = 0, .contexts = 1,
		.options = "a=bad,b=1",
	}, {
		.name = "a required option rejected by CREATE: exit 3",
		.args = "-t fake -o b=1 -r late=x none /mnt",
		.params = { { "late", true, "bad_value", EINVAL } },
		.k = 1, .exit = 3, .attempts = 1, .contexts = 1,
		.options = "b=1,late=x",
	}, {
		.name = "the source rejected: exit 3",
		.args = "-t fake -o b=1 /dev/nope /mnt",
		.params = { { "source", false, "not_found", ENOENT } },
		.k = 1, .exit = 3, .attempts = 0, .contexts = 1,
		.options = "b=1",
	}, {
		.name = "CREATE_EXCL on an existing superblock: exit 6",
		.args = "-t fake --exclusive -o a=1 none /mnt",
		.sb_in_use = true,
		.k = 1, .exit = 6, .attempts = 1, .contexts = 1,
		.options = "a=1",
	}, {
		.name = "--allow-reuse: CREATE on the same context",
		.args = "-t fake --exclusive --allow-reuse -o a=1 -o nosuch none /mnt",
		.params = { { "nosuch", false, "unknown_param", EINVAL } },
		.sb_in_use = true,
		.k = 2, .exit = 0, .attempts = 2, .contexts = 1,
		.options = "a=1",
	}, {
		.name = "--allow-reuse, create_failed unrecoverable: a fresh context",
		.args = "-t fake --exclusive --allow-reuse -o a=1 none /mnt",
		.sb_in_use = true, .unrecoverable = true,
		.k = 1, .exit = 0, .attempts = 2, .contexts = 2,
		.options = "a=1",
	}, {
		.name = "--allow-reuse, a kernel without FSOPEN_RETRY: a fresh context",
		.args = "-t fake --exclusive --allow-reuse -o a=1 none /mnt",
		.sb_in_use = true, .no_retry = true,
		.k = 1, .exit = 0, .attempts = 2, .contexts = 2,
		.options = "a=1",
	}, {
		.name = "--allow-reuse, sb_conflict lost: create_failed's cause suffices",
		.args = "-t fake --exclusive --allow-reuse -o a=1 none /mnt",
		.sb_in_use = true, .sb_conflict_lost = true,
		.k = 1, .exit = 0, .attempts = 2, .contexts = 1,
		.options = "a=1",
	}, {
		.name = "CREATE_EXCL: the conflict compares nothing, no verdict",
		.args = "-t fake --exclusive -o mode=0700 none /mnt",
		.sb_in_use = true, .sb_has = "mode=0700",
		.k = 1, .exit = 6, .attempts = 1, .contexts = 1,
		.options = "mode=0700", .no_verdict = true,
		.error = "CREATE_EXCL: a fake superblock (fake0) exists",
	}, {
		.name = "--allow-reuse: the CREATE that shares compares",
		.args = "-t fake --exclusive --allow-reuse -o mode=0755 none /mnt",
		.sb_in_use = true, .sb_has = "mode=0700",
		.k = 1, .exit = 0, .attempts = 2, .contexts = 1,
		.options = "mode=0755", .verdict = "incompatible",
		.differs = "mode", .unknown = "",
	}, {
		.name = "--reuse-if-compatible, every option matches: shared in one call",
		.args = "-t fake --exclusive --reuse-if-compatible -r mode=0700 "
			"-o uid=0 -o nosuch none /mnt",
		.params = { { "nosuch", false, "unknown_param", EINVAL } },
		.sb_in_use = true, .sb_has = "mode=0700,uid=0,gid=0",
		.k = 1, .exit = 0, .attempts = 1, .contexts = 1,
		.options = "mode=0700,uid=0", .verdict = "compatible",
		.differs = "", .unknown = "",
	}, {
		.name = "--reuse-if-compatible, a required option differs: exit 6, named",
		.args = "-t fake --exclusive --reuse-if-compatible -o uid=0 "
			"-r mode=0755 none /mnt",
		.sb_in_use = true, .sb_has = "mode=0700,uid=0",
		.k = 1, .exit = 6, .attempts = 1, .contexts = 1,
		.options = "uid=0,mode=0755", .verdict = "incompatible",
		.differs = "mode", .unknown = "",
		.error = "incompatible: mode differs (mode=0755, required); not shared",
	}, {
		.name = "--reuse-if-compatible, an optional option differs: dropped, then shared",
		.args = "-t fake --exclusive --reuse-if-compatible -r uid=0 "
			"-o mode=0755 none /mnt",
		.sb_in_use = true, .sb_has = "mode=0700,uid=0",
		.k = 1, .exit = 0, .attempts = 2, .contexts = 2,
		.options = "uid=0", .verdict = "compatible", .differs = "",
	}, {
		.name = "--reuse-if-compatible, context unrecoverable: two dropped at once",
		.args = "-t fake --exclusive --reuse-if-compatible -o mode=0755 "
			"-o gid=0 none /mnt",
		.sb_in_use = true, .sb_has = "mode=0700,gid=1", .unrecoverable = true,
		.k = 2, .exit = 0, .attempts = 2, .contexts = 2,
		.options = "", .verdict = "compatible", .differs = "",
	}, {
		.name = "--reuse-if-compatible: the value set last is the one compared",
		.args = "-t fake --exclusive --reuse-if-compatible -o mode=0755 "
			"-o mode=0700 none /mnt",
		.sb_in_use = true, .sb_has = "mode=0700",
		.k = 0, .exit = 0, .attempts = 1, .contexts = 1,
		.options = "mode=0755,mode=0700", .verdict = "compatible",
	}, {
		.name = "--reuse-if-compatible: noacl is named noacl, and dropped",
		.args = "-t fake --exclusive --reuse-if-compatible -r mode=0700 "
			"-o noacl none /mnt",
		.sb_in_use = true, .sb_has = "acl,mode=0700", .negatable = "acl",
		.k = 1, .exit = 0, .attempts = 2, .contexts = 2,
		.options = "mode=0700", .verdict = "compatible",
	}, {
		.name = "--reuse-if-compatible: a flag set, then cleared, is named as cleared",
		.args = "-t fake --exclusive --reuse-if-compatible -o acl "
			"-r mode=0700 -o noacl none /mnt",
		.sb_in_use = true, .sb_has = "acl,mode=0700", .negatable = "acl",
		.k = 1, .exit = 0, .attempts = 2, .contexts = 2,
		.options = "acl,mode=0700", .verdict = "compatible",
	}, {
		/*
		 * "node" is not "de" negated: a tool that guessed a "no"
		 * prefix would blame the required node=1 for the de that
		 * differs, and give up.
		 */
		.name = "--reuse-if-compatible: a key that starts with no is its own",
		.args = "-t fake --exclusive --reuse-if-compatible -o de=2 "
			"-r node=1 none /mnt",
		.sb_in_use = true, .sb_has = "de=1,node=1",
		.k = 1, .exit = 0, .attempts = 2, .contexts = 2,
		.options = "node=1", .verdict = "compatible",
	}, {
		.name = "--reuse-if-compatible: flags first, then the table's order",
		.args = "-t fake --exclusive --reuse-if-compatible -r gid=5 "
			"-r mode=0755 -r ro -r x=1 none /mnt",
		.sb_in_use = true, .sb_has = "mode=0700,gid=1",
		.k = 1, .exit = 6, .attempts = 1, .contexts = 1,
		.options = "gid=5,mode=0755,ro,x=1", .verdict = "incompatible",
		.differs = "ro,mode,gid", .unknown = "x",
		.error = "incompatible: ro differs (ro, required); mode differs "
			 "(mode=0755, required); gid differs (gid=5, required); "
			 "x unknown (x=1, required)",
	}, {
		.name = "--reuse-if-compatible, an option it cannot compare: exit 6, named",
		.args = "-t fake --exclusive --reuse-if-compatible -o mode=0700 "
			"-o gid=5 none /mnt",
		.sb_in_use = true, .sb_has = "mode=0700",
		.k = 1, .exit = 6, .attempts = 1, .contexts = 1,
		.options = "mode=0700,gid=5", .verdict = "unknown",
		.differs = "", .unknown = "gid",
		.error = "(verdict unknown): gid unknown (gid=5)",
	}, {
		.name = "--reuse-if-compatible, differs and unknown: exit 6, both named",
		.args = "-t fake --exclusive --reuse-if-compatible -o mode=0755 "
			"-o gid=5 none /mnt",
		.sb_in_use = true, .sb_has = "mode=0700",
		.k = 1, .exit = 6, .attempts = 1, .contexts = 1,
		.options = "mode=0755,gid=5", .verdict = "incompatible",
		.differs = "mode", .unknown = "gid",
	}, {
		.name = "--reuse-if-compatible, a filesystem that does not compare: unknown, exit 6",
		.args = "-t fake --exclusive --reuse-if-compatible -o mode=0700 none /mnt",
		.sb_in_use = true, .no_compare = true,
		.k = 1, .exit = 6, .attempts = 1, .contexts = 1,
		.options = "mode=0700", .verdict = "unknown", .differs = "",
		.unknown = "mode",
	}, {
		.name = "--reuse-if-compatible, a filesystem that does not compare, nothing set: unknown, exit 6",
		.args = "-t fake --exclusive --reuse-if-compatible none /mnt",
		.sb_in_use = true, .no_compare = true,
		.k = 1, .exit = 6, .attempts = 1, .contexts = 1,
		.options = "", .verdict = "unknown", .differs = "", .unknown = "",
		.error = "in use is not known to have what was asked (verdict unknown); not shared",
	}, {
		.name = "--reuse-if-compatible, a filesystem that does not compare, none in use: created",
		.args = "-t fake --exclusive --reuse-if-compatible -o mode=0700 none /mnt",
		.no_compare = true,
		.k = 0, .exit = 0, .attempts = 1, .contexts = 1,
		.options = "mode=0700", .no_verdict = true,
	}, {
		.name = "--allow-reuse, a filesystem that does not compare: shared, unknown",
		.args = "-t fake --exclusive --allow-reuse -o mode=0700 none /mnt",
		.sb_in_use = true, .no_compare = true,
		.k = 1, .exit = 0, .attempts = 2, .contexts = 1,
		.options = "mode=0700", .verdict = "unknown", .differs = "",
		.unknown = "mode",
	}, {
		.name = "--reuse-if-compatible, parameters it cannot name: exit 6",
		.args = "-t fake --exclusive --reuse-if-compatible -o mode=0700 none /mnt",
		.sb_in_use = true, .sb_has = "mode=0700", .unlisted = true,
		.k = 1, .exit = 6, .attempts = 1, .contexts = 1,
		.options = "mode=0700", .verdict = "unknown",
		.error = "parameters the kernel cannot name",
	}, {
		.name = "--reuse-if-compatible, sb_conflict lost: create_failed refuses",
		.args = "-t fake --exclusive --reuse-if-compatible -o mode=0755 none /mnt",
		.sb_in_use = true, .sb_has = "mode=0700", .sb_conflict_lost = true,
		.k = 1, .exit = 6, .attempts = 1, .contexts = 1,
		.options = "mode=0755", .error = "in use is incompatible",
	}, {
		.name = "--reuse-if-compatible, no superblock in use: created",
		.args = "-t fake --exclusive --reuse-if-compatible -o mode=0755 none /mnt",
		.k = 0, .exit = 0, .attempts = 1, .contexts = 1,
		.options = "mode=0755",
	}, {
		.name = "--reuse-if-compatible, a kernel without the command: exit 7, no guess",
		.args = "-t fake --exclusive --reuse-if-compatible -o mode=0700 none /mnt",
		.sb_in_use = true, .sb_has = "mode=0700", .no_compatible = true,
		.k = 1, .exit = 7, .attempts = 1, .contexts = 1,
		.options = "mode=0700", .no_verdict = true,
		.cannot_compare = "kernel", .error = "this kernel cannot compare",
	}, {
		.name = "--reuse-if-compatible, a kernel without it or structured logs: exit 7",
		.args = "-t fake --exclusive --reuse-if-compatible -o mode=0700 none /mnt",
		.sb_in_use = true, .legacy = true, .no_compatible = true,
		.k = 1, .exit = 7, .attempts = 1, .contexts = 1,
		.options = "mode=0700", .cannot_compare = "kernel",
		.error = "this kernel cannot compare",
	}, {
		.name = "every --file form, in command-line order with -r and -o",
		.args = "-t fake --file lowerdir+=@7:lower -o a=1 --file upperdir=@8: "
			"-r b --file workdir=@9 --file datadir+=./@odd overlay /mnt",
		.k = 0, .exit = 0, .attempts = 1, .contexts = 1,
		.options = "lowerdir+=@7:lower,a=1,upperdir=@8:,b,workdir=@9,"
			   "datadir+=./@odd",
		.calls = "set_string source \"overlay\" 0\n"
			 "set_path lowerdir+ \"lower\" 7\n"
			 "set_string a \"1\" 0\n"
			 "set_path_empty upperdir \"\" 8\n"
			 "set_flag b NULL 0\n"
			 "set_fd workdir NULL 9\n"
			 "set_path datadir+ \"./@odd\" -100\n"
			 "create NULL NULL 0\n",
	}, {
		.name = "a file on a fresh context: set again, the same way",
		.args = "-t fake --file upperdir=@8: -o late=x --file lowerdir+=/l none /mnt",
		.params = { { "late", true, "bad_value", EINVAL } },
		.k = 1, .exit = 0, .attempts = 2, .contexts = 2,
		.options = "upperdir=@8:,lowerdir+=/l",
		.calls = "set_path_empty upperdir \"\" 8\n"
			 "set_string late \"x\" 0\n"
			 "set_path lowerdir+ \"/l\" -100\n"
			 "create NULL NULL 0\n"
			 "set_path_empty upperdir \"\" 8\n"
			 "set_path lowerdir+ \"/l\" -100\n"
			 "create NULL NULL 0\n",
	}, {
		.name = "an O_PATH fd refused (o_path): a file is required, exit 3",
		.args = "-t fake -o a=1 --file workdir=@5 none /mnt",
		.params = { { "workdir", false, "o_path", EBADF } },
		.k = 1, .exit = 3, .attempts = 0, .contexts = 1,
		.options = "a=1,workdir=@5",
		.error = "required option workdir=@5 rejected: o_path (EBADF)",
	}, {
		.name = "a file that is no directory (not_directory): exit 3",
		.args = "-t fake --file upperdir=@4:f none /mnt",
		.params = { { "upperdir", false, "not_directory", ENOTDIR } },
		.k = 1, .exit = 3, .attempts = 0, .contexts = 1,
		.options = "upperdir=@4:f",
		.error = "required option upperdir=@4:f rejected: not_directory (ENOTDIR)",
	}, {
		.name = "CREATE fails with no rejection: exit 4",
		.args = "-t fake -o a=1 none /mnt",
		.create_fails = true,
		.k = 0, .exit = 4, .attempts = 1, .contexts = 1,
		.options = "a=1",
	}, {
		.name = "a refusal with no record is not dropped: exit 4",
		.args = "-t fake -o a=1 -o b=2 none /mnt",
		.params = { { "b", false, NULL, EINVAL } },
		.k = 1, .exit = 4, .attempts = 0, .contexts = 1,
		.options = "a=1,b=2",
	}, {
		.name = "legacy kernel, good options: one attempt",
		.args = "-t fake -o a=1 none /mnt",
		.legacy = true,
		.k = 0, .exit = 0, .attempts = 1, .contexts = 1,
		.options = "a=1",
	}, {
		.name = "legacy kernel, a refused option: no retry, exit 4",
		.args = "-t fake -o a=1 -o nosuch none /mnt",
		.params = { { "nosuch", false, "unknown_param", EINVAL } },
		.legacy = true,
		.k = 1, .exit = 4, .attempts = 0, .contexts = 1,
		.options = "a=1,nosuch",
	},
};

/* --file arguments that do not parse. */
static const char *const malformed[] = {
	"upperdir=@", "upperdir=@x", "upperdir=@-1", "upperdir=@12abc",
	"upperdir", "=/srv/upper", "upperdir=",
};

int main(void)
{
	char name[160], out[8192], kept[256], why_not[512], args[256], want[128];
	const struct scenario *s;
	json_t *res;
	int status, attempts;
	size_t i;

	stats = mmap(NULL, sizeof(*stats), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (stats == MAP_FAILED)
		return 1;
	printf("TAP version 13\n");
	for (i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
		s = &scenarios[i];
		res = run(s, &status, out, sizeof(out));
		attempts = json_integer_value(json_object_get(res, "attempts"));
		kept_options(res, kept, sizeof(kept));
		snprintf(why_not, sizeof(why_not), "exit %d, attempts %d (%d CREATE), "
			 "contexts %d, kept \"%s\", misuse %d, rejected set again %d",
			 status, attempts, stats->creates, stats->contexts, kept,
			 stats->misuse, stats->resets_of_rejected);
		check(res && status == s->exit &&
		      json_integer_value(json_object_get(res, "exit")) == s->exit &&
		      comparison_as_expected(s, res) &&
		      /* --reuse-if-compatible: CREATE_COMPATIBLE only. */
		      (!strstr(s->args, "--reuse-if-compatible") ||
		       (stats->by_cmd[FSCONFIG_CMD_CREATE_COMPATIBLE] == s->attempts &&
			!stats->by_cmd[FSCONFIG_CMD_CREATE] &&
			!stats->by_cmd[FSCONFIG_CMD_CREATE_EXCL])) &&
		      attempts == s->attempts && stats->creates == s->attempts &&
		      attempts <= s->k + 1 && stats->contexts == s->contexts &&
		      !strcmp(kept, s->options) && !stats->misuse &&
		      (!s->calls || !strcmp(stats->calls, s->calls)) &&
		      drops_name_causes(s, res) &&
		      !stats->resets_of_rejected &&
		      json_is_boolean(json_object_get(res, "structured")) &&
		      json_is_true(json_object_get(res, "structured")) == !s->legacy,
		      s->name, why_not);
		/* What was mounted is exactly what the tool says it kept. */
		snprintf(name, sizeof(name), "%s: the mount holds those", s->name);
		if (!s->exit)
			check(!strcmp(stats->mounted, s->options), name,
			      stats->mounted);
		if (res && status != s->exit)
			fputs(out, stdout);
		if (s->calls && strcmp(stats->calls, s->calls))
			printf("# calls:\n%s# want:\n%s", stats->calls, s->calls);
		json_decref(res);
	}
	s = &(struct scenario){ .args = "-o a=1 none /mnt" };
	res = run(s, &status, out, sizeof(out));
	check(!res && status == EXIT_USAGE, "no -t: usage, exit 1", out);
	s = &(struct scenario){ .args = "-t fake --reuse-if-compatible none /mnt" };
	res = run(s, &status, out, sizeof(out));
	check(!res && status == EXIT_USAGE && !stats->contexts,
	      "--reuse-if-compatible without --exclusive: usage, exit 1", out);
	s = &(struct scenario){ .args = "-t fake --exclusive --allow-reuse "
					"--reuse-if-compatible none /mnt" };
	res = run(s, &status, out, sizeof(out));
	check(!res && status == EXIT_USAGE && !stats->contexts,
	      "--reuse-if-compatible with --allow-reuse: usage, exit 1", out);
	for (i = 0; i < sizeof(malformed) / sizeof(malformed[0]); i++) {
		snprintf(args, sizeof(args), "-t fake -r a=1 --file %s none /mnt",
			 malformed[i]);
		snprintf(want, sizeof(want), "fclog-retry: --file %s: not KEY=PATH",
			 malformed[i]);
		s = &(struct scenario){ .args = args };
		res = run(s, &status, out, sizeof(out));
		snprintf(name, sizeof(name),
			 "--file %s: usage, exit 1, nothing sent", malformed[i]);
		check(!res && status == EXIT_USAGE && !stats->contexts &&
		      !stats->calls[0] && strstr(out, want) &&
		      strstr(out, "usage: fclog-retry "), name, out);
	}
	printf("1..%d\n# %d passed, %d failed\n", n, n - failures, failures);
	return failures ? 1 : 0;
}
