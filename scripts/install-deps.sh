#!/bin/sh
# install-deps.sh: installs the Debian packages that profq's build, demo and tests need, and only
# those that are missing. Used by `make deps`, hence by `make demo`, `make test` and .ci/run.
set -eu

# Build: compilers (g++ for lib/json_fast.cc, simdjson behind a C interface), pkg-config and the
# libraries (libisal-dev: ISA-L's inflate for gzip traces; nettle-dev: Nettle's SHA-256 for `profq import`; libcurl: `profq push` and `profq ch-report`, the CLI only); tests: the sqlite3 CLI,
# prove (perl), Debian's python3 (built with loadable-extension support); bench: GNU time; make
# fuzz: clang's libFuzzer and sanitizer runtimes (libclang-rt-dev); the notebook test: pandas and
# matplotlib; the HTML report test: xmllint and a headless chromium (with a font to draw text). clickhouse-server and curl: tests/clickhouse, which start two
# servers themselves; where clickhouse-server cannot be installed those tests skip, so it is
# installed separately below and its failure is not fatal.
packages="gcc g++ clang libclang-rt-dev make pkg-config libsqlite3-dev libcjson-dev libsimdjson-dev libisal-dev zlib1g-dev nettle-dev libcurl4-openssl-dev
curl sqlite3 perl python3 time python3-pandas python3-matplotlib libxml2-utils chromium fonts-dejavu-core"
optional="clickhouse-server"

installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}
missing=""
for p in $packages; do
	installed "$p" || missing="$missing $p"
done
missing_optional=""
for p in $optional; do
	installed "$p" || missing_optional="$missing_optional $p"
done
[ -z "$missing$missing_optional" ] && exit 0

echo "profq: installing Debian packages:$missing$missing_optional" >&2
if [ "$(id -u)" -eq 0 ]; then
	sudo=""
elif command -v sudo >/dev/null 2>&1; then
	sudo="sudo"
else
	echo "profq: run as root: apt-get install$missing$missing_optional" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
if [ -n "$missing" ]; then
	# shellcheck disable=SC2086
	$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
if [ -n "$missing_optional" ]; then
	# shellcheck disable=SC2086
	$sudo apt-get install -y -qq --no-install-recommends $missing_optional >/dev/null ||
		echo "profq: could not install$missing_optional; tests/clickhouse will skip" >&2
fi
