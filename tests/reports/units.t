#!/bin/sh
# Report units: every column named with a size or rate unit uses a suffix docs/reports.md defines
# (`_gib` 2^30 bytes, `_mb` 10^6 bytes, ...), and the values are in that unit: checked on the
# demo database against sqlite3's own arithmetic.
. "${0%/*}/../lib.sh"
cd "$TMP"
"$BUILD/examples/demo" demo.db

# The suffixes the documentation's Units table lists.
documented=$(sed -n 's/^| `\(_[a-z_]*\)` |.*/\1/p' "$TOP/docs/reports.md" | tr '\n' ' ')
like "$documented" "_gib .*_mb |_mb .*_gib " "docs/reports.md lists _gib and _mb"

bad=""
for r in $("$PROFQ" report --list | awk '{ print $1 }'); do
	for col in $("$PROFQ" "$r" demo.db --format csv --limit 1 2>/dev/null | head -n 1 | tr ',' ' '); do
		# Names that carry a byte unit: ..._kb, _mb, _gb, _tb, _kib, _mib, _gib, _bytes..., _gb_s
		unit=$(printf '%s' "$col" | grep -oE '_([kmgt]i?b|bytes)(_s|_per_s)?$' || true)
		[ -n "$unit" ] || continue
		case " $documented " in *" $unit "*) ;; *) bad="$bad $r:$col" ;; esac
	done
done
is "$bad" "" "every size or rate column uses a documented suffix"

# gpu-summary's memory_gib is 2^30 bytes (gpu-summary reads PyTorch profiler runs: a Kineto sample);
# gpu-mem-size-sum's _mb columns are 10^6 bytes.
K=$DATA/kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz
if [ -f "$K" ]; then
	"$PROFQ" import -q -o k.db "$K"
	is "$("$PROFQ" gpu-summary k.db --format csv | head -n 1 | cut -d, -f4)" memory_gib \
		"gpu-summary: memory_gib"
	is "$("$PROFQ" gpu-summary k.db --format csv | sed -n 2p | cut -d, -f4)" \
		"$(sqlite k.db "SELECT round(global_memory_bytes / CAST(1 << 30 AS REAL), 2) FROM devices
			WHERE ordinal = 0")" "gpu-summary: memory_gib = global memory / 2^30"
else
	skip "gpu-summary: memory_gib" "no Kineto sample"
	skip "gpu-summary: memory_gib = global memory / 2^30" "no Kineto sample"
fi
is "$("$PROFQ" gpu-mem-size-sum demo.db --format csv | sed 1d | cut -d, -f1,8 | sort)" \
	"$(sqlite -separator , demo.db "SELECT round(sum(bytes) / 1e6, 6), '[CUDA memcpy ' || ck.label || ']' FROM memcpys m
		JOIN copy_kinds ck ON ck.id = m.copy_kind GROUP BY 2
		UNION ALL SELECT round(sum(bytes) / 1e6, 6), '[CUDA memset]' FROM memsets HAVING count(*) > 0" | sort)" \
	"gpu-mem-size-sum: total_mb = bytes / 10^6"

done_testing
