#!/bin/sh
# Importing the same nsys export twice (--again) gives two runs with identical contents: every
# table, ids and run_id aside (tests/import/nsys_compare.py resolves ids to what they stand for).
. "${0%/*}/../lib.sh"

NSYS=$DATA/nsys
[ -d "$NSYS" ] || skip_all "no nsys exports in $NSYS"

for name in h100_2gpu_1s.sqlite report1.sqlite mock.sqlite; do
	f=$NSYS/$name
	[ -f "$f" ] || f=$SHARED_DATA/nsys/$name
	[ -f "$f" ] || { skip "$name twice" "not in $NSYS"; continue; }
	db=$TMP/$name.db
	"$PROFQ" import -q -o "$db" "$f" >/dev/null
	ok $? "$name: first import"
	"$PROFQ" import -q -o "$db" --again "$f" >/dev/null
	ok $? "$name: second import (--again)"
	out=$(py "$TOP/tests/import/nsys_compare.py" 1 2 "$db")
	ok $? "$name: both runs hold the same rows in every table"
	like "$out" '^[0-9]+$' "$name: rows compared: $out"
done

done_testing
