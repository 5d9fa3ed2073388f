"""Optional accounts (issue 32, item 1) through the JSON API, on a real SQLite file and a real
PostgreSQL database: registration under the display-name rules, sign-in and out, sign out
everywhere, password change, deletion, API tokens — and the security cases, each a named test
(issue 32, "Tests"): a wrong password and an unknown name answer alike; the rate limit holds; a
cross-site form post and a cross-origin fetch change nothing; a session id does not survive
sign-out; a session id planted before sign-in is not accepted after; names are text.

No test waits on the wall clock: the rate limits' buckets run on a clock the test holds still."""

from __future__ import annotations

import logging

import argon2
import pytest

from account_helpers import EVIL, OWN, app_client, database, other, register, sign_in
from pitchcards.server import account_store, passwords
from pitchcards.server.accounts import MAX_TOKENS, SESSION_COOKIE

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request, tmp_path):
    with database(request.param, tmp_path) as url:
        yield url


@pytest.fixture
def client(db_url):
    with app_client(db_url) as c:
        yield c


def _session(client) -> str:
    return str(client.cookies.get(SESSION_COOKIE))


def _plant(client, session_id: str) -> None:
    """The browser's cookie jar holds ``session_id`` as its session cookie, and nothing else
    (the domain the TestClient's cookies from the server get)."""
    client.cookies.clear()
    client.cookies.set(SESSION_COOKIE, session_id, domain="testserver.local")


# ---------------------------------------------------------------------- registration
def test_register_signs_in_with_an_httponly_samesite_cookie(client):
    reply = register(client, "Ann")
    assert reply.json()["name"] == "Ann" and reply.json()["via"] == "session"
    cookie = reply.headers["set-cookie"]
    assert cookie.startswith(f"{SESSION_COOKIE}=")
    for part in ("HttpOnly", "SameSite=lax", "Path=/"):
        assert part.lower() in cookie.lower(), cookie
    assert "secure" not in cookie.lower()  # plain http: a Secure cookie would never come back
    me = client.get("/api/me")
    assert me.status_code == 200 and me.json()["name"] == "Ann"


def test_the_cookie_is_secure_and_host_only_when_the_public_url_is_https(db_url):
    with app_client(db_url, public_url="https://pitch.example") as client:
        reply = client.post("/api/accounts", json={"name": "Ann", "password": "correct horse"},
                            headers={"Origin": "https://pitch.example"})
        assert reply.status_code == 201, reply.text
        cookie = reply.headers["set-cookie"]
        assert cookie.startswith(f"__Host-{SESSION_COOKIE}=") and "Secure" in cookie


@pytest.mark.parametrize(("name", "reason"), [
    ("", "bad_name"), ("<script>", "bad_name"), ("A" * 25, "bad_name"),
    ("Аnn", "bad_name"),                       # a Cyrillic А among Latin letters
    ("ANN", "name_registered"), ("Ａnn", "name_registered"),  # Ann's, by case and full width
    ("Easy Bot", "name_registered"),                 # a bot's account's name
])
def test_a_name_is_refused_by_the_display_name_rules_and_the_lookalike_key(client, name,
                                                                           reason):
    register(client, "Ann")
    fresh = other(client, "10.0.0.9")
    reply = fresh.post("/api/accounts", json={"name": name, "password": "correct horse"},
                       headers=OWN)
    assert reply.status_code in (409, 422) and reply.json()["reason"] == reason, reply.text
    assert SESSION_COOKIE not in reply.headers.get("set-cookie", "")


@pytest.mark.parametrize("password", ["short", "x" * 257])
def test_a_password_too_short_or_too_long_is_refused_and_nothing_is_stored(client, password):
    reply = client.post("/api/accounts", json={"name": "Ann", "password": password},
                        headers=OWN)
    assert reply.status_code == 422 and reply.json()["reason"] == "bad_password"
    assert password not in reply.text
    assert account_store.find_account(client.app.state.hub.store.engine, "ann") is None


def test_a_guest_who_registers_keeps_the_seats_they_hold(client):
    made = client.post("/api/tables", json={"name": "Ann", "bots": {"1": "random",
                                                                   "2": "random",
                                                                   "3": "random"}})
    assert made.status_code == 201, made.text
    register(client, "Ann")
    started = client.post(f"/api/tables/{made.json()['table']}/start",
                          headers={"Authorization": f"Bearer {made.json()['token']}"})
    assert started.status_code == 200 and started.json()["status"] == "playing", started.text


# ---------------------------------------------------------------------- signing in and out
def test_sign_in_makes_a_new_session_and_sign_out_ends_it(client):
    register(client, "Ann")
    first = _session(client)
    assert sign_in(client, "ann").status_code == 200  # the name's key: any case
    second = _session(client)
    assert second != first
    _plant(client, first)
    assert client.get("/api/me").json()["reason"] == "signed_out"  # replaced at sign-in
    _plant(client, second)
    assert client.get("/api/me").status_code == 200


def test_a_session_id_does_not_survive_sign_out(client):
    register(client, "Ann")
    kept = _session(client)
    out = client.delete("/api/session", headers=OWN)
    assert out.status_code == 204 and SESSION_COOKIE in out.headers["set-cookie"]
    _plant(client, kept)  # the old id, replayed
    reply = client.get("/api/me")
    assert reply.status_code == 401 and reply.json()["reason"] == "signed_out"
    assert client.post("/api/me/tokens", json={}, headers=OWN).status_code == 401


def test_a_session_id_planted_before_sign_in_is_not_accepted_after(client):
    register(client, "Ann")
    mallory = other(client, "10.0.0.66")
    register(mallory, "Mallory")
    planted = _session(mallory)  # a real session id, Mallory's, planted in Ann's browser
    _plant(client, planted)
    assert sign_in(client, "Ann").status_code == 200
    assert _session(client) != planted  # a new id at sign-in
    _plant(mallory, planted)
    assert mallory.get("/api/me").status_code == 401  # the planted id ended: it is nobody
    made_up = other(client, "10.0.0.67")
    _plant(made_up, "chosen-by-the-attacker")
    assert sign_in(made_up, "Ann").status_code == 200
    assert _session(made_up) != "chosen-by-the-attacker"
    _plant(made_up, "chosen-by-the-attacker")
    assert made_up.get("/api/me").status_code == 401


def test_sign_out_everywhere_ends_every_session_but_not_the_api_tokens(client):
    register(client, "Ann")
    phone = other(client, "10.0.0.2")
    assert sign_in(phone, "Ann").status_code == 200
    token = client.post("/api/me/tokens", json={"label": "laptop"}, headers=OWN).json()
    ended = client.delete("/api/me/sessions", headers=OWN)
    assert ended.status_code == 200 and ended.json() == {"ended": 2}
    assert client.get("/api/me").status_code == 401
    assert phone.get("/api/me").status_code == 401
    bearer = {"Authorization": f"Bearer {token['token']}"}
    assert phone.get("/api/me", headers=bearer).json()["via"] == "token"


def test_a_changed_password_ends_the_other_sessions_the_tokens_and_the_old_password(client):
    register(client, "Ann")
    phone = other(client, "10.0.0.2")
    assert sign_in(phone, "Ann").status_code == 200
    # a token made by whoever knew the old password stops working with it (review, issue 32)
    token = phone.post("/api/me/tokens", json={}, headers=OWN).json()["token"]
    bearer = {"Authorization": f"Bearer {token}"}
    assert phone.get("/api/me", headers=bearer).status_code == 200
    wrong = client.post("/api/me/password", json={"current": "not it at all", "new": "x" * 9},
                        headers=OWN)
    assert wrong.status_code == 401 and wrong.json()["reason"] == "bad_sign_in"
    changed = client.post("/api/me/password",
                          json={"current": "correct horse", "new": "battery staple"},
                          headers=OWN)
    assert changed.status_code == 200, changed.text
    assert client.get("/api/me").status_code == 200  # this browser: a new session
    assert phone.get("/api/me").status_code == 401
    assert phone.get("/api/me", headers=bearer).status_code == 401
    assert client.get("/api/me/tokens").json() == []
    assert sign_in(phone, "Ann").status_code == 401
    assert sign_in(phone, "Ann", "battery staple").status_code == 200


def test_a_deleted_account_is_gone_with_its_sessions_and_tokens(client):
    register(client, "Ann")
    token = client.post("/api/me/tokens", json={}, headers=OWN).json()["token"]
    refused = client.request("DELETE", "/api/me", json={"password": "not my password"},
                             headers=OWN)
    assert refused.status_code == 401 and client.get("/api/me").status_code == 200
    gone = client.request("DELETE", "/api/me", json={"password": "correct horse"},
                          headers=OWN)
    assert gone.status_code == 204
    assert client.get("/api/me").status_code == 401
    assert client.get("/api/me", headers={"Authorization": f"Bearer {token}"}
                      ).status_code == 401
    assert sign_in(client, "Ann").json()["reason"] == "bad_sign_in"
    engine = client.app.state.hub.store.engine
    with engine.connect() as conn:
        for table in (account_store.sessions, account_store.api_tokens,
                      account_store.accounts):
            assert conn.execute(table.select()).first() is None, table.name


# ---------------------------------------------------------------------- API tokens
def test_api_tokens_are_made_listed_used_and_revoked_and_stored_hashed(client):
    register(client, "Ann")
    made = client.post("/api/me/tokens", json={"label": "my bot"}, headers=OWN)
    assert made.status_code == 201 and made.json()["token"].startswith("pat_")
    token = made.json()["token"]
    bearer = {"Authorization": f"Bearer {token}"}
    listed = client.get("/api/me/tokens").json()
    assert [t["label"] for t in listed] == ["my bot"] and "token" not in listed[0]
    terminal = other(client, "10.0.0.3")  # no cookie, no Origin: a terminal
    created = client.get("/api/me").json()["created"]
    assert terminal.get("/api/me", headers=bearer).json() == {
        "name": "Ann", "created": created, "via": "token"}
    assert client.get("/api/me/tokens").json()[0]["last_used"] is not None
    # a token cannot manage its account (a leaked one cannot lock its owner out)
    assert terminal.post("/api/me/tokens", json={}, headers=bearer).status_code == 403
    assert terminal.request("DELETE", "/api/me", json={"password": "correct horse"},
                            headers=bearer).status_code == 403
    with client.app.state.hub.store.engine.connect() as conn:
        stored = conn.execute(account_store.api_tokens.select()).one()
    assert stored.token_hash != token and token not in str(tuple(stored))
    # another account cannot revoke it
    bob = other(client, "10.0.0.4")
    register(bob, "Bob")
    assert bob.delete(f"/api/me/tokens/{made.json()['id']}", headers=OWN).status_code == 404
    assert terminal.get("/api/me", headers=bearer).status_code == 200
    assert client.delete(f"/api/me/tokens/{made.json()['id']}", headers=OWN).status_code == 204
    revoked = terminal.get("/api/me", headers=bearer)
    assert revoked.status_code == 401 and revoked.json()["reason"] == "signed_out"


def test_an_account_holds_a_bounded_number_of_tokens(client):
    register(client, "Ann")
    for _ in range(MAX_TOKENS):
        assert client.post("/api/me/tokens", json={}, headers=OWN).status_code == 201
    over = client.post("/api/me/tokens", json={}, headers=OWN)
    assert over.status_code == 409 and over.json()["reason"] == "too_many_tokens"


# ---------------------------------------------------------------------- the security cases
class _CountingHasher:
    """Argon2's hasher, noting each hash a password is verified against."""

    def __init__(self, real):
        self.real = real
        self.verified: list[str] = []

    def verify(self, stored, password):
        self.verified.append(stored)
        return self.real.verify(stored, password)

    def __getattr__(self, name):
        return getattr(self.real, name)


def test_a_wrong_password_and_an_unknown_name_answer_alike(client, monkeypatch):
    register(client, "Ann")
    counting = _CountingHasher(passwords._HASHER)
    monkeypatch.setattr(passwords, "_HASHER", counting)
    stranger = other(client, "10.0.0.5")
    wrong = sign_in(stranger, "Ann", "not the password")
    unknown = sign_in(stranger, "Nobody", "not the password")
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {
        "reason": "bad_sign_in", "message": "that name and password do not match an account"}
    assert "set-cookie" not in wrong.headers and "set-cookie" not in unknown.headers
    # the same work: an Argon2id check each, the unknown name's against the dummy hash
    assert len(counting.verified) == 2 and counting.verified[1] == passwords.DUMMY_HASH
    assert counting.verified[0].startswith("$argon2id$")


def test_the_sign_in_rate_limit_holds_per_address(db_url):
    with app_client(db_url, sign_ins_per_minute=4) as client:
        register(client, "Ann")  # one of the address's four
        for _ in range(3):
            assert sign_in(client, "Ann", "wrong password").status_code == 401
        limited = sign_in(client, "Ann")  # the right password: still refused
        assert limited.status_code == 429 and limited.json()["reason"] == "rate_limited"
        assert sign_in(other(client, "10.0.0.2"), "Ann").status_code == 200


def test_the_sign_in_rate_limit_holds_per_account_and_alike_for_unknown_names(db_url):
    with app_client(db_url, sign_ins_per_hour_per_account=9) as client:  # bursts of 3
        register(client, "Ann")
        for name in ("Ann", "Nobody"):
            for n in range(3):  # from three addresses
                assert sign_in(other(client, f"10.1.0.{n}"), name, "guess").status_code == 401
            for n in range(3, 5):  # a fourth and fifth address, the right password or not
                limited = sign_in(other(client, f"10.1.0.{n}"), name)
                assert limited.status_code == 429, (name, limited.text)
                assert limited.json()["reason"] == "rate_limited"
        assert sign_in(client, "Bob").json()["reason"] == "bad_sign_in"  # other names go on


def test_a_cross_site_form_post_changes_nothing(client):
    register(client, "Ann")
    form = {"Content-Type": "application/x-www-form-urlencoded", **EVIL}
    for method, path, body in (("POST", "/api/me/password", "current=x&new=hijacked1"),
                               ("DELETE", "/api/me", "password=x"),
                               ("POST", "/api/me/tokens", "label=evil"),
                               ("DELETE", "/api/me/sessions", ""),
                               ("DELETE", "/api/session", ""),
                               ("POST", "/api/session", "name=Ann&password=x"),
                               ("POST", "/api/accounts", "name=Eve&password=whatever1")):
        reply = client.request(method, path, content=body, headers=form)
        assert reply.status_code == 403 and reply.json()["reason"] == "bad_origin", (path,
                                                                                      reply.text)
    # without an Origin, a browser's fetch metadata tells a cross-site request apart
    reply = client.request("DELETE", "/api/me/sessions", headers={"Sec-Fetch-Site":
                                                                  "cross-site"})
    assert reply.status_code == 403
    assert client.get("/api/me").status_code == 200  # still signed in, the same session
    assert client.get("/api/me/tokens").json() == []
    assert sign_in(other(client, "10.0.0.2"), "Ann").status_code == 200  # password unchanged


def test_a_cross_origin_fetch_changes_nothing(client):
    register(client, "Ann")
    for method, path, body in (("POST", "/api/me/password",
                                {"current": "correct horse", "new": "hijacked password"}),
                               ("DELETE", "/api/me", {"password": "correct horse"}),
                               ("POST", "/api/me/tokens", {"label": "evil"})):
        reply = client.request(method, path, json=body, headers=EVIL)
        assert reply.status_code == 403 and reply.json()["reason"] == "bad_origin", path
    assert client.get("/api/me").status_code == 200
    assert client.get("/api/me/tokens").json() == []
    assert sign_in(other(client, "10.0.0.2"), "Ann").status_code == 200


def test_names_are_text(client):
    """The display-name rules keep markup out of a name (and a token's label), and a name is
    answered as JSON, never as HTML: an HTML/JS payload cannot become page code."""
    for payload in ('<img src=x onerror="alert(1)">', "Ann</script>", "a&lt;b", 'x" onload="'):
        reply = client.post("/api/accounts", json={"name": payload, "password": "whatever1"},
                            headers=OWN)
        assert reply.status_code == 422 and reply.json()["reason"] == "bad_name"
    made = register(client, "O'Brien-Smith")
    assert made.headers["content-type"] == "application/json"
    assert made.json()["name"] == "O'Brien-Smith"
    label = client.post("/api/me/tokens", json={"label": "<b>bold</b>"}, headers=OWN)
    assert label.status_code == 422 and label.json()["reason"] == "bad_name"


def test_passwords_are_never_logged(client, caplog):
    caplog.set_level(logging.DEBUG)
    secret = "a very secret passphrase"
    register(client, "Ann", secret)
    sign_in(other(client, "10.0.0.2"), "Ann", secret + "!")
    client.post("/api/me/password", json={"current": secret, "new": secret + " 2"},
                headers=OWN)
    assert "secret passphrase" not in caplog.text


@pytest.mark.production_passwords  # the server's own hasher (tests/conftest.py)
def test_passwords_are_stored_as_argon2id_hashes_at_the_production_cost(client):
    """RFC 9106's second recommended profile (64 MiB, 3 passes, 4 lanes): the stored hash, the
    unknown name's dummy hash (the same work), and a weaker stored hash re-hashed at sign-in."""
    engine = client.app.state.hub.store.engine
    register(client, "Ann")
    found = account_store.find_account(engine, "ann")
    assert found is not None and found.password_hash is not None
    assert found.password_hash.startswith("$argon2id$")
    assert "correct horse" not in found.password_hash
    production = argon2.Parameters(type=argon2.Type.ID, version=19, salt_len=16, hash_len=32,
                                   time_cost=3, memory_cost=64 * 1024, parallelism=4)
    assert argon2.extract_parameters(found.password_hash) == production
    assert argon2.extract_parameters(passwords.DUMMY_HASH) == production
    weak = argon2.PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    account_store.set_password(engine, found.id, weak.hash("correct horse"))
    assert sign_in(other(client, "10.0.0.2"), "Ann").status_code == 200
    rehashed = account_store.find_account(engine, "ann")
    assert rehashed is not None and rehashed.password_hash is not None
    assert argon2.extract_parameters(rehashed.password_hash) == production


def test_a_session_made_by_one_process_is_honoured_by_another(db_url):
    with app_client(db_url) as first, app_client(db_url, address="10.0.0.2") as second:
        register(first, "Ann")
        _plant(second, _session(first))
        assert second.get("/api/me").json()["name"] == "Ann"
        assert second.delete("/api/session", headers=OWN).status_code == 204
        assert first.get("/api/me").status_code == 401  # signed out there: out here too


def test_names_and_ids_no_account_can_have_are_answered_without_a_server_error(client):
    """A NUL byte (which PostgreSQL's text refuses) or any non-name reaches no query."""
    register(client, "Ann")
    assert sign_in(client, "Ann\x00", "correct horse").json()["reason"] == "bad_sign_in"
    assert client.get("/api/players/Ann%00").status_code == 404
    assert client.delete("/api/me/tokens/%00abc", headers=OWN).status_code == 404
    assert client.get("/api/me").status_code == 200


def test_made_up_names_cannot_wipe_the_count_of_the_account_being_guessed(monkeypatch):
    """The limits remember a bounded number of names; making room forgets the buckets nearest
    to full (a full one is a fresh one), never the emptied bucket of the account a stranger is
    guessing at — so 10,000 attempts at made-up names do not buy more guesses at it (review of
    issue 32: the buckets used to be cleared all at once)."""
    from pitchcards.server import limits

    monkeypatch.setattr(limits, "SIGN_IN_KEYS", 50)
    now = [0.0]
    signins = limits.SignInLimits(10**6, 9, clock=lambda: now[0])  # 3 at once per name
    for _ in range(3):
        assert signins.attempt("198.51.100.1", "victim")
    assert not signins.attempt("198.51.100.1", "victim")
    for n in range(500):  # made-up names, from as many addresses
        assert signins.attempt(f"203.0.113.{n % 250}-{n}", f"nobody{n}")
    assert not signins.attempt("198.51.100.2", "victim")  # still spent
    now[0] += 3600 / 9  # one token back by the clock, as for anyone
    assert signins.attempt("198.51.100.2", "victim")
