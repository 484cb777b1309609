# Figure 1 of Baker et al. (2018): boxplots of log10 ω5 (sparse posterior, minibatch 10) for
# exact draws, SCIR and SGRLD. Input: dir/fig1_omega5.csv (columns exact,scir,sgrld).
set terminal pngcairo size 700,500 font ',11'
set output dir.'/fig1_omega5.png'
set datafile separator ','
set style data boxplot
set style boxplot outliers pointtype 7
set pointsize 0.3
set style fill solid 0.3 border -1
set boxwidth 0.5
set xtics ('Exact' 1, 'SCIR' 2, 'SGRLD' 3)
set xrange [0.4:3.6]
set ylabel 'log_{10} ω_5'
set title 'Sparse Dirichlet posterior, ω_5 (1000 iterations after 1000 burn-in, n = 10)'
set key off
set grid ytics
plot dir.'/fig1_omega5.csv' every ::1 using (1):1 lc rgb '#555555', \
     ''                     every ::1 using (2):2 lc rgb '#1b9e77', \
     ''                     every ::1 using (3):3 lc rgb '#d95f02'
