// SPDX-License-Identifier: GPL-2.0
/*
 * fclog_probe_option() and fclog-probe on the host, against a fake kernel:
 * syscall(), read() and close() are replaced here (libfclog is linked in
 * statically), so that fsopen/fsconfig reach a model of a context whose
 * log holds what a scenario says the kernel logs.  That covers what no
 * real filesystem here gives on demand: every cause, none, one newer than
 * the library, a refusal with no record or a record naming another key, a
 * deprecation, the legacy fallback.
 *
 * Every probe must open exactly one context, set exactly one parameter,
 * never create, and close the context with its log read empty.  The tool
 * (its source compiled in) is run on the same model for its output and
 * exit status.  TAP, with a closing summary line.
 */
#define main fclog_probe_main
#include "../../userspace/tools/fclog-probe.c"
#undef main

#include <dlfcn.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mount_api.h"

/* What the fake kernel does with a key. */
struct behaviour {
	const char *key;
	int err;		/* 0: accepted */
	const char *report;	/* JSON fields after "msg", or NULL: no
				 * record at all */
	const char *line;	/* The line, or NULL: the VFS's own
				 * "Parameter refused", structured only */
};

static const struct behaviour kernel[] = {
	{ "flag", 0, NULL, NULL },
	{ "old", 0, "\"event\":\"param_deprecated\",\"param\":\"old\"",
	  "w fake: old is deprecated" },
	{ "nosuch", EINVAL, "\"event\":\"param_rejected\",\"cause\":\"unknown_param\",\"param\":\"nosuch\",\"errno\":22,\"op\":\"set_flag\"",
	  "e fake: Unknown parameter 'nosuch'" },
	{ "size", EINVAL, "\"event\":\"param_rejected\",\"cause\":\"bad_value\",\"param\":\"size\",\"value\":\"abc\",\"errno\":22,\"op\":\"set_string\"",
	  "e fake: Bad value for 'size'" },
	{ "mode", EINVAL, "\"event\":\"param_rejected\",\"cause\":\"wrong_type\",\"expected\":\"set_string\",\"param\":\"mode\",\"errno\":22,\"op\":\"set_flag\"", NULL },
	{ "huge", EINVAL, "\"event\":\"param_rejected\",\"cause\":\"unsupported\",\"param\":\"huge\",\"errno\":22,\"op\":\"set_string\"", NULL },
	{ "noswap", EPERM, "\"event\":\"param_rejected\",\"cause\":\"permission\",\"param\":\"noswap\",\"errno\":1,\"op\":\"set_flag\"", NULL },
	{ "journal_path", ENOENT, "\"event\":\"param_rejected\",\"cause\":\"not_found\",\"param\":\"journal_path\",\"errno\":2,\"op\":\"set_string\"", NULL },
	{ "quiet", EINVAL, "\"event\":\"param_rejected\",\"param\":\"quiet\",\"errno\":22,\"op\":\"set_flag\"", NULL },
	{ "future", EINVAL, "\"event\":\"param_rejected\",\"cause\":\"from_the_future\",\"param\":\"future\",\"errno\":22,\"op\":\"set_flag\"", NULL },
	{ "silent", EINVAL, NULL, NULL },
	{ "other", EINVAL, "\"event\":\"param_rejected\",\"cause\":\"unknown_param\",\"param\":\"not_other\",\"errno\":22,\"op\":\"set_flag\"", NULL },
};

#define FAKE_FD		900

static bool legacy_kernel;
static struct {
	int opened, configured, created, closed, unread, open_flags;
	char queue[4][1024];
	size_t len[4];
	int head, tail;
	bool structured, open;
} ctx;

static void push(const char *line, const char *report)
{
	char *rec = ctx.queue[ctx.tail % 4];
	int n;

	n = snprintf(rec, 1024, "%s\n", line);
	if (ctx.structured) {
		n++;	/* the NUL */
		n += snprintf(rec + n, 1024 - n,
			      "{\"seq\":%d,\"level\":\"%s\",\"source\":\"fake\",\"msg\":\"%s\"%s%s}",
			      ctx.tail, line[0] == 'w' ? "warning" : "error",
			      line + 8, report ? "," : "", report ?: "");
	}
	ctx.len[ctx.tail++ % 4] = n;
}

long syscall(long nr, ...)
{
	long (*real)(long, ...) = dlsym(RTLD_NEXT, "syscall");
	const struct behaviour *b = NULL;
	const char *type, *key;
	unsigned int flags, cmd;
	va_list ap;
	size_t i;
	int fd;

	va_start(ap, nr);
	if (nr == __NR_fsopen) {
		type = va_arg(ap, const char *);
		flags = va_arg(ap, unsigned int);
		va_end(ap);
		if (strcmp(type, "fake")) {
			errno = ENODEV;
			return -1;
		}
		if (legacy_kernel && (flags & FSOPEN_STRUCTURED_LOG)) {
			errno = EINVAL;
			return -1;
		}
		memset(ctx.queue, 0, sizeof(ctx.queue));
		ctx.head = ctx.tail = 0;
		ctx.structured = flags & FSOPEN_STRUCTURED_LOG;
		ctx.open_flags = flags;
		ctx.open = true;
		ctx.opened++;
		return FAKE_FD;
	}
	if (nr != __NR_fsconfig) {
		long a = va_arg(ap, long), b2 = va_arg(ap, long),
		     c = va_arg(ap, long), d = va_arg(ap, long),
		     e = va_arg(ap, long);

		va_end(ap);
		return real(nr, a, b2, c, d, e);
	}
	fd = va_arg(ap, int);
	cmd = va_arg(ap, unsigned int);
	key = va_arg(ap, const char *);
	va_end(ap);
	if (fd != FAKE_FD || !ctx.open) {
		errno = EBADF;
		return -1;
	}
	if (cmd == FSCONFIG_CMD_CREATE || cmd == FSCONFIG_CMD_CREATE_EXCL) {
		ctx.created++;
		errno = EBUSY;
		return -1;
	}
	ctx.configured++;
	for (i = 0; i < sizeof(kernel) / sizeof(kernel[0]); i++)
		if (!strcmp(kernel[i].key, key))
			b = &kernel[i];
	if (!b) {
		errno = EINVAL;
		return -1;
	}
	if (b->report) {
		/* Records that had no message before: structured logs only. */
		if (ctx.structured || b->line)
			push(b->line ?: "e fake: Parameter refused", b->report);
	}
	errno = b->err;
	return b->err ? -1 : 0;
}

ssize_t read(int fd, void *buf, size_t n)
{
	ssize_t (*real)(int, void *, size_t) = dlsym(RTLD_NEXT, "read");
	size_t len;

	if (fd != FAKE_FD)
		return real(fd, buf, n);
	if (ctx.head == ctx.tail) {
		errno = ENODATA;
		return -1;
	}
	len = ctx.len[ctx.head % 4];
	if (len > n) {
		errno = EMSGSIZE;
		return -1;
	}
	memcpy(buf, ctx.queue[ctx.head++ % 4], len);
	return len;
}

int close(int fd)
{
	int (*real)(int) = dlsym(RTLD_NEXT, "close");

	if (fd != FAKE_FD)
		return real(fd);
	ctx.closed++;
	ctx.unread += ctx.tail - ctx.head;
	ctx.open = false;
	return 0;
}

static int n, failures;

static void check(bool ok, const char *name, const char *why_not)
{
	printf("%sok %d %s\n", ok ? "" : "not ", ++n, name);
	if (!ok) {
		printf("# %s\n", why_not);
		failures++;
	}
}

struct expect {
	const char *key, *value;
	unsigned int flags;
	bool legacy_kernel;
	enum fclog_probe_answer answer;
	const char *cause;
	int errnum;
	bool deprecated;
	const char *msg;	/* NULL: not checked */
	enum fclog_op expected;
};

static const struct expect cases[] = {
	{ "flag", NULL, 0, false,
	  FCLOG_PROBE_SUPPORTED, "", 0, false,
	  "", FCLOG_OP_NONE },
	{ "old", NULL, 0, false,
	  FCLOG_PROBE_SUPPORTED, "", 0, true,
	  NULL, FCLOG_OP_NONE },
	{ "nosuch", NULL, 0, false,
	  FCLOG_PROBE_UNKNOWN, "unknown_param", EINVAL, false,
	  "e fake: Unknown parameter 'nosuch'", FCLOG_OP_NONE },
	{ "size", "abc", 0, false,
	  FCLOG_PROBE_REFUSED, "bad_value", EINVAL, false,
	  "e fake: Bad value for 'size'", FCLOG_OP_NONE },
	{ "mode", NULL, 0, false,
	  FCLOG_PROBE_REFUSED, "wrong_type", EINVAL, false,
	  NULL, FCLOG_OP_SET_STRING },
	{ "huge", "always", 0, false,
	  FCLOG_PROBE_REFUSED, "unsupported", EINVAL, false,
	  NULL, FCLOG_OP_NONE },
	{ "noswap", NULL, 0, false,
	  FCLOG_PROBE_REFUSED, "permission", EPERM, false,
	  NULL, FCLOG_OP_NONE },
	{ "journal_path", "/x", 0, false,
	  FCLOG_PROBE_REFUSED, "not_found", ENOENT, false,
	  NULL, FCLOG_OP_NONE },
	/* The kernel gave no cause, or one this library cannot know. */
	{ "quiet", NULL, 0, false,
	  FCLOG_PROBE_CANNOT_TELL, "", EINVAL, false,
	  NULL, FCLOG_OP_NONE },
	{ "future", NULL, 0, false,
	  FCLOG_PROBE_CANNOT_TELL, "from_the_future", EINVAL, false,
	  NULL, FCLOG_OP_NONE },
	/* No record, or none naming the key. */
	{ "silent", NULL, 0, false,
	  FCLOG_PROBE_CANNOT_TELL, "", EINVAL, false,
	  "", FCLOG_OP_NONE },
	{ "other", NULL, 0, false,
	  FCLOG_PROBE_CANNOT_TELL, "", EINVAL, false,
	  NULL, FCLOG_OP_NONE },
	/* A kernel without structured logs: certain only when accepted. */
	{ "flag", NULL, 0, true,
	  FCLOG_PROBE_SUPPORTED, "", 0, false,
	  NULL, FCLOG_OP_NONE },
	{ "nosuch", NULL, 0, true,
	  FCLOG_PROBE_CANNOT_TELL, "", EINVAL, false,
	  "e fake: Unknown parameter 'nosuch'", FCLOG_OP_NONE },
	{ "size", "abc", 0, true,
	  FCLOG_PROBE_CANNOT_TELL, "", EINVAL, false,
	  NULL, FCLOG_OP_NONE },
	/* Asked as such a kernel is, of a kernel with structured logs. */
	{ "nosuch", NULL, FCLOG_PROBE_LEGACY, false,
	  FCLOG_PROBE_CANNOT_TELL, "", EINVAL, false,
	  NULL, FCLOG_OP_NONE },
	{ "flag", NULL, FCLOG_PROBE_LEGACY, false,
	  FCLOG_PROBE_SUPPORTED, "", 0, false,
	  NULL, FCLOG_OP_NONE },
};

static void one(const struct expect *e)
{
	char name[160], why[512];
	struct fclog_probe p;
	int ret;

	legacy_kernel = e->legacy_kernel;
	memset(&ctx, 0, sizeof(ctx));
	ret = fclog_probe_option("fake", e->key, e->value, e->flags, &p);
	snprintf(name, sizeof(name), "%s%s%s%s%s: %s", e->key,
		 e->value ? "=" : "", e->value ?: "",
		 e->legacy_kernel ? " (legacy kernel)" : "",
		 e->flags ? " (FCLOG_PROBE_LEGACY)" : "",
		 fclog_probe_answer_name(e->answer));
	snprintf(why, sizeof(why), "ret %d, answer %s, cause \"%s\", errnum %d, "
		 "deprecated %d, structured %d, expected %d, msg \"%s\"; "
		 "opened %d, configured %d, created %d, closed %d, unread %d",
		 ret, fclog_probe_answer_name(p.answer) ?: "?", p.cause_name,
		 p.errnum, p.deprecated, p.structured, p.expected, p.msg,
		 ctx.opened, ctx.configured, ctx.created, ctx.closed, ctx.unread);
	check(!ret && p.answer == e->answer && !strcmp(p.cause_name, e->cause) &&
	      p.errnum == e->errnum && p.deprecated == e->deprecated &&
	      p.expected == e->expected &&
	      p.structured == !(e->legacy_kernel || e->flags) &&
	      (!e->msg || !strcmp(p.msg, e->msg)) &&
	      /* One context, one parameter, never created, read empty. */
	      ctx.opened == 1 && ctx.configured == 1 && !ctx.created &&
	      ctx.closed == 1 && !ctx.unread &&
	      !!(ctx.open_flags & FSOPEN_STRUCTURED_LOG) ==
	      !(e->legacy_kernel || e->flags), name, why);
}

/* Run the tool on the model: its exit status and what it printed. */
static int tool(bool legacy, char *out, size_t size, ...)
{
	char *argv[16] = { "fclog-probe" };
	int argc = 1, fds[2], status;
	ssize_t len = 0, r;
	va_list ap;
	pid_t pid;

	va_start(ap, size);
	while (argc < 15 && (argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	argv[argc] = NULL;
	if (pipe(fds))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		legacy_kernel = legacy;
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		exit(fclog_probe_main(argc, argv));
	}
	close(fds[1]);
	while (len < (ssize_t)size - 1 &&
	       (r = read(fds[0], out + len, size - 1 - len)) > 0)
		len += r;
	out[len] = '\0';
	close(fds[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int main(void)
{
	struct fclog_probe p;
	char out[4096];
	json_t *obj;
	size_t i;
	int rc;

	printf("TAP version 13\n");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		one(&cases[i]);

	memset(&ctx, 0, sizeof(ctx));
	check(fclog_probe_option("nosuchfs", "x", NULL, 0, &p) == -1 &&
	      errno == ENODEV && ctx.opened == 0,
	      "no such filesystem type: -1, ENODEV", strerror(errno));
	check(fclog_probe_option("fake", "x", NULL, 0x80, &p) == -1 &&
	      errno == EINVAL && ctx.opened == 0,
	      "an unknown flag: -1, EINVAL, nothing opened", strerror(errno));
	check(!strcmp(fclog_probe_answer_name(FCLOG_PROBE_CANNOT_TELL), "cannot_tell") &&
	      !fclog_probe_answer_name(FCLOG_PROBE_CANNOT_TELL + 1),
	      "answer names", "");

	/* The tool: exit status by the worst answer, certain ones first. */
	rc = tool(false, out, sizeof(out), "-t", "fake", "flag", "old", NULL);
	check(rc == 0 && strstr(out, "flag: supported\n") &&
	      strstr(out, "old: supported (deprecated)\n"),
	      "fclog-probe: all supported, exit 0", out);
	rc = tool(false, out, sizeof(out), "-t", "fake", "flag", "quiet", NULL);
	check(rc == 4 && strstr(out, "quiet: cannot tell (EINVAL, the kernel gave no cause)"),
	      "fclog-probe: one the kernel cannot tell, exit 4", out);
	rc = tool(false, out, sizeof(out), "-t", "fake", "quiet", "nosuch",
		  "size=abc", NULL);
	check(rc == 3 && strstr(out, "nosuch: unknown to fake: e fake: Unknown parameter 'nosuch'\n") &&
	      strstr(out, "size=abc: known to fake, refused (bad_value, EINVAL)"),
	      "fclog-probe: unknown and refused, exit 3 even with one it cannot tell", out);
	rc = tool(true, out, sizeof(out), "-t", "fake", "flag", "nosuch", NULL);
	check(rc == 4 && strstr(out, "nosuch: cannot tell (EINVAL, this kernel's log gives no cause)"),
	      "fclog-probe on a legacy kernel: cannot tell, exit 4", out);
	rc = tool(false, out, sizeof(out), "-t", "fake", "--json", "mode", NULL);
	obj = json_loads(out, 0, NULL);
	check(rc == 3 && obj &&
	      !strcmp(json_string_value(json_object_get(obj, "answer")) ?: "", "refused") &&
	      !strcmp(json_string_value(json_object_get(obj, "cause")) ?: "", "wrong_type") &&
	      !strcmp(json_string_value(json_object_get(obj, "expected")) ?: "", "set_string") &&
	      json_is_null(json_object_get(obj, "value")) &&
	      json_integer_value(json_object_get(obj, "errno")) == EINVAL,
	      "fclog-probe --json: answer, cause, expected, errno", out);
	json_decref(obj);
	rc = tool(false, out, sizeof(out), "-t", "nosuchfs", "x", NULL);
	check(rc == 2 && strstr(out, "fsopen nosuchfs"),
	      "fclog-probe: no such type, exit 2", out);
	rc = tool(false, out, sizeof(out), "-t", "fake", NULL);
	check(rc == 1 && strstr(out, "usage: fclog-probe"),
	      "fclog-probe: no option, usage, exit 1", out);
	rc = tool(false, out, sizeof(out), "-t", "fake", "=x", NULL);
	check(rc == 1, "fclog-probe: an option without a key, exit 1", out);

	printf("1..%d\n# %d passed, %d failed\n", n, n - failures, failures);
	return failures ? 1 : 0;
}
