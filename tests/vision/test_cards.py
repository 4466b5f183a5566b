"""The card reader: QR decoding, payload parsing, duplicates, every error path."""

from __future__ import annotations

import string
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.engine.cardcodes import BADGE_PREFIX, badge_id
from tabletop.engine.errors import BadInput
from vision.cards import CardCode, parse_payload, problem_text, read_cards
from vision.simulate import card_image, qr_image, table_frame


def qr_frame(payloads: list[str], module_px: int = 4, angle: float = 0.0) -> np.ndarray:
    """A white frame with QR codes side by side, optionally turned."""
    tiles = [
        cv2.resize(qr_image(p), None, fx=module_px, fy=module_px, interpolation=cv2.INTER_NEAREST)
        for p in payloads
    ]
    h = max(t.shape[0] for t in tiles) + 40
    w = sum(t.shape[1] + 20 for t in tiles) + 40
    frame = np.full((h, w), 255, np.uint8)
    x = 20
    for t in tiles:
        frame[20 : 20 + t.shape[0], x : x + t.shape[1]] = t
        x += t.shape[1] + 20
    if angle:
        m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 0.8)
        frame = cv2.warpAffine(frame, m, (w, h), borderValue=255)
    return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)


@pytest.mark.parametrize(
    ("payload", "game", "card", "deck"),
    [
        ("MT1:MWM:C17:3", "MWM", "C17", 3),
        ("MT1:MWM:C100:8", "MWM", "C100", 8),
        ("MT1:MWM:K+10:1", "MWM", "K+10", 1),
        ("MT1:MWM:K-5:3", "MWM", "K-5", 3),
        ("MT1:MWM:KX3:2", "MWM", "KX3", 2),
        ("MT1:MWM:K/2:1", "MWM", "K/2", 1),
        ("MT1:MWM:VIC", "MWM", "VIC", None),
        ("MT1:ATK:+5", "ATK", "+5", None),
        ("MT1:ATK:-10", "ATK", "-10", None),
        ("MT1:ATK:+H", "ATK", "+H", None),
        ("MT1:ATK:-D", "ATK", "-D", None),
        ("MT1:ATK:CANCEL", "ATK", "CANCEL", None),
        ("MT1:ATK:BLOCK:2", "ATK", "BLOCK", 2),
        ("MT1:MECS:0", "MECS", "0", None),
        ("MT1:MECS:X", "MECS", "X", None),
        ("MT1:MECS:DIV", "MECS", "DIV", None),
        ("MT1:MECS:SQRT", "MECS", "SQRT", None),
        ("MT1:MECS:OBJ20", "MECS", "OBJ20", None),
        ("MT1:ARENA:10H", "ARENA", "10H", None),
        ("MT1:ARENA:QS", "ARENA", "QS", None),
        ("MT1:ARENA:AC", "ARENA", "AC", None),
        ("MT1:ID:S042", "ID", "S042", None),
    ],
)
def test_cards_parse_valid_payloads(payload: str, game: str, card: str, deck: int | None) -> None:
    code, problem = parse_payload(payload)
    assert problem is None
    assert code == CardCode(game, card, deck)
    assert code.code == payload
    assert CardCode.parse(payload) == code


@pytest.mark.parametrize(
    "payload",
    [
        "MT1:MWM:C17",  # a count card without its army
        "MT1:MWM:C101:1",
        "MT1:MWM:C0:1",
        "MT1:MWM:C17:9",
        "MT1:MWM:C17:0",
        "MT1:MWM:K*3:1",
        "MT1:MWM:K+11:1",
        "MT1:ATK:+11",
        "MT1:ATK:+X",
        "MT1:MECS:10",
        "MT1:MECS:OBJ21",
        "MT1:ARENA:1H",
        "MT1:ARENA:11S",
        "MT1:ARENA:QX",
        "MT1:ID:",
        "MT1:ID:S1:2",
        "MT1:XYZ:1",
        "MT1:ATK",
        "MT1:ATK:+5:1:2",
        "MT1:atk:+5",  # not QR alphanumeric
        "MT1:ATK:+5 ",
        "MT1:",
    ],
)
def test_cards_parse_malformed_payloads_are_reported(payload: str) -> None:
    assert parse_payload(payload) == (None, "malformed")
    with pytest.raises(BadInput, match="not valid"):
        CardCode.parse(payload)


@pytest.mark.parametrize(
    "payload", ["https://example.org", "", "MT2:ATK:+5", "mt1:ATK:+5", "hello"]
)
def test_cards_parse_foreign_payloads_are_reported(payload: str) -> None:
    assert parse_payload(payload) == (None, "foreign")
    assert "not one of our cards" in problem_text(payload)
    with pytest.raises(BadInput) as err:
        CardCode.parse(payload)
    assert err.value.code == "vision.card_foreign"


def test_cards_read_generated_codes_with_corners() -> None:
    payloads = ["MT1:MWM:C17:3", "MT1:ATK:+5", "https://example.org"]
    frame = qr_frame(payloads)
    found = read_cards(frame)
    assert [c.payload for c in found] == payloads  # left to right
    assert [None if c.card is None else c.card.code for c in found] == [
        "MT1:MWM:C17:3",
        "MT1:ATK:+5",
        None,
    ]
    assert found[2].problem == "foreign"
    for c in found:
        assert len(c.corners) == 4
        xs = [x for x, _ in c.corners]
        assert max(xs) - min(xs) > 50
    assert found[0].as_json()["corners"][0] == [pytest.approx(36, abs=3)] * 2


@pytest.mark.parametrize("backend", ["zxing", "pyzbar", "both"])
def test_cards_every_backend_reads_turned_codes(backend: str) -> None:
    payloads = ["MT1:MECS:7", "MT1:ARENA:10H"]
    found = read_cards(qr_frame(payloads, angle=30), backend)  # type: ignore[arg-type]
    assert sorted(c.payload for c in found) == sorted(payloads)


def test_cards_both_backends_do_not_list_a_code_twice() -> None:
    found = read_cards(qr_frame(["MT1:ATK:FLIP"]), "both")
    assert [c.payload for c in found] == ["MT1:ATK:FLIP"]


def test_cards_a_single_card_seen_twice_is_flagged() -> None:
    found = read_cards(qr_frame(["MT1:MWM:C17:3", "MT1:MWM:C17:3", "MT1:MECS:+", "MT1:MECS:+"]))
    problems = {(c.payload, c.problem) for c in found}
    # Army 3's C17 exists once: both copies are flagged. M.E.C.S. decks hold several "+".
    assert problems == {("MT1:MWM:C17:3", "duplicate"), ("MT1:MECS:+", None)}
    assert len(found) == 4


def test_cards_malformed_payload_in_a_frame_has_no_card() -> None:
    (code,) = read_cards(qr_frame(["MT1:MWM:C999:3"]))
    assert code.card is None
    assert code.problem == "malformed"
    assert code.as_json()["card"] is None


def test_cards_grey_and_bgra_frames_are_read() -> None:
    frame = qr_frame(["MT1:ATK:END"])
    assert read_cards(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))[0].payload == "MT1:ATK:END"
    assert read_cards(cv2.cvtColor(frame, cv2.COLOR_BGR2BGRA))[0].payload == "MT1:ATK:END"


@pytest.mark.parametrize(
    "frame",
    [np.zeros((10, 10), np.float32), np.zeros((10, 10, 2), np.uint8), "not an image", None],
)
def test_cards_bad_frames_are_bad_input(frame: object) -> None:
    with pytest.raises(BadInput):
        read_cards(frame)  # type: ignore[arg-type]


def test_cards_unknown_backend_is_bad_input() -> None:
    with pytest.raises(BadInput, match="unknown QR backend"):
        read_cards(qr_frame(["MT1:ATK:END"]), "opencv")  # type: ignore[arg-type]


def test_cards_empty_frame_has_no_codes() -> None:
    assert read_cards(np.full((720, 1280, 3), 128, np.uint8)) == []


def test_cards_printed_card_face_is_read() -> None:
    card = card_image("MT1:ARENA:QS", px_per_mm=4.0)
    assert [c.payload for c in read_cards(card)] == ["MT1:ARENA:QS"]


def test_cards_synthetic_table_at_1920_reads_all_eight() -> None:
    rng = np.random.default_rng(3)
    payloads = [
        "MT1:MWM:C17:3",
        "MT1:MWM:K-5:3",
        "MT1:ATK:+5",
        "MT1:ATK:CANCEL",
        "MT1:MECS:DIV",
        "MT1:MECS:OBJ12",
        "MT1:ARENA:10H",
        "MT1:ID:S042",
    ]
    frame, placed = table_frame(payloads, rng, (1920, 1080), "perspective")
    assert {c.payload for c in read_cards(frame)} == set(payloads)
    assert len(placed) == 8


def test_cards_read_every_shared_sample_that_bare_zxing_reads(shared: Path) -> None:
    import zxingcpp

    from vision.bench import qr_sample_paths

    samples = qr_sample_paths(shared)
    assert len(samples) >= 100
    missed = []
    bare_count = 0
    for path, expected in samples:
        img = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if expected in {r.text for r in zxingcpp.read_barcodes(img)}:
            bare_count += 1
            if expected not in {c.payload for c in read_cards(img)}:
                missed.append(path.name)
    assert missed == []
    assert bare_count >= 0.85 * len(samples)


def test_cards_quick_pass_reads_the_same_cards_on_camera_frames() -> None:
    """``thorough=False`` (the camera pipeline's pass) reads every card the thorough
    pass reads on camera-like table frames, at both capture sizes."""
    rng = np.random.default_rng(5)
    payloads = ["MT1:MWM:C17:3", "MT1:ATK:+5", "MT1:MECS:DIV", "MT1:ARENA:10H", "MT1:ID:S042"]
    read = 0
    for size in ((1920, 1080), (1280, 720)):
        for style in ("perspective", "camera"):
            frame, _ = table_frame(payloads, rng, size, style)
            thorough = {c.payload for c in read_cards(frame)}
            assert {c.payload for c in read_cards(frame, thorough=False)} == thorough
            read += len(thorough)
    assert read >= 10  # the frames are readable at all


def test_cards_inverted_code_needs_the_thorough_pass() -> None:
    """A light-on-dark code (a photo, never one of our printed cards) is read by the
    thorough pass only: the camera pipeline's quick pass does not look for one."""
    inverted = 255 - qr_frame(["MT1:ATK:END"])
    assert [c.payload for c in read_cards(inverted)] == ["MT1:ATK:END"]
    assert read_cards(inverted, thorough=False) == []
    assert [c.payload for c in read_cards(255 - inverted, thorough=False)] == ["MT1:ATK:END"]


@given(st.text(alphabet=string.ascii_uppercase + string.digits + " $%*+-./", max_size=40))
def test_cards_reader_takes_a_badge_exactly_when_sign_in_does(sid: str) -> None:
    """One rule for a badge (``tabletop.engine.cardcodes``): a payload ``MT1:ID:<id>`` is
    a card to the reader exactly when sign-in reads the same id from it (no space: the
    class list has no such id)."""
    code, _ = parse_payload(BADGE_PREFIX + sid)
    assert (code is not None) == (badge_id(BADGE_PREFIX + sid) == sid)
    assert code is None or code == CardCode("ID", sid)


def test_cards_a_badge_with_a_space_is_malformed() -> None:
    assert parse_payload("MT1:ID:A B") == (None, "malformed")
