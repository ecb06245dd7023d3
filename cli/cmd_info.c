/* cmd_info.c - `profq info DB`: what a database holds. */
#include <getopt.h>
#include <string.h>

#include "cli.h"
#include "runlock.h"
#include "version.h"

static const char runs_sql[] =
	"SELECT id AS run, source,"
	" iif(status = 'open' AND profq_run_live(id) = 0, 'open (recorder gone)', status) AS status,"
	" CASE WHEN start_ns IS NULL THEN NULL"
	"      WHEN time_base = 'unix'"
	"      THEN strftime('%Y-%m-%d %H:%M:%f', start_ns / 1000000000.0, 'unixepoch') || ' UTC'"
	"      ELSE start_ns || ' ns (relative)' END AS start,"
	" iif(end_ns IS NULL, NULL, round((end_ns - start_ns) / 1e9, 6)) AS duration_s,"
	" (SELECT count(*) FROM processes p WHERE p.run_id = runs.id) AS processes,"
	" (SELECT count(*) FROM devices d WHERE d.run_id = runs.id) AS devices,"
	" source_path AS path "
	"FROM runs ORDER BY id";

static const char devices_sql[] =
	"SELECT run_id AS run, ordinal AS device, name,"
	" compute_major || '.' || compute_minor AS compute_capability, sm_count,"
	" iif(global_memory_bytes IS NULL, NULL,"
	"     round(global_memory_bytes / 1073741824.0, 2)) AS memory_gib,"
	" iif(memory_bandwidth_bytes_per_s IS NULL, NULL,"
	"     round(memory_bandwidth_bytes_per_s / 1e9, 1)) AS bandwidth_gb_s "
	"FROM devices ORDER BY run_id, ordinal";

static const char rows_sql[] =
	"SELECT 'kernels' AS \"table\", count(*) AS rows FROM kernels"
	" UNION ALL SELECT 'memcpys', count(*) FROM memcpys"
	" UNION ALL SELECT 'memsets', count(*) FROM memsets"
	" UNION ALL SELECT 'api_calls', count(*) FROM api_calls"
	" UNION ALL SELECT 'ranges', count(*) FROM ranges"
	" UNION ALL SELECT 'marks', count(*) FROM marks"
	" UNION ALL SELECT 'memory_events', count(*) FROM memory_events"
	" UNION ALL SELECT 'counters', count(*) FROM counters"
	" UNION ALL SELECT 'synchronizations', count(*) FROM synchronizations"
	" UNION ALL SELECT 'flows', count(*) FROM flows"
	" UNION ALL SELECT 'processes', count(*) FROM processes"
	" UNION ALL SELECT 'threads', count(*) FROM threads"
	" UNION ALL SELECT 'devices', count(*) FROM devices"
	" UNION ALL SELECT 'streams', count(*) FROM streams"
	" UNION ALL SELECT 'strings', count(*) FROM strings";

/* Each run's own span: runs of one file may be days apart, or on clocks that do not compare. */
static const char span_sql[] =
	"SELECT id AS run,"
	" CASE WHEN time_base = 'unix'"
	"      THEN strftime('%Y-%m-%d %H:%M:%f', start_ns / 1000000000.0, 'unixepoch') || ' UTC'"
	"      ELSE start_ns || ' ns (relative)' END AS first_event,"
	" CASE WHEN end_ns IS NULL THEN NULL WHEN time_base = 'unix'"
	"      THEN strftime('%Y-%m-%d %H:%M:%f', end_ns / 1000000000.0, 'unixepoch') || ' UTC'"
	"      ELSE end_ns || ' ns (relative)' END AS last_event,"
	" iif(end_ns IS NULL, NULL, round((end_ns - start_ns) / 1e9, 6)) AS span_s "
	"FROM runs WHERE start_ns IS NOT NULL ORDER BY id";

/* The current (newest) NVTX name of every named CUDA object. */
static const char cuda_names_sql[] =
	"SELECT run_id AS run, pid, resource, api,"
	" iif(resource = 'device', handle, printf('0x%x', handle)) AS handle, cupti_id, name "
	"FROM (SELECT n.*, p.pid, s.value AS name, row_number() OVER (PARTITION BY n.run_id,"
	"   n.process_id, n.resource, n.api, n.handle ORDER BY n.ts_ns DESC, n.id DESC) AS newest"
	" FROM cuda_names n JOIN strings s ON s.id = n.name_id"
	" LEFT JOIN processes p ON p.id = n.process_id) "
	"WHERE newest = 1 ORDER BY run, pid, resource, api, handle";

/* A section with `only_if` is shown when that table exists and has rows (files written before the
 * table was added have none). */
static const struct {
	const char *title;
	const char *sql;
	const char *only_if;
} sections[] = {
	{ "runs", runs_sql, NULL },
	{ "devices", devices_sql, NULL },
	{ "rows", rows_sql, NULL },
	{ "time_span", span_sql, NULL },
	{ "cuda_names", cuda_names_sql, "cuda_names" },
};

static int shown(sqlite3 *db, size_t i)
{
	sqlite3_stmt *st = NULL;
	char sql[128];
	int rows;

	if (sections[i].only_if == NULL)
		return 1;
	snprintf(sql, sizeof(sql), "SELECT 1 FROM \"%s\" LIMIT 1", sections[i].only_if);
	rows = sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
	       sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return rows;
}

static int print_json(sqlite3 *db, const char *path, pq_error *err)
{
	cJSON *root = cJSON_CreateObject();
	char *text;

	if (root == NULL || !cJSON_AddStringToObject(root, "file", path) ||
	    !cJSON_AddNumberToObject(root, "schema_version", PQ_SCHEMA_VERSION) ||
	    !cJSON_AddNumberToObject(root, "missing_event_indexes",
				     pq_db_missing_event_indexes(db))) {
		cJSON_Delete(root);
		return pq_fail(err, "out of memory");
	}
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++) {
		sqlite3_stmt *st = NULL;
		cJSON *rows;

		if (!shown(db, i))
			continue;
		if (sqlite3_prepare_v2(db, sections[i].sql, -1, &st, NULL) != SQLITE_OK) {
			cJSON_Delete(root);
			return pq_fail(err, "%s", sqlite3_errmsg(db));
		}
		rows = pq_rows_to_json(st, err);
		sqlite3_finalize(st);
		if (rows == NULL || !cJSON_AddItemToObject(root, sections[i].title, rows)) {
			cJSON_Delete(rows);
			cJSON_Delete(root);
			return -1;
		}
	}
	text = cJSON_Print(root);
	cJSON_Delete(root);
	if (text == NULL)
		return pq_fail(err, "out of memory");
	puts(text);
	cJSON_free(text);
	return 0;
}

static int print_tables(sqlite3 *db, const char *path, pq_error *err)
{
	int missing = pq_db_missing_event_indexes(db);

	printf("file: %s (profq schema version %d)\n", path, PQ_SCHEMA_VERSION);
	if (missing > 0)
		printf("event indexes: %d missing (a recording is running, or was killed before it "
		       "built them; profq repair or the next import or record builds them)\n", missing);
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++) {
		if (!shown(db, i))
			continue;
		printf("\n%s:\n", sections[i].title);
		if (pq_run_sql(db, sections[i].sql, NULL, PQ_FORMAT_TABLE, stdout, err) != 0)
			return -1;
	}
	return 0;
}

const char pq_info_help[] =
	"Usage: profq info <profile.db> [--format table|json]\n"
	"\n"
	"Shows what a database holds: its runs (source, status, start, duration), devices, the\n"
	"row count of every event table, and the time span of the events.\n"
	"\n"
	"  --format F   table (default) or json\n";

int pq_cmd_info(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum pq_format format = PQ_FORMAT_TABLE;
	sqlite3 *db;
	pq_error err;
	int c, rc;

	optind = 1;
	while ((c = pq_getopt(argc, argv, "f:h", opts, "info")) != -1) {
		switch (c) {
		case 'f':
			if (pq_format_parse(optarg, &format) != 0 || format == PQ_FORMAT_CSV)
				return pq_cli_usage("info: unknown format '%s' (table or json)",
						    optarg);
			break;
		case 'h':
			fputs(pq_info_help, stdout);
			return PQ_EXIT_OK;
		default:
			return PQ_EXIT_USAGE;
		}
	}
	if (optind + 1 != argc)
		return pq_cli_usage("info: give exactly one database");
	db = pq_cli_open(argv[optind], PQ_OPEN_READ);
	if (db == NULL)
		return PQ_EXIT_FAIL;
	/* An open run nobody writes any more shows as such (the next write closes it). */
	pq_run_lock_sql(db);
	if (format == PQ_FORMAT_JSON)
		rc = print_json(db, argv[optind], &err);
	else
		rc = print_tables(db, argv[optind], &err);
	sqlite3_close(db);
	return rc == 0 ? PQ_EXIT_OK : pq_cli_fail("%s", err.msg);
}
