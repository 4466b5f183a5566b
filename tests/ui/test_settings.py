"""The teacher PIN, the settings screen and the settings file."""

from __future__ import annotations

import dataclasses
import json

from tabletop.ui.autoplay import Autoplayer
from tabletop.ui.prefs import DEFAULT_PIN, LOCK_SECONDS, PinGate, Prefs, PrefsFile, hash_pin
from tabletop.ui.scenes.pin import PinPad
from tabletop.ui.scenes.settings import SettingsScene
from tests.ui.scenery import FakeClock, make_app


def type_pin(auto: Autoplayer, pin: str) -> None:
    for digit in pin:
        auto.tap(f"key.{digit}")


def open_pad():
    app = make_app()
    auto = Autoplayer(app)
    auto.tap("settings")
    assert isinstance(app.stack.top, PinPad)
    return app, auto


def test_pin_default_is_2468_and_opens_the_settings() -> None:
    assert DEFAULT_PIN == "2468"
    app, auto = open_pad()
    type_pin(auto, "2468")
    assert isinstance(app.stack.top, SettingsScene)


def test_pin_wrong_pin_is_refused() -> None:
    """Refused in words that say what to do (round 8: it said only "not right")."""
    app, auto = open_pad()
    type_pin(auto, "1234")
    pad = app.stack.top
    assert isinstance(pad, PinPad) and pad.message == "That PIN is not right. Try again."
    assert pad.digits == ""


def test_pin_three_wrong_tries_lock_the_pad_for_a_while() -> None:
    app, auto = open_pad()
    for _ in range(3):
        type_pin(auto, "0000")
    type_pin(auto, "2468")  # right, but locked
    pad = app.stack.top
    assert isinstance(pad, PinPad) and "Wait" in pad.message
    auto.tap("cancel")
    auto.tap("settings")  # a new pad is locked too
    type_pin(auto, "2468")
    assert isinstance(app.stack.top, PinPad)
    app.ctx.clock.advance(LOCK_SECONDS + 1)
    app.step()
    type_pin(auto, "2468")
    assert isinstance(app.stack.top, SettingsScene)


def test_pin_lockout_counts_down_to_one_second_not_one_seconds() -> None:
    """The pad counts the lockout down each second; its last second is "1 second"."""
    app, auto = open_pad()
    for _ in range(3):
        type_pin(auto, "0000")
    pad = app.stack.top
    assert isinstance(pad, PinPad) and pad.message == "Too many tries. Wait 30 seconds."
    app.ctx.clock.advance(LOCK_SECONDS - 0.5)
    app.step()
    assert pad.message == "Too many tries. Wait 1 second."
    app.ctx.clock.advance(1)
    app.step()
    assert pad.message == ""


def test_pin_digits_typed_during_the_lockout_are_refused() -> None:
    """While the pad is locked a digit fills no dot and the wait is said again (a digit
    kept made the right PIN fail once the wait was over, counting toward the next
    lockout); when the wait ends the pad is empty and the right PIN opens the settings."""
    app, auto = open_pad()
    for _ in range(3):
        type_pin(auto, "0000")
    pad = app.stack.top
    assert isinstance(pad, PinPad)
    app.ctx.clock.advance(10)
    app.step()
    auto.tap("key.2")
    assert pad.digits == "" and pad.message == "Too many tries. Wait 20 seconds."
    app.ctx.clock.advance(LOCK_SECONDS)
    app.step()
    assert pad.digits == "" and pad.message == ""
    type_pin(auto, "2468")
    assert isinstance(app.stack.top, SettingsScene)


def test_pin_can_be_changed_and_is_stored_hashed(tmp_path) -> None:
    app, auto = open_pad()
    app.ctx.prefs = PrefsFile(tmp_path / "settings.json")
    app.ctx.pin_gate = None
    type_pin(auto, "2468")
    auto.tap("pin")
    type_pin(auto, "7391")
    type_pin(auto, "7390")  # a typo: start again
    assert app.stack.top.message.startswith("The two PINs were different")
    type_pin(auto, "7391")
    type_pin(auto, "7391")
    assert isinstance(app.stack.top, SettingsScene)
    stored = json.loads((tmp_path / "settings.json").read_text())
    # the PIN nowhere in the file, but in its random hex salt and hash, where four digits
    # in a row turn up by chance (CI once drew the salt "ada65a37391c481b")
    salt, digest = stored.pop("pin_salt"), stored.pop("pin_hash")
    text = json.dumps(stored)
    assert "7391" not in text and "2468" not in text
    assert digest == hash_pin("7391", salt) and "7391" not in (salt, digest)
    again = PrefsFile(tmp_path / "settings.json").prefs
    assert again.pin_matches("7391") and not again.pin_matches("2468")


def test_pin_gate_counts_wrong_tries() -> None:
    clock = FakeClock(0.0)
    gate = PinGate(Prefs(), clock)
    assert not gate.attempt("1111") and not gate.attempt("2222")
    assert gate.attempt("2468")  # a right PIN resets the count
    for _ in range(3):
        gate.attempt("9999")
    assert gate.locked_for() == LOCK_SECONDS
    clock.advance(LOCK_SECONDS)
    assert gate.attempt("2468")


def test_settings_mute_and_dice_input_are_saved(tmp_path) -> None:
    app, auto = open_pad()
    app.ctx.prefs = PrefsFile(tmp_path / "settings.json")
    app.ctx.pin_gate = None
    type_pin(auto, "2468")
    auto.tap("sound.off")
    auto.tap("dice.virtual")
    assert app.ctx.sounds.muted
    saved = json.loads((tmp_path / "settings.json").read_text())
    assert saved["muted"] is True and saved["dice_input"] == "virtual"
    assert PrefsFile(tmp_path / "settings.json").prefs.dice_input == "virtual"


def test_settings_close_the_app_asks_first() -> None:
    app, auto = open_pad()
    type_pin(auto, "2468")
    auto.tap("quit")
    auto.tap("no")
    assert not app.ctx.quit_requested
    auto.tap("quit")
    auto.tap("yes")
    assert app.ctx.quit_requested
    assert app.step() is False


def test_settings_damaged_file_means_defaults_and_a_notice(tmp_path) -> None:
    path = tmp_path / "settings.json"
    path.write_text("{not json")
    prefs = PrefsFile(path)
    assert prefs.prefs.pin_matches(DEFAULT_PIN)
    assert prefs.notice is not None and "damaged" in prefs.notice
    assert (tmp_path / "settings.json.bad").exists()
    path.write_text(
        json.dumps({"muted": True, "dice_input": "laser", "pin_salt": "zz", "pin_hash": "x"})
    )
    assert PrefsFile(path).prefs.pin_matches(DEFAULT_PIN)  # a bad salt: defaults again


def test_settings_a_damaged_journal_moved_aside_is_told_on_the_settings_screen(tmp_path) -> None:
    """The saved games file was damaged and moved aside when the app started: the
    teacher, who may have missed the few seconds' toast then, reads it on Settings."""
    from tabletop.store import FILE_NAME, Journal

    (tmp_path / FILE_NAME).write_bytes(b"not a database " * 100)
    journal = Journal(tmp_path / FILE_NAME)
    assert journal.notice is not None and journal.trouble is None
    app = make_app(journal=journal)
    auto = Autoplayer(app)
    auto.tap("settings")
    type_pin(auto, "2468")
    settings = app.stack.top
    assert isinstance(settings, SettingsScene)
    assert journal.notice in settings.note()
    assert "could not be used" in settings.note()


def test_settings_file_defaults_to_the_data_folder(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TABLETOP_DATA", str(tmp_path / "d"))
    prefs = PrefsFile()
    prefs.save()
    assert (tmp_path / "d" / "settings.json").exists()


def test_pin_wrong_pin_message_has_its_own_strip_at_both_sizes() -> None:
    """The message used to be drawn over the bottom row of keys at 800x480."""
    from tabletop.ui.scenes.pin import NOT_RIGHT, wait_message

    for size in ((800, 480), (1280, 720)):
        app = make_app(size)
        auto = Autoplayer(app)
        auto.tap("settings")
        type_pin(auto, "1234")
        pad = app.stack.top
        assert isinstance(pad, PinPad) and pad.message == NOT_RIGHT
        box, m = pad.message_box, pad.m
        assert not any(box.colliderect(button.rect) for button in pad.buttons), size
        assert box.height >= m.text and box.bottom <= m.height
        for text in (NOT_RIGHT, wait_message(30)):
            assert app.ctx.painter.fonts.width(text, m.text, True) <= box.width, (size, text)


def test_pin_one_pad_serves_undo_and_shares_the_lockout() -> None:
    """Every game asks the same pad: purpose "undo" pops "ok", wrong tries count once."""
    from tabletop.ui.scenes.common import Dialog

    app = make_app()
    results = []

    class Asker(Dialog):
        def resume(self, result: object) -> None:
            results.append(result)

    app.stack.push(Asker(app.ctx, "asker"))
    pad = PinPad(app.ctx, "undo", prompt="Teacher PIN to undo", subtitle="For teachers.")
    app.stack.push(pad)
    auto = Autoplayer(app)
    assert pad.prompt == "Teacher PIN to undo"
    for _ in range(3):
        type_pin(auto, "0000")
    type_pin(auto, "2468")
    assert app.stack.top is pad and "Wait" in pad.message
    settings_pad = PinPad(app.ctx, "settings")  # the lockout holds on every pad
    app.stack.push(settings_pad)
    type_pin(auto, "2468")
    assert app.stack.top is settings_pad
    auto.tap("cancel")
    app.ctx.clock.advance(LOCK_SECONDS + 1)
    app.step()
    type_pin(auto, "2468")
    assert results[-1] == "ok" and app.stack.top is not pad


def test_settings_file_values_of_a_wrong_type_take_their_defaults_and_say_so(
    tmp_path, caplog
) -> None:
    """A wrong PIN record must not lock the teacher out (it raised TypeError on every
    try): it is no PIN record, so the default PIN opens, as with a missing file."""
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"pin_salt": "00", "pin_hash": 5, "muted": "no", "speech": "off"}))
    with caplog.at_level("WARNING"):
        loaded = PrefsFile(path)
    assert loaded.prefs.pin_matches(DEFAULT_PIN) and not loaded.prefs.pin_matches("1357")
    assert PinGate(loaded.prefs, FakeClock()).attempt(DEFAULT_PIN)
    assert loaded.prefs.muted is False and loaded.prefs.speech == "off"  # the good one is kept
    assert loaded.notice is not None and "pin_hash=5" in loaded.notice
    assert "muted='no'" in loaded.notice and "PIN 2468" in loaded.notice
    assert [r.getMessage() for r in caplog.records] == [loaded.notice]
    for record in (
        {"pin_salt": ["00"], "pin_hash": "ab" * 32},
        {"pin_salt": "00", "pin_hash": "é" * 64},
    ):
        path.write_text(json.dumps({**record, "muted": True}))
        loaded = PrefsFile(path)
        assert loaded.prefs.pin_matches(DEFAULT_PIN) and loaded.prefs.muted is True
    path.write_text(json.dumps({"muted": True, "dice_input": "tap"}))
    assert PrefsFile(path).notice is None


def test_settings_wrong_values_are_cleaned_in_the_file_so_the_notice_shows_once(
    tmp_path, monkeypatch
) -> None:
    """The notice (naming PIN 2468) came back at every start while the file kept the
    wrong values: the cleaned settings are saved once; a failed save keeps the notice."""
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"pin_salt": "00", "pin_hash": 5, "speech": "off"}))
    first = PrefsFile(path)
    assert first.notice is not None and "PIN 2468" in first.notice
    again = PrefsFile(path)
    assert again.notice is None and again.prefs == first.prefs  # the same salt and hash
    assert again.prefs.speech == "off" and again.prefs.pin_matches(DEFAULT_PIN)
    path.write_text(json.dumps({"muted": "no"}))
    monkeypatch.setattr("tabletop.ui.prefs.os.replace", _refuse)
    assert "muted='no'" in (PrefsFile(path).notice or "")  # not "could not be saved"


def _refuse(*_: object) -> None:
    raise PermissionError(13, "Permission denied")


def test_settings_every_field_has_a_check_and_comes_back_from_the_file(tmp_path) -> None:
    """The checks were a second list of the fields: a field missing there was dropped
    on every load. Each field carries its own; every one survives a save and a load."""
    assert all(callable(f.metadata.get("fits")) for f in dataclasses.fields(Prefs))
    saved = PrefsFile(tmp_path / "settings.json")
    saved.prefs = Prefs(muted=True, dice_input="virtual", speech="on")
    saved.prefs.set_pin("1357")
    assert all(getattr(saved.prefs, f.name) != f.default for f in dataclasses.fields(Prefs))
    saved.save()
    loaded = PrefsFile(tmp_path / "settings.json")
    assert (loaded.prefs, loaded.notice) == (saved.prefs, None)
