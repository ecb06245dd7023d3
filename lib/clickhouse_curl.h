/* clickhouse_curl.h - libcurl, loaded (dlopen) the first time a ClickHouse command needs it.
 *
 * Linking libcurl made every profq command load some thirty shared libraries at start (its TLS,
 * LDAP, Kerberos, SSH dependencies): ~2.5 ms of each run, more than most reports take. Only
 * `profq push` and `profq ch-report` talk HTTP, so only they pay for it now. */
#ifndef PQ_CLICKHOUSE_CURL_H
#define PQ_CLICKHOUSE_CURL_H

#include <curl/curl.h>

#include "error.h"

/* The libcurl functions clickhouse_http.c calls. */
typedef struct pq_curl_api {
	CURLcode (*global_init)(long flags);
	CURL *(*easy_init)(void);
	void (*easy_cleanup)(CURL *c);
	void (*easy_reset)(CURL *c);
	CURLcode (*easy_setopt)(CURL *c, CURLoption option, ...);
	CURLcode (*easy_perform)(CURL *c);
	CURLcode (*easy_getinfo)(CURL *c, CURLINFO info, ...);
	const char *(*easy_strerror)(CURLcode code);
	char *(*easy_escape)(CURL *c, const char *s, int len);
	void (*free)(void *p);
} pq_curl_api;

/* The loaded library (loaded and initialised once, never unloaded), or NULL with err set. */
const pq_curl_api *pq_curl(pq_error *err);

#endif
