/* clickhouse_http.h - talking to a ClickHouse server over its HTTP interface (libcurl).
 *
 * Only the profq CLI links this; it loads libcurl when a connection is first opened
 * (clickhouse_curl.c), the collector and libprofq.a never do. */
#ifndef PQ_CLICKHOUSE_HTTP_H
#define PQ_CLICKHOUSE_HTTP_H

#include <stddef.h>

#include "error.h"

/* A connection: the base URL (http://host:8123), the database every statement runs in, and
 * settings added to every request ("name=value&name=value", may be empty). Owned by the caller;
 * pq_ch_open allocates its members, pq_ch_close frees them. */
typedef struct pq_ch {
	char *url;
	char *database;
	char *settings;
	void *curl;       /* CURL *, reused so the connection stays open between batches */
	long timeout_s;   /* per request; 0 = none */
} pq_ch;

int pq_ch_open(pq_ch *ch, const char *url, const char *database, pq_error *err);
void pq_ch_close(pq_ch *ch);

/* Replaces the settings sent with every request ("name=value&name=value"). */
int pq_ch_set_settings(pq_ch *ch, const char *settings, pq_error *err);

/* Sends one request. With body == NULL the query is the POST body; otherwise the query goes in the
 * URL (?query=) and body (len bytes, e.g. TSV rows for an INSERT) is the POST body. When out is not
 * NULL it receives the response body, NUL-terminated (caller frees). An HTTP status other than
 * 200 or a transport error fails with the server's message (first line) in err. */
int pq_ch_exec(pq_ch *ch, const char *query, const char *body, size_t len, char **out,
	       pq_error *err);

/* pq_ch_exec with no body, without the database parameter (for CREATE DATABASE). */
int pq_ch_exec_nodb(pq_ch *ch, const char *query, pq_error *err);

#endif
