#!/usr/bin/env python3
"""Compile the engines' gettext catalogues (.po -> .mo) with pure Python; no msgfmt needed.

    python scripts/compile_engine_messages.py           # scoring/locale/*/LC_MESSAGES/engines.po
    python scripts/compile_engine_messages.py --check   # exit 1 if a committed .mo is stale
    python scripts/compile_engine_messages.py PATH.po   # just these

The output is deterministic (entries sorted by msgid, little-endian, no hash table), like
CPython's Tools/i18n/msgfmt.py. Fuzzy and untranslated entries are left out, as msgfmt does.
"""

from __future__ import annotations

import argparse
import ast
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_GLOB = "scoring/locale/*/LC_MESSAGES/engines.po"


class PoSyntaxError(ValueError):
    pass


def parse_po(text: str) -> dict[bytes, bytes]:
    """The translated entries of a .po file as (msgid key -> msgstr) in UTF-8 bytes.

    A key is ``msgctxt + b"\\x04" + msgid`` with a context, ``msgid + b"\\0" + msgid_plural`` for
    plurals (the msgstr forms then joined by ``b"\\0"``), as gettext expects.
    """
    catalog: dict[bytes, bytes] = {}
    entry: dict[str, str] = {}  # keyword ("msgid", "msgstr", "msgstr[1]", ...) -> text
    fuzzy = False
    last: str | None = None  # the keyword a continuation line ("...") belongs to

    def flush() -> None:
        nonlocal entry, fuzzy, last
        if "msgid" in entry and not fuzzy:
            key = entry["msgid"]
            if "msgid_plural" in entry:
                key += "\0" + entry["msgid_plural"]
                forms = sorted(
                    (k for k in entry if k.startswith("msgstr[")), key=lambda k: int(k[7:-1])
                )
                values = [entry[k] for k in forms]
            else:
                values = [entry.get("msgstr", "")]
            if "msgctxt" in entry:
                key = entry["msgctxt"] + "\x04" + key
            if any(values) or entry["msgid"] == "":
                catalog[key.encode("utf-8")] = "\0".join(values).encode("utf-8")
        entry, fuzzy, last = {}, False, None

    def complete() -> bool:
        return any(k.startswith("msgstr") for k in entry)

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if complete():
                flush()
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            continue
        if line.startswith('"'):
            keyword, rest = None, line
        else:
            keyword, _, rest = line.partition(" ")
        try:
            value = ast.literal_eval(rest.strip())
        except (SyntaxError, ValueError):
            raise PoSyntaxError(f"line {number}: bad string {rest!r}") from None
        if not isinstance(value, str):
            raise PoSyntaxError(f"line {number}: bad string {rest!r}")
        if keyword is None:
            if last is None:
                raise PoSyntaxError(f"line {number}: text outside an entry")
            entry[last] += value
            continue
        if keyword in ("msgctxt", "msgid") and complete():
            flush()
        if not (
            keyword in ("msgctxt", "msgid", "msgid_plural", "msgstr")
            or (keyword.startswith("msgstr[") and keyword.endswith("]") and keyword[7:-1].isdigit())
        ):
            raise PoSyntaxError(f"line {number}: unknown keyword {keyword!r}")
        entry[keyword] = value
        last = keyword
    flush()
    return catalog


def make_mo(catalog: dict[bytes, bytes]) -> bytes:
    """The GNU .mo bytes of a catalogue (sorted keys, no hash table)."""
    keys = sorted(catalog)
    ids = b""
    strs = b""
    offsets: list[tuple[int, int, int, int]] = []
    for key in keys:
        value = catalog[key]
        offsets.append((len(ids), len(key), len(strs), len(value)))
        ids += key + b"\0"
        strs += value + b"\0"
    header_size = 7 * 4
    key_table = header_size
    value_table = key_table + 8 * len(keys)
    key_start = value_table + 8 * len(keys)
    value_start = key_start + len(ids)
    table = b""
    for id_offset, id_len, _, _ in offsets:
        table += struct.pack("<II", id_len, key_start + id_offset)
    for _, _, str_offset, str_len in offsets:
        table += struct.pack("<II", str_len, value_start + str_offset)
    header = struct.pack("<Iiiiiii", 0x950412DE, 0, len(keys), key_table, value_table, 0, key_start)
    return header + table + ids + strs


def compile_file(po_path: Path) -> bytes:
    return make_mo(parse_po(po_path.read_text(encoding="utf-8")))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("po_files", nargs="*", type=Path)
    parser.add_argument("--check", action="store_true", help="only report stale .mo files")
    args = parser.parse_args(argv)
    paths = args.po_files or sorted(ROOT.glob(DEFAULT_GLOB))
    stale = []
    for po_path in paths:
        mo_path = po_path.with_suffix(".mo")
        data = compile_file(po_path)
        current = mo_path.read_bytes() if mo_path.exists() else None
        if current == data:
            continue
        if args.check:
            stale.append(mo_path)
        else:
            mo_path.write_bytes(data)
            print(f"wrote {mo_path}")
    for path in stale:
        print(f"stale: {path} (run scripts/compile_engine_messages.py)", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
