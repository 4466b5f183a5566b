"""Spoken prompts (issue 21): every sentence a child sees can be heard, one at a time."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from tabletop.ui.autoplay import Autoplayer
from tabletop.ui.messages import CHILD_MESSAGES, child_message
from tabletop.ui.prefs import PrefsFile
from tabletop.ui.speech import Speaker, make_speaker, render_espeak, spoken
from tests.ui.scenery import make_app


class FakeChannel:
    """A mixer channel: one clip at a time; ``finish()`` ends the one playing."""

    def __init__(self) -> None:
        self.playing: bytes | None = None
        self.played: list[bytes] = []
        self.stops = 0

    def play(self, clip: bytes) -> None:
        assert self.playing is None, "two clips at once"
        self.playing = clip
        self.played.append(clip)

    def stop(self) -> None:
        self.playing = None
        self.stops += 1

    def busy(self) -> bool:
        return self.playing is not None

    def finish(self) -> None:
        self.playing = None


def speaker(**kwargs: object) -> tuple[Speaker, FakeChannel]:
    channel = FakeChannel()
    rendered: list[str] = []

    def render(text: str) -> bytes:
        rendered.append(text)
        return text.encode()

    voice = Speaker(render, channel, threaded=False, **kwargs)  # type: ignore[arg-type]
    voice.rendered = rendered  # type: ignore[attr-defined]
    return voice, channel


def test_speech_says_one_sentence_at_a_time_in_order() -> None:
    voice, channel = speaker()
    voice.say("Roll the dice.")
    voice.step("Ana: write 3 and 5.")
    voice.update()
    assert channel.playing == b"Roll the dice."
    voice.update()  # still speaking: the next one waits, never overlaps
    assert channel.played == [b"Roll the dice."]
    channel.finish()
    voice.update()
    assert channel.playing == b"Ana: write 3 and 5."
    assert voice.spoken == ["Roll the dice.", "Ana: write 3 and 5."]


def test_speech_a_new_prompt_cuts_the_old_one_and_drops_what_waits() -> None:
    voice, channel = speaker()
    voice.say("Roll the dice.")
    voice.step("Then write them.")
    voice.update()
    voice.say("That box already has something in it.")
    assert channel.stops >= 1 and channel.playing is None  # cut at once
    voice.update()
    channel.finish()
    voice.update()
    assert voice.spoken == ["Roll the dice.", "That box already has something in it."]


def test_speech_the_same_prompt_again_is_not_restarted_and_clips_are_kept() -> None:
    voice, channel = speaker()
    voice.say("Wait for the others.")
    voice.update()
    voice.say("Wait for the others.")
    voice.update()
    assert channel.played == [b"Wait for the others."]
    channel.finish()
    voice.say("Wait for the others.")  # said again later: spoken again, rendered once
    voice.update()
    assert len(channel.played) == 2 and voice.rendered == ["Wait for the others."]  # type: ignore[attr-defined]


def test_speech_keeps_only_the_last_sentences_heard_to_their_end() -> None:
    """Round 31: every sentence said to its end was kept for the app's life (a day of
    games); the last CLIPS_KEPT are, as the clips are."""
    from tabletop.ui.speech import CLIPS_KEPT

    voice, channel = speaker()
    for n in range(CLIPS_KEPT + 5):
        voice.say(f"Sentence {n}.")
        voice.update()
        channel.finish()
    assert voice.finished(f"Sentence {CLIPS_KEPT + 4}.") and voice.finished("Sentence 5.")
    assert not voice.finished("Sentence 4.") and len(voice._ended) == CLIPS_KEPT


def test_speech_is_silent_when_off_muted_or_without_a_speaker() -> None:
    for voice, channel in (speaker(setting="off"), speaker(muted=True)):
        voice.say("Roll the dice.")
        voice.update()
        assert channel.played == [] and voice.said == ["Roll the dice."]
    silent = Speaker()  # no espeak-ng or no audio device: the app plays silently
    silent.say("Roll the dice.")
    silent.update()
    assert not silent.available and silent.said == ["Roll the dice."]
    assert not make_speaker("auto", sounds_available=False, muted=False).available


def test_speech_a_sentence_espeak_cannot_say_is_skipped() -> None:
    channel = FakeChannel()

    def broken(text: str) -> bytes:
        raise OSError("espeak-ng is gone")

    voice = Speaker(broken, channel, threaded=False)
    voice.say("Roll the dice.")
    voice.step("Write them.")
    voice.update()
    voice.update()
    assert channel.played == [] and voice.spoken == []


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_speech_espeak_ng_renders_a_wav_clip() -> None:
    clip = render_espeak(child_message("mm.cell_full"))
    assert clip[:4] == b"RIFF" and clip[8:12] == b"WAVE" and len(clip) > 10_000


def test_speech_a_refusal_on_screen_is_spoken_and_teacher_screens_are_not() -> None:
    """So is the next step the instruction line shows after it (Math Attack! shows one
    after every sentence): queued after the refusal, never over it."""
    app = make_app()
    voice, channel = speaker()
    app.ctx.speaker = voice
    auto = Autoplayer(app)
    auto.tap("game.math-attack")
    auto.tap("start")
    auto.tap("pass")  # a card can still be played: refused, with the reason
    scene = app.stack.top
    text = scene.message[0] if isinstance(scene.message, tuple) else scene.message
    step = scene.status().removeprefix(text).strip()
    assert text and step.startswith("Player 1:")
    assert voice.said[-2:] == [" ".join(text.split()), step]
    app.step()
    assert voice.spoken[-1] == voice.said[-2]  # the refusal first; the step waits its turn
    channel.finish()
    app.step()
    assert voice.spoken[-1] == step
    auto.tap("leave")
    auto.tap("yes")
    before = len(voice.said)
    auto.tap("settings")  # the teacher's PIN pad: a wrong PIN is shown, not said
    for digit in "1111":
        auto.tap(f"key.{digit}")
    assert app.stack.top.message and len(voice.said) == before


def test_speech_the_sound_setting_has_voice_sounds_only_and_off(tmp_path) -> None:
    app = make_app()
    voice, _ = speaker()
    app.ctx.speaker = voice
    app.ctx.prefs = PrefsFile(tmp_path / "settings.json")
    auto = Autoplayer(app)
    auto.tap("settings")
    for digit in "2468":
        auto.tap(f"key.{digit}")
    auto.tap("sound.only")
    assert not voice.on and not app.ctx.sounds.muted
    assert json.loads((tmp_path / "settings.json").read_text())["speech"] == "off"
    auto.tap("sound.voice")
    assert voice.on and PrefsFile(tmp_path / "settings.json").prefs.speech == "on"
    auto.tap("sound.off")
    assert not voice.on and app.ctx.sounds.muted


def test_speech_a_new_step_replaces_the_last_one_and_never_cuts_a_prompt() -> None:
    voice, channel = speaker()
    voice.say("Reveal!")
    voice.step("Turn your cards face up.")
    voice.update()
    voice.step("Ana: say your value.")  # the old step waited: dropped, the prompt goes on
    assert channel.playing == b"Reveal!" and channel.stops == 1  # say()'s own stop only
    channel.finish()
    voice.update()
    assert channel.playing == b"Ana: say your value."
    voice.step("Ben: say your value.")  # the old step is being said: cut
    voice.update()
    assert channel.playing == b"Ben: say your value."
    voice.say("Ben: 4. Right!")  # a new prompt cuts the step...
    voice.step("Ana: say your value.")  # ...and the step after it replaces nothing
    voice.update()
    channel.finish()
    voice.update()
    assert voice.spoken == [
        "Reveal!",
        "Ana: say your value.",
        "Ben: say your value.",
        "Ben: 4. Right!",
        "Ana: say your value.",
    ]
    silent, quiet = speaker(setting="off")
    silent.step("Ana: say your value.")
    silent.update()
    assert quiet.played == [] and silent.said == ["Ana: say your value."]


def listening(app):
    """The fake speaker on ``app`` (a table already up: what it says from now on)."""
    voice, channel = speaker()
    app.ctx.speaker = voice
    return voice, channel


def test_speech_a_step_that_changes_with_no_sentence_is_said_once() -> None:
    """Math Wars Meta, two children: the camera reads Player 1's cards and the instruction
    line turns to Player 2 with no sentence; that step is said once, however often the
    screen is drawn or the same cards are read again."""
    from tests.ui.games.test_math_wars_meta import show, start

    app = make_app()
    scene = start(app)
    voice, _ = listening(app)
    show(app, 0, "C9", "K+1")
    step = "Player 2: turn up your COUNT META and MATH CRATE cards."
    assert scene.message == "" and scene.status() == step
    assert voice.said == [step]
    show(app, 0, "C9", "K+1")  # the same reading again: nothing new to say
    app.step(force_draw=True)
    assert voice.said == [step] and voice.spoken == [step]
    show(app, 1, "C3", "K+1")  # both cards are up: the next step, said when it changes
    assert voice.said[1:] == [scene.status()] and scene.status().startswith("Player 1, Player 2:")


def test_speech_a_step_waits_behind_the_prompt_and_the_next_prompt_cuts_it() -> None:
    """Math Arena, two seats: after "Reveal!" the cards come up and the line names who says
    their value (no sentence): that step waits for "Reveal!" to end; a child's value said
    before it starts cuts it, and the step after that value is said instead."""
    from tests.ui.games.test_math_arena import arena_app, countdown, press, say_value, seen

    app, auto, scene = arena_app(seats=2)
    voice, channel = listening(app)
    seen(app, None, "operator", "KD")
    press(app, 0)
    press(app, 1)
    countdown(app)
    assert scene.message == "Reveal!" and channel.playing == b"Reveal!"
    seen(app, 1, "reveal", "5S", "2D")
    seen(app, 2, "reveal", "AH", "3C")
    both = scene.status().removeprefix("Reveal!").strip()
    assert both.startswith("Player 1 and Player 2:") and voice.said[-1] == both
    app.step()
    assert channel.playing == b"Reveal!"  # never over the prompt
    say_value(app, auto, 0, 7)
    channel.finish()
    app.step()
    channel.finish()
    app.step()
    after = scene.status().removeprefix(scene.message).strip()
    assert after.startswith("Player 2:")
    pad = voice.spoken[-3]  # the value's pad says its question as it opens, cutting "Reveal!"
    assert pad.startswith("Player 1:") and pad not in (scene.message, after)
    assert voice.spoken[-4:] == ["Reveal!", pad, scene.message, after] and both not in voice.spoken


def test_speech_a_silent_move_and_a_bots_move_are_said_once_each() -> None:
    """Math Attack! against a bot: tapping a card changes the step with no sentence (said);
    the child's play and the bot's are a sentence and the step after it, each said once."""
    from tabletop.ui.games.math_attack import BOT_SECONDS
    from tests.ui.games.test_math_attack import start

    app, auto, scene = start(bot="easy", first=0)
    voice, _ = listening(app)

    def step() -> str:
        return scene.status().removeprefix(scene.message).strip()

    auto.tap("hand.0")
    assert voice.said == [step()] and "number line for your" in step()
    auto.tap("line.0")
    assert voice.said[1:] == [scene.message, step()] and "thinking" in step()
    for _ in range(3):  # the bot's pause, its move, and frames after it
        app.ctx.clock.advance(BOT_SECONDS + 0.1)
        app.step()
    assert scene.state.turn == 0 and scene.message.startswith("Bot (Easy) plays")
    assert voice.said[3:] == [scene.message, step()] and step().startswith("Player 1:")


def test_speech_a_bots_star_on_the_paper_table_is_said() -> None:
    """Mathe-Meister at the table: a bot claims a Bonus Star (its star on the instruction
    line, then the step); only the star is said, the step the children heard when the
    dice came is not said again (MM-5)."""
    from tabletop.ui.games.mathe_meister.table import BOT_SECONDS
    from tests.ui.scenery import DICE
    from tests.ui.test_table import table_app

    app, auto, scene = table_app(2, bots=(1,))
    voice, _ = listening(app)
    for r in range(1, 8):
        if scene.play.bot_lines(1):
            break
        auto.tap("next")
        auto.tap_dice(DICE[r])
        assert voice.said[-1] == scene.status() and scene.status().startswith("Write")
    said = len(voice.said)
    for _ in range(3):
        app.ctx.clock.advance(BOT_SECONDS + 1)
        app.step()
    assert scene.status().startswith("Bot 2:") and "star" in scene.status()
    assert voice.said[said:] == [scene.message] and scene.message != scene.status()


def test_speech_mecs_says_the_step_on_its_own_top_line() -> None:
    """M.E.C.S. draws its step on a top line of its own, apart from its sentences' box:
    each sentence is said, then the step the top line turns to, once."""
    from tests.ui.games.test_mecs import start

    app = make_app()
    auto, table = start(app, seats=2, cards="table")
    voice, _ = listening(app)
    auto.tap("reveal.8")
    assert voice.said == ["Player 1 shows 8.", table.play.next_step()]
    assert table.play.next_step().startswith("Who starts? Player 2")
    auto.tap("reveal.3")
    assert voice.said[2:] == [table.message, table.play.next_step()]
    assert table.play.next_step().startswith("Turn 1: Player 1")
    app.step()
    app.step()
    assert len(voice.said) == 4  # drawn again: not said again


def test_speech_a_refusal_under_a_ruling_says_only_the_refusal_unless_the_ruling_was_cut() -> None:
    """Math Arena: the ruling stays on the instruction line above a refusal (a button
    pressed after the round is over). A child who heard the ruling to its end hears only
    the refusal, each time; a ruling the refusal cut off is said again, whole."""
    from tests.ui.games.test_math_arena import arena_app, press, table_round

    for heard in (True, False):
        app, auto, scene = arena_app(seats=2)
        voice, channel = listening(app)
        table_round(app, auto, scene, "JC", [("9S", "2S"), ("8H", "AH")])
        ruling = scene.play.verdict
        app.step()
        assert channel.playing == ruling.encode()
        if heard:
            channel.finish()
            app.step()
        press(app, 0)
        assert scene.message.startswith(f"{ruling} Player 1: ")
        refusal = scene.message.removeprefix(ruling).strip()
        assert voice.said[-1] == (refusal if heard else scene.message)
        assert voice.finished(ruling) is heard
        channel.finish()
        app.step()
        press(app, 1)  # another refusal: the ruling above it was heard, or said again
        assert scene.message == f"{ruling} {refusal.replace('Player 1', 'Player 2')}"
        assert voice.said[-1] == scene.message.removeprefix(ruling).strip()


SAID = {  # what the screen shows: what espeak-ng is given (walk 29, espeak-evidence)
    "Column 1 is complete: 5 - 3 - 6 - 1 = -5, +5 points.": (
        "Column 1 is complete: 5 minus 3 minus 6 minus 1 equals minus 5, plus 5 points."
    ),
    "Row 1: 5 x 6 + 4 x 6 = 204.": "Row 1: 5 times 6 plus 4 times 6 equals 204.",
    "12 = 2² × 3 is right!": "12 equals 2 squared times 3 is right!",
    "8 − 2 = 6 ÷ 1": "8 minus 2 equals 6 divided by 1",
    "Bot 1 put ( under the symbols stack": "Bot 1 put open bracket under the symbols stack",
    "the card “)”, with a ring.": "the card “ close bracket ”, with a ring.",
    "the card “.”, with a ring.": "the card “ point ”, with a ring.",
    "Blocked this turn (∅). Put your card on Ben's line.": (  # atk.blocked (rounds 31, 34)
        "Blocked this turn, empty set,. Put your card on Ben's line."  # ATK-1's word
    ),
    "Block (∅): nobody may play on that line next turn.": (  # its rule page
        "Block, empty set,: nobody may play on that line next turn."
    ),
    "Cancel (↵) makes the card before it not count.": (  # its rule page (round 35)
        "Cancel, cancel, makes the card before it not count."  # ATK-1's word
    ),
    "The area reads (2 + 3). Ben: your turn.": (  # not "close bracket point" (round 31)
        "The area reads open bracket 2 plus 3 close bracket. Ben: your turn."
    ),
    "√(1 + 3) = 2³": "the square root of open bracket 1 plus 3 close bracket equals 2 cubed",
    "Hard bot plays −|n÷2| on Bot 2's line": (
        "Hard bot plays minus the size of n divided by 2 on Bot 2s line"
    ),
    "Hard bot plays +/− on their own number line": (
        "Hard bot plays plus or minus on their own number line"
    ),
    "the answer 7/3 is not a whole number": "the answer 7 over 3 is not a whole number",
    "Player 2's line, Row 1's star": "Player 2s line, Row 1s star",
    "The \u00d7 Star Power": "The times Star Power",  # the times sign's (MM-6), as its button
    "Row 1's star is yours when the round ends, with the \u00d7 Star Power.": (
        "Row 1s star is yours when the round ends, with the times Star Power."
    ),
    "Only +, - or x go in the grey boxes.": "Only plus, minus or times go in the grey boxes.",
    "Numbers go in the white boxes and + - x in the grey boxes.": (
        "Numbers go in the white boxes and plus minus times in the grey boxes."
    ),
    "x² means x times itself: 5² = 25.": "x squared means ex times itself: 5 squared equals 25.",
    "It looks like the letter x.": "It looks like the letter ex.",
    "Bot 1 planted .: x²": "Bot 1 planted point: x squared",
    "1st: Ana, 4 ★. 2nd: Ben, 1 ★.": "1st: Ana, 4 stars. 2nd: Ben, 1 star.",
    "Player 1 is ready (to change it, tap your answer box).": (
        "Player 1 is ready, to change it, tap your answer box,."
    ),
    "That box is a seat-button; Ana's x-ray won't": "That box is a seat-button; Ana's x-ray won't",
}
SYMBOLS = re.compile(r"[+×÷=/|²³√−()∅↵]|(?<![A-Za-z])-|-(?![A-Za-z])|\d'")
HEARD_FOR = (  # the words a symbol on screen is heard as (only where the screen shows it)
    (r"\+", "plus or"),
    (r"[−-]", "minus"),
    (r"\|", "the size of"),
    (r"[×xX]", "times ex"),
    ("²", "squared"),
    ("³", "cubed"),
    ("√", "the square root of"),
    ("÷", "divided by"),
    ("/", "over"),
    ("=", "equals"),
    ("≠", "does not equal"),
    (r"\(", "open bracket"),
    (r"\)", "close bracket"),
    (r"(?:^|[\s“])\.(?:$|[\s:”])", "point"),  # a card "." alone, never a full stop
    ("★", "star stars"),
    ("∅", "empty set"),
    ("↵", "cancel"),
)


def adds_nothing(shown: str) -> None:
    """Every word ``shown`` is heard as is a word on screen or a symbol's shown there."""
    words = set(re.findall(r"[A-Za-z]+|\d+", shown))
    for symbol, heard in HEARD_FOR:
        if re.search(symbol, shown):
            words.update(heard.split())
    added = [w for w in re.findall(r"[A-Za-z]+|\d+", spoken(shown)) if w not in words]
    assert not added, (shown, spoken(shown), added)


def test_speech_says_the_screens_symbols_in_words_and_never_touches_a_word() -> None:
    """espeak-ng read "5 - 3 = -5" "five three equals five", "5 x 6" "five ex six",
    "2²" "two two", "+/−" "plus slash minus" and left brackets out: the words it is given
    say every symbol, for every card of every game and every sentence in the table."""
    from tabletop.games import math_attack, math_wars_meta, mecs_equation
    from tabletop.ui.games.math_attack.play import GREEN_FACES
    from tabletop.ui.games.mecs.play import LABEL

    for shown, said in SAID.items():
        assert spoken(shown) == said
        adds_nothing(shown)
    faces = [
        *map(math_attack.card_name, math_attack.CARDS),
        *map(math_wars_meta.crate_label, math_wars_meta.CRATE_CARDS),
        *mecs_equation.FACE.values(),
        *LABEL.values(),
        *(symbol for symbol, _ in GREEN_FACES.values()),
    ]
    for face in faces:
        assert spoken(face).strip() and not SYMBOLS.search(spoken(face)), face
        adds_nothing(face)
    for code, sentence in CHILD_MESSAGES.items():
        said = spoken(sentence.replace("{", "").replace("}", ""))
        assert not SYMBOLS.search(said), (code, said)
        adds_nothing(sentence.replace("{", "").replace("}", ""))
        heard = iter(w.rstrip(".,:;!?") for w in said.split())  # every word kept, in order
        assert all(w in heard for w in sentence.split() if w.isalpha() and len(w) > 1), code
    voice, _ = speaker()
    voice.say("5 - 3 = 2")
    assert voice.rendered == ["5 minus 3 equals 2"] and voice.said == ["5 - 3 = 2"]  # type: ignore[attr-defined]


ALONE = {  # each rule of SPOKEN by itself: what it is shown, what it gives
    "point": ("planted .: x, and “.”. (2.5).", "planted point : x, and “ point ”. (2.5)."),
    "empty set": ("Block (∅): ∅ Blocked", "Block (empty set): empty set Blocked"),
    "cancel": ("Cancel (↵): ↵ on +7", "Cancel (cancel): cancel on +7"),
    "words in brackets": ("ready (to change it) (2 + 3)", "ready , to change it, (2 + 3)"),
    "plus or minus": ("+/− and +/-", "plus or minus and plus or minus"),
    "size": ("−|n÷2|", "− the size of n÷2"),
    "number's": ("Player 2's line, Ana's", "Player 2s line, Ana's"),
    "times": (
        "5 x 6 × 2, 3X4, +, - or x, + - x, The x card, box, x²",
        "5 times 6 times 2, 3 times 4, +, - or times , + - times , The x card, box, x²",
    ),
    "ex": (
        "x marks the spot, the letter x. x-ray, box, 5x6",
        "ex marks the spot, the letter ex . x-ray, box, 5x6",
    ),
    "squared": ("2²", "2 squared"),
    "cubed": ("2³", "2 cubed"),
    "square root": ("√9", "the square root of 9"),
    "divided by": ("6 ÷ 2", "6 divided by 2"),
    "over": ("7/3, +/−, and/or", "7 over 3, + over −, and/or"),
    "minus": ("5 − 3 - -2, seat-button", "5 minus 3 minus minus 2, seat-button"),
    "plus": ("+5 + 2", "plus 5 plus 2"),
    "equals": ("2 = 2", "2 equals 2"),
    "does not equal": ("2 ≠ 3", "2 does not equal 3"),
    "open bracket": ("(2", "open bracket 2"),
    "close bracket": ("3)", "3 close bracket"),
    "one star": ("Ana, 1 ★. Ben, 11 ★", "Ana, 1 star. Ben, 11 ★"),
    "stars": ("4 ★", "4 stars"),
    "no space before a stop": ("bracket . Put , it ! .csv", "bracket. Put, it! .csv"),
}


def test_speech_each_symbol_rule_alone() -> None:
    """Round 31: the rules run in order, and some lean on the ones before; each is
    named and checked by itself here (the whole, in order: the test above)."""
    from tabletop.ui.speech import SPOKEN

    assert list(ALONE) == list(SPOKEN)  # a new rule comes with its example
    for name, (shown, said) in ALONE.items():
        pattern, words = SPOKEN[name]
        assert " ".join(pattern.sub(words, shown).split()) == said, name


def test_speech_a_dialog_that_opens_says_its_title_and_words_not_its_buttons() -> None:
    """The Leave question, M.E.C.S.'s "Which card goes back under its stack?": a pop-up's
    question was only drawn; it is said as it opens, as a prompt (it cuts the table's
    sentence). Over a teacher's screen a dialog says nothing."""
    from tabletop.ui.controller import Ask
    from tabletop.ui.scenes.common import Confirm
    from tabletop.ui.scenes.pin import PinPad
    from tests.ui.games.test_math_attack import start

    app, auto, scene = start(bot="easy", first=0)
    voice, channel = listening(app)
    scene.ask_about(Ask("back", "Which card goes back under its stack?", (("7", "7"), ("+", "+"))))
    assert voice.said == ["Which card goes back under its stack?"]
    auto.tap("cancel")
    auto.tap("hand.0")
    app.step()
    auto.tap("leave")
    leave = f"Leave this game? {child_message('ui.leave')}"
    assert voice.said[-1] == leave and "Keep playing" not in voice.said[-1]
    app.step()
    assert channel.playing == leave.encode()
    auto.tap("no")
    app.stack.push(PinPad(app.ctx))
    app.stack.push(Confirm(app.ctx, "Remove this student?"))
    assert voice.said[-1] == leave


def math_attack_ended():
    """Math Attack! ended by its last move, heard from that move on (ATK-5: Player 1
    played =, Player 2's last turn doubles their line to 9): the app, the autoplayer,
    the table, the results on top, (speaker, channel)."""
    from tabletop.ui.results import GameResults
    from tests.ui.games.test_math_attack import see, start

    app, auto, scene = start()
    see(app, 0, ["+8"])
    see(app, 1, ["+3"])
    see(app, 0, ["+8", "END"])
    heard = listening(app)
    auto.tap("line.1")
    auto.tap("choice.+D")
    assert isinstance(app.stack.top, GameResults)
    return app, auto, scene, app.stack.top, heard


def results_saying():
    """:func:`math_attack_ended` with its last move heard: the results' words playing and
    their places waiting. The app, the autoplayer, the results, the speaker, the channel,
    the places."""
    app, auto, _, results, (voice, channel) = math_attack_ended()
    channel.finish()
    app.step()
    words, places = voice.said[-2:]
    assert channel.playing == spoken(words).encode() and list(voice._waiting) == [places]
    return app, auto, results, voice, channel, places


def test_speech_the_last_move_is_heard_before_the_results() -> None:
    """Math Attack! goes straight to its results after the last move: the results' words
    wait for the sentence that ended the game; they cut it in the same frame before."""
    app, _, scene, results, (voice, channel) = math_attack_ended()
    assert scene.message.startswith("Player 2 plays")
    app.step()
    assert channel.playing == spoken(scene.message).encode()  # not cut by the results
    channel.finish()
    app.step()
    assert voice.spoken[-1].startswith(results.outcome.title)


def test_speech_the_results_say_why_the_game_ended_then_each_places_score() -> None:
    """The results said only their title: they say the title, the reason line and the
    game's lines in the words shown, then each place's score (round 34: from the sentence
    table, once, queued after, never over it); the next screen's words cut them."""
    app, auto, _, results, (voice, channel) = math_attack_ended()
    out = results.outcome
    words = f"Player 2 wins! {out.reason} {out.lines[0]}"
    rows = (("1st", "Player 2", "9"), ("2nd", "Player 1", "8"))
    places = " ".join(child_message("ui.place", place=p, name=n, score=s) for p, n, s in rows)
    assert voice.said[-2:] == [words, places] and places == "1st: Player 2, 9. 2nd: Player 1, 8."
    assert out.reason.startswith("The game ended because Player 1 played =")
    assert out.lines[0].startswith("Player 2's line totals 9")
    channel.finish()
    app.step()
    assert channel.playing == spoken(words).encode() and list(voice._waiting) == [places]
    results.enter()  # on top again (a dialog closed over it): nothing said twice
    assert voice.said.count(words) == voice.said.count(places) == 1
    channel.finish()
    app.step()
    assert channel.playing == spoken(places).encode()
    stops = channel.stops
    auto.tap("again")  # the next screen's words cut it
    assert channel.stops > stops and channel.playing != spoken(places).encode()
    assert app.stack.top is not results and voice.spoken[-3:-1] == [words, places]


def test_speech_the_results_places_that_wait_go_with_the_next_screens_words() -> None:
    app, auto, results, voice, _, places = results_saying()
    auto.tap("again")
    assert (
        places not in voice._waiting and places not in voice.spoken and app.stack.top is not results
    )


def test_speech_leaving_a_screen_cuts_what_it_was_saying() -> None:
    """Round 36 (issue 21: a prompt is cut when the next one replaces it): Home from the
    results left their words playing, and their places waiting, over Home, which says
    nothing. A scene that leaves cuts what it said and left waiting (at the next frame);
    the results still wait for the game's last move (they ask to be heard after it); a
    dialog that closes is cut, and a silent teacher's screen cuts nothing."""
    from tabletop.ui.scenes.common import Confirm
    from tabletop.ui.scenes.settings import SettingsScene
    from tests.ui.scenery import Recorder

    app, auto, results, voice, channel, places = results_saying()
    auto.tap("home")
    app.step()
    assert app.stack.top is not results and channel.playing is None and not voice._waiting
    assert places not in voice.spoken
    under = Recorder(app.ctx)
    app.stack.push(under)
    under.message = "Ana: show your cards."
    app.stack.push(Confirm(app.ctx, "Splash: new round?"))
    app.step()
    assert channel.playing == b"Splash: new round?"
    app.stack.pop()
    app.step()
    assert channel.playing is None
    under.message = "Ana: show your cards."
    app.step()
    app.stack.push(SettingsScene(app.ctx))
    app.stack.pop()
    app.step()
    assert channel.playing == b"Ana: show your cards."


def test_speech_a_prompt_the_line_no_longer_shows_is_cut_for_what_it_shows() -> None:
    """Mathe-Meister alone: "Now tap a white box for the 3." played on after the box was
    tapped, the step the line then showed waiting behind it. A prompt is cut once the line
    no longer shows it, and what the line shows is said; a step beside a prompt still on
    the line waits behind it (as before: the tests above)."""
    from tests.ui.scenery import DICE
    from tests.ui.test_solo_game import game_of, start_solo

    app = make_app()
    auto = start_solo(app)
    auto.tap_dice(DICE[0])
    voice, channel = listening(app)
    scene = game_of(app)
    auto.tap("die0")
    app.step()
    picked = scene.status()
    assert picked.startswith("Now tap a white box") and channel.playing == picked.encode()
    auto.tap("cell.r0c0")
    app.step()
    now = scene.status()
    assert picked not in now and channel.playing == now.encode() and not voice._waiting


def test_speech_a_verdict_is_a_prompt_heard_before_the_next_hand() -> None:
    """Math Wars Meta: the hand's verdict (a game's own words on the line, not its next
    step) waited as a step behind "Player 2: now press your seat button..." and tapping
    Next hand dropped it unheard. It is a prompt: said at once, the press's prompt cut."""
    from tests.ui.games.test_math_wars_meta import answer, show, start, tap

    app = make_app()
    table = start(app)
    voice, channel = listening(app)
    show(app, 0, "C9", "K-4")
    show(app, 1, "C3", "KX5")
    answer(app, 0, 5)
    answer(app, 1, 15)
    verdict = table.status()
    assert table.play.verdict is not None and "wins the hand" in verdict
    assert voice.said[-1] == verdict and channel.playing == spoken(verdict).encode()
    assert not voice._waiting
    tap(app, "next")
    assert verdict in voice.spoken


def test_speech_the_teachers_menu_and_what_opens_over_it_are_not_read_to_the_class() -> None:
    """Round 31: Math Wars Meta's Teacher, PIN 2468: the speaker said "Teacher: what do
    you want to do? …" and cut what the children were hearing; so did Mathe-Meister
    alone's rotation menu. A teacher's screen is silent, and so is what opens over it."""
    from tabletop.ui.scenes.common import Confirm
    from tests.ui.games.test_math_wars_meta import start, teacher
    from tests.ui.scenery import start_solo
    from tests.ui.test_rotation_screens import MIN, rotation_app

    app = make_app()
    table = start(app)
    voice, channel = listening(app)
    voice.say("Ana: show your cards.")
    app.step()
    stops = channel.stops
    teacher(app)
    assert app.stack.top.title.startswith("Teacher: what do you want to do?")
    app.stack.push(Confirm(app.ctx, "Splash: new round?"))
    assert voice.said == ["Ana: show your cards."] and channel.stops == stops
    assert channel.playing == b"Ana: show your cards."
    app.stack.pop()
    app.stack.pop()
    table.message = "Back to the game."  # the table speaks again once the menu is gone
    assert voice.said[-1] == "Back to the game."
    app, wall, _ = rotation_app(station=0)
    auto = start_solo(app)
    auto.tap_dice((3, 5))
    wall.advance(5 * MIN)
    voice, channel = listening(app)
    auto.tap("teacher")
    for digit in "2468":
        auto.tap(f"key.{digit}")
    assert auto.top.target("choice.rotation.extend") is not None and voice.said == []


def test_speech_one_way_a_scene_speaks_and_one_join_of_its_pieces() -> None:
    """Round 31: the "end each piece with a full stop" join was written three ways (a
    dialog's counted ":", the station's ",", the dice's and the results' neither) and
    the dice, name, station and table screens called the speaker themselves, past the
    teacher's-screen rule. One join (:func:`sentences`), one way (``Scene.speak``)."""
    from pathlib import Path

    from tabletop.ui.scenes.dice import DiceScene
    from tabletop.ui.scenes.settings import SettingsScene
    from tabletop.ui.speech import sentences

    assert sentences("Group Red,", "this is Station 2") == "Group Red, this is Station 2."
    assert sentences(" Pick one: ", "", "the 3 or the 5") == "Pick one: the 3 or the 5."
    assert (
        sentences("I am looking…", "Roll!", "1st: Ana, 4 ★") == "I am looking… Roll! 1st: Ana, 4 ★."
    )
    assert sentences("", " ") == ""
    calls = [
        path
        for path in Path("tabletop/ui").rglob("*.py")
        if path.name != "app.py" and re.search(r"speaker\.(say|step)\(", path.read_text())
    ]
    assert calls == []
    for teacher in (True, False):
        app = make_app()
        if teacher:
            app.stack.push(SettingsScene(app.ctx))
        voice, _ = listening(app)
        dice = DiceScene(app.ctx, title="Roll", mode="tap", roll=lambda: (1, 2), match_id=None)
        app.stack.push(dice)
        dice.press("mode.virtual")  # what is new on it is said, unless over a teacher's screen
        assert voice.said == ([] if teacher else ["The device rolls two dice."])
