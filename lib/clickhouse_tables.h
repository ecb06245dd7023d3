/* clickhouse_tables.h - what profq keeps in ClickHouse: one MergeTree table per event table of the
 * profile, names denormalized (text in every row: ClickHouse's per-column LZ4 compression makes the
 * repeats cheap, and every report reads without joins), plus `runs`, the marker a run becomes
 * visible by. docs/scale-out.md describes the tables. */
#ifndef PQ_CLICKHOUSE_TABLES_H
#define PQ_CLICKHOUSE_TABLES_H

/* Every event table starts with these columns, filled by push (not by the SELECT below):
 * job (the partition: a job's runs drop together), push_id (one per push attempt: reports only see
 * rows whose push_id is in `runs`), run_key (the source's sha256), rank. */
#define PQ_CH_COMMON_COLUMNS \
	"job String, push_id String, run_key String, rank Int64, "

typedef struct pq_ch_table {
	const char *name;     /* ClickHouse table name (also the SQLite table it mirrors) */
	const char *columns;  /* ClickHouse column definitions after PQ_CH_COMMON_COLUMNS */
	const char *names;    /* the same columns' names, comma-separated, for INSERT */
	const char *time;     /* the time column of ORDER BY (run_key, time) */
	const char *select;   /* SQLite SELECT of those columns for run ?1, in the same order */
} pq_ch_table;

/* The event tables, ending with a { NULL } entry. */
extern const pq_ch_table pq_ch_tables[];

/* The marker table: its columns, and the names push fills (pushed_at takes its default). */
extern const char pq_ch_runs_columns[];
extern const char pq_ch_runs_names[];

#endif
