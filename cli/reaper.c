#define _GNU_SOURCE 1  /* SYS_getdents64 */
/* reaper.c - subreaper, waiting for every descendant, forwarding signals to them (reaper.h). */
#include "reaper.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t direct_pid;

int pq_reaper_begin(void)
{
	return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0 ? 0 : -1;
}

void pq_reaper_set_direct(pid_t pid)
{
	direct_pid = pid;
}

long pq_reaper_wait_all(pid_t direct, int *status)
{
	long others = 0;
	int st;
	pid_t p;

	direct_pid = direct;
	for (;;) {
		p = waitpid(-1, &st, 0);
		if (p < 0) {
			if (errno == EINTR)
				continue;
			break;   /* ECHILD: nothing of the command is left */
		}
		if (p == direct) {
			*status = st;
			direct_pid = 0;
		} else {
			others++;
		}
	}
	return others;
}

/* The parent pid in /proc/PID/stat: the field after the ")" that closes the command name (which
 * may itself hold spaces and parentheses), then one state letter. */
static long stat_ppid(const char *buf, ssize_t n)
{
	ssize_t i = n - 1;
	long ppid = 0;

	while (i >= 0 && buf[i] != ')')
		i--;
	if (i < 0 || i + 4 >= n)
		return -1;
	for (i += 4; i < n && buf[i] >= '0' && buf[i] <= '9'; i++)
		ppid = ppid * 10 + (buf[i] - '0');
	return ppid;
}

/* Only raw system calls and no allocation: runs inside a signal handler. */
static void signal_children(int sig, pid_t except)
{
	char dents[4096], path[64], stat[512];
	pid_t self = getpid();
	long nread;
	int dir = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dir < 0)
		return;
	while ((nread = syscall(SYS_getdents64, dir, dents, sizeof(dents))) > 0) {
		for (long off = 0; off < nread;) {
			/* struct linux_dirent64: ino 8, off 8, reclen 2, type 1, name */
			unsigned short reclen;
			const char *name = dents + off + 19;
			long pid = 0;
			size_t k = 0;
			int fd;
			ssize_t got;

			__builtin_memcpy(&reclen, dents + off + 16, sizeof(reclen));
			off += reclen;
			for (; name[k] >= '0' && name[k] <= '9'; k++)
				pid = pid * 10 + (name[k] - '0');
			if (k == 0 || name[k] != '\0' || pid == self || pid == except)
				continue;
			/* "/proc/" + digits + "/stat", built by hand (no snprintf here) */
			{
				char digits[24];
				size_t nd = 0, m = 0;
				const char *pre = "/proc/", *post = "/stat";

				for (long v = pid; v > 0; v /= 10)
					digits[nd++] = (char)('0' + v % 10);
				for (; *pre; pre++)
					path[m++] = *pre;
				while (nd > 0)
					path[m++] = digits[--nd];
				for (; *post; post++)
					path[m++] = *post;
				path[m] = '\0';
			}
			if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
				continue;
			got = read(fd, stat, sizeof(stat));
			close(fd);
			if (got > 0 && stat_ppid(stat, got) == self)
				kill((pid_t)pid, sig);
		}
	}
	close(dir);
}

void pq_reaper_forward(int sig)
{
	int saved = errno;
	pid_t d = direct_pid;

	if (d > 0)
		kill(d, sig);
	signal_children(sig, d);
	errno = saved;
}
