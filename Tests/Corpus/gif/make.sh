#!/usr/bin/env bash
# Makes this folder's GIFs: make.py writes the drawn ones byte by byte; ImageMagick (Scripts/bootstrap
# installs it) makes photo.gif, a 256-colour GIF of libjpeg-turbo's IJG-licensed testorig.jpg.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
python3 "$here/make.py"
/usr/bin/convert "$here/../libjpeg-turbo/testorig.jpg" -colors 256 "$here/photo.gif"
