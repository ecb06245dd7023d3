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
char *pq_sql_without_dot_commands(const char *text);

/* A report's own options, declared in its file header, one comment line each:
 *     -- option NAME=CHOICES (default VALUE): description
 * e.g. "-- option by=demangled|name|short-name (default demangled): ..." or
 * "-- option gap-ms=<ms> (default 500): ...". "(default VALUE)" may be left out: the option is
 * then unset (NULL) unless given. `profq <report> --NAME VALUE` (or --param NAME=VALUE) binds
 * VALUE to the SQL parameter :NAME with every '-' of NAME turned into '_' (so the file reads
 * :gap_ms). CHOICES is either a '|' list of allowed values or a <placeholder>: <text> takes any
 * text, any other placeholder a number. Besides its own options every report takes run (:run,
 * a run id; NULL = every run) and limit (:limit, a row count; NULL = all rows): see
 * pq_query_generic_options. The SQL also gives each default itself (coalesce(:by, ...)), so
 * sqlite3 users who bind nothing get the same report. docs/reports.md is the contract. */
#define PQ_QUERY_MAX_OPTIONS 8
typedef struct pq_query_option {
	char name[32];      /* as typed after "--" */
	char param[32];     /* the SQL parameter name */
	char choices[128];  /* "a|b|c", or "" for a placeholder */
	char placeholder[32]; /* "ms" for "<ms>"; "" for a choice list */
	char def[64];       /* the declared default; "" when none */
	int has_default;
	char help[320];     /* "CHOICES (default VALUE): description" for --help */
} pq_query_option;

/* Fills opts (at most PQ_QUERY_MAX_OPTIONS) from the "-- option" lines of q (of any SQL text,
 * for pq_sql_options); returns their count. */
int pq_query_options(const pq_query *q, pq_query_option *opts);
int pq_sql_options(const char *sql, pq_query_option *opts);

/* 1 when value is allowed by o: one of its choices, a number for a numeric placeholder, any
 * non-empty text for <text>. */
int pq_query_option_allows(const pq_query_option *o, const char *value);

/* The options every report takes, in the same form: run (<id>) and limit (<n>). */
int pq_query_generic_options(pq_query_option *opts);

#endif
