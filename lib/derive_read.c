/* derive_read.c - reading for the derived tables computed in C (derive.h): statements over the
 * runs being derived, sets of ids, and what a view or a query says about each id. */
#include "derive.h"
#include "radix_sort.h"

#include <stdlib.h>
#include <string.h>

static int cmp_id(const void *pa, const void *pb)
{
	return pq_derive_cmp(*(const sqlite3_int64 *)pa, *(const sqlite3_int64 *)pb);
}

#define ID_KEY(x) (x)
PQ_RADIX_SORT(sort_ids, sqlite3_int64, ID_KEY)

size_t pq_derive_distinct(sqlite3_int64 *ids, size_t n)
{
	size_t m = 0;

	if (n < 2)
		return n;
	/* a radix sort (the ids of a run's kernels: 0.3 M on an nsys export); qsort without memory */
	if (sort_ids(ids, n) != 0)
		qsort(ids, n, sizeof(*ids), cmp_id);
	for (size_t i = 0; i < n; i++)
		if (m == 0 || ids[m - 1] != ids[i])
			ids[m++] = ids[i];
	return m;
}

size_t pq_derive_find(const sqlite3_int64 *ids, size_t n, sqlite3_int64 id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && ids[lo] == id ? lo : n;
}

size_t pq_derive_lower_bound(const void *base, size_t n, size_t size, sqlite3_int64 a,
			     sqlite3_int64 b)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		sqlite3_int64 k[2];

		memcpy(k, (const char *)base + mid * size, sizeof(k));
		if (k[0] < a || (k[0] == a && k[1] < b))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int pq_derive_prepare(sqlite3 *db, const char *fmt, const char *runs, sqlite3_stmt **st,
		      pq_error *err)
{
	char *sql = sqlite3_mprintf(fmt, runs);
	int rc;

	*st = NULL;
	if (sql == NULL)
		return pq_fail(err, "out of memory");
	rc = sqlite3_prepare_v2(db, sql, -1, st, NULL);
	sqlite3_free(sql);
	return rc == SQLITE_OK ? 0 : pq_derive_fail(db, err);
}

int pq_derive_finish(sqlite3 *db, sqlite3_stmt *st, int rc, pq_error *err)
{
	if (rc != SQLITE_DONE)
		rc == SQLITE_NOMEM ? pq_fail(err, "out of memory") : pq_derive_fail(db, err);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

int pq_derive_ask(sqlite3 *db, const char *sql, const sqlite3_int64 *ids, size_t n,
		  unsigned *says, pq_error *err)
{
	sqlite3_stmt *st = NULL;
	int rc = SQLITE_DONE;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return pq_derive_fail(db, err);
	for (size_t i = 0; i < n && rc == SQLITE_DONE; i++) {
		sqlite3_bind_int64(st, 1, ids[i]);
		says[i] = 0;
		if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			says[i] = 1;
			for (int c = 0; c < sqlite3_column_count(st) && c < 31; c++)
				if (sqlite3_column_int(st, c))
					says[i] |= 2u << c;
			rc = SQLITE_DONE; /* ids are primary keys: one row */
		}
		sqlite3_reset(st);
	}
	if (rc != SQLITE_DONE) {
		pq_derive_fail(db, err);
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_finalize(st);
	return 0;
}
