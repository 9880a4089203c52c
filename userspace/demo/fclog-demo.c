// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fclog-demo: make the kernel log a few typical mount-API messages and show
 * exactly what a reader of the fs_context fd gets back.
 *
 * Each scenario prints the call, its result, then every record read from
 * the context fd until ENODATA, with non-printable bytes escaped so that
 * nothing the kernel sent is hidden.  Contexts are opened with
 * FSOPEN_STRUCTURED_LOG, so each record shows as its text line and its JSON
 * object; on a kernel without the flag the demo says so and shows the
 * legacy lines.
 *
 * Then the story the structured rejections are for: fclog-retry asked for
 * a mix of good and bad options mounts with the good ones, saying what it
 * dropped and why, and the mount table shows what the kernel applied.
 * Last, a flood: the error stays, and the loss is counted.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fclog.h"
#include "mount_api.h"

static void print_escaped(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i] == '\n')
			fputs("\\n", stdout);
		else if (p[i] == '\\')
			fputs("\\\\", stdout);
		else if (isprint(p[i]))
			putchar(p[i]);
		else
			printf("\\x%02x", p[i]);
	}
}

static unsigned int open_flags = FSOPEN_CLOEXEC | FSOPEN_STRUCTURED_LOG;

static void drain(int fd)
{
	unsigned char buf[FSCONTEXT_LOG_RECORD_MAX];
	size_t text;
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) >= 0) {
		text = strnlen((char *)buf, n);
		fputs("    text: \"", stdout);
		print_escaped(buf, text);
		puts("\"");
		if (text < (size_t)n)
			printf("    json: %.*s\n", (int)(n - text - 1),
			       buf + text + 1);
	}
	printf("    read: %s\n", errno == ENODATA ? "ENODATA (log empty)" :
						  strerror(errno));
}

static void report(const char *what, int ret)
{
	printf("%s = %d%s%s\n", what, ret, ret < 0 ? " " : "",
	       ret < 0 ? strerrorname_np(errno) : "");
}

static void set_string(const char *fstype, const char *key, const char *val)
{
	char what[256];
	int fd = sys_fsopen(fstype, open_flags);

	if (fd < 0) {
		report("fsopen", fd);
		return;
	}
	snprintf(what, sizeof(what), "fsconfig(%s, SET_STRING, \"%s\", \"%s\")",
		 fstype, key, val);
	report(what, sys_fsconfig(fd, FSCONFIG_SET_STRING, key, val, 0));
	drain(fd);
	close(fd);
}

static void create_excl(const char *fstype)
{
	char what[256];
	int fd = sys_fsopen(fstype, open_flags);

	if (fd < 0) {
		report("fsopen", fd);
		return;
	}
	snprintf(what, sizeof(what), "fsconfig(%s, CMD_CREATE_EXCL)", fstype);
	report(what, sys_fsconfig(fd, FSCONFIG_CMD_CREATE_EXCL, NULL, NULL, 0));
	drain(fd);
	close(fd);
}

/* The mount at @target as /proc/self/mountinfo has it, from its mount point on. */
static void show_mount(const char *target)
{
	char line[1024], *p;
	FILE *f = fopen("/proc/self/mountinfo", "r");
	int i;

	while (f && fgets(line, sizeof(line), f)) {
		/* "id parent dev root MOUNTPOINT options - type source opts" */
		for (p = line, i = 0; p && i < 4; i++)
			p = strchr(p, ' ') ? strchr(p, ' ') + 1 : NULL;
		if (p && !strncmp(p, target, strlen(target)) &&
		    p[strlen(target)] == ' ')
			printf("    mountinfo: %s", p);
	}
	if (f)
		fclose(f);
}

/*
 * Run /bin/fclog-retry with @argv (its own output shows each attempt, each
 * rejection and the options kept), then show the mount it made.
 */
static void retry(char *const argv[], const char *target)
{
	int status, i;
	pid_t pid;

	fputs("$", stdout);
	for (i = 0; argv[i]; i++)
		printf(" %s", argv[i]);
	putchar('\n');
	fflush(stdout);
	mkdir(target, 0755);
	pid = fork();
	if (pid == 0) {
		execv("/bin/fclog-retry", argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return;
	printf("    (exit status %d)\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	show_mount(target);
	umount2(target, MNT_DETACH);
}

static void retrier(void)
{
	static char *const tmpfs[] = {
		"fclog-retry", "-t", "tmpfs", "-r", "mode=0750",
		"-o", "size=4m", "-o", "nosuchopt", "-o", "size=lots",
		"-o", "noswap=yes", "-o", "nr_inodes=1k",
		"-o", "uid=4294967295",
		"none", "/tmp/fclog-demo", NULL
	};
	static char *const mqueue[] = {
		"fclog-retry", "-t", "mqueue", "--exclusive", "--allow-reuse",
		"none", "/tmp/fclog-demo", NULL
	};

	puts("\n-- fclog-retry: mount with what the kernel accepts, by cause --");
	retry(tmpfs, "/tmp/fclog-demo");
	puts("");
	retry(mqueue, "/tmp/fclog-demo");
}

/* One error, then a flood of warnings: the error stays, the loss is counted. */
static void flood(void)
{
	struct fclog_record *rec;
	int fd, i, shown = 0, records = 0;
	fclog_t *log;

	fd = sys_fsopen("vfat", open_flags);
	if (fd < 0)
		return;
	puts("fsconfig(vfat, SET_FLAG, \"nosuch\"), then 100 x fsconfig(vfat, SET_FLAG, \"posix\")");
	sys_fsconfig(fd, FSCONFIG_SET_FLAG, "nosuch", NULL, 0);
	for (i = 0; i < 100; i++)
		sys_fsconfig(fd, FSCONFIG_SET_FLAG, "posix", NULL, 0);
	log = fclog_new(fd);
	while (log && fclog_next(log, &rec) > 0) {
		if (shown < 3) {
			printf("    record seq %llu%s: ",
			       (unsigned long long)rec->seq,
			       rec->lost ? " (a marker of lost records)" : "");
			fclog_print(stdout, rec, 0);
			shown++;
		}
		records++;
		fclog_record_free(rec);
	}
	if (log)
		printf("    ... %d records read, %llu reported lost\n", records,
		       (unsigned long long)fclog_lost(log));
	fclog_free(log);
	close(fd);
}

int main(void)
{
	int probe = sys_fsopen("tmpfs", open_flags);

	puts("== fc_log demonstration: what a reader of an fs_context fd sees ==");
	if (probe < 0 && errno == EINVAL) {
		puts("(this kernel has no FSOPEN_STRUCTURED_LOG: legacy lines only)");
		open_flags = FSOPEN_CLOEXEC;
	} else if (probe >= 0) {
		close(probe);
	}
	puts("\n-- the records, byte for byte --");
	set_string("tmpfs", "x", "1");
	set_string("tmpfs", "size", "lots");
	set_string("tmpfs", "mode", "0999");
	create_excl("debugfs");
	create_excl("mqueue");
	retrier();
	puts("\n-- a flood: one error, then 100 warnings into a 64-record log --");
	flood();
	puts("== end of demonstration ==");
	return 0;
}
