/* buffers.c - per-thread event buffers and their bounded chunk pool (see buffers.h). */
#include "buffers.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

struct pq_chunk {
	_Atomic size_t committed;        /* bytes the producer has published */
	_Atomic(pq_chunk *) next;        /* set (after the last commit) when the chunk is sealed */
	size_t read;                     /* writer's offset */
	pq_chunk *pool_next;
	_Alignas(8) char data[PQ_CHUNK_BYTES];
};

static pthread_mutex_t pool_mtx = PTHREAD_MUTEX_INITIALIZER;
static pq_chunk *pool_free;
static size_t pool_count;                /* chunks allocated, free or in use */

static pthread_mutex_t reg_mtx = PTHREAD_MUTEX_INITIALIZER;
static pq_tbuf *registry;
static _Atomic uint64_t dropped_total;

static pthread_key_t tbuf_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
/* initial-exec: one pointer of static TLS, no __tls_get_addr on the hot path. */
static __thread pq_tbuf *tl_buf __attribute__((tls_model("initial-exec")));

static pq_chunk *chunk_get(void)
{
	pq_chunk *c = NULL;
	size_t max = pq_cfg.buffer_bytes / sizeof(pq_chunk);

	pthread_mutex_lock(&pool_mtx);
	if (pool_free != NULL) {
		c = pool_free;
		pool_free = c->pool_next;
	} else if (pool_count < (max < 2 ? 2 : max)) {
		c = malloc(sizeof(*c));
		if (c != NULL)
			pool_count++;
	}
	pthread_mutex_unlock(&pool_mtx);
	if (c != NULL) {
		atomic_store_explicit(&c->committed, 0, memory_order_relaxed);
		atomic_store_explicit(&c->next, NULL, memory_order_relaxed);
		c->read = 0;
		c->pool_next = NULL;
	}
	return c;
}

static void chunk_put(pq_chunk *c)
{
	pthread_mutex_lock(&pool_mtx);
	c->pool_next = pool_free;
	pool_free = c;
	pthread_mutex_unlock(&pool_mtx);
}

static void thread_gone(void *p)
{
	pq_tbuf *t = p;

	tl_buf = NULL;
	atomic_store_explicit(&t->dead, 1, memory_order_release);
}

static void make_key(void)
{
	pthread_key_create(&tbuf_key, thread_gone);
}

static pq_tbuf *tbuf_new(void)
{
	pq_tbuf *t = calloc(1, sizeof(*t));

	if (t == NULL)
		return NULL;
	pthread_once(&key_once, make_key);
	t->tid = (int64_t)syscall(SYS_gettid);
	t->capture_depth = -1;
	pthread_setspecific(tbuf_key, t);
	pthread_mutex_lock(&reg_mtx);
	t->next = registry;
	registry = t;
	pthread_mutex_unlock(&reg_mtx);
	tl_buf = t;
	return t;
}

pq_tbuf *pq_tbuf_self(void)
{
	pq_tbuf *t = tl_buf;

	return t != NULL ? t : tbuf_new();
}

static void drop(pq_tbuf *t)
{
	atomic_fetch_add_explicit(&t->dropped, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&dropped_total, 1, memory_order_relaxed);
}

void *pq_tbuf_reserve(pq_tbuf *t, size_t n)
{
	pq_chunk *c;

	if (t->cur != NULL && t->pos + n <= PQ_CHUNK_BYTES)
		return t->cur->data + t->pos;
	if (n > PQ_CHUNK_BYTES || (c = chunk_get()) == NULL) {
		drop(t);
		return NULL;
	}
	if (t->cur != NULL)
		atomic_store_explicit(&t->cur->next, c, memory_order_release);
	else
		atomic_store_explicit(&t->head, c, memory_order_release);
	t->cur = c;
	t->pos = 0;
	return c->data;
}

void pq_tbuf_commit(pq_tbuf *t, size_t n)
{
	t->pos += n;
	atomic_store_explicit(&t->cur->committed, t->pos, memory_order_release);
}

/* Consumes what t has published; returns the number of events. */
static size_t drain_one(pq_tbuf *t, pq_tbuf_visit_fn visit, void *ctx)
{
	pq_chunk *c = atomic_load_explicit(&t->head, memory_order_acquire), *nx;
	size_t n = 0, end;

	while (c != NULL) {
		/* next before committed: a sealed chunk's committed is final. */
		nx = atomic_load_explicit(&c->next, memory_order_acquire);
		end = atomic_load_explicit(&c->committed, memory_order_acquire);
		while (c->read < end) {
			const char *ev = c->data + c->read;
			uint32_t size;

			memcpy(&size, ev, sizeof(size));
			if (size == 0 || size % 8 != 0 || c->read + size > end)
				break; /* cannot happen with well-formed producers */
			visit(ctx, t, ev);
			c->read += size;
			n++;
		}
		if (nx == NULL)
			break;
		atomic_store_explicit(&t->head, nx, memory_order_release);
		chunk_put(c);
		c = nx;
	}
	return n;
}

static void free_tbuf(pq_tbuf *t)
{
	pq_chunk *c = atomic_load_explicit(&t->head, memory_order_acquire), *nx;

	while (c != NULL) {
		nx = atomic_load_explicit(&c->next, memory_order_acquire);
		chunk_put(c);
		c = nx;
	}
	free(t);
}

size_t pq_buffers_drain(pq_tbuf_visit_fn visit, void (*forget)(void *ctx, pq_tbuf *t), void *ctx)
{
	pq_tbuf *t, **link, *gone = NULL;
	size_t n = 0;

	/* The list only grows at its head while unlocked, so walking a snapshot is safe; exited
	 * threads are unlinked under the lock and freed after. */
	pthread_mutex_lock(&reg_mtx);
	t = registry;
	pthread_mutex_unlock(&reg_mtx);
	for (; t != NULL; t = t->next)
		n += drain_one(t, visit, ctx);

	pthread_mutex_lock(&reg_mtx);
	for (link = &registry; (t = *link) != NULL;) {
		if (atomic_load_explicit(&t->dead, memory_order_acquire)) {
			/* dead: no more producers, so one more drain sees everything. */
			n += drain_one(t, visit, ctx);
			*link = t->next;
			t->next = gone;
			gone = t;
		} else {
			link = &t->next;
		}
	}
	pthread_mutex_unlock(&reg_mtx);
	while ((t = gone) != NULL) {
		gone = t->next;
		if (forget != NULL)
			forget(ctx, t);
		free_tbuf(t);
	}
	return n;
}

uint64_t pq_buffers_dropped(void)
{
	return atomic_load_explicit(&dropped_total, memory_order_relaxed);
}

void pq_buffers_atfork_prepare(void)
{
	pthread_mutex_lock(&reg_mtx);
	pthread_mutex_lock(&pool_mtx);
}

void pq_buffers_atfork_parent(void)
{
	pthread_mutex_unlock(&pool_mtx);
	pthread_mutex_unlock(&reg_mtx);
}

void pq_buffers_atfork_child(void (*forget)(void *ctx, pq_tbuf *t), void *ctx)
{
	pq_tbuf *t, *nx, *self = tl_buf;
	pq_chunk *c, *cn;

	pthread_mutex_unlock(&pool_mtx);
	pthread_mutex_unlock(&reg_mtx);
	t = registry;
	registry = NULL;
	for (; t != NULL; t = nx) {
		nx = t->next;
		if (forget != NULL)
			forget(ctx, t);
		if (t != self) {
			free_tbuf(t);
			continue;
		}
		/* Keep the current chunk, emptied; recycle the rest. */
		for (c = atomic_load(&t->head); c != NULL && c != t->cur; c = cn) {
			cn = atomic_load(&c->next);
			chunk_put(c);
		}
		if (t->cur != NULL) {
			t->cur->read = t->pos;
			atomic_store(&t->head, t->cur);
		}
		t->tid = (int64_t)syscall(SYS_gettid);
		atomic_store(&t->dropped, 0);
		t->next = NULL;
		registry = t;
	}
	atomic_store(&dropped_total, 0);
}
