"""Requests or submissions sent at the same moment, as a red team sends them."""

from __future__ import annotations

import threading

from django.db import connection


def run_together(work, items) -> list:
    """``work(item)`` in one thread per item, released together by a barrier; each thread's
    outcome (what it returned, or what it raised), in the order of ``items``."""
    barrier = threading.Barrier(len(items))
    outcomes: list = [None] * len(items)

    def run(index: int) -> None:
        try:
            barrier.wait(timeout=60)
            outcomes[index] = work(items[index])
        except Exception as error:
            outcomes[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(items))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a request never returned"
    return outcomes
