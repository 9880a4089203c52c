/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Thin wrappers for the mount API system calls.
 *
 * glibc's <sys/mount.h> declares some of these but clashes with
 * <linux/mount.h>, and the fc_log v2 flags exist only in the uapi header
 * this project ships (include-uapi/).  Everything in userspace/ and tests/
 * therefore calls the syscalls directly through these wrappers.
 */
#ifndef MOUNT_API_H
#define MOUNT_API_H

#include <fcntl.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/mount.h>

static inline int sys_fsopen(const char *fs_name, unsigned int flags)
{
	return syscall(__NR_fsopen, fs_name, flags);
}

static inline int sys_fspick(int dfd, const char *path, unsigned int flags)
{
	return syscall(__NR_fspick, dfd, path, flags);
}

static inline int sys_fsconfig(int fd, unsigned int cmd, const char *key,
			       const void *value, int aux)
{
	return syscall(__NR_fsconfig, fd, cmd, key, value, aux);
}

static inline int sys_fsmount(int fd, unsigned int flags,
			      unsigned int attr_flags)
{
	return syscall(__NR_fsmount, fd, flags, attr_flags);
}

static inline int sys_move_mount(int from_dfd, const char *from_path,
				 int to_dfd, const char *to_path,
				 unsigned int flags)
{
	return syscall(__NR_move_mount, from_dfd, from_path, to_dfd, to_path,
		       flags);
}

#endif /* MOUNT_API_H */
