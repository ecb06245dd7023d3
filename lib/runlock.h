/* runlock.h - who is still writing a run: a lock each writer of a run holds while the run is open.
 *
 * The lock file is the database's path + "-lock"; a writer holds a shared open-file-description
 * lock (Linux F_OFD_SETLK) on byte <run id> of it. The kernel drops the lock when the last
 * descriptor of its holder closes, however it ends (kill -9 included), so "no process holds the
 * lock" is exactly "every writer of the run is gone". A separate file, not the database, because
 * closing any descriptor of the database would drop SQLite's own POSIX locks in this process.
 * The last holder to leave removes the file (taking the whole file first, so no holder is left);
 * a new holder checks that the file it locked is still the one the path names.
 */
#ifndef PQ_RUNLOCK_H
#define PQ_RUNLOCK_H

#include <stdint.h>

#include <sqlite3.h>

#include "error.h"

/* Takes run_id's lock for db_path; *fd receives the descriptor that holds it (close it only
 * through pq_run_lock_release). */
int pq_run_lock_acquire(const char *db_path, int64_t run_id, int *fd, pq_error *err);

/* Drops the lock held through fd (nothing when fd < 0), and removes the lock file when nobody
 * holds anything in it any more. */
void pq_run_lock_release(const char *db_path, int fd);

/* Removes a lock file that no process holds anything in (one a killed writer left). */
void pq_run_lock_sweep(const char *db_path);

/* 1 when some process holds run_id's lock, 0 when none does, -1 when it cannot tell. */
int pq_run_lock_held(const char *db_path, int64_t run_id);

/* Registers profq_run_live(run_id) on db: 1 while a writer holds the run's lock, 0 when none does,
 * NULL when it cannot tell. Direct-only: never callable from a view or trigger of a file. */
int pq_run_lock_sql(sqlite3 *db);

#endif
