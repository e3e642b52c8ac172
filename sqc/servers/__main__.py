"""python -m sqc.servers: see sqc/servers/cli.py."""

import sys

from sqc.servers.cli import main

sys.exit(main())
