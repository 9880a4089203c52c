// SPDX-License-Identifier: GPL-2.0
/*
 * fclog_parse_bench: how many records per second libfclog parses on the
 * host (fclog_parse() and fclog_record_free() of a typical record, as
 * read(2) returns it), structured and legacy.  Run by make bench between
 * the guests; prints lines like the guest's benchmark:
 *
 *   BENCH libfclog_parse <structured|legacy> <records/s> rec/s ...
 *
 * Each of the SAMPLES samples parses batches of 1,000 records for at least
 * 0.1 s times the one argument (BENCH_SCALE), at least 10 ms.
 *
 * "fclog_parse_bench --count N MODE" parses N records of MODE and prints
 * nothing: tests/bench/parse-insn counts its instructions under valgrind.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fclog.h"

#define SAMPLES	11
#define LINE	"e tmpfs: Unknown parameter 'nosuch'\n"
#define JSON	"{\"seq\":12345,\"level\":\"error\",\"source\":\"tmpfs\"," \
		"\"msg\":\"Unknown parameter 'nosuch'\"}"

static const char structured[] = LINE "\0" JSON;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* @n times fclog_parse() and fclog_record_free() of @rec. */
static void parse(const char *mode, const char *rec, size_t len, long n)
{
	struct fclog_record *r;
	char err[128];
	long i;

	for (i = 0; i < n; i++) {
		if (fclog_parse(rec, len, &r, err, sizeof(err))) {
			fprintf(stderr, "fclog_parse_bench: %s: %s\n", mode, err);
			exit(1);
		}
		fclog_record_free(r);
	}
}

static void bench(const char *mode, const char *rec, size_t len,
		  double seconds)
{
	double v[SAMPLES], t, elapsed;
	long n;
	int s;

	for (s = -1; s < SAMPLES; s++) {	/* sample -1 warms up */
		t = now();
		n = 0;
		do {
			parse(mode, rec, len, 1000);
			n += 1000;
			elapsed = now() - t;
		} while (elapsed < seconds);
		if (s >= 0)
			v[s] = n / elapsed;
	}
	qsort(v, SAMPLES, sizeof(*v), cmp_double);
	printf("BENCH libfclog_parse %s %.0f rec/s samples=%d min=%.0f max=%.0f bytes=%zu\n",
	       mode, v[SAMPLES / 2], SAMPLES, v[0], v[SAMPLES - 1], len);
}

int main(int argc, char **argv)
{
	double scale = argc > 1 ? strtod(argv[1], NULL) : 1;
	double seconds = scale > 0 ? 0.1 * scale : 0.1;

	/* sizeof - 1: the record ends at the object, no NUL after it. */
	if (argc == 4 && !strcmp(argv[1], "--count")) {
		if (!strcmp(argv[3], "structured"))
			parse(argv[3], structured, sizeof(structured) - 1,
			      strtol(argv[2], NULL, 10));
		else
			parse(argv[3], LINE, strlen(LINE),
			      strtol(argv[2], NULL, 10));
		return 0;
	}
	if (seconds < 0.01)
		seconds = 0.01;
	bench("structured", structured, sizeof(structured) - 1, seconds);
	bench("legacy", LINE, strlen(LINE), seconds);
	return 0;
}
