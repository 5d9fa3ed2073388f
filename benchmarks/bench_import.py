"""What ``import pitchcards.hand`` costs a fresh process, on both builds (issue 27 item 5).

    .venv/bin/python benchmarks/bench_import.py [--repeats 15] [--against OTHER/src]

Each repeat starts a fresh interpreter per row, rows alternating, and reads the import's own
time from ``python -X importtime`` (the module's cumulative microseconds, its own imports
included), so machine noise hits every row alike.  Rows: the compiled build and the pure one
(``PITCHCARDS_PURE=1``) of this checkout, and with ``--against DIR`` the same two of the package
in ``DIR`` (e.g. an older checkout's ``src`` with its own ``scripts/build_fast.py`` build).
Prints the median [min-max] in milliseconds and, with ``--against``, this / that.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent / "src"


def import_ms(path: Path, pure: bool, module: str) -> tuple[float, str]:
    """One fresh interpreter's import of ``module`` from ``path``: (ms, the build it ran)."""
    env = {k: v for k, v in os.environ.items() if k != "PITCHCARDS_PURE"}
    env["PYTHONPATH"] = str(path)
    if pure:
        env["PITCHCARDS_PURE"] = "1"
    done = subprocess.run([sys.executable, "-X", "importtime", "-c",
                           f"import {module}, pitchcards; print(pitchcards.fast_path())"],
                          env=env, capture_output=True, text=True, check=True)
    for line in done.stderr.splitlines():
        parts = [p.strip() for p in line.removeprefix("import time:").split("|")]
        if len(parts) == 3 and parts[2] == module:
            return int(parts[1]) / 1000, done.stdout.split()[0]
    raise SystemExit(f"no import time for {module} in:\n{done.stderr[-2000:]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--module", default="pitchcards.hand")
    parser.add_argument("--against", metavar="DIR", type=Path, default=None,
                        help="also the package in DIR (its src folder), interleaved")
    args = parser.parse_args(argv)
    rows = [("this", HERE, False), ("this", HERE, True)]
    if args.against:
        rows += [("that", args.against.resolve(), False), ("that", args.against.resolve(), True)]
    times: dict[tuple[str, bool], list[float]] = {(side, pure): [] for side, _, pure in rows}
    builds: dict[tuple[str, bool], str] = {}
    for _ in range(args.repeats):
        for side, path, pure in rows:
            ms, build = import_ms(path, pure, args.module)
            times[side, pure].append(ms)
            builds[side, pure] = build
    print(f"import {args.module} in a fresh interpreter (-X importtime, cumulative), "
          f"{args.repeats} repeats, rows alternating; ms, median [min-max]")
    print(f"{'package':<8} {'build':<10} {'ms':>24}")
    for (side, pure), got in times.items():
        span = f"{statistics.median(got):.1f} [{min(got):.1f}-{max(got):.1f}]"
        print(f"{side:<8} {builds[side, pure]:<10} {span:>24}")
    if args.against:
        print(f"\nthis = {HERE}, that = {args.against}")
        for pure in (False, True):
            ratios = [a / b for a, b in zip(times["this", pure], times["that", pure], strict=True)]
            print(f"  {'pure' if pure else 'compiled':<9} this / that: "
                  f"{statistics.median(ratios):.2f} [{min(ratios):.2f}-{max(ratios):.2f}]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
