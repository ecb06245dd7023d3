/* clickhouse_curl.c - loading libcurl on first use (see clickhouse_curl.h for why). */
#include "clickhouse_curl.h"

#include <dlfcn.h>
#include <string.h>

/* The soname of libcurl's ABI 4, which every libcurl 7.x and 8.x has. */
#define CURL_SONAME "libcurl.so.4"

static pq_curl_api api;
static int loaded;

/* dlsym's object pointer copied into a function pointer (POSIX guarantees they convert). */
static int sym(void *h, const char *name, void *field, pq_error *err)
{
	void *p = dlsym(h, name);

	if (p == NULL)
		return pq_fail(err, "%s has no %s: ClickHouse needs libcurl 7.x or 8.x", CURL_SONAME,
			       name);
	memcpy(field, &p, sizeof(p));
	return 0;
}

const pq_curl_api *pq_curl(pq_error *err)
{
	void *h;

	if (loaded)
		return &api;
	h = dlopen(CURL_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) {
		pq_fail(err, "cannot load %s (%s): talking to ClickHouse needs libcurl "
			"(Debian: apt-get install libcurl4)", CURL_SONAME, dlerror());
		return NULL;
	}
	if (sym(h, "curl_global_init", &api.global_init, err) != 0 ||
	    sym(h, "curl_easy_init", &api.easy_init, err) != 0 ||
	    sym(h, "curl_easy_cleanup", &api.easy_cleanup, err) != 0 ||
	    sym(h, "curl_easy_reset", &api.easy_reset, err) != 0 ||
	    sym(h, "curl_easy_setopt", &api.easy_setopt, err) != 0 ||
	    sym(h, "curl_easy_perform", &api.easy_perform, err) != 0 ||
	    sym(h, "curl_easy_getinfo", &api.easy_getinfo, err) != 0 ||
	    sym(h, "curl_easy_strerror", &api.easy_strerror, err) != 0 ||
	    sym(h, "curl_easy_escape", &api.easy_escape, err) != 0 ||
	    sym(h, "curl_free", &api.free, err) != 0)
		return NULL;
	if (api.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		pq_fail(err, "libcurl initialisation failed");
		return NULL;
	}
	loaded = 1;
	return &api;
}
