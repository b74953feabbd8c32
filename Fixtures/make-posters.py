#!/usr/bin/env python3
"""Draws the small poster images of the offline catalogue from its catalogue.json
(Sources/OMDbCatalogue/Catalogue/, a resource of the OMDbCatalogue library).

Not needed to build or test: the images are committed. Run it after adding titles
(needs Pillow: `python3 -m pip install pillow`).

Every poster path ends in .jpg, as OMDb's do, but the bytes are JPEG, PNG, GIF or WebP in
turn, so the tool must pick the extension from the bytes. Two titles are broken on
purpose, as real OMDb posters sometimes are: Toxic Zombies has no file (404) and
Toxic Crusaders' file is an HTML page (200, not an image).
"""
import hashlib, json, os, textwrap
from PIL import Image, ImageDraw

CATALOGUE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "OMDbCatalogue", "Catalogue")
MISSING = {"tt0080448"}
HTML = {"tt0173344"}
FORMATS = ["PNG", "JPEG", "PNG", "GIF", "JPEG", "PNG", "WEBP", "PNG"]

def colour(seed, shift):
    h = hashlib.sha256((seed + shift).encode()).digest()
    return (60 + h[0] % 160, 60 + h[1] % 160, 60 + h[2] % 160)

def main():
    entries = json.load(open(os.path.join(CATALOGUE, "catalogue.json"), encoding="utf-8"))
    folder = os.path.join(CATALOGUE, "posters")
    os.makedirs(folder, exist_ok=True)
    for index, entry in enumerate(entries):
        poster = entry.get("Poster", "N/A")
        if poster == "N/A" or entry["imdbID"] in MISSING:
            continue
        path = os.path.join(CATALOGUE, poster)
        if entry["imdbID"] in HTML:
            open(path, "w").write("<!DOCTYPE html><html><body>Image not available</body></html>\n")
            continue
        image = Image.new("RGB", (80, 120), colour(entry["imdbID"], "a"))
        draw = ImageDraw.Draw(image)
        draw.rectangle([0, 80, 80, 120], fill=colour(entry["imdbID"], "b"))
        title = entry["Title"].encode("ascii", "replace").decode()
        for row, line in enumerate(textwrap.wrap(title, 12)[:5]):
            draw.text((4, 4 + row * 12), line, fill=(255, 255, 255))
        draw.text((4, 100), entry["Year"][:4], fill=(0, 0, 0))
        fmt = FORMATS[index % len(FORMATS)]
        if fmt == "GIF":
            image = image.convert("P", palette=Image.ADAPTIVE, colors=16)
        image.save(path, fmt, **({"quality": 60} if fmt in ("JPEG", "WEBP") else {}))

if __name__ == "__main__":
    main()
