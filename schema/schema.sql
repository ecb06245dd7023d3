-- profq schema, version 1.
--
-- The only definition of the schema: the store embeds this file at build time and runs it on a new
-- database; docs/schema.md documents every table and column (tests/cli/schema_doc.t checks that).
--
-- Conventions (../design.md):
--   * time is INTEGER nanoseconds on the Unix epoch (UTC) unless the run says its time base is
--     'relative'; intervals are half-open [start_ns, end_ns);
--   * every event row belongs to a run (run_id); dimension ids (process_id, thread_id, device_id,
--     stream_id) are surrogate keys into this file's dimension tables, not OS or CUDA numbers;
--   * names are interned once in `strings`; event tables hold ids, the v_* views join the text back;
--   * enumerations follow Nsight Systems' ENUM_* numbering so numbers compare with nsys exports.

PRAGMA application_id = 1347569233;  -- 0x50524651, 'PRFQ': marks the file as a profq database
PRAGMA user_version = 1;             -- schema version; the binary refuses files newer than it knows

CREATE TABLE strings (
  id    INTEGER PRIMARY KEY,
  value TEXT NOT NULL UNIQUE
);

CREATE TABLE runs (
  id               INTEGER PRIMARY KEY,
  source           TEXT NOT NULL,
  source_path      TEXT,
  source_version   TEXT,
  hostname         TEXT,
  rank             INTEGER,
  time_base        TEXT NOT NULL DEFAULT 'unix' CHECK (time_base IN ('unix', 'relative')),
  time_offset_ns   INTEGER NOT NULL DEFAULT 0,
  start_ns         INTEGER,
  end_ns           INTEGER,
  status           TEXT NOT NULL DEFAULT 'open'
                   CHECK (status IN ('open', 'complete', 'failed', 'aborted')),
  created_utc      TEXT NOT NULL,
  profq_version    TEXT NOT NULL
);

CREATE TABLE run_metadata (
  run_id  INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  key     TEXT NOT NULL,
  value,
  PRIMARY KEY (run_id, key)
) WITHOUT ROWID;

CREATE TABLE processes (
  id          INTEGER PRIMARY KEY,
  run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  pid         INTEGER NOT NULL,
  name_id     INTEGER REFERENCES strings(id),
  sort_index  INTEGER,
  UNIQUE (run_id, pid)
);

CREATE TABLE threads (
  id          INTEGER PRIMARY KEY,
  run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  process_id  INTEGER NOT NULL REFERENCES processes(id) ON DELETE CASCADE,
  tid         INTEGER NOT NULL,
  name_id     INTEGER REFERENCES strings(id),
  sort_index  INTEGER,
  UNIQUE (process_id, tid)
);

CREATE TABLE devices (
  id                          INTEGER PRIMARY KEY,
  run_id                      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  ordinal                     INTEGER NOT NULL,
  name                        TEXT,
  uuid                        TEXT,
  compute_major               INTEGER,
  compute_minor               INTEGER,
  sm_count                    INTEGER,
  warp_size                   INTEGER,
  max_threads_per_block       INTEGER,
  max_threads_per_sm          INTEGER,
  max_blocks_per_sm           INTEGER,
  max_registers_per_block     INTEGER,
  max_registers_per_sm        INTEGER,
  max_shared_memory_per_block INTEGER,
  max_shared_memory_per_sm    INTEGER,
  shared_memory_per_block_optin INTEGER,
  l2_cache_bytes              INTEGER,
  global_memory_bytes         INTEGER,
  core_clock_hz               INTEGER,
  memory_clock_hz             INTEGER,
  memory_bus_width_bits       INTEGER,
  memory_bandwidth_bytes_per_s INTEGER,
  UNIQUE (run_id, ordinal)
);

CREATE TABLE streams (
  id          INTEGER PRIMARY KEY,
  run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  process_id  INTEGER REFERENCES processes(id) ON DELETE CASCADE,
  device_id   INTEGER REFERENCES devices(id) ON DELETE CASCADE,
  stream      INTEGER NOT NULL,
  context     INTEGER,
  priority    INTEGER,
  stream_type INTEGER REFERENCES stream_types(id),
  name_id     INTEGER REFERENCES strings(id)
);
CREATE UNIQUE INDEX streams_key ON streams (run_id, ifnull(process_id, -1), ifnull(device_id, -1), stream);

CREATE TABLE nvtx_domains (
  id          INTEGER PRIMARY KEY,
  run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  process_id  INTEGER REFERENCES processes(id) ON DELETE CASCADE,
  name_id     INTEGER NOT NULL REFERENCES strings(id)
);
CREATE UNIQUE INDEX nvtx_domains_key ON nvtx_domains (run_id, ifnull(process_id, -1), name_id);

CREATE TABLE nvtx_categories (
  run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  process_id  INTEGER REFERENCES processes(id) ON DELETE CASCADE,
  domain_id   INTEGER REFERENCES nvtx_domains(id) ON DELETE CASCADE,
  category    INTEGER NOT NULL,
  name_id     INTEGER NOT NULL REFERENCES strings(id)
);
CREATE UNIQUE INDEX nvtx_categories_key
  ON nvtx_categories (run_id, ifnull(process_id, -1), ifnull(domain_id, -1), category);

-- Enumerations ---------------------------------------------------------------------------------

CREATE TABLE api_kinds     (id INTEGER PRIMARY KEY, name TEXT NOT NULL, label TEXT NOT NULL);
CREATE TABLE range_kinds   (id INTEGER PRIMARY KEY, name TEXT NOT NULL, label TEXT NOT NULL);
CREATE TABLE mark_kinds    (id INTEGER PRIMARY KEY, name TEXT NOT NULL, label TEXT NOT NULL);
CREATE TABLE copy_kinds    (id INTEGER PRIMARY KEY, name TEXT NOT NULL, label TEXT NOT NULL);
CREATE TABLE memory_kinds  (id INTEGER PRIMARY KEY, name TEXT NOT NULL, label TEXT NOT NULL);
CREATE TABLE sync_types    (id INTEGER PRIMARY KEY, name TEXT NOT NULL, label TEXT NOT NULL);
CREATE TABLE stream_types  (id INTEGER PRIMARY KEY, name TEXT NOT NULL, label TEXT NOT NULL);
CREATE TABLE memory_operations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, label TEXT NOT NULL);

INSERT INTO api_kinds VALUES
  (0, 'runtime', 'CUDA runtime API'),
  (1, 'driver',  'CUDA driver API');

INSERT INTO range_kinds VALUES
  (0, 'nvtx_push_pop',       'NVTX push/pop range'),
  (1, 'nvtx_start_end',      'NVTX start/end range'),
  (2, 'cpu_op',              'framework operator'),
  (3, 'user_annotation',     'user annotation (CPU)'),
  (4, 'gpu_user_annotation', 'user annotation (GPU)'),
  (5, 'python_function',     'Python function'),
  (6, 'trace_event',         'other trace event'),
  (7, 'async',               'async (b/e) event'),
  (8, 'profiler_overhead',   'profiler overhead');

INSERT INTO mark_kinds VALUES
  (0, 'nvtx_mark',   'NVTX mark'),
  (1, 'instant',     'trace instant event');

-- Same ids and labels as Nsight Systems' ENUM_CUDA_MEMCPY_OPER.
INSERT INTO copy_kinds VALUES
  (0,  'unknown', 'Unknown'),
  (1,  'htod',    'Host-to-Device'),
  (2,  'dtoh',    'Device-to-Host'),
  (3,  'htoa',    'Host-to-Array'),
  (4,  'atoh',    'Array-to-Host'),
  (5,  'atoa',    'Array-to-Array'),
  (6,  'atod',    'Array-to-Device'),
  (7,  'dtoa',    'Device-to-Array'),
  (8,  'dtod',    'Device-to-Device'),
  (9,  'htoh',    'Host-to-Host'),
  (10, 'ptop',    'Peer-to-Peer'),
  (11, 'uvm_htod', 'Unified Host-to-Device'),
  (12, 'uvm_dtoh', 'Unified Device-to-Host'),
  (13, 'uvm_dtod', 'Unified Device-to-Device');

-- Same ids and labels as Nsight Systems' ENUM_CUDA_MEM_KIND.
INSERT INTO memory_kinds VALUES
  (0, 'pageable',       'Pageable'),
  (1, 'pinned',         'Pinned'),
  (2, 'device',         'Device'),
  (3, 'array',          'Array'),
  (4, 'managed',        'Managed'),
  (5, 'device_static',  'Device Static'),
  (6, 'managed_static', 'Managed Static'),
  (7, 'unknown',        'Unknown');

-- Same ids as Nsight Systems' ENUM_CUPTI_SYNC_TYPE.
INSERT INTO sync_types VALUES
  (0, 'unknown',           'Unknown'),
  (1, 'event_sync',        'Event synchronize'),
  (2, 'stream_wait_event', 'Stream wait event'),
  (3, 'stream_sync',       'Stream synchronize'),
  (4, 'context_sync',      'Context synchronize');

-- Same ids as Nsight Systems' ENUM_CUPTI_STREAM_TYPE.
INSERT INTO stream_types VALUES
  (0, 'unknown',      'Unknown'),
  (1, 'default',      'Default'),
  (2, 'non_blocking', 'Non-blocking'),
  (3, 'null',         'Null');

-- Same ids as Nsight Systems' ENUM_CUDA_DEV_MEM_EVENT_OPER.
INSERT INTO memory_operations VALUES
  (0, 'alloc', 'Allocation'),
  (1, 'free',  'Deallocation');

-- Events ---------------------------------------------------------------------------------------

CREATE TABLE kernels (
  id                        INTEGER PRIMARY KEY,
  run_id                    INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  process_id                INTEGER REFERENCES processes(id),
  device_id                 INTEGER REFERENCES devices(id),
  stream_id                 INTEGER REFERENCES streams(id),
  start_ns                  INTEGER NOT NULL,
  end_ns                    INTEGER NOT NULL,
  correlation_id            INTEGER,
  external_id               INTEGER,
  name_id                   INTEGER NOT NULL REFERENCES strings(id),
  demangled_name_id         INTEGER REFERENCES strings(id),
  short_name_id             INTEGER REFERENCES strings(id),
  grid_x                    INTEGER,
  grid_y                    INTEGER,
  grid_z                    INTEGER,
  block_x                   INTEGER,
  block_y                   INTEGER,
  block_z                   INTEGER,
  cluster_x                 INTEGER,
  cluster_y                 INTEGER,
  cluster_z                 INTEGER,
  registers_per_thread      INTEGER,
  static_shared_bytes       INTEGER,
  dynamic_shared_bytes      INTEGER,
  local_bytes_per_thread    INTEGER,
  blocks_per_sm             REAL,
  warps_per_sm              REAL,
  est_occupancy_pct         REAL,
  launch_type               INTEGER,
  grid_id                   INTEGER,
  graph_id                  INTEGER,
  graph_node_id             INTEGER,
  queued_ns                 INTEGER,
  submitted_ns              INTEGER,
  args                      TEXT
);

CREATE TABLE memcpys (
  id              INTEGER PRIMARY KEY,
  run_id          INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  process_id      INTEGER REFERENCES processes(id),
  device_id       INTEGER REFERENCES devices(id),
  stream_id       INTEGER REFERENCES streams(id),
  start_ns        INTEGER NOT NULL,
  end_ns          INTEGER NOT NULL,
  correlation_id  INTEGER,
  external_id     INTEGER,
  bytes           INTEGER,
  copy_kind       INTEGER NOT NULL DEFAULT 0 REFERENCES copy_kinds(id),
  src_kind        INTEGER REFERENCES memory_kinds(id),
  dst_kind        INTEGER REFERENCES memory_kinds(id),
  src_device_id   INTEGER REFERENCES devices(id),
  dst_device_id   INTEGER REFERENCES devices(id),
  is_async        INTEGER,
  migration_cause INTEGER,
  copy_count      INTEGER,
  graph_node_id   INTEGER,
  args            TEXT
);

CREATE TABLE memsets (
  id              INTEGER PRIMARY KEY,
  run_id          INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  process_id      INTEGER REFERENCES processes(id),
  device_id       INTEGER REFERENCES devices(id),
  stream_id       INTEGER REFERENCES streams(id),
  start_ns        INTEGER NOT NULL,
  end_ns          INTEGER NOT NULL,
  correlation_id  INTEGER,
  external_id     INTEGER,
  bytes           INTEGER,
  value           INTEGER,
  memory_kind     INTEGER REFERENCES memory_kinds(id),
  is_async        INTEGER,
  graph_node_id   INTEGER,
  args            TEXT
);

CREATE TABLE api_calls (
  id              INTEGER PRIMARY KEY,
  run_id          INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  process_id      INTEGER REFERENCES processes(id),
  thread_id       INTEGER REFERENCES threads(id),
  start_ns        INTEGER NOT NULL,
  end_ns          INTEGER NOT NULL,
  api_kind        INTEGER NOT NULL REFERENCES api_kinds(id),
  cbid            INTEGER,
  name_id         INTEGER NOT NULL REFERENCES strings(id),
  correlation_id  INTEGER,
  external_id     INTEGER,
  return_value    INTEGER,
  args            TEXT
);

CREATE TABLE ranges (
  id              INTEGER PRIMARY KEY,
  run_id          INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  process_id      INTEGER REFERENCES processes(id),
  thread_id       INTEGER REFERENCES threads(id),
  end_thread_id   INTEGER REFERENCES threads(id),
  device_id       INTEGER REFERENCES devices(id),
  stream_id       INTEGER REFERENCES streams(id),
  start_ns        INTEGER NOT NULL,
  end_ns          INTEGER,
  kind            INTEGER NOT NULL REFERENCES range_kinds(id),
  name_id         INTEGER NOT NULL REFERENCES strings(id),
  category_id     INTEGER REFERENCES strings(id),
  domain_id       INTEGER REFERENCES nvtx_domains(id),
  nvtx_category   INTEGER,
  color           INTEGER,
  payload,
  depth           INTEGER,
  parent_id       INTEGER REFERENCES ranges(id),
  range_key       INTEGER,
  correlation_id  INTEGER,
  external_id     INTEGER,
  args            TEXT
);

CREATE TABLE marks (
  id              INTEGER PRIMARY KEY,
  run_id          INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  process_id      INTEGER REFERENCES processes(id),
  thread_id       INTEGER REFERENCES threads(id),
  ts_ns           INTEGER NOT NULL,
  kind            INTEGER NOT NULL REFERENCES mark_kinds(id),
  name_id         INTEGER NOT NULL REFERENCES strings(id),
  category_id     INTEGER REFERENCES strings(id),
  domain_id       INTEGER REFERENCES nvtx_domains(id),
  nvtx_category   INTEGER,
  color           INTEGER,
  payload,
  scope           TEXT,
  args            TEXT
);

CREATE TABLE memory_events (
  id              INTEGER PRIMARY KEY,
  run_id          INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  process_id      INTEGER REFERENCES processes(id),
  thread_id       INTEGER REFERENCES threads(id),
  device_id       INTEGER REFERENCES devices(id),
  stream_id       INTEGER REFERENCES streams(id),
  ts_ns           INTEGER NOT NULL,
  operation       INTEGER NOT NULL REFERENCES memory_operations(id),
  address         INTEGER,
  bytes           INTEGER NOT NULL,
  memory_kind     INTEGER REFERENCES memory_kinds(id),
  total_allocated INTEGER,
  total_reserved  INTEGER,
  correlation_id  INTEGER,
  external_id     INTEGER,
  args            TEXT
);

CREATE TABLE counters (
  id          INTEGER PRIMARY KEY,
  run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  process_id  INTEGER REFERENCES processes(id),
  device_id   INTEGER REFERENCES devices(id),
  name_id     INTEGER NOT NULL REFERENCES strings(id),
  ts_ns       INTEGER NOT NULL,
  value       REAL NOT NULL
);

CREATE TABLE synchronizations (
  id              INTEGER PRIMARY KEY,
  run_id          INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  process_id      INTEGER REFERENCES processes(id),
  thread_id       INTEGER REFERENCES threads(id),
  device_id       INTEGER REFERENCES devices(id),
  stream_id       INTEGER REFERENCES streams(id),
  start_ns        INTEGER NOT NULL,
  end_ns          INTEGER NOT NULL,
  sync_type       INTEGER NOT NULL DEFAULT 0 REFERENCES sync_types(id),
  correlation_id  INTEGER,
  external_id     INTEGER,
  event_id        INTEGER,
  return_value    INTEGER,
  args            TEXT
);

-- The event tables' CHECKs compare with = ... OR: SQLite evaluates a CHECK's IN list of three or
-- more values by building a temporary index each time the INSERT runs, ~50 k instructions a row
-- (a flow is one of every three events of a Kineto trace; bench/RESULTS.md).
CREATE TABLE flows (
  id           INTEGER PRIMARY KEY,
  run_id       INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  process_id   INTEGER REFERENCES processes(id),
  thread_id    INTEGER REFERENCES threads(id),
  ts_ns        INTEGER NOT NULL,
  flow_key     INTEGER NOT NULL,
  phase        TEXT NOT NULL CHECK (phase = 's' OR phase = 't' OR phase = 'f'),
  name_id      INTEGER REFERENCES strings(id),
  category_id  INTEGER REFERENCES strings(id),
  binds_enclosing INTEGER
);

-- Names a program gave CUDA objects through NVTX (nvtxNameCuDevice/Context/Stream/Event,
-- nvtxNameCudaDevice/Stream/Event): one row per call, the handle as the program passed it.
CREATE TABLE cuda_names (
  id          INTEGER PRIMARY KEY,
  run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  process_id  INTEGER REFERENCES processes(id),
  thread_id   INTEGER REFERENCES threads(id),
  ts_ns       INTEGER NOT NULL,
  resource    TEXT NOT NULL CHECK (resource = 'device' OR resource = 'context' OR
                                   resource = 'stream' OR resource = 'event'),
  api         TEXT NOT NULL CHECK (api IN ('driver', 'runtime')),
  handle      INTEGER NOT NULL,
  cupti_id    INTEGER,
  name_id     INTEGER NOT NULL REFERENCES strings(id)
);

-- Derived tables (docs/schema.md, Derived tables): what the PyTorch reports' shared definitions
-- (the v_tb_* views) compute from a run's events, written when the run is finished
-- (lib/db_derive.c), so a report reads a few rows instead of recomputing them from every event.
-- The views read these rows for the runs derived_runs lists for them and compute any other run
-- (one still being written, or written by a profq without these tables) from its events.
CREATE TABLE derived_runs (
  run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  name        TEXT NOT NULL,
  PRIMARY KEY (run_id, name)
);

CREATE TABLE tb_steps (
  run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  step_index  INTEGER NOT NULL,
  step        INTEGER,
  start_ns    INTEGER,
  end_ns      INTEGER,
  PRIMARY KEY (run_id, step_index)
);

CREATE TABLE tb_step_times (
  run_id            INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  step_index        INTEGER NOT NULL,
  step              INTEGER,
  kernel_ns         INTEGER,
  memcpy_ns         INTEGER,
  memset_ns         INTEGER,
  communication_ns  INTEGER,
  runtime_ns        INTEGER,
  dataloader_ns     INTEGER,
  cpu_exec_ns       INTEGER,
  other_ns          INTEGER,
  total_ns          INTEGER,
  PRIMARY KEY (run_id, step_index)
);

CREATE TABLE tb_gpu_metrics (
  run_id                  INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  device_id               INTEGER REFERENCES devices(id),
  gpu_utilization_pct     REAL,
  sm_efficiency_pct       REAL,
  achieved_occupancy_pct  REAL,
  tensor_core_pct         REAL
);

CREATE TABLE tb_op_sums (
  run_id                      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  name_id                     INTEGER NOT NULL REFERENCES strings(id),
  input_shape                 TEXT,
  calls                       INTEGER,
  device_self_ns              REAL,
  device_total_ns             REAL,
  host_self_ns                REAL,
  host_total_ns               INTEGER,
  tc_eligible                 INTEGER,
  tc_self_ns                  REAL,
  tc_total_ns                 REAL,
  tc_eligible_ops_kernel_pct  REAL
);

CREATE TABLE tb_memory_sums (
  run_id                      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  device                      TEXT,
  ordinal                     INTEGER,
  name_id                     INTEGER NOT NULL REFERENCES strings(id),
  calls                       INTEGER,
  size_increase_bytes         INTEGER,
  self_size_increase_bytes    INTEGER,
  allocation_count            INTEGER,
  self_allocation_count       INTEGER,
  allocation_size_bytes       INTEGER,
  self_allocation_size_bytes  INTEGER
);

CREATE TABLE tb_kernel_sums (
  run_id                           INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  name_id                          INTEGER NOT NULL REFERENCES strings(id),
  tensor_cores_used                INTEGER,
  calls                            INTEGER,
  total_ns                         INTEGER,
  mean_ns                          INTEGER,
  max_ns                           INTEGER,
  min_ns                           INTEGER,
  mean_blocks_per_sm               REAL,
  mean_est_achieved_occupancy_pct  REAL
);

-- HTA's two breakdowns and its communication overlap with the default options (mode hta, last
-- step dropped, 30 µs kernel delay), the core numbers per GPU, per stream and per run: their views
-- are the reports themselves (queries/temporal-breakdown.sql, queries/idle-breakdown.sql,
-- queries/comm-overlap.sql), which read these rows for the runs listed and compute the rest, and
-- every run when options differ.
CREATE TABLE hta_temporal_breakdown (
  run_id          INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  device_id       INTEGER REFERENCES devices(id),
  idle_ns         INTEGER,
  compute_ns      INTEGER,
  non_compute_ns  INTEGER,
  kernel_ns       INTEGER
);

CREATE TABLE hta_idle_breakdown (
  run_id          INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  stream_id       INTEGER REFERENCES streams(id),
  host_wait_ns    INTEGER,
  kernel_wait_ns  INTEGER,
  other_ns        INTEGER
);

CREATE TABLE hta_comm_overlap (
  run_id          INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  comm_ns         INTEGER,
  overlap_ns      INTEGER
);

-- Indexes: time-range scans per run, correlation and external-id joins (kernel -> launching
-- call -> enclosing op), name lookups, and the run_id lookups that deleting a run needs. Every
-- import builds each one, so each is here for the queries that use it; the per-thread and
-- per-device ones none used are retired (docs/schema.md, Indexes; lib/db_upgrade.c drops them
-- from older files).

CREATE INDEX processes_run         ON processes (run_id);
CREATE INDEX threads_run           ON threads (run_id);
CREATE INDEX nvtx_categories_run   ON nvtx_categories (run_id);
CREATE INDEX kernels_run_time      ON kernels (run_id, start_ns);
CREATE INDEX kernels_correlation   ON kernels (process_id, correlation_id);
CREATE INDEX kernels_external      ON kernels (external_id) WHERE external_id IS NOT NULL;
-- top-kernels' default grouping (the demangled name) in key order, so the report aggregates
-- without sorting every kernel first; covering (SQLite 3.40 wants every column the expressions
-- read), with the duration stored so the aggregates read it instead of recomputing it. Within a
-- key, entries follow run and start time, so an import appends to ~one leaf page per kernel name.
-- Costs ~30 bytes a kernel and slows kernel inserts (docs/schema.md, Indexes).
CREATE INDEX kernels_name          ON kernels (coalesce(demangled_name_id, name_id),
                                               run_id, start_ns, end_ns - start_ns, end_ns,
                                               demangled_name_id, name_id);
CREATE INDEX memcpys_run_time      ON memcpys (run_id, start_ns);
CREATE INDEX memcpys_correlation   ON memcpys (process_id, correlation_id);
CREATE INDEX memsets_run_time      ON memsets (run_id, start_ns);
CREATE INDEX memsets_correlation   ON memsets (process_id, correlation_id);
CREATE INDEX api_calls_run_time    ON api_calls (run_id, start_ns);
CREATE INDEX api_calls_correlation ON api_calls (process_id, correlation_id);
CREATE INDEX api_calls_external    ON api_calls (external_id) WHERE external_id IS NOT NULL;
CREATE INDEX ranges_run_time       ON ranges (run_id, start_ns);
CREATE INDEX ranges_external       ON ranges (external_id) WHERE external_id IS NOT NULL;
CREATE INDEX ranges_name           ON ranges (name_id);
CREATE INDEX marks_run_time        ON marks (run_id, ts_ns);
CREATE INDEX memory_events_run_time ON memory_events (run_id, ts_ns);
CREATE INDEX counters_run_name_time ON counters (run_id, name_id, ts_ns);
CREATE INDEX synchronizations_run_time ON synchronizations (run_id, start_ns);
CREATE INDEX synchronizations_correlation ON synchronizations (process_id, correlation_id);
CREATE INDEX flows_run_key         ON flows (run_id, flow_key);
CREATE INDEX streams_run           ON streams (run_id);
CREATE INDEX devices_run           ON devices (run_id);
CREATE INDEX nvtx_domains_run      ON nvtx_domains (run_id);
