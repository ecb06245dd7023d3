/* diff.c - the profile comparison (diff.h): one SQL statement over main (before) and the attached
 * database b (after).
 *
 * Rows: "[GPU busy time]" (per device, the union of its kernels, memcpys and memsets; summed over
 * devices; count = GPU operations), "[step time]" (ProfilerStep#N ranges: count and summed
 * duration; NULL totals without steps), then one row per name: kernels by demangled name (else the
 * recorded one), or with :by = 'op' framework operators (cpu_op ranges but the ProfilerStep#N ones) by name, their count and
 * summed duration on each side. A name seen on one side only has count 0 and total NULL on the
 * other; delta_ns counts a missing total as 0, delta_pct is relative to the before total (NULL
 * when there is none), rounded to 2 places. Sorted by |delta_ns| descending, then name.
 */
#include "diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "version.h"

/* One side's figures; S is the schema (main or after), R the run parameter. */
#define SIDE(S, R)                                                                              \
	"SELECT 0 AS o, '[GPU busy time]' AS name, sum(n) AS n, sum(t) AS t FROM ("              \
	"  SELECT count(*) AS n, interval_union_ns(s, e) AS t FROM ("                          \
	"    SELECT device_id AS d, start_ns AS s, end_ns AS e FROM " S ".kernels"                 \
	"     WHERE " R " IS NULL OR run_id = " R                                                    \
	"    UNION ALL SELECT device_id, start_ns, end_ns FROM " S ".memcpys"                       \
	"     WHERE " R " IS NULL OR run_id = " R                                                    \
	"    UNION ALL SELECT device_id, start_ns, end_ns FROM " S ".memsets"                       \
	"     WHERE " R " IS NULL OR run_id = " R ") GROUP BY d)"                                    \
	" UNION ALL "                                                                               \
	"SELECT 1, '[step time]', count(*), sum(r.end_ns - r.start_ns) FROM " S ".ranges r"        \
	"  JOIN " S ".strings sn ON sn.id = r.name_id"                                              \
	"  WHERE (" R " IS NULL OR r.run_id = " R ") AND r.kind IN (2, 3)"                          \
	"    AND sn.value GLOB 'ProfilerStep#*' AND r.end_ns IS NOT NULL"                            \
	" UNION ALL "                                                                               \
	"SELECT 2, s.value, g.n, g.t FROM ("                                                        \
	"  SELECT coalesce(k.demangled_name_id, k.name_id) AS sid, count(*) AS n,"                \
	"         sum(k.end_ns - k.start_ns) AS t FROM " S ".kernels k"                             \
	"   WHERE coalesce(:by, 'kernel') = 'kernel' AND (" R " IS NULL OR k.run_id = " R ")"      \
	"   GROUP BY 1"                                                                             \
	"  UNION ALL "                                                                              \
	"  SELECT r.name_id, count(*), sum(r.end_ns - r.start_ns) FROM " S ".ranges r"             \
	"   WHERE :by = 'op' AND r.kind = 2 AND r.end_ns IS NOT NULL"                               \
	"     AND (" R " IS NULL OR r.run_id = " R ")"                                              \
	"     AND NOT EXISTS (SELECT 1 FROM " S ".strings x WHERE x.id = r.name_id"               \
	"                      AND x.value GLOB 'ProfilerStep#*') GROUP BY 1"                        \
	") g JOIN " S ".strings s ON s.id = g.sid"

static const char sql[] =
	"WITH a AS (" SIDE("main", ":run_a") "),"
	" b AS (" SIDE("b", ":run_b") "),"
	" names AS (SELECT o, name FROM a UNION SELECT o, name FROM b),"
	" j AS ("
	"  SELECT x.o, x.name, coalesce(a.n, 0) AS count_before, coalesce(b.n, 0) AS count_after,"
	"         a.t AS total_ns_before, b.t AS total_ns_after,"
	"         coalesce(b.t, 0) - coalesce(a.t, 0) AS delta_ns"
	"  FROM names x LEFT JOIN a ON a.o = x.o AND a.name = x.name"
	"  LEFT JOIN b ON b.o = x.o AND b.name = x.name)"
	" SELECT count_before, count_after, total_ns_before, total_ns_after, delta_ns,"
	"        round(100.0 * delta_ns / nullif(total_ns_before, 0), 2) AS delta_pct, name"
	" FROM j ORDER BY o < 2 DESC, o, abs(delta_ns) DESC, name"
	" LIMIT coalesce(:limit, -1)";

const char *pq_diff_sql(void)
{
	return sql;
}

/* A file: URI for a path, every byte outside the unreserved set percent-encoded. */
static char *file_uri(const char *path, const char *query)
{
	size_t n = strlen(path), k = 0;
	char *u = malloc(3 * n + strlen(query) + 16);

	if (u == NULL)
		return NULL;
	k += (size_t)sprintf(u, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("-._~/", *p) != NULL)
			u[k++] = (char)*p;
		else
			k += (size_t)sprintf(u + k, "%%%02X", *p);
	}
	sprintf(u + k, "%s", query);
	return u;
}

int pq_diff_attach(sqlite3 *db, const char *path, pq_error *err)
{
	char wal[4200];
	struct stat sb;
	sqlite3_stmt *st;
	char *uri;
	int rc;
	sqlite3_int64 app = 0, version = 0;

	if (stat(path, &sb) != 0)
		return pq_fail(err, "cannot open '%s': no such file", path);
	snprintf(wal, sizeof(wal), "%s-wal", path);
	uri = file_uri(path, stat(wal, &sb) == 0 && sb.st_size > 0 ? "?mode=ro"
								    : "?mode=ro&immutable=1");
	if (uri == NULL)
		return pq_fail(err, "out of memory");
	rc = sqlite3_prepare_v2(db, "ATTACH ?1 AS b", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, uri, -1, SQLITE_STATIC);
		rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
		sqlite3_finalize(st);
	}
	free(uri);
	if (rc != SQLITE_OK)
		return pq_fail(err, "cannot open '%s': %s", path, sqlite3_errmsg(db));
	if (sqlite3_prepare_v2(db, "PRAGMA b.application_id", -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			app = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	if (sqlite3_prepare_v2(db, "PRAGMA b.user_version", -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			version = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	if (app != PQ_APPLICATION_ID) {
		sqlite3_exec(db, "DETACH b", NULL, NULL, NULL);
		return pq_fail(err, "'%s' is not a profq database", path);
	}
	if (version < 1 || version > PQ_SCHEMA_VERSION) {
		sqlite3_exec(db, "DETACH b", NULL, NULL, NULL);
		return pq_fail(err, "'%s' has schema version %lld; this profq reads version %d",
			       path, (long long)version, PQ_SCHEMA_VERSION);
	}
	return 0;
}
