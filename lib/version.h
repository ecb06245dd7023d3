/* version.h - the profq release and the schema version this build reads and writes. */
#ifndef PQ_VERSION_H
#define PQ_VERSION_H

#define PROFQ_VERSION "0.1.0"

/* PRAGMA user_version of a database made by this build (schema/schema.sql sets the same number). */
#define PQ_SCHEMA_VERSION 1

/* PRAGMA application_id of every profq database: 0x50524651, "PRFQ". */
#define PQ_APPLICATION_ID 0x50524651

#endif
