/* file_hash.h - hashing input files (Nettle's SHA-256). */
#ifndef PQ_FILE_HASH_H
#define PQ_FILE_HASH_H

#include <pthread.h>

#include "error.h"

/* The SHA-256 of the file's bytes as lower-case hex (64 characters and a NUL) into hex; -1 with
 * err set when the file cannot be read. */
int pq_file_sha256(const char *path, char hex[65], pq_error *err);

/* The same hash on a thread of its own, while the caller reads the file too (an import). The
 * thread runs at idle priority (SCHED_IDLE) until it is waited for: it takes the CPU time the
 * import leaves (the reader's slack, the second core while indexes are built) instead of sharing
 * the importer's. */
typedef struct pq_file_hasher {
	char path[4096];
	char hex[65];
	pq_error err;
	int rc, started, stop;
	pthread_t thread;
	pthread_mutex_t mu;
} pq_file_hasher;

int pq_file_hasher_start(pq_file_hasher *h, const char *path, pq_error *err);
/* The hash (hex) once the thread is done; NULL with err set when the file could not be read. */
const char *pq_file_hasher_wait(pq_file_hasher *h, pq_error *err);
/* Stops the thread if it still runs and joins it; harmless after wait, or when never started. */
void pq_file_hasher_stop(pq_file_hasher *h);

#endif
