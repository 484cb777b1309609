# Figure 2 of Baker et al. (2018): KS distance versus minibatch proportion, (a) sparse and
# (b) dense posterior; one point per seed (best Table-1 step size) and the mean over seeds.
# Inputs: dir/fig2_ks.csv (experiment,seed,proportion,minibatch_size,method,step_size,ks) and
# dir/fig2_ks_mean.csv (proportion, then sparse_scir,sparse_sgrld,sparse_exact,dense_scir,
# dense_sgrld,dense_exact).
set terminal pngcairo size 1100,450 font ',11'
set output dir.'/fig2_ks.png'
set datafile separator ','
set logscale x
set xlabel 'minibatch proportion n/N'
set ylabel 'd_{KS}'
set grid
set key below
points = dir.'/fig2_ks.csv'
means = dir.'/fig2_ks_mean.csv'
pick(e, m, col) = (strcol(1) eq e && strcol(5) eq m) ? column(col) : NaN
# Column of the mean of experiment e (index 0, 1) and method m (0 SCIR, 1 SGRLD, 2 exact).
meancol(e, m) = 2 + 3 * e + m
set multiplot layout 1,2
do for [i = 0:1] {
  e = word('sparse dense', i + 1)
  set title '('.(i == 0 ? 'a' : 'b').') '.e.' Dirichlet posterior'
  plot points every ::1 using 3:(pick(e, 'scir', 7)) with points pt 7 ps 0.5 lc rgb '#1b9e77' notitle, \
       points every ::1 using 3:(pick(e, 'sgrld', 7)) with points pt 5 ps 0.5 lc rgb '#d95f02' notitle, \
       means every ::1 using 1:meancol(i, 0) with lines lw 2 lc rgb '#1b9e77' title 'SCIR (mean)', \
       means every ::1 using 1:meancol(i, 1) with lines lw 2 lc rgb '#d95f02' title 'SGRLD (mean)', \
       means every ::1 using 1:meancol(i, 2) with lines lw 1 dt 2 lc rgb '#555555' title 'exact draws'
}
unset multiplot
