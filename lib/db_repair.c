/* db_repair.c - closing the runs whose writers are gone (a recorder killed with -9, a machine
 * that went down): status 'aborted', the span up to the run's last commit, and the event indexes
 * the recording had deferred built again once no run is being written.
 *
 * A run is being written while some process holds its lock (runlock.h): profq record's launcher
 * for the whole recording, every recorded process while it writes. Runs written in one
 * transaction (profq import) are never seen open by anyone else.
 */
#include "db.h"

#include <inttypes.h>
#include <stdio.h>

#include "runlock.h"
#include "version.h"

/* The run's span when it was never finished: from its first event to its last commit (on the
 * Unix epoch, where the store records commit times) or else its last event. */
static const char close_sql[] =
	"UPDATE runs SET status = 'aborted',"
	" start_ns = coalesce(start_ns, (SELECT min(t) FROM ("
	"  SELECT min(start_ns) t FROM kernels WHERE run_id = ?1"
	"  UNION ALL SELECT min(start_ns) FROM memcpys WHERE run_id = ?1"
	"  UNION ALL SELECT min(start_ns) FROM memsets WHERE run_id = ?1"
	"  UNION ALL SELECT min(start_ns) FROM api_calls WHERE run_id = ?1"
	"  UNION ALL SELECT min(start_ns) FROM ranges WHERE run_id = ?1"
	"  UNION ALL SELECT min(ts_ns) FROM marks WHERE run_id = ?1))),"
	" end_ns = coalesce(end_ns,"
	"  iif(time_base = 'unix', (SELECT value FROM run_metadata"
	"   WHERE run_id = ?1 AND key = 'last_commit_ns'), NULL),"
	"  (SELECT max(t) FROM ("
	"  SELECT max(end_ns) t FROM kernels WHERE run_id = ?1"
	"  UNION ALL SELECT max(end_ns) FROM memcpys WHERE run_id = ?1"
	"  UNION ALL SELECT max(end_ns) FROM memsets WHERE run_id = ?1"
	"  UNION ALL SELECT max(end_ns) FROM api_calls WHERE run_id = ?1"
	"  UNION ALL SELECT max(coalesce(end_ns, start_ns)) FROM ranges WHERE run_id = ?1"
	"  UNION ALL SELECT max(ts_ns) FROM marks WHERE run_id = ?1)))"
	" WHERE id = ?1 AND status = 'open'";

static const char note_sql[] =
	"INSERT OR REPLACE INTO run_metadata(run_id, key, value) VALUES (?1, 'aborted', "
	"'its writers are gone (no process holds the run lock); closed by profq " PROFQ_VERSION
	" at ' || strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))";

static int close_run(sqlite3 *db, int64_t id, pq_error *err)
{
	const char *sql[] = { close_sql, note_sql };

	for (int i = 0; i < 2; i++) {
		sqlite3_stmt *st = NULL;
		int rc = sqlite3_prepare_v2(db, sql[i], -1, &st, NULL);

		if (rc == SQLITE_OK) {
			sqlite3_bind_int64(st, 1, id);
			rc = sqlite3_step(st);
		}
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE)
			return pq_fail(err, "cannot close run %" PRId64 ": %s", id, sqlite3_errmsg(db));
	}
	return 0;
}

int pq_db_repair_runs(sqlite3 *db, pq_repair *r, pq_error *err)
{
	const char *path = sqlite3_db_filename(db, "main");
	sqlite3_stmt *st = NULL;
	int64_t ids[PQ_REPAIR_MAX];
	int n = 0, rc;

	r->closed = r->live = r->indexes_built = 0;
	if (path == NULL || *path == '\0')
		return 0;  /* an in-memory database has no other writers */
	if (sqlite3_prepare_v2(db, "SELECT id FROM runs WHERE status = 'open' ORDER BY id", -1, &st,
			       NULL) != SQLITE_OK)
		return pq_fail(err, "cannot read the runs: %s", sqlite3_errmsg(db));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);

		/* Cannot tell (no permission on the lock file): leave it open. */
		if (pq_run_lock_held(path, id) != 0)
			r->live++;
		else if (n < PQ_REPAIR_MAX)
			ids[n++] = id;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return pq_fail(err, "cannot read the runs: %s", sqlite3_errmsg(db));
	for (int i = 0; i < n; i++) {
		if (close_run(db, ids[i], err) != 0)
			return -1;
		r->ids[r->closed++] = ids[i];
	}
	/* A live recording writes without the indexes on purpose; it builds them when it ends. */
	if (r->live == 0) {
		pq_run_lock_sweep(path);
		r->indexes_built = pq_db_missing_event_indexes(db);
		if (r->indexes_built > 0 && pq_db_build_event_indexes(db, NULL, err) != 0)
			return -1;
		if (r->indexes_built < 0)
			r->indexes_built = 0;
	}
	return 0;
}
