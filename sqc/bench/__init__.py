"""Benchmarks: the macros beside their alternatives (run, families, report),
incremental sessions (sessions), seeds (seeds)."""
