#!/usr/bin/env python3
"""Writes reference decodings of a few JPEG posters, as binary PPM (P6), for the tests of the
Swift JPEG decoder (Sources/TerminalImages/JPEGDecoder.swift): libjpeg's pixels, through Pillow.

Not needed to build or test: the files are committed. Needs Pillow (`python3 -m pip install pillow`).
"""
import os
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
CATALOGUE_POSTERS = os.path.join(HERE, "..", "Sources", "OMDbCatalogue", "Catalogue", "posters")
POSTERS = ["tt0076759", "tt0112178", "tt0443453"]

for name in POSTERS:
    image = Image.open(os.path.join(CATALOGUE_POSTERS, name + ".jpg"))
    assert image.format == "JPEG", name
    image.convert("RGB").save(os.path.join(HERE, "jpeg-reference", name + ".ppm"))
