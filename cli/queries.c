/* queries.c - looking up the embedded reports. */
#include "queries.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const pq_query *pq_query_find(const char *name)
{
	for (const pq_query *q = pq_queries; q->name != NULL; q++)
		if (strcmp(q->name, name) == 0)
			return q;
	return NULL;
}

void pq_query_summary(const pq_query *q, char *buf, size_t size)
{
	const char *line = q->sql, *end;

	buf[0] = '\0';
	while (*line) {
		end = strchr(line, '\n');
		if (end == NULL)
			end = line + strlen(line);
		if (strncmp(line, "-- ", 3) == 0) {
			size_t n = (size_t)(end - line - 3);
			if (n >= size)
				n = size - 1;
			memcpy(buf, line + 3, n);
			buf[n] = '\0';
			return;
		}
		line = *end ? end + 1 : end;
	}
}

char *pq_query_sql_only(const pq_query *q)
{
	return pq_sql_without_dot_commands(q->sql);
}

char *pq_sql_without_dot_commands(const char *text)
{
	size_t len = strlen(text);
	char *out = malloc(len + 1), *w = out;
	const char *line = text, *end;

	if (out == NULL)
		return NULL;
	while (*line) {
		end = strchr(line, '\n');
		end = end ? end + 1 : line + strlen(line);
		if (line[0] != '.') {
			memcpy(w, line, (size_t)(end - line));
			w += end - line;
		}
		line = end;
	}
	*w = '\0';
	return out;
}

static void copy_span(char *dst, size_t size, const char *src, size_t n)
{
	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* Parses "NAME=CHOICES (default VALUE): description" (the text after "-- option "). */
static int parse_option(const char *text, const char *end, pq_query_option *o)
{
	static const char def_tag[] = " (default ";
	const char *eq = memchr(text, '=', (size_t)(end - text));
	const char *colon = eq ? memchr(eq, ':', (size_t)(end - eq)) : NULL;
	const char *choices_end = colon, *def;

	if (eq == NULL || colon == NULL || eq == text)
		return -1;
	memset(o, 0, sizeof(*o));
	copy_span(o->name, sizeof(o->name), text, (size_t)(eq - text));
	memcpy(o->param, o->name, sizeof(o->param));
	for (char *p = o->param; *p; p++)
		if (*p == '-')
			*p = '_';
	def = memchr(eq, '(', (size_t)(colon - eq));
	if (def != NULL && def > eq && (size_t)(colon - def + 1) >= sizeof(def_tag) &&
	    strncmp(def - 1, def_tag, sizeof(def_tag) - 1) == 0 && colon[-1] == ')') {
		choices_end = def - 1;
		copy_span(o->def, sizeof(o->def), def + sizeof(def_tag) - 2,
			  (size_t)(colon - 1 - (def + sizeof(def_tag) - 2)));
		o->has_default = 1;
	}
	if (eq[1] == '<' && choices_end[-1] == '>')
		copy_span(o->placeholder, sizeof(o->placeholder), eq + 2,
			  (size_t)(choices_end - eq - 3));
	else
		copy_span(o->choices, sizeof(o->choices), eq + 1, (size_t)(choices_end - eq - 1));
	copy_span(o->help, sizeof(o->help), eq + 1, (size_t)(end - eq - 1));
	return 0;
}

int pq_sql_options(const char *sql, pq_query_option *opts)
{
	static const char tag[] = "-- option ";
	const char *line = sql, *end;
	int n = 0;

	while (*line && n < PQ_QUERY_MAX_OPTIONS) {
		end = strchr(line, '\n');
		if (end == NULL)
			end = line + strlen(line);
		if (strncmp(line, tag, sizeof(tag) - 1) == 0 &&
		    parse_option(line + sizeof(tag) - 1, end, &opts[n]) == 0)
			n++;
		line = *end ? end + 1 : end;
	}
	return n;
}

int pq_query_options(const pq_query *q, pq_query_option *opts)
{
	return pq_sql_options(q->sql, opts);
}

int pq_query_generic_options(pq_query_option *opts)
{
	static const char *const lines[] = {
		"run=<id>: keep this run only (a run id from 'profq info'; default: every run)",
		"limit=<n>: keep the first N rows (default: all)",
	};
	int n = 0;

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		if (parse_option(lines[i], lines[i] + strlen(lines[i]), &opts[n]) == 0)
			n++;
	return n;
}

static int is_number(const char *s)
{
	char *end;

	double v = strtod(s, &end);

	return end != s && *end == '\0' && isfinite(v);
}

int pq_query_option_allows(const pq_query_option *o, const char *value)
{
	size_t len = strlen(value);
	const char *c = o->choices;

	if (len == 0)
		return 0;
	if (o->placeholder[0] != '\0')
		return strcmp(o->placeholder, "text") == 0 || is_number(value);
	while (*c) {
		const char *bar = strchr(c, '|');
		size_t n = bar ? (size_t)(bar - c) : strlen(c);

		if (n == len && strncmp(c, value, n) == 0)
			return 1;
		c += n + (bar != NULL);
	}
	return 0;
}
