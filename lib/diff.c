/* diff.c - the profile comparison (diff.h): one SQL statement over the attached databases a (before)
 * and b (after).
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

#include "db_attach.h"

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
	"WITH a AS (" SIDE("a", ":run_a") "),"
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

int pq_diff_attach(sqlite3 *db, const char *before, const char *after, pq_error *err)
{
	if (pq_db_attach_readonly(db, before, "a", err) != 0)
		return -1;
	if (pq_db_attach_readonly(db, after, "b", err) != 0) {
		sqlite3_exec(db, "DETACH a", NULL, NULL, NULL);
		return -1;
	}
	return 0;
}
