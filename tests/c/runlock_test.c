/* runlock_test.c - run locks: held while a holder lives (or until it dies, however it ends),
 * shared by several holders, the lock file gone with the last one. */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runlock.h"
#include "tap.h"

int main(void)
{
	char dir[] = "/tmp/pq_runlock.XXXXXX", db[64], lockfile[80];
	int a = -1, b = -1, pipefd[2];
	pq_error err;
	pid_t child;
	char c;

	if (mkdtemp(dir) == NULL)
		return 1;
	snprintf(db, sizeof(db), "%s/p.db", dir);
	snprintf(lockfile, sizeof(lockfile), "%s-lock", db);

	is_int(pq_run_lock_held(db, 3), 0, "no lock file: nobody holds run 3");
	ok(pq_run_lock_acquire(db, 3, &a, &err) == 0 && a >= 0, "take run 3");
	is_int(pq_run_lock_held(db, 3), 1, "run 3 is held");
	is_int(pq_run_lock_held(db, 4), 0, "run 4 is not");
	ok(pq_run_lock_acquire(db, 3, &b, &err) == 0, "a second holder of run 3 (shared)");
	pq_run_lock_release(db, a);
	is_int(pq_run_lock_held(db, 3), 1, "the first leaving keeps it held");
	ok(access(lockfile, F_OK) == 0, "and the lock file stays");
	pq_run_lock_release(db, b);
	is_int(pq_run_lock_held(db, 3), 0, "the last leaving frees it");
	ok(access(lockfile, F_OK) != 0, "and removes the lock file");

	/* A holder killed with SIGKILL: the kernel drops its lock. */
	if (pipe(pipefd) != 0 || (child = fork()) < 0)
		return 1;
	if (child == 0) {
		int fd;

		close(pipefd[0]);
		if (pq_run_lock_acquire(db, 7, &fd, &err) != 0 || write(pipefd[1], "x", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(pipefd[1]);
	ok(read(pipefd[0], &c, 1) == 1, "a child process takes run 7");
	is_int(pq_run_lock_held(db, 7), 1, "held while it lives");
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	is_int(pq_run_lock_held(db, 7), 0, "free once it is killed with -9");
	ok(access(lockfile, F_OK) == 0, "its lock file is left behind");
	pq_run_lock_sweep(db);
	ok(access(lockfile, F_OK) != 0, "pq_run_lock_sweep removes a file nobody holds");
	rmdir(dir);
	return done_testing();
}
