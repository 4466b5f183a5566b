"""Seat zones from ArUco mats on synthetic tables, and equal slices without mats."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tabletop.engine.errors import BadInput
from vision.table import (
    BOARD,
    MAT_H_MM,
    MAT_W_MM,
    Table,
    Zone,
    area_name,
    find_mats,
    marker_ids,
    render_mat,
    search_size,
)

PX = 2.0  # mat pixels per mm in the synthetic frames
AREAS = {"battle_pile": (108.0, 42.0, 66.0, 91.0), "spoils_pile": (178.0, 42.0, 66.0, 91.0)}


def table_with_mats(
    placements: dict[int, tuple[float, float, float]], size=(1600, 900)
) -> tuple[np.ndarray, dict[int, np.ndarray]]:
    """Mats at (x, y, angle) in a grey frame; returns the frame and mat-mm -> frame maps."""
    frame = np.full((size[1], size[0]), 150, np.uint8)
    maps = {}
    for mat, (x, y, angle) in placements.items():
        img = render_mat(mat, PX)
        h, w = img.shape
        m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
        m[0, 2] += x - w / 2
        m[1, 2] += y - h / 2
        warped = cv2.warpAffine(img, m, size, borderValue=0)
        mask = cv2.warpAffine(np.full_like(img, 255), m, size, borderValue=0)
        frame[mask > 0] = warped[mask > 0]
        scale = np.array([[PX, 0, 0], [0, PX, 0], [0, 0, 1]])
        maps[mat] = np.vstack([m, [0, 0, 1]]) @ scale
    return frame, maps


def to_frame(
    maps: dict[int, np.ndarray], mat: int, x_mm: float, y_mm: float
) -> tuple[float, float]:
    p = maps[mat] @ np.array([x_mm, y_mm, 1.0])
    return float(p[0] / p[2]), float(p[1] / p[2])


def test_table_marker_ids_follow_the_printed_convention() -> None:
    assert marker_ids(1) == (0, 1, 2, 3)
    assert marker_ids(8) == (28, 29, 30, 31)
    assert marker_ids(BOARD) == (32, 33, 34, 35)
    assert area_name("BATTLE PILE") == "battle_pile"
    assert area_name("YOUR HAND (keep it hidden)") == "your_hand"
    assert area_name("MATH CRATE BATTLE & DISCARD") == "math_crate_battle_discard"


def test_table_finds_two_mats_and_their_areas() -> None:
    frame, maps = table_with_mats({1: (400, 450, 0), 2: (1200, 450, 180)})
    poses = find_mats(frame)
    assert [p.mat for p in poses] == [1, 2]
    assert all(p.markers == 4 for p in poses)
    x, y = poses[0].to_mm(to_frame(maps, 1, 140, 80))
    assert (x, y) == (pytest.approx(140, abs=2), pytest.approx(80, abs=2))
    table = Table(AREAS)
    table.calibrate(frame)
    zone, _ = table.locate(to_frame(maps, 2, 140, 80))  # type: ignore[misc]
    assert zone == Zone(2, "battle_pile")
    zone, _ = table.locate(to_frame(maps, 1, 200, 100))  # type: ignore[misc]
    assert zone == Zone(1, "spoils_pile")
    zone, _ = table.locate(to_frame(maps, 1, 60, 170))  # type: ignore[misc]
    assert zone == Zone(1, "mat")
    assert table.locate((800, 20)) is None  # between the mats


def test_table_orders_cards_left_to_right_as_the_seat_sees_them() -> None:
    # Seat 2's mat faces the other way: its left is the frame's right.
    frame, maps = table_with_mats({1: (400, 450, 0), 2: (1200, 450, 180)})
    table = Table({"equation_area": (38.0, 42.0, 201.0, 91.0)})
    table.calibrate(frame)
    items = [
        ("9", to_frame(maps, 2, 60, 80)),
        ("X", to_frame(maps, 2, 120, 80)),
        ("7", to_frame(maps, 2, 180, 80)),
    ]
    items += [("1", to_frame(maps, 1, 150, 90)), ("2", to_frame(maps, 1, 70, 90))]
    placed = table.place(items, lambda item: item[1])
    assert [v for v, _ in placed[Zone(2, "equation_area")]] == ["9", "X", "7"]
    assert [v for v, _ in placed[Zone(1, "equation_area")]] == ["2", "1"]
    assert to_frame(maps, 2, 60, 80)[0] > to_frame(maps, 2, 180, 80)[0]


def test_table_one_marker_is_enough_and_poses_survive_a_hand() -> None:
    frame, maps = table_with_mats({3: (800, 450, 15)})
    # Cover three of the four markers.
    for corner in ((0, 0), (MAT_W_MM - 32, 0), (MAT_W_MM - 32, MAT_H_MM - 32)):
        x, y = to_frame(maps, 3, corner[0] + 16, corner[1] + 16)
        cv2.circle(frame, (round(x), round(y)), 60, 90, -1)
    table = Table(AREAS)
    poses = table.calibrate(frame)
    assert [(p.mat, p.markers) for p in poses] == [(3, 1)]
    zone, _ = table.locate(to_frame(maps, 3, 140, 80))  # type: ignore[misc]
    assert zone == Zone(3, "battle_pile")
    table.calibrate(np.full_like(frame, 150))  # nothing seen: keep the last poses
    assert [p.mat for p in table.mats] == [3]


def test_table_board_mat_is_seat_zero() -> None:
    frame, maps = table_with_mats({BOARD: (800, 450, 0)})
    table = Table(board_areas={"dice_tray": (38.0, 36.0, 201.0, 150.0)})
    table.calibrate(frame)
    zone, _ = table.locate(to_frame(maps, BOARD, 100, 100))  # type: ignore[misc]
    assert zone == Zone(BOARD, "dice_tray")


def test_table_without_mats_uses_equal_slices() -> None:
    table = Table(seats=4)
    table.calibrate(np.full((720, 1280, 3), 120, np.uint8))
    seats = [table.locate((x, 300))[0].seat for x in (10, 330, 700, 1279)]  # type: ignore[index]
    assert seats == [1, 2, 3, 4]
    rows = Table(seats=2, slices="rows")
    rows.calibrate(np.full((720, 1280, 3), 120, np.uint8))
    assert rows.locate((600, 100))[0] == Zone(1, "table")  # type: ignore[index]
    assert rows.locate((600, 700))[0] == Zone(2, "table")  # type: ignore[index]
    placed = table.place([(1000, 5), (700, 5), (10, 5), (900, 5)], lambda p: p)
    assert placed[Zone(3, "table")] == [(700, 5), (900, 5)]
    assert list(placed) == [Zone(1, "table"), Zone(3, "table"), Zone(4, "table")]


def test_table_bad_settings_are_bad_input() -> None:
    with pytest.raises(BadInput):
        Table(seats=0)
    with pytest.raises(BadInput):
        Table(seats=9)
    with pytest.raises(BadInput):
        Table(slices="diagonal")  # type: ignore[arg-type]
    with pytest.raises(BadInput, match="calibrate"):
        Table().locate((1, 1))


def test_table_markers_are_searched_on_a_lores_image_of_the_search_size() -> None:
    """The camera's lores image, when it is the image the search would shrink the frame
    to, is searched as it is (same poses, no second shrink); one of another size, or a
    colour one, is not used and the frame is searched."""
    frame, maps = table_with_mats({1: (400, 450, 0), 2: (1200, 450, 180)})
    w, h = search_size(frame.shape)
    assert (w, h) == (640, 360)
    lores = cv2.resize(frame, (w, h), interpolation=cv2.INTER_AREA)
    want = find_mats(frame)
    got = find_mats(frame, small=lores)
    assert [(p.mat, p.markers) for p in want] == [(1, 4), (2, 4)]
    assert [(p.mat, p.markers) for p in got] == [(1, 4), (2, 4)]
    assert all(np.allclose(a.to_mat, b.to_mat) for a, b in zip(got, want))
    blank = np.full((h, w), 150, np.uint8)
    assert find_mats(frame, small=blank) == []  # the lores image is what was searched
    for other in (np.full((180, 320), 150, np.uint8), np.full((h, w, 3), 150, np.uint8)):
        assert [p.mat for p in find_mats(frame, small=other)] == [1, 2]
    table = Table(AREAS)
    table.calibrate(frame, small=lores)
    zone, _ = table.locate(to_frame(maps, 2, 140, 80))  # type: ignore[misc]
    assert zone == Zone(2, "battle_pile")
