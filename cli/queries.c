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
