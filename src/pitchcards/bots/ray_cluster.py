"""Independent, seeded jobs on a Ray cluster: the arena's games, the benchmarks' deals (issue 37).

Nothing imports this module unless a cluster is asked for (``pitch arena --cluster ADDRESS``,
``run_arena(..., cluster=...)``, a benchmark's ``--cluster``), and only this module imports Ray,
so without the ``[cluster]`` extra the project never needs it.

What travels to the workers is the job's function *by reference* (its module and name: every
node runs the same pitchcards, installed with the ``[cluster]`` extra) and its argument, which is
plain data: for the arena, the rules, the bot names with their budgets, the game's number and
seed.  Every seed is fixed before a job is handed out, so which worker plays a job, and how many
workers there are, changes nothing in its result.

A worker process (or a whole node) that dies mid-job loses only that job: Ray runs it again on a
live worker, up to :data:`RETRIES` times (``max_retries``; an exception raised by the job itself
is a bug and is not retried).  Stopping the caller (Ctrl+C) stops every job still queued or
running on the cluster (:func:`_stop` says how).
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any, TypeVar

import ray

__all__ = ["LOCAL", "RETRIES", "as_completed", "connected", "describe", "in_order",
           "map_on_cluster"]

A = TypeVar("A")
R = TypeVar("R")

#: The address that starts a Ray cluster on this machine for the run (stopped at its end).
LOCAL = "auto"
#: How many times a job whose worker died is run again before the run gives up.
RETRIES = 3
#: Whether the connection is :func:`connected`'s own (ended with its block), not the caller's.
_made_here = False


def describe(address: str) -> str:
    """The address as the user should read it in an error or a table's heading."""
    return "a local Ray cluster" if address == LOCAL else f"the Ray cluster at {address}"


@contextlib.contextmanager
def connected(address: str, cpus: int | None = None,
              temp_dir: str | None = None) -> Iterator[int]:
    """Be connected to a Ray cluster for the ``with`` block; yields its number of CPUs.

    ``address``: :data:`LOCAL` (``"auto"``) starts a cluster on this machine with ``cpus`` CPUs
    (default: every core; Ray's temporary files under ``temp_dir``, default Ray's own
    ``/tmp/ray``) and stops it afterwards; ``ray://HOST:PORT`` reaches a remote cluster's head
    through Ray Client; ``HOST:PORT`` joins a cluster as a driver on one of its nodes.  A process
    already connected to Ray (``ray.init()`` called before, by a script or a notebook) keeps and
    uses its connection, whatever ``address`` says.  Raises ``ValueError`` naming the address
    when it is empty or the cluster cannot be reached.
    """
    if ray.is_initialized():
        yield _cpus()
        return
    if not isinstance(address, str) or not address.strip():
        raise ValueError(f"cluster address {address!r}: give {LOCAL!r} for a local Ray cluster, "
                         "ray://HOST:PORT for a remote one, or the HOST:PORT of a cluster's head")
    address = address.strip()
    try:  # quietly: Ray's own log lines would break the arena's progress bar and table
        if address == LOCAL:
            ray.init(address="local", num_cpus=cpus or os.cpu_count() or 1,
                     include_dashboard=False, _temp_dir=temp_dir,
                     logging_level=logging.WARNING, log_to_driver=False)
        else:
            ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False)
    except (ConnectionError, TimeoutError) as exc:
        raise ValueError(f"cannot reach {describe(address)}: {exc}") from None
    global _made_here
    _made_here = True
    try:
        yield _cpus()
    finally:
        _made_here = False
        ray.shutdown()


def _cpus() -> int:
    resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
    return max(1, int(resources.get("CPU", 1)))


def as_completed(job: Callable[[A], R], items: Iterable[A],
                 in_flight: int) -> Generator[R, None, None]:
    """Run ``job(item)`` for each item on the connected cluster; yield results as they finish.

    At most ``in_flight`` jobs are handed out at a time, the items taken from ``items`` only as
    results come back, so any number of them uses memory only for those played.  A job whose
    worker dies is run again (:data:`RETRIES`).  Closing the iterator early (an error, Ctrl+C in
    the caller) stops the jobs still out, running ones included (:func:`_stop`).
    """
    remote: Any = ray.remote(num_cpus=1, max_retries=RETRIES, retry_exceptions=False)(job)
    todo = iter(items)
    pending: list[Any] = [remote.remote(item) for item in itertools.islice(todo, in_flight)]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
            pending += [remote.remote(item) for item in itertools.islice(todo, len(done))]
    finally:
        if pending:
            _stop(pending)


def _stop(pending: list[Any]) -> None:
    """Stop the jobs still out.  On a connection :func:`connected` made, by ending it: the
    cluster then stops every task of this driver's job, queued or running.  ``ray.cancel``
    races Ray 2.60's own bookkeeping when a task finishes at the moment it is cancelled ("Check
    failed: ... Tried to complete task that was not pending" aborts the driver: seen in 3 of 25
    interrupted arenas, forced or not; ray-project/ray#54846), so it is used only on a
    connection the caller made and keeps."""
    if _made_here:
        ray.shutdown()
        return
    for ref in pending:
        with contextlib.suppress(Exception):
            ray.cancel(ref)


def in_order(job: Callable[[A], R], items: Iterable[A], in_flight: int) -> list[R]:
    """``job`` over ``items`` on the connected cluster, the results in the items' order."""
    numbered = [(job, n, item) for n, item in enumerate(items)]
    results: dict[int, Any] = dict(as_completed(_numbered, numbered, in_flight))
    return [results[n] for n in range(len(numbered))]


def _numbered(work: tuple[Callable[[Any], Any], int, Any]) -> tuple[int, Any]:
    """Run one job of :func:`in_order`, returning its item's number with its result (the job
    travels as an argument, by reference like any function)."""
    job, number, item = work
    return number, job(item)


def map_on_cluster(address: str, job: Callable[[A], R], items: Iterable[A],
                   cpus: int | None = None) -> list[R]:
    """``job`` over ``items`` on the cluster at ``address`` (see :func:`connected`; ``cpus``
    sizes a local one), the results in the items' order: what a benchmark's ``--cluster`` does
    where it would map over a process pool."""
    with connected(address, cpus=cpus) as workers:
        return in_order(job, items, 2 * workers)
