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

.PHONY: build test install lint compile docs clean

build: $(STAMP)
	$(BIN)/dbt build --target session

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/pytest

install: $(STAMP)

$(STAMP): requirements.txt requirements-dev.txt constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt -c constraints.txt
	touch $@

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/sqlfluff lint models tests

compile: $(STAMP)
	$(BIN)/dbt compile --target session

clean:
	rm -rf target dbt_packages logs .state integration_tests/target integration_tests/dbt_packages integration_tests/logs
