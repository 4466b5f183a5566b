"""The rules pages: Back / Next turn them, Close, Done and the Back key leave."""

from __future__ import annotations

from tabletop.ui.autoplay import Autoplayer
from tabletop.ui.input import Back
from tabletop.ui.scenes.home import HomeScene
from tabletop.ui.scenes.rules import RulesPage, RulesScene
from tests.ui.scenery import make_app

PAGES = [RulesPage("One", "First."), RulesPage("Two", "Second.", "2 + 2 = 4")]


def open_rules() -> tuple[RulesScene, Autoplayer]:
    app = make_app()
    app.stack.push(HomeScene(app.ctx, offer_resume=False))
    scene = RulesScene(app.ctx, "Rules", PAGES)
    app.stack.push(scene)
    app.step()
    return scene, Autoplayer(app)


def test_rules_pages_turn_and_done_leaves() -> None:
    scene, auto = open_rules()
    assert (scene.target("rules.prev").label, scene.target("rules.next").label) == (
        "Close",
        "Next",
    )
    auto.tap("rules.next")
    assert scene.index == 1 and scene.target("rules.next").label == "Done"
    auto.tap("rules.prev")
    assert scene.index == 0
    auto.tap("rules.next")
    auto.tap("rules.next")
    assert isinstance(auto.top, HomeScene)


def test_rules_close_and_the_back_key_leave() -> None:
    _, auto = open_rules()
    auto.tap("rules.prev")
    assert isinstance(auto.top, HomeScene)
    _, auto = open_rules()
    auto.tap("rules.next")
    auto.app.post(Back(0.0))
    auto.app.step()
    assert isinstance(auto.top, HomeScene)
