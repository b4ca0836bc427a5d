"""The stand-in's building blocks on their own: routing, limits, normalisation, validation."""

import sys
from pathlib import Path

import pytest

from bot.sandbox import FakeDiscord
from bot.sandbox.limits import check_message, error_body
from bot.sandbox.routing import best_template
from bot.sandbox.validation import OpenApiValidator, normalise, unavailable


def button(custom_id: str, label: str = "b") -> dict:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def test_literal_segments_win_over_parameters() -> None:
    templates = [
        "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
        "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
    ]

    original = best_template(templates, "/webhooks/1/abc/messages/@original")
    other = best_template(templates, "/webhooks/1/abc/messages/42")

    assert original == (templates[1], {"webhook_id": "1", "webhook_token": "abc"})
    assert other is not None and other[1]["message_id"] == "42"
    assert best_template(templates, "/webhooks/1") is None


def test_component_limits_are_reported_with_discord_paths() -> None:
    wide_row = {"type": 1, "components": [button(f"w{i}") for i in range(6)]}
    menu = {
        "type": 3,
        "custom_id": "m",
        "options": [{"label": str(i), "value": str(i)} for i in range(26)],
    }
    body = {
        "components": [
            wide_row,
            {"type": 1, "components": [menu]},
            {"type": 1, "components": [button("x" * 101, "y" * 81), button("w0")]},
        ]
    }

    problems = {(".".join(map(str, where)), message) for where, _, message in check_message(body)}

    assert problems == {
        ("components.0.components", "Must be 5 or fewer in length."),
        ("components.1.components.0.options", "Must be 25 or fewer in length."),
        ("components.2.components.0.custom_id", "Must be 100 or fewer in length."),
        ("components.2.components.0.label", "Must be 80 or fewer in length."),
        ("components.2.components.1.custom_id", "Component custom id cannot be duplicated"),
    }


def test_error_body_nests_like_discord() -> None:
    body = error_body([(("content",), "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length.")])

    assert body["code"] == 50035
    assert body["errors"] == {
        "content": {
            "_errors": [
                {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 2000 or fewer in length."}
            ]
        }
    }


def test_components_v2_messages_may_have_more_than_five_top_level_items() -> None:
    rows = [{"type": 1, "components": [button(f"c{i}")]} for i in range(6)]

    assert check_message({"components": rows, "flags": 1 << 15}) == []
    assert len(check_message({"components": rows})) == 1


def test_normalise_rewrites_only_the_documented_encodings() -> None:
    body = {
        "attachments": [{"id": 0, "filename": "a.png"}],
        "message_reference": {"message_id": 5, "fail_if_not_exists": False},
        "allowed_mentions": {"users": [7], "parse": []},
        "components": [{"type": 1, "components": [{"emoji": {"id": 9, "name": "e"}}]}],
        "permission_overwrites": [{"id": 3, "type": 0, "allow": "1024", "deny": "0"}],
        "nonce": 12,
    }

    fixed = normalise(body, "/channels/{channel_id}/messages")

    assert fixed["attachments"][0]["id"] == "0"
    assert fixed["message_reference"]["message_id"] == "5"
    assert fixed["allowed_mentions"]["users"] == ["7"]
    assert fixed["components"][0]["components"][0]["emoji"]["id"] == "9"
    assert fixed["permission_overwrites"][0] == {"id": "3", "type": 0, "allow": 1024, "deny": 0}
    assert fixed["nonce"] == 12 and body["attachments"][0]["id"] == 0
    assert normalise({"permissions": "8"}, "/guilds/{guild_id}/roles") == {"permissions": 8}


@pytest.mark.openapi
def test_validator_explains_the_deepest_problem() -> None:
    validator = OpenApiValidator.load()
    assert validator is not None, unavailable()
    callback = "/interactions/{interaction_id}/{interaction_token}/callback"

    problem = validator.validate("POST", callback, {"type": 4, "data": {"content": 5}})
    fine = validator.validate("POST", callback, {"type": 4, "data": {"content": "hi"}})

    assert problem is not None and problem.where == ("data", "content")
    assert fine is None


def test_missing_description_disables_validation(tmp_path: Path) -> None:
    server = FakeDiscord(openapi=tmp_path / "absent.json")

    assert server.validator is None
    assert server.world.application_id == server.world.bot.id


@pytest.mark.openapi
def test_with_the_description_the_stand_in_validates_every_request_body() -> None:
    # The stand-in validates whenever jsonschema and Discord's description are there
    # (without them, the tests marked openapi are skipped and the summary says so).
    assert unavailable() is None, unavailable()
    assert FakeDiscord().rest.validator is not None


def test_without_jsonschema_the_stand_in_runs_unvalidated(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "jsonschema", None)  # as if it were not installed

    assert "jsonschema" in (unavailable() or "")
    assert FakeDiscord().validator is None
