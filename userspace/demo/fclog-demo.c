// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fclog-demo: make the kernel log a few typical mount-API messages and show
 * exactly what a reader of the fs_context fd gets back.
 *
 * Each scenario prints the call, its result, then every record read from
 * the context fd until ENODATA, with non-printable bytes escaped so that
 * nothing the kernel sent is hidden.  Contexts are opened with
 * FSOPEN_STRUCTURED_LOG, so each record shows as its text line and its JSON
 * object, and FSOPEN_RETRY, so that a create that failed leaving no trace
 * leaves the fd taking parameters; on a kernel without the flags the demo
 * says so and shows the legacy lines.
 *
 * Then the story the structured rejections are for: fclog-retry asked for
 * a mix of good and bad options mounts with the good ones, saying what it
 * dropped and why, and the mount table shows what the kernel applied.
 * Then whether the superblock in use already has what a context asks for:
 * debugfs with mode=0700, a CREATE_EXCL refused without a comparison,
 * FSCONFIG_CMD_CREATE_COMPATIBLE sharing it for mode=0700 as it is (not
 * reconfigured), refusing mode=0755 as differing, and the same fd, given
 * mode=0700, sharing it; sysfs, which does not compare, having the
 * superblock in use refused as unverifiable (EBUSY); and fclog-retry
 * --reuse-if-compatible doing the same.
 * Last, a flood: the error stays, and the loss is counted.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
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

static unsigned int open_flags = FSOPEN_CLOEXEC | FSOPEN_STRUCTURED_LOG |
				  FSOPEN_RETRY;

/*
 * Read every record, each read sized as fclog(7) says: FIONREAD gives the
 * size of the next one.  A kernel without it for a context (ENOTTY) is
 * read with a buffer far larger than any line it logs.
 */
static void drain(int fd)
{
	static unsigned char *buf;
	static size_t size;
	unsigned char *bigger;
	size_t text, want;
	ssize_t n;
	int next;

	for (;;) {
		if (ioctl(fd, FIONREAD, &next) < 0)
			want = 65536;
		else
			want = next > 0 ? (size_t)next : 1;
		if (want > size) {
			bigger = realloc(buf, want);
			if (!bigger) {
				puts("    read: no memory for the record");
				return;
			}
			buf = bigger;
			size = want;
		}
		n = read(fd, buf, size);
		if (n < 0)
			break;
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

/*
 * Every record of @log, one line each, with what the kernel says of it:
 * its event and cause, the superblock, and how that compares with what the
 * context set, parameter by parameter.
 */
static void show_records(fclog_t *log)
{
	struct fclog_record *rec;
	size_t i;

	while (fclog_next(log, &rec) > 0) {
		fputs("    ", stdout);
		fclog_print(stdout, rec, 0);
		if (rec->event_name) {
			printf("      %s", rec->event_name);
			if (rec->cause_name)
				printf(", cause %s", rec->cause_name);
			if (rec->sb_type)
				printf(", superblock %s:%s", rec->sb_type,
				       rec->sb_id ?: "?");
			if (rec->recoverable != FCLOG_TRI_UNKNOWN)
				printf(", %s", rec->recoverable == FCLOG_TRI_TRUE ?
				       "recoverable (the fd takes parameters again)" :
				       "not recoverable");
			if (rec->params_applied != FCLOG_TRI_UNKNOWN)
				printf(", parameters %s",
				       rec->params_applied == FCLOG_TRI_TRUE ?
				       "then applied to it" : "not applied");
			putchar('\n');
		}
		if (rec->verdict_name) {
			printf("      verdict: %s%s\n", rec->verdict_name,
			       rec->nparams ? "" : " (no parameter set)");
			for (i = 0; i < rec->nparams; i++)
				printf("        %-10s %s\n", rec->params[i].name,
				       rec->params[i].match_name);
		}
		fclog_record_unref(rec);
	}
}

static int mode_of(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (int)(st.st_mode & 07777);
}

/*
 * fsconfig(@fd, @cmd) on a context of @fstype, shown as "call = result",
 * then the log; 0 or the errno.
 */
static int create_cmd(const char *fstype, int fd, fclog_t *log,
		      unsigned int cmd)
{
	static const char *const names[] = {
		[FSCONFIG_CMD_CREATE] = "CMD_CREATE",
		[FSCONFIG_CMD_CREATE_EXCL] = "CMD_CREATE_EXCL",
		[FSCONFIG_CMD_CREATE_COMPATIBLE] = "CMD_CREATE_COMPATIBLE",
	};
	char what[128];
	int ret, err;

	snprintf(what, sizeof(what), "fsconfig(%s, %s)", fstype, names[cmd]);
	ret = sys_fsconfig(fd, cmd, NULL, NULL, 0);
	err = errno;
	report(what, ret);
	show_records(log);
	return ret ? err : 0;
}

/* A debugfs context with mode=@mode set, and its reader. */
static int debugfs_with(const char *mode, fclog_t **log)
{
	char what[128];
	int fd = sys_fsopen("debugfs", open_flags);

	*log = NULL;
	if (fd < 0) {
		report("fsopen(debugfs)", fd);
		return -1;
	}
	*log = fclog_new(fd);
	snprintf(what, sizeof(what), "fsconfig(debugfs, SET_STRING, \"mode\", \"%s\")",
		 mode);
	report(what, sys_fsconfig(fd, FSCONFIG_SET_STRING, "mode", mode, 0));
	show_records(*log);
	return fd;
}

static void done_with(int fd, fclog_t *log)
{
	fclog_free(log);
	close(fd);
}

/* Mount what @fd created, and say whether it is the debugfs in use. */
static void mount_and_compare(int fd)
{
	struct stat st, in_use;
	int mfd = sys_fsmount(fd, FSMOUNT_CLOEXEC, 0);

	if (mfd < 0 || fstat(mfd, &st) || stat("/sys/kernel/debug", &in_use)) {
		report("fsmount", mfd);
		return;
	}
	printf("    fsmount: %s superblock as /sys/kernel/debug (dev %u:%u), mode %04o\n",
	       st.st_dev == in_use.st_dev ? "the same" : "another",
	       major(st.st_dev), minor(st.st_dev), st.st_mode & 07777);
	close(mfd);
}

/*
 * Does the superblock in use already have what I asked for?  debugfs has
 * one superblock: a plain CREATE shares it and applies the new mode to
 * everyone's mount, CREATE_EXCL refuses it whatever it has; the kernel
 * compares, and CREATE_COMPATIBLE shares it only when everything matches.
 */
static void compatible(void)
{
	static char *const refused[] = {
		"fclog-retry", "-t", "debugfs", "--exclusive",
		"--reuse-if-compatible", "-r", "mode=0755",
		"none", "/tmp/fclog-demo", NULL
	};
	static char *const shared[] = {
		"fclog-retry", "-t", "debugfs", "--exclusive",
		"--reuse-if-compatible", "-r", "mode=0700", "-o", "gid=0",
		"none", "/tmp/fclog-demo", NULL
	};
	static char *const sysfs[] = {
		"fclog-retry", "-t", "sysfs", "--exclusive",
		"--reuse-if-compatible", "none", "/tmp/fclog-demo", NULL
	};
	fclog_t *log;
	int fd;

	puts("\n-- does the superblock in use already have what I asked for? --");
	puts("debugfs, mode=0700 (a plain CREATE applies it to the superblock in use):");
	fd = debugfs_with("0700", &log);
	if (fd < 0)
		return;
	create_cmd("debugfs", fd, log, FSCONFIG_CMD_CREATE);
	done_with(fd, log);
	printf("    /sys/kernel/debug: mode %04o\n", mode_of("/sys/kernel/debug"));

	puts("\nCREATE_EXCL refuses it, whatever it has: nothing is compared:");
	fd = debugfs_with("0700", &log);
	create_cmd("debugfs", fd, log, FSCONFIG_CMD_CREATE_EXCL);
	done_with(fd, log);

	puts("\nCREATE_COMPATIBLE with mode=0700 shares it, as it is (not reconfigured):");
	fd = debugfs_with("0700", &log);
	if (create_cmd("debugfs", fd, log, FSCONFIG_CMD_CREATE_COMPATIBLE) == EOPNOTSUPP) {
		puts("    (this kernel has no FSCONFIG_CMD_CREATE_COMPATIBLE: it cannot compare)");
		done_with(fd, log);
		return;
	}
	mount_and_compare(fd);
	done_with(fd, log);

	puts("\nCREATE_COMPATIBLE with mode=0755 is refused, naming the mode; nothing changes:");
	fd = debugfs_with("0755", &log);
	create_cmd("debugfs", fd, log, FSCONFIG_CMD_CREATE_COMPATIBLE);
	printf("    /sys/kernel/debug: mode %04o\n", mode_of("/sys/kernel/debug"));
	puts("...the same fd, given mode=0700, shares it:");
	report("fsconfig(debugfs, SET_STRING, \"mode\", \"0700\")",
	       sys_fsconfig(fd, FSCONFIG_SET_STRING, "mode", "0700", 0));
	show_records(log);
	if (!create_cmd("debugfs", fd, log, FSCONFIG_CMD_CREATE_COMPATIBLE))
		mount_and_compare(fd);
	done_with(fd, log);

	puts("\nsysfs does not compare: it cannot vouch for the superblock in use, which");
	puts("CREATE_COMPATIBLE refuses (EBUSY, unverifiable), whatever the context set:");
	fd = sys_fsopen("sysfs", open_flags);
	if (fd >= 0) {
		log = fclog_new(fd);
		create_cmd("sysfs", fd, log, FSCONFIG_CMD_CREATE_COMPATIBLE);
		done_with(fd, log);
	}

	puts("\nfclog-retry --reuse-if-compatible: one call, shared only if everything matches");
	retry(refused, "/tmp/fclog-demo");
	puts("");
	retry(shared, "/tmp/fclog-demo");
	puts("");
	retry(sysfs, "/tmp/fclog-demo");
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
		fclog_record_unref(rec);
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
		puts("(this kernel has no FSOPEN_STRUCTURED_LOG nor FSOPEN_RETRY: legacy lines only)");
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
	compatible();
	puts("\n-- a flood: one error, then 100 warnings into a 64-record log --");
	flood();
	puts("== end of demonstration ==");
	return 0;
}
