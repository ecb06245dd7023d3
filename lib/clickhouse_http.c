/* clickhouse_http.c - one POST per statement to ClickHouse's HTTP interface. */
#include "clickhouse_http.h"

#include <stdlib.h>
#include <string.h>

#include "clickhouse_curl.h"

typedef struct buf {
	char *data;
	size_t len, cap;
	int oom;
} buf;

static size_t on_data(char *ptr, size_t size, size_t nmemb, void *user)
{
	buf *b = user;
	size_t n = size * nmemb;

	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *p;

		while (cap < b->len + n + 1)
			cap *= 2;
		p = realloc(b->data, cap);
		if (p == NULL) {
			b->oom = 1;
			return 0;
		}
		b->data = p;
		b->cap = cap;
	}
	memcpy(b->data + b->len, ptr, n);
	b->len += n;
	b->data[b->len] = '\0';
	return n;
}

static char *dup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);

	if (p != NULL)
		memcpy(p, s, n);
	return p;
}

int pq_ch_open(pq_ch *ch, const char *url, const char *database, pq_error *err)
{
	const pq_curl_api *cu;
	size_t n;

	memset(ch, 0, sizeof *ch);
	if (strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) != 0)
		return pq_fail(err, "ClickHouse URL must start with http:// or https://: %s", url);
	if ((cu = pq_curl(err)) == NULL)
		return -1;
	ch->url = dup(url);
	ch->database = dup(database);
	ch->settings = dup("");
	ch->curl = cu->easy_init();
	if (ch->url == NULL || ch->database == NULL || ch->settings == NULL || ch->curl == NULL) {
		pq_ch_close(ch);
		return pq_fail(err, "out of memory");
	}
	n = strlen(ch->url);
	while (n > 0 && ch->url[n - 1] == '/')
		ch->url[--n] = '\0';
	ch->timeout_s = 600;
	return 0;
}

void pq_ch_close(pq_ch *ch)
{
	if (ch->curl != NULL)
		pq_curl(NULL)->easy_cleanup(ch->curl); /* loaded: pq_ch_open made the handle */
	free(ch->url);
	free(ch->database);
	free(ch->settings);
	memset(ch, 0, sizeof *ch);
}

int pq_ch_set_settings(pq_ch *ch, const char *settings, pq_error *err)
{
	char *s = dup(settings);

	if (s == NULL)
		return pq_fail(err, "out of memory");
	free(ch->settings);
	ch->settings = s;
	return 0;
}

/* The server's message: "Code: 60, e.displayText() = DB::Exception: Table x doesn't exist." - the
 * first line, without the trailing stack trace part ClickHouse adds. */
static void server_message(const char *body, char *out, size_t size)
{
	size_t n = body ? strcspn(body, "\n") : 0;

	if (n >= size)
		n = size - 1;
	if (n > 0)
		memcpy(out, body, n);
	out[n] = '\0';
}

static int request(pq_ch *ch, const char *query, const char *body, size_t len, int with_db,
		   char **out, pq_error *err)
{
	const pq_curl_api *cu = pq_curl(NULL); /* loaded: pq_ch_open succeeded */
	CURL *c = ch->curl;
	buf resp = { 0 };
	char *url, *q = NULL, *dbq = NULL, msg[600];
	size_t size;
	CURLcode rc;
	long status = 0;
	int ret = -1;

	if (out != NULL)
		*out = NULL;
	if (body != NULL) {
		q = cu->easy_escape(c, query, 0);
		if (q == NULL)
			return pq_fail(err, "out of memory");
	}
	if (with_db) {
		dbq = cu->easy_escape(c, ch->database, 0);
		if (dbq == NULL) {
			cu->free(q);
			return pq_fail(err, "out of memory");
		}
	}
	size = strlen(ch->url) + strlen(ch->settings) + (q ? strlen(q) : 0) + (dbq ? strlen(dbq) : 0) + 64;
	url = malloc(size);
	if (url == NULL) {
		cu->free(q);
		cu->free(dbq);
		return pq_fail(err, "out of memory");
	}
	/* Parameters joined by '&': database, query, settings; each may be absent. */
	snprintf(url, size, "%s/?%s%s%s%s%s%s%s", ch->url, dbq ? "database=" : "", dbq ? dbq : "",
		 q && dbq ? "&" : "", q ? "query=" : "", q ? q : "",
		 ch->settings[0] && (q || dbq) ? "&" : "", ch->settings);
	cu->free(q);
	cu->free(dbq);

	cu->easy_reset(c);
	cu->easy_setopt(c, CURLOPT_URL, url);
	cu->easy_setopt(c, CURLOPT_POST, 1L);
	if (body != NULL) {
		cu->easy_setopt(c, CURLOPT_POSTFIELDS, body);
		cu->easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
	} else {
		cu->easy_setopt(c, CURLOPT_POSTFIELDS, query);
		cu->easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)strlen(query));
	}
	cu->easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
	cu->easy_setopt(c, CURLOPT_WRITEDATA, &resp);
	cu->easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 10L);
	cu->easy_setopt(c, CURLOPT_TIMEOUT, ch->timeout_s);
	cu->easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	rc = cu->easy_perform(c);
	if (rc != CURLE_OK) {
		pq_fail(err, "ClickHouse at %s: %s", ch->url, cu->easy_strerror(rc));
		goto done;
	}
	if (resp.oom) {
		pq_fail(err, "out of memory reading the ClickHouse response");
		goto done;
	}
	cu->easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	if (status != 200) {
		server_message(resp.data, msg, sizeof msg);
		pq_fail(err, "ClickHouse at %s answered HTTP %ld: %s", ch->url, status, msg);
		goto done;
	}
	if (out != NULL) {
		*out = resp.data ? resp.data : dup("");
		resp.data = NULL;
		if (*out == NULL) {
			pq_fail(err, "out of memory");
			goto done;
		}
	}
	ret = 0;
done:
	free(resp.data);
	free(url);
	return ret;
}

int pq_ch_exec(pq_ch *ch, const char *query, const char *body, size_t len, char **out,
	       pq_error *err)
{
	return request(ch, query, body, len, 1, out, err);
}

int pq_ch_exec_nodb(pq_ch *ch, const char *query, pq_error *err)
{
	return request(ch, query, NULL, 0, 0, NULL, err);
}
