# profq - the one build. `make help` lists the targets.

CC         ?= cc
PKG_CONFIG ?= pkg-config
PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
LIBDIR     ?= $(PREFIX)/lib
DATADIR    ?= $(PREFIX)/share
DESTDIR    ?=
B          ?= build
CFLAGS     ?= -O2 -g
LDFLAGS    ?=
CUDA_HOME  ?= /usr/local/cuda

WARN     := -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wformat=2 -Werror
DEFS     := -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L
# Recursive '=' so a `make deps` earlier in the same command line is seen.
DEP_CFLAGS = $(shell $(PKG_CONFIG) --cflags sqlite3 libcjson zlib nettle)
DEP_LIBS   = $(shell $(PKG_CONFIG) --libs sqlite3 libcjson zlib simdjson libisal) -lstdc++ -lm -pthread
# Only the CLI hashes files (SHA-256 of imported files): the collector and the extension do not.
CRYPTO_LIBS = $(shell $(PKG_CONFIG) --libs nettle)
# libcurl is loaded at run time by the commands that talk to ClickHouse (lib/clickhouse_curl.c).
CURL_LIBS = -ldl
# The extension reads JSON arguments with cJSON and demangles with the C++ runtime.
EXT_LIBS   = $(shell $(PKG_CONFIG) --libs libcjson) -lstdc++ -lm
ALL_CFLAGS = $(WARN) $(DEFS) -fPIC -MMD -MP -Ilib -Iext -Icli $(DEP_CFLAGS) $(CFLAGS)
# The one C++ file, lib/json_fast.cc (simdjson behind a C interface), built by the C compiler's
# C++ twin. No vptr (nor clang's function) checks: they need the sanitizers' C++ runtime, which
# a C link leaves out.
ifeq ($(origin CXX),default)
  CXX := $(if $(findstring clang,$(CC)),clang++,g++)
endif
ALL_CXXFLAGS = -std=c++17 -Wall -Wextra -Wpedantic -Wshadow -Werror $(DEFS) -fPIC -MMD -MP -Ilib \
	$(DEP_CFLAGS) $(shell $(PKG_CONFIG) --cflags simdjson) $(CFLAGS) -fno-sanitize=vptr \
	$(if $(findstring clang,$(CXX)),-fno-sanitize=function)

# lib/clickhouse_*.c talk HTTP through libcurl: only the CLI links them (not libprofq.a, so the
# collector, the tests and the examples gain no libcurl dependency).
CH_SRCS  := $(wildcard lib/clickhouse_*.c)
LIB_SRCS := $(filter-out $(CH_SRCS),$(wildcard lib/*.c))
EXT_SRCS := $(wildcard ext/*.c)
CLI_SRCS := $(wildcard cli/*.c)
QUERIES  := $(sort $(wildcard queries/*.sql))
CH_QUERIES := $(sort $(wildcard queries/clickhouse/*.sql))
TEST_C   := $(wildcard tests/c/*_test.c)

LIB_OBJS      := $(LIB_SRCS:%.c=$(B)/%.o) $(patsubst %.cc,$(B)/%.o,$(wildcard lib/*.cc)) \
		 $(B)/gen/schema_sql.o
EXT_OBJS      := $(EXT_SRCS:%.c=$(B)/%.o)
EXT_CORE_OBJS := $(EXT_SRCS:ext/%.c=$(B)/ext-core/%.o)
CLI_OBJS      := $(CLI_SRCS:%.c=$(B)/%.o) $(CH_SRCS:%.c=$(B)/%.o) $(B)/gen/queries.o $(B)/gen/ch_queries.o
TEST_BINS      = $(patsubst $(B)/tests/collector_%,$(if $(COLLECTOR),$(B)/tests/collector_%),$(TEST_C:tests/c/%_test.c=$(B)/tests/%))

# The collector needs CUPTI: in include/ + lib64/ or lib/, under targets/, or in extras/CUPTI/.
CUPTI_INC := $(firstword $(foreach d,$(CUDA_HOME)/include $(CUDA_HOME)/extras/CUPTI/include \
		$(wildcard $(CUDA_HOME)/targets/*/include),$(if $(wildcard $(d)/cupti.h),$(d))))
CUPTI_LIB := $(firstword $(foreach d,$(CUDA_HOME)/lib64 $(CUDA_HOME)/lib \
		$(CUDA_HOME)/extras/CUPTI/lib64 $(wildcard $(CUDA_HOME)/targets/*/lib), \
		$(if $(wildcard $(d)/libcupti.so),$(d))))
COLLECTOR_SRCS := $(wildcard collector/*.c)
ifneq ($(and $(CUPTI_INC),$(CUPTI_LIB)),)
  ifneq ($(COLLECTOR_SRCS),)
    COLLECTOR := $(B)/libprofq_collector.so
  endif
else
  $(info profq: CUPTI not found under CUDA_HOME=$(CUDA_HOME); building without the collector)
endif

.PHONY: all deps depcheck demo test check asan fuzz fuzzers bench install uninstall clean help
all: $(B)/profq $(B)/profq.so $(COLLECTOR) $(TEST_BINS) $(B)/examples/demo $(B)/bench/parse_bench \
	$(B)/bench/rows_ceiling

help:
	@echo "make            build profq, profq.so (and the collector when CUPTI is found) into $(B)/"
	@echo "make deps       install the Debian packages the build and the tests need"
	@echo "make demo       deps + build, then write and report on a built-in example profile"
	@echo "make test       deps + build, then run the test suite (prove -r tests/)"
	@echo "make asan       the test suite under AddressSanitizer and UBSan (in build-asan/)"
	@echo "make fuzz       each libFuzzer harness of tests/fuzz for FUZZ_S seconds (clang, build-fuzz/)"
	@echo "make install    PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)"

deps:
	@sh scripts/install-deps.sh

depcheck:
	@$(PKG_CONFIG) --exists sqlite3 libcjson zlib nettle libcurl simdjson libisal || { echo \
	"profq: missing build dependencies (pkg-config modules sqlite3, libcjson, zlib, nettle, \
	libcurl, simdjson, libisal): run 'make deps'" >&2; exit 1; }

# The views: schema/views.sql, then those of the reports with derived rows (scripts/report-view.sh).
$(B)/gen/views.sql: schema/views.sql queries/temporal-breakdown.sql queries/idle-breakdown.sql \
		queries/comm-overlap.sql scripts/report-view.sh
	@mkdir -p $(@D)
	{ cat schema/views.sql && \
	  sh scripts/report-view.sh queries/temporal-breakdown.sql v_hta_temporal_breakdown && \
	  sh scripts/report-view.sh queries/idle-breakdown.sql v_hta_idle_breakdown && \
	  sh scripts/report-view.sh queries/comm-overlap.sql v_hta_comm_overlap; } >$@.tmp
	mv $@.tmp $@

$(B)/gen/schema_sql.c: schema/schema.sql $(B)/gen/views.sql schema/clickhouse_views.sql scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh $@ pq_schema_sql=schema/schema.sql pq_views_sql=$(B)/gen/views.sql \
		pq_ch_views_sql=schema/clickhouse_views.sql

$(B)/gen/queries.c: $(QUERIES) scripts/embed-queries.sh
	@mkdir -p $(@D)
	sh scripts/embed-queries.sh $@ $(QUERIES)

$(B)/gen/ch_queries.c: $(CH_QUERIES) scripts/embed-queries.sh
	@mkdir -p $(@D)
	ARRAY=pq_ch_queries sh scripts/embed-queries.sh $@ $(CH_QUERIES)

$(CH_SRCS:%.c=$(B)/%.o): ALL_CFLAGS += $(shell $(PKG_CONFIG) --cflags libcurl)

$(B)/%.o: %.c | depcheck
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(B)/%.o: %.cc | depcheck
	@mkdir -p $(@D)
	$(CXX) $(ALL_CXXFLAGS) -c -o $@ $<

# Embedded files are long string literals, which GCC and Clang both take.
$(B)/gen/%.o: $(B)/gen/%.c
	$(CC) $(ALL_CFLAGS) -Wno-overlength-strings -c -o $@ $<

$(B)/ext-core/%.o: ext/%.c | depcheck
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -DSQLITE_CORE -c -o $@ $<

$(B)/libprofq.a: $(LIB_OBJS)
	rm -f $@
	ar rcs $@ $^

# The loadable extension calls SQLite only through the sqlite3_api pointer: no -lsqlite3. It links
# one object of lib/, the JSON string writer (no SQLite, no allocation).
$(B)/profq.so: $(EXT_OBJS) $(B)/lib/json_quote.o
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -o $@ $^ $(EXT_LIBS)

$(B)/profq: $(CLI_OBJS) $(EXT_CORE_OBJS) $(B)/libprofq.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(DEP_LIBS) $(CRYPTO_LIBS) $(CURL_LIBS)

$(B)/cli/cmd_record.o: ALL_CFLAGS += -DPQ_LIBDIR='"$(LIBDIR)"'

$(B)/tests/%: tests/c/%_test.c tests/c/tap.h $(B)/libprofq.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Itests/c -o $@ $< $(B)/libprofq.a $(DEP_LIBS)

# cli/huge_pages.c is the CLI's; its test builds it in.
$(B)/tests/huge_pages: tests/c/huge_pages_test.c cli/huge_pages.c cli/huge_pages.h tests/c/tap.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Itests/c -o $@ $< cli/huge_pages.c

$(B)/bench/parse_bench: bench/parse_bench.c $(B)/libprofq.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(B)/libprofq.a $(DEP_LIBS)

$(B)/bench/rows_ceiling: bench/rows_ceiling.c $(B)/libprofq.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(B)/libprofq.a $(DEP_LIBS)

$(B)/examples/demo: examples/demo.c $(B)/libprofq.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(B)/libprofq.a $(DEP_LIBS)

# The collector: hidden visibility (only the two entry points are exported, and nothing of the
# static libprofq.a leaks into the application's namespace), NVTX headers for the tool types.
COLL_OBJS := $(COLLECTOR_SRCS:%.c=$(B)/%.o)
$(COLL_OBJS): ALL_CFLAGS += -isystem $(CUPTI_INC) -Icollector -fvisibility=hidden -pthread

$(B)/libprofq_collector.a: $(COLL_OBJS)
	rm -f $@
	ar rcs $@ $^

$(COLLECTOR): $(COLL_OBJS) $(B)/libprofq.a
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -pthread -o $@ $^ -Wl,--exclude-libs,ALL \
		-L$(CUPTI_LIB) -Wl,-rpath,$(CUPTI_LIB) -lcupti -ldl $(DEP_LIBS)

# Collector unit tests link its objects (translation, writer) and the real libcupti.
$(B)/tests/collector_%: tests/c/collector_%_test.c tests/c/tap.h $(B)/libprofq_collector.a $(B)/libprofq.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -isystem $(CUPTI_INC) -Icollector -Itests/c -pthread -o $@ $< \
		$(B)/libprofq_collector.a $(B)/libprofq.a -L$(CUPTI_LIB) -Wl,-rpath,$(CUPTI_LIB) \
		-lcupti -ldl $(DEP_LIBS)

# Programs that use NVTX the way applications do (header-only nvtx3, nothing linked but -ldl).
NVTX_CFLAGS = $(WARN) $(DEFS) -isystem $(CUPTI_INC) -pthread $(CFLAGS)
NVTX_PROGS := $(if $(COLLECTOR),$(patsubst tests/nvtx/%.c,$(B)/tests/nvtx/%,$(filter-out tests/nvtx/lib%,$(wildcard tests/nvtx/*.c))) \
	$(B)/tests/nvtx/libnvtxpeer.so $(B)/examples/nvtx_demo $(B)/bench/nvtx_bench $(B)/bench/writer_bench $(B)/bench/sqlite_ceiling \
	$(B)/tests/fake_driver)
all: $(NVTX_PROGS)

$(B)/tests/nvtx/libnvtxpeer.so: tests/nvtx/libnvtxpeer.c
	@mkdir -p $(@D)
	$(CC) $(NVTX_CFLAGS) -fPIC -shared $(LDFLAGS) -o $@ $< -ldl
$(B)/tests/nvtx/%: tests/nvtx/%.c $(B)/tests/nvtx/libnvtxpeer.so
	@mkdir -p $(@D)
	$(CC) $(NVTX_CFLAGS) $(LDFLAGS) -o $@ $< -L$(B)/tests/nvtx -Wl,-rpath,'$$ORIGIN' -lnvtxpeer -ldl
$(B)/examples/nvtx_demo: examples/nvtx_demo.c
	@mkdir -p $(@D)
	$(CC) $(NVTX_CFLAGS) $(LDFLAGS) -o $@ $< -ldl
$(B)/bench/nvtx_bench: bench/nvtx_bench.c
	@mkdir -p $(@D)
	$(CC) $(NVTX_CFLAGS) $(LDFLAGS) -o $@ $< -ldl
$(B)/tests/fake_driver: tests/c/fake_driver.c
	@mkdir -p $(@D)
	$(CC) $(NVTX_CFLAGS) $(LDFLAGS) -o $@ $< -ldl
$(B)/bench/sqlite_ceiling: bench/sqlite_ceiling.c $(B)/libprofq.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(B)/libprofq.a $(DEP_LIBS)
$(B)/bench/writer_bench: bench/writer_bench.c $(B)/libprofq_collector.a $(B)/libprofq.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -isystem $(CUPTI_INC) -Icollector -pthread -o $@ $< \
		$(B)/libprofq_collector.a $(B)/libprofq.a -L$(CUPTI_LIB) -Wl,-rpath,$(CUPTI_LIB) \
		-lcupti -ldl $(DEP_LIBS)

demo: deps
	@$(MAKE) --no-print-directory all
	@sh examples/demo.sh $(B)

test check: deps
	@$(MAKE) --no-print-directory all $(B)/examples/demo
	PROFQ_BUILD=$(B) prove -r tests/

# intercept_tls_get_addr=0: with it, gcc 12's LeakSanitizer records dynamic TLS blocks as it sees
# them in __tls_get_addr and, depending on where a block lands (changed by nothing more than the
# build directory's name), recorded a bogus range (seen: 0x7a-0x280000117c) for a recorded
# program's main thread and crashed its leak check ("Tracer caught signal 11", exit 1). Without the
# interception dynamic TLS is still scanned, reached from static TLS through the DTV.
ASAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
asan: deps
	@$(MAKE) --no-print-directory B=build-asan CFLAGS="$(ASAN_FLAGS)" LDFLAGS="$(ASAN_FLAGS)" all
	PROFQ_BUILD=build-asan PROFQ_ASAN=1 ASAN_OPTIONS=detect_leaks=1:intercept_tls_get_addr=0 prove -r tests/

# libFuzzer harnesses (tests/fuzz/fuzz_*.c): the library and extension built with coverage, ASan
# and UBSan by clang; `make fuzz FUZZ_S=600` runs each for that long, one after another, and fails on
# a crash, leak, sanitizer report or timeout (inputs kept in build-fuzz/fuzz/findings/).
FUZZ_S     ?= 60
FUZZ_FLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZERS     = $(patsubst tests/fuzz/%.c,$(B)/fuzz/%,$(wildcard tests/fuzz/fuzz_*.c))
fuzzers: $(FUZZERS)
$(B)/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz_input.h $(B)/libprofq.a $(EXT_CORE_OBJS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -o $@ $< $(EXT_CORE_OBJS) $(B)/libprofq.a $(DEP_LIBS)
fuzz: deps
	@$(MAKE) --no-print-directory B=build-fuzz CC=clang \
		CFLAGS="$(FUZZ_FLAGS) -fsanitize=fuzzer-no-link" LDFLAGS="$(FUZZ_FLAGS)" fuzzers
	sh tests/fuzz/run.sh build-fuzz $(FUZZ_S) $(FUZZ_ONLY)

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR)/profq $(DESTDIR)$(DATADIR)/profq/schema \
		$(DESTDIR)$(DATADIR)/profq/queries $(DESTDIR)$(DATADIR)/profq/python
	install -m 755 $(B)/profq $(DESTDIR)$(BINDIR)/profq
	install -m 644 $(B)/profq.so $(DESTDIR)$(LIBDIR)/profq/profq.so
	$(if $(COLLECTOR),install -m 644 $(COLLECTOR) $(DESTDIR)$(LIBDIR)/profq/)
	install -m 644 schema/*.sql $(DESTDIR)$(DATADIR)/profq/schema/
	$(if $(QUERIES),install -m 644 $(QUERIES) $(DESTDIR)$(DATADIR)/profq/queries/)
	$(if $(QUERIES),sed -i 's|^\.load build/profq$$|.load $(LIBDIR)/profq/profq|' \
		$(DESTDIR)$(DATADIR)/profq/queries/*.sql)
	$(if $(CH_QUERIES),install -d $(DESTDIR)$(DATADIR)/profq/queries/clickhouse)
	$(if $(CH_QUERIES),install -m 644 $(CH_QUERIES) $(DESTDIR)$(DATADIR)/profq/queries/clickhouse/)
	install -m 644 python/profq.py $(DESTDIR)$(DATADIR)/profq/python/profq.py
	sed -i 's|^EXTENSION = None$$|EXTENSION = "$(LIBDIR)/profq/profq"|' \
		$(DESTDIR)$(DATADIR)/profq/python/profq.py

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/profq
	rm -rf $(DESTDIR)$(LIBDIR)/profq $(DESTDIR)$(DATADIR)/profq

clean:
	rm -rf build build-asan build-fuzz

-include $(shell find $(B) -name '*.d' 2>/dev/null)

# Benchmarks (not tests); figures go to bench/RESULTS.md with the command and the machine.
bench: all
	PROFQ_BUILD=$(B) sh bench/intervals.sh
	PROFQ_BUILD=$(B) sh bench/import.sh $(BENCH_MB)
	PROFQ_BUILD=$(B) sh bench/import_nsys.sh
	PROFQ_BUILD=$(B) sh bench/rows_ceiling.sh
	PROFQ_BUILD=$(B) sh bench/reports.sh
	PROFQ_BUILD=$(B) sh bench/growth.sh
	PROFQ_BUILD=$(B) sh bench/report_times.sh
	PROFQ_BUILD=$(B) sh bench/peers.sh
	$(if $(COLLECTOR),PROFQ_BUILD=$(B) sh bench/collector.sh)
	if command -v clickhouse-server >/dev/null; then \
		PROFQ_BUILD=$(B) bash bench/clickhouse_push.sh && PROFQ_BUILD=$(B) bash bench/clickhouse_reports.sh; \
	else echo "bench: no clickhouse-server, ClickHouse benchmarks skipped"; fi
