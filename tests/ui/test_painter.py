"""The painter's text helpers keep every word inside its box, however a teacher typed it."""

from __future__ import annotations

import pytest

from tabletop.ui.widgets import Button
from tests.ui.scenery import drawn_texts, make_app

LONG = "W" * 30  # the longest station name a plan takes (rotation.MAX_STATION_NAME)


@pytest.fixture
def painter():
    return make_app().ctx.painter


def test_painter_wrap_breaks_between_words_and_inside_one_only_when_it_must(painter) -> None:
    width, size = 300, 28
    lines = painter.wrap("Quiet corner by the window", size, width, True)
    assert " ".join(lines) == "Quiet corner by the window"
    lines = painter.wrap(f"this is Station 2: {LONG}", size, width, True)
    assert all(painter.fonts.width(line, size, True) <= width for line in lines)
    assert "".join(lines).replace(" ", "") == f"thisisStation2:{LONG}"
    assert lines[0] == "this is Station 2:"  # the short words stay whole


def test_painter_ellipsis_cuts_only_what_does_not_fit(painter) -> None:
    assert painter.ellipsis("Teams", 20, 200) == "Teams"
    cut = painter.ellipsis(f"2. {LONG}", 20, 150, bold=True)
    assert cut.endswith("\u2026") and cut.startswith("2. W")
    assert painter.fonts.width(cut, 20, True) <= 150


def test_painter_ellipsis_keeps_what_tells_a_namesake_apart(painter) -> None:
    """A name cut short keeps its tag in brackets ("Wilhelm… (4b)"): two Wilhelmina-Anns
    of two groups were cut to the same "Wilhelmina-…" on a narrow seat chip."""
    cuts = [painter.ellipsis(f"Wilhelmina-Ann ({g})", 20, 150, True) for g in ("4a", "4b")]
    assert [cut[cut.index("\u2026") :] for cut in cuts] == ["\u2026 (4a)", "\u2026 (4b)"]
    assert all(cut.startswith("Wil") and painter.fonts.width(cut, 20, True) <= 150 for cut in cuts)
    narrow = painter.fonts.width("\u2026 (4a)", 20, True)  # no room for the tag: cut as any
    assert painter.ellipsis("Mia (4a)", 20, narrow, True).endswith("\u2026")
    assert painter.ellipsis("Bartholomew (the bot", 20, 100).endswith("\u2026")  # no tag


def test_painter_ellipsis_cuts_a_sentence_ending_in_brackets_at_its_end(painter) -> None:
    """Only a name's tag is kept whole: Math Wars Meta's teacher menu title was cut
    mid-question, "Teacher: what do you want t… (no VICTORY! card: …)", at 800x480."""
    title = "Teacher: what do you want to do? (no VICTORY! card: the next hand has no card up)"
    cut = painter.ellipsis(title, 20, 500, True)
    assert cut.startswith("Teacher: what do you want to do? (no") and cut.endswith("\u2026")
    assert painter.fonts.width(cut, 20, True) <= 500


def test_painter_button_label_never_spills_out_of_the_button(painter) -> None:
    import pygame

    surface = pygame.Surface((400, 200))
    surface.fill((0, 0, 0))
    b = Button("x", pygame.Rect(100, 50, 180, 70), f"2. {LONG}", kind="quiet", caption=LONG)
    painter.button(surface, b)
    outside = [
        surface.get_at((x, y))[:3]
        for x in (*range(0, 96), *range(284, 400))
        for y in range(50, 120, 3)
    ]
    assert set(outside) == {(0, 0, 0)}


def button_texts(painter, button: Button) -> list[tuple[str, int]]:
    """The (text, size) pairs ``button`` renders."""
    import pygame

    return drawn_texts(painter, lambda: painter.button(pygame.Surface((800, 480)), button))


@pytest.mark.parametrize("caption", ["", "Red \u00b7 S4"])
def test_painter_button_label_takes_two_lines_before_it_goes_under_16px(painter, caption) -> None:
    """A long name in the sign-in and class-list grids (issue 21: no text under 16 px at
    800x480): two lines of whole words, not one line shrunk to 13 px."""
    import pygame

    name = "Maximiliane Wolkenstein-Ha"
    b = Button("student.S1", pygame.Rect(0, 0, 218, 64), name, kind="choice", caption=caption)
    got, under = button_texts(painter, b), [caption] if caption else []
    assert min(size for _, size in got) >= painter.least == 16
    assert [text for text, _ in got] == ["Maximiliane", "Wolkenstein-Ha", *under]
    short = Button("student.S2", b.rect, "Bo", kind="choice", caption=caption)
    assert [text for text, _ in button_texts(painter, short)] == ["Bo", *under]  # one line


def test_painter_button_caption_takes_two_lines_before_it_goes_under_16px(painter) -> None:
    """Mathe-Meister's empty seat tile beside four players is 88 px wide: "tap to add"
    would be 15 px on one line."""
    import pygame

    b = Button("seat.4", pygame.Rect(0, 0, 88, 62), "Nobody", kind="choice", caption="tap to add")
    got = button_texts(painter, b)
    assert min(size for _, size in got) >= 16
    assert " ".join(text for text, _ in got[1:]) == "tap to add"


def test_painter_card_keeps_its_prints_inside_and_marks_outside(painter) -> None:
    """One card face for every game: a long print shrinks to the card's width; a ring
    is drawn round the card (outside it), a cross over it."""
    import pygame

    from tabletop.ui.widgets import Print

    def drawn(**marks: object) -> pygame.Surface:
        surface = pygame.Surface((200, 200))
        surface.fill((0, 0, 0))
        rect = pygame.Rect(70, 50, 60, 90)
        painter.card(surface, rect, [Print("12345678", 60, 45)], (0, 0, 255), **marks)
        return surface

    plain = drawn()
    beside = [(x, y) for x in (*range(0, 66), *range(134, 200)) for y in range(0, 200, 3)]
    assert {plain.get_at(xy)[:3] for xy in beside} == {(0, 0, 0)}  # the print fits
    assert (0, 0, 255) in {plain.get_at((x, y))[:3] for x in range(70, 130) for y in range(80, 110)}
    ringed = drawn(ring=((255, 0, 0), 4))
    assert ringed.get_at((67, 95))[:3] == (255, 0, 0) and plain.get_at((67, 95))[:3] == (0, 0, 0)
    crossed = drawn(crossed=True, fill=(255, 255, 255), edge=None)
    assert crossed.get_at((82, 68))[:3] == painter.p.muted


def test_painter_seat_name_puts_the_name_beside_the_chip_within_its_room(painter) -> None:
    """One seat tag for every seat panel: the chip in the seat's colour, the name
    after it, cut with "…" rather than spilling past ``room``."""
    import pygame

    from tabletop.ui.theme import SEAT_COLOURS

    surface = pygame.Surface((400, 100))
    surface.fill((0, 0, 0))
    chip = pygame.Rect(10, 30, 40, 40)
    drawn = painter.seat_name(surface, chip, 2, f"Anna {LONG}", 28, 200, colour=(255, 255, 255))
    assert surface.get_at((14, 34))[:3] == SEAT_COLOURS[2]
    assert drawn.left >= chip.right and drawn.right <= chip.right + painter.m.u(6) + 200
    assert {surface.get_at((x, y))[:3] for x in range(260, 400) for y in range(100)} == {(0, 0, 0)}


def test_painter_coin_is_gold_with_a_dark_rim(painter) -> None:
    """One coin for M.E.C.S.'s piles, Mathe-Meister's sheet and the Home picture."""
    import pygame

    surface = pygame.Surface((60, 60))
    surface.fill((0, 0, 0))
    painter.coin(surface, (30, 30), 20, rim=3)
    assert surface.get_at((30, 30))[:3] == painter.p.coin
    assert surface.get_at((30, 11))[:3] == painter.p.line
    assert surface.get_at((30, 8))[:3] == (0, 0, 0)


def test_painter_paragraph_too_long_for_its_box_goes_on_pages_at_16px(painter) -> None:
    """Issue 21: a paragraph shrinks to fit its box down to 16 px at 800x480, never
    below; what still does not fit goes on pages, each but the last ending with "…", so
    no word is dropped without a sign (it was shrunk to 75 %, then cut silently)."""
    import pygame

    words = " ".join(f"Player {n} and Player {n + 1} tie with {n}." for n in range(1, 9))
    box = pygame.Rect(0, 0, 400, 60)
    size, pages = painter.pages(words, box, 18)
    assert size == painter.least == 16 and len(pages) > 1
    assert all(len(page) * painter.fonts.font(size).get_linesize() <= 60 for page in pages)
    assert all(page[-1].endswith(" \u2026") for page in pages[:-1])
    shown = [word for page in pages for line in page for word in line.split()]
    assert [word for word in shown if word != "\u2026"] == words.split()
    assert all(painter.fonts.width(line, size) <= 400 for page in pages for line in page)
    surface = pygame.Surface((400, 60))
    for page in range(len(pages) + 1):  # round from the last page to the first
        got = drawn_texts(
            painter, lambda p=page: painter.paragraph(surface, words, box, 18, page=p)
        )
        assert [text for text, _ in got] == pages[page % len(pages)]
    assert painter.pages("Tap Next round.", box, 18) == (18, [["Tap Next round."]])


def test_painter_seat_name_takes_two_lines_where_it_has_the_height(painter) -> None:
    """A seat's name too wide for its room at 16 px goes on two lines of whole words where
    the panel has the height (Math Arena's rows), else on one, cut with "…"; never under
    16 px (issue 21)."""
    import pygame

    surface, chip = pygame.Surface((800, 480)), pygame.Rect(0, 0, 34, 40)
    name = "Anna-Lena Schmidt"

    def drawn(tall: int) -> list[tuple[str, int]]:
        return drawn_texts(
            painter,
            lambda: painter.seat_name(surface, chip, 0, name, 22, 145, anchor="topleft", tall=tall),
        )[1:]  # after the chip's number

    two = drawn(44)
    assert [text for text, _ in two] == ["Anna-Lena", "Schmidt"] and min(s for _, s in two) >= 16
    ((one, size),) = drawn(30)
    assert one.endswith("\u2026") and size == 16


def test_painter_a_dialogs_long_paragraph_turns_its_pages() -> None:
    """A dialog's paragraph too long for its box at 16 px (a long leftover ruling, a long
    refusal) shows its first page, then by itself the next after PAGE_SECONDS, round
    again; every word is on a page (the instruction line's pages, for every paragraph)."""
    from tabletop.ui.scenes.common import Choices
    from tabletop.ui.widgets import PAGE_SECONDS

    app = make_app()
    words = " ".join(["Max and Maximiliane both said the same number at the same time."] * 12)
    dialog = Choices(app.ctx, "Who was first?", words, [("ok", "OK", "primary")])
    app.stack.push(dialog)
    room = dialog.body()
    room.height = dialog.buttons[0].rect.top - room.top
    _, pages = app.ctx.painter.pages(words, room, app.ctx.metrics.text)
    assert len(pages) >= 2
    assert " ".join(" ".join(page) for page in pages).replace(" …", "").split() == words.split()
    lines, shown = {line for page in pages for line in page}, []
    for _ in range(len(pages) + 1):
        got = drawn_texts(app.ctx.painter, lambda: app.step(force_draw=not shown))
        shown.append([text for text, _ in got if text in lines])
        assert not drawn_texts(app.ctx.painter, app.step)  # nothing new: not drawn again
        app.ctx.clock.advance(PAGE_SECONDS)
    assert shown == [*pages, pages[0]]
