"""The words of the layer-0 table and of a child's line, as both are written (lowercase,
no apostrophes), and the error a table that breaks its own rules raises."""

from __future__ import annotations

import re
from typing import Any

import yaml

_WORD = re.compile(r"[a-z0-9']+")
_STRETCHED = re.compile(r"([a-z])\1{2,}")   # "heyyy", "byeee", "noooo": said long
_SYLLABLES = re.compile(r"([a-z]{2})\1{2,}")    # "hahahaha", "heheheh"
_WILL = re.compile(r"\b(i|you|we|he|she|they|it)'ll\b")
YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)   # libyaml: ~50x faster


class TableError(ValueError):
    """The layer-0 table breaks one of its own rules."""


def normalize_words(text: str) -> list[str]:
    """Lowercase words, apostrophes dropped ("Don't" -> "dont"), as the table is written;
    a letter said three times or more counts once ("heyyy" -> "hey"), a syllable said
    three times or more twice ("hahahaha" -> "haha"); "i'll" is "i will", not "ill"
    (held-out set 6: "okay i'll go first" was answered as illness)."""
    text = _WILL.sub(r"\1 will", text.lower().replace("\u2019", "'"))
    out = (_SYLLABLES.sub(r"\1\1", _STRETCHED.sub(r"\1", w.replace("'", "")))
           for w in _WORD.findall(text))
    return [w for w in out if w]


def strings(row: dict[str, Any], key: str, where: str) -> list[str]:
    value = row.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise TableError(f"{where}: {key} must be a list of non-empty strings")
    return value
