"""The game-agnostic core: codec, dealers, matches and their logs, error classes.

DESIGN.md "The one idea that holds it together: chance comes from outside": engines
never roll; dealers answer chance requests; every game is a replayable log of actions.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from typing import Any

import hypothesis
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.engine import (
    BadInput,
    ChanceRequest,
    CorruptLog,
    DeviceError,
    IllegalMove,
    ImpossibleOutcome,
    KeyedDealer,
    Match,
    Result,
    RngDealer,
    ScriptedDealer,
    TabletopError,
)
from tabletop.engine.codec import (
    canonical,
    decode,
    decode_action,
    digest,
    encode,
    encode_action,
)
from tabletop.games import GAMES
from tabletop.games.mathe_meister import (
    ACTION_TYPES,
    ALL_ROLLS,
    ChangeDie,
    ClaimStar,
    EndRound,
    MatheMeisterSettings,
    MatheMeisterState,
    Roll,
    SwapOperands,
    SwapOperators,
    WriteOperand,
    WriteOperator,
)
from tests.mm_play import play_randomly, play_round

EVERY_ACTION = [
    Roll((3, 5)),
    ChangeDie(1, 0, -2),
    WriteOperand(0, (2, 4), 5, 1),
    WriteOperand(0, (0, 0), 6, 0, "6"),
    WriteOperator(2, (1, 0), "x"),
    WriteOperator(0, (0, 5), "+", power=True),
    ClaimStar(1, "C3", "coin"),
    ClaimStar(0, "R2", "5", at=1234),
    SwapOperators(0, (0, 1), (2, 5)),
    SwapOperands(3, (0, 0), (6, 6)),
    EndRound(2),
]


def test_codec_action_types_are_all_covered() -> None:
    """Every Mathe-Meister action type has an instance in the round-trip list."""
    assert {type(a) for a in EVERY_ACTION} == set(ACTION_TYPES)


@pytest.mark.parametrize("action", EVERY_ACTION, ids=lambda a: type(a).__name__)
def test_codec_action_round_trip(action: Any) -> None:
    data = encode_action(action)
    assert data["type"] == type(action).__name__
    text = json.dumps(data)
    back = decode_action(ACTION_TYPES, json.loads(text))
    assert back == action
    assert type(back) is type(action)
    assert isinstance(getattr(back, "cell", (0, 0)), tuple)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"modes": ("twins",), "negative_sums": "signed"},
        {"modes": ("coinless", "small_to_big", "fear_of_fours"), "operator_supply": 0},
        {"modes": ("Big to Small",), "operator_supply": 9},
    ],
)
def test_codec_settings_round_trip(layout: Any, options: dict[str, Any]) -> None:
    settings = MatheMeisterSettings(layout, **options)
    data = json.loads(json.dumps(encode(settings)))
    assert decode(MatheMeisterSettings, data, "settings") == settings


def test_codec_state_round_trip_mid_round(game: Any, settings: Any) -> None:
    """A state with dice, turns, claims, stars and used powers survives JSON."""
    state = game.new_game(settings(), 2)
    moves = {
        0: [((0, 0), 1), ((0, 2), 2), ((0, 1), "+"), ((0, 5), "x")],
        1: [((0, 0), 1), ((0, 2), 2), ((1, 0), "-"), ((5, 0), "x")],
    }
    state, _ = play_round(game, state, (1, 2), moves)
    moves = {
        0: [((0, 4), 3), ((0, 6), 4), ((2, 1), "+"), ((2, 5), "-")],
        1: [((0, 4), 3), ((2, 0), 4), ((1, 2), "+"), ((5, 2), "-")],
    }
    state, _ = play_round(game, state, (3, 4), moves, end=False)
    state, _ = game.apply(state, ClaimStar(0, "R1", "coin", at=77))
    assert state.claims and state.dice == (3, 4)
    data = json.loads(canonical(encode(state)))
    back = decode(MatheMeisterState, data, "state")
    assert back == state
    assert digest(back) == digest(state)


def test_codec_digest_changes_with_state(game: Any, settings: Any) -> None:
    state = game.new_game(settings(), 1)
    rolled, _ = game.apply(state, Roll((1, 1)))
    other, _ = game.apply(state, Roll((1, 2)))
    assert len({digest(state), digest(rolled), digest(other)}) == 3
    assert digest(rolled) == digest(game.apply(state, Roll((1, 1)))[0])


def test_codec_digest_of_a_state_is_kept_and_of_anything_else_worked_out_each_time(
    game: Any, settings: Any
) -> None:
    """A state (a frozen dataclass) is fingerprinted once per object; equal states have
    equal digests, and a mutable value's digest follows its changes."""
    state = game.new_game(settings(), 1)
    first = digest(state)
    assert digest(state) == first
    assert digest(decode(MatheMeisterState, encode(state), "state")) == first  # another object
    data = {"dice": [1, 2]}
    before = digest(data)
    data["dice"].append(3)
    assert digest(data) != before
    assert digest(data) == digest({"dice": [1, 2, 3]})


def test_codec_fractions_encode_as_exact_text() -> None:
    result = Result((Fraction(7, 2), Fraction(-3), Fraction(0)), (1, 3, 2), "x")
    data = encode(result)
    assert data["scores"] == ["7/2", "-3", "0"]
    assert decode(Result, json.loads(json.dumps(data))) == result
    assert decode(Fraction, 5) == Fraction(5)
    assert decode(Fraction, "-1/3") == Fraction(-1, 3)


@pytest.mark.parametrize("bad", ["seven", True, 1.5, None, [1]])
def test_codec_bad_fraction_is_bad_input(bad: Any) -> None:
    with pytest.raises(BadInput) as info:
        decode(Fraction, bad, "scores[0]")
    assert "scores[0]" in info.value.message


def test_codec_fraction_with_zero_denominator_is_bad_input() -> None:
    with pytest.raises(BadInput) as info:
        decode(Fraction, "1/0", "scores[0]")
    assert "scores[0]" in info.value.message


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"seat": "zero", "cell": [0, 0], "value": 1, "die": 0}, "seat"),
        ({"seat": 0, "cell": [0], "value": 1, "die": 0}, "cell"),
        ({"seat": 0, "cell": "0,0", "value": 1, "die": 0}, "cell"),
        ({"seat": 0, "cell": [0, 0], "value": True, "die": 0}, "value"),
        ({"seat": 0, "cell": [0, 0], "value": 1}, "die"),
        ({"seat": 0, "cell": [0, 0], "value": 1, "die": 0, "power": 6}, "power"),
        ({"seat": 0, "cell": [0, 0], "value": 1, "die": 0, "colour": "red"}, "colour"),
    ],
)
def test_codec_bad_shape_names_the_field(data: dict[str, Any], field: str) -> None:
    with pytest.raises(BadInput) as info:
        decode_action(ACTION_TYPES, {"type": "WriteOperand", **data}, "action")
    assert info.value.code == "codec.shape"
    assert field in info.value.message


def test_codec_bad_settings_name_the_field(layout: Any) -> None:
    data = encode(MatheMeisterSettings(layout))
    data["negative_sums"] = "sideways"
    with pytest.raises(BadInput) as info:
        decode(MatheMeisterSettings, data, "settings")
    assert "settings.negative_sums" in info.value.message
    data = encode(MatheMeisterSettings(layout))
    data["layout"]["star_values"] = "lots"
    with pytest.raises(BadInput) as info:
        decode(MatheMeisterSettings, data, "settings")
    assert "settings.layout.star_values" in info.value.message


@pytest.mark.parametrize("data", [None, [], "Roll", {"dice": [1, 2]}, {"type": 3}])
def test_codec_action_without_type_is_bad_input(data: Any) -> None:
    with pytest.raises(BadInput) as info:
        decode_action(ACTION_TYPES, data)
    assert info.value.code == "codec.shape"


def test_codec_unknown_action_type() -> None:
    with pytest.raises(BadInput) as info:
        decode_action(ACTION_TYPES, {"type": "Cheat", "seat": 0})
    assert info.value.code == "codec.unknown_action"
    assert "Cheat" in info.value.message


# -- dealers ---------------------------------------------------------------------------


def _dice_request() -> ChanceRequest[Any]:
    return ChanceRequest("dice", "two dice", ALL_ROLLS)


def test_dealer_rng_is_deterministic_by_seed() -> None:
    request = _dice_request()
    first = [RngDealer(7).deal(request) for _ in range(3)]
    a, b, c = RngDealer(7), RngDealer(7), RngDealer(8)
    run_a = [a.deal(request) for _ in range(40)]
    run_b = [b.deal(request) for _ in range(40)]
    run_c = [c.deal(request) for _ in range(40)]
    assert run_a == run_b
    assert run_a != run_c
    assert first == [run_a[0]] * 3
    assert all(r in ALL_ROLLS for r in run_a)
    assert len(set(run_a)) > 10


def test_dealer_rng_uses_exact_integer_weights() -> None:
    """An outcome of weight w is picked by ``randrange(total)`` over cumulative weights."""
    request = ChanceRequest("card", "a card", ("a", "b", "c", "d"), (0, 3, 0, 1))
    dealer = RngDealer(2024)
    mirror = random.Random(2024)
    seen = []
    for _ in range(400):
        pick = mirror.randrange(4)
        expected = "b" if pick < 3 else "d"
        got = dealer.deal(request)
        assert got == expected
        seen.append(got)
    assert set(seen) == {"b", "d"}
    assert 250 < seen.count("b") < 350


def test_dealer_keyed_draws_depend_only_on_seed_and_position() -> None:
    # Resuming from the journal: a new dealer at the same position deals the same.
    request = _dice_request()
    where = [0]
    dealer = KeyedDealer(5, lambda: where[0])
    run = []
    for n in range(30):
        where[0] = n
        run.append(dealer.deal(request))
    again = [KeyedDealer(5, lambda n=n: n).deal(request) for n in range(30)]
    other = [KeyedDealer(6, lambda n=n: n).deal(request) for n in range(30)]
    assert run == again != other
    assert len(set(run)) > 10
    weighted = ChanceRequest("card", "a card", ("a", "b"), (0, 1))
    assert {KeyedDealer(1, lambda n=n: n).deal(weighted) for n in range(20)} == {"b"}


def test_dealer_rng_with_no_outcome_is_impossible() -> None:
    with pytest.raises(ImpossibleOutcome) as info:
        RngDealer(1).deal(ChanceRequest("dice", "nothing", ()))
    assert info.value.code == "dealer.no_outcome"


def test_chance_request_weights_must_match_outcomes() -> None:
    with pytest.raises(ValueError, match="weights"):
        ChanceRequest("card", "a card", ("a", "b"), (1,))
    assert ChanceRequest("card", "a card", ("a", "b")).weight_of(1) == 1


def test_dealer_scripted_gives_outcomes_in_order() -> None:
    dealer = ScriptedDealer([Roll((6, 1)), Roll((2, 2)), Roll((1, 6))])
    request = _dice_request()
    assert dealer.remaining == 3
    assert dealer.deal(request) == Roll((6, 1))
    assert dealer.deal(request) == Roll((2, 2))
    assert dealer.remaining == 1
    assert dealer.deal(request) == Roll((1, 6))
    assert dealer.remaining == 0


def test_dealer_scripted_rejects_outcome_not_requested() -> None:
    dealer = ScriptedDealer([Roll((7, 1)), Roll((1, 1))])
    with pytest.raises(ImpossibleOutcome) as info:
        dealer.deal(_dice_request())
    assert info.value.code == "engine.impossible_outcome"
    assert "(7, 1)" in info.value.message
    assert dealer.remaining == 2


def test_dealer_scripted_exhausted() -> None:
    dealer = ScriptedDealer([Roll((1, 1))])
    dealer.deal(_dice_request())
    with pytest.raises(ImpossibleOutcome) as info:
        dealer.deal(_dice_request())
    assert info.value.code == "dealer.script_exhausted"


# -- matches ---------------------------------------------------------------------------


def _match(settings: Any, seats: int = 1) -> Match[Any, Any, Any]:
    return Match(GAMES["mathe-meister"], settings(), seats, seed=5)


def test_match_deal_applies_the_dealers_outcome(settings: Any) -> None:
    match = _match(settings)
    events = match.deal(ScriptedDealer([Roll((4, 2))]))
    assert match.state.dice == (4, 2)
    assert match.history == (Roll((4, 2)),)
    assert events[0].code == "mm.rolled"
    assert match.pending.seats == frozenset({0})
    with pytest.raises(IllegalMove) as info:
        match.deal(ScriptedDealer([Roll((1, 1))]))
    assert info.value.code == "engine.no_chance"
    assert match.history == (Roll((4, 2)),)


def test_match_undo_restores_previous_state(settings: Any) -> None:
    match = _match(settings)
    states = [match.state]
    actions = [Roll((4, 2)), WriteOperand(0, (0, 0), 4, 0), WriteOperator(0, (0, 1), "x")]
    for action in actions:
        match.apply(action)
        states.append(match.state)
    assert len(set(map(digest, states))) == 4
    for action in reversed(actions):
        assert match.undo() == action
        states.pop()
        assert match.state == states[-1]
    assert match.state == match.initial
    assert match.history == ()


def test_match_undo_on_empty_is_illegal(settings: Any) -> None:
    match = _match(settings)
    with pytest.raises(IllegalMove) as info:
        match.undo()
    assert info.value.code == "engine.nothing_to_undo"


def test_match_refused_action_leaves_match_unchanged(settings: Any) -> None:
    match = _match(settings)
    match.apply(Roll((4, 2)))
    before, history, lines = match.state, match.history, list(match.log_lines())
    with pytest.raises(IllegalMove) as info:
        match.apply(WriteOperand(0, (0, 0), 5, 0))
    assert info.value.code == "mm.not_the_die"
    with pytest.raises(IllegalMove):
        match.apply(EndRound(0))
    assert match.state is before
    assert match.history == history
    assert list(match.log_lines()) == lines


@hypothesis.settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(GAMES)), st.integers(0, 10**6), st.lists(st.booleans(), max_size=80))
def test_match_moves_and_last_agree_with_history_and_steps(
    name: str, seed: int, undos: list[bool]
) -> None:
    """``Match.moves``, ``Match.last`` and ``Match.step(i)`` answer ``len(history)``,
    ``steps[-1]`` and ``steps[i]`` without building them, after every apply and undo of a
    random game of every engine."""
    from tabletop.selfplay import SEATS, choose, default_settings

    match = Match(GAMES[name], default_settings(name), SEATS.get(name, 2), seed=seed)
    assert match.moves == 0 and match.last is None
    for undo in undos:
        if undo and match.history:
            match.undo()
        elif not match.game.is_over(match.state):
            match.apply(choose(match, seed))
        assert match.moves == len(match.history) == len(match.steps)
        assert match.last is (match.steps[-1] if match.steps else None)
        assert all(match.step(i) is step for i, step in enumerate(match.steps))
    with pytest.raises(IndexError):
        match.step(match.moves)


def _played_match(settings: Any, seats: int, seed: int) -> Match[Any, Any, Any]:
    match = Match(GAMES["mathe-meister"], settings(), seats, seed=seed)
    play_randomly(match, random.Random(seed), RngDealer(seed))
    return match


@pytest.fixture(scope="module")
def finished_log() -> list[str]:
    from tabletop.assets import mathe_meister_layout

    match = Match(GAMES["mathe-meister"], MatheMeisterSettings(mathe_meister_layout()), 2, seed=3)
    play_randomly(match, random.Random(3), RngDealer(3))
    return list(match.log_lines())


def test_match_replay_reaches_the_same_state(settings: Any) -> None:
    match = _played_match(settings, 2, 11)
    lines = list(match.log_lines())
    assert len(lines) == len(match.history) + 1
    header = json.loads(lines[0])
    assert header["game"] == "mathe-meister" and header["seats"] == 2 and header["seed"] == 11
    again = Match.replay(lines, GAMES)
    assert again.result() is not None
    assert again.state == match.state
    assert digest(again.state) == digest(match.state)
    assert again.history == match.history
    assert again.result() == match.result()


def test_match_replay_accepts_a_log_cut_short(finished_log: list[str]) -> None:
    """A log of a game in progress (a crash mid-game) replays to that point."""
    again = Match.replay(finished_log[:20], GAMES)
    assert len(again.history) == 19
    assert again.result() is None


def _replay_error(lines: list[str]) -> CorruptLog:
    with pytest.raises(CorruptLog) as info:
        Match.replay(lines, GAMES)
    return info.value


def test_match_replay_tampered_digest(finished_log: list[str]) -> None:
    lines = list(finished_log)
    record = json.loads(lines[9])
    record["digest"] = "0" * 16
    lines[9] = json.dumps(record)
    error = _replay_error(lines)
    assert error.code == "log.digest"
    assert "line 10" in error.message


def test_match_replay_changed_action_that_is_legal(finished_log: list[str]) -> None:
    """A different first roll is a legal action, but its digest no longer matches."""
    lines = list(finished_log)
    record = json.loads(lines[1])
    assert record["action"]["type"] == "Roll"
    a, b = record["action"]["dice"]
    record["action"]["dice"] = [a % 6 + 1, b]
    lines[1] = json.dumps(record)
    error = _replay_error(lines)
    assert error.code == "log.digest"
    assert "line 2" in error.message


def test_match_replay_changed_action_that_is_illegal(finished_log: list[str]) -> None:
    lines = list(finished_log)
    record = json.loads(lines[2])
    record["action"] = {"type": "EndRound", "seat": 0}
    lines[2] = json.dumps(record)
    error = _replay_error(lines)
    assert error.code == "log.action"
    assert "line 3" in error.message


def test_match_replay_undecodable_action(finished_log: list[str]) -> None:
    lines = list(finished_log)
    record = json.loads(lines[4])
    record["action"] = {"type": "Teleport", "seat": 0}
    lines[4] = json.dumps(record)
    error = _replay_error(lines)
    assert error.code == "log.action"
    assert "line 5" in error.message


@pytest.mark.parametrize("bad", ["{not json", "[1, 2]", '"text"'])
def test_match_replay_bad_json_line(finished_log: list[str], bad: str) -> None:
    lines = list(finished_log)
    lines[6] = bad
    error = _replay_error(lines)
    assert error.code == "log.json"
    assert "line 7" in error.message


def test_match_replay_extra_action_after_game_over(finished_log: list[str]) -> None:
    lines = [*finished_log, json.dumps({"n": 999, "action": {"type": "EndRound", "seat": 0}})]
    error = _replay_error(lines)
    assert error.code == "log.action"
    assert f"line {len(lines)}" in error.message


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"version": 2}, "log.version"),
        ({"version": None}, "log.version"),
        ({"game": "chess"}, "log.game"),
        ({"format": "other"}, "log.format"),
        ({"seats": 0}, "log.header"),
        ({"seats": "two"}, "log.header"),
        ({"settings": {"layout": {}}}, "log.header"),
    ],
)
def test_match_replay_bad_header(
    finished_log: list[str], change: dict[str, Any], code: str
) -> None:
    header = {**json.loads(finished_log[0]), **change}
    error = _replay_error([json.dumps(header), *finished_log[1:]])
    assert error.code == code
    assert "line 1" in error.message


def test_match_replay_bad_json_header(finished_log: list[str]) -> None:
    error = _replay_error(["{", *finished_log[1:]])
    assert error.code == "log.json"
    assert "line 1" in error.message


def test_match_replay_empty_log() -> None:
    error = _replay_error([])
    assert error.code == "log.empty"


def test_match_replay_skips_blank_lines(finished_log: list[str]) -> None:
    lines = [finished_log[0], "", *finished_log[1:], "   "]
    assert Match.replay(lines, GAMES).history == Match.replay(finished_log, GAMES).history


# -- errors ----------------------------------------------------------------------------


def test_errors_carry_code_and_message_and_builtin_base() -> None:
    error = IllegalMove("mm.cell_full", "cell r0c0 already holds 3")
    assert isinstance(error, ValueError)
    assert isinstance(error, TabletopError)
    assert error.code == "mm.cell_full"
    assert error.message == str(error) == "cell r0c0 already holds 3"
    assert "mm.cell_full" in repr(error)
    for kind in (ImpossibleOutcome, BadInput, CorruptLog):
        assert issubclass(kind, ValueError) and issubclass(kind, TabletopError)
    assert issubclass(DeviceError, RuntimeError)
    assert not issubclass(DeviceError, ValueError)
    with pytest.raises(ValueError):
        raise IllegalMove("x.y", "caught as a ValueError")


def test_match_replay_deeply_nested_line(finished_log: list[str]) -> None:
    error = _replay_error([finished_log[0], "[" * 100_000])
    assert error.code == "log.json"
    assert "line 2" in error.message
