/* cmd_sql.c - `profq sql DB [SQL...]`: ad-hoc SQL or a report file, with the extension loaded. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "options.h"

const char pq_sql_help[] =
	"Usage: profq sql <profile.db> [SQL...] [--file FILE] [--format table|csv|json]\n"
	"                 [--param NAME=VALUE]...\n"
	"\n"
	"Runs SQL with the profq SQL functions loaded and prints the rows of each statement. The SQL\n"
	"is the arguments after the database (joined with spaces), else the file given with --file,\n"
	"else standard input. Lines starting with '.' (sqlite3 dot-commands such as the report\n"
	"files' '.load build/profq') are skipped, so 'profq sql profile.db < queries/NAME.sql' runs\n"
	"a report file as sqlite3 does.\n"
	"\n"
	"  --file FILE        read the SQL from FILE\n"
	"  --format F         table (default), csv or json\n"
	"  --param NAME=VALUE bind :NAME, @NAME or $NAME (integers and reals as numbers, anything\n"
	"                     else as text); unset parameters are NULL, as in sqlite3\n"
	"\n"
	"SQL that declares options in its header ('-- option NAME=CHOICES (default VALUE): ...',\n"
	"as the report files do; docs/reports.md) gets its declared defaults bound, and --param\n"
	"then takes only those names and run and limit ('-' and '_' alike), with values checked as\n"
	"'profq NAME' checks them.\n";

/* Reads all of f into a NUL-terminated buffer (caller frees); NULL on error (errno set). */
static char *read_all(FILE *f)
{
	size_t len = 0, cap = 4096, n;
	char *buf = malloc(cap), *grown;

	while (buf != NULL && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (cap - len - 1 == 0) {
			grown = realloc(buf, cap *= 2);
			if (grown == NULL)
				free(buf);
			buf = grown;
		}
	}
	if (buf != NULL && ferror(f)) {
		free(buf);
		return NULL;
	}
	if (buf != NULL)
		buf[len] = '\0';
	return buf;
}

/* The arguments joined with spaces (caller frees); NULL when out of memory. */
static char *join(int argc, char **argv)
{
	size_t len = 1;
	char *sql;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	if ((sql = malloc(len)) == NULL)
		return NULL;
	sql[0] = '\0';
	for (int i = 0; i < argc; i++) {
		strcat(sql, argv[i]);
		strcat(sql, " ");
	}
	return sql;
}

/* A name for messages about a file's options: its base name without ".sql". */
static void file_label(const char *path, char *buf, size_t size)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 4 && strcmp(base + n - 4, ".sql") == 0)
		n -= 4;
	snprintf(buf, size, "%.*s", (int)n, base);
}

/* The parameters for text: free-form --param values, or, when text declares options, the
 * declared defaults and the checked values (-1 with err set for an unknown name or value). */
static int make_params(const char *text, const char *label, char **assignments, int n,
		       pq_options *o, pq_params *params, pq_error *err)
{
	pq_options_init(o, label, text);
	for (int i = 0; i < n; i++) {
		if (o->n_own == 0) {
			if (pq_params_add_assignment(params, assignments[i]) != 0)
				return pq_fail(err, "sql: too many parameters");
		} else if (pq_options_set_assignment(o, assignments[i], err) != 0) {
			return -1;
		}
	}
	if (o->n_own > 0 && pq_options_to_params(o, params) != 0)
		return pq_fail(err, "sql: too many parameters");
	return 0;
}

int pq_cmd_sql(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "param", required_argument, NULL, 'p' },
		{ "file", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum pq_format format = PQ_FORMAT_TABLE;
	pq_params params = { 0 };
	pq_options o;
	char *assignments[32], *text = NULL, *sql, label[64] = "sql";
	const char *file = NULL, *db_path;
	int c, rc, n_assign = 0;
	sqlite3 *db;
	pq_error err;

	optind = 1;
	while ((c = pq_getopt(argc, argv, "f:p:h", opts, "sql")) != -1) {
		switch (c) {
		case 'f':
			if (pq_format_parse(optarg, &format) != 0)
				return pq_cli_usage("unknown format '%s' (table, csv or json)", optarg);
			break;
		case 'p':
			if (strchr(optarg, '=') == NULL || optarg[0] == '=')
				return pq_cli_usage("--param needs NAME=VALUE, not '%s'", optarg);
			if (n_assign == (int)(sizeof(assignments) / sizeof(assignments[0])))
				return pq_cli_usage("sql: too many parameters");
			assignments[n_assign++] = optarg;
			break;
		case 'F':
			file = optarg;
			break;
		case 'h':
			fputs(pq_sql_help, stdout);
			return PQ_EXIT_OK;
		default:
			return PQ_EXIT_USAGE;
		}
	}
	if (optind >= argc)
		return pq_cli_usage("sql: no database given");
	db_path = argv[optind];
	if (file != NULL && optind + 1 < argc)
		return pq_cli_usage("sql: give the SQL as arguments or with --file, not both");
	if (file == NULL && optind + 1 == argc && isatty(STDIN_FILENO))
		return pq_cli_usage("sql: no SQL given (as arguments, with --file or on standard input)");

	if (optind + 1 < argc) {
		text = join(argc - optind - 1, argv + optind + 1);
	} else if (file != NULL) {
		FILE *f = fopen(file, "r");

		if (f == NULL)
			return pq_cli_fail("cannot open '%s': %s", file, strerror(errno));
		text = read_all(f);
		fclose(f);
		file_label(file, label, sizeof(label));
		if (text == NULL)
			return pq_cli_fail("cannot read '%s'", file);
	} else {
		text = read_all(stdin);
	}
	if (text == NULL)
		return pq_cli_fail("out of memory");
	if (make_params(text, label, assignments, n_assign, &o, &params, &err) != 0) {
		free(text);
		return pq_cli_usage("%s", err.msg);
	}
	sql = pq_sql_without_dot_commands(text);
	free(text);
	if (sql == NULL)
		return pq_cli_fail("out of memory");
	/* SQL that only reads runs on a read-only connection: the file stays byte for byte. */
	db = pq_cli_open(db_path, PQ_OPEN_READ);
	if (db != NULL && !pq_db_sql_reads_only(db, sql)) {
		sqlite3_close(db);
		db = pq_cli_open(db_path, PQ_OPEN_WRITE);
	}
	if (db == NULL) {
		free(sql);
		return PQ_EXIT_FAIL;
	}
	if (pq_options_check_run(&o, db, db_path, &err) != 0)
		rc = pq_cli_fail("%s", err.msg);
	else if (pq_run_sql(db, sql, &params, format, stdout, &err) != 0)
		rc = pq_cli_fail("%s", err.msg);
	else
		rc = PQ_EXIT_OK;
	free(sql);
	sqlite3_close(db);
	if (fflush(stdout) != 0)
		return pq_cli_fail("cannot write the output");
	return rc;
}
