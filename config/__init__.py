"""Project configuration: settings, URL routing and the WSGI/ASGI entry points.

Kept apart from the apps so that the tournament, scoring and rules-engine code
never depends on how a particular deployment is wired.
"""
