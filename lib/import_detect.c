/* import_detect.c - what importers share about their source file: its format told by content,
 * its expected rows, the run metadata describing it. */
#include "import.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "db.h"
#include "hint.h"
#include "version.h"

/* An SQLite file is an nsys export when it has nsys's metadata or CUPTI tables. */
static enum pq_import_format detect_sqlite(const char *path, pq_error *err)
{
	static const char sql[] =
		"SELECT (SELECT count(*) FROM sqlite_master WHERE type = 'table' AND"
		"        (name IN ('META_DATA_EXPORT', 'EXPORT_META_DATA')"
		"         OR name LIKE 'CUPTI\\_ACTIVITY\\_KIND\\_%' ESCAPE '\\')),"
		"       (SELECT application_id FROM pragma_application_id)";
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	enum pq_import_format f = PQ_IMPORT_UNKNOWN;
	char *uri = sqlite3_mprintf("file:%s?mode=ro", path);
	int opened;

	if (uri == NULL) {
		pq_fail(err, "out of memory");
		return f;
	}
	/* Read-only through a URI, so a probe can never change the file. */
	opened = sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);

	if (opened == SQLITE_OK)
		pq_db_harden(db);  /* the probe runs nothing the file's schema says */
	if (opened == SQLITE_OK && sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW) {
		if (sqlite3_column_int64(st, 0) > 0)
			f = PQ_IMPORT_NSYS_SQLITE;
		else if (sqlite3_column_int64(st, 1) == PQ_APPLICATION_ID)
			pq_fail(err, "already a profq database");
		else
			pq_fail(err, "an SQLite database, but not an Nsight Systems export");
	} else {
		pq_fail(err, "cannot read it as SQLite: %s", db ? sqlite3_errmsg(db) : "out of memory");
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	sqlite3_free(uri);
	return f;
}

enum pq_import_format pq_import_detect(const char *path, pq_error *err)
{
	unsigned char head[64];
	size_t n, i = 0;
	FILE *f = fopen(path, "rb");

	if (f == NULL) {
		pq_fail(err, "cannot open: %s", strerror(errno));
		return PQ_IMPORT_UNKNOWN;
	}
	n = fread(head, 1, sizeof(head), f);
	if (ferror(f)) {
		pq_fail(err, "cannot read: %s", strerror(errno));
		fclose(f);
		return PQ_IMPORT_UNKNOWN;
	}
	fclose(f);
	if (n >= 2 && head[0] == 0x1f && head[1] == 0x8b)
		return PQ_IMPORT_CHROME_JSON;
	if (n >= 16 && memcmp(head, "SQLite format 3", 16) == 0)
		return detect_sqlite(path, err);
	if (n >= 3 && memcmp(head, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	while (i < n && strchr(" \t\r\n", head[i]) != NULL)
		i++;
	if (i < n && (head[i] == '{' || head[i] == '['))
		return PQ_IMPORT_CHROME_JSON;
	if (pq_is_nsys_report(path)) {
		char cmd[1024];

		pq_hint_nsys_export(cmd, sizeof(cmd), path);
		pq_fail(err, "an Nsight Systems report, which profq imports once exported to SQLite: "
			"%s", cmd);
	} else if (n == 0)
		pq_fail(err, "empty file");
	else
		pq_fail(err, "neither a Chrome trace (JSON) nor an Nsight Systems SQLite export");
	return PQ_IMPORT_UNKNOWN;
}

/* Bytes of source per stored row, measured: a Kineto trace ~300 bytes of JSON per event
 * (bench/gen_kineto.c and the ResNet50 samples), an nsys export ~80 bytes of SQLite per row
 * (h100_2gpu_1s.sqlite: 2.27 MB, 28 k rows). */
#define JSON_BYTES_PER_ROW 300
#define NSYS_BYTES_PER_ROW 100

/* gzip's trailer holds the uncompressed size mod 2^32 (RFC 1952, ISIZE). */
static int64_t gzip_size(FILE *f, int64_t compressed)
{
	unsigned char t[4];
	int64_t size;

	if (fseek(f, -4, SEEK_END) != 0 || fread(t, 1, 4, f) != 4)
		return compressed;
	size = (int64_t)t[0] | (int64_t)t[1] << 8 | (int64_t)t[2] << 16 | (int64_t)t[3] << 24;
	/* Past 4 GiB the field wraps; a typical trace compresses about tenfold. */
	return size >= compressed ? size : compressed * 10;
}

int64_t pq_import_expected_rows(const char *path, enum pq_import_format f)
{
	FILE *fp = fopen(path, "rb");
	unsigned char magic[2] = { 0, 0 };
	int64_t bytes;

	if (fp == NULL)
		return 0;
	if (fseek(fp, 0, SEEK_END) != 0 || (bytes = ftell(fp)) < 0) {
		fclose(fp);
		return 0;
	}
	rewind(fp);
	if (f == PQ_IMPORT_CHROME_JSON && fread(magic, 1, 2, fp) == 2 && magic[0] == 0x1f &&
	    magic[1] == 0x8b)
		bytes = gzip_size(fp, bytes);
	fclose(fp);
	return bytes / (f == PQ_IMPORT_NSYS_SQLITE ? NSYS_BYTES_PER_ROW : JSON_BYTES_PER_ROW);
}

int pq_import_source_metadata(pq_store *s, const pq_import_options *opt, pq_error *err)
{
	if (opt == NULL)
		return 0;
	if (opt->source_sha256 != NULL &&
	    pq_store_set_metadata(s, "source_sha256", opt->source_sha256, err) != 0)
		return -1;
	if (opt->source_bytes > 0 &&
	    pq_store_set_metadata_int(s, "source_bytes", opt->source_bytes, err) != 0)
		return -1;
	return 0;
}
