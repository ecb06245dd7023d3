/* options.c - checking a report's option values and filling in the declared defaults. */
#include "options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pq_options_init(pq_options *o, const char *report, const char *sql)
{
	memset(o, 0, sizeof(*o));
	o->report = report;
	o->n_own = pq_sql_options(sql, o->decl);
	o->n = o->n_own + pq_query_generic_options(o->decl + o->n_own);
}

/* Names compare with '-' and '_' alike: --gap-ms, --gap_ms and --param gap_ms=... are one. */
static int same_name(const char *a, size_t len, const char *b)
{
	size_t i;

	for (i = 0; i < len && b[i] != '\0'; i++)
		if (a[i] != b[i] && !((a[i] == '-' || a[i] == '_') && (b[i] == '-' || b[i] == '_')))
			return 0;
	return i == len && b[i] == '\0';
}

static int find(const pq_options *o, const char *name, size_t len)
{
	for (int i = 0; i < o->n; i++)
		if (same_name(name, len, o->decl[i].name))
			return i;
	return -1;
}

const pq_query_option *pq_options_find(const pq_options *o, const char *name)
{
	int i = find(o, name, strlen(name));

	return i < 0 ? NULL : &o->decl[i];
}

/* What a value of d must be, for messages: its choices, or what its placeholder takes. */
static const char *wanted(const pq_query_option *d, char *buf, size_t size)
{
	if (d->choices[0] != '\0')
		return d->choices;
	if (strcmp(d->placeholder, "id") == 0)
		return "a run id (a positive integer)";
	if (strcmp(d->placeholder, "n") == 0)
		return "a non-negative integer";
	if (strcmp(d->placeholder, "text") == 0)
		return "non-empty text";
	snprintf(buf, size, "a number (<%s>)", d->placeholder);
	return buf;
}

static int set(pq_options *o, const char *name, size_t len, const char *value, pq_error *err)
{
	int i = find(o, name, len);
	char names[512] = "", buf[64];
	size_t used = 0;

	if (i < 0) {
		for (int k = 0; k < o->n && used < sizeof(names); k++)
			used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s",
						 k ? ", " : "", o->decl[k].name);
		return pq_fail(err, "%s: unknown option '%.*s' (options: %s)", o->report, (int)len,
			       name, names);
	}
	if (!pq_query_option_allows(&o->decl[i], value))
		return pq_fail(err, "%s: --%s must be %s, not '%s'", o->report, o->decl[i].name,
			       wanted(&o->decl[i], buf, sizeof(buf)), value);
	o->values[i] = value;
	return 0;
}

int pq_options_set(pq_options *o, const char *name, const char *value, pq_error *err)
{
	return set(o, name, strlen(name), value, err);
}

int pq_options_set_assignment(pq_options *o, const char *assignment, pq_error *err)
{
	const char *eq = strchr(assignment, '=');

	if (eq == NULL || eq == assignment)
		return pq_fail(err, "%s: --param needs NAME=VALUE, not '%s'", o->report, assignment);
	return set(o, assignment, (size_t)(eq - assignment), eq + 1, err);
}

int pq_options_to_params(const pq_options *o, pq_params *params)
{
	for (int i = 0; i < o->n; i++) {
		const char *v = o->values[i] ? o->values[i]
					     : o->decl[i].has_default ? o->decl[i].def : NULL;

		if (v != NULL && pq_params_add(params, o->decl[i].param, v) != 0)
			return -1;
	}
	return 0;
}

int pq_options_check_run(const pq_options *o, sqlite3 *db, const char *db_name, pq_error *err)
{
	const pq_query_option *d = pq_options_find(o, "run");

	return pq_check_run(db, d ? o->values[d - o->decl] : NULL, o->report, db_name, err);
}

int pq_check_run(sqlite3 *db, const char *run, const char *label, const char *db_name,
		 pq_error *err)
{
	sqlite3_stmt *st = NULL;
	char runs[256] = "";
	size_t used = 0;
	int found = 0, rc;

	if (run == NULL)
		return 0;
	if (sqlite3_prepare_v2(db, "SELECT id, id = ?1 FROM runs ORDER BY id", -1, &st, NULL) !=
	    SQLITE_OK)
		return pq_fail(err, "%s: %s", label, sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, strtoll(run, NULL, 10)); /* checked: a positive integer */
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		found |= sqlite3_column_int(st, 1);
		if (used < sizeof(runs))
			used += (size_t)snprintf(runs + used, sizeof(runs) - used, "%s%lld",
						 used ? ", " : "",
						 (long long)sqlite3_column_int64(st, 0));
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return pq_fail(err, "%s: %s", label, sqlite3_errmsg(db));
	if (!found)
		return pq_fail(err, "%s: no run %s in %s (runs: %s)", label, run, db_name,
			       used ? runs : "none");
	return 0;
}
