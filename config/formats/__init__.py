"""Our corrections to Django's locale formats (settings.FORMAT_MODULE_PATH).

Only what differs is written here; everything else falls back to Django's own module for
the language. Django's English times end in "a.m."/"p.m.", whose full stop doubled at the
end of a sentence ("Posted at 2:30 p.m.."); ours end without one. Hindi groups digits the
Indian way (1,50,000), which the money helper (tournament/money.py) reads too.
"""
