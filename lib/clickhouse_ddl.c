/* clickhouse_ddl.c - CREATE DATABASE / TABLE / VIEW statements for profq's ClickHouse tables. */
#include "clickhouse_ddl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clickhouse_tables.h"
#include "schema_sql.h"

static int create(pq_ch *ch, const char *cluster, const char *name, const char *columns,
		  const char *order_by, pq_error *err)
{
	size_t size = strlen(columns) + strlen(name) * 2 + strlen(ch->database) * 2 +
		      (cluster ? strlen(cluster) : 0) + strlen(order_by) + 512;
	char *sql = malloc(size);
	int rc;

	if (sql == NULL)
		return pq_fail(err, "out of memory");
	snprintf(sql, size,
		 "CREATE TABLE IF NOT EXISTS %s%s (%s) ENGINE = MergeTree PARTITION BY job "
		 "ORDER BY (%s)", name, cluster ? "_local" : "", columns, order_by);
	rc = pq_ch_exec(ch, sql, NULL, 0, NULL, err);
	if (rc == 0 && cluster != NULL) {
		snprintf(sql, size,
			 "CREATE TABLE IF NOT EXISTS %s AS %s_local ENGINE = Distributed(%s, %s, %s_local, rand())",
			 name, name, cluster, ch->database, name);
		rc = pq_ch_exec(ch, sql, NULL, 0, NULL, err);
	}
	free(sql);
	if (rc != 0) {
		char msg[sizeof err->msg];

		snprintf(msg, sizeof msg, "%s", err->msg);
		return pq_fail(err, "creating table %s: %s", name, msg);
	}
	return 0;
}

/* The views of schema/clickhouse_views.sql, one statement per request: each ends with ';' at
 * the end of a line; comment lines are dropped. */
static int create_views(pq_ch *ch, pq_error *err)
{
	const char *p = pq_ch_views_sql;
	char *sql = malloc(strlen(p) + 1);
	size_t n = 0;

	if (sql == NULL)
		return pq_fail(err, "out of memory");
	while (*p != '\0') {
		const char *eol = strchr(p, '\n');
		size_t len = eol != NULL ? (size_t)(eol - p) : strlen(p);
		const char *next = eol != NULL ? eol + 1 : p + len;

		if (len > 0 && strncmp(p, "--", 2) != 0) {
			memcpy(sql + n, p, len);
			n += len;
			if (p[len - 1] != ';') {
				sql[n++] = '\n';
			} else {
				sql[n - 1] = '\0';
				n = 0;
				if (pq_ch_exec(ch, sql, NULL, 0, NULL, err) != 0) {
					char msg[sizeof err->msg];

					snprintf(msg, sizeof msg, "%s", err->msg);
					free(sql);
					return pq_fail(err, "creating the views: %s", msg);
				}
			}
		}
		p = next;
	}
	free(sql);
	return 0;
}

int pq_ch_create_tables(pq_ch *ch, const char *cluster, pq_error *err)
{
	char sql[512], order[128], columns[4096];

	static const char word[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";
	static const char name[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";

	/* Both are written into the DDL unquoted. */
	if (strspn(ch->database, word) != strlen(ch->database) || ch->database[0] == '\0')
		return pq_fail(err, "database name must be letters, digits and '_': %s", ch->database);
	if (cluster != NULL && strspn(cluster, name) != strlen(cluster))
		return pq_fail(err, "cluster name must be letters, digits, '_' and '-': %s", cluster);
	snprintf(sql, sizeof sql, "CREATE DATABASE IF NOT EXISTS %s", ch->database);
	if (pq_ch_exec_nodb(ch, sql, err) != 0)
		return -1;
	if (create(ch, cluster, "runs", pq_ch_runs_columns, "job, run_key", err) != 0)
		return -1;
	for (const pq_ch_table *t = pq_ch_tables; t->name != NULL; t++) {
		snprintf(order, sizeof order, "run_key, %s", t->time);
		snprintf(columns, sizeof columns, "%s%s", PQ_CH_COMMON_COLUMNS, t->columns);
		if (create(ch, cluster, t->name, columns, order, err) != 0)
			return -1;
	}
	return create_views(ch, err);
}
