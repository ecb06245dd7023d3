/* file_hash.c - the SHA-256 of a file's bytes (Nettle), which `profq import` keeps per run to know
 * a file it has already imported: at once, or on a thread beside the import. Nettle rather than
 * OpenSSL's libcrypto: the same hash at about the same speed (SHA-NI), but libcrypto's 21 k
 * relocations took ~2-3 ms of every profq command's start, reports included (bench/RESULTS.md). */
#define _GNU_SOURCE /* SCHED_IDLE */
#include "file_hash.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nettle/sha2.h>

#define CHUNK (1 << 20)

static int stopped(pq_file_hasher *h)
{
	int stop = 0;

	if (h != NULL) {
		pthread_mutex_lock(&h->mu);
		stop = h->stop;
		pthread_mutex_unlock(&h->mu);
	}
	return stop;
}

/* Hashes the file; h (may be NULL) can ask it to stop between chunks (then -1, err set). */
static int hash_file(const char *path, char hex[65], pq_file_hasher *h, pq_error *err)
{
	uint8_t md[SHA256_DIGEST_SIZE];
	unsigned char *buf = malloc(CHUNK);
	struct sha256_ctx ctx;
	FILE *f = NULL;
	size_t n;
	int read_error = 0;

	if (buf == NULL)
		return pq_fail(err, "out of memory");
	f = fopen(path, "rb");
	if (f == NULL) {
		free(buf);
		return pq_fail(err, "cannot open '%s': %s", path, strerror(errno));
	}
	sha256_init(&ctx);
	while (!stopped(h) && (n = fread(buf, 1, CHUNK, f)) > 0)
		sha256_update(&ctx, n, buf);
	read_error = ferror(f);
	fclose(f);
	free(buf);
	if (read_error)
		return pq_fail(err, "cannot read '%s'", path);
	if (stopped(h))
		return pq_fail(err, "hashing '%s' was stopped", path);
	sha256_digest(&ctx, SHA256_DIGEST_SIZE, md);
	for (unsigned int i = 0; i < SHA256_DIGEST_SIZE; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	return 0;
}

int pq_file_sha256(const char *path, char hex[65], pq_error *err)
{
	return hash_file(path, hex, NULL, err);
}

static void *hasher_main(void *arg)
{
	pq_file_hasher *h = arg;
	struct sched_param idle = { 0 };

	/* Best effort: without it the hash only shares the CPUs evenly. */
	(void)pthread_setschedparam(pthread_self(), SCHED_IDLE, &idle);
	h->rc = hash_file(h->path, h->hex, h, &h->err);
	return NULL;
}

int pq_file_hasher_start(pq_file_hasher *h, const char *path, pq_error *err)
{
	int e;

	memset(h, 0, sizeof(*h));
	if (strlen(path) >= sizeof(h->path))
		return pq_fail(err, "the path '%.64s...' is too long", path);
	strcpy(h->path, path);
	pthread_mutex_init(&h->mu, NULL);
	e = pthread_create(&h->thread, NULL, hasher_main, h);
	if (e != 0) {
		pthread_mutex_destroy(&h->mu);
		return pq_fail(err, "cannot start a thread to hash '%s': %s", path, strerror(e));
	}
	h->started = 1;
	return 0;
}

/* Back to the normal policy before waiting: at idle priority, a machine busy with other work
 * would starve the thread the caller now waits for. */
static void join(pq_file_hasher *h)
{
	struct sched_param normal = { 0 };

	(void)pthread_setschedparam(h->thread, SCHED_OTHER, &normal);
	pthread_join(h->thread, NULL);
	pthread_mutex_destroy(&h->mu);
	h->started = 0;
}

const char *pq_file_hasher_wait(pq_file_hasher *h, pq_error *err)
{
	if (h->started)
		join(h);
	if (h->rc != 0) {
		*err = h->err;
		return NULL;
	}
	return h->hex[0] != '\0' ? h->hex : (pq_fail(err, "'%s' was not hashed", h->path), NULL);
}

void pq_file_hasher_stop(pq_file_hasher *h)
{
	if (!h->started)
		return;
	pthread_mutex_lock(&h->mu);
	h->stop = 1;
	pthread_mutex_unlock(&h->mu);
	join(h);
}
