# tests/clickhouse/servers.sh - start and stop two clickhouse-server shards on 127.0.0.1 for a test.
# Source it after tests/lib.sh (bash: the functions use local variables):
#   ch_start DIR        writes configs under DIR, starts shard 1 and 2, waits for /ping (30 s each)
#   ch_stop_shard N     kills shard N (SIGKILL: a crash, not a shutdown) and waits for it to go
#   ch_start_shard N    starts shard N again with the same data
#   ch_stop             stops both (also run at exit)
# Sets CH_URL1, CH_URL2 (http://127.0.0.1:PORT) and CH_CLUSTER (the remote_servers cluster name).
# Ports: chosen free from a range derived from the PID, so parallel test runs do not collide.

CH_CLUSTER=profq_test
ch_dir=
ch_pids="0 0"

_ch_free_port() {
	# The first port from $1 upward that nothing listens on (checked with bash's /dev/tcp).
	local p=$1
	while (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; do p=$((p + 1)); done
	echo "$p"
}

_ch_config() {  # shard number; writes $ch_dir/sN/config.xml
	local n=$1 d=$ch_dir/s$1 http tcp inter
	eval "http=\$ch_http$n tcp=\$ch_tcp$n inter=\$ch_inter$n"
	mkdir -p "$d/data" "$d/tmp" "$d/user_files" "$d/log"
	cat > "$d/config.xml" <<XML
<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>$d/log/server.log</log><errorlog>$d/log/error.log</errorlog></logger>
  <http_port>$http</http_port>
  <tcp_port>$tcp</tcp_port>
  <interserver_http_port>$inter</interserver_http_port>
  <listen_host>127.0.0.1</listen_host>
  <path>$d/data/</path>
  <tmp_path>$d/tmp/</tmp_path>
  <user_files_path>$d/user_files/</user_files_path>
  <format_schema_path>$d/format_schemas/</format_schema_path>
  <users_config>$ch_dir/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>268435456</mark_cache_size>
  <uncompressed_cache_size>268435456</uncompressed_cache_size>
  <max_concurrent_queries>20</max_concurrent_queries>
  <mlock_executable>false</mlock_executable>
  <remote_servers>
    <$CH_CLUSTER>
      <shard><replica><host>127.0.0.1</host><port>$ch_tcp1</port></replica></shard>
      <shard><replica><host>127.0.0.1</host><port>$ch_tcp2</port></replica></shard>
    </$CH_CLUSTER>
  </remote_servers>
</yandex>
XML
}

ch_start_shard() {
	local n=$1 http pid i
	eval "http=\$ch_http$n"
	clickhouse-server --config-file="$ch_dir/s$n/config.xml" >"$ch_dir/s$n/log/stdout" 2>&1 &
	pid=$!
	if [ "$n" = 1 ]; then ch_pids="$pid ${ch_pids#* }"; else ch_pids="${ch_pids% *} $pid"; fi
	i=0
	while [ "$i" -lt 300 ]; do  # 30 s
		if [ "$(curl -s --max-time 1 "http://127.0.0.1:$http/ping" 2>/dev/null)" = "Ok." ]; then
			return 0
		fi
		if ! kill -0 "$pid" 2>/dev/null; then
			echo "# shard $n exited at start-up:" >&2
			tail -5 "$ch_dir/s$n/log/error.log" "$ch_dir/s$n/log/stdout" 2>/dev/null | sed 's/^/# /' >&2
			return 1
		fi
		sleep 0.1
		i=$((i + 1))
	done
	echo "# shard $n did not answer /ping within 30 s" >&2
	return 1
}

ch_stop_shard() {
	local n=$1 pid
	if [ "$n" = 1 ]; then pid=${ch_pids% *}; else pid=${ch_pids#* }; fi
	[ "$pid" = 0 ] && return 0
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	if [ "$n" = 1 ]; then ch_pids="0 ${ch_pids#* }"; else ch_pids="${ch_pids% *} 0"; fi
	return 0
}

ch_stop() {
	local pid i
	for pid in $ch_pids; do
		[ "$pid" = 0 ] && continue
		kill -TERM "$pid" 2>/dev/null
	done
	for pid in $ch_pids; do
		[ "$pid" = 0 ] && continue
		i=0
		while kill -0 "$pid" 2>/dev/null && [ "$i" -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	ch_pids="0 0"
}

ch_start() {
	local base
	ch_dir=$1
	base=$((20000 + ($$ % 2000) * 10))
	ch_http1=$(_ch_free_port "$base"); ch_http2=$(_ch_free_port $((ch_http1 + 1)))
	ch_tcp1=$(_ch_free_port $((ch_http2 + 1))); ch_tcp2=$(_ch_free_port $((ch_tcp1 + 1)))
	ch_inter1=$(_ch_free_port $((ch_tcp2 + 1))); ch_inter2=$(_ch_free_port $((ch_inter1 + 1)))
	cat > "$ch_dir/users.xml" <<XML
<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>2000000000</max_memory_usage></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip></networks>
    <profile>default</profile><quota>default</quota></default></users>
  <quotas><default></default></quotas>
</yandex>
XML
	_ch_config 1
	_ch_config 2
	CH_URL1=http://127.0.0.1:$ch_http1
	CH_URL2=http://127.0.0.1:$ch_http2
	ch_start_shard 1 && ch_start_shard 2
}
