"""The browser table's files as the server serves them, and its JavaScript's own checks
(docs/web.md): the page shells, ``/static/`` with the CSP header and the right content types,
nothing outside the web directory; ``tsc`` (checkJs) and ESLint clean."""

from __future__ import annotations

import shutil
import socket
import subprocess

import httpx
import pytest

from browser_helpers import REPO, WEB, create_table, in_ci
from server_helpers import server_fixture

pytestmark = pytest.mark.timeout(180)

server = server_fixture()

#: What each kind of static file must be served as.
TYPES = {".js": ("text/javascript", "application/javascript"), ".css": ("text/css",),
         ".svg": ("image/svg+xml",)}


def _csp_ok(reply: httpx.Response) -> None:
    csp = reply.headers.get("content-security-policy", "")
    assert "default-src 'self'" in csp, (reply.url, csp)
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp, csp
    assert reply.headers.get("x-content-type-options") == "nosniff", reply.url


def test_every_static_file_is_served_with_its_type_and_the_csp(server):
    files = [p for p in WEB.rglob("*") if p.is_file() and p.suffix in TYPES]
    assert any(p.suffix == ".js" for p in files), f"no scripts in {WEB}"
    for path in files:
        address = "/static/" + path.relative_to(WEB).as_posix()
        reply = httpx.get(server.url + address, timeout=10)
        assert reply.status_code == 200, address
        kind = reply.headers["content-type"].split(";")[0].strip()
        assert kind in TYPES[path.suffix], (address, kind)
        _csp_ok(reply)
        assert reply.content == path.read_bytes(), address


@pytest.mark.parametrize("page, data", [("/", {"page": "home"}),
                                        ("/t/{table}", {"page": "table"}),
                                        ("/t/{table}/history", {"page": "history"}),
                                        ("/join/{invite}", {"page": "join"})])
def test_the_page_shells(server, page, data):
    """Each page is a shell with its data-* attributes, main#app, base.css and one module
    script of its own, under the CSP."""
    host = create_table(server.url)
    address = page.format(table=host["table"], invite=host["invite"])
    reply = httpx.get(server.url + address, timeout=10)
    assert reply.status_code == 200
    assert reply.headers["content-type"].startswith("text/html")
    _csp_ok(reply)
    html = reply.text
    assert f'data-page="{data["page"]}"' in html
    if "{table}" in page or "{invite}" in page:
        assert f'data-table="{host["table"]}"' in html
    if "{invite}" in page:
        assert f'data-invite="{host["invite"]}"' in html
    assert '<main id="app">' in html
    assert '/static/css/base.css' in html
    scripts = html.split("<script")[1:]
    assert len(scripts) == 1 and 'type="module"' in scripts[0], scripts
    assert f'src="/static/js/{data["page"]}.js"' in scripts[0]
    assert "http://" not in html.replace(server.url, "") and "https://" not in html


def _raw_get(url: str, path: str) -> tuple[int, bytes]:
    """A GET with the path sent exactly as given (an HTTP client would tidy the dots away)."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n"
                  .encode())
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    status = int(data.split(b" ", 2)[1])
    return status, data


@pytest.mark.parametrize("path", ["/static/../server/app.py", "/static/..%2fserver/app.py",
                                  "/static/%2e%2e/server/app.py", "/static/../app.py",
                                  "/static/js/../../app.py", "/static/%2e%2e/%2e%2e/cli.py"])
def test_nothing_outside_the_web_directory(server, path):
    assert _raw_get(server.url, "/static/js/api.js")[0] == 200  # the raw request works
    status, data = _raw_get(server.url, path)
    assert status == 404, (path, data[:300])
    assert b"create_app" not in data and b"import" not in data


def _node_tool(*command: str) -> subprocess.CompletedProcess[str]:
    if shutil.which("npx") is None and in_ci():
        pytest.fail("no npx (Node.js) — the JavaScript checks must run in CI")
    if not (REPO / "node_modules" / ".bin").is_dir():
        if in_ci():
            pytest.fail("node_modules is missing (npm ci) — the JavaScript checks must run "
                        "in CI")
        pytest.skip("no node_modules here (run `npm ci` for the JavaScript checks)")
    return subprocess.run(["npx", "--no-install", *command], cwd=REPO, capture_output=True,
                          text=True, timeout=150)


def test_the_javascript_type_checks():
    done = _node_tool("tsc", "-p", "jsconfig.json")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_the_javascript_lints_clean():
    # the page's modules and their Node tests (tests/js); scripts/test.sh runs it only here
    done = _node_tool("eslint", "--max-warnings", "0", "src/pitchcards/server/web/js", "tests/js")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_the_browser_tests_wait_with_functions_not_expressions():
    """Playwright's ``wait_for_function`` runs a bare expression through ``eval`` in the page
    on every poll after the first, which our CSP (no 'unsafe-eval') refuses — so a wait whose
    condition was not already true failed by chance (CI, stop 41).  A function's text is
    evaluated once, on the first synchronous check, and then called: every wait must be one."""
    import ast
    import re

    function = re.compile(r"\s*(async\s+)?(function\b|\(?[\w\s,{}]*\)?\s*=>)")
    bare = []
    for path in sorted((REPO / "tests").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "wait_for_function" and node.args):
                continue
            first = node.args[0]
            if isinstance(first, ast.JoinedStr):
                first = first.values[0] if first.values else ast.Constant("")
            text = first.value if isinstance(first, ast.Constant) else None
            if isinstance(text, str) and not function.match(text):
                bare.append(f"{path.name}:{node.lineno}: {text[:60]}")
    assert bare == [], "write these waits as '() => ...':\n" + "\n".join(bare)
