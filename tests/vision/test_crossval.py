"""Cross-validation of the dice recipe (``python -m vision.bench --crossval DIR``): the
folds split each set into fifths, and the pooled score counts every labelled die once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletop.engine.errors import DeviceError
from tests.vision.conftest import SAMPLES
from vision import datasets
from vision.bench import crossval_figures, dice_figures, threshold_grid
from vision.bench import main as bench_main
from vision.dice import DETECTOR_FILE, READER_FILE, DiceReader, int8_name


@pytest.fixture(scope="module")
def sample_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The committed white-dice photos laid out as the shared set is."""
    root = tmp_path_factory.mktemp("shared")
    folder = root / "dice" / "matteop65"
    folder.mkdir(parents=True)
    for path in SAMPLES.glob("*"):
        if path.suffix in (".jpg", ".txt"):
            (folder / path.name).symlink_to(path)
    return root


def test_the_five_folds_split_a_set_into_fifths(sample_root: Path) -> None:
    images = datasets.load_matteop65(sample_root)
    assert len(images) >= datasets.HOLD_OUT_EVERY
    parts = [datasets.split(images, k) for k in range(datasets.HOLD_OUT_EVERY)]
    left_out = [im.path for _, fold in parts for im in fold]
    assert sorted(left_out) == sorted(im.path for im in images)  # each photo once
    for rest, fold in parts:
        assert not {im.path for im in rest} & {im.path for im in fold}
    assert datasets.split(images) == parts[-1]  # the held-out part is the last fifth


def test_scores_merge_by_adding_their_counts() -> None:
    a = datasets.DiceScore(3, 3, 3, 2, 2, 0, 1, 0, 0, {"unsure": 1}, [(3, 3, 2, 0, 1, 0)])
    b = datasets.DiceScore(2, 1, 3, 2, 1, 0, 0, 0, 1, {"unsure": 1, "half out of view": 2})
    b.photos.append((2, 1, 1, 0, 0, 1))
    a.merge(b)
    assert a == datasets.DiceScore(
        5, 4, 6, 4, 3, 0, 1, 0, 1, {"unsure": 2, "half out of view": 2},
        [(3, 3, 2, 0, 1, 0), (2, 1, 1, 0, 0, 1)],
    )  # fmt: skip
    assert a.read_right_pct == 75.0


def test_crossval_reads_each_fifth_with_its_own_models_and_pools_them(
    sample_root: Path, tmp_path: Path, reader: DiceReader
) -> None:
    for k in range(datasets.HOLD_OUT_EVERY - 1):  # the shipped models stand in for each fold
        fold = tmp_path / f"fold{k}"
        fold.mkdir()
        for model in (DETECTOR_FILE, READER_FILE):
            (fold / model.name).symlink_to(model)
    figures = crossval_figures(tmp_path, reader, sets=("matteop65",), root=sample_root)
    images = datasets.load_matteop65(sample_root)
    white = figures["matteop65"]
    assert white["images"] == len(images)
    assert white["dice_labelled"] == sum(len(im.dice) for im in images)
    assert sum(f["dice"] for f in white["folds"].values()) == white["dice_labelled"]
    assert white["read_right_pct"] >= 90  # the demo's photos are easy
    assert "read_right_99.5%" in white["floor_met_by_a_reader_at_the_floor"]


def test_crossval_without_a_fold_model_says_which(sample_root: Path, tmp_path: Path) -> None:
    with pytest.raises(DeviceError, match="fold0"):
        crossval_figures(tmp_path, sets=("matteop65",), root=sample_root)


def test_bench_models_without_its_models_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``python -m vision.bench --models DIR`` (a training try) names the missing file."""
    assert bench_main(["--models", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert str(tmp_path / DETECTOR_FILE.name) in err


def test_bench_crossval_without_a_fold_model_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert bench_main(["--crossval", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "fold0" in err


def test_bench_models_reads_the_held_out_part_with_the_given_models(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], reader: DiceReader
) -> None:
    """The shipped models laid in a try's folder give the shipped held-out figures."""
    if not datasets.shared_data_dir().is_dir():
        pytest.skip("no shared data")
    for model in (DETECTOR_FILE, READER_FILE):
        (tmp_path / model.name).symlink_to(model)
        (tmp_path / int8_name(model)).symlink_to(model.with_name(int8_name(model)))
    assert bench_main(["--models", str(tmp_path)]) == 0
    tried = json.loads(capsys.readouterr().out)
    shipped = json.loads(json.dumps(dice_figures(reader)))
    assert set(tried) == set(datasets.DICE_SETS)
    for name in tried:
        tried[name].pop("ms_per_image")
        shipped[name].pop("ms_per_image")
    assert tried == shipped


def test_crossval_threshold_grid_weighs_the_reader_on_folds_0_to_3_only(
    sample_root: Path, tmp_path: Path
) -> None:
    """``--crossval FOLDS --thresholds``: a lower threshold asks again about no more dice,
    and every die of folds 0-3 (not the held-out fifth) is counted once per threshold."""
    for k in range(datasets.HOLD_OUT_EVERY - 1):
        fold = tmp_path / f"fold{k}"
        fold.mkdir()
        for model in (DETECTOR_FILE, READER_FILE):
            (fold / model.name).symlink_to(model)
    grid = threshold_grid(tmp_path, (0.0, 0.6, 1.01), sets=("matteop65",), root=sample_root)
    images = datasets.load_matteop65(sample_root)
    dice = sum(len(im.dice) for i, im in enumerate(images) if not datasets.is_held_out(i))
    rows = grid["matteop65"]
    assert [r["dice_labelled"] for r in rows.values()] == [dice] * 3
    assert rows["0"]["asked_again"] <= rows["0.6"]["asked_again"] <= rows["1.01"]["asked_again"]
    assert rows["1.01"]["read_right"] == 0  # no reading is that sure: every die asked again


def test_bench_thresholds_that_are_not_numbers_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert bench_main(["--crossval", str(tmp_path), "--thresholds", "0.4,high"]) == 2
    assert capsys.readouterr().err == (
        "vision.bench: --thresholds: 'high' is not a number (e.g. 0.4,0.5,0.6)\n"
    )


def test_bench_thresholds_without_crossval_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    """--thresholds is weighed on the folds only: alone it once did nothing, silently."""
    with pytest.raises(SystemExit) as stop:
        bench_main(["--thresholds", "0.4,0.5"])
    assert stop.value.code == 2
    assert "--thresholds weighs the reader on the cross-validation's folds: give --crossval" in (
        capsys.readouterr().err
    )
