/* clickhouse_push.h - loading one run of a profq database into ClickHouse.
 *
 * A run is pushed under a fresh push_id: every event table in large TabSeparated batches, then one
 * row in `runs`, the marker. Reports read only rows whose push_id is in `runs`, so a push that
 * fails half-way leaves rows nobody sees (and a later push of the run writes under a new id). The
 * run's key is its run_metadata 'source_sha256' (the imported file's sha256); without one, a
 * 64-bit FNV-1a hash over the run's description and its rows' counts and time sums ("rows:..."). */
#ifndef PQ_CLICKHOUSE_PUSH_H
#define PQ_CLICKHOUSE_PUSH_H

#include <stddef.h>

#include <sqlite3.h>

#include "clickhouse_http.h"

typedef struct pq_ch_push_result {
	char run_key[80];
	long long rank;        /* -1 when the run has none */
	long long rows;        /* event rows sent */
	double seconds;        /* wall time of the push */
	int already_there;     /* 1: the key was in `runs`, nothing was sent */
} pq_ch_push_result;

/* The run key of run_id, as described above, into key (size >= 80). */
int pq_ch_run_key(sqlite3 *db, long long run_id, char *key, size_t size, pq_error *err);

/* Pushes run run_id of db into ch (tables must exist: pq_ch_create_tables) as part of job, batches
 * of at most batch_rows rows. Returns 0 (pushed, or already there) or -1 with err set. */
int pq_ch_push_run(pq_ch *ch, sqlite3 *db, long long run_id, const char *job, size_t batch_rows,
		   pq_ch_push_result *res, pq_error *err);

#endif
