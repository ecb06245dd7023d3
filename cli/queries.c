/* queries.c - looking up the embedded reports. */
#include "queries.h"

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
	size_t len = strlen(q->sql);
	char *out = malloc(len + 1), *w = out;
	const char *line = q->sql, *end;

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

int pq_query_options(const pq_query *q, pq_query_option *opts)
{
	static const char tag[] = "-- option ";
	const char *line = q->sql, *end;
	int n = 0;

	while (*line && n < PQ_QUERY_MAX_OPTIONS) {
		end = strchr(line, '\n');
		if (end == NULL)
			end = line + strlen(line);
		if (strncmp(line, tag, sizeof(tag) - 1) == 0) {
			const char *name = line + sizeof(tag) - 1;
			const char *eq = memchr(name, '=', (size_t)(end - name));
			const char *colon = eq ? memchr(eq, ':', (size_t)(end - eq)) : NULL;

			if (eq != NULL && colon != NULL && eq > name) {
				pq_query_option *o = &opts[n++];

				copy_span(o->name, sizeof(o->name), name, (size_t)(eq - name));
				memcpy(o->param, o->name, sizeof(o->param));
				for (char *p = o->param; *p; p++)
					if (*p == '-')
						*p = '_';
				if (eq[1] == '<')
					o->choices[0] = '\0';
				else
					copy_span(o->choices, sizeof(o->choices), eq + 1,
						  (size_t)(colon - eq - 1));
				copy_span(o->help, sizeof(o->help), eq + 1, (size_t)(end - eq - 1));
			}
		}
		line = *end ? end + 1 : end;
	}
	return n;
}

int pq_query_option_allows(const pq_query_option *o, const char *value)
{
	size_t len = strlen(value);
	const char *c = o->choices;

	if (len == 0)
		return 0;
	if (o->choices[0] == '\0')
		return 1;
	while (*c) {
		const char *bar = strchr(c, '|');
		size_t n = bar ? (size_t)(bar - c) : strlen(c);

		if (n == len && strncmp(c, value, n) == 0)
			return 1;
		c += n + (bar != NULL);
	}
	return 0;
}
