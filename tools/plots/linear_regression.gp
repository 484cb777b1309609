# Figures 1 and 2 of Simsekli et al. (2016) from the CSVs of //tools:linear_regression.
# Usage: gnuplot -e "dir='OUTPUT_DIR'" linear_regression.gp   (pngcairo terminal)
# Inputs: dir/fig1_<method>.csv (CmdStan layout: lp__,theta.1,theta.2), dir/fig1_contours.csv
# (x,y; one block per contour), dir/fig2_D<d>.csv (iteration, then <label>,seconds_<key> per
# method) for every dimension d run. Each figure is drawn only if its inputs exist.
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

# Figure 2: error versus iterations (left) and versus wall-clock time (right), one row per D.
files = system('ls "'.dir.'"/fig2_D*.csv 2>/dev/null | sort -t D -k 2 -n')
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
  colors = '#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd'
  set multiplot layout words(files),2
  do for [file in files] {
    d = system('basename "'.file.'" .csv | sed "s/fig2_D//"')
    set title 'D = '.d
    set xlabel 'iteration (thousands)'
    unset logscale x
    set format x '%g'
    plot for [m = 0:4] file using ($1 / 1000):(column(2 + 2 * m)) with lines lw 2 \
         lc rgb word(colors, m + 1) title columnheader(2 + 2 * m)
    set xlabel 'wall-clock time (s)'
    set logscale x
    set format x '10^{%L}'
    plot for [m = 0:4] file using (column(3 + 2 * m)):(column(2 + 2 * m)) with lines lw 2 \
         lc rgb word(colors, m + 1) title columnheader(2 + 2 * m)
  }
  unset multiplot
}
