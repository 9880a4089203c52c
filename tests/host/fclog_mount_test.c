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
 * it), and the records printed on standard output; and, where a scenario
 * says, what it asked of the kernel: every fsopen() and fsconfig() call,
 * in order, with its command, key, value and aux (--file's forms, in
 * command-line order with -o's options; nothing at all for a command line
 * that does not parse).  TAP, with a closing summary line.
 */
#define main fclog_mount_main
#include "../../userspace/tools/fclog-mount.c"
#undef main

#include <dlfcn.h>
#include <stdarg.h>
#include <sys/mman.h>
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
	bool usage;		/* ...then the usage */
	const char *out;	/* a part of standard output, or NULL */
	/* The calls made, one a line, as call() writes them; NULL: unchecked. */
	const char *calls;
};

#define FAKE_FD		900
#define FAKE_MNT_FD	899

static const struct scenario *sc;
/* The calls the tool made, shared with the parent across fork(). */
static char *calls;
#define CALLS_SIZE	4096
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
	};

	return cmd < sizeof(names) / sizeof(names[0]) && names[cmd] ?
	       names[cmd] : "?";
}

/* Note an fsconfig() call: "set_path lowerdir+ \"lower\" 7". */
static void call(unsigned int cmd, const char *key, const char *value, int aux)
{
	size_t len = strlen(calls);
	char quoted[256];

	snprintf(quoted, sizeof(quoted), "\"%s\"", value);
	snprintf(calls + len, CALLS_SIZE - len, "%s %s %s %d\n", cmd_name(cmd),
		 key ?: "NULL", value ? quoted : "NULL", aux);
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
		snprintf(calls + strlen(calls), CALLS_SIZE - strlen(calls),
			 "fsopen %s\n", (const char *)a[0]);
		if (sc->legacy && (a[1] & FSOPEN_STRUCTURED_LOG))
			return fail_with(EINVAL);
		return FAKE_FD;
	case __NR_fsconfig:
		call(a[1], (const char *)a[2], (const char *)a[3], a[4]);
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
	/* Too small a buffer leaves the record, as the kernel does. */
	i = ctx.head % 4;
	if (ctx.len[i] > n)
		return fail_with(EMSGSIZE);
	ctx.head++;
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
		.args = "-t fake -o size=1m,mode=0700 none /mnt",
		.exit = 0,
		.err = "",
		.calls = "fsopen fake\n"
			 "set_string size \"1m\" 0\n"
			 "set_string mode \"0700\" 0\n"
			 "create NULL NULL 0\n",
	}, {
		.name = "every --file form, in command-line order with -o's options",
		.args = "-t fake --file lowerdir+=@7:lower -o index=off,xino=auto "
			"--file upperdir=@8: --file workdir=@9 --file datadir+=./@odd "
			"-o ro --file lowerdir+=/srv/l2 overlay /mnt",
		.exit = 0,
		.err = "",
		.calls = "fsopen fake\n"
			 "set_string source \"overlay\" 0\n"
			 "set_path lowerdir+ \"lower\" 7\n"
			 "set_string index \"off\" 0\n"
			 "set_string xino \"auto\" 0\n"
			 "set_path_empty upperdir \"\" 8\n"
			 "set_fd workdir NULL 9\n"
			 "set_path datadir+ \"./@odd\" -100\n"
			 "set_flag ro NULL 0\n"
			 "set_path lowerdir+ \"/srv/l2\" -100\n"
			 "create NULL NULL 0\n",
	}, {
		.name = "an O_PATH fd refused (o_path): the fd named, no create",
		.args = "-t fake --file upperdir=@4: --file workdir=@5 none /mnt",
		.refuse = { { "workdir", EBADF, RECORD("e fake: Parameter 'workdir' refused: O_PATH fd, use FSCONFIG_SET_PATH_EMPTY",
			"{\"seq\":0,\"level\":\"error\",\"source\":\"fake\","
			"\"msg\":\"Parameter 'workdir' refused: O_PATH fd, use FSCONFIG_SET_PATH_EMPTY\","
			"\"event\":\"param_rejected\",\"cause\":\"o_path\","
			"\"param\":\"workdir\",\"errno\":9,\"op\":\"set_fd\"}") } },
		.exit = 3,
		.err = "fclog-mount: file workdir: fd 5 is an O_PATH fd (Bad file descriptor): give it as workdir=@5:\n",
		.out = "error   fake: Parameter 'workdir' refused: O_PATH fd, use FSCONFIG_SET_PATH_EMPTY\n",
		.calls = "fsopen fake\n"
			 "set_path_empty upperdir \"\" 4\n"
			 "set_fd workdir NULL 5\n",
	}, {
		.name = "an fd refused without a record (a stock kernel): its errno",
		.args = "-t fake --file workdir=@5 none /mnt",
		.refuse = { { "workdir", EBADF, NULL } },
		.legacy = true,
		.exit = 3,
		.err = "fclog-mount: file workdir: Bad file descriptor\n",
		.calls = "fsopen fake\n"
			 "fsopen fake\n"
			 "set_fd workdir NULL 5\n",
	}, {
		.name = "a file that is no directory (not_directory): its errno",
		.args = "-t fake --file upperdir=@4:f none /mnt",
		.refuse = { { "upperdir", ENOTDIR, RECORD("e fake: upperdir: Non-directory passed as 'f'",
			"{\"seq\":0,\"level\":\"error\",\"source\":\"fake\","
			"\"msg\":\"upperdir: Non-directory passed as 'f'\","
			"\"event\":\"param_rejected\",\"cause\":\"not_directory\","
			"\"param\":\"upperdir\",\"value\":\"f\",\"errno\":20,"
			"\"op\":\"set_path\"}") } },
		.exit = 3,
		.err = "fclog-mount: file upperdir: Not a directory\n",
		.out = "Non-directory passed as 'f'",
	},
#define MALFORMED(arg) {						\
		.name = "--file " arg ": usage, nothing sent to the kernel", \
		.args = "-t fake -o a=1 --file " arg " none /mnt",	\
		.exit = 1,						\
		.err = "fclog-mount: --file " arg ": not KEY=PATH, "	\
		       "KEY=@N:PATH, KEY=@N: or KEY=@N\n",		\
		.usage = true,						\
		.calls = "",						\
	}
	MALFORMED("upperdir=@"),
	MALFORMED("upperdir=@x"),
	MALFORMED("upperdir=@-1"),
	MALFORMED("upperdir=@12abc"),
	MALFORMED("upperdir"),
	MALFORMED("=/srv/upper"),
	MALFORMED("upperdir="),
#undef MALFORMED
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
	char args[256], *argv[24], *tok, *save, out[4096], err[2048];
	const struct scenario *s;
	int n = 0, failures = 0, argc, status, ok;
	FILE *fo, *fe;
	pid_t pid;
	size_t i;

	calls = mmap(NULL, CALLS_SIZE, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (calls == MAP_FAILED)
		return 1;
	printf("TAP version 13\n");
	for (i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
		s = &scenarios[i];
		snprintf(args, sizeof(args), "fclog-mount %s", s->args);
		argc = 0;
		save = NULL;
		calls[0] = '\0';
		for (tok = strtok_r(args, " ", &save); tok && argc < 23;
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
		ok = status == s->exit &&
		     (s->usage ? !strncmp(err, s->err, strlen(s->err)) &&
				 !strncmp(err + strlen(s->err), "usage: fclog-mount ",
					  19) :
				 !strcmp(err, s->err)) &&
		     (!s->out || strstr(out, s->out)) &&
		     (!s->calls || !strcmp(calls, s->calls));
		n++;
		if (!ok) {
			failures++;
			printf("# exit %d (want %d)\n# stderr: %s# want:   %s"
			       "# stdout: %s\n# calls:\n%s# want:\n%s", status,
			       s->exit, err, s->err, out, calls,
			       s->calls ?: "(unchecked)\n");
		}
		printf("%sok %d %s\n", ok ? "" : "not ", n, s->name);
	}
	printf("1..%d\n# %d passed, %d failed\n", n, n - failures, failures);
	return failures ? 1 : 0;
}
