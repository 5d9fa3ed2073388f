"""The HTTP the browser pages use beyond the protocol's core: the variants and their options
for the new-table form, the rules as chosen in words (the terminal game's rules page), and the
finished hands step by step for the hand-history viewer — which replay to the record's own
results and show a hand's cards only once it is over."""

from __future__ import annotations

import asyncio
import json
import random

import httpx
import pytest

import pitchcards as pc
from pitchcards.client import Client
from pitchcards.explain import rules_summary
from pitchcards.views import rules_to_dict
from server_helpers import FAST, app_fixture, play_randomly

pytestmark = pytest.mark.timeout(180)

server = app_fixture()


def test_variants_name_every_option_with_its_choices_and_each_variants_values(server):
    data = httpx.get(server.url + "/api/variants").json()
    names = [v["name"] for v in data["variants"]]
    assert names == list(pc.VARIANTS)
    options = {o["name"]: o for o in data["options"]}
    assert options["low_to"]["choices"] == ["capturer", "holder"]
    assert options["pass_is_final"]["kind"] == "bool"
    assert options["stake_per_point"]["kind"] == "money"
    money = next(v for v in data["variants"] if v["name"] == "money")
    assert money["money"] and money["players"] == {"min": 2, "max": 8, "default": 4}
    assert money["values"]["stake_per_point"] == "1/10" and money["values"]["target"] is None
    for variant in data["variants"]:
        rules = pc.find_variant(variant["name"])
        for name, value in variant["values"].items():
            expected = getattr(rules, name)
            assert value == (str(expected) if name in ("stake_per_point", "moon_payment")
                             else expected), (variant["name"], name)


def test_rules_as_chosen_are_said_in_the_rules_pages_words_and_a_bad_option_is_named(server):
    asked = {"variant": "money", "players": 5, "options": {"low_to": "holder"}}
    data = httpx.post(server.url + "/api/rules", json=asked).json()
    rules = pc.find_variant("money").replace(low_to="holder")
    assert data["rules"] == rules_to_dict(rules, resolved=True)
    assert data["rules"]["name"] == "money" and data["rules"]["options"] == {"low_to": "holder"}
    # the facts a page shows instead of working them out (issue 29)
    assert data["rules"]["resolved"]["low_to"] == "holder"
    assert data["rules"]["players"] == list(rules.player_range)
    assert data["rules"]["bids"][-1] == ["bid moon", "moon"]
    assert data["players"] == 5
    assert data["summary"] == rules_summary(rules, 5)
    assert data["options"]["low_to"] == {
        "value": "holder", "text": "Low: the lowest trump in play, to whoever held it.",
        "shown": True}
    assert data["options"]["partnership"]["text"] == "5 players, each for themselves."
    bad = httpx.post(server.url + "/api/rules", json={"variant": "money",
                                                       "options": {"low_to": "nobody"}})
    assert bad.status_code == 422 and bad.json()["reason"] == "bad_setup"
    assert "low_to='nobody'" in bad.json()["message"] and "'holder'" in bad.json()["message"]
    too_many = httpx.post(server.url + "/api/rules", json={"variant": "setback", "players": 5})
    assert too_many.status_code == 422 and too_many.json()["reason"] == "bad_setup"
    # the new-table form asks with fit_players: the options may move the range (a partnership
    # is four; two players only where allowed), and the answer says the size it explained
    fitted = httpx.post(server.url + "/api/rules", json={
        "variant": "auction", "players": 3, "options": {"partnership": "2x2"},
        "fit_players": True}).json()
    assert fitted["players"] == 4 and fitted["rules"]["players"] == [4, 4]
    assert fitted["rules"]["teams"] == [[0, 2], [1, 3]]
    two = httpx.post(server.url + "/api/rules", json={
        "variant": "auction", "players": 2, "options": {"allow_two_players": True},
        "fit_players": True}).json()
    assert two["players"] == 2 and two["rules"]["players"] == [2, 7]
    assert two["rules"]["teams"] is None
    assert httpx.post(server.url + "/api/rules", json={
        "variant": "auction", "players": 2, "fit_players": True}).json()["players"] == 3
    assert httpx.post(server.url + "/api/rules", json={
        "variant": "setback", "players": 9, "fit_players": True}).json()["players"] == 4
    still_bad = httpx.post(server.url + "/api/rules", json={
        "variant": "money", "options": {"low_to": "nobody"}, "fit_players": True})
    assert still_bad.status_code == 422 and still_bad.json()["reason"] == "bad_setup"


def test_finished_hands_step_by_step_replay_the_record_and_need_a_players_token(server):
    async def run() -> tuple[str, str, str]:
        async with Client(server.url) as api:
            # to 21: no deal ends the game in two hands (at most 4 points a hand), so it
            # still goes on when a stranger asks (the server deals at random)
            me = await api.create_table("Ann", bots={1: "random", 2: "random", 3: "random"},
                                        settings=FAST, options={"target": 21})
            await api.start(me)
            async with await api.connect(me) as table:
                # two hands finished, the third under way
                await play_randomly(table, random.Random(5), stop=lambda: sum(
                    isinstance(e, pc.events.HandDealt) for e in table.events) >= 3)
            return me.table, me.token, await api.record(me)

    table, token, record = asyncio.run(run())
    reply = httpx.get(f"{server.url}/api/tables/{table}/hands",
                      headers={"Authorization": f"Bearer {token}"})
    assert reply.status_code == 200, reply.text
    hands = reply.json()["hands"]
    game = pc.replay(pc.read_record(record))
    assert [h["number"] for h in hands] == list(range(1, len(game.hands) + 1))
    assert len(hands) >= 2
    for shown, played in zip(hands, game.hands, strict=True):
        steps = shown["steps"]
        assert steps[0]["action"] is None and steps[0]["seat"] is None
        assert all(len(cards) == 6 for cards in steps[0]["hands"])  # the deal, face up
        assert [(s["seat"], s["action"]) for s in steps[1:]] == [
            (seat, str(action)) for seat, action in played.history]
        assert steps[-1]["hands"] == [[], [], [], []]
        assert steps[-1]["view"]["result"] == shown["result"]
        assert shown["result"] == pc.views.result_to_dict(played.result)
        assert steps[-1]["view"]["seat"] is None and steps[-1]["view"]["hand"] == []
    nobody = httpx.get(f"{server.url}/api/tables/{table}/hands")
    assert nobody.status_code == 401


def test_a_listed_table_is_joined_by_its_id_and_a_private_one_only_by_its_invite(server):
    async def run() -> None:
        async with Client(server.url) as api:
            listed = await api.create_table("Ann", listed=True)
            private = await api.create_table("Ann")
            taken = await api.http.post(f"/api/tables/{listed.table}/seats",
                                        json={"name": "Bob"})
            assert taken.status_code == 201, taken.text
            assert taken.json()["table"] == listed.table and taken.json()["seat"] == 1
            refused = await api.http.post(f"/api/tables/{private.table}/seats",
                                          json={"name": "Bob"})
            assert refused.status_code == 403 and refused.json()["reason"] == "not_listed"
            info = (await api.http.get(f"/api/tables/{private.table}")).json()
            assert [s["kind"] for s in info["seats"]][1:] == ["open"] * 3  # nothing changed

    asyncio.run(run())


def test_results_are_the_score_sheets_events_so_far_for_anyone_with_the_table_id(server):
    async def run() -> tuple[list[dict], list[dict]]:
        async with Client(server.url) as api:
            me = await api.create_table("Ann", bots={1: "random", 2: "random", 3: "random"},
                                        settings=FAST)
            await api.start(me)
            async with await api.connect(me) as table:
                await play_randomly(table, random.Random(8), stop=lambda: sum(
                    isinstance(e, pc.events.HandScored) for e in table.events) >= 2)
                seen = [e.to_dict() for e in table.events if isinstance(e, pc.events.HandScored)]
                got = (await api.http.get(f"/api/tables/{me.table}/results")).json()
            return seen, got

    seen, got = asyncio.run(run())
    assert [e["type"] for e in got][:2] == ["hand_scored", "hand_scored"]
    assert got[:2] == seen[:2]  # the events themselves: no cards, no views
    assert all("state" not in e for e in got)
    missing = httpx.get(f"{server.url}/api/tables/nosuchtable/results")
    assert missing.status_code == 404


def test_the_end_of_a_match_is_announced_to_every_socket_as_the_tables_new_status(server):
    async def run() -> list[dict]:
        async with Client(server.url) as api:
            # first to 1 point: the first hand ends the match (High always goes to someone)
            me = await api.create_table("Ann", bots={1: "random", 2: "random", 3: "random"},
                                        options={"target": 1,
                                                 "win_rule": "first_to_target_HLJG_order"},
                                        settings=FAST)
            await api.start(me)
            async with await api.connect(me) as table:
                await play_randomly(table, random.Random(3))
                await table.wait_for(lambda: table.info.get("status") == "over", 10)
                return [json.loads(f) for f in table.frames]

    frames = asyncio.run(run())
    won = next(i for i, f in enumerate(frames) if f["type"] == "event"
               and f["event"]["type"] == "match_won")
    assert any(f["type"] == "table" and f["table"]["status"] == "over" for f in frames[won:])


def test_a_five_player_call_partner_table_plays_through_the_server_and_keeps_the_secret(server):
    """Call-your-partner (CP1–CP5) through the server: five seats, Ann and four random bots;
    every frame Ann receives carries the called card once called, and names a partner only
    after the called card is played (or the hand is over) — unless Ann holds the card."""
    async def run() -> list[pc.View]:
        async with Client(server.url) as api:
            me = await api.create_table("Ann", variant="call-partner", players=5,
                                        bots={s: "random" for s in range(1, 5)}, settings=FAST)
            await api.start(me)
            async with await api.connect(me) as table:
                views: list[pc.View] = []  # Ann's view after each frame the loop saw

                def seen() -> bool:
                    if table.view is not None:
                        views.append(table.view)
                    return sum(isinstance(e, pc.events.HandScored) for e in table.events) >= 2
                await play_randomly(table, random.Random(6), stop=seen)
            return views

    views = asyncio.run(run())
    called = [v for v in views if v.called_card is not None]
    assert called and {v.players for v in views} == {5}
    for v in called:
        played = v.played_mask >> v.called_card & 1 or v.phase == "over"  # type: ignore[operator]
        assert v.partner_known == bool(played)
        if not played:
            assert v.partner is None
            assert v.known_partner == (v.seat if v.holds_called else None)
