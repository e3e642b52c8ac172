"""python -m sqc.bench: see sqc.bench.run."""

from sqc.bench.run import main

main()
