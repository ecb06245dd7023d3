#!/bin/sh
# Files that run anywhere (docs/reports.md): every queries/*.sql, with its default options and
# with each non-default choice, gives the rows of `profq NAME --format csv` also
#   sq   through the sqlite3 shell with the file's .load line, from the repository root;
#   sqi  through the sqlite3 shell with the installed copy (make install), from another folder;
#   sql  through `profq sql DB --param ... < FILE` (exactly the same text);
#   py   through python/profq.py (Debian's python3), the repository's copy;
#   pyi  through the installed python/profq.py, from another folder, finding everything itself;
# on a database with three runs (examples/demo, an nsys export, a Kineto trace) and on the
# demo database. Options reach sqlite3 as `.param set :NAME VALUE`. The sqlite3 and Python
# outputs are compared in a canonical form (everywhere.py: CSV parsed, values in SQLite's own
# text form, so reals print as "%!.15g" in every path; an empty result is the same with or
# without its header line).
. "${0%/*}/../lib.sh"
cd "$TMP"
[ -f "$DATA/nsys/mock.sqlite" ] || skip_all "no ../shared/data"
kineto=$DATA/kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz
here=$TOP/tests/reports
"$BUILD/examples/demo" demo.db
"$BUILD/examples/demo" multi.db
"$PROFQ" import -q -o multi.db "$DATA/nsys/mock.sqlite" "$kineto" >/dev/null
is "$(sqlite multi.db "SELECT count(*) FROM runs")" 3 "multi.db: three runs"

inst=$TMP/inst
make -s -C "$TOP" B="${PROFQ_BUILD:-build}" install PREFIX="$inst" >install.log 2>&1
is "$?" 0 "make install PREFIX=$inst"
mkdir elsewhere

# The plan: one line per case, "ID REPORT [NAME=VALUE]...": defaults, then every other choice
# of each declared option (numeric options: 1, or 2 when the default is 1).
plan() {
	db=$1
	for f in "$TOP"/queries/*.sql; do
		r=$(basename "$f" .sql)
		echo "$r.0 $r"
		k=1
		sed -n 's/^-- option \([^=]*\)=\(.*\): .*/\1 \2/p' "$f" | while read -r name spec; do
			def=$(printf '%s\n' "$spec" | sed -n 's/.* (default \(.*\))$/\1/p')
			choices=${spec%% (default*}
			case $choices in
			"<text>") values="" ;;
			"<"*) [ "$def" = 1 ] && values=2 || values=1 ;;
			*) values=$(printf '%s\n' "$choices" | tr '|' ' ') ;;
			esac
			for v in $values; do
				[ "$v" = "$def" ] && continue
				echo "$r.$name=$v $r $name=$v"
			done
		done
		if [ "$db" = multi ]; then
			echo "$r.run3 $r run=3 limit=3"
		fi
	done
}

for db in multi demo; do
	mkdir -p "out/$db"
	plan $db >"plan.$db"
	while read -r id r opts; do
		o="out/$db/$id"
		flags="" params="" cmds=""
		for kv in $opts; do
			name=${kv%%=*} value=${kv#*=}
			flags="$flags --$name $value"
			params="$params --param $kv"
			case $value in
			*[!0-9.]*) cmds="$cmds -cmd .param\\ set\\ :$(echo "$name" | tr - _)\\ '$value'" ;;
			*) cmds="$cmds -cmd .param\\ set\\ :$(echo "$name" | tr - _)\\ $value" ;;
			esac
		done
		# shellcheck disable=SC2086
		"$PROFQ" "$r" "$TMP/$db.db" --format csv $flags >"$o.ref" 2>&1 || echo "exit $?" >>"$o.ref"
		# shellcheck disable=SC2086
		"$PROFQ" sql "$TMP/$db.db" --format csv $params <"$TOP/queries/$r.sql" >"$o.sql" 2>&1 ||
			echo "exit $?" >>"$o.sql"
		(cd "$TOP" && eval "sqlite -csv -header $cmds \"$TMP/$db.db\"" <"queries/$r.sql") \
			>"$o.sq" 2>&1 || echo "exit $?" >>"$o.sq"
		(cd "$TMP/elsewhere" && eval "sqlite -csv -header $cmds \"$TMP/$db.db\"" \
			<"$inst/share/profq/queries/$r.sql") >"$o.sqi" 2>&1 || echo "exit $?" >>"$o.sqi"
	done <"plan.$db"
	PROFQ_EXTENSION=$EXT py "$here/everywhere.py" run "$TOP/python" "$TMP/$db.db" "plan.$db" \
		"out/$db" py 2>"py.$db.err"
	is "$?:$(cat "py.$db.err")" "0:" "$db: python3 with python/profq.py ran every case"
	# From another folder, with nothing set: the installed module finds the installed extension
	# and report files itself.
	(cd elsewhere && unset PROFQ_EXTENSION PROFQ_QUERIES && cp "$here/everywhere.py" . &&
		py ./everywhere.py run "$inst/share/profq/python" "$TMP/$db.db" "../plan.$db" \
		"../out/$db" pyi) 2>"pyi.$db.err"
	is "$?:$(cat "pyi.$db.err")" "0:" "$db: python3 with the installed profq.py ran every case"

	# profq sql prints exactly what the report prints.
	bad=""
	for f in out/$db/*.ref; do
		cmp -s "$f" "${f%.ref}.sql" || bad="$bad ${f##*/}"
	done
	is "$bad" "" "$db: profq sql DB < FILE prints exactly what profq NAME prints, every case"
	py "$here/everywhere.py" compare "out/$db" ref sq sqi py pyi >"cmp.$db"
	while IFS="$(printf '\t')" read -r id path result detail; do
		[ "$result" = ok ]
		ok $? "$db $id via $path ($detail)"
		[ "$result" = ok ] || echo "#   $detail"
	done <"cmp.$db"
	ok "$([ "$(wc -l <"cmp.$db")" -eq $((4 * $(wc -l <"plan.$db"))) ]; echo $?)" \
		"$db: every case compared four ways"
done

# Not vacuous: reports give rows, and errors would show.
rows=$(grep -c "	ok	[1-9]" cmp.multi cmp.demo | awk -F: '{ n += $2 } END { print n }')
ok "$([ "$rows" -gt 400 ]; echo $?)" "most cases have rows ($rows case-paths with rows)"
ok "$(! grep -l '^exit [0-9]' out/*/*.ref >/dev/null; echo $?)" "profq NAME ran every case"
empty=""
for f in "$TOP"/queries/*.sql; do
	r=$(basename "$f" .sql)
	cat out/*/"$r".*.ref | grep -vq "^[a-z_]*,\|^[a-z_]*$" || empty="$empty $r"
done
# These need data the samples do not hold (NCCL runs, nn.Module annotations, NVTX start/end,
# synchronous memcpys/memsets); their own tests (pytorch_distributed.t, analyze.t, ...) build it.
is "$empty" " analyze-cuda_memcpy_sync analyze-cuda_memset_sync dist-comm-ops dist-summary module-view nvtx-startend-sum" \
	"every other report gives rows in some case"

done_testing
