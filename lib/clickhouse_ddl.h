/* clickhouse_ddl.h - creating profq's ClickHouse tables on first use. */
#ifndef PQ_CLICKHOUSE_DDL_H
#define PQ_CLICKHOUSE_DDL_H

#include "clickhouse_http.h"

/* Creates ch's database and every table if missing (CREATE ... IF NOT EXISTS). Without a cluster
 * each table is a MergeTree, PARTITION BY job, ORDER BY (run_key, <time>). With cluster (a
 * remote_servers name of the server's config) the MergeTree tables are called <name>_local and
 * <name> is a Distributed table over them, sharded by rand(); run it on every shard. */
int pq_ch_create_tables(pq_ch *ch, const char *cluster, pq_error *err);

#endif
