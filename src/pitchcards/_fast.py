"""Which build of the engine runs: the compiled fast path (mypyc) or pure Python.

The compiled modules are built from this very source by ``python scripts/build_fast.py`` (mypyc,
which ships with mypy) into ``_compiled/`` beside this file, with a manifest of the SHA-256 of
every source they were built from.  ``import pitchcards`` loads them (an import hook for exactly
the modules in the manifest) only when every one of those sources is unchanged, the build is for
this Python, and ``PITCHCARDS_PURE`` is not set; otherwise the pure modules run, so an edited
source (``pip install -e .``) is never shadowed by a stale compiled module.  Both builds give
the same answers (tests/test_fast_path.py compares them hand by hand).

Standard library only: this runs before any other pitchcards module is imported.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Iterable, Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

__all__ = ["COMPILED", "GROUP", "PURE_VARIABLE", "build_dir", "build_tag", "class_options",
           "closure", "compiled", "fast_path", "install", "source_hashes"]

#: The modules the fast path compiles: the engine's hot path and the bots' (the profile's
#: hand.py, cards and scoring; the heuristic rollout policy, the sampler and the exact solver).
COMPILED = (
    "pitchcards.cards",
    "pitchcards.hand",
    "pitchcards.scoring",
    "pitchcards.bots.heuristic",
    "pitchcards.bots.sampler",
    "pitchcards.bots.solver",
    # issue 35: the ten-point family's bidding, trump and discard estimates, which the rollout
    # policy calls on every simulated auction (the top of a ten-point auction decision's profile)
    "pitchcards.bots.ten_point",
    # issue 35: a seat's view, built at every step of a research environment and every bot turn
    "pitchcards.views",
    # issue 35: the ones of a research environment's observation (no numpy), set every step
    "pitchcards.envs.layout",
)
#: ``PITCHCARDS_PURE=1`` runs the pure-Python modules even where a fresh compiled build exists.
PURE_VARIABLE = "PITCHCARDS_PURE"
#: The shared library mypyc builds for the group (its name is ``<group>__mypyc``).
GROUP = "pitchcards._native"
_PACKAGE = Path(__file__).resolve().parent

_state = "pure"


def class_options(*_: object, **__: object) -> object:
    """``mypyc_attr`` in pure Python: the compiled build's class options (read by mypyc when
    scripts/build_fast.py compiles a module) mean nothing here.  A compiled module that states
    them puts this under the name (``globals().setdefault("mypyc_attr", class_options)``: not
    an import of mypy_extensions, the core being standard library only)."""
    return lambda cls: cls


def build_dir() -> Path:
    """Where ``scripts/build_fast.py`` puts the compiled modules and their manifest."""
    return _PACKAGE / "_compiled"


def source_hashes(paths: Iterable[str]) -> dict[str, str]:
    """SHA-256 of each source (a path inside the package; "" for one that is gone)."""
    hashes = {}
    for path in paths:
        try:
            hashes[path] = hashlib.sha256((_PACKAGE / path).read_bytes()).hexdigest()
        except OSError:
            hashes[path] = ""
    return hashes


def closure(modules: Iterable[str]) -> list[str]:
    """The package's sources that ``modules`` import, directly or not, themselves included:
    what the compiled code was type-checked against, so a change to any makes a build stale."""
    seen: set[str] = set()
    todo = list(modules)
    while todo:
        name = todo.pop()
        path = _PACKAGE.joinpath(*name.split(".")[1:])
        file = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
        if name in seen or not file.exists():
            continue
        seen.add(name)
        package = name if file.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(file.read_text(), str(file))):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                    base = f"{parent}.{base}" if base else parent
                if base.split(".")[0] == "pitchcards":
                    todo.append(base)
                    todo.extend(f"{base}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.Import):
                todo.extend(a.name for a in node.names if a.name.split(".")[0] == "pitchcards")
    files = []
    for name in seen:
        path = Path(*name.split(".")[1:])
        files.append((path / "__init__.py" if (_PACKAGE / path).is_dir()
                      else path.with_suffix(".py")).as_posix())
    return sorted(files)


def build_tag() -> str:
    """The interpreter a compiled module is for (its extension suffix)."""
    return importlib.machinery.EXTENSION_SUFFIXES[0]


class _Finder:
    """An import hook (``sys.meta_path``) giving the compiled module for each name built."""

    def __init__(self, modules: dict[str, Path]) -> None:
        self.modules = modules

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        file = self.modules.get(fullname)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
        return importlib.util.spec_from_file_location(fullname, file, loader=loader)


def _stale(manifest: dict[str, object]) -> str | None:
    """Why a build cannot be used (None: it can)."""
    if manifest.get("tag") != build_tag():
        return f"built for {manifest.get('tag')}, this Python loads {build_tag()}"
    built = manifest.get("sources")
    if not isinstance(built, dict) or not built:
        return "the manifest lists no sources"
    modules = manifest.get("modules")
    if not isinstance(modules, dict) or _built(modules) != sorted(COMPILED):
        return "the build's modules are not the ones COMPILED lists"
    now = source_hashes(built)
    if built != now:
        changed = sorted(p for p in built if built[p] != now[p])
        return "sources changed since the build: " + ", ".join(changed[:5])
    return None


def _built(modules: Iterable[object]) -> list[str]:
    """The compiled modules a manifest lists, sorted (its group's shared library aside)."""
    return sorted(str(name) for name in modules if name != GROUP + "__mypyc")


def install() -> None:
    """Load the compiled modules for the rest of the process, if a fresh build exists."""
    global _state
    if os.environ.get(PURE_VARIABLE, "") not in ("", "0"):
        _state = f"pure ({PURE_VARIABLE} is set)"
        return
    try:
        manifest = json.loads((build_dir() / "manifest.json").read_text())
    except FileNotFoundError:
        _state = "pure (no compiled build: python scripts/build_fast.py makes one)"
        return
    except (OSError, ValueError) as e:
        _state = f"pure (unreadable compiled build: {e})"
        return
    why = _stale(manifest)
    if why is not None:
        _state = f"pure (compiled build is stale: {why}; python scripts/build_fast.py)"
        return
    modules = {name: build_dir() / file for name, file in manifest["modules"].items()}
    if any(name in sys.modules for name in modules):
        _state = "pure (the pure modules were imported before pitchcards)"
        return
    sys.meta_path.insert(0, _Finder(modules))
    _state = f"compiled (mypyc {manifest.get('mypyc')}: " + ", ".join(
        name.removeprefix("pitchcards.") for name in COMPILED) + ")"


def fast_path() -> str:
    """Which build runs: ``"compiled (mypyc …: cards, hand, …)"`` or ``"pure (why)"``."""
    return _state


def compiled() -> bool:
    """True when the compiled modules are the ones running."""
    return _state.startswith("compiled")


install()
