/* import_nsys.c - Nsight Systems SQLite export (schema 2.9 to 3.28) -> one run.
 *
 * Order: open and check the export completely (schema, required columns, integrity) before the
 * run begins, so an export this importer cannot read leaves the database untouched (the sorted
 * reads start meanwhile, nsys_prefetch.c); then the run (source "nsys-sqlite",
 * EXPORT_PRODUCT_VERSION, time base from nsys_time.c), metadata, dimensions, the CUDA tables,
 * NVTX, stream properties, counts of what was not imported.
 */
#include "import.h"

#include <stdio.h>
#include <string.h>

#include "nsys.h"

static int hostname(nsys_ctx *c)
{
	sqlite3_stmt *st;

	c->hostname[0] = '\0';
	if (!nsys_has_table(c, "TARGET_INFO_SYSTEM_ENV") ||
	    !nsys_has_column(c, "TARGET_INFO_SYSTEM_ENV", "name") ||
	    !nsys_has_column(c, "TARGET_INFO_SYSTEM_ENV", "value"))
		return 0;
	if (sqlite3_prepare_v2(c->db, "SELECT value FROM TARGET_INFO_SYSTEM_ENV "
			       "WHERE name = 'Hostname' LIMIT 1", -1, &st, NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) != NULL) {
		const char *h = (const char *)sqlite3_column_text(st, 0);
		size_t n = strlen(h);

		if (n >= sizeof(c->hostname))
			n = sizeof(c->hostname) - 1;
		memcpy(c->hostname, h, n);
		c->hostname[n] = '\0';
	}
	sqlite3_finalize(st);
	return 0;
}

/* Tables an export can do without, and what is lost without them: a warning (stats.warning) and
 * run metadata nsys.missing_tables. A kernel or API table counts as missing only when the other
 * is there (an export of a program without CUDA has neither). */
static int missing_tables(nsys_ctx *c)
{
	static const struct {
		const char *table, *loss, *only_with;
	} optional[] = {
		{ "TARGET_INFO_SESSION_START_TIME", "times stay relative to the capture", NULL },
		{ "PROCESSES", "no process names", NULL },
		{ "ThreadNames", "no thread names", NULL },
		{ "CUPTI_ACTIVITY_KIND_KERNEL", "no kernels", "CUPTI_ACTIVITY_KIND_RUNTIME" },
		{ "CUPTI_ACTIVITY_KIND_RUNTIME", "no CUDA API calls", "CUPTI_ACTIVITY_KIND_KERNEL" },
	};
	char *w = c->stats->warning, names[512] = "";
	size_t n = sizeof(c->stats->warning), used = 0, nused = 0;

	w[0] = '\0';
	for (size_t i = 0; i < sizeof(optional) / sizeof(optional[0]); i++) {
		if (nsys_has_table(c, optional[i].table) ||
		    (optional[i].only_with != NULL && !nsys_has_table(c, optional[i].only_with)))
			continue;
		if (used < n)
			used += (size_t)snprintf(w + used, n - used, "%s%s (%s)",
						 used ? ", " : "missing tables: ", optional[i].table,
						 optional[i].loss);
		if (nused < sizeof(names))
			nused += (size_t)snprintf(names + nused, sizeof(names) - nused, "%s%s",
						  nused ? "," : "", optional[i].table);
	}
	return names[0] == '\0' ? 0 :
	       pq_store_set_metadata(c->s, "nsys.missing_tables", names, c->err);
}

/* The event tables' sorted reads and the orphan count, begun on the second CPU while this one
 * scans the export and then writes. */
static void read_ahead(nsys_ctx *c)
{
	static const nsys_query *const reads[] = {
		&nsys_q_kernels, &nsys_q_memcpys, &nsys_q_memsets, &nsys_q_syncs, &nsys_q_api_calls,
		&nsys_q_nvtx_events,
	};
	const char *orphans_sql = nsys_kernel_orphans_sql(c);

	nsys_prefetch(c, reads, (int)(sizeof(reads) / sizeof(reads[0])), &orphans_sql,
		      orphans_sql != NULL);
}

static int import(nsys_ctx *c)
{
	pq_run_info info;
	int64_t orphans;

	if (nsys_time_base(c) != 0 || hostname(c) != 0)
		return -1;
	pq_run_info_init(&info);
	info.source = "nsys-sqlite";
	info.source_path = c->path;
	info.source_version = c->product_version[0] ? c->product_version : NULL;
	info.hostname = c->hostname[0] ? c->hostname : NULL;
	info.relative_time = c->relative;
	info.time_offset_ns = c->offset;
	pq_store_rows_fill_no_partial_index(c->s); /* no framework ids in an export */
	if (pq_store_begin_run(c->s, &info, &c->stats->run_id, c->err) != 0)
		return -1;
	if (pq_import_source_metadata(c->s, c->opt, c->err) != 0)
		return -1;
	if (c->opt != NULL)
		pq_progress_report(&c->opt->progress, PQ_PHASE_WRITE, 0, c->total);
	if (missing_tables(c) != 0 || nsys_write_metadata(c) != 0 || nsys_time_metadata(c) != 0 ||
	    nsys_import_processes(c) != 0 || nsys_import_devices(c) != 0 ||
	    nsys_import_kernels(c) != 0 || nsys_import_memcpys(c) != 0 ||
	    nsys_import_memsets(c) != 0 || nsys_import_syncs(c) != 0 ||
	    nsys_import_api_calls(c) != 0 || nsys_import_nvtx(c) != 0 ||
	    nsys_import_stream_props(c) != 0)
		return -1;
	if (nsys_write_skipped(c) != 0 ||
	    pq_store_set_metadata_int(c->s, "nsys.skipped_rows", c->stats->skipped, c->err) != 0)
		return -1;
	if (c->opt != NULL)
		pq_progress_report(&c->opt->progress, PQ_PHASE_WRITE, c->total, c->total);
	/* The indexes before the run is finished, so that the helper counts the orphan kernels in
	 * the export on the second CPU meanwhile (pq_store_finish_run then finds them built). */
	nsys_prefetch_release(c, nsys_kernel_orphans_sql(c));
	if (pq_store_build_indexes(c->s, c->err) != 0 || nsys_kernel_orphans(c, &orphans) != 0)
		return -1;
	if (orphans != PQ_NULL &&
	    pq_store_set_metadata_int(c->s, "nsys.kernels_without_api_call", orphans, c->err) != 0)
		return -1;
	return pq_store_finish_run(c->s, c->err);
}

int pq_import_nsys(pq_store *s, const char *path, const pq_import_options *opt,
		   pq_import_stats *stats, pq_error *err)
{
	nsys_ctx c;
	pq_import_stats local;
	int rc;

	if (stats == NULL)
		stats = &local;
	for (int sorted = 0;; sorted = 1) {
		memset(&c, 0, sizeof(c));
		memset(stats, 0, sizeof(*stats));
		c.s = s;
		c.opt = opt;
		c.stats = stats;
		c.err = err;
		c.unordered = sorted;
		rc = nsys_open(&c, path);
		if (rc == 0) {
			read_ahead(&c);
			rc = nsys_scan(&c);
		}
		if (rc == 0)
			rc = import(&c);
		nsys_close(&c);
		/* The NVTX events, read in rowid order untested, were out of order within a thread
		 * (nsys_read.c): the run is rolled back and made again with them sorted. */
		if (rc == 0 || !c.unordered || sorted)
			return rc;
		if (pq_store_abort_run(s, err) != 0)
			return -1;
	}
}
