#define _GNU_SOURCE 1  /* F_OFD_SETLK, F_OFD_GETLK */
/* runlock.c - the run locks of runlock.h. */
#include "runlock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int lock_path(const char *db_path, char *out, size_t n)
{
	return snprintf(out, n, "%s-lock", db_path) < (int)n ? 0 : -1;
}

static int ofd_lock(int fd, int cmd, short type, int64_t start, int64_t len, struct flock *fl)
{
	memset(fl, 0, sizeof(*fl));
	fl->l_type = type;
	fl->l_whence = SEEK_SET;
	fl->l_start = (off_t)start;
	fl->l_len = (off_t)len;  /* 0: to the end of any file */
	return fcntl(fd, cmd, fl);
}

int pq_run_lock_acquire(const char *db_path, int64_t run_id, int *fd, pq_error *err)
{
	char path[4096];
	struct stat by_fd, by_path;
	struct flock fl;

	*fd = -1;
	if (run_id < 1 || lock_path(db_path, path, sizeof(path)) != 0)
		return pq_fail(err, "cannot lock run %lld of %s", (long long)run_id, db_path);
	for (;;) {
		int f = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

		if (f < 0)
			return pq_fail(err, "cannot create %s: %s", path, strerror(errno));
		/* Waits out a last holder that is removing the file (it holds all of it briefly). */
		while (ofd_lock(f, F_OFD_SETLKW, F_RDLCK, run_id, 1, &fl) != 0) {
			if (errno != EINTR) {
				pq_fail(err, "cannot lock %s: %s", path, strerror(errno));
				close(f);
				return -1;
			}
		}
		/* The file may have been removed between open and lock: then lock the new one. */
		if (fstat(f, &by_fd) == 0 && stat(path, &by_path) == 0 &&
		    by_fd.st_dev == by_path.st_dev && by_fd.st_ino == by_path.st_ino) {
			*fd = f;
			return 0;
		}
		close(f);
	}
}

void pq_run_lock_release(const char *db_path, int fd)
{
	char path[4096];
	struct stat by_fd, by_path;
	struct flock fl;

	if (fd < 0)
		return;
	/* Anyone else holding any byte makes this fail: then the file stays for them. */
	if (lock_path(db_path, path, sizeof(path)) == 0 &&
	    ofd_lock(fd, F_OFD_SETLK, F_WRLCK, 0, 0, &fl) == 0 &&
	    fstat(fd, &by_fd) == 0 && stat(path, &by_path) == 0 &&
	    by_fd.st_dev == by_path.st_dev && by_fd.st_ino == by_path.st_ino)
		unlink(path);
	close(fd);
}

void pq_run_lock_sweep(const char *db_path)
{
	char path[4096];
	int fd;

	if (lock_path(db_path, path, sizeof(path)) == 0 &&
	    (fd = open(path, O_RDWR | O_CLOEXEC)) >= 0)
		pq_run_lock_release(db_path, fd);
}

int pq_run_lock_held(const char *db_path, int64_t run_id)
{
	char path[4096];
	struct flock fl;
	int fd, rc;

	if (run_id < 1 || lock_path(db_path, path, sizeof(path)) != 0)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	/* Would a writer's lock on the run's byte be refused? Then a holder is there. */
	rc = ofd_lock(fd, F_OFD_GETLK, F_WRLCK, run_id, 1, &fl);
	close(fd);
	if (rc != 0)
		return -1;
	return fl.l_type != F_UNLCK;
}

static void run_live_func(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *path = sqlite3_db_filename(sqlite3_context_db_handle(ctx), "main");
	int held;

	(void)argc;
	if (sqlite3_value_type(argv[0]) != SQLITE_INTEGER || path == NULL || *path == '\0')
		return;
	held = pq_run_lock_held(path, sqlite3_value_int64(argv[0]));
	if (held >= 0)
		sqlite3_result_int(ctx, held);
}

int pq_run_lock_sql(sqlite3 *db)
{
	return sqlite3_create_function_v2(db, "profq_run_live", 1, SQLITE_UTF8 | SQLITE_DIRECTONLY,
					  NULL, run_live_func, NULL, NULL, NULL);
}
