"""Redis is killed mid-hand and started again (empty): the processes resubscribe, the sockets
that were fed through it reconnect and resync by seq, play goes on, and nothing acknowledged is
lost or applied twice."""

from __future__ import annotations

import asyncio
import time

import pytest

from cluster_helpers import running_cluster
from test_cluster_failover import play_through_a_loss

pytestmark = pytest.mark.timeout(180)


def test_redis_restarted_mid_hand_loses_nothing(tmp_path):
    with running_cluster(tmp_path) as cluster:

        def restart_redis() -> None:
            cluster.redis.kill()
            time.sleep(1.0)
            cluster.redis.start()

        asyncio.run(play_through_a_loss(cluster, restart_redis))
