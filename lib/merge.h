/* merge.h - putting the runs of several profiles (ranks of one job, say) into one database.
 *
 * Every run of every input is copied whole: its rows in every table that has a run_id (and the
 * run itself), with new ids, names re-interned into the output's strings, and every reference
 * (process, thread, device, stream, NVTX domain, parent range, string) pointed at the new rows.
 * A run the output (or an earlier input) already holds is refused: the same run_metadata
 * source_sha256 when both have one, else the same source, source_path, created_utc and row
 * counts. Inputs are only read (opened read-only). The output is built in a temporary file next
 * to it, renamed over it at the end; a failure removes it and leaves any existing output as it was.
 */
#ifndef PQ_MERGE_H
#define PQ_MERGE_H

#include <stdint.h>

#include "error.h"

typedef struct pq_merge pq_merge;

/* One run copied by pq_merge_add(). */
typedef struct pq_merged_run {
	int64_t from_run, run_id, rank;  /* run id in the input, in the output; rank (or PQ_NULL) */
	int64_t rows;                    /* event rows copied */
} pq_merged_run;

/* Starts a merge into out (created, or an existing profq database whose runs are kept). The
 * caller ends with pq_merge_commit() or pq_merge_abort(). */
int pq_merge_open(const char *out, pq_merge **m, pq_error *err);

/* Adds every run of the input file: a profq database, or any file `profq import` takes (imported
 * into a temporary database first; its distributedInfo gives the rank). rank, when not PQ_NULL,
 * is the rank of the input's run (an input with several runs cannot take one). runs (may be NULL)
 * receives a malloc'ed array of what was copied, *nruns its length; the caller frees it. */
int pq_merge_add(pq_merge *m, const char *input, int64_t rank, pq_merged_run **runs,
		 size_t *nruns, pq_error *err);

/* Builds the indexes, commits and renames the output into place; frees m. */
int pq_merge_commit(pq_merge *m, pq_error *err);

/* Throws the temporary output away; frees m. NULL is allowed. */
void pq_merge_abort(pq_merge *m);

#endif
