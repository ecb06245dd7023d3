/* common.c - messages, parameters, opening and running SQL for the subcommands. */
#include "cli.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int pq_cli_fail(const char *fmt, ...)
{
	va_list ap;

	fputs("profq: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return PQ_EXIT_FAIL;
}

int pq_cli_usage(const char *fmt, ...)
{
	va_list ap;

	fputs("profq: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return PQ_EXIT_USAGE;
}

int pq_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts,
	      const char *cmd)
{
	char spec[64];
	const char *bad;
	int plus = shortopts[0] == '+', c;

	/* A leading ':' (after any '+') makes a missing value ':' rather than '?'. */
	snprintf(spec, sizeof(spec), "%s:%s", plus ? "+" : "", shortopts + plus);
	opterr = 0;
	c = getopt_long(argc, argv, spec, longopts, NULL);
	if (c != '?' && c != ':')
		return c;
	bad = optind > 0 && optind <= argc ? argv[optind - 1] : "";
	if (c == ':')
		pq_cli_usage("%s: option '%s' needs a value", cmd, bad);
	else if (optopt != 0 && strncmp(bad, "--", 2) != 0)
		pq_cli_usage("%s: unknown option '-%c' (see 'profq help %s')", cmd, optopt, cmd);
	else
		pq_cli_usage("%s: unknown option '%s' (see 'profq help %s')", cmd, bad, cmd);
	return '?';
}

int pq_params_add(pq_params *p, const char *name, const char *value)
{
	if (p->count == (int)(sizeof(p->names) / sizeof(p->names[0])))
		return -1;
	p->names[p->count] = name;
	p->values[p->count] = value;
	p->count++;
	return 0;
}

int pq_params_add_assignment(pq_params *p, const char *assignment)
{
	const char *eq = strchr(assignment, '=');

	if (eq == NULL || eq == assignment)
		return -1;
	return pq_params_add(p, assignment, eq + 1);
}

/* Binds a command-line value: an integer or a real when the whole text is one, else text. */
static void bind_value(sqlite3_stmt *st, int i, const char *v)
{
	char *end;
	long long n;
	double d;

	if (*v != '\0') {
		n = strtoll(v, &end, 10);
		if (*end == '\0') {
			sqlite3_bind_int64(st, i, n);
			return;
		}
		d = strtod(v, &end);
		if (*end == '\0') {
			sqlite3_bind_double(st, i, d);
			return;
		}
	}
	sqlite3_bind_text(st, i, v, -1, SQLITE_STATIC);
}

/* Whether a parameter given as "NAME" or "NAME=VALUE" is called name. */
static int param_name_is(const char *given, const char *name)
{
	size_t n = strcspn(given, "=");

	return strlen(name) == n && strncmp(given, name, n) == 0;
}

void pq_bind_params(sqlite3_stmt *st, const pq_params *params)
{
	int n = sqlite3_bind_parameter_count(st);

	for (int i = 1; i <= n; i++) {
		const char *name = sqlite3_bind_parameter_name(st, i);
		if (name == NULL)
			continue;
		for (int k = params ? params->count - 1 : -1; k >= 0; k--) {
			if (param_name_is(params->names[k], name + 1)) {
				bind_value(st, i, params->values[k]);
				break;
			}
		}
	}
}

int pq_run_sql(sqlite3 *db, const char *sql, const pq_params *params, enum pq_format format,
	       FILE *out, pq_error *err)
{
	const char *tail = sql;
	int printed = 0;

	while (*tail) {
		sqlite3_stmt *st = NULL;
		int rc;

		if (sqlite3_prepare_v2(db, tail, -1, &st, &tail) != SQLITE_OK)
			return pq_fail(err, "%s", sqlite3_errmsg(db));
		if (st == NULL) /* only whitespace or comments left */
			break;
		pq_bind_params(st, params);
		if (printed && sqlite3_column_count(st) > 0 && format == PQ_FORMAT_TABLE)
			fputc('\n', out);
		printed |= sqlite3_column_count(st) > 0;
		rc = pq_print_rows(st, format, out, err);
		sqlite3_finalize(st);
		if (rc != 0)
			return -1;
	}
	return 0;
}

sqlite3 *pq_cli_open(const char *path, enum pq_open_mode mode)
{
	sqlite3 *db;
	pq_error err;

	if (pq_db_open(path, mode, &db, NULL, &err) != 0) {
		pq_cli_fail("%s", err.msg);
		return NULL;
	}
	return db;
}
