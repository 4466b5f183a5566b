"""Finding the teacher's USB stick in /proc/mounts (issue 10), and the files on it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tabletop.classroom.usb import csv_files, free_name, mounted_sticks, sticks


def test_usb_sticks_are_writable_removable_mounts_under_the_media_roots(tmp_path: Path) -> None:
    media = tmp_path / "media"
    stick = media / "pi" / "MY STICK"
    stick.mkdir(parents=True)
    locked = media / "pi" / "LOCKED"
    locked.mkdir()
    escaped = str(stick).replace(" ", "\\040")
    mounts = "\n".join(
        [
            "/dev/mmcblk0p2 / ext4 rw,noatime 0 0",
            f"/dev/sda1 {escaped} vfat rw,nosuid 0 0",
            f"/dev/sdb1 {locked} vfat ro,nosuid 0 0",  # read-only: cannot take reports
            f"tmpfs {media}/pi/tmp tmpfs rw 0 0",  # not a stick's filesystem
            "/dev/sdc1 /elsewhere vfat rw 0 0",  # not under the roots
            "garbage",
        ]
    )
    assert sticks(mounts, roots=(str(media),)) == [stick]


def test_usb_no_sticks_when_nothing_is_mounted(tmp_path: Path) -> None:
    assert sticks("", roots=(str(tmp_path),)) == []
    if os.geteuid() != 0:  # root can write anywhere; the check is for the Pi's user
        ro = tmp_path / "ro"
        ro.mkdir(mode=0o500)
        assert sticks(f"/dev/sda1 {ro} vfat rw 0 0", roots=(str(tmp_path),)) == []


def test_usb_mounted_sticks_are_none_when_looking_fails(caplog: pytest.LogCaptureFixture) -> None:
    def broken() -> list[Path]:
        raise PermissionError("no access to /proc/mounts")

    assert mounted_sticks(lambda: [Path("/media/a")], "report") == [Path("/media/a")]
    assert mounted_sticks(broken, "report") == []
    assert "report: cannot look for USB sticks: no access to /proc/mounts" in caplog.text


def test_usb_csv_files_lists_the_visible_csv_files_at_the_top_of_each_stick(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    (one / "sub").mkdir(parents=True)
    two.mkdir()
    for name in ("b.csv", "A.CSV", ".hidden.csv", "notes.txt", "sub/deep.csv"):
        (one / name).write_text("name\n")
    (one / "folder.csv").mkdir()  # a folder, not a file
    (two / "c.csv").write_text("name\n")
    gone = tmp_path / "gone"  # a stick pulled out while looking
    assert csv_files([one, gone, two]) == [one / "A.CSV", one / "b.csv", two / "c.csv"]
    assert f"class list: cannot list {gone}" in caplog.text


def test_usb_free_name_never_overwrites_a_file(tmp_path: Path) -> None:
    assert free_name(tmp_path, "class-list") == tmp_path / "class-list.csv"
    (tmp_path / "class-list.csv").write_text("")
    (tmp_path / "class-list-2.csv").write_text("")
    assert free_name(tmp_path, "class-list") == tmp_path / "class-list-3.csv"
