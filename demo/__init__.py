"""The demo app: a played championship for a fresh install, and simulated events of any size.

It sits on top of every other app (it plays a whole day through tournament's and scoring's
services and releases spectator's pages), so none of them needs to import upwards to be
shown off. Nothing else imports it but its own commands and the tests.
"""
