/* chrome_fields.h - what the Chrome importer reads from one parsed event, found in one pass.
 *
 * Looking each member up by name (cJSON_GetObjectItemCaseSensitive: a strcmp per member per
 * lookup) cost more than anything else the importer does per event outside SQLite, and Kineto
 * events are looked up ~20 times each (kernels: ~15 args keys, twice). A digest walks the
 * event's members and its args' members once, dispatching on the key, and keeps the value of
 * every key the importer uses, with cJSON's rule (the first member of that name wins; an args
 * that is not an object has none). It also converts ts and dur from their text. The reader
 * thread digests each event as it parses it, so this work overlaps with the SQLite side.
 */
#ifndef PQ_CHROME_FIELDS_H
#define PQ_CHROME_FIELDS_H

#include <stdint.h>

#include <cJSON.h>

#include "chrome_stream.h"

/* Event members by name. */
enum chrome_field {
	CF_PH, CF_NAME, CF_CAT, CF_PID, CF_TID, CF_ARGS, CF_ID, CF_ID2, CF_S, CF_SCOPE, CF_BP,
	CF_N
};

/* args members with columns (or that decide a row's shape). */
enum chrome_arg {
	CA_DEVICE, CA_STREAM, CA_CORRELATION, CA_EXTERNAL_ID, CA_EXTERNAL_ID_LC,
	CA_REGISTERS, CA_SHARED_MEMORY, CA_BLOCKS_PER_SM, CA_WARPS_PER_SM, CA_GRID, CA_BLOCK,
	CA_OCCUPANCY, CA_GRAPH_ID, CA_GRAPH_NODE_ID, CA_BYTES, CA_CBID, CA_WAIT_EVENT,
	CA_MEM_BYTES, CA_ADDR, CA_TOTAL_ALLOCATED, CA_TOTAL_RESERVED, CA_DEVICE_TYPE, CA_DEVICE_ID,
	CA_N
};

/* The key text of each chrome_arg ("External id", "est. achieved occupancy %", ...). */
extern const char *const chrome_arg_names[CA_N];

/* 1 when key[0..len) (decoded) is one of chrome_arg_names: the only args members an X event's
 * digest reads (its args text is copied from the event's text), so the only ones parsed. */
int chrome_arg_named(const char *key, size_t len);

/* A time member: converted, absent, or wrong (the importer then says why). */
enum chrome_time_state { CT_OK, CT_ABSENT, CT_BAD };

typedef struct chrome_digest {
	const cJSON *f[CF_N];
	const cJSON *a[CA_N];
	/* The args values as a column takes them (chrome_int, chrome_real: PQ_NULL and NaN when
	 * absent), and which ones a column can take at all (bit k: an array, an integer or a
	 * real), so the importer's thread does not convert them again. */
	int64_t ai[CA_N];
	double ar[CA_N];
	uint32_t columnable;
	/* grid and block ([x, y, z] when has_dim), pid and tid as integers (PQ_NULL when absent
	 * or not numeric: then the importer looks at the value itself). */
	int has_dim[2];
	int64_t dim[2][3];
	int64_t pid, tid;
	enum chrome_time_state ts_state, dur_state;
	int64_t ts, dur;             /* us text -> ns, without the run's offset */
} chrome_digest;

/* Fills d from an event: json its cJSON parse (an object), text[0..) its text, mem the scanner's
 * members (for the exact ts and dur text). */
void chrome_digest_event(chrome_digest *d, const cJSON *json, const char *text,
			 const pq_chrome_members *mem);

/* A time member (us) of an event as ns: CT_OK, CT_ABSENT (missing or null), or CT_BAD. */
enum chrome_time_state chrome_time_member(const cJSON *json, const char *text,
					  const pq_chrome_members *mem, const char *key,
					  int64_t *ns);

/* The raw text of a top-level member of an event, or NULL. */
const char *chrome_member_text(const char *text, const pq_chrome_members *mem, const char *key,
			       size_t *len);

/* Values. */
const char *chrome_str(const cJSON *v);                /* the string, or NULL */
const char *chrome_str_of(const cJSON *o, const char *key);
int64_t chrome_int(const cJSON *v);     /* a number or numeric string that is an integer, else PQ_NULL */
int64_t chrome_int_of(const cJSON *o, const char *key);
double chrome_real(const cJSON *v);     /* a finite number or numeric string, else NaN */

#endif
