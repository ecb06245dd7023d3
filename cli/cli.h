/* cli.h - what the profq subcommands share: exit codes, messages, opening a database, running
 * SQL text with parameters. Only code under cli/ prints or decides exit codes. */
#ifndef PQ_CLI_H
#define PQ_CLI_H

#include <stdio.h>

#include <sqlite3.h>

#include "db.h"
#include "output.h"

enum { PQ_EXIT_OK = 0, PQ_EXIT_FAIL = 1, PQ_EXIT_USAGE = 2 };

/* "profq: <message>" on stderr; returns PQ_EXIT_FAIL. */
int pq_cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "profq: <message>" and a pointer to --help on stderr; returns PQ_EXIT_USAGE. */
int pq_cli_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Named parameters given on the command line (--param NAME=VALUE, --run, --limit). */
typedef struct pq_params {
	const char *names[32];   /* borrowed from argv; a name ends at '=' or NUL */
	const char *values[32];
	int count;
} pq_params;

/* Adds NAME=VALUE text; returns -1 when it has no '=' or the list is full. */
int pq_params_add_assignment(pq_params *p, const char *assignment);
int pq_params_add(pq_params *p, const char *name, const char *value);

/* Runs every statement of sql, binding parameters by name (":x", "@x" and "$x" all match "x";
 * integers and reals bind as numbers, anything else as text; unknown names stay NULL), and prints
 * each statement's rows. Returns 0 or -1 with err set. */
int pq_run_sql(sqlite3 *db, const char *sql, const pq_params *params, enum pq_format format,
	       FILE *out, pq_error *err);

/* Binds params to st's named parameters as pq_run_sql does. */
void pq_bind_params(sqlite3_stmt *st, const pq_params *params);

/* Opens a profq database, printing the error; returns NULL on failure. */
sqlite3 *pq_cli_open(const char *path, enum pq_open_mode mode);

int pq_cmd_info(int argc, char **argv);
int pq_cmd_sql(int argc, char **argv);
int pq_cmd_report(int argc, char **argv);
int pq_cmd_record(int argc, char **argv);
int pq_cmd_import(int argc, char **argv);
int pq_cmd_analyze(int argc, char **argv);
int pq_cmd_repair(int argc, char **argv);
/* `profq <report> DB [options]`: argv[0] is the report name. */
int pq_cmd_run_report(int argc, char **argv);

#endif
