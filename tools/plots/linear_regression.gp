# Figures 1 and 2 of Simsekli et al. (2016) from the CSVs of //tools:linear_regression.
# Usage: gnuplot -e "dir='OUTPUT_DIR'" linear_regression.gp   (pngcairo terminal)
# Inputs: dir/fig1_<method>.csv (CmdStan layout: lp__,theta.1,theta.2), dir/fig1_contours.csv
# (x,y; one block per contour), dir/fig2_D10.csv and dir/fig2_D100.csv (iteration, then
# <label>,seconds_<key> per method).
set datafile separator ','
set datafile commentschars '#'

# Figure 1: retained samples over the contours of the true posterior.
set terminal pngcairo size 1000,900 font ',11'
set output dir.'/figure1.png'
contours = dir.'/fig1_contours.csv'
stats contours using 1:2 nooutput
xpad = 0.25 * (STATS_max_x - STATS_min_x)
ypad = 0.25 * (STATS_max_y - STATS_min_y)
set xrange [STATS_min_x - xpad:STATS_max_x + xpad]
set yrange [STATS_min_y - ypad:STATS_max_y + ypad]
set xlabel '{/Symbol q}_1'
set ylabel '{/Symbol q}_2'
set key off
set multiplot layout 2,2
keys = 'sgld psgld sgrld hamcmc_m2'
titles = 'SGLD|pSGLD|SGRLD|HAMCMC (M=2)'
do for [i = 1:4] {
  set title word(keys, i) eq 'sgld' ? 'SGLD' : (word(keys, i) eq 'psgld' ? 'pSGLD' : \
            (word(keys, i) eq 'sgrld' ? 'SGRLD' : 'HAMCMC (M=2)'))
  plot dir.'/fig1_'.word(keys, i).'.csv' every ::1 using 2:3 with dots lc rgb '#1f77b4', \
       contours every ::1 using 1:2 with lines dt 2 lw 1.5 lc rgb 'black'
}
unset multiplot

# Figure 2: error versus iterations (left) and versus wall-clock time (right).
set terminal pngcairo size 1100,850 font ',11'
set output dir.'/figure2.png'
unset xrange
unset yrange
set autoscale
set logscale y
set format y '10^{%L}'
set ylabel '||{/Symbol q}-bar - {/Symbol q}-hat||^2'
set key top right
set grid
colors = '#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd'
set multiplot layout 2,2
do for [d in '10 100'] {
  file = dir.'/fig2_D'.d.'.csv'
  set title 'D = '.d
  set xlabel 'iteration (thousands)'
  plot for [m = 0:4] file using ($1 / 1000):(column(2 + 2 * m)) with lines lw 2 \
       lc rgb word(colors, m + 1) title columnheader(2 + 2 * m)
  set xlabel 'wall-clock time (s)'
  set logscale x
  set format x '10^{%L}'
  plot for [m = 0:4] file using (column(3 + 2 * m)):(column(2 + 2 * m)) with lines lw 2 \
       lc rgb word(colors, m + 1) title columnheader(2 + 2 * m)
  unset logscale x
  set format x '%g'
}
unset multiplot
