/* cmd_sql.c - `profq sql DB [SQL...]`: ad-hoc SQL with the extension loaded. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* Reads all of stdin into a NUL-terminated buffer (caller frees); NULL when out of memory. */
static char *read_stdin(void)
{
	size_t len = 0, cap = 4096, n;
	char *buf = malloc(cap), *grown;

	while (buf != NULL && (n = fread(buf + len, 1, cap - len - 1, stdin)) > 0) {
		len += n;
		if (cap - len - 1 == 0) {
			grown = realloc(buf, cap *= 2);
			if (grown == NULL)
				free(buf);
			buf = grown;
		}
	}
	if (buf != NULL)
		buf[len] = '\0';
	return buf;
}

int pq_cmd_sql(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "param", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum pq_format format = PQ_FORMAT_TABLE;
	pq_params params = { 0 };
	char *sql = NULL;
	size_t len = 0;
	sqlite3 *db;
	pq_error err;
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "f:p:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (pq_format_parse(optarg, &format) != 0)
				return pq_cli_usage("unknown format '%s' (table, csv or json)", optarg);
			break;
		case 'p':
			if (pq_params_add_assignment(&params, optarg) != 0)
				return pq_cli_usage("--param needs NAME=VALUE, not '%s'", optarg);
			break;
		case 'h':
			puts("Usage: profq sql <profile.db> [SQL...] [--format table|csv|json] "
			     "[--param NAME=VALUE]...");
			return PQ_EXIT_OK;
		default:
			return PQ_EXIT_USAGE;
		}
	}
	if (optind >= argc)
		return pq_cli_usage("sql: no database given");
	if (optind + 1 == argc && isatty(STDIN_FILENO))
		return pq_cli_usage("sql: no SQL given (as arguments or on standard input)");

	/* Arguments after the database are joined with spaces; none means standard input. */
	if (optind + 1 == argc) {
		sql = read_stdin();
	} else {
		for (int i = optind + 1; i < argc; i++)
			len += strlen(argv[i]) + 1;
		if ((sql = malloc(len + 1)) != NULL) {
			sql[0] = '\0';
			for (int i = optind + 1; i < argc; i++) {
				strcat(sql, argv[i]);
				strcat(sql, " ");
			}
		}
	}
	if (sql == NULL)
		return pq_cli_fail("out of memory");
	/* SQL that only reads runs on a read-only connection: the file stays byte for byte. */
	db = pq_cli_open(argv[optind], PQ_OPEN_READ);
	if (db != NULL && !pq_db_sql_reads_only(db, sql)) {
		sqlite3_close(db);
		db = pq_cli_open(argv[optind], PQ_OPEN_WRITE);
	}
	if (db == NULL) {
		free(sql);
		return PQ_EXIT_FAIL;
	}
	rc = pq_run_sql(db, sql, &params, format, stdout, &err);
	free(sql);
	sqlite3_close(db);
	if (fflush(stdout) != 0)
		return pq_cli_fail("cannot write the output");
	return rc == 0 ? PQ_EXIT_OK : pq_cli_fail("%s", err.msg);
}
