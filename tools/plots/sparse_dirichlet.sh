#!/bin/sh
# Draws Figures 1 and 2 of Baker et al. (2018) from the CSVs written by //tools:sparse_dirichlet.
# Usage: sparse_dirichlet.sh OUTPUT_DIR   (needs gnuplot with the pngcairo terminal)
set -e
dir="$1"
here="$(dirname "$0")"
if ! command -v gnuplot >/dev/null 2>&1; then
  echo "sparse_dirichlet.sh: gnuplot is not on PATH" >&2
  exit 1
fi
gnuplot -e "dir='${dir}'" "${here}/sparse_dirichlet_fig1.gp"
gnuplot -e "dir='${dir}'" "${here}/sparse_dirichlet_fig2.gp"
