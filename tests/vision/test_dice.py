"""The dice reader: the VIS-2 floors on the held-out photos, and its refusals.

Floors (RULINGS.md VIS-2), on every fifth photo of each shared set, never used in
training or tuning, scored per VIS-1 (a found die matches the label whose box holds its
centre): read wrong <= 0.5% of labelled dice; false dice <= 1%; asked again (reported
unreadable) <= 2%; read right >= 99.5% (white set) and >= 96% (mixed set) of the dice
whose label box lies wholly inside the photo.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tabletop.engine.errors import BadInput, DeviceError
from tests.vision.conftest import REPO, SAMPLES
from tests.vision.test_cli import sample_labels
from vision import datasets
from vision.dice import DiceReader, read_dice

# The floors not met yet, measured with the shipped models (`tabletop bench --game
# vision`, VIS-1 scoring). strict: the day a floor is met its mark must go. What the
# misses are is in vision/models/README.md.
SHORT_OF_FLOOR = {
    ("matteop65", "read_right"): "VIS-2 white read right 98.44% (189 of 192; 99.5% allows "
    "no miss): the three touching, slanted dice of dice_20.jpg, 3 not found",
}
FLOORS = ("read_right", "read_wrong", "asked_again", "false_dice")


def _floor_cases() -> list[object]:
    cases: list[object] = []
    for name in datasets.DICE_SETS:
        for floor in FLOORS:
            why = SHORT_OF_FLOOR.get((name, floor))
            marks = [pytest.mark.xfail(strict=True, reason=why)] if why else []
            cases.append(pytest.param(name, floor, marks=marks, id=f"{name}-{floor}"))
    return cases


@pytest.mark.parametrize(("name", "floor"), _floor_cases())
def test_dice_vis2_floor_on_held_out_photos(
    held_out_scores: dict[str, datasets.DiceScore], name: str, floor: str
) -> None:
    """VIS-2: each floor on each set's held-out part (every fifth photo)."""
    score = held_out_scores[name]
    assert score.labelled >= {"matteop65": 150, "byler": 250}[name]
    assert (
        datasets.READ_RIGHT_FLOOR,
        datasets.READ_WRONG_FLOOR,
        datasets.ASKED_AGAIN_FLOOR,
        datasets.FALSE_DICE_FLOOR,
    ) == ({"matteop65": 99.5, "byler": 96.0}, 0.5, 2.0, 1.0)
    figure = {
        "read_right": score.read_right_pct >= datasets.READ_RIGHT_FLOOR[name],
        "read_wrong": score.wrong_pct <= datasets.READ_WRONG_FLOOR,
        "asked_again": score.asked_again_pct <= datasets.ASKED_AGAIN_FLOOR,
        "false_dice": score.false_pct <= datasets.FALSE_DICE_FLOOR,
    }
    assert figure[floor], score.figures()


def test_dice_held_out_part_is_every_fifth_photo(shared: Path) -> None:
    images = datasets.load_set("byler", shared)
    train, held = datasets.split(images)
    assert len(images) == 200 and len(held) == 40 and len(train) == 160
    assert held[0] == images[4] and held[1] == images[9]
    assert not set(train) & set(held)
    white = datasets.load_set("matteop65", shared)
    assert [im.path.name for im in white[:3]] == ["dice_1.jpg", "dice_2.jpg", "dice_3.jpg"]
    assert sum(len(im.dice) for im in white) == 951


def test_dice_vis1_a_die_matches_the_label_holding_its_centre() -> None:
    """VIS-1: centre in the label's box, for both sets, whatever the boxes' overlap."""
    die = datasets.LabelledDie(3, (100.0, 100.0, 140.0, 140.0))
    assert datasets.match([die], [(102.0, 98.0, 141.0, 139.0)]) == [(0, 0)]
    # a found box much larger than the label (IoU 0.25) still matches: its centre is in
    assert datasets.match([die], [(80.0, 80.0, 160.0, 160.0)]) == [(0, 0)]
    # a small found box whose centre lies in the label's box matches too
    assert datasets.match([die], [(130.0, 130.0, 138.0, 138.0)]) == [(0, 0)]
    assert datasets.match([die], [(130.0, 80.0, 210.0, 160.0)]) == []  # centre outside
    two = [die, datasets.LabelledDie(4, (150.0, 100.0, 190.0, 140.0))]
    assert sorted(
        datasets.match(two, [(150.0, 100.0, 190.0, 140.0), (100.0, 100.0, 140.0, 140.0)])
    ) == [(0, 1), (1, 0)]


def test_dice_vis1_nearest_centre_wins_where_several_could() -> None:
    """Overlapping label boxes both hold a die's centre: the nearer label takes it, and
    the other label is left for a die of its own (or is not found)."""
    a = datasets.LabelledDie(2, (0.0, 0.0, 40.0, 40.0))  # centre (20, 20)
    b = datasets.LabelledDie(5, (20.0, 0.0, 60.0, 40.0))  # centre (40, 20)
    near_b = (22.0, 2.0, 62.0, 38.0)  # centre (42, 20): in both boxes, nearer b
    assert datasets.match([a, b], [near_b]) == [(1, 0)]
    near_a = (0.0, 0.0, 46.0, 40.0)  # centre (23, 20): in both, nearer a
    assert sorted(datasets.match([a, b], [near_b, near_a])) == [(0, 1), (1, 0)]
    # two dice in one label box: the nearer is matched, the other is a false die
    one = datasets.LabelledImage(Path("z.jpg"), "byler", (a,), (640, 640))
    score = datasets.DiceScore()
    score.add(one, [((0.0, 0.0, 40.0, 40.0), 2, None), ((24.0, 24.0, 36.0, 36.0), 2, None)])
    assert (score.read_right, score.false_dice) == (1, 1)


def test_dice_vis1_each_die_is_right_wrong_asked_again_or_not_found() -> None:
    dice = (
        datasets.LabelledDie(3, (100.0, 100.0, 140.0, 140.0)),
        datasets.LabelledDie(4, (150.0, 100.0, 190.0, 140.0)),
        datasets.LabelledDie(6, (200.0, 100.0, 240.0, 140.0)),
        datasets.LabelledDie(1, (300.0, 100.0, 340.0, 140.0)),
        datasets.LabelledDie(2, (400.0, 100.0, 440.0, 140.0)),
    )
    image = datasets.LabelledImage(Path("x.jpg"), "byler", dice, (640, 640))
    score = datasets.DiceScore()
    score.add(
        image,
        [
            ((100.0, 100.0, 140.0, 140.0), 3, None),  # right
            ((150.0, 100.0, 190.0, 140.0), None, "unsure: tilted, moving or hidden"),
            ((200.0, 100.0, 240.0, 140.0), 5, None),  # wrong
            ((300.0, 100.0, 340.0, 140.0), None, "half out of view"),
            ((0.0, 0.0, 9.0, 9.0), 2, None),  # false
        ],
    )
    assert (score.read_right, score.read_wrong, score.asked_again) == (1, 1, 2)
    assert (score.not_found, score.false_dice, score.matched) == (1, 1, 4)
    assert score.reasons == {"half out of view": 1, "unsure: tilted, moving or hidden": 1}
    assert score.read_right_pct == 20.0 and score.wrong_pct == 20.0
    assert score.asked_again_pct == 40.0 and score.false_pct == 20.0
    assert score.photos == [(5, 5, 1, 1, 2, 1)]
    # One photo: every resample is that photo, so each interval is the figure itself.
    assert score.intervals() == {
        "read_right_ci95_pct": [20.0, 20.0],
        "read_wrong_ci95_pct": [20.0, 20.0],
        "asked_again_ci95_pct": [40.0, 40.0],
        "false_dice_ci95_pct": [20.0, 20.0],
    }
    assert score.floors("byler") == {
        "read_right_at_least_96.0%": False,
        "read_wrong_at_most_0.5%": False,
        "asked_again_at_most_2.0%": False,
        "false_dice_at_most_1.0%": False,
    }


def test_dice_vis2_dice_cut_by_the_edge_leave_only_the_read_right_denominator() -> None:
    """A label box reaching the photo's edge is a die cut by it: it leaves the read
    right share's denominator, and counts in every other figure."""
    dice = (
        datasets.LabelledDie(3, (100.0, 100.0, 140.0, 140.0)),
        datasets.LabelledDie(4, (600.0, 300.0, 640.0, 340.0)),  # cut by the right edge
        datasets.LabelledDie(5, (300.0, 449.0, 334.0, 479.0)),  # cut by the bottom (480)
    )
    image = datasets.LabelledImage(Path("e.jpg"), "matteop65", dice, (640, 480))
    score = datasets.DiceScore()
    score.add(
        image,
        [
            ((100.0, 100.0, 140.0, 140.0), 3, None),
            ((600.0, 300.0, 640.0, 340.0), None, "half out of view"),
        ],
    )
    assert (score.labelled, score.inside, score.read_right_inside) == (3, 1, 1)
    assert score.read_right_pct == 100.0
    assert score.asked_again == 1 and score.not_found == 1
    assert score.asked_again_pct == pytest.approx(100 / 3)
    assert datasets.wholly_inside((1.5, 1.5, 638.0, 478.0), (640, 480))
    assert not datasets.wholly_inside((0.0, 10.0, 30.0, 40.0), (640, 480))


def test_dice_floor_pass_chance_is_the_binomial_tail() -> None:
    """99.5% of 192 dice allows no miss: a reader right on exactly 99.5% of dice reads
    all 192 with chance 0.995^192 (about 38%)."""
    assert datasets.pass_chance(192, 99.5) == pytest.approx(0.995**192)
    assert datasets.pass_chance(192, 99.5) == pytest.approx(0.382, abs=0.001)
    # at most 1% of 274 false: 0, 1 or 2 of them
    p = 0.01
    two_at_most = sum(math.comb(274, k) * p**k * (1 - p) ** (274 - k) for k in range(3))
    assert datasets.pass_chance(274, 1.0, at_most=True) == pytest.approx(two_at_most)
    assert datasets.pass_chance(10, 100.0) == pytest.approx(1.0)


@pytest.fixture(scope="module")
def sample() -> tuple[np.ndarray, list[int]]:
    name, values = sample_labels()[0]
    return cv2.imread(str(SAMPLES / name), cv2.IMREAD_COLOR), values


def test_dice_reads_a_sample_with_boxes_and_confidence(
    reader: DiceReader, sample: tuple[np.ndarray, list[int]]
) -> None:
    frame, values = sample
    dice = read_dice(frame, reader)
    assert sorted(d.value for d in dice) == values  # type: ignore[type-var]
    assert [d.box[0] for d in dice] == sorted(d.box[0] for d in dice)  # left to right
    for d in dice:
        assert d.reason is None and 0.5 < d.confidence <= 1.0
        x0, y0, x1, y1 = d.box
        assert 10 < x1 - x0 < 200 and 10 < y1 - y0 < 200
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    assert len(read_dice(grey, reader)) == len(dice)


def test_dice_half_out_of_view_is_unreadable(
    reader: DiceReader, sample: tuple[np.ndarray, list[int]]
) -> None:
    frame, _ = sample
    dice = read_dice(frame, reader)
    x0, _y0, x1, _y1 = dice[0].box
    cut = frame[:, round((x0 + x1) / 2) - 2 :]  # the left die cut through its middle
    seen = read_dice(cut, reader)
    at_edge = [d for d in seen if d.box[0] < 3]
    assert all(d.value is None and d.reason == "half out of view" for d in at_edge)
    assert all(d.value is not None for d in seen if d.box[0] >= 3)


def test_dice_moving_dice_are_not_guessed(
    reader: DiceReader, sample: tuple[np.ndarray, list[int]]
) -> None:
    frame, values = sample
    k = 31
    kernel = np.zeros((k, k), np.float32)
    kernel[k // 2, :] = 1.0 / k
    smeared = cv2.filter2D(frame, -1, kernel)  # a die rolling fast across the frame
    for d in read_dice(smeared, reader):
        assert d.value is None or d.value in values


def test_dice_an_empty_table_has_no_dice(reader: DiceReader) -> None:
    rng = np.random.default_rng(0)
    wood = np.clip(rng.normal(170, 6, (480, 640, 3)), 0, 255).astype(np.uint8)
    assert read_dice(wood, reader) == []
    assert read_dice(np.zeros((480, 640, 3), np.uint8), reader) == []


@pytest.mark.parametrize(
    "frame", [np.zeros((10, 10), np.float64), np.zeros((8, 8, 5), np.uint8), [1, 2]]
)
def test_dice_bad_frames_are_bad_input(reader: DiceReader, frame: object) -> None:
    with pytest.raises(BadInput):
        read_dice(frame, reader)  # type: ignore[arg-type]


def test_dice_missing_model_is_a_device_error(tmp_path: Path) -> None:
    with pytest.raises(DeviceError, match="dice model"):
        DiceReader(detector=tmp_path / "none.onnx")


def test_dice_models_are_small_and_need_no_torch() -> None:
    from vision.dice import DETECTOR_FILE, READER_FILE

    assert DETECTOR_FILE.stat().st_size + READER_FILE.stat().st_size < 5 * 1024 * 1024
    import subprocess
    import sys

    code = "import sys, vision.dice as d; d.default_reader(); print('torch' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "False", done.stderr


def test_dice_both_runtimes_read_the_same(sample: tuple[np.ndarray, list[int]]) -> None:
    """ONNX Runtime and OpenCV's DNN module run the same float model to the same dice;
    the int8 copies (ONNX Runtime only) read the sample's dice alike."""
    frame, values = sample
    opencv = DiceReader(runtime="opencv")
    floats = DiceReader(runtime="onnxruntime", int8=False)
    int8 = DiceReader(runtime="onnxruntime")
    assert (opencv.detector.runtime, floats.detector.runtime) == ("opencv", "onnxruntime")
    a, b = opencv.read(frame), floats.read(frame)
    assert [d.value for d in a] == [d.value for d in b]
    for x, y in zip(a, b):
        assert x.box == pytest.approx(y.box, abs=1e-3)
        assert x.confidence == pytest.approx(y.confidence, abs=1e-4)
    assert sorted(d.value for d in int8.read(frame)) == values  # type: ignore[type-var]


def test_dice_int8_copies_are_run_by_onnxruntime_only() -> None:
    from vision.dice import DETECTOR_FILE, READER_FILE, OnnxNet, int8_name

    assert int8_name(READER_FILE) == "dice_reader_int8.onnx"
    for model in (DETECTOR_FILE, READER_FILE):
        assert model.with_name(int8_name(model)).exists()
        assert OnnxNet(model).path.name == int8_name(model)  # onnxruntime is installed
        assert OnnxNet(model, int8=False).path == model
        assert OnnxNet(model, "opencv").path == model  # OpenCV cannot run the int8 reader


def test_dice_onnxruntime_asked_for_but_missing_is_a_device_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sys

    from vision.dice import READER_FILE, OnnxNet

    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # import fails
    with pytest.raises(DeviceError, match="ONNX Runtime is not installed"):
        OnnxNet(READER_FILE, "onnxruntime")
    assert OnnxNet(READER_FILE).runtime == "opencv"  # "auto" falls back


def test_dice_detector_blob_is_the_normalised_image_in_a_reused_buffer() -> None:
    from vision.dice import detector_blob

    rng = np.random.default_rng(3)
    small = rng.integers(0, 256, (90, 120, 3), dtype=np.uint8)
    padded = cv2.copyMakeBorder(small, 0, 6, 0, 8, cv2.BORDER_REPLICATE)
    x = padded.astype(np.float64)
    want = ((x - x.mean()) / (x.std() + 8.0)).transpose(2, 0, 1)[None]
    blob = detector_blob(small)
    assert blob.shape == (1, 3, 96, 128) and blob.dtype == np.float32
    assert np.abs(blob - want).max() < 1e-4
    again = detector_blob(small[:, ::-1].copy(), blob)
    assert again is blob  # the same memory, written anew
    assert detector_blob(small[:50], blob) is not blob  # another shape: a new buffer


def test_dice_detector_blob_by_table_is_bit_for_bit_the_per_pixel_steps() -> None:
    """The looked-up blob equals the float32 steps done on every pixel (the image as
    float32, less its mean, times one over its spread + 8): the models see the same input."""
    from vision.dice import detector_blob

    rng = np.random.default_rng(4)
    small = rng.integers(0, 256, (360, 640, 3), dtype=np.uint8)
    padded = cv2.copyMakeBorder(small, 0, 8, 0, 0, cv2.BORDER_REPLICATE)
    m, sd = cv2.meanStdDev(padded.reshape(-1, 1))
    want = padded.transpose(2, 0, 1)[None].astype(np.float32)
    want -= float(m[0, 0])
    want *= 1.0 / (float(sd[0, 0]) + 8.0)
    assert np.array_equal(detector_blob(small), want)


def test_dice_nothing_on_a_skipped_polygon_is_read(
    reader: DiceReader, sample: tuple[np.ndarray, list[int]]
) -> None:
    """A QR code already read is skipped: the dice elsewhere are read as before."""
    everything = reader.read(sample[0])
    last = np.array(everything[-1].box, np.float32).reshape(2, 2)
    code = np.array([last[0], (last[1][0], last[0][1]), last[1], (last[0][0], last[1][1])])
    rest = reader.read(sample[0], skip=[code])
    assert [d.value for d in rest] == [d.value for d in everything[:-1]]


def _quantize_model(scale: float, zero: int) -> bytes:
    """An ONNX model of one QuantizeLinear (the int8 detector's first step)."""
    pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"])],
        "quantize",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, None)],
        [helper.make_tensor_value_info("y", TensorProto.UINT8, None)],
        [
            helper.make_tensor("s", TensorProto.FLOAT, [], [scale]),
            helper.make_tensor("z", TensorProto.UINT8, [], [zero]),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    return bytes(model.SerializeToString())


def test_dice_byte_blob_is_onnx_quantize_linear_of_the_float_blob() -> None:
    """The bytes the detector now gets are those its int8 copy's QuantizeLinear made of
    the float blob, bit for bit (ONNX Runtime's own rounding, half to even)."""
    ort = pytest.importorskip("onnxruntime")
    from vision.dice import ByteInput, detector_blob

    rng = np.random.default_rng(5)
    for scale, zero in ((0.041212666779756546, 184), (0.0173, 97), (0.11, 3)):
        session = ort.InferenceSession(
            _quantize_model(scale, zero), providers=["CPUExecutionProvider"]
        )
        small = rng.integers(0, 256, (90, 120, 3), dtype=np.uint8)
        want = session.run(None, {"x": detector_blob(small)})[0]
        got = detector_blob(small, quant=ByteInput(scale, zero))
        assert got.shape == (1, 96, 128, 3) and got.dtype == np.uint8
        assert np.array_equal(got.transpose(0, 3, 1, 2), want)
        four = detector_blob(small, quant=ByteInput(scale, zero, 4))
        assert four.shape == (1, 96, 128, 4)
        assert np.array_equal(four[..., :3], got) and (four[..., 3] == 255).all()


def test_dice_shipped_int8_detector_takes_the_image_bytes(
    reader: DiceReader, sample: tuple[np.ndarray, list[int]]
) -> None:
    """With ONNX Runtime the shipped int8 detector takes uint8 in the image's layout,
    B, G, R and a fourth channel its first convolution weighs by zero (its scale and
    zero point from the model's metadata), and still finds the dice."""
    pytest.importorskip("onnxruntime")
    assert reader.detector.runtime == "onnxruntime"
    assert reader.detector.byte_input is not None
    scale, zero, channels = reader.detector.byte_input
    assert 0 < scale < 1 and 0 <= zero <= 255 and channels == 4
    assert sorted(d.value or 0 for d in reader.read(sample[0])) == sorted(sample[1])


def _quantized_net(
    tmp_path: Path, nodes: list[Any], weights: list[Any], images: list[np.ndarray]
) -> tuple[Path, Any]:
    """A small float network of ``nodes`` (input ``x``, output ``y``) saved beside its
    int8 copy, quantized as the detector is (calibrated on the first four images), and
    ``tools/byte_input.py`` loaded (ONNX only: no PyTorch needed): (float file, tool)."""
    import importlib.util

    onnx = pytest.importorskip("onnx")
    pytest.importorskip("onnxruntime")
    from onnx import TensorProto, helper
    from onnxruntime.quantization import (  # type: ignore[import-untyped]
        CalibrationDataReader,
        QuantFormat,
        QuantType,
        quantize_static,
    )

    from vision.dice import detector_blob, int8_name

    graph = helper.make_graph(
        nodes,
        "tiny",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 3, "h", "w"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        weights,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    float_file = tmp_path / "det.onnx"
    onnx.save(model, str(float_file))

    class Feed(CalibrationDataReader):  # type: ignore[misc]
        def __init__(self) -> None:
            self.blobs = iter([{"x": detector_blob(im)} for im in images[:4]])

        def get_next(self) -> dict[str, np.ndarray] | None:
            return next(self.blobs, None)

    quantize_static(
        str(float_file),
        str(tmp_path / int8_name(float_file)),
        Feed(),
        quant_format=QuantFormat.QDQ,
        activation_type=QuantType.QUInt8,
        weight_type=QuantType.QInt8,
        per_channel=True,
        reduce_range=True,
    )
    spec = importlib.util.spec_from_file_location("byte_input", REPO / "tools" / "byte_input.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return float_file, tool


def _weights(rng: np.random.Generator, **shapes: tuple[int, ...]) -> list[Any]:
    from onnx import numpy_helper

    return [
        numpy_helper.from_array(rng.normal(0, 0.3, shape).astype(np.float32), name)
        for name, shape in shapes.items()
    ]


def test_dice_int8_copies_have_weights_no_cpu_saturates() -> None:
    """The shipped int8 copies keep their weights in -64..64 (``reduce_range``): ONNX
    Runtime's int8 convolution on a CPU with AVX2 but no VNNI adds two byte-by-weight
    products in 16 bits, and 255 * 127 twice does not fit. With full-range weights such a
    CPU found none of the bench frame's five dice (issue 23, 2026-11-27)."""
    onnx = pytest.importorskip("onnx")
    from onnx import numpy_helper

    from vision.dice import DETECTOR_FILE, READER_FILE, int8_name

    for model in (DETECTOR_FILE, READER_FILE):
        weights = [
            numpy_helper.to_array(t)
            for t in onnx.load(str(model.with_name(int8_name(model)))).graph.initializer
        ]
        int8 = [w for w in weights if w.dtype == np.int8]
        assert int8, model
        assert all(w.min() >= -64 and w.max() <= 64 for w in int8), model


def test_dice_byte_input_tool_keeps_a_detectors_outputs_bit_for_bit(tmp_path: Path) -> None:
    """``tools/train_dice.py --stage byte-input`` (``tools/byte_input.py``, ONNX only) on
    a small int8 network quantized as the detector is: the same outputs from the bytes
    (four channels) as from the float blob, and a second run leaves the file alone."""
    pytest.importorskip("onnx")
    ort = pytest.importorskip("onnxruntime")
    from onnx import helper

    from vision.dice import OnnxNet, detector_blob, int8_name

    rng = np.random.default_rng(6)
    weights = _weights(rng, w1=(8, 3, 3, 3), w2=(4, 8, 1, 1))
    nodes = [
        helper.make_node("Conv", ["x", "w1"], ["a"], pads=[1, 1, 1, 1], strides=[2, 2]),
        helper.make_node("Relu", ["a"], ["b"]),
        helper.make_node("Conv", ["b", "w2"], ["y"]),
    ]
    images = [rng.integers(0, 256, (48, 64, 3), dtype=np.uint8) for _ in range(6)]
    float_file, tool = _quantized_net(tmp_path, nodes, weights, images)
    int8_file = tmp_path / int8_name(float_file)
    before = ort.InferenceSession(str(int8_file), providers=["CPUExecutionProvider"])
    tool.byte_input(int8_file)
    net = OnnxNet(float_file)
    assert net.path == int8_file and net.byte_input is not None
    assert net.byte_input.channels == 4
    for im in images:
        want = before.run(None, {"x": detector_blob(im)})[0]
        assert np.array_equal(net.run(detector_blob(im, quant=net.byte_input)), want)
    converted = int8_file.read_bytes()
    tool.byte_input(int8_file)
    assert int8_file.read_bytes() == converted


def test_dice_expand_upsample_tool_keeps_a_detectors_outputs_bit_for_bit(tmp_path: Path) -> None:
    """``tools/byte_input.py`` ``expand_upsample`` (also run by ``--stage byte-input``)
    on a small int8 network with the detector's 2x nearest Resize and Concat: the Resize
    becomes an Expand of the bytes, the outputs are the same bit for bit on images of
    several sizes, and a second run leaves the file alone."""
    onnx = pytest.importorskip("onnx")
    ort = pytest.importorskip("onnxruntime")
    from onnx import helper, numpy_helper

    from vision.dice import detector_blob, int8_name

    rng = np.random.default_rng(7)
    weights = _weights(rng, w1=(8, 3, 3, 3), w2=(16, 8, 3, 3), w3=(4, 24, 1, 1))
    weights.append(numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "scales"))
    nodes = [
        helper.make_node("Conv", ["x", "w1"], ["a1"], pads=[1, 1, 1, 1], strides=[2, 2]),
        helper.make_node("Relu", ["a1"], ["a"]),
        helper.make_node("Conv", ["a", "w2"], ["b1"], pads=[1, 1, 1, 1], strides=[2, 2]),
        helper.make_node("Relu", ["b1"], ["b"]),
        helper.make_node(
            "Resize",
            ["b", "", "scales"],
            ["up"],
            mode="nearest",
            coordinate_transformation_mode="asymmetric",
            nearest_mode="floor",
        ),
        helper.make_node("Concat", ["up", "a"], ["c"], axis=1),
        helper.make_node("Conv", ["c", "w3"], ["y"]),
    ]
    sizes = [(48, 64)] * 4 + [(64, 32), (32, 96)]
    images = [rng.integers(0, 256, (*size, 3), dtype=np.uint8) for size in sizes]
    float_file, tool = _quantized_net(tmp_path, nodes, weights, images)
    int8_file = tmp_path / int8_name(float_file)
    before = ort.InferenceSession(str(int8_file), providers=["CPUExecutionProvider"])
    tool.expand_upsample(int8_file)
    ops = [n.op_type for n in onnx.load(str(int8_file)).graph.node]
    assert "Resize" not in ops and "Expand" in ops
    after = ort.InferenceSession(str(int8_file), providers=["CPUExecutionProvider"])
    for im in images:
        blob = detector_blob(im)
        want = before.run(None, {"x": blob})[0]
        assert np.array_equal(after.run(None, {"x": blob})[0], want)
    converted = int8_file.read_bytes()
    tool.expand_upsample(int8_file)
    assert int8_file.read_bytes() == converted


def test_dice_shipped_detector_upsamples_by_expand() -> None:
    """The shipped int8 detector went through ``expand_upsample``: no Resize is left."""
    onnx = pytest.importorskip("onnx")
    from vision.dice import DETECTOR_FILE, int8_name

    graph = onnx.load(str(DETECTOR_FILE.with_name(int8_name(DETECTOR_FILE)))).graph
    ops = [n.op_type for n in graph.node]
    assert "Resize" not in ops and ops.count("Expand") == 1
