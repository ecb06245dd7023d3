/* sqlite_ceiling.c - what SQLite itself does with the writer's rows: the kernel rows writer_bench
 * stores (same columns, same values, the event indexes dropped as during a recording), inserted
 * through one reused prepared statement in 4 MiB-sized transactions, with none of profq's code in
 * the loop. Bindings stay across sqlite3_reset, so, as the writer does, a value equal to the
 * previous row's is not bound again. The writer cannot beat this; the gap between the two is
 * profq's own cost.
 *
 *   sqlite_ceiling ROWS DB */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "db.h"

#define COLS 34   /* kernels' columns after id */
#define PER_TXN 29127 /* rows per transaction: writer_bench's 4 MiB buffer of CUpti_ActivityKernel10 */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	long rows = argc > 1 ? atol(argv[1]) : 1000000;
	const char *path = argc > 2 ? argv[2] : "/tmp/profq-sqlite-ceiling.db";
	static const char sql[] =
		"INSERT INTO kernels(run_id, process_id, device_id, stream_id, start_ns, end_ns, "
		"correlation_id, external_id, name_id, demangled_name_id, short_name_id, grid_x, "
		"grid_y, grid_z, block_x, block_y, block_z, cluster_x, cluster_y, cluster_z, "
		"registers_per_thread, static_shared_bytes, dynamic_shared_bytes, "
		"local_bytes_per_thread, blocks_per_sm, warps_per_sm, est_occupancy_pct, launch_type, "
		"grid_id, graph_id, graph_node_id, queued_ns, submitted_ns, args) VALUES "
		"(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
	sqlite3 *db;
	sqlite3_stmt *st;
	pq_error err;
	double t0, t1;
	long long prev[COLS];

	unlink(path);
	if (pq_db_open(path, PQ_OPEN_CREATE, &db, NULL, &err) != 0 ||
	    pq_db_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
			   "PRAGMA cache_size=-65536; INSERT INTO runs(id, source, created_utc, profq_version) VALUES (1, 'bench', '', '')",
		       "setup", &err) != 0 ||
	    pq_db_drop_event_indexes(db, 0, &err) != 0 ||
	    sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		fprintf(stderr, "sqlite_ceiling: %s\n", err.msg);
		return 1;
	}
	t0 = now();
	for (long i = 0; i < rows; i++) {
		/* writer_bench's kernel i as the translator stores it: 3 names, 4 streams */
		const long long v[COLS] = {
			1, 1, 1, 1 + i % 4, 1000000000000000000LL + i * 2000,
			1000000000000000000LL + i * 2000 + 1500, i, -1, 2 + i % 3 * 2,
			i % 3 == 1 ? -1 : 3 + i % 3 * 2,
			4 + i % 3 * 2, 128, 1, 1, 256, 1, 1, -1, -1, -1, 0, 0, 0, 0, -1, -1, -1, 0, 0,
			-1, -1, -1, -1, -1,
		};
		if (i % PER_TXN == 0)
			sqlite3_exec(db, i ? "COMMIT; BEGIN" : "BEGIN", NULL, NULL, NULL);
		for (int c = 0; c < COLS; c++) {
			if (i > 0 && v[c] == prev[c])
				continue;
			if (v[c] < 0)
				sqlite3_bind_null(st, c + 1);
			else
				sqlite3_bind_int64(st, c + 1, v[c]);
			prev[c] = v[c];
		}
		if (sqlite3_step(st) != SQLITE_DONE) {
			fprintf(stderr, "sqlite_ceiling: %s\n", sqlite3_errmsg(db));
			return 1;
		}
		sqlite3_reset(st);
	}
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	t1 = now();
	printf("sqlite alone: %ld kernel rows in %.2f s = %.0f rows/s (no indexes, WAL)\n", rows,
	       t1 - t0, rows / (t1 - t0));
	sqlite3_finalize(st);
	sqlite3_close(db);
	return 0;
}
