/* import_chrome.c - placeholder until the importer is written (never merged as is). */
#include "import.h"

int pq_import_chrome(pq_store *s, const char *path, const pq_import_options *opt,
		 pq_import_stats *stats, pq_error *err)
{
	(void)s;
	(void)path;
	(void)opt;
	(void)stats;
	return pq_fail(err, "this importer is not written yet");
}
