"""python -m sqc.servers: see the package's docstring."""

import sys

from sqc.servers import main

sys.exit(main())
