#!/usr/bin/env python3
"""What a near-perfect copy scores on the shared comparison, design by design.

Each professional design is compared with itself after every needle is moved by its own random amount
within half of the 0.1 mm grid the file records (uniform, -0.05..0.05 mm on each axis, seeded by the design's
name): the score of a copy of exactly those stitches with every needle off by at most 0.05 mm, the most rounding
alone moves one. Only a copy that finds the professional's holes closer than that scores more.

The comparison's renderer draws a stitch from A to B on other pixels than one from B to A (a 0.4 mm line is 4
pixels wide, and which pixels its edges take depends on the way it runs), so the same copy is also scored with
every run sewn the other way, and sewn out and back (as a double running stitch goes): the artwork shows no
direction, and on designs of thread-wide lines the way a run goes moves the score by several hundredths. Drawn, aligned and scored with the comparison's own
functions (its renderer, best whole-pixel shift, and the share of pixels stitched in both where the thread's
colour is the same).

usage: python3 ceiling.py TOOL DIR OUT_JSON
  TOOL      path of digitise-vs-commercial.py (its functions are imported)
  DIR       folder of .dst files (as the comparison takes)
  OUT_JSON  where the rows are written
pyembroidery: $PYEMBROIDERY_DIR (an extracted tree) or an installed package, as for the comparison.
"""
import importlib.util
import json
import math
import os
import statistics
import sys
import zlib

PX_PER_MM = 10.0
THREAD_PX = 4.0
MARGIN_PX = 40
SHIFT_PX = 10
HALF_STEP = 0.5  # pattern units (0.1 mm): half of the grid every DST records


def load_tool(path):
    spec = importlib.util.spec_from_file_location('digitise_vs_commercial', path)
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


def score(tool, pe, np, Image, ImageDraw, path):
    pattern = pe.read(path)
    runs = tool.stitch_runs(pe, pattern)
    x0, y0, x1, y1 = tool.figures(pe, pattern)['box']
    edge = MARGIN_PX * 10.0 / PX_PER_MM
    frame = (x0 - edge, y0 - edge,
             int(math.ceil((x1 - x0) * PX_PER_MM / 10.0)) + 2 * MARGIN_PX + 1,
             int(math.ceil((y1 - y0) * PX_PER_MM / 10.0)) + 2 * MARGIN_PX + 1)
    rng = np.random.default_rng(zlib.crc32(os.path.basename(path).encode()))
    moved = [(block, [(x + rng.uniform(-HALF_STEP, HALF_STEP), y + rng.uniform(-HALF_STEP, HALF_STEP))
                      for x, y in points]) for block, points in runs]
    original = tool.render_labels(Image, ImageDraw, np, runs, frame, PX_PER_MM, THREAD_PX)
    ways = {}
    for way, copy in (('reversed', [(block, points[::-1]) for block, points in moved]),
                      ('out_and_back', [(block, points + points[-2::-1]) for block, points in moved])):
        drawn = tool.render_labels(Image, ImageDraw, np, copy, frame, PX_PER_MM, THREAD_PX)
        ways[way] = tool.best_shift(np, original > 0, drawn > 0, SHIFT_PX)[0]
    again = tool.render_labels(Image, ImageDraw, np, moved, frame, PX_PER_MM, THREAD_PX)
    iou, dx, dy = tool.best_shift(np, original > 0, again > 0, SHIFT_PX)
    again = np.roll(np.roll(again, dy, axis=0), dx, axis=1)
    # Colours as the comparison gives them: block i drawn in the card's colour i.
    card = np.array([0] + [tool.RENDER_COLOURS[i % len(tool.RENDER_COLOURS)] + 1
                           for i in range(int(original.max()))], dtype=np.int64)
    both = (original > 0) & (again > 0)
    same = both & (card[original] == card[again])
    return iou, (np.count_nonzero(same) / np.count_nonzero(both)) if both.any() else 1.0, ways


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    tool = load_tool(argv[1])
    pe = tool.load_pyembroidery(os.environ.get('PYEMBROIDERY_DIR', ''))
    import numpy as np
    from PIL import Image, ImageDraw
    names = sorted(n for n in os.listdir(argv[2]) if n.lower().endswith('.dst'))
    rows = []
    print('Ceiling (the professional\'s own stitches, each needle moved by up to 0.05 mm):')
    for name in names:
        iou, colour, ways = score(tool, pe, np, Image, ImageDraw, os.path.join(argv[2], name))
        design = os.path.splitext(name)[0]
        rows.append({'design': design, 'iou': iou, 'colour_agreement': colour,
                     'iou_reversed': ways['reversed'], 'iou_out_and_back': ways['out_and_back']})
        print(f'  {design:<24} IoU {iou:.3f}  colour {colour:.3f}  IoU sewn the other way '
              f'{ways["reversed"]:.3f}, out and back {ways["out_and_back"]:.3f}')
    if rows:
        print(f'  median IoU {statistics.median(r["iou"] for r in rows):.3f}, sewn the other way '
              f'{statistics.median(r["iou_reversed"] for r in rows):.3f}, out and back '
              f'{statistics.median(r["iou_out_and_back"] for r in rows):.3f}')
    with open(argv[3], 'w') as fh:
        json.dump({'rows': rows}, fh, indent=1)


if __name__ == '__main__':
    main(sys.argv)
