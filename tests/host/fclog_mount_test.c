// SPDX-License-Identifier: GPL-2.0
/*
 * fclog-mount on the host, against a fake kernel: the tool's own source is
 * compiled in, and syscall() and read() are replaced here, so that
 * fsopen/fsconfig/fsmount/move_mount reach a model of a context that
 * refuses what a scenario says, with the errno a kernel returns and the
 * records it logs (or none).
 *
 * What is checked is what the tool tells its user: the exit status, the
 * error message on standard error, which must name the errno of the call
 * that failed (not the ENODATA of the read that emptied the log after
 * it), and the records printed on standard output.  TAP, with a closing
 * summary line.
 */
#define main fclog_mount_main
#include "../../userspace/tools/fclog-mount.c"
#undef main

#include <dlfcn.h>
#include <stdarg.h>
#include <sys/wait.h>

/* What the fake kernel does with a key, or with a create ("create"). */
struct refusal {
	const char *key;
	int err;
	const char *record;	/* Line, NUL, JSON; NULL: no record at all */
};

struct scenario {
	const char *name;
	const char *args;	/* fclog-mount's arguments */
	struct refusal refuse[3];
	bool legacy;		/* no FSOPEN_STRUCTURED_LOG */
	/* expected: */
	int exit;
	const char *err;	/* standard error, exactly */
	const char *out;	/* a part of standard output, or NULL */
};

#define FAKE_FD		900
#define FAKE_MNT_FD	899

static const struct scenario *sc;
static struct {
	char queue[4][1024];
	size_t len[4];
	int head, tail;
	bool created;
} ctx;

static int fail_with(int err)
{
	errno = err;
	return -1;
}

/* The record of @r: a legacy log reads its line alone. */
static void push(const struct refusal *r)
{
	size_t l;
	int i;

	if (!r->record)
		return;
	i = ctx.tail++ % 4;
	l = strlen(r->record);
	memcpy(ctx.queue[i], r->record, l);
	ctx.len[i] = l;
	if (!sc->legacy) {
		/* The JSON object follows the NUL that ends the line. */
		memcpy(ctx.queue[i] + l + 1, r->record + l + 1,
		       strlen(r->record + l + 1));
		ctx.len[i] += 1 + strlen(r->record + l + 1);
	}
}

static const struct refusal *refusal_of(const char *key)
{
	const struct refusal *r;

	for (r = sc->refuse; r->key; r++)
		if (!strcmp(r->key, key))
			return r;
	return NULL;
}

static int fake_fsconfig(int fd, unsigned int cmd, const char *key)
{
	const struct refusal *r;

	if (fd != FAKE_FD)
		return fail_with(EBADF);
	if (cmd == FSCONFIG_CMD_CREATE || cmd == FSCONFIG_CMD_CREATE_EXCL)
		key = "create";
	r = refusal_of(key);
	if (r) {
		push(r);
		return fail_with(r->err);
	}
	if (!strcmp(key, "create"))
		ctx.created = true;
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
		if (sc->legacy && (a[1] & FSOPEN_STRUCTURED_LOG))
			return fail_with(EINVAL);
		return FAKE_FD;
	case __NR_fsconfig:
		return fake_fsconfig(a[0], a[1], (const char *)a[2]);
	case __NR_fsmount:
		return a[0] == FAKE_FD && ctx.created ? FAKE_MNT_FD :
		       fail_with(EINVAL);
	case __NR_move_mount:
		return a[0] == FAKE_MNT_FD ? 0 : fail_with(EBADF);
	}
	return real(nr, a[0], a[1], a[2], a[3], a[4]);
}

/* A context fd reads its records, then ENODATA, as the kernel's does. */
ssize_t read(int fd, void *buf, size_t n)
{
	ssize_t (*real)(int, void *, size_t) = dlsym(RTLD_NEXT, "read");
	int i;

	if (fd != FAKE_FD)
		return real(fd, buf, n);
	if (ctx.head == ctx.tail)
		return fail_with(ENODATA);
	i = ctx.head++ % 4;
	if (ctx.len[i] > n)
		return fail_with(EMSGSIZE);
	memcpy(buf, ctx.queue[i], ctx.len[i]);
	return ctx.len[i];
}

/* Line, NUL, object, as a structured record is read. */
#define RECORD(line, json)	line "\n\0" json

static const struct scenario scenarios[] = {
	{
		.name = "a refused option: its errno, not the read's ENODATA",
		.args = "-t fake -o mode=0700,size=abc none /mnt",
		.refuse = { { "size", EINVAL, RECORD("e fake: Bad value for 'size'",
			"{\"seq\":0,\"level\":\"error\",\"source\":\"fake\","
			"\"msg\":\"Bad value for 'size'\",\"event\":\"param_rejected\","
			"\"cause\":\"bad_value\",\"param\":\"size\",\"value\":\"abc\","
			"\"errno\":22,\"op\":\"set_string\"}") } },
		.exit = 3,
		.err = "fclog-mount: option size: Invalid argument\n",
		.out = "error   fake: Bad value for 'size'\n",
	}, {
		.name = "a refused option, legacy log: its errno",
		.args = "-t fake -o size=abc none /mnt",
		.refuse = { { "size", EINVAL, RECORD("e fake: Bad value for 'size'", "") } },
		.legacy = true,
		.exit = 3,
		.err = "fclog-mount: option size: Invalid argument\n",
		.out = "error   fake: Bad value for 'size'\n",
	}, {
		.name = "an option refused without a record: its errno",
		.args = "-t fake -o quiet none /mnt",
		.refuse = { { "quiet", EPERM, NULL } },
		.exit = 3,
		.err = "fclog-mount: option quiet: Operation not permitted\n",
	}, {
		.name = "a refused source: its errno",
		.args = "-t fake /dev/nope /mnt",
		.refuse = { { "source", ENOENT, RECORD("e fake: Can't lookup blockdev",
			"{\"seq\":0,\"level\":\"error\",\"source\":\"fake\","
			"\"msg\":\"Can't lookup blockdev\",\"event\":\"param_rejected\","
			"\"cause\":\"not_found\",\"param\":\"source\","
			"\"value\":\"/dev/nope\",\"errno\":2,\"op\":\"set_string\"}") } },
		.exit = 3,
		.err = "fclog-mount: source: No such file or directory\n",
		.out = "Can't lookup blockdev",
	}, {
		.name = "a refused create: its errno",
		.args = "-t fake --exclusive none /mnt",
		.refuse = { { "create", EBUSY, RECORD("w fake: reusing existing filesystem not allowed",
			"{\"seq\":0,\"level\":\"warning\",\"source\":\"fake\","
			"\"msg\":\"reusing existing filesystem not allowed\","
			"\"event\":\"sb_conflict\",\"cause\":\"exclusive\","
			"\"errno\":16,\"op\":\"create_excl\"}") } },
		.exit = 4,
		.err = "fclog-mount: create: Device or resource busy\n",
		.out = "reusing existing filesystem not allowed",
	}, {
		.name = "mounted: nothing on standard error",
		.args = "-t fake -o size=1m none /mnt",
		.exit = 0,
		.err = "",
	},
};

/* The whole of what @fd holds, into @buf. */
static void slurp(int fd, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t r;

	while (len < size - 1 && (r = read(fd, buf + len, size - 1 - len)) > 0)
		len += r;
	buf[len] = '\0';
}

int main(void)
{
	char args[256], *argv[16], *tok, *save, out[4096], err[1024];
	const struct scenario *s;
	int n = 0, failures = 0, argc, status, ok;
	FILE *fo, *fe;
	pid_t pid;
	size_t i;

	printf("TAP version 13\n");
	for (i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
		s = &scenarios[i];
		snprintf(args, sizeof(args), "fclog-mount %s", s->args);
		argc = 0;
		save = NULL;
		for (tok = strtok_r(args, " ", &save); tok && argc < 15;
		     tok = strtok_r(NULL, " ", &save))
			argv[argc++] = tok;
		argv[argc] = NULL;
		fo = tmpfile();
		fe = tmpfile();
		if (!fo || !fe)
			return 1;
		fflush(stdout);
		pid = fork();
		if (pid < 0)
			return 1;
		if (!pid) {
			dup2(fileno(fo), 1);
			dup2(fileno(fe), 2);
			sc = s;
			memset(&ctx, 0, sizeof(ctx));
			status = fclog_mount_main(argc, argv);
			fflush(NULL);
			_exit(status);
		}
		waitpid(pid, &status, 0);
		status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
		rewind(fo);
		rewind(fe);
		slurp(fileno(fo), out, sizeof(out));
		slurp(fileno(fe), err, sizeof(err));
		fclose(fo);
		fclose(fe);
		ok = status == s->exit && !strcmp(err, s->err) &&
		     (!s->out || strstr(out, s->out));
		n++;
		if (!ok) {
			failures++;
			printf("# exit %d (want %d)\n# stderr: %s# want:   %s"
			       "# stdout: %s\n", status, s->exit, err, s->err, out);
		}
		printf("%sok %d %s\n", ok ? "" : "not ", n, s->name);
	}
	printf("1..%d\n# %d passed, %d failed\n", n, n - failures, failures);
	return failures ? 1 : 0;
}
