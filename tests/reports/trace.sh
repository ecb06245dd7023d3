# tests/reports/trace.sh - writing small hand-made Kineto (Chrome JSON) traces in a test.
# Source it after lib.sh:
#   trace_begin FILE           start a trace (a JSON array)
#   X CAT NAME TID TS DUR [ARGS_JSON_BODY]
#                              one complete event; times in us; GPU categories (Kernel, Memcpy,
#                              Memset) get pid 0, everything else pid 13721
#   raw JSON_OBJECT            any other event, as is
#   trace_end                  close the array
#   import_trace FILE DB       import it with profq
_trace_file=""
_trace_sep=""
trace_begin() { _trace_file=$1; _trace_sep=""; printf '[' >"$_trace_file"; }
raw() { printf '%s\n%s' "$_trace_sep" "$1" >>"$_trace_file"; _trace_sep=","; }
X() {
	_pid=13721
	case $1 in Kernel|Memcpy|Memset|kernel|gpu_memcpy|gpu_memset) _pid=0 ;; esac
	raw "{\"ph\":\"X\",\"cat\":\"$1\",\"name\":\"$2\",\"pid\":$_pid,\"tid\":\"$3\",\"ts\":$4,\"dur\":$5,\"args\":{${6:-}}}"
}
trace_end() { printf '\n]\n' >>"$_trace_file"; }
import_trace() { "$PROFQ" import -q -o "$2" "$1" >/dev/null; }
