/* queries.h - the canned reports: queries/<name>.sql, embedded at build time. */
#ifndef PQ_QUERIES_H
#define PQ_QUERIES_H

#include <stddef.h>

typedef struct pq_query {
	const char *name;  /* file name without .sql */
	const char *sql;   /* the file's text */
} pq_query;

/* All reports, sorted by name, ending with a { NULL, NULL } entry (build/gen/queries.c). */
extern const pq_query pq_queries[];

/* The report called name, or NULL. */
const pq_query *pq_query_find(const char *name);

/* The report's one-line description, its first "-- " comment line, copied into buf. */
void pq_query_summary(const pq_query *q, char *buf, size_t size);

/* The query text without sqlite3 dot-command lines (".load ...", ".param ...", ".mode ..."):
 * the files carry those for sqlite3 users; profq has the extension linked in already. The caller
 * frees the result; NULL when out of memory. */
char *pq_query_sql_only(const pq_query *q);

#endif
