# Figure 3(b) / 4(b) of Baker et al. (2018) from the CSVs of //tools:dp_mixture.
# Usage: gnuplot -e "dir='OUTPUT_DIR'" dp_mixture.gp
# Reads dir/runs.txt (method names) and dir/trace.csv (method, seed, iteration, seconds,
# log_predictive, running_log_predictive, occupied, components, alpha, initial_components);
# writes dir/log_predictive.png, one curve per run (a method and seed from several starts
# draws one curve per start): the single-draw log predictive vs iteration (the
# per-iteration score of the paper's figure), the draw-averaged (running mean after burn-in)
# log predictive vs iteration and vs sampler seconds, and occupied components vs iteration.
runs = system("cat '".dir."/runs.txt'")
seeds = system("tail -n +2 '".dir."/trace.csv' | cut -d, -f2 | sort -un | tr '\n' ' '")
set terminal pngcairo size 1400,1000 noenhanced font ",11"
set output dir."/log_predictive.png"
set datafile separator ","
set key bottom right
set grid
set multiplot layout 2,2 title "DP mixture of multinomials (held-out log predictive per test row)"
# The rows of method m and seed s, a blank line (a break in the curve) where the start changes.
sel(m, s) = sprintf("< awk -F, '$1==\"%s\" && $2==%s { if (k != \"\" && $10 != k) print \"\"; k = $10; print }' '%s/trace.csv'", m, s, dir)
set xlabel "iteration"
set ylabel "single-draw log predictive"
plot for [i=1:words(runs)] for [j=1:words(seeds)] sel(word(runs,i), word(seeds,j)) \
    using 3:5 with lines linecolor i title (j == 1 ? word(runs,i) : "")
set ylabel "draw-averaged log predictive"
plot for [i=1:words(runs)] for [j=1:words(seeds)] sel(word(runs,i), word(seeds,j)) \
    using 3:6 with lines linecolor i title (j == 1 ? word(runs,i) : "")
set xlabel "sampler seconds"
set logscale x
plot for [i=1:words(runs)] for [j=1:words(seeds)] sel(word(runs,i), word(seeds,j)) \
    using 4:6 with lines linecolor i title (j == 1 ? word(runs,i) : "")
unset logscale x
set xlabel "iteration"
set ylabel "occupied components"
set key top right
plot for [i=1:words(runs)] for [j=1:words(seeds)] sel(word(runs,i), word(seeds,j)) \
    using 3:7 with lines linecolor i title (j == 1 ? word(runs,i) : "")
unset multiplot
