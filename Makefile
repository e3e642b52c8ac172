# Two commands on a fresh machine (Python 3.11, Java 17, package registries):
#   make build   set up .venv and run `dbt build` on embedded Spark
#   make test    run the whole test suite
# `make help` lists every target.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TIMES := .state/test-times

# dbt parses the query catalog (models/, seeds/, tests/) only for this
# repository's own runs: installed as a package, the project is its macros.
export SPARK_QUERY_CATALOG_HOME := true
export DBT_PROFILES_DIR := $(CURDIR)/profiles
export DBT_LOG_PATH ?= $(CURDIR)/.state/logs
export SPARK_LOCAL_IP := 127.0.0.1
export PYSPARK_PYTHON := $(CURDIR)/$(BIN)/python
# dbt-spark's session method asks every Spark Connect session for Hive support,
# a static setting the server already has: PySpark warns on each statement.
export PYTHONWARNINGS := ignore:Failed to set spark.sql.catalogImplementation

# A stage of `make test`: its time goes to $(TIMES), printed at the end.
timed = @start=$$(date +%s); $(2); status=$$?; \
	echo "$(1) $$(( $$(date +%s) - start ))" >> $(TIMES); exit $$status

.PHONY: help build test test-fast test-session test-thrift test-cluster test-connect install lint \
	compile clean thrift-start thrift-stop cluster-start cluster-stop connect-start connect-stop \
	servers-status servers-stop bench bench-macros bench-seeds bench-sessions bench-windows bench-extremes bench-floor bench-overhead catalog-page docs

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/^([a-z-]+):.*## /\1\t/' | expand -t 18
	@printf '%s\t%s\n' "<server>-start" "start a server on 127.0.0.1: thrift, cluster or connect" \
		"<server>-stop" "stop it" | expand -t 18

# SELECT=<dbt selector>: build only those nodes. One catalog query with its
# input seeds, its expected seed and its tests: SELECT=@store_sales_trailing_week.
SELECT ?=
build: $(STAMP) ## install, then `dbt build` of the catalog on embedded Spark (SELECT=... for some of it)
	$(BIN)/dbt build --target session $(if $(SELECT),--select $(SELECT))

test: $(STAMP) ## the whole suite: lint, fast tier, then every target; prints each stage's time
	@mkdir -p .state && rm -f $(TIMES)
	$(call timed,lint,$(BIN)/ruff check . && $(BIN)/ruff format --check .)
	$(call timed,test-fast,$(BIN)/pytest pytests/unit -n auto)
	$(call timed,test-session,$(MAKE) --no-print-directory test-session)
	$(call timed,test-thrift,$(MAKE) --no-print-directory test-thrift)
	$(call timed,test-cluster,$(MAKE) --no-print-directory test-cluster)
	$(call timed,test-connect,$(MAKE) --no-print-directory test-connect)
	@echo "stage seconds:" && cat $(TIMES) | expand -t 16

test-fast: $(STAMP) ## the tier with no JVM, but for its sqlfluff of whole statements (seconds)
	$(BIN)/pytest pytests/unit -m "not lint"

# Every feature on embedded Spark; then, against real servers that the tests
# start on 127.0.0.1 and stop, what a server changes: a Spark Thrift server
# (port 10011), a standalone cluster behind one (10012), Spark Connect (15012).
test-session: $(STAMP) ## every test on the embedded session
	$(BIN)/pytest --target session --ignore pytests/unit --durations=12

test-thrift: $(STAMP) ## on a Thrift server: seeds, faults (the catalog's sample built after a kill, and compared), threads, incremental
	$(BIN)/pytest --target thrift -m server --durations=8

test-cluster: $(STAMP) ## on a standalone cluster: the catalog's sample and comparison, tasks on the Workers
	$(BIN)/pytest --target cluster pytests/catalog pytests/servers/test_servers.py

test-connect: $(STAMP) ## on Spark Connect: the catalog's sample and comparison, plan tests
	$(BIN)/pytest --target connect pytests/catalog pytests/servers/test_servers.py pytests/plans

install: $(STAMP) ## create .venv with the pinned dependencies

$(STAMP): requirements.txt requirements-dev.txt constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt -c constraints.txt
	touch $@

lint: $(STAMP) ## ruff, and sqlfluff on the models and singular tests
	$(BIN)/ruff check .
	$(BIN)/sqlfluff lint models tests

compile: $(STAMP) ## dbt compile on embedded Spark (then read target/compiled/)
	$(BIN)/dbt compile --target session

# Servers for the targets, on 127.0.0.1 with their state in .state/servers/:
#   thrift   a Spark Thrift server, port 10000 (SPARK_THRIFT_HOST / SPARK_THRIFT_PORT)
#   cluster  a standalone Master, 2 Workers and a Thrift server on it, port 10001
#            (SPARK_CLUSTER_PORT)
#   connect  a Spark Connect server, port 15002 (SPARK_CONNECT_PORT)
SERVERS := thrift cluster connect

$(SERVERS:%=%-start): %-start: $(STAMP)
	$(BIN)/python -m sqc.servers start $*

$(SERVERS:%=%-stop): %-stop: $(STAMP)
	$(BIN)/python -m sqc.servers stop $*

servers-status: $(STAMP) ## which servers run
	$(BIN)/python -m sqc.servers status all

servers-stop: $(STAMP) ## stop every server
	$(BIN)/python -m sqc.servers stop all

ROWS ?= 10000000
# Empty: every catalog family (folder of models/) that has a benchmark.
FAMILIES ?=
bench: bench-macros bench-overhead bench-seeds ## bench-macros, bench-overhead, bench-seeds, one after the other (about an hour)

bench-macros: $(STAMP) ## each macro beside its alternatives (ROWS=10000000, FAMILIES=...): docs/bench/bench.*
	$(BIN)/python -m sqc.bench --rows $(ROWS) --families "$(FAMILIES)" --keep
	$(BIN)/python -m sqc.docs

bench-sessions: $(STAMP) ## incremental_sessions as history grows: docs/bench/sessions.*
	$(BIN)/python -m sqc.bench.sessions
	$(BIN)/python -m sqc.docs

bench-windows: $(STAMP) ## incremental_windows as history grows: docs/bench/windows.*
	$(BIN)/python -m sqc.bench.windows

bench-extremes: $(STAMP) ## min and max over 1,000 rows: the block form, the segment tree, the least any form costs: docs/bench/extremes.*
	$(BIN)/python -m sqc.bench.extremes

bench-floor: $(STAMP) ## a rolling bigint sum beside the segment tree and the least any window form costs (prints)
	$(BIN)/python -m sqc.bench.floor

bench-seeds: $(STAMP) ## dbt seed against spark.read.csv, whole processes: docs/bench/seeds.json
	$(BIN)/python -m sqc.bench.seeds
	$(BIN)/python -m sqc.docs

bench-overhead: $(STAMP) ## dbt build of the catalog against its SQL run bare: docs/bench/overhead.*
	$(BIN)/python -m sqc.bench.overhead
	$(BIN)/python -m sqc.docs

docs: $(STAMP) ## the README's argument tables (from macros/macros.yml) and figures (from docs/bench/*.json)
	$(BIN)/python -m sqc.docs

catalog-page: $(STAMP) ## docs/catalog.md from dbt's artifacts, the plans and bench.json
	$(BIN)/python -m sqc.catalog_page

clean: ## remove target/, dbt_packages/, logs and .state/
	rm -rf target dbt_packages logs .state integration_tests/*/target \
		integration_tests/*/dbt_packages integration_tests/*/logs
