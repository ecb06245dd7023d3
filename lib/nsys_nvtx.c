/* nsys_nvtx.c - NVTX_EVENTS -> nvtx_domains, nvtx_categories, ranges and marks.
 *
 * eventType (ENUM_NSYS_EVENT_TYPE, notes §1.6; the 3.25 export's enum table): 75 domain create
 * (name = text, key = (process, domainId)); 33 category (and NVTXT's 64): `category` named
 * `text` in domainId; 59 push/pop range (and NVTXT's 70), one row per range, start and end on
 * the same thread; 60 start/end range (NVTXT 71), ended on endGlobalTid; 34 mark (NVTXT 65).
 * Text = coalesce(StringIds[textId], text), the rule NVIDIA's reports use. Other event types
 * (39 thread naming, 76 domain destroy, 35-38 unmerged halves, NVTXT meta rows) are counted in
 * run_metadata and not imported.
 *
 * Domains and categories are read first; the other rows are read sorted by (globalTid, start,
 * end descending), so push/pop depth and parent come from one stack per thread: a range's parent
 * is the innermost open range that contains it (half-open intervals).
 */
#include "nsys.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_quote.h"
#include "put_int.h"

enum {
	N_START, N_END, N_TYPE, N_GTID, N_END_GTID, N_DOMAIN, N_CATEGORY, N_COLOR, N_TEXT_ID,
	N_TEXT, N_RANGE_ID, N_I64, N_U64, N_I32, N_U32, N_DOUBLE, N_FLOAT, N_JSON_ID, N_JSON,
	N_COUNT
};

static const nsys_col cols[N_COUNT] = {
	{ "start", NSYS_REQ }, { "end", NSYS_REQ }, { "eventType", NSYS_REQ }, { "globalTid", 0 },
	{ "endGlobalTid", 0 }, { "domainId", 0 }, { "category", 0 }, { "color", 0 },
	{ "textId", NSYS_STR }, { "text", NSYS_TEXT }, { "rangeId", 0 }, { "int64Value", 0 },
	{ "uint64Value", 0 }, { "int32Value", 0 }, { "uint32Value", 0 }, { "doubleValue", NSYS_REAL },
	{ "floatValue", NSYS_REAL }, { "jsonTextId", NSYS_STR }, { "jsonText", NSYS_TEXT },
};

static const char table[] = "NVTX_EVENTS";

/* The events other than definitions, in the order the push/pop stacks need. */
const nsys_query nsys_q_nvtx_events = {
	table, cols, N_COUNT, "t.eventType NOT IN (75, 33, 64)",
	"t.globalTid, t.start, coalesce(t.\"end\", 9223372036854775807) DESC, t.rowid",
	NSYS_ROWID_IF_BY_THREAD
};

typedef struct open_range {
	int64_t end;        /* INT64_MAX: never closed */
	int64_t id;
} open_range;

/* One thread's push/pop ranges still open: the read may interleave the threads (nsys_order.c). */
typedef struct thread_stack {
	int64_t gtid;
	open_range *open;
	size_t depth, cap;
	int used;
} thread_stack;

typedef struct nvtx_state {
	pq_map domains;  /* "<pid>|<domainId>" -> nvtx_domains.id */
	int64_t unnamed_domains;
	thread_stack *stacks; /* open addressing on gtid, grown at half full */
	size_t nstacks, stacks_cap;
	char *json;         /* args buffer */
	size_t json_cap;
} nvtx_state;

static const char *row_text(const nsys_read *rd)
{
	const char *t = nsys_text(rd, N_TEXT_ID);

	return t != NULL ? t : nsys_text(rd, N_TEXT);
}

static int64_t process_of(int64_t gtid)
{
	return gtid == PQ_NULL ? PQ_NULL : gtid & ~(int64_t)0xFFFFFF;
}

/* The nvtx_domains row of (process, domainId); the default domain (0 or NULL) is none. A domain
 * whose create event is not in the export (e.g. a time slice) gets a placeholder name. */
static int domain_of(nsys_ctx *c, nvtx_state *n, const nsys_read *rd, int64_t process_id,
		     const char *create_name, int64_t *id)
{
	int64_t dom = nsys_int(rd, N_DOMAIN), gtid = nsys_int(rd, N_GTID);
	char key[64], placeholder[64];
	size_t len;

	*id = PQ_NULL;
	if (dom == PQ_NULL || (dom == 0 && create_name == NULL))
		return 0;
	len = pq_put_int(key, gtid == PQ_NULL ? -1 : NSYS_PID(gtid));
	key[len++] = '|';
	len += pq_put_int(key + len, dom);
	key[len] = '\0';
	if (create_name == NULL && pq_map_get_int(&n->domains, key, len, id))
		return 0;
	if (create_name == NULL) {
		snprintf(placeholder, sizeof(placeholder), "(domain %" PRId64 ")", dom);
		create_name = placeholder;
		n->unnamed_domains++;
	}
	if (pq_store_nvtx_domain(c->s, process_id, create_name, id, c->err) != 0)
		return -1;
	c->stats->rows++;
	if (pq_map_put_int(&n->domains, key, len, *id) != 0)
		return pq_fail(c->err, "out of memory");
	return 0;
}

/* The payload: the first integer or floating-point value column set. */
static pq_value payload(const nsys_read *rd)
{
	pq_value v = { PQ_VALUE_NULL, 0, 0 };

	for (int i = N_I64; i <= N_U32; i++)
		if (!nsys_is_null(rd, i)) {
			v.type = PQ_VALUE_INT;
			v.i = nsys_int(rd, i);
			return v;
		}
	for (int i = N_DOUBLE; i <= N_FLOAT; i++)
		if (!nsys_is_null(rd, i)) {
			v.type = PQ_VALUE_REAL;
			v.d = nsys_real(rd, i);
			return v;
		}
	return v;
}

/* args: the JSON payload text when it is an object, else {"jsonText": "<text>"}. */
static int json_args(nsys_ctx *c, nvtx_state *n, const nsys_read *rd, const char **args)
{
	const char *j = nsys_text(rd, N_JSON_ID);
	size_t need, len;

	if (j == NULL)
		j = nsys_text(rd, N_JSON);
	*args = NULL;
	if (j == NULL)
		return 0;
	if (j[0] == '{') {
		*args = j;
		return 0;
	}
	need = pq_json_quote(NULL, 0, j, strlen(j)) + sizeof("{\"jsonText\":}");
	if (need > n->json_cap) {
		char *p = realloc(n->json, need);

		if (p == NULL)
			return pq_fail(c->err, "out of memory");
		n->json = p;
		n->json_cap = need;
	}
	len = (size_t)sprintf(n->json, "{\"jsonText\":");
	len += pq_json_quote(n->json + len, need - len, j, strlen(j));
	strcpy(n->json + len, "}");
	*args = n->json;
	return 0;
}

static int read_definitions(nsys_ctx *c, nvtx_state *n)
{
	nsys_read rd;

	/* Domains before categories: a category names its domain. */
	if (nsys_select(c, table, cols, N_COUNT, "t.eventType IN (75, 33, 64)",
			"t.eventType = 75 DESC, t.start, t.rowid", &rd) != 0)
		return -1;
	while (nsys_next(&rd) == 1) {
		int64_t type = nsys_int(&rd, N_TYPE), process_id, domain_id;
		int64_t gtid = nsys_int(&rd, N_GTID), cat = nsys_int(&rd, N_CATEGORY);
		const char *text = row_text(&rd);

		c->stats->events++;
		if (nsys_process(c, process_of(gtid), &process_id) != 0)
			break;
		if (type == 75) {
			if (text == NULL) {
				if (nsys_bad_row(c, table, "a domain without a name") != 0)
					break;
				continue;
			}
			if (domain_of(c, n, &rd, process_id, text, &domain_id) != 0)
				break;
			continue;
		}
		if (cat == PQ_NULL || text == NULL) {
			if (nsys_bad_row(c, table, "a category without id or name") != 0)
				break;
			continue;
		}
		if (domain_of(c, n, &rd, process_id, NULL, &domain_id) != 0 ||
		    pq_store_nvtx_category(c->s, process_id, domain_id, cat, text, c->err) != 0)
			break;
		c->stats->rows++;
	}
	return nsys_close_read(&rd);
}

static size_t stack_slot(const thread_stack *t, size_t cap, int64_t gtid)
{
	size_t i = (size_t)(((uint64_t)gtid * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);

	while (t[i].used && t[i].gtid != gtid)
		i = (i + 1) & (cap - 1);
	return i;
}

/* The open ranges of thread gtid (PQ_NULL included); NULL when out of memory. */
static thread_stack *stack_of(nvtx_state *n, int64_t gtid)
{
	size_t i;

	if (2 * (n->nstacks + 1) > n->stacks_cap) {
		size_t cap = n->stacks_cap ? 2 * n->stacks_cap : 16;
		thread_stack *t = calloc(cap, sizeof(*t));

		if (t == NULL)
			return NULL;
		for (size_t k = 0; k < n->stacks_cap; k++)
			if (n->stacks[k].used)
				t[stack_slot(t, cap, n->stacks[k].gtid)] = n->stacks[k];
		free(n->stacks);
		n->stacks = t;
		n->stacks_cap = cap;
	}
	i = stack_slot(n->stacks, n->stacks_cap, gtid);
	if (!n->stacks[i].used) {
		n->stacks[i] = (thread_stack){ .gtid = gtid, .used = 1 };
		n->nstacks++;
	}
	return &n->stacks[i];
}

static void free_stacks(nvtx_state *n)
{
	for (size_t k = 0; k < n->stacks_cap; k++)
		free(n->stacks[k].open);
	free(n->stacks);
}

static int push(nsys_ctx *c, thread_stack *t, int64_t end, int64_t id)
{
	if (t->depth == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		open_range *p = realloc(t->open, cap * sizeof(*p));

		if (p == NULL)
			return pq_fail(c->err, "out of memory");
		t->open = p;
		t->cap = cap;
	}
	t->open[t->depth].end = end;
	t->open[t->depth].id = id;
	t->depth++;
	return 0;
}

static int read_events(nsys_ctx *c, nvtx_state *n)
{
	nsys_read rd;

	if (nsys_open_read(c, &nsys_q_nvtx_events, &rd) != 0)
		return -1;
	while (nsys_next(&rd) == 1) {
		int64_t type = nsys_int(&rd, N_TYPE), gtid = nsys_int(&rd, N_GTID);
		int64_t process_id, thread_id, domain_id, start, end = PQ_NULL, name_id;
		const char *name = row_text(&rd), *args;

		c->stats->events++;
		if (type != 59 && type != 70 && type != 60 && type != 71 && type != 34 &&
		    type != 65) {
			char reason[64];

			snprintf(reason, sizeof(reason), "NVTX_EVENTS: eventType %" PRId64, type);
			if (nsys_not_mapped(c, reason) != 0)
				break;
			continue;
		}
		if (nsys_time(c, &rd, N_START, &start) != 0 ||
		    (!nsys_is_null(&rd, N_END) &&
		     (nsys_time(c, &rd, N_END, &end) != 0 || end < start))) {
			if (nsys_bad_row(c, table, NSYS_BAD_TIME) !=
			    0)
				break;
			continue;
		}
		if (nsys_process(c, process_of(gtid), &process_id) != 0 ||
		    nsys_thread(c, gtid, &thread_id) != 0 ||
		    domain_of(c, n, &rd, process_id, NULL, &domain_id) != 0 ||
		    json_args(c, n, &rd, &args) != 0)
			break;
		if (name == NULL)
			name = "";     /* NVTX allows a range or mark without a message */
		if (nsys_name_id(c, &rd, N_TEXT_ID, &name_id) != 0)
			break;
		if (type == 34 || type == 65) {
			pq_mark m;

			pq_mark_init(&m);
			m.process_id = process_id;
			m.thread_id = thread_id;
			m.ts_ns = start;
			m.kind = PQ_MARK_NVTX;
			m.name = name;
			m.name_id = name_id;
			m.domain_id = domain_id;
			m.nvtx_category = nsys_int(&rd, N_CATEGORY);
			m.color = nsys_int(&rd, N_COLOR);
			m.payload = payload(&rd);
			m.args = args;
			if (pq_store_mark(c->s, &m, NULL, c->err) != 0)
				break;
		} else {
			thread_stack *t = NULL;
			pq_range r;
			int64_t id;

			pq_range_init(&r);
			r.process_id = process_id;
			r.thread_id = thread_id;
			r.start_ns = start;
			r.end_ns = end;
			r.name = name;
			r.name_id = name_id;
			r.domain_id = domain_id;
			r.nvtx_category = nsys_int(&rd, N_CATEGORY);
			r.color = nsys_int(&rd, N_COLOR);
			r.payload = payload(&rd);
			r.args = args;
			if (end == PQ_NULL)
				c->stats->unmatched++;
			if (type == 59 || type == 70) {
				r.kind = PQ_RANGE_NVTX_PUSH_POP;
				if ((t = stack_of(n, gtid)) == NULL) {
					pq_fail(c->err, "out of memory");
					break;
				}
				while (t->depth > 0 && t->open[t->depth - 1].end <= start)
					t->depth--;
				r.depth = (int64_t)t->depth;
				r.parent_id = t->depth > 0 ? t->open[t->depth - 1].id : PQ_NULL;
			} else {
				r.kind = PQ_RANGE_NVTX_START_END;
				r.range_key = nsys_int(&rd, N_RANGE_ID);
				if (nsys_thread(c, nsys_int(&rd, N_END_GTID), &r.end_thread_id) != 0)
					break;
			}
			if (pq_store_range(c->s, &r, &id, c->err) != 0)
				break;
			if (t != NULL && push(c, t, end == PQ_NULL ? INT64_MAX : end, id) != 0)
				break;
		}
		c->stats->rows++;
	}
	return nsys_close_read(&rd);
}

int nsys_import_nvtx(nsys_ctx *c)
{
	nvtx_state n;
	int rc;

	if (!nsys_has_table(c, table))
		return 0;
	memset(&n, 0, sizeof(n));
	rc = read_definitions(c, &n);
	if (rc == 0)
		rc = read_events(c, &n);
	if (rc == 0 && n.unnamed_domains > 0)
		rc = pq_store_set_metadata_int(c->s, "nsys.nvtx_domains_without_name",
					       n.unnamed_domains, c->err);
	pq_map_free(&n.domains);
	free_stacks(&n);
	free(n.json);
	return rc;
}
