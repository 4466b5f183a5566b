"""JSON round-trip for frozen dataclasses: settings, states and actions.

Decoding follows the dataclass's type hints, so a log line that does not fit the shape
is refused with a message that names the field, never half-read.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import threading
import types
import typing
from collections import OrderedDict
from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from typing import Any, TypeVar

from tabletop.engine.errors import BadInput

T = TypeVar("T")

JSON = Any

# Field metadata for an option added after logs were recorded: left out of the JSON (and
# so of every digest) while it holds its default, so those logs still replay.
OMIT_DEFAULT = "omit_default"


def encode(value: Any) -> JSON:
    """Plain JSON data for a dataclass tree (Fractions become ``"a/b"`` strings)."""
    if isinstance(value, bool | int | str) or value is None:
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, JSON] = {}
        for name, omitted, default in _fields(type(value)):
            item = getattr(value, name)
            if omitted and item == default:
                continue  # a field added later, at its default: old logs keep their digests
            out[name] = encode(item)
        return out
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, frozenset | set):
        return sorted((encode(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(value, tuple | list):
        return [encode(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): encode(v) for k, v in value.items()}
    raise TypeError(f"cannot encode {type(value).__name__}")


@cache
def _fields(cls: type) -> tuple[tuple[str, bool, Any], ...]:
    """A dataclass's fields as :func:`encode` reads them: name, left out at its default,
    default (worked out once per class: a large state has hundreds of dataclasses)."""
    return tuple(
        (f.name, bool(f.metadata.get(OMIT_DEFAULT)), f.default) for f in dataclasses.fields(cls)
    )


def decode(kind: Any, data: JSON, where: str = "value") -> Any:
    """Build a value of type ``kind`` from JSON data; ``BadInput`` names what is wrong."""
    origin = typing.get_origin(kind)
    args = typing.get_args(kind)
    if kind is Any:
        return data
    if origin in (typing.Union, types.UnionType):
        if data is None and type(None) in args:
            return None
        errors = []
        for option in args:
            if option is type(None):
                continue
            try:
                return decode(option, data, where)
            except BadInput as exc:
                errors.append(exc.message)
        raise BadInput("codec.shape", errors[0] if errors else f"{where}: unexpected {data!r}")
    if origin is typing.Literal:
        if data in args:
            return data
        raise BadInput("codec.shape", f"{where}: {data!r} is not one of {list(args)}")
    if dataclasses.is_dataclass(kind) and isinstance(kind, type):
        return _decode_dataclass(kind, data, where)
    if kind is bool:
        if isinstance(data, bool):
            return data
        raise BadInput("codec.shape", f"{where}: expected true or false, got {data!r}")
    if kind is int:
        if isinstance(data, int) and not isinstance(data, bool):
            return data
        raise BadInput("codec.shape", f"{where}: expected a whole number, got {data!r}")
    if kind is str:
        if isinstance(data, str):
            return data
        raise BadInput("codec.shape", f"{where}: expected text, got {data!r}")
    if kind is Fraction:
        if isinstance(data, int | str) and not isinstance(data, bool):
            try:
                return Fraction(data)
            except (ValueError, ZeroDivisionError):
                pass
        raise BadInput("codec.shape", f"{where}: expected an exact number, got {data!r}")
    if origin in (tuple, frozenset):
        if not isinstance(data, list):
            raise BadInput("codec.shape", f"{where}: expected a list, got {data!r}")
        if origin is frozenset:
            return frozenset(decode(args[0], v, f"{where}[{i}]") for i, v in enumerate(data))
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode(args[0], v, f"{where}[{i}]") for i, v in enumerate(data))
        if len(args) != len(data):
            raise BadInput("codec.shape", f"{where}: expected {len(args)} items, got {len(data)}")
        return tuple(decode(a, v, f"{where}[{i}]") for i, (a, v) in enumerate(zip(args, data)))
    if origin in (dict, Mapping, typing.Mapping) or kind is dict:
        if not isinstance(data, dict):
            raise BadInput("codec.shape", f"{where}: expected an object, got {data!r}")
        value_kind = args[1] if args else Any
        return {k: decode(value_kind, v, f"{where}.{k}") for k, v in data.items()}
    raise TypeError(f"cannot decode into {kind!r}")


def _decode_dataclass(kind: type[T], data: JSON, where: str) -> T:
    if not isinstance(data, dict):
        raise BadInput("codec.shape", f"{where}: expected an object, got {data!r}")
    hints = typing.get_type_hints(kind)
    values: dict[str, Any] = {}
    names = {f.name for f in dataclasses.fields(kind) if f.init}  # type: ignore[arg-type]
    unknown = set(data) - names - {"type"}
    if unknown:
        raise BadInput("codec.shape", f"{where}: unknown field {sorted(unknown)[0]!r}")
    for f in dataclasses.fields(kind):  # type: ignore[arg-type]
        if not f.init:
            continue
        if f.name in data:
            values[f.name] = decode(hints[f.name], data[f.name], f"{where}.{f.name}")
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise BadInput("codec.shape", f"{where}: missing field {f.name!r}")
    try:
        return kind(**values)
    except (TypeError, ValueError) as exc:
        if isinstance(exc, BadInput):
            raise
        raise BadInput("codec.shape", f"{where}: {exc}") from exc


def encode_action(action: Any) -> JSON:
    """An action with its type tag: ``{"type": "WriteOperand", ...}``."""
    data = encode(action)
    return {"type": type(action).__name__, **data}


def decode_action(types_: tuple[type[Any], ...], data: JSON, where: str = "action") -> Any:
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise BadInput("codec.shape", f"{where}: expected an object with a 'type'")
    for kind in types_:
        if kind.__name__ == data["type"]:
            return decode(kind, data, where)
    raise BadInput("codec.unknown_action", f"{where}: unknown action type {data['type']!r}")


MAX_DIGITS = 1000  # far past any count, score or seed; below Python's 4,300-digit limit


def _whole_number(text: str) -> int:
    digits = len(text) - text.startswith("-")
    if digits > MAX_DIGITS:
        raise BadInput(
            "json.number",
            f"a number with {digits:,} digits is too long (at most {MAX_DIGITS:,} digits)",
        )
    return int(text)


def loads(text: str) -> JSON:
    """``json.loads`` that refuses whole numbers over MAX_DIGITS digits with
    :class:`BadInput` (instead of Python's ValueError past 4,300 digits, and before any
    arithmetic on them). Bad JSON and too deep nesting raise as in ``json.loads``."""
    return json.loads(text, parse_int=_whole_number)


def canonical(data: JSON) -> str:
    """Canonical JSON text: sorted keys, no spaces (for digests and logs)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(value: Any) -> str:
    """A short stable fingerprint of a state, used to prove a replay ends the same.

    A frozen dataclass (every game state: the engines' states are immutable) is
    fingerprinted once per object: the journal and the table ask again for the same
    states at every write, and a large table's state takes milliseconds to encode."""
    if not _frozen(value):
        return _fingerprint(value)
    with _DIGESTS_LOCK:
        kept = _DIGESTS.get(id(value))
        if kept is not None and kept[0] is value:
            return kept[1]
    text = _fingerprint(value)
    with _DIGESTS_LOCK:  # the object is kept with it, so its id is not reused meanwhile
        _DIGESTS[id(value)] = (value, text)
        while len(_DIGESTS) > _DIGESTS_KEPT:
            _DIGESTS.popitem(last=False)
    return text


_DIGESTS: OrderedDict[int, tuple[Any, str]] = OrderedDict()
_DIGESTS_LOCK = threading.Lock()
_DIGESTS_KEPT = 256


def _frozen(value: Any) -> bool:
    params = getattr(type(value), "__dataclass_params__", None)
    return params is not None and bool(params.frozen)


def _fingerprint(value: Any) -> str:
    return hashlib.sha256(canonical(encode(value)).encode()).hexdigest()[:16]
