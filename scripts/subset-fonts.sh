#!/usr/bin/env bash
# Cuts the fonts of kickoff's diagrams (src/render/fonts/) from Debian's DejaVu fonts: ASCII for
# coordinates and lettered pieces, and the chess figures U+2654-265F. Run it only to change the
# glyphs drawn; the result is committed (a few kilobytes) so that building needs no font tools.
# Needs: apt-get install fonts-dejavu-core; pip install fonttools.
set -euo pipefail
cd "$(dirname "$0")/.."
from=/usr/share/fonts/truetype/dejavu
to=src/render/fonts
pyftsubset "$from/DejaVuSans.ttf" --unicodes=U+0020-007E,U+2654-265F \
    --output-file="$to/DejaVuSans-subset.ttf" --no-hinting --desubroutinize
pyftsubset "$from/DejaVuSans-Bold.ttf" --unicodes=U+0020-007E \
    --output-file="$to/DejaVuSans-Bold-subset.ttf" --no-hinting
