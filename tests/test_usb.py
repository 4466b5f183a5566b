"""Finding the teacher's USB stick in /proc/mounts (issue 10)."""

from __future__ import annotations

import os
from pathlib import Path

from tabletop.classroom.usb import sticks


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
