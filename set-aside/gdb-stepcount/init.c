#define _GNU_SOURCE
#include <sys/syscall.h>
#include <sys/reboot.h>
#include <unistd.h>
#include <stdio.h>
#include <linux/mount.h>
int main(void)
{
	int fd = syscall(SYS_fsopen, "tmpfs", 0);
	long r;
	/* two warm-up calls, then getppid() marks the traced call */
	syscall(SYS_fsconfig, fd, FSCONFIG_SET_STRING, "mode", "0700", 0);
	syscall(SYS_fsconfig, fd, FSCONFIG_SET_STRING, "mode", "0700", 0);
	syscall(SYS_getppid);
	r = syscall(SYS_fsconfig, fd, FSCONFIG_SET_STRING, "mode", "0700", 0);
	syscall(SYS_getppid);
	printf("done %ld\n", r);
	reboot(RB_POWER_OFF);
	return 0;
}
