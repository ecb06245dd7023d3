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

/* "profq: <message>", one line on stderr; returns PQ_EXIT_USAGE. */
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

/* getopt_long for a command, with profq's messages: opterr is off, and an unknown option or a
 * missing value prints "profq: CMD: ..." and returns '?' (a command's default case returns
 * PQ_EXIT_USAGE). shortopts may start with '+'. */
struct option;
int pq_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts,
	      const char *cmd);

/* One command of `profq` (main.c's table). */
typedef struct pq_command {
	const char *name;
	int (*run)(int argc, char **argv); /* argv[0] is the command's name */
	const char *synopsis;              /* one line for `profq --help` */
	const char *help;                  /* full help: `profq help NAME`, `profq NAME --help` */
} pq_command;

/* main.c: every command, ending with a { NULL } entry. */
extern const pq_command pq_commands[];

/* help.c: `profq --help` (commands from the table) to out; returns PQ_EXIT_OK. */
int pq_cli_usage_text(FILE *out);
/* help.c: the full help of a command or report to stdout; PQ_EXIT_OK, or the usage error (with
 * the closest name) for an unknown name. */
int pq_cli_help(const char *name);
/* help.c: "profq: unknown command 'x'; did you mean 'y'?"; returns PQ_EXIT_USAGE. */
const char *pq_cli_closest(const char *name); /* the command or report name nearest name, or NULL */
int pq_cli_unknown_command(const char *name);

/* Full help texts, one per command, kept beside the command's code. */
extern const char pq_record_help[], pq_import_help[], pq_info_help[], pq_sql_help[],
	pq_analyze_help[], pq_report_cmd_help[], pq_help_help[], pq_html_help[], pq_export_help[],
	pq_merge_help[], pq_diff_help[], pq_push_help[], pq_ch_report_help[],
	pq_repair_help[];

int pq_cmd_help(int argc, char **argv);
int pq_cmd_info(int argc, char **argv);
int pq_cmd_sql(int argc, char **argv);
int pq_cmd_report(int argc, char **argv);
int pq_cmd_record(int argc, char **argv);
int pq_cmd_import(int argc, char **argv);
int pq_cmd_analyze(int argc, char **argv);
int pq_cmd_html(int argc, char **argv);
int pq_cmd_export(int argc, char **argv);
int pq_cmd_merge(int argc, char **argv);
int pq_cmd_diff(int argc, char **argv);
int pq_cmd_push(int argc, char **argv);
int pq_cmd_ch_report(int argc, char **argv);
int pq_cmd_repair(int argc, char **argv);
/* `profq <report> DB [options]`: argv[0] is the report name. */
int pq_cmd_run_report(int argc, char **argv);
struct pq_query;
/* A report's full help (`profq help NAME`, `profq NAME --help`). */
void pq_report_help(const struct pq_query *q, FILE *out);

#endif
