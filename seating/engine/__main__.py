import sys

from seating.engine.cli import main

sys.exit(main())
