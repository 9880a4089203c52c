// SPDX-License-Identifier: GPL-2.0
/*
 * A seeded syscall fuzzer for the mount API's message log.
 *
 * Several threads share one table of context fds and call, in random order
 * and with random arguments, what syzkaller would: fsopen() and fspick()
 * with every flag combination (invalid bits included), fsconfig() with
 * every command (0-9 and beyond) and keys and values from a dictionary of
 * real parameters, hostile bytes, long multibyte strings cut at random
 * offsets, paths and fds of every kind; read() with buffer sizes from 0 up,
 * and of the size FIONREAD gives; poll(), epoll, FIONREAD, dup(), close()
 * and fsmount().
 *
 * Every record read is checked: a legacy one is "<e|w|i> <text>\n" with no
 * NUL; a structured one is such a line, a NUL, then exactly one JSON object
 * that jansson accepts in strict mode, with only documented fields, each of
 * its documented type, and a report only as the schema has it: the report
 * fields only with an "event" of the documented set, a "cause" of the
 * documented set, "expected" only with the cause wrong_type, "errno" on
 * every rejection, "recoverable" only (and always) on create_failed and
 * reconfigure_failed, a "verdict" of the documented set with its "params"
 * (each a documented match, consistent with the verdict) only on sb_shared
 * (always) and on the sb_conflict of CREATE_COMPATIBLE (always; never on
 * CREATE_EXCL's, which compares nothing, nor on another user namespace's
 * or a ro/rw conflict), "params_applied" only (and always) on sb_shared,
 * "structured_only" always on sb_shared, reconfigure_failed and
 * create_failed, and the causes incompatible and unverifiable only with
 * op create_compatible and EBUSY;
 * o_path (an O_PATH fd) only on a param_rejected of op set_fd with
 * EBADF and no value.
 * A read that
 * fails must fail with ENODATA, EMSGSIZE or (a fd that is not a context)
 * EINVAL or EBADF; one a byte short of FIONREAD's size fails with
 * EMSGSIZE, one of that size returns the record whole.
 *
 * It runs twice, each time in a child with its own mount and ipc
 * namespaces (the guest's ipc namespace on a kernel without them): as root, on filesystems whose superblocks the run owns (so
 * that reconfigures never touch the guest's own mounts), then as an
 * unprivileged user in a user namespace of its own, which is what an
 * attacker has.  Kernel splats (the debug kernel's KASAN, lockdep, UBSAN,
 * kmemleak, and every WARN) fail the run from the console (tests/report).
 *
 * FCTEST_FUZZ_SECONDS sets the total run time (default: 60 on the debug
 * kernel, 16 elsewhere), FCTEST_FUZZ_SEED the seed (default: the clock).
 * The seed is printed first: "make fuzz FUZZ_SEED=<seed>" gives each
 * thread the same sequence of choices again.  FCTEST_FUZZ_PHASES ("root",
 * "userns"; default both, each half the time) picks the runs, and
 * FCTEST_FUZZ_RUNS repeats them, the seed one higher each time: many short
 * runs start the threads many times, where a harness race would show.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <linux/netlink.h>
#include <jansson.h>

#include "fctest.h"
#include "mount_api.h"

#define NR_THREADS	4
#define NR_SLOTS	24
#define MAX_REPORTED	5	/* Invalid records printed in full */

/* ------------------------------------------------------------ randomness */

/* xorshift64*: small, seedable, good enough to pick arguments. */
struct rng {
	uint64_t s;
};

static uint64_t rnd(struct rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dULL;
}

/* Uniform in [0, n). */
static unsigned int below(struct rng *r, unsigned int n)
{
	return n ? rnd(r) % n : 0;
}

/* True with probability @percent / 100. */
static bool chance(struct rng *r, unsigned int percent)
{
	return below(r, 100) < percent;
}

#define PICK(r, array) ((array)[below((r), sizeof(array) / sizeof((array)[0]))])

/* ----------------------------------------------------------- dictionary */

/* Filesystems and the keys each takes, from their fs_parameter_specs. */
static const char *const tmpfs_keys[] = {
	"size", "nr_blocks", "nr_inodes", "mode", "uid", "gid", "huge",
	"mpol", "inode32", "inode64", "noswap", "quota", "usrquota",
	"grpquota", "usrquota_block_hardlimit", "casefold", "strict_encoding",
};
static const char *const ext4_keys[] = {
	"journal_path", "journal_dev", "errors", "commit", "data", "barrier",
	"nobarrier", "resuid", "resgid", "sb", "stripe", "noload", "dax",
	"inode_readahead_blks", "max_dir_size_kb", "usrjquota", "jqfmt",
};
static const char *const proc_keys[] = { "hidepid", "subset", "gid" };
static const char *const debugfs_keys[] = { "mode", "uid", "gid" };
/* Filesystems without parameters of their own: only the VFS keys apply. */
static const char *const no_keys[] = { "unknown" };
/* Keys every filesystem meets: the VFS and the LSMs take them first. */
static const char *const vfs_keys[] = {
	"source", "ro", "rw", "sync", "async", "dirsync", "lazytime",
	"nolazytime", "mand", "silent", "context", "fscontext", "defcontext",
	"rootcontext", "seclabel", "subtype",
};

static const struct fs_type {
	const char *name;
	const char *const *keys;
	unsigned int nr_keys;
	bool userns_only;	/* One superblock for the guest: never as root */
} fs_types[] = {
#define FS(name, keys, userns_only) \
	{ name, keys, sizeof(keys) / sizeof(keys[0]), userns_only }
	FS("tmpfs", tmpfs_keys, false),
	FS("ext4", ext4_keys, false),
	FS("proc", proc_keys, false),
	FS("mqueue", no_keys, false),
	FS("ramfs", no_keys, false),
	FS("debugfs", debugfs_keys, true),
	FS("tracefs", debugfs_keys, true),
	FS("nosuchfs", no_keys, false),
#undef FS
};

static const char *const values[] = {
	"0", "1", "-1", "0700", "700", "07777", "18446744073709551616", "1k",
	"1M", "1G", "10%", "0x10", "always", "never", "within_size", "advise",
	"deny", "default", "local", "bind=0", "continue", "remount-ro",
	"panic", "journal", "ordered", "writeback", "invisible", "ptraceable",
	"pid", "65534", "4294967295", "none", "", " ", "a,b", "size=1",
};

static const char *const paths[] = {
	"/", "/tmp", "/dev/null", "/dev/loop0", "/proc", "/nonexistent",
	"/nonexistent/x", "", ".", "..", "/dev/console", "/bin/busybox",
	"/proc/self/fd/0",
};

/* Multibyte characters of every length, and bytes that are not UTF-8. */
static const char *const chars[] = {
	"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\x80", "\xbf",
	"\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xff", "\x01", "\"",
	"\\", "\n", "\x1b[31m", "%s", "%n", "a",
};

/*
 * Fill @buf with a string of @want bytes or so: a run of one multibyte
 * character, cut after a random number of bytes, or a mix of everything.
 */
static void hostile_string(struct rng *r, char *buf, size_t want)
{
	size_t len = 0, n;
	const char *c = PICK(r, chars);
	bool mix = chance(r, 30);
	unsigned int lead = below(r, 4);

	while (lead-- && len < want)
		buf[len++] = 'p';
	while (len < want) {
		if (mix)
			c = PICK(r, chars);
		n = strlen(c);
		if (len + n > want)
			n = want - len;		/* Cut inside the sequence */
		memcpy(buf + len, c, n);
		len += n;
	}
	buf[len] = '\0';
}

/* A length that hits the kernel's bounds and the log's cuts. */
static size_t hostile_length(struct rng *r)
{
	static const size_t lengths[] = {
		1, 2, 3, 4, 5, 255, 256, 257, 1000, 1019, 1020, 1021, 1022,
		1023, 1024, 1025, 1400, 4095, 4096, 4097,
	};

	return chance(r, 50) ? PICK(r, lengths) + below(r, 4) : 1 + below(r, 1500);
}

/* ------------------------------------------------------------ fd table */

/*
 * fd ownership.  A slot holds a context fd.  Operations on it take the
 * lock shared, so that threads race on one fd; close and replace take it
 * exclusively.  Every other fd of the run (each thread's fds of every
 * kind, its epoll fd) is opened by the main thread before the first fuzz
 * thread starts, checked to be open and its own file, and closed only
 * after the last has stopped; during the run a thread makes only contexts
 * (into a slot, under its write lock) and mount fds (closed at once by
 * the thread that got them).  So no thread ever closes or takes a number
 * that another thread holds, and a slot's fd is the context put there for
 * as long as the slot is locked.  (It once was not: a thread starting up
 * closed the second fd of a socketpair() that had failed, a number the
 * kernel writes before it fails and frees again, which by then was
 * another thread's context; its next open() of "/" took the number, and
 * that slot's reads failed with EISDIR.)
 */
struct slot {
	pthread_rwlock_t lock;
	int fd;			/* -1 if empty */
	bool structured;
	const struct fs_type *type;	/* NULL from fspick() */
	unsigned int context;	/* Its context's lock: shared by dup()s */
};

static struct slot slots[NR_SLOTS];

/*
 * Context locks.  Slots that hold dup()s of one fd reach one context:
 * every operation on a context takes its lock shared, so that threads
 * still race on it through every fd; the one check that needs the log to
 * itself, that FIONREAD's size is the next read's (do_read_sized()),
 * takes it exclusively.  Locks are striped by the order contexts were
 * opened in: two contexts on one lock only wait for each other.  Writers
 * are preferred, so that the check is not starved by a stream of readers;
 * no thread holds more than one context lock, or takes one it holds.
 */
#define NR_CONTEXT_LOCKS	64

static pthread_rwlock_t context_locks[NR_CONTEXT_LOCKS];
static atomic_uint nr_contexts_opened;

static pthread_rwlock_t *context_lock(const struct slot *slot)
{
	return &context_locks[slot->context % NR_CONTEXT_LOCKS];
}

static struct {
	bool root;			/* This run is root, not in a userns */
	uint64_t seed;
	double deadline;
	char mounts[4][64];		/* fspick() targets this run owns */
	unsigned int nr_mounts;
} run;

static atomic_ulong nr_ops, nr_records, nr_invalid;
static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;

/* Print what went wrong, the first few times, and count it. */
static void invalid(const char *buf, ssize_t len, const char *fmt, ...)
{
	unsigned long n = atomic_fetch_add(&nr_invalid, 1);
	va_list ap;
	ssize_t i;

	if (n >= MAX_REPORTED)
		return;
	pthread_mutex_lock(&report_lock);
	printf("# INVALID (seed %llu): ", (unsigned long long)run.seed);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (buf) {
		printf("#   %zd bytes:", len);
		for (i = 0; i < len; i++) {
			unsigned char c = buf[i];

			if (c >= 0x20 && c < 0x7f && c != '\\')
				putchar(c);
			else
				printf("\\x%02x", c);
		}
		printf("\n");
	}
	fflush(stdout);
	pthread_mutex_unlock(&report_lock);
}

/* --------------------------------------------------------- the checker */

/* "<e|w|i> <text>\n": the legacy line, and the structured record's line. */
static bool line_ok(const char *buf, size_t len)
{
	return len >= 3 && strchr("ewi", buf[0]) && buf[1] == ' ' &&
	       buf[len - 1] == '\n' && !memchr(buf, '\0', len);
}

/*
 * Every field a structured record may carry, its JSON type, and whether it
 * belongs to a report (present only with an "event").
 */
static const struct {
	const char *name;
	json_type type;
	bool required;
	bool report;
} fields[] = {
	{ "seq", JSON_INTEGER, true }, { "level", JSON_STRING, true },
	{ "source", JSON_STRING, true }, { "msg", JSON_STRING, true },
	{ "source_truncated", JSON_TRUE }, { "msg_truncated", JSON_TRUE },
	{ "lost", JSON_INTEGER }, { "truncated", JSON_TRUE },
	{ "event", JSON_STRING, false, true },
	{ "cause", JSON_STRING, false, true },
	{ "expected", JSON_STRING, false, true },
	{ "param", JSON_STRING, false, true },
	{ "param_truncated", JSON_TRUE, false, true },
	{ "value", JSON_STRING, false, true },
	{ "value_truncated", JSON_TRUE, false, true },
	{ "errno", JSON_INTEGER, false, true },
	{ "op", JSON_STRING, false, true },
	{ "recoverable", JSON_TRUE, false, true },
	{ "superblock", JSON_OBJECT, false, true },
	{ "verdict", JSON_STRING, false, true },
	{ "params", JSON_OBJECT, false, true },
	{ "params_truncated", JSON_TRUE, false, true },
	{ "params_unlisted", JSON_TRUE, false, true },
	{ "params_applied", JSON_TRUE, false, true },
	{ "structured_only", JSON_TRUE, false, true },
};

static const char *const levels[] = { "error", "warning", "info" };
static const char *const ops[] = {
	"set_flag", "set_string", "set_binary", "set_path", "set_path_empty",
	"set_fd", "create", "create_excl", "reconfigure", "create_compatible",
};
/* The commands that give a parameter: what "expected" may name. */
static const char *const set_ops[] = {
	"set_flag", "set_string", "set_binary", "set_path", "set_fd",
};
static const char *const events[] = {
	"param_rejected", "param_deprecated", "sb_shared", "sb_conflict",
	"create_failed", "reconfigure_failed",
};
/* The events that are rejections: each comes with an errno. */
static const char *const rejections[] = {
	"param_rejected", "sb_conflict", "create_failed", "reconfigure_failed",
};
/* The outcomes: the only events that say whether the context survived. */
static const char *const outcomes[] = { "create_failed", "reconfigure_failed" };
static const char *const causes[] = {
	"unknown_param", "wrong_type", "bad_value", "unmapped_id",
	"unsupported", "permission", "not_found", "not_blockdev", "duplicate",
	"missing", "exclusive", "other_userns", "ro_conflict", "incompatible",
	"unverifiable", "not_directory", "o_path",
};
static const char *const verdicts[] = { "compatible", "incompatible", "unknown" };
static const char *const matches[] = { "matches", "differs", "unknown" };

#define ONE_OF(s, set) one_of(s, set, sizeof(set) / sizeof((set)[0]))

static bool one_of(const char *s, const char *const *set, size_t n)
{
	while (n--)
		if (!strcmp(s, set[n]))
			return true;
	return false;
}

/* The string field @name of @obj, or "" (its type is checked elsewhere). */
static const char *str_of(json_t *obj, const char *name)
{
	return json_string_value(json_object_get(obj, name)) ?: "";
}

/* The type check, with true standing for either boolean. */
static bool type_ok(json_t *v, json_type type)
{
	if (type == JSON_TRUE)
		return json_is_boolean(v);
	return json_typeof(v) == type;
}

/* A marker of @lost records is a warning of the VFS, and says so. */
static bool marker_ok(json_t *obj, json_int_t lost)
{
	char want[64];

	snprintf(want, sizeof(want), "%lld message%s lost", (long long)lost,
		 lost == 1 ? "" : "s");
	return lost > 0 && json_object_size(obj) == 5 &&
	       !strcmp(json_string_value(json_object_get(obj, "level")),
		       "warning") &&
	       !strcmp(json_string_value(json_object_get(obj, "source")),
		       "fs_context") &&
	       !strcmp(json_string_value(json_object_get(obj, "msg")), want);
}

/* Why the report of a structured record is wrong, or NULL. */
static const char *report_wrong(json_t *obj)
{
	const char *event = json_string_value(json_object_get(obj, "event"));
	json_t *cause = json_object_get(obj, "cause");
	json_t *expected = json_object_get(obj, "expected");

	if (!ONE_OF(event, events))
		return "an unknown event";
	if (cause && !ONE_OF(json_string_value(cause), causes))
		return "an unknown cause";
	if (expected && (!cause ||
			 strcmp(json_string_value(cause), "wrong_type")))
		return "\"expected\" without the cause wrong_type";
	if (expected && !ONE_OF(json_string_value(expected), set_ops))
		return "\"expected\" is no command that sets a parameter";
	if (ONE_OF(event, rejections) != !!json_object_get(obj, "errno"))
		return "a rejection without errno, or an errno without one";
	if (ONE_OF(event, outcomes) != !!json_object_get(obj, "recoverable"))
		return "\"recoverable\" where there is no outcome, or an outcome without it";
	if (strcmp(event, "sb_shared") && json_object_get(obj, "params_applied"))
		return "params_applied on an event that is not sb_shared";
	/* Records legacy logs never had say so. */
	if ((!strcmp(event, "sb_shared") ||
	     !strcmp(event, "reconfigure_failed") ||
	     !strcmp(event, "create_failed")) &&
	    !json_object_get(obj, "structured_only"))
		return "an sb_shared or outcome without \"structured_only\"";
	if (strcmp(event, "sb_shared") && strcmp(event, "sb_conflict") &&
	    json_object_get(obj, "verdict"))
		return "a verdict on an event that is not about a superblock";
	if (!json_object_get(obj, "verdict") &&
	    (json_object_get(obj, "params") ||
	     json_object_get(obj, "params_truncated") ||
	     json_object_get(obj, "params_unlisted")))
		return "parameters without a verdict";
	if (json_object_get(obj, "verdict") && !json_object_get(obj, "params"))
		return "a verdict without its parameters";
	/* A structured log has the VFS compare every superblock it shares. */
	if (!strcmp(event, "sb_shared") &&
	    (!json_object_get(obj, "verdict") ||
	     !json_object_get(obj, "params_applied") ||
	     !json_object_get(obj, "superblock")))
		return "an sb_shared without its superblock, verdict and parameters";
	if (cause && !strcmp(json_string_value(cause), "other_userns") &&
	    json_object_get(obj, "verdict"))
		return "a verdict on another user namespace's superblock";
	if (!strcmp(event, "sb_conflict") && cause &&
	    (!strcmp(json_string_value(cause), "incompatible") ||
	     !strcmp(json_string_value(cause), "unverifiable")) &&
	    !json_object_get(obj, "verdict"))
		return "an sb_conflict of CREATE_COMPATIBLE without a verdict";
	/* CREATE_EXCL refuses whatever it meets, without comparing it. */
	if (!strcmp(event, "sb_conflict") && cause &&
	    !strcmp(json_string_value(cause), "exclusive") &&
	    json_object_get(obj, "verdict"))
		return "a verdict on the sb_conflict of CREATE_EXCL";
	if (cause && !strcmp(event, "sb_conflict") &&
	    ((!strcmp(json_string_value(cause), "incompatible") &&
	      strcmp(str_of(obj, "verdict"), "incompatible")) ||
	     (!strcmp(json_string_value(cause), "unverifiable") &&
	      strcmp(str_of(obj, "verdict"), "unknown"))))
		return "a CREATE_COMPATIBLE refusal whose cause is not its verdict";
	if (cause && (!strcmp(json_string_value(cause), "incompatible") ||
		      !strcmp(json_string_value(cause), "unverifiable")) &&
	    strcmp(str_of(obj, "op"), "create_compatible"))
		return "a CREATE_COMPATIBLE cause on another command";
	if (cause && (!strcmp(json_string_value(cause), "incompatible") ||
		      !strcmp(json_string_value(cause), "unverifiable")) &&
	    json_integer_value(json_object_get(obj, "errno")) != EBUSY)
		return "a CREATE_COMPATIBLE cause with an errno other than EBUSY";
	if (!strcmp(event, "param_rejected") && !json_object_get(obj, "param"))
		return "a param_rejected that names no parameter";
	/* The VFS refuses an O_PATH fd before anyone sees the parameter. */
	if (cause && !strcmp(json_string_value(cause), "o_path") &&
	    (strcmp(event, "param_rejected") || strcmp(str_of(obj, "op"), "set_fd") ||
	     json_integer_value(json_object_get(obj, "errno")) != EBADF ||
	     json_object_get(obj, "value")))
		return "o_path other than on a param_rejected of set_fd with EBADF and no value";
	return NULL;
}

/* Why the object of a structured record is wrong, or NULL. */
static const char *object_wrong(json_t *obj, char level)
{
	const char *key, *s;
	bool report = false;
	json_t *v, *e;
	bool differs = false;
	size_t i;

	if (!json_is_object(obj))
		return "not an object";
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (fields[i].required && !json_object_get(obj, fields[i].name))
			return "a required field is missing";
	json_object_foreach(obj, key, v) {
		for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
			if (!strcmp(key, fields[i].name))
				break;
		if (i == sizeof(fields) / sizeof(fields[0]))
			return "an undocumented field";
		if (!type_ok(v, fields[i].type))
			return "a field of the wrong type";
		report |= fields[i].report;
	}
	if (json_integer_value(json_object_get(obj, "seq")) < 0)
		return "a negative count";
	v = json_object_get(obj, "lost");
	if (v && !marker_ok(obj, json_integer_value(v)))
		return "a marker of lost records that is not one";
	s = json_string_value(json_object_get(obj, "level"));
	if (!one_of(s, levels, 3) || s[0] != level)
		return "a level that is not the line's";
	v = json_object_get(obj, "errno");
	if (v && (json_integer_value(v) <= 0 || json_integer_value(v) > 4095))
		return "an errno out of range";
	v = json_object_get(obj, "op");
	if (v && !one_of(json_string_value(v), ops, sizeof(ops) / sizeof(ops[0])))
		return "an unknown op";
	v = json_object_get(obj, "superblock");
	/* "id" only for a superblock of the caller's user namespaces. */
	if (v && (json_object_size(v) !=
		  1 + !!json_object_get(v, "id") ||
		  !json_is_string(json_object_get(v, "type")) ||
		  (json_object_get(v, "id") &&
		   !json_is_string(json_object_get(v, "id")))))
		return "a superblock that is not {type[, id]}";
	s = str_of(obj, "verdict");
	if (json_object_get(obj, "verdict") && !ONE_OF(s, verdicts))
		return "an unknown verdict";
	v = json_object_get(obj, "params");
	json_object_foreach(v, key, e) {
		if (!json_is_string(e) || !ONE_OF(json_string_value(e), matches))
			return "a parameter whose verdict is not matches, differs or unknown";
		if (!strcmp(key, "source"))
			return "the source among the parameters compared";
		/* compatible: all match; incompatible: one differs, unless cut */
		if (!strcmp(s, "compatible") &&
		    strcmp(json_string_value(e), "matches"))
			return "a compatible verdict with a parameter that does not match";
		if (!strcmp(s, "unknown") &&
		    !strcmp(json_string_value(e), "differs"))
			return "an unknown verdict with a parameter that differs";
		differs |= !strcmp(json_string_value(e), "differs");
	}
	if (!strcmp(s, "incompatible") && !differs &&
	    !json_is_true(json_object_get(obj, "params_truncated")))
		return "an incompatible verdict with no parameter that differs";
	if (!strcmp(s, "compatible") &&
	    (json_is_true(json_object_get(obj, "params_unlisted")) ||
	     json_is_true(json_object_get(obj, "params_truncated"))))
		return "a compatible verdict with parameters it could not compare";
	if (!json_object_get(obj, "event"))
		return report ? "report fields without an event" : NULL;
	return report_wrong(obj);
}

/* Check one record read from a context fd; counts it. */
static void check_record(const char *buf, ssize_t len, bool structured)
{
	const char *nul, *wrong;
	json_error_t error;
	json_t *obj;

	atomic_fetch_add(&nr_records, 1);
	if (!structured) {
		if (!line_ok(buf, len))
			invalid(buf, len, "legacy record is not one line");
		return;
	}
	nul = memchr(buf, '\0', len);
	if (!nul) {
		invalid(buf, len, "structured record without a NUL");
		return;
	}
	if (!line_ok(buf, nul - buf)) {
		invalid(buf, len, "structured record's line is not one line");
		return;
	}
	/* Strict: UTF-8 only, no trailing bytes, no duplicate keys. */
	obj = json_loadb(nul + 1, len - (nul + 1 - buf), JSON_REJECT_DUPLICATES,
			 &error);
	if (!obj) {
		invalid(buf, len, "jansson: %s at %d", error.text,
			error.position);
		return;
	}
	wrong = object_wrong(obj, buf[0]);
	if (wrong)
		invalid(buf, len, "JSON object: %s", wrong);
	json_decref(obj);
}

/*
 * What @fd names now, as /proc/self/fd shows it ("anon_inode:[fscontext]"
 * for a context), into @what.
 */
static void fd_target(int fd, char *what, size_t size)
{
	char link[32];
	ssize_t len;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	len = readlink(link, what, size - 1);
	if (len < 0)
		snprintf(what, size, "nothing (%s)", strerror(errno));
	else
		what[len] = '\0';
}

/* A read of @size bytes; returns what read() did, checking it. */
static ssize_t read_record(struct slot *slot, char *buf, size_t size)
{
	ssize_t n = read(slot->fd, buf, size);
	char what[256];
	int err = errno;

	if (n > 0) {
		check_record(buf, n, slot->structured);
	} else if (n == 0) {
		invalid(NULL, 0, "read returned 0");
	} else if (err != ENODATA && err != EMSGSIZE) {
		/*
		 * The log fails a read with nothing else.  A slot's fd stays
		 * a context while the slot is locked (see "fd ownership"):
		 * if it names something else now, say what.
		 */
		fd_target(slot->fd, what, sizeof(what));
		invalid(NULL, 0, "read of %zu bytes from fd %d (%s) failed: %s",
			size, slot->fd, what, strerror(err));
	}
	errno = err;
	return n;
}

/* ------------------------------------------------------------ the calls */

struct thread {
	struct rng rng;
	int epfd;
	int fds[10];		/* Of every kind, for FSCONFIG_SET_FD and dirfds */
	/* Past FCTEST_READ_MAX by a sweep's margin and its longest step */
	char buf[FCTEST_READ_MAX + 256];
	char key[4200], value[4200];
};

/*
 * Open one fd of each kind the thread hands to fsconfig(), before any
 * thread runs: a kind the kernel lacks is -1.  Only a call's return value
 * is trusted: socketpair() writes the two numbers it reserved before it
 * finds that the family is missing (no AF_UNIX in the guest's config),
 * then frees them; a socket() of a family the guest has stands in.
 */
static void open_fd_kinds(struct thread *t)
{
	int pipefd[2];

	if (pipe(pipefd))
		pipefd[0] = pipefd[1] = -1;
	t->fds[0] = pipefd[0];
	t->fds[1] = pipefd[1];
	t->fds[2] = socket(AF_UNIX, SOCK_STREAM, 0);
	if (t->fds[2] < 0)
		t->fds[2] = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
	t->fds[3] = open("/dev/null", O_RDWR);
	t->fds[4] = open("/", O_RDONLY | O_DIRECTORY);
	t->fds[5] = open("/", O_PATH);
	t->fds[6] = open("/bin/busybox", O_RDONLY);
	t->fds[7] = eventfd(0, 0);
	t->fds[8] = -1;
	t->fds[9] = 100000;
	t->epfd = epoll_create1(0);
}

/* The fds of a thread that are opened (not the deliberate -1 and 100000). */
#define NR_OPENED_KINDS	8

/*
 * Check that every fd opened for the threads is open and no other one's
 * number: a number held twice would be closed under one owner's feet.
 * 0, or -1 with the fault printed.
 */
static int fd_kinds_owned(struct thread *threads, unsigned int nr)
{
	int fds[NR_THREADS * (NR_OPENED_KINDS + 1)];
	unsigned int n = 0, i, j;

	for (i = 0; i < nr; i++) {
		memcpy(fds + n, threads[i].fds, NR_OPENED_KINDS * sizeof(int));
		n += NR_OPENED_KINDS;
		fds[n++] = threads[i].epfd;
	}
	for (i = 0; i < n; i++) {
		if (fds[i] < 0)
			continue;	/* A kind the kernel lacks */
		if (fcntl(fds[i], F_GETFD) < 0) {
			printf("# fd %d (thread %u, kind %u) is not open\n",
			       fds[i], i / (NR_OPENED_KINDS + 1),
			       i % (NR_OPENED_KINDS + 1));
			return -1;
		}
		for (j = 0; j < i; j++)
			if (fds[j] == fds[i]) {
				printf("# fd %d is held twice: thread %u's kind %u and thread %u's kind %u\n",
				       fds[i], j / (NR_OPENED_KINDS + 1),
				       j % (NR_OPENED_KINDS + 1),
				       i / (NR_OPENED_KINDS + 1),
				       i % (NR_OPENED_KINDS + 1));
				return -1;
			}
	}
	return 0;
}

static void close_fd_kinds(struct thread *t)
{
	unsigned int k;

	for (k = 0; k < NR_OPENED_KINDS; k++)
		if (t->fds[k] >= 0)
			close(t->fds[k]);
	if (t->epfd >= 0)
		close(t->epfd);
}

static int any_fd(struct thread *t)
{
	return PICK(&t->rng, t->fds);
}

static const char *key_for(struct thread *t, const struct fs_type *type)
{
	struct rng *r = &t->rng;

	if (chance(r, 3))
		return NULL;
	if (chance(r, 2))
		return (const char *)8;		/* EFAULT */
	if (type && chance(r, 60))
		return type->keys[below(r, type->nr_keys)];
	if (chance(r, 50))
		return PICK(r, vfs_keys);
	hostile_string(r, t->key, chance(r, 80) ? 1 + below(r, 40) :
						  hostile_length(r));
	return t->key;
}

static const char *string_value(struct thread *t)
{
	struct rng *r = &t->rng;

	if (chance(r, 3))
		return NULL;
	if (chance(r, 45))
		return PICK(r, values);
	hostile_string(r, t->value, hostile_length(r));
	return t->value;
}

static const char *path_value(struct thread *t)
{
	struct rng *r = &t->rng;
	size_t len;

	if (chance(r, 3))
		return NULL;
	if (chance(r, 45))
		return PICK(r, paths);
	/* A long path that does not exist, its name multibyte. */
	strcpy(t->value, "/nonexistent/");
	len = strlen(t->value);
	hostile_string(r, t->value + len, hostile_length(r) % (4095 - len));
	return t->value;
}

static int dirfd_value(struct thread *t)
{
	return chance(&t->rng, 50) ? AT_FDCWD : any_fd(t);
}

static void do_fsconfig(struct thread *t, struct slot *slot)
{
	struct rng *r = &t->rng;
	/* Every command there is, and a little beyond. */
	unsigned int cmd = below(r, FSCONFIG_CMD_CREATE_COMPATIBLE + 2);
	const char *key = key_for(t, slot->type);
	int aux = 0;

	switch (cmd) {
	case FSCONFIG_SET_FLAG:
		sys_fsconfig(slot->fd, cmd, key,
			     chance(r, 5) ? "x" : NULL, chance(r, 5));
		break;
	case FSCONFIG_SET_STRING:
		sys_fsconfig(slot->fd, cmd, key, string_value(t),
			     chance(r, 5));
		break;
	case FSCONFIG_SET_BINARY:
		hostile_string(r, t->value, 64);
		aux = chance(r, 80) ? (int)below(r, 65) :
				      (int)(rnd(r) & 0x7fffffff) - 16;
		sys_fsconfig(slot->fd, cmd, key,
			     chance(r, 5) ? NULL : t->value, aux);
		break;
	case FSCONFIG_SET_PATH:
	case FSCONFIG_SET_PATH_EMPTY:
		sys_fsconfig(slot->fd, cmd, key, path_value(t), dirfd_value(t));
		break;
	case FSCONFIG_SET_FD:
		sys_fsconfig(slot->fd, cmd, key, chance(r, 5) ? "x" : NULL,
			     any_fd(t));
		break;
	case FSCONFIG_CMD_CREATE:
	case FSCONFIG_CMD_CREATE_EXCL:
	case FSCONFIG_CMD_CREATE_COMPATIBLE:
	case FSCONFIG_CMD_RECONFIGURE:
		sys_fsconfig(slot->fd, cmd, chance(r, 5) ? "x" : NULL, NULL,
			     chance(r, 5));
		break;
	default:
		/* Commands that do not exist, and one far beyond. */
		sys_fsconfig(slot->fd, chance(r, 50) ? cmd : (unsigned)rnd(r),
			     key, string_value(t), 0);
		break;
	}
}

/*
 * What FIONREAD promises while nothing else is logged or read: 0 means a
 * read finds nothing (ENODATA); otherwise a read one byte short of its
 * size fails with EMSGSIZE and leaves the record, and a read of exactly
 * its size returns the record whole.  Other threads log and read through
 * dup()s of the fd: the check takes the context to itself (see "Context
 * locks"), so any promise broken is the kernel's.  (Asked with the
 * context shared, three tries running, the check once failed in CI:
 * FIONREAD gave 45 bytes and a read of 44 returned 31, the size of a
 * legacy loss marker; another thread's fsconfig() calls on the context,
 * evicting records, make that happen.)
 */
static void do_read_sized(struct thread *t, struct slot *slot)
{
	ssize_t short_n, n;
	int avail;

	pthread_rwlock_unlock(context_lock(slot));
	pthread_rwlock_wrlock(context_lock(slot));
	/* No FIONREAD, or out of bounds: do_poll() judges that. */
	if (ioctl(slot->fd, FIONREAD, &avail) < 0 || avail < 0 ||
	    avail > FCTEST_READ_MAX)
		goto out;
	if (!avail) {
		n = read_record(slot, t->buf, FCTEST_READ_MAX);
		if (n >= 0 || errno != ENODATA)
			invalid(n > 0 ? t->buf : NULL, n,
				"FIONREAD gave 0, yet a read returned %zd (%s)",
				n, n < 0 ? strerror(errno) : "not ENODATA");
		goto out;
	}
	short_n = read_record(slot, t->buf, avail - 1);
	if (short_n >= 0 || errno != EMSGSIZE) {
		invalid(short_n > 0 ? t->buf : NULL, short_n,
			"FIONREAD gave %d bytes, yet a read of %d returned %zd (%s)",
			avail, avail - 1, short_n,
			short_n < 0 ? strerror(errno) : "not EMSGSIZE");
		goto out;
	}
	n = read_record(slot, t->buf, avail);
	if (n != avail)
		invalid(n > 0 ? t->buf : NULL, n,
			"FIONREAD gave %d bytes, yet a read of that many returned %zd (%s)",
			avail, n, n < 0 ? strerror(errno) : "not the record whole");
out:
	pthread_rwlock_unlock(context_lock(slot));
	pthread_rwlock_rdlock(context_lock(slot));
}

/*
 * How far past the size FIONREAD gave a sweep goes: more than its longest
 * step, so that some size of at least that is tried.
 */
#define SWEEP_MARGIN	128

/*
 * Read with every size from 0 until a record comes back whole: up to the
 * size FIONREAD gives for it, and a margin past that; on a kernel without
 * FIONREAD (stock, the fc-log posting alone), up to FCTEST_READ_MAX,
 * larger than any record.  Each size short of the record fails with
 * EMSGSIZE and leaves it, so the walk goes on to the next.  Other threads
 * read and log through dup()s of the fd, so the next record may change
 * under the walk: past FIONREAD's size, do_read_sized() says whether its
 * figure still reads a record whole.
 */
static void do_read_sweep(struct thread *t, struct slot *slot)
{
	size_t size, limit = FCTEST_READ_MAX;
	bool sized = false;
	int avail;
	ssize_t n;

	if (ioctl(slot->fd, FIONREAD, &avail) == 0 && avail >= 0 &&
	    avail <= FCTEST_READ_MAX) {
		limit = avail + SWEEP_MARGIN;
		sized = true;
	}
	for (size = 0; size <= limit;
	     size += size < 64 ? 1 : 1 + below(&t->rng, 97)) {
		n = read_record(slot, t->buf, size);
		if (n >= 0 || errno != EMSGSIZE)
			return;
	}
	if (sized)
		do_read_sized(t, slot);
	else
		invalid(NULL, 0, "EMSGSIZE for a buffer of %d bytes",
			FCTEST_READ_MAX);
}

static void do_read(struct thread *t, struct slot *slot)
{
	/*
	 * 16384 is what a reader built against older headers reads with
	 * (their bound on a record, which the kernel no longer states).
	 */
	static const size_t sizes[] = {
		0, 1, 2, 8191, 16384, FCTEST_READ_MAX, FCTEST_READ_MAX + 1,
	};
	struct rng *r = &t->rng;
	size_t size = chance(r, 50) ? PICK(r, sizes) :
				      below(r, FCTEST_READ_MAX + 2);

	if (chance(r, 10)) {
		do_read_sweep(t, slot);
		return;
	}
	if (chance(r, 10)) {
		do_read_sized(t, slot);
		return;
	}
	/* Drain the log now and then, as a well-behaved reader would. */
	if (chance(r, 20)) {
		while (read_record(slot, t->buf, FCTEST_READ_MAX) > 0)
			;
		return;
	}
	read_record(slot, t->buf, size);
}

static void do_poll(struct thread *t, struct slot *slot)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct pollfd pfd = { .fd = slot->fd, .events = POLLIN | POLLOUT };
	int avail;

	switch (below(&t->rng, 3)) {
	case 0:
		poll(&pfd, 1, 0);
		/* Without the series the fd has no ->poll: always writable. */
		if ((pfd.revents & POLLOUT) && fctest_kernel_has_series())
			invalid(NULL, 0, "context fd polled writable");
		break;
	case 1:
		if (epoll_ctl(t->epfd, EPOLL_CTL_ADD, slot->fd, &ev) == 0) {
			epoll_wait(t->epfd, &ev, 1, 0);
			epoll_ctl(t->epfd, EPOLL_CTL_DEL, slot->fd, NULL);
		}
		break;
	default:
		/* The size of the next read: a marker or a record, if any. */
		if (ioctl(slot->fd, FIONREAD, &avail) < 0) {
			if (errno != ENOTTY || fctest_kernel_has_structured())
				invalid(NULL, 0, "FIONREAD failed");
		} else if (avail < 0 || avail > FCTEST_READ_MAX) {
			invalid(NULL, 0, "FIONREAD out of bounds");
		}
		break;
	}
}

static void do_fsmount(struct thread *t, struct slot *slot)
{
	struct rng *r = &t->rng;
	unsigned int flags = chance(r, 80) ? FSMOUNT_CLOEXEC : (unsigned)rnd(r);
	unsigned int attr = chance(r, 80) ? MOUNT_ATTR_RDONLY * below(r, 2) :
					    (unsigned)rnd(r);
	int mfd = sys_fsmount(slot->fd, flags, attr);

	if (mfd >= 0)
		close(mfd);
}

/* Open a context into @slot, held exclusively. */
static void do_open(struct thread *t, struct slot *slot)
{
	static const unsigned int pick_paths_flags = FSPICK_CLOEXEC |
		FSPICK_SYMLINK_NOFOLLOW | FSPICK_NO_AUTOMOUNT;
	struct rng *r = &t->rng;
	unsigned int flags;
	const struct fs_type *type = NULL;
	const char *path;
	int fd;

	if (slot->fd >= 0)
		close(slot->fd);
	slot->fd = -1;
	if (chance(r, 75)) {
		do
			type = &PICK(r, fs_types);
		while (type->userns_only && run.root);
		flags = below(r, 8);	/* CLOEXEC, STRUCTURED_LOG, RETRY */
		if (chance(r, 5))
			flags |= 1u << below(r, 32);
		fd = sys_fsopen(chance(r, 2) ? "" : type->name, flags);
		flags = flags & FSOPEN_STRUCTURED_LOG;
	} else {
		flags = below(r, 2) * FSPICK_STRUCTURED_LOG |
			below(r, 2) * FSPICK_RETRY |
			(below(r, 8) & pick_paths_flags);
		if (chance(r, 5))
			flags |= 1u << below(r, 32);
		/*
		 * As root, only mounts of superblocks this run owns: a
		 * reconfigure of "/" would reach the whole guest.
		 */
		if (run.nr_mounts && (run.root || chance(r, 80)))
			path = run.mounts[below(r, run.nr_mounts)];
		else
			path = run.root ? "/nonexistent" : PICK(r, paths);
		if (!run.root && chance(r, 5)) {
			flags |= FSPICK_EMPTY_PATH;
			fd = sys_fspick(any_fd(t), "", flags);
		} else {
			fd = sys_fspick(AT_FDCWD, path, flags);
		}
		flags = flags & FSPICK_STRUCTURED_LOG;
	}
	if (fd < 0)
		return;
	slot->fd = fd;
	slot->structured = flags != 0;
	slot->type = type;
	slot->context = atomic_fetch_add(&nr_contexts_opened, 1);
}

static void do_dup(struct thread *t, struct slot *slot)
{
	struct slot *to = &slots[below(&t->rng, NR_SLOTS)];
	const struct fs_type *type = slot->type;
	unsigned int context = slot->context;
	bool structured = slot->structured;
	int fd = dup(slot->fd);

	pthread_rwlock_unlock(&slot->lock);
	if (fd < 0)
		return;
	pthread_rwlock_wrlock(&to->lock);
	if (to->fd >= 0)
		close(to->fd);
	to->fd = fd;
	to->structured = structured;
	to->type = type;
	to->context = context;
	pthread_rwlock_unlock(&to->lock);
}

/* One random operation on one random slot. */
static void one_op(struct thread *t)
{
	struct rng *r = &t->rng;
	struct slot *slot = &slots[below(r, NR_SLOTS)];
	unsigned int op = below(r, 100);

	atomic_fetch_add(&nr_ops, 1);
	if (op < 8) {
		pthread_rwlock_wrlock(&slot->lock);
		if (op < 6 || slot->fd < 0)
			do_open(t, slot);
		else {
			close(slot->fd);
			slot->fd = -1;
		}
		pthread_rwlock_unlock(&slot->lock);
		return;
	}

	pthread_rwlock_rdlock(&slot->lock);
	if (slot->fd < 0) {
		/* fsconfig() and read() on a closed fd: EBADF, quietly. */
		sys_fsconfig(-1, FSCONFIG_SET_FLAG, "ro", NULL, 0);
		pthread_rwlock_unlock(&slot->lock);
		return;
	}
	if (op < 10) {
		do_dup(t, slot);	/* Unlocks */
		return;
	}
	pthread_rwlock_rdlock(context_lock(slot));
	if (op < 60)
		do_fsconfig(t, slot);
	else if (op < 88)
		do_read(t, slot);
	else if (op < 96)
		do_poll(t, slot);
	else
		do_fsmount(t, slot);
	pthread_rwlock_unlock(context_lock(slot));
	pthread_rwlock_unlock(&slot->lock);
}

static void *fuzz_thread(void *arg)
{
	struct thread *t = arg;
	unsigned int i;

	while (now() < run.deadline)
		for (i = 0; i < 64; i++)
			one_op(t);
	return NULL;
}

/* Run the threads until the deadline; 0 if every record was valid. */
static int fuzz(double seconds)
{
	pthread_t tids[NR_THREADS];
	struct thread *threads;
	pthread_rwlockattr_t prefer_writers;
	double start = now();
	unsigned int i;

	pthread_rwlockattr_init(&prefer_writers);
	pthread_rwlockattr_setkind_np(&prefer_writers,
				      PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	for (i = 0; i < NR_CONTEXT_LOCKS; i++)
		pthread_rwlock_init(&context_locks[i], &prefer_writers);
	for (i = 0; i < NR_SLOTS; i++) {
		pthread_rwlock_init(&slots[i].lock, NULL);
		slots[i].fd = -1;
	}
	threads = calloc(NR_THREADS, sizeof(*threads));
	if (!threads)
		return 1;
	/* Before any thread runs: see "fd ownership". */
	for (i = 0; i < NR_THREADS; i++)
		open_fd_kinds(&threads[i]);
	if (fd_kinds_owned(threads, NR_THREADS))
		return 1;
	run.deadline = start + seconds;
	for (i = 0; i < NR_THREADS; i++) {
		/* Distinct, never zero. */
		threads[i].rng.s = (run.seed + 1) * 0x9e3779b97f4a7c15ULL + i;
		if (pthread_create(&tids[i], NULL, fuzz_thread, &threads[i]))
			return 1;
	}
	for (i = 0; i < NR_THREADS; i++)
		pthread_join(tids[i], NULL);

	/* Close what is left, unread messages and all. */
	for (i = 0; i < NR_SLOTS; i++)
		if (slots[i].fd >= 0)
			close(slots[i].fd);
	for (i = 0; i < NR_THREADS; i++)
		close_fd_kinds(&threads[i]);
	seconds = now() - start;
	printf("# %s: %lu operations, %lu records checked in %.1f s: %.0f ops/s, %.0f records/s; %lu invalid\n",
	       run.root ? "root" : "userns", atomic_load(&nr_ops),
	       atomic_load(&nr_records), seconds, atomic_load(&nr_ops) / seconds,
	       atomic_load(&nr_records) / seconds, atomic_load(&nr_invalid));
	fflush(stdout);
	return atomic_load(&nr_invalid) != 0;
}

/* ------------------------------------------------------------- the runs */

/* Mount @type at a fresh directory this run owns: an fspick() target. */
static void own_mount(const char *type)
{
	char *dir = run.mounts[run.nr_mounts];

	snprintf(dir, sizeof(run.mounts[0]), "/tmp/fuzz-%s", type);
	mkdir(dir, 0755);
	if (mount(type, dir, type, 0, NULL) == 0)
		run.nr_mounts++;
	else
		printf("# cannot mount %s at %s: %s\n", type, dir,
		       strerror(errno));
}

/* One run in a child; returns its TAP verdict. */
static bool fuzz_in_child(bool root, double seconds)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return false;
	if (pid == 0) {
		/* A hang is a failure too: the parent sees SIGALRM. */
		alarm((unsigned int)seconds + 120);
		run.root = root;
		if (root) {
			bool own_ipc = !unshare(CLONE_NEWNS | CLONE_NEWIPC);

			if ((!own_ipc && (errno != EINVAL || unshare(CLONE_NEWNS))) ||
			    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
				printf("# cannot unshare: %s\n", strerror(errno));
				_exit(1);
			}
			own_mount("tmpfs");
			own_mount("proc");
			/* The guest's mqueue superblock is not this run's. */
			if (own_ipc)
				own_mount("mqueue");
			own_mount("ramfs");
		} else {
			/* Nobody, root of its own user namespace. */
			if (fctest_enter_userns()) {
				printf("# cannot enter a user namespace: %s\n",
				       strerror(errno));
				_exit(1);
			}
			mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL);
			/* Owned by the new namespace: it may reconfigure it. */
			if (mount("tmpfs", "/tmp", "tmpfs", 0, NULL) == 0) {
				strcpy(run.mounts[0], "/tmp");
				run.nr_mounts = 1;
			}
		}
		_exit(fuzz(seconds));
	}
	if (waitpid(pid, &status, 0) != pid)
		return false;
	if (WIFSIGNALED(status))
		printf("# the run was killed by signal %d\n", WTERMSIG(status));
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* Whether @phase is in the comma-separated list @phases. */
static bool phase_wanted(const char *phases, const char *phase)
{
	size_t len = strlen(phase);
	const char *p;

	for (p = phases; (p = strstr(p, phase)); p += len)
		if ((p == phases || p[-1] == ',') &&
		    (p[len] == ',' || p[len] == '\0'))
			return true;
	return false;
}

int main(void)
{
	const char *env_seconds = getenv("FCTEST_FUZZ_SECONDS");
	const char *env_seed = getenv("FCTEST_FUZZ_SEED");
	const char *env_runs = getenv("FCTEST_FUZZ_RUNS");
	const char *phases = getenv("FCTEST_FUZZ_PHASES");
	double seconds = fctest_kernel_is("debug") ? 60 : 16;
	bool as_root, in_userns;
	unsigned long runs = 1, i;
	uint64_t seed;
	int test = 0;
	bool ok;

	if (env_seconds && *env_seconds)
		seconds = strtod(env_seconds, NULL);
	if (env_runs && *env_runs)
		runs = strtoul(env_runs, NULL, 10);
	if (!phases || !*phases)
		phases = "root,userns";
	as_root = phase_wanted(phases, "root");
	in_userns = phase_wanted(phases, "userns");
	if (!runs || (!as_root && !in_userns)) {
		printf("Bail out! FCTEST_FUZZ_RUNS=%s FCTEST_FUZZ_PHASES=%s: no run (phases: root, userns)\n",
		       env_runs ? env_runs : "", phases);
		return 1;
	}
	seed = env_seed && *env_seed ? strtoull(env_seed, NULL, 0) :
	       (uint64_t)(now() * 1e6);
	/* Each phase gets half the time when both run, as before. */
	if (as_root && in_userns)
		seconds /= 2;
	printf("TAP version 13\n1..%lu\n", runs * (as_root + in_userns));
	for (i = 0; i < runs; i++) {
		run.seed = seed + i;
		printf("# seed %llu, %g s a phase (%s), %d threads, %d fd slots (make fuzz FUZZ_SEED=%llu FUZZ_PHASES=%s)\n",
		       (unsigned long long)run.seed, seconds, phases, NR_THREADS,
		       NR_SLOTS, (unsigned long long)run.seed, phases);
		if (as_root) {
			ok = fuzz_in_child(true, seconds);
			printf("%sok %d root, own mount and ipc namespaces: every record valid (seed %llu)\n",
			       ok ? "" : "not ", ++test,
			       (unsigned long long)run.seed);
		}
		if (in_userns) {
			ok = fuzz_in_child(false, seconds);
			printf("%sok %d unprivileged, own user namespace: every record valid (seed %llu)\n",
			       ok ? "" : "not ", ++test,
			       (unsigned long long)run.seed);
		}
	}
	return 0;
}
