"""Helpers shared by the page, PDF and browser tests: characters with full sheets, PDF reading."""

from __future__ import annotations

import re
import zlib

from characters import items, services

STATS = {"STR": 12, "CON": 13, "RES": 11, "NIM": 12, "DEX": 14, "ACC": 15, "MEL": 10,
         "PRAC": 13, "THEO": 12, "ENC": 11, "LAN": 12, "AWA": 14, "PERS": 9}
INT_DICE = [4, 2]  # INT = ⌊(13 + 12 + 11 + 12) / 4⌋ + 4 − 2 = 14: 28 skill points

LINES = {
    "disadvantages": [{"name": "Honour-bound", "value": 2, "ranks": 2, "affects": "lying"},
                      {"name": "Nearsighted", "value": 1, "ranks": 1}],
    "equipment": [{"name": "Field medkit", "breadth": "narrow", "ranks": 1, "notes": "bandages, splints"},
                  {"name": "Lockpicks", "breadth": "specific", "ranks": 2}],
    "weapons": [{"name": "Service pistol", "damage_points": 4, "rate_of_fire": 1, "skilled": True},
                {"name": "Combat knife", "damage_points": 3, "rate_of_fire": 1, "melee": True, "reach_steps": 1}],
    "armour": [{"name": "Kevlar vest", "hardness": 4, "coverage": 2, "nim_penalty": 1},
               {"name": "Helmet", "hardness": 5, "coverage": 1, "worn": False}],
    "languages": [{"name": "English", "native": True, "spoken": 3, "heard": 3, "written": 3, "read": 3},
                  {"name": "Latin", "era": "Classical", "written": 1, "read": 2}],
}


def make_character(personas, *, owner: str = "player", name: str = "Ada Quill", skills: int = 1,
                   lines: bool = False, classified: bool = False, gm_notes: str = "", stats=None):
    """Create a draft with ``skills`` skills and, with ``lines``, two of every other kind of line."""
    campaign, user = personas["campaign"], personas[owner]
    character = services.character_create(campaign=campaign, owner=user, name=name, stats=stats or STATS,
                                          int_dice=INT_DICE, by=user)
    by, is_gm = (personas["gm"], True) if classified else (user, False)
    for i in range(skills):
        items.item_create(character=character, kind_name="skills", by=by, is_gm=is_gm, data={
            "name": "Pilot" if i == 0 else f"Skill {i}", "breadth": "specific", "ranks": 1 + i % 3,
            "stat": ["ACC", "PRAC", "AWA", "THEO"][i % 4]})
    if lines:
        for kind, rows in LINES.items():
            for row in rows:
                items.item_create(character=character, kind_name=kind, data=row, by=by, is_gm=is_gm)
    if gm_notes:
        services.character_update(character=character, by=personas["gm"], is_gm=True, data={"gm_notes": gm_notes})
    character.refresh_from_db()
    return character


def pdf_objects(data: bytes) -> bytes:
    """Return the PDF with every Flate stream inflated, so objects inside object streams show."""
    chunks = [data]
    for match in re.finditer(rb"stream\r?\n", data):
        start = match.end()
        end = data.find(b"endstream", start)
        try:
            chunks.append(zlib.decompressobj().decompress(data[start:end]))
        except zlib.error:
            continue
    return b"\n".join(chunks)


def pdf_page_count(data: bytes) -> int:
    """Count page objects (/Type /Page, not /Pages), looking inside compressed object streams."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf_objects(data)))


def _pdf_string(literal: bytes | None, hexa: bytes | None) -> str:
    if literal is not None:
        return literal.decode("latin-1")
    raw = bytes.fromhex(hexa.decode())
    return raw.decode("utf-16") if raw[:2] in (b"\xfe\xff", b"\xff\xfe") else raw.decode("latin-1")


def pdf_titles(data: bytes) -> list[str]:
    """Return every /Title in the PDF: the document's metadata and its bookmarks (h1, h2)."""
    return [_pdf_string(m.group(1), m.group(2))
            for m in re.finditer(rb"/Title\s*(?:\((.*?)\)|<([0-9a-fA-F]+)>)", pdf_objects(data))]
