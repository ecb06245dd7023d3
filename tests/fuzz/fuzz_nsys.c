/* fuzz_nsys.c - libFuzzer harness: the Nsight Systems importer on mutated SQLite files (format
 * detection first, as `profq import` does), strict or --keep-going (the input's last bit), into an
 * in-memory profq database reused for REOPEN inputs (as fuzz_chrome.c, for speed). */
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

	if (pq_import_detect(path, &err) != PQ_IMPORT_NSYS_SQLITE)
		return 0;
	if (s != NULL && ++uses >= REOPEN) {
		pq_store_close(s);
		s = NULL;
	}
	if (s == NULL) {
		if (pq_store_open(":memory:", -1, &s, &err) != 0)
			abort();
		uses = 0;
	}
	opt.keep_going = size > 0 && (data[size - 1] & 1);
	if (pq_import_nsys(s, path, &opt, &stats, &err) != 0 && pq_store_abort_run(s, &err) != 0)
		abort();
	return 0;
}
