# Figures 1 and 2 of Simsekli et al. (2016) from the CSVs of //tools:linear_regression.
# Usage: gnuplot -e "dir='OUTPUT_DIR'" linear_regression.gp   (pngcairo terminal)
# Inputs: dir/fig1_<method>.csv (CmdStan layout: lp__,theta.1,theta.2), dir/fig1_contours.csv
# (x,y; one block per contour), dir/fig1_trace.csv (iteration, then <label>,seconds_<key>,
# <key>_min,<key>_max per method), dir/fig2_D<d>.csv (iteration, then <label>,seconds_<key> per
# method: means over the replications) and dir/fig2_D<d>_spread.csv (iteration, then
# <key>_min,<key>_max,seconds_<key>_min,seconds_<key>_max,seconds_<key> per method) for every
# dimension d run. Outputs figure1.png, figure1_error.png and figure2.png; the shaded bands are
# the min-max range over the chains. Each figure is drawn only if its inputs exist.
set datafile separator ','
set datafile commentschars '#'
file_exists(file) = system('test -f "'.file.'" && echo 1 || echo 0') eq '1'

# Figure 1: retained samples over the contours of the true posterior.
contours = dir.'/fig1_contours.csv'
if (file_exists(contours)) {
  set terminal pngcairo size 1000,900 font ',11'
  set output dir.'/figure1.png'
  stats contours using 1:2 nooutput
  xpad = 0.25 * (STATS_max_x - STATS_min_x)
  ypad = 0.25 * (STATS_max_y - STATS_min_y)
  set xrange [STATS_min_x - xpad:STATS_max_x + xpad]
  set yrange [STATS_min_y - ypad:STATS_max_y + ypad]
  set xlabel '{/Symbol q}_1'
  set ylabel '{/Symbol q}_2'
  set key off
  keys = 'sgld psgld sgrld hamcmc_m2'
  title_of(i) = i == 1 ? 'SGLD' : (i == 2 ? 'pSGLD' : (i == 3 ? 'SGRLD' : 'HAMCMC (M=2)'))
  set multiplot layout 2,2
  do for [i = 1:4] {
    set title title_of(i)
    plot dir.'/fig1_'.word(keys, i).'.csv' every ::1 using 2:3 with dots lc rgb '#1f77b4', \
         contours every ::1 using 1:2 with lines dt 2 lw 1.5 lc rgb 'black'
  }
  unset multiplot
  unset output
}

# Figure 1's chains: eq. 12 error versus iterations (left) and wall-clock time (right).
trace = dir.'/fig1_trace.csv'
if (file_exists(trace)) {
  set terminal pngcairo size 1100,425 font ',11'
  set output dir.'/figure1_error.png'
  unset title
  unset xrange
  unset yrange
  set autoscale
  set logscale y
  set format y '10^{%L}'
  set ylabel '||{/Symbol q}-bar - {/Symbol q}-hat||^2'
  set key top right
  set grid
  set style fill transparent solid 0.2 noborder
  colors = '#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd'
  set multiplot layout 1,2 title 'D = 2 (Figure 1 settings): mean and min-max over the chains'
  set xlabel 'iteration (thousands)'
  unset logscale x
  set format x '%g'
  plot for [m = 0:3] trace using ($1 / 1000):(column(4 + 4 * m)):(column(5 + 4 * m)) \
         with filledcurves lc rgb word(colors, m + 1) notitle, \
       for [m = 0:3] trace using ($1 / 1000):(column(2 + 4 * m)) with lines lw 2 \
         lc rgb word(colors, m + 1) title columnheader(2 + 4 * m)
  set xlabel 'wall-clock time (s)'
  set logscale x
  set format x '10^{%L}'
  plot for [m = 0:3] trace using (column(3 + 4 * m)):(column(4 + 4 * m)):(column(5 + 4 * m)) \
         with filledcurves lc rgb word(colors, m + 1) notitle, \
       for [m = 0:3] trace using (column(3 + 4 * m)):(column(2 + 4 * m)) with lines lw 2 \
         lc rgb word(colors, m + 1) title columnheader(2 + 4 * m)
  unset multiplot
  unset output
  unset logscale
}

# Figure 2: error versus iterations (left) and versus wall-clock time (right), one row per D;
# mean over the replications, shaded between their min and max.
files = system('ls "'.dir.'"/fig2_D*.csv 2>/dev/null | grep -v _spread | sort -t D -k 2 -n')
if (words(files) > 0) {
  set terminal pngcairo size 1100,425 * words(files) font ',11'
  set output dir.'/figure2.png'
  unset xrange
  unset yrange
  set autoscale
  set logscale y
  set format y '10^{%L}'
  set ylabel '||{/Symbol q}-bar - {/Symbol q}-hat||^2'
  set key top right
  set grid
  set style fill transparent solid 0.2 noborder
  colors = '#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd'
  set multiplot layout words(files),2
  do for [file in files] {
    d = system('basename "'.file.'" .csv | sed "s/fig2_D//"')
    spread = dir.'/fig2_D'.d.'_spread.csv'
    set title 'D = '.d
    set xlabel 'iteration (thousands)'
    unset logscale x
    set format x '%g'
    plot for [m = 0:4] spread using ($1 / 1000):(column(2 + 5 * m)):(column(3 + 5 * m)) \
         with filledcurves lc rgb word(colors, m + 1) notitle, \
       for [m = 0:4] file using ($1 / 1000):(column(2 + 2 * m)) with lines lw 2 \
         lc rgb word(colors, m + 1) title columnheader(2 + 2 * m)
    set xlabel 'wall-clock time (s)'
    set logscale x
    set format x '10^{%L}'
    plot for [m = 0:4] spread using (column(6 + 5 * m)):(column(2 + 5 * m)):(column(3 + 5 * m)) \
         with filledcurves lc rgb word(colors, m + 1) notitle, \
       for [m = 0:4] file using (column(3 + 2 * m)):(column(2 + 2 * m)) with lines lw 2 \
         lc rgb word(colors, m + 1) title columnheader(2 + 2 * m)
  }
  unset multiplot
}
