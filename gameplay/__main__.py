import sys

from gameplay.cli import main

sys.exit(main())
