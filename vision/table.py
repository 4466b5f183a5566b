"""Table calibration: which seat and which area each card and die lies in.

Printed mats (``tabletop print mats``) carry ArUco markers from OpenCV's DICT_4X4_50:
the mat of seat s (1..8) has ids 4(s-1)..4(s-1)+3 at its top-left, top-right,
bottom-right and bottom-left corners, the shared board (or dice tray) ids 32..35 the
same way; every marker is 30 mm square, 2 mm in from the mat's corner, on a 277 x 190 mm
mat. Each marker seen gives four corner correspondences, so one marker is enough for a
mat's homography (frame pixels -> mat millimetres); more markers make it steadier.
Areas are rectangles in mat millimetres, named in the game's words (``battle_pile``,
``equation_area``, ``reveal_spot``, ``number_line_a``, ``dice_tray``...).

Without mats the frame is cut into equal seat slices (columns by default, or rows).
Within an area, things are ordered left to right *as the seat sees its mat*, so an
equation reads the same whichever side of the table the mat faces.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, TypeVar

import cv2
import numpy as np

from tabletop.engine.errors import BadInput

ARUCO_DICTIONARY = cv2.aruco.DICT_4X4_50
MAT_W_MM, MAT_H_MM = 277.0, 190.0
MARKER_MM = 30.0
MARKER_INSET_MM = 2.0
BOARD = 0  # the "seat" of the shared board / dice tray
BOARD_MARKER_BASE = 32
MAX_SEATS = 8
# Frames are searched for markers at this width: a 30 mm marker on a 60 cm table is
# then 32 px wide, and the search costs 2 ms of a desktop core at 1280x720 (9 ms at 960
# px with OpenCV's default three threshold windows; `tabletop bench --game vision`).
ARUCO_WIDTH = 640
ARUCO_WINDOWS = (3, 13)  # adaptive threshold windows, px (OpenCV's default adds 23)
# Areas where dice are rolled (``print mats mathe-meister``: "ROLL THE DICE HERE"); with
# such a mat in view the dice are looked for only there (and DICE_MARGIN_MM around it,
# so a die on the tray's edge is still seen whole).
DICE_AREAS = ("roll_the_dice_here", "dice_tray")
DICE_MARGIN_MM = 12.0

Rect = tuple[float, float, float, float]  # x, y, w, h in mat millimetres
Box = tuple[int, int, int, int]  # x0, y0, x1, y1 in frame pixels
Point = tuple[float, float]
T = TypeVar("T")


def area_name(label: str) -> str:
    """A printed label as a zone name: ``"BATTLE PILE"`` -> ``"battle_pile"``."""
    return re.sub(r"[^a-z0-9]+", "_", label.lower().split("(")[0]).strip("_")


def marker_ids(mat: int) -> tuple[int, int, int, int]:
    """The four marker ids of a mat (seat 1..8, or BOARD), corners TL, TR, BR, BL."""
    base = BOARD_MARKER_BASE if mat == BOARD else 4 * (mat - 1)
    return (base, base + 1, base + 2, base + 3)


def marker_corners_mm(corner: int) -> np.ndarray:
    """The 4x2 corners (TL, TR, BR, BL) of the marker at a mat corner 0..3, in mm."""
    m, i = MARKER_MM, MARKER_INSET_MM
    x = i if corner in (0, 3) else MAT_W_MM - m - i
    y = i if corner in (0, 1) else MAT_H_MM - m - i
    return np.array([[x, y], [x + m, y], [x + m, y + m], [x, y + m]], np.float32)


def _mat_of(marker_id: int) -> tuple[int, int] | None:
    """(mat, corner) of a marker id, or None if it is not one of ours."""
    if 0 <= marker_id < 4 * MAX_SEATS:
        return marker_id // 4 + 1, marker_id % 4
    if BOARD_MARKER_BASE <= marker_id < BOARD_MARKER_BASE + 4:
        return BOARD, marker_id - BOARD_MARKER_BASE
    return None


@dataclass(frozen=True)
class Zone:
    """Where something lies: a seat (1..8, or 0 for the shared board) and an area."""

    seat: int
    area: str


@dataclass(frozen=True)
class MatPose:
    """One mat found in a frame: its homography from frame pixels to mat millimetres."""

    mat: int
    to_mat: np.ndarray = field(compare=False)
    markers: int

    def to_mm(self, point: Point) -> Point:
        p = cv2.perspectiveTransform(np.array([[point]], np.float32), self.to_mat)[0, 0]
        return float(p[0]), float(p[1])


def search_size(frame_shape: tuple[int, ...]) -> tuple[int, int]:
    """(w, h): the size a whole frame of this shape is searched for markers at."""
    shrink = min(1.0, ARUCO_WIDTH / frame_shape[1])
    return round(frame_shape[1] * shrink), round(frame_shape[0] * shrink)


def searchable(small: np.ndarray, frame_shape: tuple[int, ...]) -> bool:
    """Whether a grey image is the one a frame of that shape is searched at."""
    return small.ndim == 2 and (small.shape[1], small.shape[0]) == search_size(frame_shape)


def find_mats(
    frame: np.ndarray, region: Box | None = None, small: np.ndarray | None = None
) -> list[MatPose]:
    """Every mat whose markers show in a frame (BGR or grey), by mat number; with
    ``region`` (x0, y0, x1, y1), only markers in that part of the frame. ``small``: the
    whole frame already shrunk to :func:`search_size`, grey (the camera's lores image):
    searched as it is, instead of shrinking the frame again."""
    if region is None and small is not None and searchable(small, frame.shape):
        return _poses(small, small.shape[1] / frame.shape[1], (0, 0))
    x0, y0 = 0, 0
    if region is not None:
        x0, y0, x1, y1 = region
        frame = frame[y0:y1, x0:x1]
        if frame.size == 0:
            return []
    grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    shrink = min(1.0, ARUCO_WIDTH / grey.shape[1])
    if shrink < 1.0:
        grey = cv2.resize(grey, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    return _poses(grey, shrink, (x0, y0))


def _poses(grey: np.ndarray, shrink: float, origin: tuple[int, int]) -> list[MatPose]:
    """The mats whose markers show in a grey image shrunk by ``shrink`` from the part of
    the frame at ``origin``."""
    x0, y0 = origin
    corners, ids, _ = _aruco().detectMarkers(grey)
    if ids is None:
        return []
    points: dict[int, tuple[list[np.ndarray], list[np.ndarray]]] = {}
    for c, marker_id in zip(corners, ids.flatten().tolist()):
        where = _mat_of(int(marker_id))
        if where is None:
            continue
        mat, corner = where
        src, dst = points.setdefault(mat, ([], []))
        offset = np.array([x0, y0], np.float32)
        src.append(c.reshape(4, 2).astype(np.float32) / shrink + offset)
        dst.append(marker_corners_mm(corner))
    poses = []
    for mat, (src, dst) in sorted(points.items()):
        h, _ = cv2.findHomography(np.concatenate(src), np.concatenate(dst), 0)
        if h is not None:
            poses.append(MatPose(mat, h, len(src)))
    return poses


@functools.lru_cache(maxsize=1)
def _aruco() -> cv2.aruco.ArucoDetector:
    """The marker detector, made once (its parameters are fixed)."""
    params = cv2.aruco.DetectorParameters()
    params.adaptiveThreshWinSizeMin, params.adaptiveThreshWinSizeMax = ARUCO_WINDOWS
    params.adaptiveThreshWinSizeStep = ARUCO_WINDOWS[1] - ARUCO_WINDOWS[0]
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY), params)


def mat_areas(game: str) -> tuple[dict[str, Rect], dict[str, Rect]]:
    """(seat areas, board areas) of a game's printed mats, as zone name -> rect in mm."""
    from tabletop.printables import mats

    def named(areas: Iterable[mats.Area]) -> dict[str, Rect]:
        return {area_name(a.label): (a.x, a.y, a.w, a.h) for a in areas}

    if game not in mats.MAT_GAMES:
        raise BadInput("vision.game", f"no mats for {game!r}")
    return named(mats.SEAT_AREAS.get(game, ())), named(mats.BOARD_AREAS.get(game, ()))


class Table:
    """Maps frame points to zones, from mats when they show, else from equal slices.

    ``seat_areas`` / ``board_areas``: zone name -> (x, y, w, h) in mat mm (see
    :func:`mat_areas`). ``seats`` and ``slices`` ("columns" or "rows") set the fallback.
    """

    def __init__(
        self,
        seat_areas: Mapping[str, Rect] | None = None,
        board_areas: Mapping[str, Rect] | None = None,
        *,
        seats: int = 2,
        slices: Literal["columns", "rows"] = "columns",
    ) -> None:
        if not 1 <= seats <= MAX_SEATS:
            raise BadInput("vision.seats", f"seats must be 1 to {MAX_SEATS}, not {seats}")
        if slices not in ("columns", "rows"):
            raise BadInput("vision.slices", f"slices are 'columns' or 'rows', not {slices!r}")
        self.seat_areas = dict(seat_areas or {})
        self.board_areas = dict(board_areas or {})
        self.seats = seats
        self.slices = slices
        self.mats: list[MatPose] = []
        self.frame_size: tuple[int, int] = (0, 0)  # (w, h)

    def calibrate(
        self, frame: np.ndarray, region: Box | None = None, small: np.ndarray | None = None
    ) -> list[MatPose]:
        """Find the mats in a frame (only in ``region`` when given: where the frame
        changed; ``small``: see :func:`find_mats`); keep the last poses if none show
        (a hand over them)."""
        self.frame_size = (frame.shape[1], frame.shape[0])
        poses = find_mats(frame, region, small)
        if poses:
            self.mats = poses
        return self.mats

    def marker_boxes(self) -> dict[tuple[int, int], Box]:
        """The frame rectangle of each marker of the calibrated mats, by (mat, corner):
        the poses hold while nothing changes there."""
        w, h = self.frame_size
        out = {}
        for pose in self.mats:
            for corner in range(4):
                x, y = marker_corners_mm(corner)[0]
                pts = _to_frame(pose, (float(x), float(y), MARKER_MM, MARKER_MM))
                out[(pose.mat, corner)] = _clipped_box(pts, w, h)
        return out

    def dice_region(self, margin_mm: float = DICE_MARGIN_MM) -> Box | None:
        """The frame rectangle (x0, y0, x1, y1) around every dice area of the mats in
        view (see :data:`DICE_AREAS`), widened by ``margin_mm``; None when no mat with a
        dice area is calibrated: dice are then looked for in the whole frame."""
        w, h = self.frame_size
        corners = []
        for pose in self.mats:
            areas = self.board_areas if pose.mat == BOARD else self.seat_areas
            for name, (ax, ay, aw, ah) in areas.items():
                if name not in DICE_AREAS:
                    continue
                rect = (ax - margin_mm, ay - margin_mm, aw + 2 * margin_mm, ah + 2 * margin_mm)
                corners.append(_to_frame(pose, rect))
        if not corners or w <= 0 or h <= 0:
            return None
        x0, y0, x1, y1 = _clipped_box(np.concatenate(corners), w, h)
        if x1 - x0 < 2 or y1 - y0 < 2:
            return None  # the tray lies outside the frame: look everywhere
        return x0, y0, x1, y1

    def locate(self, point: Point) -> tuple[Zone, Point] | None:
        """(zone, position in that zone's own coordinates) of a frame point, or None."""
        for pose in self.mats:
            areas = self.board_areas if pose.mat == BOARD else self.seat_areas
            x, y = pose.to_mm(point)
            if not (0 <= x <= MAT_W_MM and 0 <= y <= MAT_H_MM):
                continue
            for name, (ax, ay, aw, ah) in areas.items():
                if ax <= x <= ax + aw and ay <= y <= ay + ah:
                    return Zone(pose.mat, name), (x, y)
            return Zone(pose.mat, "mat"), (x, y)
        if self.mats:
            return None  # mats are calibrated and the point is on none of them
        w, h = self.frame_size
        if w <= 0 or h <= 0:
            raise BadInput("vision.table", "calibrate the table with a frame first")
        along, size = (point[0], w) if self.slices == "columns" else (point[1], h)
        seat = min(self.seats, max(1, int(along * self.seats / size) + 1))
        return Zone(seat, "table"), point

    def place(self, items: Sequence[T], centre: Callable[[T], Point]) -> dict[Zone, list[T]]:
        """Items by zone, each zone's items left to right as its seat sees the mat."""
        placed: dict[Zone, list[tuple[Point, T]]] = {}
        for item in items:
            found = self.locate(centre(item))
            if found is not None:
                zone, pos = found
                placed.setdefault(zone, []).append((pos, item))
        return {
            zone: [item for _, item in sorted(entries, key=lambda e: (e[0][0], e[0][1]))]
            for zone, entries in sorted(placed.items(), key=lambda z: (z[0].seat, z[0].area))
        }


def _to_frame(pose: MatPose, rect: Rect) -> np.ndarray:
    """The four corners of a rectangle in mat millimetres, in frame pixels (4x2)."""
    x, y, w, h = rect
    mm = np.array([[[x, y], [x + w, y], [x + w, y + h], [x, y + h]]], np.float32)
    return cv2.perspectiveTransform(mm, np.linalg.inv(pose.to_mat)).reshape(4, 2)


def _clipped_box(pts: np.ndarray, w: int, h: int) -> Box:
    x0, y0 = (max(0, int(np.floor(v))) for v in pts.min(axis=0))
    x1, y1 = min(w, int(np.ceil(pts[:, 0].max()))), min(h, int(np.ceil(pts[:, 1].max())))
    return x0, y0, x1, y1


def render_mat(mat: int, px_per_mm: float = 3.0) -> np.ndarray:
    """A grey image of a bare mat with its four markers (for tests and the bench)."""
    w, h = round(MAT_W_MM * px_per_mm), round(MAT_H_MM * px_per_mm)
    img = np.full((h, w), 255, np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY)
    side = round(MARKER_MM * px_per_mm)
    for corner, marker_id in enumerate(marker_ids(mat)):
        x, y = marker_corners_mm(corner)[0] * px_per_mm
        marker = cv2.aruco.generateImageMarker(dictionary, marker_id, side, borderBits=1)
        img[round(y) : round(y) + side, round(x) : round(x) + side] = marker
    return img
