#!/usr/bin/env python
"""Django's command-line entry point for Boardwalk (migrate, runserver, load_demo, ...)."""

from config.manage import main

if __name__ == "__main__":
    main()
