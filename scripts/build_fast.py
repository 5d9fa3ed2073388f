"""Build the compiled fast path: mypyc compiles pitchcards' hot modules from their source.

    python scripts/build_fast.py          # into src/pitchcards/_compiled/ (what the README runs)
    python scripts/build_fast.py --force  # rebuild even when the build on disk is up to date
    python scripts/build_fast.py --or-pure  # what the README's serve command runs: a machine
                                            # that cannot compile says so and runs pure Python

The modules (``pitchcards._fast.COMPILED``) are compiled as one mypyc group; the extension
modules and a manifest of the SHA-256 of every source they depend on go to ``_compiled/``
beside the package, never beside the sources, so nothing shadows a ``.py`` file: ``import
pitchcards`` uses the build only while every source still has the hash it was built from
(``pitchcards._fast``).  Rebuild after editing the engine or the bots; ``PITCHCARDS_PURE=1``
runs pure Python whatever is built.  Needs mypy (mypyc), setuptools and a C compiler: the
``fast`` extra (``pip install -e '.[fast]'``) brings the first two.  With ``--or-pure`` a
machine that lacks them, or a build that fails, is told so and the command still succeeds, so
``pitch serve`` after it runs the pure-Python build (the same answers, slower bots).
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"


def _load_fast():  # type: ignore[no-untyped-def]
    """pitchcards._fast by path, without importing pitchcards (and whatever build it loads)."""
    spec = importlib.util.spec_from_file_location("_pitchcards_fast",
                                                  SRC / "pitchcards" / "_fast.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _up_to_date(fast, hashes: dict[str, str], mypy_version: str) -> bool:  # type: ignore[no-untyped-def]
    """Whether the build on disk was made by this mypyc, for this Python, from these sources."""
    try:
        manifest = json.loads((fast.build_dir() / "manifest.json").read_text())
    except (OSError, ValueError):
        return False
    return (isinstance(manifest, dict) and manifest.get("mypyc") == mypy_version
            and manifest.get("sources") == hashes and fast._stale(manifest) is None)


def main() -> int:
    status = build()
    if status and "--or-pure" in sys.argv[1:]:
        print("build_fast: running the pure-Python build instead (the same answers; bots think "
              "more slowly)", file=sys.stderr)
        return 0
    return status


def build() -> int:
    fast = _load_fast()
    try:
        from mypyc.build import mypycify
        from setuptools import Distribution
    except ImportError as e:
        print(f"build_fast: cannot compile: {e} (mypyc ships with mypy: pip install -e "
              "'.[fast]', or the test lock, requirements/test-py3XX.txt)", file=sys.stderr)
        return 1
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        print("build_fast: no C compiler (cc/gcc) found: install one (Debian: gcc, "
              "python3-dev) or run the pure build", file=sys.stderr)
        return 1
    hashes = fast.source_hashes(fast.closure(fast.COMPILED))
    from mypy.version import __version__ as mypy_version

    if "--force" not in sys.argv[1:] and _up_to_date(fast, hashes, mypy_version):
        print(f"build_fast: {fast.build_dir()} is up to date (every source unchanged)")
        return 0
    paths = [str(SRC / (name.replace(".", "/") + ".py")) for name in fast.COMPILED]
    out = fast.build_dir()
    with tempfile.TemporaryDirectory(prefix="pitchcards-build-") as tmp:
        work = Path(tmp)
        old_cwd = Path.cwd()
        import os

        os.chdir(SRC)  # mypyc names modules by their path from here: pitchcards/hand.py
        try:
            extensions = mypycify([str(Path(p).relative_to(SRC)) for p in paths],
                                  opt_level="3", group_name=fast.GROUP,
                                  target_dir=str(work / "c"))
            dist = Distribution({"name": "pitchcards-fast", "ext_modules": extensions})
            cmd = dist.get_command_obj("build_ext")
            cmd.build_lib = str(work / "lib")  # type: ignore[attr-defined]
            cmd.build_temp = str(work / "tmp")  # type: ignore[attr-defined]
            cmd.inplace = False  # type: ignore[attr-defined]
            cmd.ensure_finalized()
            cmd.run()
        except (Exception, SystemExit) as e:  # a compile or type error, a missing header: say it
            print(f"build_fast: the build failed: {e}", file=sys.stderr)
            return 1
        finally:
            os.chdir(old_cwd)
        if out.exists():
            shutil.rmtree(out)
        out.mkdir(parents=True)
        modules = {}
        for ext in extensions:
            built = work / "lib" / cmd.get_ext_filename(ext.name)  # type: ignore[attr-defined]
            target = out / built.name.replace(built.name.split(".", 1)[0], ext.name, 1)
            shutil.copy2(built, target)
            modules[ext.name] = target.name
    manifest = {"tag": fast.build_tag(), "mypyc": mypy_version, "modules": modules,
                "sources": hashes}
    if fast.source_hashes(hashes) != hashes:
        shutil.rmtree(out)
        print("build_fast: a source changed during the build; run it again", file=sys.stderr)
        return 1
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    print(f"build_fast: compiled {', '.join(fast.COMPILED)} into {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
