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

.PHONY: build test test-session test-thrift install lint compile clean \
	thrift-start thrift-stop servers-status bench bench-seeds

build: $(STAMP)
	$(BIN)/dbt build --target session

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(MAKE) test-session
	$(MAKE) test-thrift

# The suite on embedded Spark, then against a real Spark Thrift server that
# the tests start on 127.0.0.1 (port 10011) and stop.
test-session: $(STAMP)
	$(BIN)/pytest --target session

test-thrift: $(STAMP)
	$(BIN)/pytest --target thrift

install: $(STAMP)

$(STAMP): requirements.txt requirements-dev.txt constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt -c constraints.txt
	touch $@

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/sqlfluff lint models tests

# A Spark Thrift server for the `thrift` target (127.0.0.1:10000 by default;
# SPARK_THRIFT_HOST / SPARK_THRIFT_PORT to change). State in .state/servers/.
thrift-start: $(STAMP)
	$(BIN)/python -m sqc.servers start thrift

thrift-stop: $(STAMP)
	$(BIN)/python -m sqc.servers stop thrift

servers-status: $(STAMP)
	$(BIN)/python -m sqc.servers status thrift

bench: $(STAMP)
	$(BIN)/python -m sqc.bench

bench-seeds: $(STAMP)
	$(BIN)/python -m sqc.bench_seeds

compile: $(STAMP)
	$(BIN)/dbt compile --target session

clean:
	rm -rf target dbt_packages logs .state integration_tests/target integration_tests/dbt_packages integration_tests/logs
