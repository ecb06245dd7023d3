/* fuzz_chrome.c - libFuzzer harness: the Chrome/Kineto JSON importer (plain or gzip) on any bytes,
 * strict or --keep-going (the input's last bit), into an in-memory profq database.
 *
 * The database is reused, as `profq import a.json b.json` reuses one: creating the schema for each
 * input took most of the time. It is made afresh every REOPEN inputs so it stays small. */
#include "fuzz_input.h"

#include "import.h"
#include "store.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REOPEN 256

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static pq_store *s;
	static int uses;
	const char *path = pq_fuzz_file(data, size);
	pq_import_options opt = { 0 };
	pq_import_stats stats;
	pq_error err;

	if (s != NULL && ++uses >= REOPEN) {
		pq_store_close(s);
		s = NULL;
	}
	/* One transaction per run, as `profq import` does: a failure rolls it back. */
	if (s == NULL) {
		if (pq_store_open(":memory:", -1, &s, &err) != 0)
			abort();
		uses = 0;
	}
	opt.keep_going = size > 0 && (data[size - 1] & 1);
	if (pq_import_chrome(s, path, &opt, &stats, &err) != 0 && pq_store_abort_run(s, &err) != 0)
		abort();
	return 0;
}
