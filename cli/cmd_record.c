#define _GNU_SOURCE 1  /* pipe2 */
/* cmd_record.c - `profq record [options] -- command [args...]`: runs a command with the collector
 * injected and records it into a profq database.
 *
 * How processes share a run: the launcher creates the database and a run through the store, then
 * runs the command (fork + execvp, no shell) with CUDA_INJECTION64_PATH and NVTX_INJECTION64_PATH
 * naming the collector and PROFQ_DB / PROFQ_RUN_ID naming the run. Every process that loads the
 * collector (the command, its exec'd or forked children) opens its own connection and attaches to
 * that run (pq_store_attach_run), writing its rows under its own pid; SQLite's WAL mode and
 * BEGIN IMMEDIATE serialise the writers. When the command and every process it left behind have
 * exited (reaper.h: profq is their subreaper, like nsys --wait=all), the launcher records the
 * command's exit status and the run's span and marks the run complete.
 *
 * Exit status: the command's; 128+N when it died of signal N (as a shell reports it); 127 when the
 * command cannot be found and 126 when it cannot be executed (as a shell does); 1 when recording
 * cannot start (including another tool's injection variables being set); 2 for usage errors.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "kinds.h"
#include "meter.h"
#include "reaper.h"
#include "runlock.h"
#include "store.h"
#include "version.h"

#ifndef PQ_LIBDIR
#define PQ_LIBDIR "/usr/local/lib"
#endif

#define COLLECTOR_SO "libprofq_collector.so"

const char pq_record_help[] =
	"Usage: profq record [-o profile.db] [--kinds K1,K2,...] [--flush-interval-ms N]\n"
	"                    [--capture-range nvtx:NAME|cudaProfilerApi] [--wait all|primary]\n"
	"                    [--progress|--quiet] [--] command [args...]\n"
	"\n"
	"Runs command with the profq collector injected (CUDA activity through CUPTI, NVTX ranges)\n"
	"and records it, and every child process that uses CUDA or NVTX, as one new run in\n"
	"profile.db (default ./profile.db; an existing profq database gets another run).\n"
	"By default profq waits for every descendant, also those that outlive the command,\n"
	"before it completes the run (like nsys --wait=all); signals go on to all of them.\n"
	"\n"
	"  -o, --output FILE          the database to write\n"
	"  --kinds LIST               what to record: kernel,runtime,driver,memcpy,memset,memory,\n"
	"                             sync,overhead,device,context,stream,graph,nvtx, or 'all';\n"
	"                             default: all but graph (CUDA graphs then show as their nodes)\n"
	"  --flush-interval-ms N      commit at least every N ms (default 1000): readers see the\n"
	"                             file grow, and a crash loses at most that much\n"
	"  --capture-range R          record only inside NVTX ranges named NAME (nvtx:NAME), or\n"
	"                             between cudaProfilerStart and cudaProfilerStop\n"
	"  --wait W                   all (default): complete the run when the command and every\n"
	"                             process it left behind have exited; primary: when the\n"
	"                             command has (later rows of orphans still join the run)\n"
	"  --progress                 show progress of completing the run (building indexes)\n"
	"                             even when stderr is not a terminal\n"
	"  -q, --quiet                print nothing but errors (no warnings, no progress)\n"
	"\n"
	"Environment: PROFQ_BUFFER_MB=N bounds each process's NVTX buffers (default 64 MiB);\n"
	"events beyond it are dropped and counted (run metadata process.<pid>.nvtx_dropped).\n"
	"\n"
	"Exit status: the command's (128+N if it died of signal N; 127 not found, 126 not\n"
	"executable); 1 when recording cannot start; 2 usage error.\n";

/* Signals sent by a process (kill, a job manager) go on to the command and to the orphans it
 * left. A terminal's ^C already reaches the whole foreground process group, so kernel-sent
 * signals are not sent twice. */
static void forward(int sig, siginfo_t *info, void *uc)
{
	(void)uc;
	if (info == NULL || info->si_code == SI_USER || info->si_code == SI_QUEUE)
		pq_reaper_forward(sig);
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The collector beside the profq binary (build tree), in ../lib/profq (relocated install), or in
 * the configured LIBDIR. Found through /proc/self/exe, never the working directory. */
static int find_collector(char *out, size_t n)
{
	char exe[PATH_MAX], cand[PATH_MAX + 64], *slash;
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char *env = getenv("PROFQ_COLLECTOR");

	if (env != NULL && *env != '\0') {
		if (realpath(env, out) != NULL && access(out, R_OK) == 0)
			return 0;
		return -1;
	}
	if (len > 0) {
		exe[len] = '\0';
		if ((slash = strrchr(exe, '/')) != NULL)
			*slash = '\0';
		snprintf(cand, sizeof(cand), "%s/%s", exe, COLLECTOR_SO);
		if (access(cand, R_OK) == 0 && realpath(cand, out) != NULL)
			return 0;
		snprintf(cand, sizeof(cand), "%s/../lib/profq/%s", exe, COLLECTOR_SO);
		if (access(cand, R_OK) == 0 && realpath(cand, out) != NULL)
			return 0;
	}
	snprintf(cand, sizeof(cand), "%s/profq/%s", PQ_LIBDIR, COLLECTOR_SO);
	if (access(cand, R_OK) == 0 && realpath(cand, out) != NULL)
		return 0;
	(void)n;
	return -1;
}

/* An absolute path for a file that may not exist yet. */
static int absolute(const char *path, char *out, size_t n)
{
	char dir[PATH_MAX], real[PATH_MAX];
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (realpath(dir, real) == NULL)
		return -1;
	return snprintf(out, n, "%s/%s", strcmp(real, "/") == 0 ? "" : real,
			slash != NULL ? slash + 1 : path) < (int)n ? 0 : -1;
}

static char *join_args(char **argv)
{
	size_t len = 1;
	char *s;

	for (char **a = argv; *a != NULL; a++)
		len += strlen(*a) + 1;
	if ((s = malloc(len)) == NULL)
		return NULL;
	s[0] = '\0';
	for (char **a = argv; *a != NULL; a++) {
		if (a != argv)
			strcat(s, " ");
		strcat(s, *a);
	}
	return s;
}

/* Whether a CUDA driver can be loaded here (without it the driver never loads the collector). */
static int driver_present(char *why, size_t n)
{
	void *h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
	const char *e;

	if (h != NULL) {
		dlclose(h);
		return 1;
	}
	e = dlerror();
	snprintf(why, n, "off: no CUDA driver (%s)", e != NULL ? e : "libcuda.so.1 not found");
	return 0;
}

typedef struct rec_opts {
	const char *output, *kinds, *capture;
	long flush_ms;
	int wait_all;
} rec_opts;

/* The launcher's hold on the run (runlock.h) for the whole recording, recorded processes or not:
 * while it lasts, no other profq closes the run as aborted. */
static int run_lock_fd = -1;
static char run_lock_db[PATH_MAX];

static int begin(const char *db_path, const rec_opts *o, char **cmd, const char *driver_why,
		 int64_t *run_id, int *created)
{
	pq_store *s;
	pq_error err;
	pq_run_info run;
	char host[256] = "", *line = join_args(cmd);
	int rc = -1;

	if (pq_store_open(db_path, 0, &s, &err) != 0) {
		free(line);
		return pq_cli_fail("cannot record into %s: %s", db_path, err.msg);
	}
	*created = pq_store_created(s);
	gethostname(host, sizeof(host) - 1);
	pq_run_info_init(&run);
	run.source = "collector";
	run.source_path = line;
	run.source_version = PROFQ_VERSION;
	run.hostname = host;
	/* The recorded processes write without the event indexes; finish() builds them. The size of
	 * a recording is unknown here: assume a million rows, so a file holding more than that keeps
	 * its indexes rather than rebuilding them all at the end. */
	pq_store_expect_rows(s, 1000000);
	if (pq_store_begin_run(s, &run, run_id, &err) == 0 &&
	    pq_store_set_metadata(s, "command", line, &err) == 0 &&
	    pq_store_set_metadata(s, "kinds", o->kinds, &err) == 0 &&
	    pq_store_set_metadata_int(s, "flush_interval_ms", o->flush_ms, &err) == 0 &&
	    pq_store_set_metadata(s, "capture_range", o->capture, &err) == 0 &&
	    pq_store_set_metadata_int(s, "launcher_pid", getpid(), &err) == 0 &&
	    (driver_why == NULL || pq_store_set_metadata(s, "gpu_tracing", driver_why, &err) == 0) &&
	    pq_store_commit(s, &err) == 0 &&
	    snprintf(run_lock_db, sizeof(run_lock_db), "%s", pq_store_path(s)) < PATH_MAX &&
	    pq_run_lock_acquire(run_lock_db, *run_id, &run_lock_fd, &err) == 0)
		rc = 0;
	else
		pq_cli_fail("cannot record into %s: %s", db_path, err.msg);
	pq_store_close(s);
	free(line);
	return rc;
}

/* Records how the command ended and completes the run. */
static int finish(const char *db_path, int64_t run_id, int64_t start, int64_t end, int status,
		  int abort_run)
{
	pq_store *s;
	pq_error err;
	pq_meter meter;
	pq_progress progress;
	char how[64];
	int rc;

	if (pq_store_open(db_path, 0, &s, &err) != 0 || pq_store_attach_run(s, run_id, &err) != 0) {
		pq_store_close(s);
		return pq_cli_fail("cannot complete the run in %s: %s", db_path, err.msg);
	}
	pq_meter_start(&meter, "completing the run");
	progress = pq_meter_progress(&meter);
	pq_store_set_progress(s, &progress);
	if (abort_run) {
		/* begin() may have dropped the event indexes (pq_store_expect_rows); a finished run
		 * builds them itself, an aborted one here, after its rows are gone. */
		rc = pq_store_abort_run(s, &err) != 0 || pq_store_build_indexes(s, &err) != 0 ? -1 : 0;
	} else {
		if (WIFSIGNALED(status))
			snprintf(how, sizeof(how), "killed by signal %d", WTERMSIG(status));
		else
			snprintf(how, sizeof(how), "exited with status %d", WEXITSTATUS(status));
		rc = pq_store_set_metadata(s, "exit", how, &err) != 0 ||
		     pq_store_set_run_span(s, start, end, &err) != 0 ||
		     pq_store_finish_run(s, &err) != 0 ? -1 : 0;
	}
	pq_store_set_progress(s, NULL);
	pq_meter_stop(&meter);
	pq_store_close(s);
	return rc == 0 ? 0 : pq_cli_fail("cannot complete the run in %s: %s", db_path, err.msg);
}

/* One warning line when a recorded process could not trace the GPU. */
static void warn_gpu(const char *db_path, int64_t run_id)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;

	if (sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		sqlite3_close(db);
		return;
	}
	pq_db_harden(db);
	if (sqlite3_prepare_v2(db, "SELECT value FROM run_metadata WHERE run_id = ?1 AND key LIKE "
			       "'process.%.gpu_tracing' AND value LIKE 'off%' LIMIT 1",
			       -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, run_id);
		if (sqlite3_step(st) == SQLITE_ROW && pq_meter_mode() != PQ_METER_QUIET)
			fprintf(stderr, "profq: warning: GPU activity not recorded (%s); NVTX was\n",
				(const char *)sqlite3_column_text(st, 0) + 5);
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
}

static void set_env(const char *name, const char *value)
{
	if (value != NULL)
		setenv(name, value, 1);
	else
		unsetenv(name);
}

int pq_cmd_record(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "kinds", required_argument, NULL, 'k' },
		{ "flush-interval-ms", required_argument, NULL, 'f' },
		{ "capture-range", required_argument, NULL, 'c' },
		{ "wait", required_argument, NULL, 'w' },
		{ "progress", no_argument, NULL, 'P' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const tool_vars[] = { "CUDA_INJECTION64_PATH", "NVTX_INJECTION64_PATH" };
	rec_opts o = { "profile.db", "default", NULL, 1000, 1 };
	char collector[PATH_MAX], db_path[PATH_MAX], why[512], num[32], *end;
	const char *driver_why = NULL;
	int c, created = 0, pipefd[2], status = 0, err_no = 0, rc;
	int64_t run_id = 0, t0, t1;
	unsigned bits;
	struct sigaction sa, old_int, old_term;
	pid_t pid;

	optind = 1;
	while ((c = pq_getopt(argc, argv, "+o:qh", opts, "record")) != -1) {
		switch (c) {
		case 'o': o.output = optarg; break;
		case 'k':
			if (pq_kind_parse(optarg, &bits, why, sizeof(why)) != 0)
				return pq_cli_usage("record: --kinds: %s", why);
			o.kinds = optarg;
			break;
		case 'f':
			o.flush_ms = strtol(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || o.flush_ms < 1 || o.flush_ms > 3600000)
				return pq_cli_usage("record: --flush-interval-ms needs 1..3600000, not '%s'",
						    optarg);
			break;
		case 'c':
			if (!(strncmp(optarg, "nvtx:", 5) == 0 && optarg[5] != '\0') &&
			    strcmp(optarg, "cudaProfilerApi") != 0)
				return pq_cli_usage("record: --capture-range is nvtx:NAME or "
						    "cudaProfilerApi, not '%s'", optarg);
			o.capture = optarg;
			break;
		case 'w':
			if (strcmp(optarg, "all") != 0 && strcmp(optarg, "primary") != 0)
				return pq_cli_usage("record: --wait is all or primary, not '%s'", optarg);
			o.wait_all = strcmp(optarg, "all") == 0;
			break;
		case 'P': pq_meter_set_mode(PQ_METER_ON); break;
		case 'q': pq_meter_set_mode(PQ_METER_QUIET); break;
		case 'h': fputs(pq_record_help, stdout); return PQ_EXIT_OK;
		default: return PQ_EXIT_USAGE;
		}
	}
	if (optind >= argc)
		return pq_cli_usage("record: no command given (profq record [options] -- command ...)");
	for (size_t i = 0; i < 2; i++) {
		const char *v = getenv(tool_vars[i]);
		if (v != NULL && *v != '\0')
			return pq_cli_fail("%s is already set (%s): another tool is injecting into this "
					   "command; run profq record outside it", tool_vars[i], v);
	}
	if (find_collector(collector, sizeof(collector)) != 0)
		return pq_cli_fail("cannot find the collector (%s beside %s, in ../lib/profq or in "
				   "%s/profq)", COLLECTOR_SO, "the profq binary", PQ_LIBDIR);
	if (absolute(o.output, db_path, sizeof(db_path)) != 0)
		return pq_cli_fail("cannot write %s: its directory does not exist", o.output);
	if (!driver_present(why, sizeof(why)))
		driver_why = why;
	if (begin(db_path, &o, argv + optind, driver_why, &run_id, &created) != 0)
		return PQ_EXIT_FAIL;
	if (driver_why != NULL && pq_meter_mode() != PQ_METER_QUIET)
		fprintf(stderr, "profq: warning: GPU activity will not be recorded (%s), NVTX only\n",
			driver_why + 5);

	set_env("CUDA_INJECTION64_PATH", collector);
	set_env("NVTX_INJECTION64_PATH", collector);
	set_env("PROFQ_DB", db_path);
	snprintf(num, sizeof(num), "%" PRId64, run_id);
	set_env("PROFQ_RUN_ID", num);
	set_env("PROFQ_KINDS", o.kinds);
	snprintf(num, sizeof(num), "%ld", o.flush_ms);
	set_env("PROFQ_FLUSH_MS", num);
	set_env("PROFQ_CAPTURE", o.capture);

	if (pipe2(pipefd, O_CLOEXEC) != 0)
		return pq_cli_fail("cannot run %s: %s", argv[optind], strerror(errno));
	fflush(NULL);
	if (o.wait_all && pq_reaper_begin() != 0 && pq_meter_mode() != PQ_METER_QUIET)
		fprintf(stderr, "profq: warning: cannot wait for orphaned descendants (%s); only for "
			"the command\n", strerror(errno));
	t0 = now_ns();
	pid = fork();
	if (pid < 0)
		return pq_cli_fail("cannot run %s: %s", argv[optind], strerror(errno));
	if (pid == 0) {
		close(pipefd[0]);
		signal(SIGXFSZ, SIG_DFL);  /* main() ignores it for profq alone */
		execvp(argv[optind], argv + optind);
		err_no = errno;
		if (write(pipefd[1], &err_no, sizeof(err_no)) < 0) {
			/* the parent then sees exit status 127 only */
		}
		_exit(err_no == ENOENT ? 127 : 126);
	}
	close(pipefd[1]);
	pq_reaper_set_direct(pid);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = forward;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	if (read(pipefd[0], &err_no, sizeof(err_no)) != (ssize_t)sizeof(err_no))
		err_no = 0;
	close(pipefd[0]);
	/* The run ends with the last descendant: orphans may still be writing rows. */
	if (o.wait_all)
		pq_reaper_wait_all(pid, &status);
	else
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	pq_reaper_set_direct(0);
	t1 = now_ns();
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);

	if (err_no != 0) {
		finish(db_path, run_id, t0, t1, status, 1);
		pq_run_lock_release(run_lock_db, run_lock_fd);
		if (created) {
			char side[PATH_MAX + 8];
			remove(db_path);
			snprintf(side, sizeof(side), "%s-wal", db_path);
			remove(side);
			snprintf(side, sizeof(side), "%s-shm", db_path);
			remove(side);
		}
		pq_cli_fail("cannot run %s: %s", argv[optind], strerror(err_no));
		return err_no == ENOENT ? 127 : 126;
	}
	rc = finish(db_path, run_id, t0, t1, status, 0);
	pq_run_lock_release(run_lock_db, run_lock_fd);
	if (rc != 0)
		return PQ_EXIT_FAIL;
	if (driver_why == NULL)
		warn_gpu(db_path, run_id);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
