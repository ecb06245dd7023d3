#!/bin/sh
# install-deps.sh: installs the Debian packages that profq's build, demo and tests need, and only
# those that are missing. Used by `make deps`, hence by `make demo`, `make test` and .ci/run.
set -eu

# Build: compilers, pkg-config and the libraries; tests: the sqlite3 CLI, prove (perl), Debian's
# python3 (built with loadable-extension support); bench: GNU time; make fuzz: clang's libFuzzer and
# sanitizer runtimes (libclang-rt-dev).
packages="gcc clang libclang-rt-dev make pkg-config libsqlite3-dev libcjson-dev zlib1g-dev sqlite3 perl
python3 time"

missing=""
for p in $packages; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

echo "profq: installing Debian packages:$missing" >&2
if [ "$(id -u)" -eq 0 ]; then
	sudo=""
elif command -v sudo >/dev/null 2>&1; then
	sudo="sudo"
else
	echo "profq: run as root: apt-get install$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
