#!/usr/bin/env bash
# Makes the files of this folder (run from anywhere; needs libjpeg-turbo-progs and imagemagick,
# both installed by Scripts/bootstrap). They stand in for the Mozilla reftest JPEGs of the shared
# corpus, whose licence could not be established: the same kinds of file (Adobe CMYK, greyscale,
# progressive, odd sizes, an ICC profile in APP2), made from libjpeg-turbo's IJG-licensed
# testorig.jpg, from drawings made here, and from the sRGB2014 profile embedded in
# libjpeg-turbo/vgl_5674_0098.png (ICC's free-to-copy licence). The committed files are what the
# tests read; this script says how they were made and remakes them (ImageMagick's and
# libjpeg-turbo's versions may change the bytes, not what the files are).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
corpus="$here/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
convert=/usr/bin/convert
orig="$corpus/libjpeg-turbo/testorig.jpg"

# Adobe CMYK (libjpeg writes the APP14 marker; ImageMagick stores CMYK inverted, as Photoshop does).
# 1: a 32x32 gradient with yellow, green, red and blue corners.
$convert -size 32x32 xc: -sparse-color bilinear '0,0 yellow 31,0 lime 0,31 red 31,31 blue' \
  -colorspace CMYK -quality 95 "$here/jpg-cmyk-1.jpg"
# 2: 256x256 white paper with cyan, yellow, magenta and black bars at known places.
$convert -size 256x256 xc:white \
  -fill cyan -draw 'rectangle 25,30 75,51' \
  -fill yellow -draw 'rectangle 120,68 189,89' \
  -fill magenta -draw 'rectangle 50,112 134,135' \
  -fill black -draw 'rectangle 65,198 119,219' \
  -colorspace CMYK -quality 95 "$here/jpg-cmyk-2.jpg"

# A 32x32 crop of testorig.jpg as PPM, the source of the small files below.
djpeg -ppm "$orig" > "$work/orig.ppm"
$convert "$work/orig.ppm" -resize 32x32! "$work/small.ppm"
cjpeg -grayscale -quality 90 "$work/small.ppm" > "$here/jpg-gray.jpg"
cjpeg -progressive -quality 90 "$work/small.ppm" > "$here/jpg-progressive.jpg"
for n in 1 2 7 15 17 33; do
  $convert "$work/orig.ppm" -resize "${n}x${n}!" "$work/size.ppm"
  cjpeg -quality 90 "$work/size.ppm" > "$here/jpg-size-${n}x${n}.jpg"
done

# A 1x1 greyscale JPEG carrying an ICC profile (sRGB2014) in APP2.
$convert "$corpus/libjpeg-turbo/vgl_5674_0098.png" "$work/srgb.icc"
$convert -size 1x1 xc:gray50 -depth 8 pgm:"$work/grey.pgm"
cjpeg -quality 90 "$work/grey.pgm" > "$work/grey.jpg"
jpegtran -copy all -icc "$work/srgb.icc" "$work/grey.jpg" > "$here/jpg-srgb-icc.jpg"
