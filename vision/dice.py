"""The dice reader: every six-sided die in a frame and the value of its top face.

Two small networks trained on the shared photos by ``tools/train_dice.py`` and run from
ONNX files on one CPU thread (no deep-learning framework on the Pi): by ONNX Runtime,
as int8 copies, when it is installed, else by OpenCV's DNN module (:class:`OnnxNet`):

1. **Detector** (``models/dice_detector.onnx``): the frame scaled so its long side is
   ``long_side`` px (320 by default: dice ~10-35 px there; 640 for a whole 60 cm table
   at 1280x720) goes through a fully convolutional net that outputs, every 4 px, a heat
   map of die centres (peak = a die), the die's size and a sub-cell offset
   (CenterNet-style). Local maxima above :data:`DETECT_THRESHOLD` are candidates.
2. **Reader** (``models/dice_reader.onnx``): each candidate is cut from the
   *full-resolution* frame as a 40x40 colour crop (1.3x its size, so the pips are sharp
   even for small dice) and classified as "not a die" or a face value 1..6. A crop the
   reader is not sure of is looked at again in eight views (four turns, mirrored and
   not) and the probabilities averaged.

A die is reported with ``value=None`` (unreadable, never guessed) when the reader is
not sure (:data:`READ_THRESHOLD`: tilted on another die, blurred by motion, an odd
face), or when its box reaches more than :data:`EDGE_SHARE` of its size past the frame's
edge (half out of view). A candidate the reader calls "not a die" (a side face seen at a
slant, a QR code, a logo) is dropped. Pure functions of a frame: no state, no I/O but
loading the models once.

Measured on the shared photos' held-out part: ``tabletop bench --game vision``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, NamedTuple

import cv2
import numpy as np

from tabletop.assets import package_folder
from tabletop.engine.errors import BadInput, DeviceError

MODEL_DIR = package_folder("vision") / "models"  # package data: a wheel carries them
DETECTOR_FILE = MODEL_DIR / "dice_detector.onnx"
READER_FILE = MODEL_DIR / "dice_reader.onnx"


def int8_name(model: Path) -> str:
    """The file name of a model's int8 copy: ``dice_reader.onnx`` -> ``dice_reader_int8.onnx``."""
    return f"{model.stem}_int8{model.suffix}"


DETECT_LONG_SIDE = 320  # the detector's input: the frame scaled to this long side
DETECT_MULTIPLE = 16  # the detector's input is padded to a multiple of this
STRIDE = 4  # the detector's output cell, in input pixels
CROP_PX = 40  # the reader's input side
CROP_SCALE = 1.3  # the reader sees the die's box widened by this factor

# Chosen on the validation part of the training photos (tools/train_dice.py --stage tune),
# never on the held-out part: 0.6 keeps wrong readings near 0.3% at little cost in dice
# read (unreadable dice are re-rolled or typed; a wrong value would be scored).
DETECT_THRESHOLD = 0.35
NOT_A_DIE_THRESHOLD = 0.5
READ_THRESHOLD = 0.6
EDGE_SHARE = 0.15
SURE = 0.9  # a reading this sure needs no second look
UNSURE = "unsure: tilted, moving or hidden"  # the reason a die under READ_THRESHOLD gives

Box = tuple[float, float, float, float]


class ByteInput(NamedTuple):
    """How an int8 detector that takes the image's bytes wants them (its first step,
    quantizing the normalised image, done by :func:`detector_blob`): the quantization's
    scale and zero point, and the channels (4: B, G, R and one the first convolution
    weighs by zero, so its value does not matter, as ONNX Runtime's int8 convolution is
    faster on 4 than on 3)."""

    scale: float
    zero: int
    channels: int = 3


@dataclass(frozen=True)
class Die:
    """One die found in a frame.

    ``value`` is the top face 1..6, or None when the die is unreadable (``reason`` says
    why). ``box`` is (x0, y0, x1, y1) in frame pixels; ``confidence`` 0..1 is the
    reader's probability for ``value`` (for an unreadable die, for its best guess).
    """

    value: int | None
    box: Box
    confidence: float
    reason: str | None = None

    def as_json(self) -> dict[str, Any]:
        x0, y0, x1, y1 = self.box
        return {
            "value": self.value,
            "box": [round(x0), round(y0), round(x1), round(y1)],
            "confidence": round(self.confidence, 3),
        }


# -- preprocessing, shared with tools/train_dice.py -------------------------------------


def detector_scale(shape: tuple[int, ...], long_side: int = DETECT_LONG_SIDE) -> float:
    return long_side / max(shape[0], shape[1])


def detector_input(
    frame: np.ndarray,
    long_side: int = DETECT_LONG_SIDE,
    scale: float | None = None,
    out: np.ndarray | None = None,
    quant: ByteInput | None = None,
) -> tuple[np.ndarray, float]:
    """(blob, scale): the frame scaled (so its long side is ``long_side``, or by
    ``scale`` when given), padded and normalised (into ``out``; ``quant``: see
    :func:`detector_blob`)."""
    if scale is None:
        scale = detector_scale(frame.shape, long_side)
    h, w = frame.shape[:2]
    sw, sh = max(1, round(w * scale)), max(1, round(h * scale))
    small = cv2.resize(frame, (sw, sh), interpolation=cv2.INTER_AREA)
    return detector_blob(small, out, quant), scale


def detector_blob(
    small: np.ndarray, out: np.ndarray | None = None, quant: ByteInput | None = None
) -> np.ndarray:
    """An already scaled BGR image -> padded, normalised 1x3xHxW float32 blob: the image
    less its mean, over its spread + 8. With ``quant`` (a detector that takes bytes,
    :attr:`OnnxNet.byte_input`), those values quantized as the int8 copy's first step
    does, in the image's own layout: 1xHxWxC uint8 (a fourth channel holds 255, which
    the detector weighs by zero). Written into ``out`` when it has the blob's shape (a
    buffer kept from the last frame: no new memory per frame)."""
    sh, sw = small.shape[:2]
    ph = -sh % DETECT_MULTIPLE
    pw = -sw % DETECT_MULTIPLE
    if ph or pw:
        small = cv2.copyMakeBorder(small, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
    m, sd = cv2.meanStdDev(small.reshape(-1, 1))
    # Each of the 256 grey levels normalised once (the same float32 steps as on every
    # pixel), then looked up: one pass over the image instead of three.
    table = np.arange(256, dtype=np.float32)
    table -= float(m[0, 0])
    table *= 1.0 / (float(sd[0, 0]) + 8.0)
    if quant is not None:
        # ONNX QuantizeLinear: round half to even, then saturate.
        levels = np.clip(np.rint(table / np.float32(quant.scale)) + quant.zero, 0, 255)
        shape: tuple[int, ...] = (1, *small.shape[:2], quant.channels)
        if out is None or out.shape != shape or out.dtype != np.uint8:
            out = np.empty(shape, np.uint8)
        if quant.channels == 3:
            cv2.LUT(small, levels.astype(np.uint8), dst=out[0])
        else:  # the fourth channel (255) is weighed by zero: any value gives the same
            looked_up = cv2.LUT(small, levels.astype(np.uint8))
            cv2.cvtColor(looked_up, cv2.COLOR_BGR2BGRA, dst=out[0])
        return out
    shape = (1, 3, sh + ph, sw + pw)
    if out is None or out.shape != shape or out.dtype != np.float32:
        out = np.empty(shape, np.float32)
    for c, plane in enumerate(cv2.split(small)):
        cv2.LUT(plane, table, dst=out[0, c])
    return out


def crop_matrix(cx: float, cy: float, side: float, angle: float = 0.0) -> np.ndarray:
    """The affine map from the frame to a reader crop around (cx, cy), turned by angle."""
    s = CROP_PX / max(1.0, side * CROP_SCALE)
    m = cv2.getRotationMatrix2D((cx, cy), angle, s)
    m[0, 2] += CROP_PX / 2 - cx
    m[1, 2] += CROP_PX / 2 - cy
    return m


def reader_crop(
    frame: np.ndarray, cx: float, cy: float, side: float, angle: float = 0.0
) -> np.ndarray:
    """A CROP_PX square BGR uint8 crop of one die (pixels outside the frame repeat the edge)."""
    m = crop_matrix(cx, cy, side, angle)
    return cv2.warpAffine(
        frame, m, (CROP_PX, CROP_PX), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def normalise_crops(crops: np.ndarray) -> np.ndarray:
    """Nx40x40x3 uint8 -> Nx3x40x40 float32, each crop to zero mean and unit spread."""
    x = crops.astype(np.float32)
    mean = x.mean(axis=(1, 2, 3), keepdims=True)
    std = x.std(axis=(1, 2, 3), keepdims=True)
    x = (x - mean) / (std + 8.0)
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2))


def decode_heatmap(
    out: np.ndarray, scale: float, threshold: float = DETECT_THRESHOLD
) -> list[tuple[float, float, float, float]]:
    """Detector output 1x4xhxw -> [(cx, cy, side, score)] in frame pixels."""
    heat = out[0, 0]
    peaks = cv2.dilate(heat, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((heat >= peaks) & (heat >= threshold))
    found = []
    for y, x in zip(ys.tolist(), xs.tolist()):
        side = float(np.exp(out[0, 1, y, x])) / scale
        cx = (x + float(out[0, 2, y, x])) * STRIDE / scale
        cy = (y + float(out[0, 3, y, x])) * STRIDE / scale
        found.append((cx, cy, side, float(heat[y, x])))
    found.sort(key=lambda f: -f[3])
    # Two peaks closer than half a die are one die.
    kept: list[tuple[float, float, float, float]] = []
    for f in found:
        if all(
            (f[0] - k[0]) ** 2 + (f[1] - k[1]) ** 2 > (0.5 * max(f[2], k[2])) ** 2 for k in kept
        ):
            kept.append(f)
    return kept


# -- the networks ------------------------------------------------------------------------

Runtime = Literal["auto", "onnxruntime", "opencv"]


class OnnxNet:
    """One ONNX network run on the calling thread, one CPU core: by ONNX Runtime when it
    is installed ("auto"; about twice as fast as OpenCV's DNN module on these networks,
    `tabletop bench --game vision`), else by OpenCV's DNN module. Both give the same
    outputs (to 1e-6) from the same file. With ONNX Runtime and ``int8``, the network's
    int8 copy beside it (:func:`int8_name`, made by ``tools/train_dice.py --stage
    quantize``) is run when there is one: as accurate on the held-out photos, and
    faster again (OpenCV's DNN module cannot run the int8 reader)."""

    def __init__(self, path: Path, runtime: Runtime = "auto", int8: bool = True) -> None:
        self.path = path
        # An int8 copy that takes the image's bytes: how (see ByteInput); else None.
        self.byte_input: ByteInput | None = None
        self._session: Any = None
        self._net: Any = None
        if runtime in ("auto", "onnxruntime"):
            try:
                import onnxruntime  # type: ignore[import-untyped]
            except ImportError:
                if runtime == "onnxruntime":
                    raise DeviceError(
                        "vision.runtime", "ONNX Runtime is not installed: pip install onnxruntime"
                    ) from None
            else:
                options = onnxruntime.SessionOptions()
                options.intra_op_num_threads = 1
                options.inter_op_num_threads = 1
                options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
                options.log_severity_level = 3
                quantized = path.with_name(int8_name(path))
                if int8 and quantized.exists():
                    self.path = quantized
                self._session = onnxruntime.InferenceSession(
                    str(self.path), options, providers=["CPUExecutionProvider"]
                )
                first = self._session.get_inputs()[0]
                self._input = first.name
                if first.type == "tensor(uint8)":
                    meta = self._session.get_modelmeta().custom_metadata_map
                    self.byte_input = ByteInput(
                        float(meta["input_scale"]),
                        int(meta["input_zero_point"]),
                        int(first.shape[3]),
                    )
                self.runtime = "onnxruntime"
                return
        self._net = cv2.dnn.readNetFromONNX(str(path))
        self.runtime = "opencv"

    def run(self, x: np.ndarray) -> np.ndarray:
        """The network's output for one input blob (float32, NCHW; or uint8, NHWC, when
        it takes bytes: :attr:`byte_input`)."""
        if self._session is not None:
            out: np.ndarray = self._session.run(None, {self._input: x})[0]
            return out
        self._net.setInput(x)
        result: np.ndarray = self._net.forward()
        return result


# -- the reader --------------------------------------------------------------------------


class DiceReader:
    """The two networks, loaded once. Not thread-safe: one per thread."""

    def __init__(
        self,
        detector: Path = DETECTOR_FILE,
        reader: Path = READER_FILE,
        *,
        detect_threshold: float = DETECT_THRESHOLD,
        read_threshold: float = READ_THRESHOLD,
        long_side: int = DETECT_LONG_SIDE,
        runtime: Runtime = "auto",
        int8: bool = True,
    ) -> None:
        for path in (detector, reader):
            if not path.exists():
                raise DeviceError(
                    "vision.model_missing",
                    f"the dice model {path} is missing: reinstall, or run tools/train_dice.py",
                )
        self.detector = OnnxNet(detector, runtime, int8)
        self.reader = OnnxNet(reader, runtime, int8)
        self.detect_threshold = detect_threshold
        self.read_threshold = read_threshold
        self.long_side = long_side
        self._blob: np.ndarray | None = None

    def candidates(
        self, frame: np.ndarray, scale: float | None = None
    ) -> list[tuple[float, float, float, float]]:
        """Detector peaks [(cx, cy, side, score)] in frame pixels; ``scale``: see
        :meth:`read`."""
        quant = self.detector.byte_input
        blob, scale = detector_input(frame, self.long_side, scale, self._blob, quant)
        self._blob = blob  # reused by the next frame of the same size
        out = self.detector.run(blob)
        return decode_heatmap(out, scale, self.detect_threshold)

    def classify(self, crops: np.ndarray) -> np.ndarray:
        """Nx40x40x3 crops -> Nx7 probabilities (not a die, 1..6).

        Each crop is seen once; a crop the reader is not sure of (best class under
        :data:`SURE`) is seen in eight views (four turns, mirrored and not) and the
        probabilities averaged: the cost of a second look goes only where it helps.
        """
        if len(crops) == 0:
            return np.zeros((0, 7), np.float32)
        probs = self._forward(crops)
        unsure = np.flatnonzero(probs.max(axis=1) < SURE)
        if len(unsure):
            c = crops[unsure]
            views = [np.rot90(v, k, axes=(1, 2)) for v in (c, c[:, :, ::-1]) for k in range(4)]
            more = self._forward(np.concatenate(views[1:]))
            stacked = np.concatenate([probs[unsure][None], more.reshape(7, len(c), 7)])
            probs[unsure] = stacked.mean(axis=0)
        return probs

    def _forward(self, crops: np.ndarray) -> np.ndarray:
        logits = self.reader.run(normalise_crops(crops)).reshape(len(crops), 7)
        logits = logits - logits.max(axis=1, keepdims=True)
        probs: np.ndarray = np.exp(logits)
        probs /= probs.sum(axis=1, keepdims=True)
        return probs

    def read(
        self,
        frame: np.ndarray,
        scale: float | None = None,
        skip: Sequence[np.ndarray] = (),
    ) -> list[Die]:
        """Every die in a BGR frame, left to right.

        The detector sees the frame scaled so its long side is ``long_side``, or by
        ``scale`` when given: a part cut out of a larger frame (the dice tray) keeps the
        whole frame's scale, so its dice keep the size the detector expects. ``skip``:
        polygons (Nx2 frame points: the QR codes already read) where no die is looked
        at, as nothing on a code is a die; the reader's time goes to the dice.
        """
        frame = as_bgr(frame)
        found = [
            f
            for f in self.candidates(frame, scale)
            if not any(cv2.pointPolygonTest(p, (f[0], f[1]), False) >= 0 for p in skip)
        ]
        crops = (
            np.stack([reader_crop(frame, cx, cy, side) for cx, cy, side, _ in found])
            if found
            else np.zeros((0, CROP_PX, CROP_PX, 3), np.uint8)
        )
        probs = self.classify(crops)
        h, w = frame.shape[:2]
        dice = []
        for (cx, cy, side, _), p in zip(found, probs):
            if p[0] >= NOT_A_DIE_THRESHOLD:
                continue
            value = int(np.argmax(p[1:])) + 1
            conf = float(p[value])
            half = side / 2
            box = (cx - half, cy - half, cx + half, cy + half)
            reason = None
            # The box is a little larger than the die: half out of view is a box more
            # than EDGE_SHARE of its size beyond the frame's edge.
            out = EDGE_SHARE * side
            if box[0] < -out or box[1] < -out or box[2] > w + out or box[3] > h + out:
                reason = "half out of view"
            elif conf < self.read_threshold:
                reason = UNSURE
            clipped = (
                max(0.0, box[0]),
                max(0.0, box[1]),
                min(float(w), box[2]),
                min(float(h), box[3]),
            )
            dice.append(Die(None if reason else value, clipped, conf, reason))
        dice.sort(key=lambda d: (d.box[0], d.box[1]))
        return dice


@functools.lru_cache(maxsize=1)
def default_reader() -> DiceReader:
    """The bundled models, loaded once per process."""
    return DiceReader()


def read_dice(frame: np.ndarray, reader: DiceReader | None = None) -> list[Die]:
    """Every die in a frame (BGR, or grey), left to right: see :class:`Die`."""
    return (reader or default_reader()).read(frame)


def as_bgr(frame: np.ndarray) -> np.ndarray:
    """A frame as 8-bit BGR; grey and BGRA frames are converted, anything else refused."""
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8:
        raise BadInput("vision.frame", "a frame must be an 8-bit image array")
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.ndim == 3 and frame.shape[2] == 3:
        return frame
    if frame.ndim == 3 and frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    raise BadInput("vision.frame", f"a frame must be grey, BGR or BGRA, not shape {frame.shape}")
