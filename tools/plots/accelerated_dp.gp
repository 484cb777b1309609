# Figure 1 (and Figs. 2-7) of Zhang, Williamson & Perez-Cruz from //tools:accelerated_dp.
# Usage: gnuplot -e "dir='OUTPUT_DIR'" accelerated_dp.gp
# Reads dir/trace.csv (method, init, iteration, seconds, test_log_likelihood, features, alpha)
# and writes dir/trace.png: the test-set predictive log likelihood and the number of features
# against the sampling seconds (log scale; the time-0 points are left out), one curve per
# (method, init) run.
runs = system("tail -n +2 '".dir."/trace.csv' | cut -d, -f1,2 | awk '!seen[$0]++' | tr '\n' ' '")
set terminal pngcairo size 1400,600 noenhanced font ",11"
set output dir."/trace.png"
set datafile separator ","
set grid
set logscale x
set xlabel "sampling seconds (log scale)"
set multiplot layout 1,2 title "DP mixture: accelerated vs exact samplers"
sel(r) = sprintf("< awk -F, '$1\",\"$2==\"%s\" && $4>0' '%s/trace.csv'", r, dir)
set key bottom right
set ylabel "test predictive log likelihood"
plot for [i=1:words(runs)] sel(word(runs,i)) using 4:5 with linespoints pointsize 0.5 \
    title word(runs,i)
set key top left
set ylabel "number of features"
plot for [i=1:words(runs)] sel(word(runs,i)) using 4:6 with linespoints pointsize 0.5 \
    title word(runs,i)
unset multiplot
