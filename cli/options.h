/* options.h - the option values one run of a report file gets: what the caller gave, checked
 * against the options the file declares (plus run and limit, which every report takes), and
 * the declared defaults for the rest. docs/reports.md is the contract. */
#ifndef PQ_OPTIONS_H
#define PQ_OPTIONS_H

#include <sqlite3.h>

#include "cli.h"
#include "queries.h"

#define PQ_OPTIONS_MAX (PQ_QUERY_MAX_OPTIONS + 2)

typedef struct pq_options {
	const char *report;                   /* for messages; borrowed */
	pq_query_option decl[PQ_OPTIONS_MAX]; /* the file's own, then run and limit */
	int n, n_own;                         /* all of decl; the file's own */
	const char *values[PQ_OPTIONS_MAX];   /* as given (borrowed), NULL when not given */
} pq_options;

/* Reads the options sql declares; report names it in messages. */
void pq_options_init(pq_options *o, const char *report, const char *sql);

/* The option called name ('-' and '_' are the same), or NULL. */
const pq_query_option *pq_options_find(const pq_options *o, const char *name);

/* Gives option name the value value (borrowed), once checked. Returns 0, or -1 with err set to
 * "REPORT: unknown option 'x' (options: a, b, run, limit)" or
 * "REPORT: --a must be 1|2, not 'x'". */
int pq_options_set(pq_options *o, const char *name, const char *value, pq_error *err);

/* The same for "NAME=VALUE" (--param); -1 also when there is no '='. */
int pq_options_set_assignment(pq_options *o, const char *assignment, pq_error *err);

/* Adds each option's value to params under its SQL parameter name: the given one, else the
 * declared default; options with neither stay unbound (NULL). -1 when params is full. */
int pq_options_to_params(const pq_options *o, pq_params *params);

/* 0 when no run was given or db has it; else -1 with err set to
 * "REPORT: no run 99 in DB (runs: 1, 2)" (or the query's error). */
int pq_options_check_run(const pq_options *o, sqlite3 *db, const char *db_name, pq_error *err);

/* The same for a run id given as text (a positive integer, or NULL for none); label starts the
 * message. */
int pq_check_run(sqlite3 *db, const char *run, const char *label, const char *db_name,
		 pq_error *err);

#endif
