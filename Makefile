# Two commands on a fresh machine (Python 3.11, Java 17, package registries):
#   make build   set up .venv and run `dbt build` on embedded Spark
#   make test    run the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

export DBT_PROFILES_DIR := $(CURDIR)/profiles
export DBT_LOG_PATH ?= $(CURDIR)/.state/logs
export SPARK_LOCAL_IP := 127.0.0.1
export PYSPARK_PYTHON := $(CURDIR)/$(BIN)/python
# dbt-spark's session method asks every Spark Connect session for Hive support,
# a static setting the server already has: PySpark warns on each statement.
export PYTHONWARNINGS := ignore:Failed to set spark.sql.catalogImplementation

.PHONY: build test test-session test-thrift test-cluster test-connect install lint compile \
	clean thrift-start thrift-stop cluster-start cluster-stop connect-start connect-stop \
	servers-status servers-stop bench bench-seeds bench-sessions catalog-page

build: $(STAMP)
	$(BIN)/dbt build --target session

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(MAKE) test-session
	$(MAKE) test-thrift
	$(MAKE) test-cluster
	$(MAKE) test-connect

# The suite on embedded Spark, then against real servers that the tests
# start on 127.0.0.1 and stop: a Spark Thrift server (port 10011), a
# standalone cluster behind one (10012), and Spark Connect (15012). Each run
# builds the catalog and compares every table with the session run's.
test-session: $(STAMP)
	$(BIN)/pytest --target session

test-thrift: $(STAMP)
	$(BIN)/pytest --target thrift

# The cluster: the catalog build, the comparison, and proof that tasks ran
# in the Workers' executors.
test-cluster: $(STAMP)
	$(BIN)/pytest --target cluster pytests/test_catalog.py pytests/test_servers.py

# Spark Connect: the catalog build and comparison, and the plan tests.
test-connect: $(STAMP)
	$(BIN)/pytest --target connect pytests/test_catalog.py pytests/test_servers.py \
		pytests/test_plans.py

install: $(STAMP)

$(STAMP): requirements.txt requirements-dev.txt constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt -c constraints.txt
	touch $@

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/sqlfluff lint models tests

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

servers-status: $(STAMP)
	$(BIN)/python -m sqc.servers status all

servers-stop: $(STAMP)
	$(BIN)/python -m sqc.servers stop all

# Each macro beside its alternatives on generated data (10M rows; ROWS=N to
# change): docs/bench/bench.json, bench.md and bench.png.
ROWS ?= 10000000
bench: $(STAMP)
	$(BIN)/python -m sqc.bench --rows $(ROWS)

# incremental_sessions against a full rebuild: 10M events of history, a 1%
# batch (EVENTS=N to change): docs/bench/sessions.json.
EVENTS ?= 10000000
bench-sessions: $(STAMP)
	$(BIN)/python -m sqc.bench_sessions --events $(EVENTS)

# docs/catalog.md: every catalog query with its description, macro call,
# compiled SQL, physical plan and benchmark ratio.
catalog-page: $(STAMP)
	$(BIN)/python -m sqc.catalog_page

bench-seeds: $(STAMP)
	$(BIN)/python -m sqc.bench_seeds

compile: $(STAMP)
	$(BIN)/dbt compile --target session

clean:
	rm -rf target dbt_packages logs .state integration_tests/target integration_tests/dbt_packages integration_tests/logs
