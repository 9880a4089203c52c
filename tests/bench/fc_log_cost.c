// SPDX-License-Identifier: GPL-2.0
/*
 * fc_log_cost: what the message log costs in guest instructions, the same
 * program on the stock and the patched kernel (make bench, make
 * icount-gate), booted by "qemu/boot icount": QEMU's -icount shift=0,
 * sleep=off makes the guest's clock count instructions, one nanosecond per
 * instruction executed, so CLOCK_MONOTONIC read around a batch of
 * operations says how many instructions they took, the same on every run.
 * Time under TCG moves by 20-150% between runs; instructions do not.
 * Instructions are not time: a cache miss or a contended lock costs
 * nothing here (docs/benchmarks.md).
 *
 * Prints one line per figure, for tests/bench/icount-gate:
 *
 *   COST <metric> <mode> <value> insn [key=value...]
 *   COST <metric> <mode> n/a insn # <why>
 *
 * <value> is instructions per operation: the median of BATCHES batches of
 * FCTEST_BATCH operations (default 2,000), each net of an empty batch's
 * cost (the loop, the call through a pointer and the clock: the median of
 * BATCHES batches of an operation that does nothing, timed the same way).
 * A warm-up batch comes first.  Modes: "legacy" (fsopen() without flags)
 * and "structured" (FSOPEN_STRUCTURED_LOG, n/a where fsopen() refuses it).
 * Metrics:
 *
 *   fsconfig_read      fsconfig() logging an unknown key + read() of it
 *   fsconfig_logged    fsconfig() logging it into a full log: each call
 *                      stores a record and evicts one (stock keeps 8,
 *                      patched 64)
 *   read_record        read() of one such record
 *   reject_read        fsconfig() rejecting tmpfs's "size=abc" + read()
 *                      of its record (structured: a report with a cause
 *                      and the value)
 *   read_report        read() of one such record
 *   fsopen_close       fsopen("tmpfs") + close(), nothing logged
 *   fsconfig_accepted  fsconfig() setting "mode=0700": nothing logged
 *   fsconfig_badfd     fsconfig() on an fd that is not open (EBADF): the
 *                      floor, a syscall that never reaches a log (legacy
 *                      only: no context)
 *   create_excl        fsopen("mqueue") + FSCONFIG_CMD_CREATE_EXCL, which
 *                      meets the ipc namespace's superblock (EBUSY), +
 *                      read() of everything it logged until ENODATA +
 *                      close()
 *   unread_close       fsopen("tmpfs") + fsconfig() logging an error +
 *                      close() without reading it
 *   flood_first        per message, the first tenth of a flood of
 *                      FCTEST_FLOOD (default 1,000,000) unknown keys into
 *                      one context, never read
 *   flood_last         per message, the last tenth of that flood: a log
 *                      whose cost grows with what it was given shows here
 *
 * Reads are timed in bursts of BURST, the log refilled between bursts
 * outside the timing (stock keeps no more); the empty batch is timed in
 * the same bursts.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "mount_api.h"

#define BATCHES		5	/* odd, for the median */
#define BURST		8	/* records per timed burst of reads: fits stock's log */
#define RING_FILL	256	/* more than either kernel keeps */
#define KEY		"nosuch"
#define SPIN		1000000	/* loops of the clock check, 2 instructions each */
#define BAD_FD		999	/* never open (fsconfig() refuses a negative fd
				 * with EINVAL before it looks for a file) */

static long batch = 2000, flood = 1000000;
static unsigned int flags;	/* of the mode measured */
static int ctx = -1;		/* the context an operation works on */
/* Larger than any record the kernel makes (its bound is its own, not ABI). */
static char buf[65536];

static void die(const char *what)
{
	printf("# cost: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* Under -icount shift=0: instructions executed so far. */
static long long clock_insn(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Exactly 2 * @n instructions. */
static void spin(long n)
{
	asm volatile("1: dec %0; jnz 1b" : "+r"(n));
}

/*
 * The clock must count instructions, one per nanosecond: a loop of known
 * length, timed, must take what it executes (plus one clock read).  A
 * guest without -icount (time, not instructions) or with a coarse clock
 * (jiffies: 4 ms steps) fails here rather than print figures.  The best
 * of three: a timer tick may land in one.
 */
static void check_clock(void)
{
	long long t, d, best = -1;
	int i;

	for (i = 0; i < 3; i++) {
		t = clock_insn();
		spin(SPIN);
		d = clock_insn() - t;
		if (best < 0 || d < best)
			best = d;
	}
	printf("# cost: clock check: %d instructions timed as %lld ns\n",
	       2 * SPIN, best);
	if (best < 2 * SPIN || best > 2 * SPIN + 2 * SPIN / 100) {
		printf("# cost: the clock does not count instructions: boot with qemu/boot icount\n");
		exit(1);
	}
}

/* Lines reach the host before the next measurement starts, not during it. */
static void flush(void)
{
	fflush(stdout);
	tcdrain(STDOUT_FILENO);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Sorts @v[BATCHES]; its median. */
static double median(double *v)
{
	qsort(v, BATCHES, sizeof(*v), cmp_double);
	return v[BATCHES / 2];
}

static void emit_na(const char *metric, const char *mode, const char *why)
{
	printf("COST %s %s n/a insn # %s\n", metric, mode, why);
	flush();
}

/* The structured mode is the patched kernel's: fsopen() refuses it on stock. */
static bool mode_supported(void)
{
	int fd = sys_fsopen("tmpfs", flags);

	if (fd < 0) {
		if (errno != EINVAL || !(flags & FSOPEN_STRUCTURED_LOG))
			die("fsopen");
		return false;
	}
	close(fd);
	return true;
}

static int open_ctx(const char *fstype)
{
	int fd = sys_fsopen(fstype, flags);

	if (fd < 0)
		die("fsopen");
	return fd;
}

static void drain(int fd)
{
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	if (errno != ENODATA)
		die("read until ENODATA");
}

/* ------------------------------------------------------------ operations */

static void log_error(int fd)
{
	if (sys_fsconfig(fd, FSCONFIG_SET_FLAG, KEY, NULL, 0) != -1 ||
	    errno != EINVAL)
		die("fsconfig of an unknown key");
}

static void log_rejection(int fd)
{
	if (sys_fsconfig(fd, FSCONFIG_SET_STRING, "size", "abc", 0) != -1 ||
	    errno != EINVAL)
		die("fsconfig size=abc");
}

static void read_one(void)
{
	if (read(ctx, buf, sizeof(buf)) <= 0)
		die("read of a record");
}

/* The empty operation: what the loop and the call cost. */
static void op_nothing(void)
{
	asm volatile("" ::: "memory");
}

static void op_fsconfig_read(void)
{
	log_error(ctx);
	read_one();
}

static void op_fsconfig_logged(void)
{
	log_error(ctx);
}

static void op_reject_read(void)
{
	log_rejection(ctx);
	read_one();
}

static void op_fsopen_close(void)
{
	close(open_ctx("tmpfs"));
}

static void op_fsconfig_accepted(void)
{
	if (sys_fsconfig(ctx, FSCONFIG_SET_STRING, "mode", "0700", 0))
		die("fsconfig mode=0700");
}

static void op_fsconfig_badfd(void)
{
	if (sys_fsconfig(BAD_FD, FSCONFIG_SET_FLAG, KEY, NULL, 0) != -1 ||
	    errno != EBADF)
		die("fsconfig on an fd that is not open");
}

static void op_create_excl(void)
{
	int fd = open_ctx("mqueue");

	if (sys_fsconfig(fd, FSCONFIG_CMD_CREATE_EXCL, NULL, NULL, 0) != -1 ||
	    errno != EBUSY)
		die("mqueue CREATE_EXCL");
	drain(fd);
	close(fd);
}

static void op_unread_close(void)
{
	int fd = open_ctx("tmpfs");

	log_error(fd);
	close(fd);
}

/* Refills for the bursts of reads, untimed. */
static void refill_errors(void)
{
	int i;

	for (i = 0; i < BURST; i++)
		log_error(ctx);
}

static void refill_rejections(void)
{
	int i;

	for (i = 0; i < BURST; i++)
		log_rejection(ctx);
}

static void setup_fill(void)
{
	int i;

	for (i = 0; i < RING_FILL; i++)
		log_error(ctx);
}

/* ----------------------------------------------------------- measurement */

/*
 * Instructions taken by @n calls of @op, in bursts of @burst, each burst
 * after a call of @refill (if any), which is not counted.  Not inlined:
 * a copy specialised for op_nothing would not be the loop it stands for.
 */
static __attribute__((noinline)) long long
run(void (*op)(void), void (*refill)(void), long n, long burst)
{
	long long total = 0, t;
	long done, i;

	for (done = 0; done < n; done += burst) {
		if (refill)
			refill();
		t = clock_insn();
		for (i = 0; i < burst; i++)
			op();
		total += clock_insn() - t;
	}
	return total;
}

/* The median of BATCHES empty runs of @n in bursts of @burst. */
static double overhead(long n, long burst)
{
	double v[BATCHES];
	int b;

	for (b = 0; b < BATCHES; b++)
		v[b] = run(op_nothing, NULL, n, burst);
	return median(v);
}

struct op {
	const char *metric;
	void (*op)(void);
	const char *fstype;	/* of the context it works on; NULL: none */
	void (*setup)(void);	/* once, on that context */
	void (*refill)(void);	/* before each burst: reads */
	bool legacy_only;
	bool silent;		/* logs nothing: checked, the log must be empty */
};

static const struct op ops[] = {
	{ .metric = "fsconfig_read", .op = op_fsconfig_read,
	  .fstype = "tmpfs" },
	{ .metric = "fsconfig_logged", .op = op_fsconfig_logged,
	  .fstype = "tmpfs", .setup = setup_fill },
	{ .metric = "read_record", .op = read_one,
	  .fstype = "tmpfs", .refill = refill_errors },
	{ .metric = "reject_read", .op = op_reject_read,
	  .fstype = "tmpfs" },
	{ .metric = "read_report", .op = read_one,
	  .fstype = "tmpfs", .refill = refill_rejections },
	{ .metric = "fsopen_close", .op = op_fsopen_close },
	{ .metric = "fsconfig_accepted", .op = op_fsconfig_accepted,
	  .fstype = "tmpfs", .silent = true },
	{ .metric = "fsconfig_badfd", .op = op_fsconfig_badfd,
	  .legacy_only = true },
	{ .metric = "create_excl", .op = op_create_excl },
	{ .metric = "unread_close", .op = op_unread_close },
};

static void measure(const struct op *o, const char *mode)
{
	long burst = o->refill ? BURST : batch;
	double v[BATCHES], empty, value;
	int b;

	if (o->fstype)
		ctx = open_ctx(o->fstype);
	if (o->setup)
		o->setup();
	run(o->op, o->refill, batch, burst);	/* warm-up */
	empty = overhead(batch, burst);
	for (b = 0; b < BATCHES; b++)
		v[b] = (run(o->op, o->refill, batch, burst) - empty) / batch;
	if (o->silent && read(ctx, buf, sizeof(buf)) >= 0) {
		printf("# cost: %s logged something: it measures the wrong path\n",
		       o->metric);
		exit(1);
	}
	if (o->fstype) {
		drain(ctx);
		close(ctx);
	}
	value = median(v);
	printf("COST %s %s %.1f insn batch=%ld batches=%d min=%.1f max=%.1f overhead=%.1f\n",
	       o->metric, mode, value, batch, BATCHES, v[0], v[BATCHES - 1],
	       empty / batch);
	flush();
}

/*
 * One context, @flood unknown keys, never read: the first and the last
 * tenth timed, per message.  Then read back, so that closing it reports
 * nothing.
 */
static void measure_flood(const char *mode)
{
	long tenth = flood / 10;
	double empty = overhead(tenth, tenth), v[10];
	int s;

	ctx = open_ctx("tmpfs");
	for (s = 0; s < 10; s++)
		v[s] = (run(op_fsconfig_logged, NULL, tenth, tenth) - empty) / tenth;
	drain(ctx);
	close(ctx);
	printf("COST flood_first %s %.1f insn messages=%ld tenth=%ld overhead=%.1f\n",
	       mode, v[0], flood, tenth, empty / tenth);
	printf("COST flood_last %s %.1f insn messages=%ld tenth=%ld overhead=%.1f\n",
	       mode, v[9], flood, tenth, empty / tenth);
	flush();
}

static void measure_mode(const char *mode)
{
	unsigned int i;

	if (!mode_supported()) {
		for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
			if (!ops[i].legacy_only)
				emit_na(ops[i].metric, mode, "fsopen refuses the mode");
		emit_na("flood_first", mode, "fsopen refuses the mode");
		emit_na("flood_last", mode, "fsopen refuses the mode");
		return;
	}
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!ops[i].legacy_only || !(flags & FSOPEN_STRUCTURED_LOG))
			measure(&ops[i], mode);
	measure_flood(mode);
}

/* A positive count from the environment, else @dflt. */
static long env_count(const char *name, long dflt)
{
	const char *s = getenv(name);
	long v = s && *s ? strtol(s, NULL, 10) : 0;

	return v > 0 ? v : dflt;
}

/* The clocksource CLOCK_MONOTONIC reads, into @name. */
static void clocksource(char *name, int size)
{
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");

	snprintf(name, size, "?");
	if (f) {
		if (!fgets(name, size, f))
			snprintf(name, size, "?");
		name[strcspn(name, "\n")] = '\0';
		fclose(f);
	}
}

int main(void)
{
	const char *kernel = getenv("FCTEST_KERNEL");
	char source[64];

	/* Bursts of reads are whole: a batch is a multiple of BURST. */
	batch = (env_count("FCTEST_BATCH", batch) + BURST - 1) / BURST * BURST;
	flood = env_count("FCTEST_FLOOD", flood);
	if (flood < 10)
		flood = 10;
	/*
	 * Let the boot settle first: deferred work, RCU, and the switch from
	 * the tsc-early clocksource to tsc about a second after boot.  Idle
	 * time is free: with sleep=off the clock jumps over it.
	 */
	sleep(2);
	clocksource(source, sizeof(source));
	printf("# cost: kernel=%s batch=%ld batches=%d flood=%ld clocksource=%s\n",
	       kernel ? kernel : "?", batch, BATCHES, flood, source);
	printf("# cost: instructions per operation, the median of %d batches, each net of an empty batch's (loop, call and clock: \"overhead\" per operation)\n",
	       BATCHES);
	flush();
	check_clock();
	flush();

	flags = FSOPEN_CLOEXEC;
	measure_mode("legacy");
	flags = FSOPEN_CLOEXEC | FSOPEN_STRUCTURED_LOG;
	measure_mode("structured");
	return 0;
}
