/* import_estimate_test.c - pq_import_expected_rows: file size over the bytes a row takes, with a
 * gzip file measured by its uncompressed size. Expected values are worked from the sizes written. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "import.h"
#include "tap.h"

static char dir[256];

static const char *path_in(const char *name)
{
	static char buf[4][512];
	static int next;
	char *p = buf[next++ % 4];

	snprintf(p, sizeof(buf[0]), "%s/%s", dir, name);
	return p;
}

int main(void)
{
	static char text[30000];
	FILE *f;
	gzFile gz;

	snprintf(dir, sizeof(dir), "%s/profq-estimate-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(dir) == NULL) {
		puts("Bail out! cannot make a temporary directory");
		return 1;
	}
	memset(text, ' ', sizeof(text)); /* compresses to a few dozen bytes */
	f = fopen(path_in("t.json"), "wb");
	fwrite(text, 1, sizeof(text), f);
	fclose(f);
	gz = gzopen(path_in("t.json.gz"), "wb");
	gzwrite(gz, text, sizeof(text));
	gzclose(gz);

	is_int(pq_import_expected_rows(path_in("t.json"), PQ_IMPORT_CHROME_JSON), 30000 / 300,
	       "JSON: 300 bytes a row");
	is_int(pq_import_expected_rows(path_in("t.json.gz"), PQ_IMPORT_CHROME_JSON), 30000 / 300,
	       "gzip: counted by the uncompressed size in its trailer");
	is_int(pq_import_expected_rows(path_in("t.json"), PQ_IMPORT_NSYS_SQLITE), 30000 / 100,
	       "nsys export: 100 bytes a row");
	is_int(pq_import_expected_rows(path_in("missing"), PQ_IMPORT_CHROME_JSON), 0,
	       "a file that cannot be read: 0");
	unlink(path_in("t.json"));
	unlink(path_in("t.json.gz"));
	rmdir(dir);
	return done_testing();
}
