// SPDX-License-Identifier: GPL-2.0
/*
 * fc_log_bench: what the message log costs in time and memory, measured
 * inside a guest, the same program on the stock and the patched kernel
 * (make bench).  What an operation costs in instructions is counted by
 * fc_log_cost, under QEMU's -icount, where the count is the same on every
 * run; this measures what instructions cannot show: a wake-up across CPUs,
 * and slab memory.
 *
 * Prints one line per measurement, for tests/bench/report:
 *
 *   BENCH <metric> <mode> <value> <unit> [key=value...]
 *
 * where <value> is the median over the samples of this run (a sample times
 * a batch of iterations), or "n/a" when the kernel cannot do it, with the
 * reason after a "#".  Mode: "legacy" (fsopen() without flags: the only
 * mode the stock kernel has).  Metrics:
 *
 *   epoll_wakeup     ns from just before fsconfig() in one thread to
 *                    epoll_wait() returning in another (pinned to another
 *                    CPU if there is one), the log empty before.  Needs
 *                    poll support: a stock context fd is always readable,
 *                    so n/a there.
 *   idle_context     slab bytes per context, 10,000 idle contexts open.
 *   flood_context    slab bytes per context (the context itself included)
 *                    after a flood of the longest message a key makes
 *                    (284 bytes): FLOOD_MESSAGES in all, spread over
 *                    FLOOD_CONTEXTS contexts, so each gets thousands, far
 *                    past any bound.  One context alone is below what
 *                    /proc/meminfo resolves (1 KiB steps, and free objects
 *                    in partly used slab pages absorb a few hundred KiB of
 *                    allocations unseen: stress_test once saw it "shrink"
 *                    by 16 KiB); over 128 contexts that is a few percent.
 *
 * FCTEST_SCALE (fctest.scale= on the kernel command line) multiplies the
 * iteration counts, e.g. 0.05 for a smoke run; the sample counts stay.
 *
 * The clock: these kernels have no clocksource but jiffies under TCG (no
 * HPET or PM timer to calibrate the TSC against), so CLOCK_MONOTONIC moves
 * in 4 ms steps, and falls behind when the host deschedules QEMU (ticks
 * are lost).  The TSC itself counts: TCG returns the host's.  So times are
 * taken with rdtsc and converted at the rate FCTEST_TSC_KHZ (fctest.tsc_khz=)
 * gives, which make bench measures on the host with "fc_log_bench
 * --tsc-khz"; without it, at a rate measured against CLOCK_MONOTONIC over
 * two seconds (a busy host makes that one wrong: ticks are lost).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <unistd.h>
#include <x86intrin.h>

#include "mount_api.h"
#include "fctest.h"

#define SAMPLES		21	/* per metric and mode; odd, for the median */
#define IDLE_CONTEXTS	10000
#define MEM_REPEATS	3
#define FLOOD_CONTEXTS	128
#define FLOOD_MESSAGES	1000000
#define KEY		"nosuch"
#define LONG_KEY_LEN	255

static double scale = 1;
static double ns_per_cycle;
static char buf[FCTEST_READ_MAX];

static inline unsigned long long cycles(void)
{
	return __rdtsc();
}

/* Nanoseconds between two cycles() readings. */
static inline double ns(unsigned long long from, unsigned long long to)
{
	return (to - from) * ns_per_cycle;
}

/* Wait for CLOCK_MONOTONIC to move on; its new value, with the TSC's. */
static double clock_step(unsigned long long *c)
{
	double t = now(), u;

	while ((u = now()) == t)
		;
	*c = cycles();
	return u;
}

/* The TSC against CLOCK_MONOTONIC, over @seconds. */
static void calibrate(double seconds)
{
	unsigned long long c0, c1;
	double t0, t1;

	t0 = clock_step(&c0);
	usleep(seconds * 1e6);
	t1 = clock_step(&c1);
	ns_per_cycle = (t1 - t0) * 1e9 / (c1 - c0);
}

/* @n iterations at scale 1, scaled, at least @min. */
static int scaled(int n, int min)
{
	int v = n * scale;

	return v < min ? min : v;
}

static void die(const char *what)
{
	printf("# bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Sorts @v; prints its median as the result, with its range. */
static void emit(const char *metric, const char *mode, const char *unit,
		 double *v, int n, const char *extra)
{
	qsort(v, n, sizeof(*v), cmp_double);
	printf("BENCH %s %s %.1f %s samples=%d min=%.1f max=%.1f%s%s\n",
	       metric, mode, n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2,
	       unit, n, v[0], v[n - 1], extra ? " " : "", extra ? extra : "");
	fflush(stdout);
}

static void emit_na(const char *metric, const char *mode, const char *unit,
		    const char *why)
{
	printf("BENCH %s %s n/a %s # %s\n", metric, mode, unit, why);
	fflush(stdout);
}

static int open_ctx(void)
{
	int fd = sys_fsopen("tmpfs", FSOPEN_CLOEXEC);

	if (fd < 0)
		die("fsopen");
	return fd;
}

static void log_error(int fd, const char *key)
{
	if (sys_fsconfig(fd, FSCONFIG_SET_FLAG, key, NULL, 0) != -1 ||
	    errno != EINVAL)
		die("fsconfig did not fail with EINVAL");
}

static void drain(int fd)
{
	while (read(fd, buf, sizeof(buf)) > 0)
		;
}

static void close_drained(int fd)
{
	drain(fd);
	close(fd);
}

/*
 * epoll wake-up: the waiter says it is about to wait, the logger waits
 * until the waiter's task sleeps (state S in /proc: in epoll_wait(), as
 * it has nothing else to sleep on), notes the time and logs.  With two
 * CPUs each thread has its own; with one, the logger yields right after
 * fsconfig() (the wake-up may preempt it before that).
 */
struct waiter {
	int fd, ep, tid, cpu;
	int armed, stop;	/* atomics */
	int wakeups;		/* atomic: wake-ups handled */
	int timed_out;		/* epoll_wait() returned nothing: lost wake-up */
	unsigned long long woke;	/* cycles() when epoll_wait() returned */
};

static void pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* Not with the global buffer: the logger may use it meanwhile. */
static void drain_waiter(int fd)
{
	char rec[FCTEST_READ_MAX];

	while (read(fd, rec, sizeof(rec)) > 0)
		;
}

static void *waiter_thread(void *arg)
{
	struct waiter *w = arg;
	struct epoll_event ev;
	int n;

	pin(w->cpu);
	w->tid = gettid();
	for (;;) {
		__atomic_store_n(&w->armed, 1, __ATOMIC_RELEASE);
		n = epoll_wait(w->ep, &ev, 1, 10000);
		w->woke = cycles();
		__atomic_store_n(&w->armed, 0, __ATOMIC_RELEASE);
		if (__atomic_load_n(&w->stop, __ATOMIC_ACQUIRE))
			break;
		if (n != 1)
			w->timed_out++;
		drain_waiter(w->fd);
		__atomic_add_fetch(&w->wakeups, 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

/* The state letter of thread @tid, '?' if unknown. */
static char task_state(int tid)
{
	char path[64], stat[256], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	f = fopen(path, "r");
	if (!f)
		return '?';
	n = fread(stat, 1, sizeof(stat) - 1, f);
	fclose(f);
	stat[n] = '\0';
	p = strrchr(stat, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

static void bench_epoll_wakeup(void)
{
	int iters = scaled(50, 3), s, i, done = 0;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct epoll_event ev = { .events = EPOLLIN };
	struct waiter w = { .cpu = cpus > 1 ? 1 : -1 };
	unsigned long long t;
	struct pollfd pfd;
	cpu_set_t mask;
	double v[SAMPLES], lat[2000];
	char extra[64];
	pthread_t th;

	if (iters > 2000)
		iters = 2000;
	w.fd = open_ctx();
	pfd = (struct pollfd){ .fd = w.fd, .events = POLLIN };
	if (poll(&pfd, 1, 0) != 0) {
		emit_na("epoll_wakeup", "legacy", "ns",
			"an empty log polls readable: no poll support");
		close(w.fd);
		return;
	}
	w.ep = epoll_create1(EPOLL_CLOEXEC);
	if (w.ep < 0 || epoll_ctl(w.ep, EPOLL_CTL_ADD, w.fd, &ev))
		die("epoll");
	sched_getaffinity(0, sizeof(mask), &mask);
	pin(cpus > 1 ? 0 : -1);
	if (pthread_create(&th, NULL, waiter_thread, &w))
		die("pthread_create");
	for (s = -1; s < SAMPLES; s++) {
		for (i = 0; i < iters; i++) {
			while (!__atomic_load_n(&w.armed, __ATOMIC_ACQUIRE) ||
			       task_state(w.tid) != 'S')
				sched_yield();
			t = cycles();
			log_error(w.fd, KEY);
			done++;
			while (__atomic_load_n(&w.wakeups, __ATOMIC_ACQUIRE) < done)
				sched_yield();
			lat[i] = ns(t, w.woke);
		}
		if (s >= 0) {
			qsort(lat, iters, sizeof(*lat), cmp_double);
			v[s] = lat[iters / 2];
		}
	}
	__atomic_store_n(&w.stop, 1, __ATOMIC_RELEASE);
	log_error(w.fd, KEY);	/* wake it once more, to stop */
	pthread_join(th, NULL);
	sched_setaffinity(0, sizeof(mask), &mask);
	snprintf(extra, sizeof(extra), "iters=%d cpus=%ld lost=%d", iters, cpus,
		 w.timed_out);
	emit("epoll_wakeup", "legacy", "ns", v, SAMPLES, extra);
	close(w.ep);
	close_drained(w.fd);
}

static void bench_idle_context(void)
{
	static int fds[IDLE_CONTEXTS];
	double v[MEM_REPEATS];
	long before, after;
	char extra[32];
	int r;

	for (r = 0; r < MEM_REPEATS; r++) {
		before = slab_bytes();
		if (open_contexts(fds, IDLE_CONTEXTS))
			die("fsopen");
		after = slab_bytes();
		close_all(fds, IDLE_CONTEXTS);
		v[r] = (double)(after - before) / IDLE_CONTEXTS;
	}
	snprintf(extra, sizeof(extra), "contexts=%d", IDLE_CONTEXTS);
	emit("idle_context", "legacy", "bytes", v, MEM_REPEATS, extra);
}

static void bench_flood_context(void)
{
	int total = scaled(FLOOD_MESSAGES, 64 * FLOOD_CONTEXTS);
	int per = total / FLOOD_CONTEXTS, c, i;
	static int fds[FLOOD_CONTEXTS];
	char key[LONG_KEY_LEN + 1], extra[96];
	unsigned long long t;
	long before, after;
	double v, seconds;

	memset(key, 'k', LONG_KEY_LEN);
	key[LONG_KEY_LEN] = '\0';
	before = slab_bytes();
	t = cycles();
	for (c = 0; c < FLOOD_CONTEXTS; c++) {
		fds[c] = sys_fsopen("tmpfs", FSOPEN_CLOEXEC);
		if (fds[c] < 0)
			die("fsopen");
		for (i = 0; i < per; i++)
			log_error(fds[c], key);
	}
	seconds = ns(t, cycles()) / 1e9;
	after = slab_bytes();
	v = (double)(after - before) / FLOOD_CONTEXTS;
	snprintf(extra, sizeof(extra),
		 "contexts=%d messages_each=%d msg_per_s=%.0f",
		 FLOOD_CONTEXTS, per, FLOOD_CONTEXTS * per / seconds);
	emit("flood_context", "legacy", "bytes", &v, 1, extra);
	close_all(fds, FLOOD_CONTEXTS);
}

int main(int argc, char **argv)
{
	struct rlimit rl = { IDLE_CONTEXTS + 64, IDLE_CONTEXTS + 64 };
	const char *s = getenv("FCTEST_SCALE"), *kernel = getenv("FCTEST_KERNEL");
	const char *khz = getenv("FCTEST_TSC_KHZ");
	struct timespec res;

	/* On the host, whose clock is fine: the rate for the guests. */
	if (argc > 1 && !strcmp(argv[1], "--tsc-khz")) {
		calibrate(0.5);
		printf("%.0f\n", 1e6 / ns_per_cycle);
		return 0;
	}
	if (s && *s)
		scale = strtod(s, NULL);
	if (!(scale > 0))
		scale = 1;
	if (setrlimit(RLIMIT_NOFILE, &rl))
		die("setrlimit");
	/* Let the boot settle (deferred work, RCU) before timing anything. */
	sync();
	if (khz && strtod(khz, NULL) > 0) {
		ns_per_cycle = 1e6 / strtod(khz, NULL);
		sleep(2);
	} else {
		khz = NULL;
		calibrate(2);
	}
	clock_getres(CLOCK_MONOTONIC, &res);
	printf("# bench: kernel=%s scale=%g cpus=%ld tsc_khz=%.0f (%s) clock_res_ns=%ld\n",
	       kernel ? kernel : "?", scale, sysconf(_SC_NPROCESSORS_ONLN),
	       1e6 / ns_per_cycle, khz ? "from the host" : "calibrated in the guest",
	       res.tv_nsec);
	fflush(stdout);

	bench_epoll_wakeup();
	if (pin_to_this_cpu())
		die("sched_setaffinity");
	bench_idle_context();
	bench_flood_context();
	return 0;
}
