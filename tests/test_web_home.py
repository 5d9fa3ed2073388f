"""The home and join pages in a real browser (docs/web.md): create a table with the form, pass
the invite to a friend whose browser takes a seat, start; the options' defaults; the lobby;
"Play against bots" in one tap, the form folded under "More options", the links to the
scorekeeper, the rules and the help (issue 30)."""

from __future__ import annotations

import re

import pytest

from browser_helpers import (
    PHONE,
    WIDE,
    Player,
    api,
    create_table,
    horizontal_overflow,
    open_home,
    screenshot,
)
from server_helpers import server_fixture

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

server = server_fixture()


def _select(page, selector: str, wanted: str | re.Pattern[str]) -> None:
    """Choose an option of a <select> by value, or by its value or label matching a pattern
    (or fill an <input> with a value)."""
    field = page.locator(selector)
    if isinstance(wanted, str) and field.evaluate("e => e.tagName") == "INPUT":
        field.fill(wanted)
        return
    if isinstance(wanted, str):
        field.select_option(value=wanted)
        return
    options = field.locator("option").evaluate_all(
        "os => os.map(o => [o.value, o.textContent])")
    match = [v for v, label in options if wanted.search(v) or wanted.search(label or "")]
    assert match, f"{selector}: no option like {wanted.pattern} in {options}"
    field.select_option(value=match[0])


def _tokens(page) -> dict[str, dict]:
    return page.evaluate("""() => Object.fromEntries(Object.keys(localStorage)
        .filter(k => k.startsWith('pitch.seat.'))
        .map(k => [k.slice('pitch.seat.'.length), JSON.parse(localStorage.getItem(k))]))""")


def test_create_invite_join_and_start(browser, server):
    """The real flow: Ann creates a table with the home page's form (two bots, one open seat),
    Bob opens the invite link in his own browser and takes the seat, Ann starts, both are
    dealt cards."""
    ann = Player(browser, server.url)
    bob = Player(browser, server.url)
    try:
        page = ann.page
        open_home(page, server.url)
        page.fill("form#create [name=name]", "Ann")
        _select(page, "form#create [name=variant]", "auction")
        _select(page, "form#create [name=players]", "4")
        page.wait_for_selector('form#create [name="bot.3"]')
        _select(page, "form#create [name=seat]", "0")
        _select(page, 'form#create [name="bot.1"]', "easy")
        _select(page, 'form#create [name="bot.3"]', "easy")
        _select(page, 'form#create [name="bot.2"]', re.compile(r"^$|open|human|none|friend",
                                                               re.IGNORECASE))
        page.get_by_role("button", name="Create table").click()
        invite = page.wait_for_selector("#invite", timeout=30000)
        assert invite is not None
        text = " ".join([invite.inner_text(), invite.get_attribute("href") or "",
                         *page.locator("#invite input, #invite a").evaluate_all(
                             "es => es.map(e => e.value || e.href || '')")])
        found = re.search(re.escape(server.url) + r"/join/([A-Za-z0-9_-]+)", text)
        assert found, f"#invite shows no invite link: {text!r}"
        code = found.group(1)
        held = _tokens(page)
        assert len(held) == 1, f"the host's token is not kept in localStorage: {held}"
        table, seat = next(iter(held.items()))
        assert seat["seat"] == 0 and seat["name"] == "Ann" and len(seat["token"]) > 30
        info = api(server.url, "GET", f"/api/invites/{code}")
        assert info["table"] == table and info["variant"] == "auction"
        assert [s["kind"] for s in info["seats"]] == ["human", "bot", "open", "bot"]

        bob.page.goto(f"{server.url}/join/{code}")
        bob.page.wait_for_selector("form#take-seat")
        bob.page.fill("form#take-seat [name=name]", "Bob")
        if bob.page.locator("form#take-seat [name=seat]").count():
            _select(bob.page, "form#take-seat [name=seat]", "2")
        bob.page.get_by_role("button", name="Take a seat").click()
        bob.page.wait_for_url(f"**/t/{table}", timeout=30000)
        assert _tokens(bob.page)[table]["seat"] == 2

        ann.table = bob.table = table
        ann.name, bob.name = "Ann", "Bob"
        if not page.url.endswith(f"/t/{table}"):
            page.goto(f"{server.url}/t/{table}")
        for p in (ann, bob):
            p.page.wait_for_selector("#connection[data-state=open]", timeout=30000)
        page.wait_for_selector('#seats .seat[data-seat="2"][data-kind=human]', timeout=30000)
        assert "Bob" in page.inner_text('#seats .seat[data-seat="2"]')
        assert page.locator("#seats .seat[data-me]").get_attribute("data-seat") == "0"
        assert bob.page.locator("#seats .seat[data-me]").get_attribute("data-seat") == "2"
        assert page.locator("#start").is_visible()
        assert not bob.page.locator("#start").is_visible(), "only the host may start"
        page.locator("#start").click()
        for p in (ann, bob):
            p.wait(lambda p=p: len(p.hand()) == 6, 15, "six cards dealt")
        assert api(server.url, "GET", f"/api/tables/{table}")["status"] == "playing"
        assert ann.errors == [] and bob.errors == []
    finally:
        ann.close()
        bob.close()


def _open_form(page, url: str) -> dict[str, dict]:
    """The home page with its new-table form; the variants as /api/variants gives them."""
    open_home(page, url)
    return {v["name"]: v for v in api(url, "GET", "/api/variants")["variants"]}


def _check_default(page, variants: dict[str, dict], variant: str, option: str) -> None:
    """The form's field for ``option`` shows the variant's value from /api/variants."""
    default = variants[variant]["values"][option]
    field = page.locator(f'form#create [name="opt.{option}"]')
    field.wait_for()
    value = field.evaluate("e => e.type === 'checkbox' ? String(e.checked) : e.value")
    expected = str(default).lower() if isinstance(default, bool) else str(default)
    assert value == expected, (variant, option, value, default)


def test_the_form_shows_each_variants_options_with_the_engines_defaults(browser, server):
    viewer = Player(browser, server.url)
    try:
        page = viewer.page
        variants = _open_form(page, server.url)
        for variant in ("auction", "setback", "money"):
            _select(page, "form#create [name=variant]", variant)
            for option in ("low_to", "moon", "min_bid", "pitch_as_bid_4"):
                _check_default(page, variants, variant, option)
        assert viewer.errors == []
    finally:
        viewer.close()


def test_the_form_makes_a_ten_point_table(browser, server):
    """The ten-point family on the form (issue 15): its options show the engine's defaults and
    the rules page's sentences (/api/rules, pitchcards.explain); cutthroat offers 3-6 players;
    a table made with the form deals nine cards."""
    host = Player(browser, server.url)
    try:
        page = host.page
        variants = _open_form(page, server.url)
        _select(page, "form#create [name=variant]", "ten-point-cutthroat")
        sizes = page.locator("form#create [name=players] option").evaluate_all(
            "os => os.map(o => o.value)")
        assert sizes == ["3", "4", "5", "6"]
        _select(page, "form#create [name=variant]", "ten-point")
        rules = api(server.url, "POST", "/api/rules", {"variant": "ten-point", "players": 4})
        for option in ("deck", "off_jack", "hand_size", "extra_points", "min_bid",
                       "trump_selection"):
            _check_default(page, variants, "ten-point", option)
            sentence = rules["options"][option]["text"]
            if sentence:
                explain = page.locator(f"#opt-{option}-text")
                explain.wait_for()
                assert sentence in explain.inner_text(), (option, sentence)
        assert page.locator('form#create [name="opt.min_bid"] option').count() == 10
        page.fill("form#create [name=name]", "Ann")
        for seat in (1, 2, 3):
            page.wait_for_selector(f'form#create [name="bot.{seat}"]')
            _select(page, f'form#create [name="bot.{seat}"]', "easy")
        page.get_by_role("button", name="Create table").click()
        page.wait_for_selector("#invite", timeout=30000)
        table, seat = next(iter(_tokens(page).items()))
        assert api(server.url, "GET", f"/api/tables/{table}")["variant"] == "ten-point"
        host.table, host.name = table, "Ann"
        if not page.url.endswith(f"/t/{table}"):
            page.goto(f"{server.url}/t/{table}")
        page.wait_for_selector("#connection[data-state=open]", timeout=30000)
        page.locator("#start").click()
        host.wait(lambda: len(host.hand()) == 9, 15, "nine cards dealt")
        assert host.errors == []
    finally:
        host.close()


def test_the_forms_table_sizes_and_partners_are_the_servers(browser, server):
    """The new-table form works out no table size or team (issue 29): switching Auction pitch
    to partnerships, the server's answer (POST /api/rules) makes it four players with seat 3
    "your partner"; back to each for themselves, three to seven again; two players only once
    allowed.  The invitation page names the teams from the rules' ``teams``."""
    host = Player(browser, server.url)
    sizes = ("() => [...document.querySelectorAll('form#create [name=players] option')]"
             ".map(o => o.value).join(',')")
    try:
        page = host.page
        _open_form(page, server.url)
        _select(page, "form#create [name=variant]", "auction")
        page.wait_for_function(f"() => ({sizes})() === '3,4,5,6,7'")
        _select(page, 'form#create [name="opt.partnership"]', "2x2")
        page.wait_for_function(f"() => ({sizes})() === '4'")
        page.wait_for_selector('label:has-text("Seat 3 (your partner)")')
        assert page.locator('label:has-text("Seat 2 (opponent)")').count() == 1
        _select(page, 'form#create [name="opt.partnership"]', "off")
        page.wait_for_function(f"() => ({sizes})() === '3,4,5,6,7'")
        assert page.locator('label:has-text("(your partner)")').count() == 0
        page.locator('form#create [name="opt.allow_two_players"]').check()
        page.wait_for_function(f"() => ({sizes})() === '2,3,4,5,6,7'")
        assert host.errors == []

        table = create_table(server.url, "Ann", variant="auction-partners",
                             bots={"1": "easy", "3": "easy"})
        page.goto(f"{server.url}/join/{table['invite']}")
        page.wait_for_selector(".join-seats")
        assert page.locator(".join-seats .seat-no").all_inner_texts() == [
            "Seat 1 · team 1 (seats 1 & 3)", "Seat 2 · team 2 (seats 2 & 4)",
            "Seat 3 · team 1 (seats 1 & 3)", "Seat 4 · team 2 (seats 2 & 4)"]
        assert host.errors == []
    finally:
        host.close()


def test_the_lobby_lists_a_listed_table_and_not_a_private_one(browser, server):
    listed = create_table(server.url, "Lia", listed=True)
    private = create_table(server.url, "Pia", listed=False)
    viewer = Player(browser, server.url)
    try:
        page = viewer.page
        page.goto(server.url + "/")
        page.wait_for_selector(f'#lobby a[href*="{listed["table"]}"], '
                               f'#lobby a[href*="{listed["invite"]}"]', timeout=30000)
        lobby = page.inner_html("#lobby")
        assert private["table"] not in lobby and private["invite"] not in lobby
        assert re.search(r"Watch|Join", page.inner_text("#lobby"))
        # a spectator watches: the table, no hand, no seat of their own
        watch = page.locator(f'#lobby a[href$="/t/{listed["table"]}"]')
        if watch.count():
            watch.first.click()
            page.wait_for_selector("#connection[data-state=open]", timeout=30000)
            assert page.locator("#seats .seat[data-me]").count() == 0
            assert page.locator("#hand button.card").count() == 0
        assert viewer.errors == []
    finally:
        viewer.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_play_against_bots_in_one_tap(browser, server, size):
    """One tap on the home page: a table with three bots, started, opened at the player's seat;
    the new-table form is folded under "More options"."""
    viewer = Player(browser, server.url, **(PHONE if size == "phone" else WIDE))
    try:
        page = viewer.page
        page.goto(server.url + "/")
        button = page.locator("#play-bots")
        assert button.is_visible()
        assert page.locator("form#create").count() == 0 or not page.locator(
            "form#create").is_visible()
        assert not page.locator("#more-options").get_attribute("open")
        screenshot(page, f"home-quick-{size}")
        assert horizontal_overflow(page) == 0
        button.tap() if size == "phone" else button.click()
        page.wait_for_url(re.compile(r"/t/[^/]+$"))
        page.wait_for_selector("#connection[data-state=open]")
        page.wait_for_selector("#seats .seat[data-me]")
        kinds = page.eval_on_selector_all("#seats .seat", "els => els.map(e => e.dataset.kind)")
        assert sorted(kinds) == ["bot", "bot", "bot", "human"]
        table = page.url.rsplit("/", 1)[1]
        info = api(server.url, "GET", f"/api/tables/{table}")
        assert info["status"] == "playing" and info["variant"] == "auction"
        assert viewer.errors == []
    finally:
        viewer.close()


def test_the_home_page_links_the_scorekeeper_the_rules_and_the_help(browser, server):
    viewer = Player(browser, server.url, **PHONE)
    try:
        page = viewer.page
        page.goto(server.url + "/")
        hrefs = page.eval_on_selector_all("#quick-play a",
                                          "els => els.map(e => e.getAttribute('href'))")
        assert {"/score", "/rules", "/help"} <= set(hrefs)
        page.locator('#quick-play a[href="/rules"]').tap()
        page.wait_for_selector("section#ten-point h2")
        # the games by name, the engine's sentences (rules_summary), no page wider than a phone
        assert page.locator("section#auction h2").inner_text() == "Auction pitch"
        assert "the pitcher" in page.locator("section#auction").inner_text()
        assert page.locator("section#ten-point h2").inner_text() == "Ten-point pitch (partners)"
        assert horizontal_overflow(page) == 0
        screenshot(page, "rules-phone")
        page.goto(server.url + "/help")
        assert "Play against bots" in page.locator("main").inner_text()
        assert horizontal_overflow(page) == 0
        assert viewer.errors == []
    finally:
        viewer.close()


#: Words cut short on the page: a label, button or link wider than its box, or a select whose
#: chosen option does not fit it (a select cuts its text without overflowing).
_CUT = """() => {
    const out = [];
    const ctx = document.createElement('canvas').getContext('2d');
    for (const e of document.querySelectorAll(
            'label, button, summary, select, a, legend, h1, h2, h3, .hint')) {
        if (e.getBoundingClientRect().width <= 1) continue;  // not shown, or for screen readers
        if (e.tagName === 'SELECT') {
            const s = getComputedStyle(e);
            ctx.font = `${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
            const text = e.selectedIndex >= 0 ? e.options[e.selectedIndex].text : '';
            const room = e.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight)
                - 18;  // the arrow
            if (ctx.measureText(text).width > room) out.push(`select ${e.name}: ${text}`);
        } else if (e.scrollWidth > e.clientWidth + 1) {
            out.push(`${e.tagName}: ${e.textContent.trim().slice(0, 40)}`);
        }
    }
    return out;
}"""


@pytest.mark.parametrize("width", [360, 390])
def test_no_label_is_cut_on_a_phone(browser, server, width):
    """Issue 30, finding 8: at 360 and 390 px the home page (with "More options" open) cuts
    no label, button, link or chosen option short ("Auction pitch, pa…"), for every variant."""
    viewer = Player(browser, server.url, **{**PHONE, "viewport": {"width": width, "height": 740}})
    try:
        page = viewer.page
        open_home(page, server.url)
        variants = page.locator("form#create [name=variant] option").evaluate_all(
            "os => os.map(o => o.value)")
        assert len(variants) >= 4
        for variant in variants:
            page.locator("form#create [name=variant]").select_option(value=variant)
            cut = page.evaluate(_CUT)
            assert cut == [], f"{variant} at {width}: {cut}"
        assert horizontal_overflow(page) == 0
        page.locator("form#create [name=variant]").select_option(value="money")
        page.locator('[name="opt.all_pass"]').locator("xpath=../../..").screenshot(
            path=str(screenshot(page, f"home-more-options-{width}")))
    finally:
        viewer.close()


def test_the_hosts_waiting_room_shows_the_open_seats(browser, server):
    """Issue 30, finding 8: before the start the host's felt says which seats are still open
    (a bot takes them at the start) beside the bots and the people seated."""
    host = create_table(server.url, "Ann", players=4, bots={2: "easy"})
    api(server.url, "POST", f"/api/invites/{host['invite']}/seats", {"name": "Bea", "seat": 1})
    viewer = Player(browser, server.url, host, **PHONE)
    try:
        page = viewer.open_table().page
        open_seat = page.locator('#seats .seat[data-seat="3"][data-kind="open"] .mark.open')
        open_seat.wait_for()
        assert open_seat.inner_text() == "open seat"
        assert page.locator('#seats .seat[data-seat="2"] .mark.bot').inner_text() == "easy bot"
        assert page.locator('#seats .seat[data-seat="1"] .mark.open').count() == 0
        assert page.locator("#seats .mark.open").count() == 1
        screenshot(page, "host-waiting-room-phone")
        assert viewer.errors == []
    finally:
        viewer.close()


def test_the_hosts_waiting_room_shows_the_teams(browser, server):
    """Issue 30, finding 8: before the first deal a partnership table's felt names each seat's
    team, and the host's partner, from the rules' ``teams`` (the server's fact, not seat
    arithmetic in the page); a table where each plays alone shows no team."""
    host = create_table(server.url, "Ann", variant="auction-partners", players=4,
                        bots={1: "easy"})
    viewer = Player(browser, server.url, host, **PHONE)
    try:
        page = viewer.open_table().page
        page.locator('#seats .seat[data-seat="3"] .mark.team').wait_for()
        teams = api(server.url, "GET", f"/api/tables/{host['table']}")["rules"]["teams"]
        shown = {seat: page.locator(f'#seats .seat[data-seat="{seat}"] .mark.team').inner_text()
                 for seat in range(4)}
        mine = next(t for t in teams if 0 in t)
        for index, team in enumerate(teams):
            for seat in team:
                word = f"team {index + 1}"
                assert shown[seat] == (f"partner · {word}" if seat in mine and seat != 0
                                       else word), (seat, shown)
        screenshot(page, "host-waiting-room-teams-phone")
        assert viewer.errors == []
    finally:
        viewer.close()
    alone = create_table(server.url, "Cy", players=3, bots={1: "easy"})
    viewer = Player(browser, server.url, alone, **PHONE)
    try:
        page = viewer.open_table().page
        page.locator('#seats .seat[data-seat="2"]').wait_for()
        assert page.locator("#seats .mark.team").count() == 0
    finally:
        viewer.close()
