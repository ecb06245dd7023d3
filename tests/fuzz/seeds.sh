#!/bin/sh
# seeds.sh CORPUS_ROOT - derives the seed inputs that are too big to commit from tests/data:
# Chrome traces as they are (the small ones), and Nsight Systems exports cut down to the tables
# the importer reads, 12 rows each and 512-byte pages (50-90 kB instead of 0.4-2 MB).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
root=$1
data=$top/tests/data
mkdir -p "$root/chrome" "$root/nsys" "$root/sqlfn"

for f in "$data"/kineto/libkineto_test_traces/*.json "$data"/kineto/tb_plugin_test/*.json; do
	[ -f "$f" ] && cp "$f" "$root/chrome/"
done

keep="'StringIds','PROCESSES','ThreadNames','META_DATA_EXPORT','EXPORT_META_DATA','TARGET_INFO_GPU',
'TARGET_INFO_CUDA_DEVICE','TARGET_INFO_CUDA_STREAM','TARGET_INFO_SESSION_START_TIME',
'CUPTI_ACTIVITY_KIND_KERNEL','CUPTI_ACTIVITY_KIND_MEMCPY','CUPTI_ACTIVITY_KIND_MEMSET',
'CUPTI_ACTIVITY_KIND_RUNTIME','CUPTI_ACTIVITY_KIND_SYNCHRONIZATION','NVTX_EVENTS'"
for f in "$data"/nsys/*.sqlite; do
	[ -f "$f" ] || continue
	out=$root/nsys/$(basename "$f")
	[ -f "$out" ] && continue
	cp "$f" "$out.tmp"
	chmod u+w "$out.tmp"
	sql=$(sqlite3 "$out.tmp" "
		SELECT group_concat('DROP TABLE \"' || name || '\";', ' ') FROM sqlite_master
		 WHERE type = 'table' AND name NOT IN ($keep);
		SELECT group_concat('DELETE FROM \"' || name || '\" WHERE rowid NOT IN (SELECT rowid
		 FROM \"' || name || '\" ORDER BY rowid LIMIT 12);', ' ') FROM sqlite_master
		 WHERE type = 'table' AND name IN ($keep) AND name NOT IN ('StringIds',
		 'META_DATA_EXPORT', 'EXPORT_META_DATA');")
	sqlite3 "$out.tmp" "$sql PRAGMA page_size = 512; VACUUM;"
	mv "$out.tmp" "$out"
done
