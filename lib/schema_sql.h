/* schema_sql.h - schema/schema.sql, schema/views.sql and schema/clickhouse_views.sql, embedded at
 * build time (scripts/embed.sh writes the definitions into build/gen/schema_sql.c). */
#ifndef PQ_SCHEMA_SQL_H
#define PQ_SCHEMA_SQL_H

extern const char pq_schema_sql[];
extern const char pq_views_sql[];
extern const char pq_ch_views_sql[];

#endif
