#!/bin/sh
# profq html: a self-contained page (well-formed, no reference outside the file, no script) whose
# figures are the canned reports' rows (checked against `profq <report> --format csv`), with
# escaped profile text, a section per run, and a page headless Chromium renders.
. "${0%/*}/../lib.sh"
. "${0%/*}/../reports/trace.sh"
check=${0%/*}/html_check.py

"$PROFQ" import -q -o "$TMP/k.db" \
	"$DATA/kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz" >/dev/null
"$PROFQ" import -q -o "$TMP/n.db" "$DATA/nsys/h100_2gpu_1s.sqlite" >/dev/null

for db in k n; do
	"$PROFQ" html "$TMP/$db.db" -o "$TMP/$db.html"
	ok $? "$db.db: html writes a page"
	if command -v xmllint >/dev/null; then
		xmllint --noout "$TMP/$db.html"
		ok $? "$db.html is well-formed (xmllint)"
	else
		skip "$db.html is well-formed" "no xmllint (make deps installs libxml2-utils)"
	fi
	is "$(grep -Eio '<(script|link|img|iframe|object|embed|image|use)[ >]|(src|href)="[^#"][^"]*"|url\(|@import|https?:|file:' "$TMP/$db.html" | sort -u)" "" \
		"$db.html refers to nothing outside itself and runs no script"
	for r in top-kernels api-sum; do
		"$PROFQ" $r "$TMP/$db.db" --run 1 --format csv >"$TMP/$db.$r.csv"
	done
	"$PROFQ" run-summary "$TMP/$db.db" --format csv >"$TMP/$db.summary.csv"
	is "$(py "$check" "$TMP/$db.html" bars "$TMP/$db.top-kernels.csv")" "" \
		"$db.html: the top-kernels bars are profq top-kernels' rows, full names in <title>"
	is "$(py "$check" "$TMP/$db.html" bars "$TMP/$db.api-sum.csv")" "" \
		"$db.html: the CUDA API bars are profq api-sum's rows"
	is "$(py "$check" "$TMP/$db.html" summary "$TMP/$db.summary.csv")" "" \
		"$db.html: the summary counts are profq run-summary's"
	like "$(grep -c '<svg' "$TMP/$db.html")" '^[4-9]|^[1-9][0-9]' "$db.html has its charts"
done

"$PROFQ" step-breakdown "$TMP/k.db" --run 1 --format csv >"$TMP/k.steps.csv"
is "$(py "$check" "$TMP/k.html" steps "$TMP/k.steps.csv")" "" \
	"the step breakdown bars are profq step-breakdown's rows"
like "$(cat "$TMP/k.html")" 'Memory allocated over time' "a PyTorch trace with memory events gets the memory chart"
"$PROFQ" nvtx-sum "$TMP/n.db" --run 1 --format csv >"$TMP/n.nvtx.csv"
is "$(py "$check" "$TMP/n.html" bars "$TMP/n.nvtx.csv")" "" "the NVTX bars are profq nvtx-sum's rows"
n_html=$(cat "$TMP/n.html")
case $n_html in *"step time breakdown"*|*"Memory allocated"*) r=1 ;; *) r=0 ;; esac
ok $r "no step or memory chart for an nsys export without them"
like "$n_html" 'GPU 1' "a utilization chart per GPU"
like "$n_html" 'cuda_api_sync</td><td class="sev-info">info</td><td class="n">8<' \
	"the analyze findings: cuda_api_sync found 8 calls"
is "$("$PROFQ" analyze "$TMP/n.db" --rule cuda_api_sync --format csv 2>/dev/null | sed 1d | wc -l)" 8 \
	"as profq analyze --rule cuda_api_sync does"

# Untrusted text: names with markup, quotes and ampersands stay text.
evil='<script>alert(1)</script> & "q" '"'"'x'"'"' </title><svg onload=alert(2)>'
trace_begin "$TMP/evil.json"
X Kernel "$(printf '%s' "$evil" | sed 's/"/\\"/g')" 'stream 7' 100 200 '"correlation": 1, "device": 0, "stream": 7'
X Runtime cudaLaunchKernel 123 90 5 '"correlation": 1'
trace_end
import_trace "$TMP/evil.json" "$TMP/evil.db"
"$PROFQ" html "$TMP/evil.db" -o "$TMP/evil.html"
ok $? "html on a trace with markup in a kernel name"
is "$(grep -ci '<script\|<svg onload\|<\/title><svg' "$TMP/evil.html")" 0 "no markup from the trace gets through"
command -v xmllint >/dev/null && { xmllint --noout "$TMP/evil.html"; ok $? "the page stays well-formed"; }
is "$(py -c 'import sys, xml.etree.ElementTree as E
print(sum(1 for t in E.parse(sys.argv[1]).iter("title") if "".join(t.itertext()) == sys.argv[2] + ": 0.200"))' "$TMP/evil.html" "$evil")" 1 \
	"the whole name, unescaped by an XML parser, is the bar's <title>"

# One section per run; --run picks one.
"$PROFQ" import -q -o "$TMP/both.db" "$DATA/kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz" \
	"$DATA/nsys/h100_2gpu_1s.sqlite" >/dev/null
"$PROFQ" html "$TMP/both.db" -o "$TMP/both.html"
is "$(grep -o '<section id="run-[0-9]*"' "$TMP/both.html" | tr '\n' ' ')" \
	'<section id="run-1" <section id="run-2" ' "a multi-run file gets a section per run"
"$PROFQ" html "$TMP/both.db" -o "$TMP/two.html" --run 2
is "$(grep -o '<section id="run-[0-9]*"' "$TMP/two.html")" '<section id="run-2"' "--run 2: that run only"
"$PROFQ" top-kernels "$TMP/both.db" --run 2 --format csv >"$TMP/both.k2.csv"
is "$(py "$check" "$TMP/two.html" bars "$TMP/both.k2.csv")" "" "--run 2: run 2's kernels"

# Errors.
"$PROFQ" html "$TMP/both.db" -o "$TMP/x.html" --run 9 2>"$TMP/err"
is "$?" 1 "an unknown run fails"
like "$(cat "$TMP/err")" "^profq: html: no run 9 in .*both.db \\(runs: 1, 2\\)$" "and says so"
[ ! -e "$TMP/x.html" ]
ok $? "leaving no half-written page"
"$PROFQ" html "$TMP/both.db" 2>/dev/null
is "$?" 2 "without -o: usage error"
"$PROFQ" html "$TMP/both.db" -o "$TMP/x.html" --run x 2>/dev/null
is "$?" 2 "a bad --run: usage error"
"$PROFQ" html "$TMP/both.db" -o "$TMP/no/such/dir.html" 2>"$TMP/err"
is "$?:$(cat "$TMP/err")" "1:profq: html: cannot write $TMP/no/such/dir.html: No such file or directory" \
	"an unwritable output fails with the reason"
"$PROFQ" html "$TMP/nothere.db" -o "$TMP/x.html" 2>/dev/null
is "$?" 1 "a missing database fails"

# Headless Chromium renders the page (the screenshot is what a person sees).
if command -v chromium >/dev/null; then
	timeout 180 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$TMP/chromium" --screenshot="$TMP/k.png" --window-size=1400,2400 \
		"file://$TMP/k.html" >/dev/null 2>&1
	is "$(head -c 4 "$TMP/k.png" 2>/dev/null | od -An -c | tr -d ' ')" '211PNG' "chromium renders the page to a PNG"
	[ -n "${PROFQ_KEEP_SCREENSHOT:-}" ] && cp "$TMP/k.png" "$PROFQ_KEEP_SCREENSHOT"
else
	skip "chromium renders the page" "no chromium (make deps installs it)"
fi

done_testing
