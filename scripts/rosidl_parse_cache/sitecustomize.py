"""Build-time only: one parse of each buddy_msgs interface for all five rosidl generators.

`make setup` puts this directory on PYTHONPATH for the buddy_msgs build and nowhere else
(scripts/setup.sh). Each rosidl generator (type description, C, C type support, C
introspection, Fast DDS C, Python) is its own Python process and parses every .idl file
again with rosidl_parser's Earley grammar: about 0.2 s of CPU per file, five times over, in
series on the build's critical path (DESIGN erratum 22, the suite's budget, set-up included).

Here the parsed content of an .idl text is kept in a pickle named by the text's hash and
rosidl_parser's version, in $BUDDY_ROSIDL_PARSE_CACHE, so the first generator parses and the
others read: the five generators' CPU went from 87 s to 45 s here. The generated sources
are the same byte for byte (all 600 files, every generator run with and without the cache
under one PYTHONHASHSEED: the C generator orders its includes by set iteration, so two
plain runs differ without it); test/unit/tools/test_rosidl_parse_cache.py checks that a
cached parse is the parse. Anything unexpected (no cache directory, an unreadable pickle)
falls back to parsing.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path


def install(cache_dir: Path) -> None:
    try:
        from rosidl_parser import parser  # noqa: PLC0415 - only in the build's generators
    except ImportError:  # a Python process of the build that is not a generator
        return
    try:
        parser_version = version("rosidl-parser")
    except PackageNotFoundError:
        parser_version = "unknown"
    parse = parser.parse_idl_string

    def cached_parse_idl_string(idl_string: str, png_file: object = None) -> object:
        if png_file is not None:  # a drawing of the tree was asked for: no cache
            return parse(idl_string, png_file=png_file)
        key = hashlib.sha256(f"{parser_version}\0{idl_string}".encode()).hexdigest()
        path = cache_dir / f"{key}.pickle"
        try:
            return pickle.loads(path.read_bytes())
        except Exception:  # absent or unreadable: parse it
            pass
        content = parse(idl_string)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        try:
            tmp.write_bytes(pickle.dumps(content, protocol=pickle.HIGHEST_PROTOCOL))
            tmp.replace(path)  # atomic: a generator running beside this one never reads half
        except Exception:  # the cache is an optimisation only
            tmp.unlink(missing_ok=True)
        return content

    parser.parse_idl_string = cached_parse_idl_string


_dir = os.environ.get("BUDDY_ROSIDL_PARSE_CACHE")
if _dir and Path(_dir).is_dir():
    install(Path(_dir))
