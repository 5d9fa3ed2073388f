"""`pitch serve` on a port another program holds says so, with the way out, before inviting
anyone to open its address (issue 30, finding 8)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from pitchcards.server.cli import _check_port


def _held_port() -> socket.socket:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    return listener


def test_a_held_port_is_named_with_the_way_out() -> None:
    with _held_port() as listener:
        port = listener.getsockname()[1]
        problem = _check_port("127.0.0.1", port)
    assert problem is not None
    assert f"port {port} is in use" in problem and f"--port {port + 1}" in problem


def test_an_address_of_no_machine_is_refused_plainly() -> None:
    problem = _check_port("no-such-host.invalid", 8000)
    assert problem is not None and "--host" in problem


def test_pitch_serve_on_a_held_port_stops_before_its_invitation(tmp_path: Path) -> None:
    with _held_port() as listener:
        port = listener.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "pitchcards.cli", "serve", "--port", str(port),
             "--db", str(tmp_path / "server.db")],
            capture_output=True, text=True, timeout=120, check=False,
            env={**os.environ, "XDG_DATA_HOME": str(tmp_path)}, stdin=subprocess.DEVNULL)
    assert done.returncode == 2, done.stderr
    assert f"cannot listen on 127.0.0.1:{port}: port {port} is in use" in done.stderr
    assert "--port" in done.stderr
    assert "open http" not in done.stdout
