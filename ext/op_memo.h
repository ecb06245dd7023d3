/* op_memo.h - remembers op_flops / op_bytes results by their arguments' text, per connection.
 *
 * A trace repeats the same operator with the same shapes thousands of times (every step, every
 * layer of a kind), and kernel-flops asks op_flops and op_bytes for each kernel: parsing the same
 * JSON again cost ~5 µs a call. Both functions are deterministic, so a result found by the exact
 * bytes of the arguments is the result they would compute.
 */
#ifndef PQ_OP_MEMO_H
#define PQ_OP_MEMO_H

#include <stddef.h>
#include <stdint.h>

#include "ext.h"

typedef struct pq_op_memo pq_op_memo;

/* What one computation gives both functions: ok 0 means NULL for both. */
typedef struct {
	int ok_flops, ok_bytes;
	int64_t flops, bytes;
} pq_op_result;

/* A memo shared by n registrations of functions: each registration's xDestroy is
 * pq_op_memo_release, and the memo is freed with the last (n counts every registration attempted,
 * since sqlite3_create_function_v2 calls xDestroy when it fails too). NULL when out of memory. */
pq_op_memo *pq_op_memo_new(int n);
void pq_op_memo_release(void *memo);

/* The key of a call: the arguments' types and bytes, written into buf (size cap). 0 when they do
 * not fit (such calls are not remembered). */
size_t pq_op_memo_key(char *buf, size_t cap, int argc, sqlite3_value **argv);

/* 1 and *r when key was seen; 0 otherwise. */
int pq_op_memo_get(const pq_op_memo *m, const char *key, size_t len, pq_op_result *r);
/* Remembers key -> r, replacing what its slot held; a failed allocation just forgets. */
void pq_op_memo_put(pq_op_memo *m, const char *key, size_t len, const pq_op_result *r);

#endif
