# Figures of //tools:sam (Liu, Zhu & Song 2016) from the CSVs in its output directory.
# Usage: gnuplot -e "dir='OUTPUT_DIR'" sam.gp
# Each figure is drawn only when its CSV is there (the tool's --experiments may skip some):
#  - sam_toy.png from sam_toy_angles.csv (angle, exact, sggmc, gsgnht): the angle histograms of
#    SGGMC and gSGNHT on the noisy circle against the exact density;
#  - sam_synthetic.png from sam_synthetic_marginals.csv (angle, exact_v1, gmc_v1, sggmc_v1,
#    gsgnht_v1, exact_v2, ...): the marginal posteriors of both angles against the exact ones;
#  - sam_perplexity.png from sam_perplexity.csv (method, iteration, seconds, log_perplexity):
#    held-out log-perplexity against sampler seconds, one curve per method.
has_file(f) = system("test -f '".dir."/".f."' && echo 1 || echo 0") + 0
set terminal pngcairo size 1000,700 noenhanced font ",11"
set datafile separator ","
set grid
set key top right
set xrange [-pi:pi]
sg = 'linecolor rgb "#d62728"'
nh = 'linecolor rgb "#1f77b4"'
gm = 'linecolor rgb "#2ca02c"'

if (has_file("sam_toy_angles.csv")) {
  set output dir."/sam_toy.png"
  set title "Toy circle with N(0, 1000 I) gradient noise: angle density"
  set xlabel "angle (rad)"
  set ylabel "density"
  plot dir."/sam_toy_angles.csv" using 1:2 skip 1 with lines linewidth 3 linecolor rgb "black" title "exact", \
       "" using 1:3 skip 1 with steps @sg title "SGGMC", \
       "" using 1:4 skip 1 with steps @nh title "gSGNHT"
  set output
}

if (has_file("sam_synthetic_marginals.csv")) {
  unset title
  set output dir."/sam_synthetic.png"
  set multiplot layout 1,2 title "Synthetic two-vMF posterior: marginal densities of the angles"
  set xlabel "angle of v_1 (rad)"
  set ylabel "density"
  plot dir."/sam_synthetic_marginals.csv" using 1:2 skip 1 with lines linewidth 3 linecolor rgb "black" title "exact", \
       "" using 1:3 skip 1 with steps @gm title "GMC", \
       "" using 1:4 skip 1 with steps @sg title "SGGMC", \
       "" using 1:5 skip 1 with steps @nh title "gSGNHT"
  set xlabel "angle of v_2 (rad)"
  plot dir."/sam_synthetic_marginals.csv" using 1:6 skip 1 with lines linewidth 3 linecolor rgb "black" title "exact", \
       "" using 1:7 skip 1 with steps @gm title "GMC", \
       "" using 1:8 skip 1 with steps @sg title "SGGMC", \
       "" using 1:9 skip 1 with steps @nh title "gSGNHT"
  unset multiplot
  set output
}

if (has_file("sam_perplexity.csv")) {
  methods = system("tail -n +2 '".dir."/sam_perplexity.csv' | cut -d, -f1 | awk '!seen[$0]++' | tr '\n' ' '")
  sel(m) = sprintf("< awk -F, '$1==\"%s\"' '%s/sam_perplexity.csv'", m, dir)
  set output dir."/sam_perplexity.png"
  set title "SAM: held-out log-perplexity vs sampler wall time"
  set xlabel "sampler seconds"
  set ylabel "log-perplexity"
  set autoscale x
  set logscale x
  plot for [i=1:words(methods)] sel(word(methods, i)) using 3:4 with linespoints linecolor i title word(methods, i)
  unset logscale x
  set output
}
