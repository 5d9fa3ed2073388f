"""Issue 32's cross-site cases in a real Chromium against a real ``pitch serve``: a signed-in
browser visits another site's page (here ``127.0.0.1`` on another port — the *same site* to
SameSite cookies, so only the server's Origin check stands between), which posts a form and
fetches across origins at the account routes.  Nothing changes, and the server counts each
refusal as ``bad_origin``."""

from __future__ import annotations

import re

import httpx
import pytest

from server_helpers import free_port, server_fixture

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

server = server_fixture()

_FETCH = """async ([url, method, body]) => {
    const r = await fetch(url, {method, credentials: 'include',
                                headers: {'Content-Type': 'application/json'},
                                body: body === null ? undefined : JSON.stringify(body)});
    return [r.status, await r.text()];
}"""


def _bad_origins(url: str) -> float:
    found = re.search(r'pitch_refusals_total\{reason="bad_origin"\} ([0-9.e+]+)',
                      httpx.get(url + "/metrics").text)
    return float(found.group(1)) if found else 0.0


def test_another_sites_form_post_and_fetches_change_nothing(browser, server):
    context = browser.new_context()
    try:
        own = context.new_page()
        own.goto(server.url + "/help")
        status, text = own.evaluate(_FETCH, [server.url + "/api/accounts", "POST",
                                             {"name": "Ann", "password": "correct horse"}])
        assert status == 201, text
        assert own.evaluate(_FETCH, [server.url + "/api/me", "GET", None])[0] == 200

        evil = f"http://127.0.0.1:{free_port()}"
        attack = f"""<!doctype html><title>win a prize</title>
<form id="f" method="post" enctype="text/plain" action="{server.url}/api/me/tokens">
<input name='{{"label":"evil","x":"' value='"}}'></form>
<script>
fetch("{server.url}/api/me/password", {{method: "POST", mode: "no-cors", credentials: "include",
  headers: {{"Content-Type": "text/plain"}},
  body: JSON.stringify({{current: "correct horse", new: "hijacked password"}})}})
  .catch(() => null)
  .then(() => fetch("{server.url}/api/me/tokens", {{method: "POST", credentials: "include",
    headers: {{"Content-Type": "application/json"}}, body: '{{"label": "evil"}}'}}))
  .catch(() => null)
  .then(() => {{ document.title = "fetched"; document.getElementById("f").submit(); }});
</script>"""
        context.route(f"{evil}/**", lambda route: route.fulfill(
            status=200, content_type="text/html", body=attack))
        before = _bad_origins(server.url)
        page = context.new_page()
        with page.expect_navigation(url=f"{server.url}/api/me/tokens", timeout=60_000):
            page.goto(f"{evil}/prize")
        assert "bad_origin" in page.content()  # the form's answer: refused
        # the no-cors POST and the form reached the server and were refused by their Origin;
        # the JSON fetch never left the browser (its preflight gets no CORS grant)
        assert _bad_origins(server.url) - before >= 2

        assert own.evaluate(_FETCH, [server.url + "/api/me/tokens", "GET", None]) == [200, "[]"]
        assert own.evaluate(_FETCH, [server.url + "/api/me", "GET", None])[0] == 200
        fresh = httpx.post(server.url + "/api/session",
                           json={"name": "Ann", "password": "correct horse"})
        assert fresh.status_code == 200  # the password is unchanged
    finally:
        context.close()
