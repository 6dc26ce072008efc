#!/usr/bin/env python3
"""Writes variants of the TRAINING photos of testdata/feet and testdata/notfeet (as they
are, mirrored, half size, an 80 % centre crop at JPEG quality 70, 30 % darker), and of
the feet drawing, for scripts/models/train-feet-head.py. The held-out folders are never
read. Development-time only; needs Pillow.

Usage: python3 scripts/models/feet-train-variants.py testdata OUT_DIR
"""
import glob, os, sys
from PIL import Image, ImageOps, ImageEnhance
TD = sys.argv[1]; OUT = sys.argv[2]
for kind in ('feet', 'notfeet'):
    os.makedirs(f'{OUT}/{kind}', exist_ok=True)
    files = sorted(glob.glob(f'{TD}/{kind}/train/*.jpg'))
    if kind == 'feet':
        files.append(f'{TD}/feet/feet-in-sandals-drawing.png')
    for f in files:
        stem = os.path.splitext(os.path.basename(f))[0]
        im = Image.open(f).convert('RGB'); w, h = im.size
        vs = {
            'orig': im,
            'mirror': ImageOps.mirror(im),
            'half': im.resize((max(8, w // 2), max(8, h // 2)), Image.LANCZOS),
            'crop': im.crop((w // 10, h // 10, w - w // 10, h - h // 10)),
            'dark': ImageEnhance.Brightness(im).enhance(0.7),
        }
        for k, v in vs.items():
            q = 70 if k == 'crop' else 90
            v.save(f'{OUT}/{kind}/{stem}--{k}.jpg', 'JPEG', quality=q)
print(len(glob.glob(f'{OUT}/*/*.jpg')))
