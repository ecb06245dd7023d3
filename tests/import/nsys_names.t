#!/bin/sh
# Names are interned once per StringIds id of the export, through a cache of 4096 slots by id
# (lib/nsys_read.c, nsys_name_id). A copy of the h100 export whose NVTX ranges and API calls take
# their names from 50 new strings whose ids all fall in one slot, in turn, keeps every row's own
# name: counted per name against the export.
. "${0%/*}/../lib.sh"

f=$DATA/nsys/h100_2gpu_1s.sqlite
[ -f "$f" ] || skip_all "no $f"
x=$TMP/names.sqlite
cp "$f" "$x" && chmod u+w "$x" && sqlite "$x" "
	WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < 49)
	INSERT INTO StringIds (id, value) SELECT 40960000 + i * 4096, 'name ' || i FROM k;
	UPDATE NVTX_EVENTS SET textId = 40960000 + (rowid * 7 % 50) * 4096, text = NULL
		WHERE eventType = 59;
	UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET nameId = 40960000 + (rowid * 3 % 50) * 4096
		WHERE rowid % 2 = 0"
ok $? "a copy with 50 names in one cache slot"
"$PROFQ" import -q -o "$TMP/n.db" "$x" >/dev/null
ok $? "import it"
is "$(sqlite "$TMP/n.db" "SELECT n.value, count(*) FROM ranges r JOIN strings n ON n.id = r.name_id
	WHERE r.kind = 0 GROUP BY 1 ORDER BY 1")" \
   "$(sqlite "$x" "SELECT s.value, count(*) FROM NVTX_EVENTS e JOIN StringIds s ON s.id = e.textId
	WHERE e.eventType = 59 GROUP BY 1 ORDER BY 1")" "push/pop ranges: each name as often as in the export"
is "$(sqlite "$TMP/n.db" "SELECT count(DISTINCT r.name_id) FROM ranges r WHERE r.kind = 0")" "50" \
   "and 50 of them"
is "$(sqlite "$TMP/n.db" "SELECT n.value, count(*) FROM api_calls a JOIN strings n ON n.id = a.name_id
	GROUP BY 1 ORDER BY 1")" \
   "$(sqlite "$x" "SELECT s.value, count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s
	ON s.id = r.nameId GROUP BY 1 ORDER BY 1")" "API calls: each name as often as in the export"
is "$(sqlite "$TMP/n.db" "SELECT count(*) FROM strings WHERE value LIKE 'name %'")" "50" \
   "each name stored once"

done_testing
