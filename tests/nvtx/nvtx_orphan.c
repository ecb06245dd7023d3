/* nvtx_orphan.c - a command that leaves a process behind, for tests/collector/orphans.t.
 *
 *   nvtx_orphan N STATUS   forks a grandchild and exits with STATUS at once; the grandchild waits
 *                          until it has been reparented (its parent is gone), prints
 *                          "orphan PID ppid PPID", makes N push/pop ranges "orphan" 2 ms apart,
 *                          then exits 7
 *   nvtx_orphan linger STATUS   the same, but the grandchild prints "ready" after its first range
 *                          and makes ranges until a signal kills it
 *
 * The parent prints "parent PID" and makes one mark "parent exiting" just before it exits.
 */
#define _GNU_SOURCE 1
#include <nvtx3/nvToolsExt.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void orphan(long n)
{
	for (long i = 0; n < 0 || i < n; i++) {
		nvtxRangePushA("orphan");
		usleep(2000);
		nvtxRangePop();
		if (n < 0 && i == 0) {
			printf("ready\n");
			fflush(stdout);
		}
	}
}

int main(int argc, char **argv)
{
	pid_t parent = getpid(), child;
	long n;

	if (argc != 3)
		return 2;
	n = strcmp(argv[1], "linger") == 0 ? -1 : atol(argv[1]);
	nvtxRangePushA("parent");
	nvtxRangePop();
	printf("parent %d\n", (int)parent);
	fflush(stdout);
	child = fork();
	if (child < 0)
		return 2;
	if (child == 0) {
		while (getppid() == parent)
			usleep(1000);
		printf("orphan %d ppid %d\n", (int)getpid(), (int)getppid());
		fflush(stdout);
		orphan(n);
		exit(7);
	}
	nvtxMarkA("parent exiting");
	return atoi(argv[2]);
}
