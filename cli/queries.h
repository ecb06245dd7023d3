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

/* A report's own options, declared in its file by comment lines
 *     -- option NAME=CHOICES: description
 * e.g. "-- option by=demangled|name|short-name: ..." or "-- option gap-ms=<ms>: ...".
 * `profq <report> --NAME VALUE` binds VALUE to the SQL parameter :NAME with every '-' of NAME
 * turned into '_' (so the file reads :gap_ms); CHOICES is either a '|' list of allowed values
 * or a <placeholder> meaning any value. The SQL gives the default itself (coalesce(:by, ...)),
 * so sqlite3 users who set no parameter get it too. */
#define PQ_QUERY_MAX_OPTIONS 8
typedef struct pq_query_option {
	char name[32];      /* as typed after "--" */
	char param[32];     /* the SQL parameter name */
	char choices[128];  /* "a|b|c", or "" for any value */
	char help[320];     /* "CHOICES: description" for --help */
} pq_query_option;

/* Fills opts (at most PQ_QUERY_MAX_OPTIONS) from q's "-- option" lines; returns their count. */
int pq_query_options(const pq_query *q, pq_query_option *opts);

/* 1 when value is allowed by o (one of its choices, or any non-empty value). */
int pq_query_option_allows(const pq_query_option *o, const char *value);

#endif
