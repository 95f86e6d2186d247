"""Parsing ``key=value`` variant options against a game's declared variants."""

from __future__ import annotations

from .errors import PatienceError

_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}


def parse_variant(game_name: str, spec: dict, args: list[str] | tuple[str, ...] = ()) -> dict:
    """Return the full variant dict (defaults filled in) for ``key=value`` strings.

    ``spec`` maps each key to ``(kind, default)`` where kind is ``bool``, ``int`` with
    a range given as ``("int", lo, hi)``, or a tuple of allowed strings.
    """
    out = {k: v[-1] for k, v in spec.items()}
    given: dict[str, str] = {}
    for arg in args:
        if "=" not in arg:
            raise PatienceError(f"bad variant {arg!r}: write variants as key=value, e.g. {next(iter(spec), 'key')}=...")
        key, _, value = arg.partition("=")
        key, value = key.strip(), value.strip()
        if key not in spec:
            known = ", ".join(spec) or "none"
            raise PatienceError(f"unknown variant {key!r} for {game_name} (known: {known})")
        if key in given:
            # the last one silently winning would hide a typo in a long command
            raise PatienceError(f"variant {key} is given twice ({given[key]} and {arg.strip()}): give it once")
        given[key] = arg.strip()
        kind = spec[key][0]
        if kind == "bool":
            v = value.lower()
            if v not in _TRUE | _FALSE:
                raise PatienceError(f"variant {key} takes true or false, not {value!r}")
            out[key] = v in _TRUE
        elif isinstance(kind, tuple) and kind and kind[0] == "int":
            lo, hi = kind[1], kind[2]
            try:
                n = int(value)
            except ValueError:
                raise PatienceError(f"variant {key} takes a whole number from {lo} to {hi}, not {value!r}") from None
            if not lo <= n <= hi:
                raise PatienceError(f"variant {key} takes a whole number from {lo} to {hi}, not {n}")
            out[key] = n
        else:
            if value not in kind:
                raise PatienceError(f"variant {key} takes one of {'|'.join(kind)}, not {value!r}")
            out[key] = value
    return out


def variant_str(variant: dict, spec: dict) -> str:
    """The non-default options as ``key=value`` words ('standard' when none)."""
    words = []
    for k, v in variant.items():
        if k in spec and v != spec[k][-1]:
            words.append(f"{k}={str(v).lower() if isinstance(v, bool) else v}")
    return " ".join(words) or "standard"


def full_variant(game_name: str, spec: dict, variant: dict | None) -> dict:
    """A variant dict (already parsed values) with the defaults filled in; an unknown
    key is an error, not ignored."""
    full = parse_variant(game_name, spec, [])
    for k, v in (variant or {}).items():
        if k not in full:
            raise PatienceError(f"unknown variant {k!r} for {game_name} (known: {', '.join(full)})")
        full[k] = v
    return full
