"""The app's words are content, not code (issue 21): the sentence table and the games'
rules pages are data files a teacher or a translator edits, each read by one loader that
names the file and the key of anything wrong in it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from tabletop.assets import package_folder
from tabletop.engine.errors import BadInput
from tabletop.games.math_wars_meta import EDITIONS
from tabletop.ui.games.bubbles.scene import rules_pages
from tabletop.ui.games.math_arena.table import RULES as ARENA_RULES
from tabletop.ui.games.math_attack.table import RULES as ATTACK_RULES
from tabletop.ui.games.math_wars_meta.setup import pages as mwm_pages
from tabletop.ui.games.mathe_meister.setup import RULES as MM_RULES
from tabletop.ui.games.mecs.setup import RULES as MECS_RULES
from tabletop.ui.messages import CHILD_MESSAGES, SENTENCES, child_message, load_sentences
from tabletop.ui.scenes.rules import RulesPage, load_rules, rules_from_file

ASSETS = package_folder("tabletop.assets")

# every game's rules as the app shows them, its blanks filled as the app fills them
GAME_RULES: dict[str, Callable[[], Sequence[RulesPage]]] = {
    "math_attack": lambda: ATTACK_RULES,
    "mathe_meister": lambda: MM_RULES,
    "math_arena": lambda: ARENA_RULES,
    **{f"math_wars_meta:{ed}": lambda ed=ed: mwm_pages(ed) for ed in EDITIONS},
    "mecs": lambda: MECS_RULES,
    "bubbles": rules_pages,
}


def write(tmp_path: Path, text: str, name: str = "words.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def refused(load: Callable[[], object], *words: str) -> str:
    """The loader's error: a BadInput whose message holds every one of ``words``."""
    with pytest.raises(BadInput) as caught:
        load()
    for word in words:
        assert word in caught.value.message, (word, caught.value.message)
    return caught.value.message


# -- the sentence table ------------------------------------------------------------------------


def test_content_shipped_sentences_load_into_the_table() -> None:
    table = load_sentences(ASSETS / SENTENCES)
    assert table == CHILD_MESSAGES
    assert len(table) >= 150
    # a table in the file is the code's first part: [mm.ui] choose_star -> "mm.ui.choose_star"
    assert child_message("mm.ui.choose_star", {"name": "Ana"}).startswith("Ana: tap your")
    assert child_message("mm.cell_full") == table["mm.cell_full"]


def test_content_sentences_missing_file_names_the_file(tmp_path: Path) -> None:
    missing = tmp_path / "sentences.toml"
    refused(lambda: load_sentences(missing), str(missing), "missing")


def test_content_sentences_broken_toml_names_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, '[mm]\ncell_full = "That box is full.\n')
    refused(lambda: load_sentences(path), str(path), "not valid TOML")


@pytest.mark.parametrize(
    "entry",
    ["cell_full = 3", 'cell_full = ""', 'cell_full = ["That box is full."]', "cell_full = {}"],
)
def test_content_sentence_that_is_not_a_sentence_names_file_and_key(
    tmp_path: Path, entry: str
) -> None:
    path = write(tmp_path, f'[mm]\nno_coins = "No coins."\n{entry}\n')
    refused(lambda: load_sentences(path), str(path), "'mm.cell_full'")


@pytest.mark.parametrize(
    "sentence", ["You have no {op left.", "You have no {} left.", "You have no op} left."]
)
def test_content_sentence_with_a_broken_blank_names_file_and_key(
    tmp_path: Path, sentence: str
) -> None:
    path = write(tmp_path, f'[mm]\nsupply_empty = "{sentence}"\n')
    refused(lambda: load_sentences(path), str(path), "'mm.supply_empty'", "{name}")


def test_content_empty_sentence_file_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "# nothing yet\n")
    refused(lambda: load_sentences(path), str(path), "no sentences")


def test_content_sentence_file_reads_codes_from_tables_and_dotted_keys(tmp_path: Path) -> None:
    path = write(tmp_path, '[mm]\nno_coins = "No coins."\n\n[atk]\nui.over = "Over, {name}."\n')
    assert load_sentences(path) == {"mm.no_coins": "No coins.", "atk.ui.over": "Over, {name}."}


# -- the rules pages ---------------------------------------------------------------------------


def test_content_every_rules_file_has_its_game() -> None:
    files = {path.stem for path in (ASSETS / "rules").glob("*.toml")}
    assert files == {game.split(":")[0] for game in GAME_RULES}


@pytest.mark.parametrize("game", sorted(GAME_RULES))
def test_content_every_games_rules_load_with_every_blank_filled(game: str) -> None:
    pages = GAME_RULES[game]()
    assert len(pages) >= 1
    for page in pages:
        assert page.heading.strip() and page.text.strip()
        for words in (page.heading, page.text, page.example):
            assert "{" not in words and "}" not in words, (game, words)


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_content_mwm_rules_take_their_numbers_from_the_edition(edition: str) -> None:
    """MWM-1: the goal page says the edition's own VICTORY! count and top card."""
    ed = EDITIONS[edition]
    goal = mwm_pages(edition)[0]
    assert goal.text.startswith(f"Win {ed.victory_cards} VICTORY! cards ({edition}: ")
    assert f"COUNT META cards 1 to {ed.count_numbers[-1]})" in goal.text


def test_content_rules_blank_left_unfilled_names_file_page_and_key() -> None:
    path = ASSETS / "rules" / "math_wars_meta.toml"
    refused(lambda: load_rules("math_wars_meta"), str(path), "page 1, text", "victory_cards")


def test_content_missing_rules_file_names_the_file() -> None:
    refused(lambda: load_rules("no_such_game"), "no_such_game.toml", "missing")


PAGE = '[[page]]\nheading = "The goal"\ntext = "Win."\n'


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", ("[[page]]",)),
        ('title = "Rules"\n' + PAGE, ("[[page]]",)),
        (PAGE + '\n[[page]]\nheading = "Your turn"\n', ("page 2", "text")),
        (PAGE + '\n[[page]]\nheading = 7\ntext = "Play."\n', ("page 2", "heading")),
        (PAGE + '\n[[page]]\nheading = " "\ntext = "Play."\n', ("page 2", "heading")),
        (PAGE + 'exampel = "Ana wins."\n', ("page 1", "'exampel'")),
        (PAGE + 'example = "Ana wins {points}."\n', ("page 1, example", "points")),
        (PAGE + 'example = "Ana wins {points."\n', ("page 1, example",)),
        ('heading = "The goal"\n', ("[[page]]",)),
    ],
)
def test_content_malformed_rules_file_names_file_page_and_key(
    tmp_path: Path, text: str, words: tuple[str, ...]
) -> None:
    path = write(tmp_path, text, "game.toml")
    refused(lambda: rules_from_file(path, {}), str(path), *words)


def test_content_rules_file_fills_blanks_and_keeps_the_words(tmp_path: Path) -> None:
    path = write(tmp_path, PAGE + 'example = "Win {cards} cards: {sizes[MWM25]}."\n')
    (page,) = rules_from_file(path, {"cards": 4, "sizes": {"MWM25": 25}})
    assert page == RulesPage("The goal", "Win.", "Win 4 cards: 25.")
