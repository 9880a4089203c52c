// SPDX-License-Identifier: GPL-2.0
/*
 * What poll(), select() and epoll make of a filesystem context fd, on the
 * stock kernel and with the series: the one change of the fc-log posting
 * that a program can see without reading a record, so its covers and
 * changelogs call it ABI.  Stock's fd has no ->poll: poll() and select()
 * get DEFAULT_POLLMASK (readable and writable, always) and epoll refuses
 * the fd (EPERM).  With the series the fd is readable exactly while a read
 * would return something, never writable, and epoll takes it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <unistd.h>

#include "mount_api.h"
#include "fctest.h"
#include "kselftest_harness.h"

#define ALWAYS (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM)

FIXTURE(ctx) {
	int fd;
};

FIXTURE_SETUP(ctx)
{
	self->fd = sys_fsopen("tmpfs", FSOPEN_CLOEXEC);
	ASSERT_GE(self->fd, 0);
}

FIXTURE_TEARDOWN(ctx)
{
	close(self->fd);
}

static short poll_now(int fd)
{
	/* poll() masks what it returns with what is asked: ask for all. */
	struct pollfd p = { .fd = fd, .events = ALWAYS | POLLPRI };

	if (poll(&p, 1, 0) < 0)
		return -1;
	return p.revents;
}

/* Log one message: tmpfs has no flag "x". */
static void log_one(int fd)
{
	sys_fsconfig(fd, FSCONFIG_SET_FLAG, "x", NULL, 0);
}

TEST_F(ctx, poll_with_nothing_to_read)
{
	short revents = poll_now(self->fd);

	if (fctest_kernel_has_series()) {
		EXPECT_EQ(0, revents);
	} else {
		EXPECT_EQ(ALWAYS, revents);
	}
}

TEST_F(ctx, poll_with_a_message)
{
	short revents;

	log_one(self->fd);
	revents = poll_now(self->fd);
	if (fctest_kernel_has_series()) {
		EXPECT_EQ(POLLIN | POLLRDNORM, revents);
	} else {
		EXPECT_EQ(ALWAYS, revents);
	}
}

TEST_F(ctx, select_with_nothing_to_read)
{
	struct timeval zero = { 0 };
	fd_set r, w;

	FD_ZERO(&r);
	FD_ZERO(&w);
	FD_SET(self->fd, &r);
	FD_SET(self->fd, &w);
	ASSERT_GE(select(self->fd + 1, &r, &w, NULL, &zero), 0);
	EXPECT_EQ(!fctest_kernel_has_series(), !!FD_ISSET(self->fd, &r));
	EXPECT_EQ(!fctest_kernel_has_series(), !!FD_ISSET(self->fd, &w));
}

TEST_F(ctx, epoll_ctl_add)
{
	struct epoll_event ev = { .events = EPOLLIN };
	int ep = epoll_create1(EPOLL_CLOEXEC), ret, err;

	ASSERT_GE(ep, 0);
	ret = epoll_ctl(ep, EPOLL_CTL_ADD, self->fd, &ev);
	err = errno;
	if (fctest_kernel_has_series()) {
		EXPECT_EQ(0, ret);
		log_one(self->fd);
		EXPECT_EQ(1, epoll_wait(ep, &ev, 1, 0));
		EXPECT_EQ(EPOLLIN, ev.events);
	} else {
		EXPECT_EQ(-1, ret);
		EXPECT_EQ(EPERM, err);
	}
	close(ep);
}

TEST_HARNESS_MAIN
