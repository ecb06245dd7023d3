#!/bin/sh
# profq import of Nsight Systems SQLite exports: every export (nsys_exports) imports, and what it
# holds equals counts and sums computed independently with SQL on the export itself.
. "${0%/*}/../lib.sh"

NSYS=$DATA/nsys
[ -d "$NSYS" ] || skip_all "no nsys exports in $NSYS"

DB=$TMP/profile.db
# src FILE SQL: a query on the export, opened read-only.
src() { sqlite "file:$1?mode=ro" "$2"; }
# dst RUN SQL: a query on the imported database; :run stands for the run id.
dst() { sqlite "$DB" "$(printf '%s' "$2" | sed "s/:run/$1/g")"; }

run=0
for f in $(nsys_exports); do
	name=$(basename "$f")
	out=$("$PROFQ" import -o "$DB" "$f" 2>"$TMP/err")
	ok $? "$name imports"
	is "$out" "" "$name: nothing on stdout"
	run=$((run + 1))
	is "$(wc -l <"$TMP/err")" 1 "$name: one line on stderr"
	like "$(cat "$TMP/err")" "^profq: imported $f as run $run \\(nsys-sqlite\\) in [0-9]+\\.[0-9]{2} s: [0-9,]+ events, [0-9,]+ rows$" \
		"$name: run $run reported"
	has() { [ -n "$(src "$f" "SELECT 1 FROM sqlite_master WHERE name = '$1'")" ]; }

	is "$(dst $run "SELECT status, source FROM runs WHERE id = :run")" "complete|nsys-sqlite" \
		"$name: run complete, source nsys-sqlite"
	meta=META_DATA_EXPORT; has META_DATA_EXPORT || meta=EXPORT_META_DATA
	ver=$(src "$f" "SELECT value FROM $meta WHERE name = 'EXPORT_PRODUCT_VERSION'")
	is "$(dst $run "SELECT source_version FROM runs WHERE id = :run")" "$ver" "$name: producer version"

	if has CUPTI_ACTIVITY_KIND_KERNEL; then
		is "$(dst $run "SELECT count(*), sum(end_ns - start_ns) FROM kernels WHERE run_id = :run")" \
		   "$(src "$f" "SELECT count(*), sum(\"end\" - start) FROM CUPTI_ACTIVITY_KIND_KERNEL")" \
		   "$name: kernel count and duration sum"
		is "$(dst $run "SELECT d.ordinal, count(*) FROM kernels k JOIN devices d ON d.id = k.device_id
		                WHERE k.run_id = :run GROUP BY 1 ORDER BY 1")" \
		   "$(src "$f" "SELECT deviceId, count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY 1 ORDER BY 1")" \
		   "$name: kernels per device"
		is "$(dst $run "SELECT sum(grid_x * grid_y * grid_z), sum(block_x * block_y * block_z),
		                       sum(registers_per_thread), sum(static_shared_bytes + dynamic_shared_bytes),
		                       sum(correlation_id), sum(grid_id)
		                FROM kernels WHERE run_id = :run")" \
		   "$(src "$f" "SELECT sum(gridX * gridY * gridZ), sum(blockX * blockY * blockZ),
		                       sum(registersPerThread), sum(staticSharedMemory + dynamicSharedMemory),
		                       sum(correlationId), sum(gridId)
		                FROM CUPTI_ACTIVITY_KIND_KERNEL")" \
		   "$name: launch geometry, registers, shared memory, correlation and grid ids"
		is "$(dst $run "SELECT sha1 FROM (SELECT count(*) AS sha1 FROM kernels k
		                JOIN strings n ON n.id = k.name_id
		                LEFT JOIN strings d ON d.id = k.demangled_name_id
		                LEFT JOIN strings s ON s.id = k.short_name_id
		                WHERE k.run_id = :run AND d.value IS NOT NULL AND s.value IS NOT NULL)")" \
		   "$(src "$f" "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL")" \
		   "$name: every kernel has its demangled and short name"
		# name = mangledName when the export has it, else demangledName.
		mangled=$(src "$f" "SELECT count(*) FROM pragma_table_info('CUPTI_ACTIVITY_KIND_KERNEL') WHERE name = 'mangledName'")
		if [ "$mangled" = 1 ]; then expr='coalesce(m.value, d.value)'; join='LEFT JOIN StringIds m ON m.id = k.mangledName'
		else expr='d.value'; join=''; fi
		is "$(dst $run "SELECT n.value, d.value, s.value FROM kernels k JOIN strings n ON n.id = k.name_id
		                JOIN strings d ON d.id = k.demangled_name_id JOIN strings s ON s.id = k.short_name_id
		                WHERE k.run_id = :run ORDER BY 1, 2, 3" | sha256sum)" \
		   "$(src "$f" "SELECT $expr, d.value, s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k $join
		                JOIN StringIds d ON d.id = k.demangledName JOIN StringIds s ON s.id = k.shortName
		                ORDER BY 1, 2, 3" | sha256sum)" \
		   "$name: kernel names (name, demangled, short)"
	fi
	if has CUPTI_ACTIVITY_KIND_RUNTIME; then
		is "$(dst $run "SELECT api_kind, count(*), sum(end_ns - start_ns), sum(correlation_id), sum(return_value)
		                FROM api_calls WHERE run_id = :run GROUP BY 1 ORDER BY 1")" \
		   "$(src "$f" "SELECT eventClass, count(*), sum(\"end\" - start), sum(correlationId), sum(returnValue)
		                FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass IN (0, 1) GROUP BY 1 ORDER BY 1")" \
		   "$name: runtime and driver API calls (count, duration, correlation, return values)"
		is "$(dst $run "SELECT n.value, count(*) FROM api_calls a JOIN strings n ON n.id = a.name_id
		                WHERE a.run_id = :run GROUP BY 1 ORDER BY 1" | sha256sum)" \
		   "$(src "$f" "SELECT s.value, count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId
		                WHERE eventClass IN (0, 1) GROUP BY 1 ORDER BY 1" | sha256sum)" \
		   "$name: API call names"
	fi
	if has CUPTI_ACTIVITY_KIND_MEMCPY; then
		is "$(dst $run "SELECT copy_kind, count(*), sum(bytes), sum(end_ns - start_ns), sum(src_kind), sum(dst_kind),
		                       sum(migration_cause) FROM memcpys WHERE run_id = :run GROUP BY 1 ORDER BY 1")" \
		   "$(src "$f" "SELECT copyKind, count(*), sum(bytes), sum(\"end\" - start), sum(srcKind), sum(dstKind),
		                       sum(migrationCause) FROM CUPTI_ACTIVITY_KIND_MEMCPY GROUP BY 1 ORDER BY 1")" \
		   "$name: memcpy count, bytes, duration, kinds per copyKind"
	fi
	if has CUPTI_ACTIVITY_KIND_MEMSET; then
		is "$(dst $run "SELECT count(*), sum(bytes), sum(value), sum(memory_kind), sum(end_ns - start_ns)
		                FROM memsets WHERE run_id = :run")" \
		   "$(src "$f" "SELECT count(*), sum(bytes), sum(value), sum(memKind), sum(\"end\" - start)
		                FROM CUPTI_ACTIVITY_KIND_MEMSET")" \
		   "$name: memsets"
	fi
	if has CUPTI_ACTIVITY_KIND_SYNCHRONIZATION; then
		is "$(dst $run "SELECT sync_type, count(*), sum(end_ns - start_ns), sum(event_id)
		                FROM synchronizations WHERE run_id = :run GROUP BY 1 ORDER BY 1")" \
		   "$(src "$f" "SELECT syncType, count(*), sum(\"end\" - start), sum(eventId)
		                FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION GROUP BY 1 ORDER BY 1")" \
		   "$name: synchronizations per type"
	fi
	if has NVTX_EVENTS; then
		is "$(dst $run "SELECT kind, count(*), sum(end_ns - start_ns) FROM ranges WHERE run_id = :run GROUP BY 1 ORDER BY 1")" \
		   "$(src "$f" "SELECT CASE WHEN eventType IN (59, 70) THEN 0 ELSE 1 END, count(*), sum(\"end\" - start)
		                FROM NVTX_EVENTS WHERE eventType IN (59, 60, 70, 71) GROUP BY 1 ORDER BY 1")" \
		   "$name: NVTX ranges per kind"
		is "$(dst $run "SELECT n.value, count(*) FROM ranges r JOIN strings n ON n.id = r.name_id
		                WHERE r.run_id = :run GROUP BY 1 ORDER BY 1" | sha256sum)" \
		   "$(src "$f" "SELECT coalesce(s.value, e.text, ''), count(*) FROM NVTX_EVENTS e
		                LEFT JOIN StringIds s ON s.id = e.textId
		                WHERE eventType IN (59, 60, 70, 71) GROUP BY 1 ORDER BY 1" | sha256sum)" \
		   "$name: NVTX range text"
		is "$(dst $run "SELECT count(*) FROM marks WHERE run_id = :run")" \
		   "$(src "$f" "SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (34, 65)")" "$name: NVTX marks"
	fi
	if has PROCESSES; then
		is "$(dst $run "SELECT p.pid, s.value FROM processes p JOIN strings s ON s.id = p.name_id
		                WHERE p.run_id = :run ORDER BY 1" | sha256sum)" \
		   "$(src "$f" "SELECT (globalPid >> 24) & 16777215, name FROM PROCESSES WHERE name IS NOT NULL ORDER BY 1" | sha256sum)" \
		   "$name: process names"
	fi
	if has ThreadNames; then
		is "$(dst $run "SELECT pid, tid, thread_name FROM v_threads WHERE run_id = :run AND thread_name IS NOT NULL
		                ORDER BY 1, 2" | sha256sum)" \
		   "$(src "$f" "SELECT (globalTid >> 24) & 16777215, globalTid & 16777215, s.value FROM ThreadNames t
		                JOIN StringIds s ON s.id = t.nameId ORDER BY 1, 2" | sha256sum)" \
		   "$name: thread names"
	fi
	# Absolute times: every event = source timestamp + utcEpochNs (the documented offset).
	utc=$(src "$f" "SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME")
	is "$(dst $run "SELECT time_base, time_offset_ns FROM runs WHERE id = :run")" "unix|$utc" \
		"$name: time base unix, offset = utcEpochNs"
	if has CUPTI_ACTIVITY_KIND_RUNTIME; then
		is "$(dst $run "SELECT min(start_ns) - $utc, max(end_ns) - $utc FROM api_calls WHERE run_id = :run")" \
		   "$(src "$f" "SELECT min(start), max(\"end\") FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass IN (0, 1)")" \
		   "$name: API times = source + utcEpochNs"
	fi
done

# h100_2gpu_1s.sqlite (schema 3.25.0): the figures of SOURCES.md, and one event by hand.
f=$NSYS/h100_2gpu_1s.sqlite
if [ -f "$f" ]; then
	r=$(sqlite "$DB" "SELECT id FROM runs WHERE source_path = '$f'")
	is "$(dst $r "SELECT (SELECT count(*) FROM kernels WHERE run_id = :run), (SELECT count(*) FROM api_calls WHERE run_id = :run),
	              (SELECT count(*) FROM memcpys WHERE run_id = :run), (SELECT count(*) FROM memsets WHERE run_id = :run),
	              (SELECT count(*) FROM synchronizations WHERE run_id = :run),
	              (SELECT count(*) FROM ranges WHERE run_id = :run AND kind = 0)")" \
	   "3442|5796|904|22|244|16782" "h100: 3442 kernels, 5796 API calls, 904 memcpy, 22 memset, 244 sync, 16782 push/pop"
	# By hand: the first kernel starts at 155360295935 ns on the export's clock (session time);
	# TARGET_INFO_SESSION_START_TIME.utcEpochNs = 1779630014975716426 (2026-05-24T13:40:14Z), so
	# 1779630014975716426 + 155360295935 = 1779630170336012361 (2026-05-24T13:42:50.336Z).
	is "$(dst $r "SELECT min(start_ns) FROM kernels WHERE run_id = :run")" "1779630170336012361" \
		"h100: first kernel at utcEpochNs + 155360295935"
	# Correlation ids are unique per process only: 1632 kernels have their launching call in the
	# 1-s slice; matching on the id alone would claim 1643.
	is "$(dst $r "SELECT count(*) FROM kernels k JOIN api_calls a ON a.process_id = k.process_id
	              AND a.correlation_id = k.correlation_id WHERE k.run_id = :run AND a.run_id = :run")" \
	   "1632" "h100: 1632 kernels link to their launching call (process + correlation id)"
	is "$(dst $r "SELECT value FROM run_metadata WHERE run_id = :run AND key = 'nsys.kernels_without_api_call'")" \
	   "1810" "h100: 1810 kernels kept without their launching call"
	is "$(dst $r "SELECT count(DISTINCT device_id), count(DISTINCT stream_id) > 1 FROM kernels WHERE run_id = :run")" \
	   "2|1" "h100: kernels on 2 devices, several streams"
	is "$(dst $r "SELECT key, value FROM run_metadata WHERE run_id = :run AND key IN ('nsys.schema_version',
	              'nsys.capture.CUDA_GRAPH_TRACE_OPTIONS:MODE', 'nsys.capture.CAPTURE_EVENT_TYPE') ORDER BY 1")" \
	   "nsys.capture.CAPTURE_EVENT_TYPE|NvtxEvents
Cuda
nsys.capture.CUDA_GRAPH_TRACE_OPTIONS:MODE|Graph
nsys.schema_version|3.25.0" "h100: schema version and capture options in run_metadata"
	# Push/pop depth: on a sample of ranges, the number of other ranges of the same thread that
	# contain it, counted on the export (no identical intervals in this file).
	is "$(sqlite "$DB" "ATTACH 'file:$f?mode=ro' AS src;
	      SELECT sum(r.depth) FROM (SELECT e.start + 1779630014975716426 AS start_ns, e.globalTid & 16777215 AS tid
	        FROM src.NVTX_EVENTS e WHERE e.eventType = 59 AND e.rowid % 40 = 0) s
	      CROSS JOIN ranges r ON r.run_id = $r AND r.kind = 0 AND r.start_ns = s.start_ns
	      JOIN threads t ON t.id = r.thread_id AND t.tid = s.tid")" \
	   "$(src "$f" "SELECT sum((SELECT count(*) FROM NVTX_EVENTS p WHERE p.globalTid = e.globalTid AND p.eventType = 59
	                AND p.rowid <> e.rowid AND p.start <= e.start AND p.\"end\" >= e.\"end\"))
	                FROM NVTX_EVENTS e WHERE e.eventType = 59 AND e.rowid % 40 = 0")" \
	   "h100: NVTX push/pop depth per thread"
	is "$(dst $r "SELECT count(*) FROM ranges c JOIN ranges p ON p.id = c.parent_id
	              WHERE c.run_id = :run AND (p.depth <> c.depth - 1 OR p.thread_id <> c.thread_id
	              OR p.start_ns > c.start_ns OR p.end_ns < c.end_ns)")" "0" \
	   "h100: every push/pop parent encloses its child, one level up, same thread"
fi

# mock.sqlite (3.24.14): the RTX 3080's properties equal TARGET_INFO_GPU's.
f=$NSYS/mock.sqlite
if [ -f "$f" ]; then
	r=$(sqlite "$DB" "SELECT id FROM runs WHERE source_path = '$f'")
	is "$(dst $r "SELECT ordinal, name, uuid, sm_count, compute_major, compute_minor, core_clock_hz,
	              global_memory_bytes, memory_bandwidth_bytes_per_s, l2_cache_bytes, warp_size,
	              max_threads_per_block, max_threads_per_sm, max_blocks_per_sm, max_registers_per_block,
	              max_registers_per_sm, max_shared_memory_per_block, max_shared_memory_per_sm,
	              shared_memory_per_block_optin FROM devices WHERE run_id = :run")" \
	   "$(src "$f" "SELECT cuDevice, name, uuid, smCount, computeMajor, computeMinor, clockRate, totalMemory,
	              memoryBandwidth, l2CacheSize, threadsPerWarp, maxThreadsPerBlock, maxWarpsPerSm * threadsPerWarp,
	              maxBlocksPerSm, maxRegistersPerBlock, maxRegistersPerSm, maxShmemPerBlock, maxShmemPerSm,
	              maxShmemPerBlockOptin FROM TARGET_INFO_GPU")" \
	   "mock: device properties equal TARGET_INFO_GPU"
	is "$(dst $r "SELECT name, sm_count, compute_major || '.' || compute_minor FROM devices WHERE run_id = :run")" \
	   "NVIDIA GeForce RTX 3080|68|8.6" "mock: RTX 3080, 68 SMs, compute 8.6"
	is "$(dst $r "SELECT s.stream, s.priority, st.name FROM streams s JOIN stream_types st ON st.id = s.stream_type
	              WHERE s.run_id = :run ORDER BY 1")" \
	   "$(src "$f" "SELECT streamId, CASE WHEN priority > 2147483647 THEN priority - 4294967296 ELSE priority END,
	              CASE flag WHEN 0 THEN 'unknown' WHEN 1 THEN 'default' WHEN 2 THEN 'non_blocking' ELSE 'null' END
	              FROM TARGET_INFO_CUDA_STREAM WHERE streamId IN
	              (SELECT streamId FROM CUPTI_ACTIVITY_KIND_KERNEL UNION SELECT streamId FROM CUPTI_ACTIVITY_KIND_MEMCPY
	               UNION SELECT streamId FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION) ORDER BY 1")" \
	   "mock: stream priority and type from TARGET_INFO_CUDA_STREAM"
fi

# report1.sqlite (legacy 2.9.1): 4608 memcpys, Unified Memory kinds 11 and 12 among them.
f=$SHARED_DATA/nsys/report1.sqlite
if [ -f "$f" ]; then
	r=$(sqlite "$DB" "SELECT id FROM runs WHERE source_path = '$f'")
	is "$(dst $r "SELECT count(*), sum(copy_kind IN (11, 12)) > 0 FROM memcpys WHERE run_id = :run")" "4608|1" \
		"report1: 4608 memcpys incl. UVM kinds 11/12"
	is "$(dst $r "SELECT value FROM run_metadata WHERE run_id = :run AND key = 'nsys.metadata_table'")" \
		"EXPORT_META_DATA" "report1: legacy metadata table"
	is "$(dst $r "SELECT name, sm_count FROM devices WHERE run_id = :run")" "NVIDIA A100-SXM4-40GB|108" \
		"report1: A100 from TARGET_INFO_GPU"
fi

# NVTX jsonText that is not a JSON object is kept as {"jsonText": "<text>"}: quotes, a backslash
# and control characters come back unchanged through SQLite's JSON functions.
f=$NSYS/h100_2gpu_1s.sqlite
if [ -f "$f" ]; then
	cp "$f" "$TMP/json.sqlite" && chmod u+w "$TMP/json.sqlite"
	sqlite "$TMP/json.sqlite" "UPDATE NVTX_EVENTS SET jsonText = 'say \"hi\" \\ ' || char(9, 10)
		WHERE rowid = (SELECT min(rowid) FROM NVTX_EVENTS)"
	"$PROFQ" import -o "$TMP/json.db" "$TMP/json.sqlite" 2>/dev/null
	is "$(sqlite "$TMP/json.db" "SELECT count(*), hex(json_extract(min(args), '\$.jsonText')) FROM ranges
		WHERE args IS NOT NULL")" \
	   "1|$(printf 'say "hi" \\ \t\n' | od -An -tx1 | tr -d ' \n' | tr a-f A-F)" \
	   "jsonText with quotes, a backslash, tab and newline is quoted JSON"
fi

# Rows are numbered in start order whether the export's tables are stored in that order (read
# as stored) or not (sorted): the same export with its kernel and memcpy tables written in a
# shuffled order gives the same rows under the same ids.
f=$NSYS/h100_2gpu_1s.sqlite
if [ -f "$f" ]; then
	cp "$f" "$TMP/shuffled.sqlite" && chmod u+w "$TMP/shuffled.sqlite"
	for t in CUPTI_ACTIVITY_KIND_KERNEL CUPTI_ACTIVITY_KIND_MEMCPY; do
		sqlite "$TMP/shuffled.sqlite" "CREATE TABLE s AS SELECT * FROM $t ORDER BY random();
			DELETE FROM $t; INSERT INTO $t SELECT * FROM s; DROP TABLE s"
	done
	is "$(sqlite "$TMP/shuffled.sqlite" "SELECT count(*) > 1000 FROM (SELECT start < lag(start)
		OVER (ORDER BY rowid) AS back FROM CUPTI_ACTIVITY_KIND_KERNEL) WHERE back")" 1 \
	   "shuffled: the kernels are stored out of start order"
	rm -f "$TMP/ordered.db" "$TMP/shuffled.db"
	"$PROFQ" import -q -o "$TMP/ordered.db" "$f" && "$PROFQ" import -q -o "$TMP/shuffled.db" "$TMP/shuffled.sqlite"
	ok $? "shuffled: imported"
	rows="SELECT id, start_ns, end_ns, device_id, stream_id, correlation_id FROM kernels
		UNION ALL SELECT id, start_ns, end_ns, device_id, stream_id, bytes FROM memcpys"
	is "$(sqlite "$TMP/shuffled.db" "$rows")" "$(sqlite "$TMP/ordered.db" "$rows")" \
	   "shuffled: the same kernels and memcpys under the same ids"
	is "$(sqlite "$TMP/ordered.db" "SELECT count(*) FROM kernels a JOIN kernels b ON b.id = a.id + 1
		WHERE b.start_ns < a.start_ns")" 0 "ordered: kernel ids in start order"
fi

done_testing
