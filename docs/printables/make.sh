#!/bin/sh
# Remake the README's pictures of the printables from what `tabletop print` makes now:
# one page of each PDF, rendered by pdftoppm (poppler-utils) small enough for the README.
#   sh docs/printables/make.sh        (from the repository root; needs `tabletop` on PATH,
#                                      or TABLETOP="python -m tabletop")
set -eu
out=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tabletop=${TABLETOP:-tabletop}

# page DPI PDF NAME: page PAGE of PDF as $out/NAME-PAGE.png
page() {
    pdftoppm -png -r "$2" -f "$1" -l "$1" -singlefile "$tmp/$3.pdf" "$out/$4-$1"
}

$tabletop print deck math-attack --out "$tmp/atk.pdf" >/dev/null
$tabletop print deck math-arena --out "$tmp/arena.pdf" >/dev/null
$tabletop print deck mecs --out "$tmp/mecs.pdf" >/dev/null
$tabletop print deck math-wars-meta --army 2 --out "$tmp/mwm.pdf" >/dev/null
$tabletop print sheet mathe-meister --out "$tmp/sheet.pdf" >/dev/null
$tabletop print mats math-arena --out "$tmp/mats.pdf" >/dev/null
page 1 40 atk math-attack
page 6 40 arena math-arena
page 16 40 mecs mecs
page 5 40 mwm math-wars-meta
page 1 50 sheet sheet
page 1 40 mats mat
