#define _GNU_SOURCE 1  /* pipe2 */
/* writer.c - the writer thread: drains NVTX buffers and CUPTI buffers into the store, commits at
 * least every pq_cfg.flush_ms, handles SIGTERM/SIGINT through a self-pipe, and survives fork.
 *
 * Locks, always taken in this order: store_mtx (the writer while it works; fork) -> the buffer
 * registry and pool (buffers.c) -> the CUPTI queue (cupti.c) -> notes_mtx.
 *
 * fork: the prepare handler commits and closes the store connection so no SQLite state crosses
 * the fork (a connection must not be used in a child); the parent reopens it on its next cycle;
 * the child keeps only the forking thread's (emptied) buffer, starts its own writer and attaches
 * its own connection to the same run, identified by its pid.
 */

#include "writer.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cupti_collect.h"
#include "translate.h"

static pq_wctx W;
static pthread_mutex_t store_mtx = PTHREAD_MUTEX_INITIALIZER;
static pthread_t thread;
static int running;
static _Atomic int stopping;
static int wake_fd[2] = { -1, -1 };
static int own_run;
static int open_failed;
static const char *exit_reason;
static uint64_t gen_counter;

#define MAX_NOTES 16
static pthread_mutex_t notes_mtx = PTHREAD_MUTEX_INITIALIZER;
static struct { char key[48]; char value[256]; } notes[MAX_NOTES];
static int nnotes;

static struct sigaction old_actions[NSIG];
static const int handled_signals[] = { SIGTERM, SIGINT };

void pq_wctx_init(pq_wctx *w, pq_store *s, int64_t pid)
{
	memset(w, 0, sizeof(*w));
	w->store = s;
	w->pid = pid;
	w->process_id = PQ_NULL;
	w->gen = ++gen_counter;
}

void pq_wctx_free(pq_wctx *w)
{
	pq_u64map_free(&w->starts);
	pq_u64map_free(&w->orphan_ends);
	pq_u64map_free(&w->orphan_tids);
	pq_translate_free(w->tr);
	w->tr = NULL;
}

void pq_wctx_failed(pq_wctx *w, const pq_error *err)
{
	if (w->write_errors++ == 0) {
		w->err = *err;
		fprintf(stderr, "profq collector [%" PRId64 "]: %s\n", w->pid, err->msg);
	}
}

/* The process's name: the first word of /proc/self/cmdline, without its directory. */
static void process_name(char *out, size_t n)
{
	FILE *f = fopen("/proc/self/cmdline", "r");
	size_t got = 0;
	char buf[512], *slash;

	out[0] = '\0';
	if (f != NULL) {
		got = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[got] = '\0';
	slash = strrchr(buf, '/');
	snprintf(out, n, "%s", slash != NULL ? slash + 1 : buf);
}

int64_t pq_wctx_process(pq_wctx *w)
{
	pq_error err;
	char name[256];

	if (w->process_id == PQ_NULL && w->store != NULL) {
		process_name(name, sizeof(name));
		if (pq_store_process(w->store, w->pid, name[0] ? name : NULL, &w->process_id, &err) != 0) {
			pq_wctx_failed(w, &err);
			w->process_id = PQ_NULL;
		}
	}
	return w->process_id;
}

void pq_writer_note(const char *key, const char *value)
{
	pthread_mutex_lock(&notes_mtx);
	if (nnotes < MAX_NOTES) {
		snprintf(notes[nnotes].key, sizeof(notes[0].key), "%s", key);
		snprintf(notes[nnotes].value, sizeof(notes[0].value), "%s", value);
		nnotes++;
	}
	pthread_mutex_unlock(&notes_mtx);
	pq_writer_wake();
}

static void set_meta(pq_wctx *w, const char *key, const char *text, int64_t num)
{
	char full[96];
	pq_error err;
	int rc;

	snprintf(full, sizeof(full), "process.%" PRId64 ".%s", w->pid, key);
	rc = text != NULL ? pq_store_set_metadata(w->store, full, text, &err)
			  : pq_store_set_metadata_int(w->store, full, num, &err);
	if (rc != 0)
		pq_wctx_failed(w, &err);
}

void pq_writer_notes_flush(pq_wctx *w)
{
	pthread_mutex_lock(&notes_mtx);
	for (int i = 0; i < nnotes && w->store != NULL; i++)
		set_meta(w, notes[i].key, notes[i].value, 0);
	if (w->store != NULL)
		nnotes = 0;
	pthread_mutex_unlock(&notes_mtx);
}

/* Counters that change: written when they do. */
static void counters(pq_wctx *w, int force)
{
	static uint64_t last_nvtx = UINT64_MAX, last_cupti = UINT64_MAX, last_notime = UINT64_MAX;
	uint64_t nvtx = pq_buffers_dropped(), cupti = pq_cupti_dropped();
	uint64_t notime = pq_translate_get_stats(w)->no_timing;

	if (force || nvtx != last_nvtx)
		set_meta(w, "nvtx_dropped", NULL, (int64_t)nvtx);
	if (force || cupti != last_cupti)
		set_meta(w, "cupti_dropped", NULL, (int64_t)cupti);
	if (force || notime != last_notime)
		set_meta(w, "cupti_no_timing", NULL, (int64_t)notime);
	last_nvtx = nvtx;
	last_cupti = cupti;
	last_notime = notime;
}

static int open_store(void)
{
	pq_store *s = NULL;
	pq_error err;
	pq_run_info run;
	char cmd[1024];

	if (pq_store_open(pq_cfg.db_path, 0, &s, &err) != 0)
		goto fail;
	if (pq_cfg.run_id != 0) {
		if (pq_store_attach_run(s, pq_cfg.run_id, &err) != 0)
			goto fail;
	} else {
		/* Loaded without `profq record`: this process makes and finishes its own run. */
		process_name(cmd, sizeof(cmd));
		pq_run_info_init(&run);
		run.source = "collector";
		run.source_path = cmd;
		if (pq_store_begin_run(s, &run, &pq_cfg.run_id, &err) != 0)
			goto fail;
		own_run = 1;
	}
	W.store = s;
	return 0;
fail:
	if (!open_failed++)
		fprintf(stderr, "profq collector [%" PRId64 "]: cannot record into %s: %s\n", W.pid,
			pq_cfg.db_path, err.msg);
	pq_store_close(s);
	return -1;
}

static void discard(void *ctx, pq_tbuf *t, const void *event)
{
	(void)ctx, (void)t, (void)event;
}

/* One cycle: everything published so far goes into the store and is committed. */
static void work(int final)
{
	pq_error err;

	if (W.store == NULL && !open_failed)
		open_store();
	if (W.store == NULL) {   /* nothing can be written: keep memory bounded anyway */
		pq_cupti_drain(&W);
		pq_buffers_drain(discard, pq_nvtx_rows_forget, &W);
		return;
	}
	pq_wctx_process(&W);
	pq_cupti_drain(&W);
	pq_buffers_drain(pq_nvtx_rows_event, pq_nvtx_rows_forget, &W);
	pq_writer_notes_flush(&W);
	counters(&W, final);
	if (pq_store_commit(W.store, &err) != 0)
		pq_wctx_failed(&W, &err);
}

static void finish(void)
{
	pq_error err;

	if (W.store == NULL)
		return;
	set_meta(&W, "exit", exit_reason != NULL ? exit_reason : "exit", 0);
	if (own_run && pq_store_finish_run(W.store, &err) != 0)
		pq_wctx_failed(&W, &err);
	pq_store_close(W.store);
	W.store = NULL;
}

void pq_writer_wake(void)
{
	char b = 0;
	int saved = errno;

	if (wake_fd[1] >= 0 && write(wake_fd[1], &b, 1) < 0) {
		/* full pipe: the writer is awake anyway */
	}
	errno = saved;
}

static void on_signal(int sig)
{
	char b = (char)sig;
	int saved = errno;

	if (wake_fd[1] >= 0 && write(wake_fd[1], &b, 1) < 0) {
		/* nothing safe to do here */
	}
	errno = saved;
}

/* SIGTERM/SIGINT with the default action: flush everything, then die of the same signal so the
 * exit status is what it would have been. */
static void die_of(int sig)
{
	pq_cupti_flush(1);
	pthread_mutex_lock(&store_mtx);
	exit_reason = sig == SIGTERM ? "SIGTERM" : "SIGINT";
	work(1);
	finish();
	atomic_store(&stopping, 1);
	pthread_mutex_unlock(&store_mtx);
	sigaction(sig, &old_actions[sig], NULL);
	kill(getpid(), sig);   /* process-directed: this thread blocks it, another takes it */
}

static void *writer_main(void *arg)
{
	int wait_ms = pq_cfg.flush_ms / 2 > 10 ? pq_cfg.flush_ms / 2 : 10;
	struct pollfd p;
	sigset_t all;
	char buf[64];
	ssize_t n;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	sem_post(arg);  /* running: pq_writer_start may return */
	for (;;) {
		p.fd = wake_fd[0];
		p.events = POLLIN;
		poll(&p, 1, wait_ms);
		while ((n = read(wake_fd[0], buf, sizeof(buf))) > 0)
			for (ssize_t i = 0; i < n; i++)
				if (buf[i] == SIGTERM || buf[i] == SIGINT) {
					die_of(buf[i]);
					return NULL;
				}
		if (atomic_load(&stopping))
			break;
		pq_cupti_flush(0);
		pthread_mutex_lock(&store_mtx);
		work(0);
		pthread_mutex_unlock(&store_mtx);
	}
	return NULL;
}

static int make_pipe(void)
{
	if (pipe2(wake_fd, O_CLOEXEC | O_NONBLOCK) != 0) {
		wake_fd[0] = wake_fd[1] = -1;
		return -1;
	}
	return 0;
}

static void install_signals(void)
{
	struct sigaction sa, cur;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	/* Only where the application left the default: its own handler decides otherwise (and then
	 * exits through atexit, which flushes). */
	for (size_t i = 0; i < sizeof(handled_signals) / sizeof(handled_signals[0]); i++) {
		int sig = handled_signals[i];
		if (sigaction(sig, NULL, &cur) == 0 && cur.sa_handler == SIG_DFL &&
		    !(cur.sa_flags & SA_SIGINFO)) {
			old_actions[sig] = cur;
			sigaction(sig, &sa, NULL);
		}
	}
}

int pq_writer_start(void)
{
	sem_t started;
	int rc;

	pq_wctx_init(&W, NULL, (int64_t)getpid());
	if (make_pipe() != 0)
		return -1;
	install_signals();
	atomic_store(&stopping, 0);
	if (sem_init(&started, 0, 0) != 0)
		return -1;
	rc = pthread_create(&thread, NULL, writer_main, &started);
	/* Returns once the thread runs. A program may fork right after its first NVTX call
	 * (tests/nvtx/nvtx_orphan): then the thread must be past its start-up, where a sanitizer's
	 * runtime allocates under locks the child would inherit held. Seen under gcc 12's ASan,
	 * whose allocator is not locked across fork: the child's own writer deadlocked in it. */
	while (rc == 0 && sem_wait(&started) != 0 && errno == EINTR)
		;
	sem_destroy(&started);
	if (rc != 0)
		return -1;
	running = 1;
	return 0;
}

void pq_writer_checkpoint(void)
{
	pthread_mutex_lock(&store_mtx);
	work(0);
	pthread_mutex_unlock(&store_mtx);
}

void pq_writer_shutdown(const char *reason)
{
	if (!running || atomic_load(&stopping))
		return;
	pq_cupti_flush(1);
	atomic_store(&stopping, 1);
	pq_writer_wake();
	pthread_join(thread, NULL);
	running = 0;
	pthread_mutex_lock(&store_mtx);
	exit_reason = reason;
	work(1);
	finish();
	pthread_mutex_unlock(&store_mtx);
}

/* fork ----------------------------------------------------------------------------------------- */

static void fork_prepare(void)
{
	pq_error err;

	pthread_mutex_lock(&store_mtx);
	if (W.store != NULL) {
		if (pq_store_commit(W.store, &err) != 0)
			pq_wctx_failed(&W, &err);
		pq_store_close(W.store);  /* reopened by the parent's next cycle */
		W.store = NULL;
	}
	pq_buffers_atfork_prepare();
	pq_cupti_atfork_prepare();
	pthread_mutex_lock(&notes_mtx);
}

static void fork_parent(void)
{
	pthread_mutex_unlock(&notes_mtx);
	pq_cupti_atfork_parent();
	pq_buffers_atfork_parent();
	if (!own_run && pq_cfg.run_id != 0) {
		/* the store reopens with attach_run */
	}
	pthread_mutex_unlock(&store_mtx);
}

static void fork_child(void)
{
	int64_t run_id = pq_cfg.run_id;

	nnotes = 0;
	pthread_mutex_unlock(&notes_mtx);
	pq_cupti_atfork_child();
	pq_buffers_atfork_child(pq_nvtx_rows_forget, &W);
	pq_wctx_free(&W);
	if (wake_fd[0] >= 0) {
		close(wake_fd[0]);
		close(wake_fd[1]);
	}
	running = 0;
	own_run = 0;          /* the parent made the run (if anyone did); the child joins it */
	open_failed = 0;
	exit_reason = NULL;
	pq_cfg.run_id = run_id;
	pthread_mutex_unlock(&store_mtx);
	if (running == 0 && pq_writer_start() == 0)
		{
		char ppid[24];
		snprintf(ppid, sizeof(ppid), "%d", (int)getppid());
		pq_writer_note("forked_from", ppid);
	}
}

void pq_writer_atfork_register(void)
{
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}
