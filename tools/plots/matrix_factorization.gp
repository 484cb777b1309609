# Test RMSE of the averaged predictions versus iteration and versus wall time
# (Simsekli et al. 2016, Fig. 5), from rmse.csv written by //tools:matrix_factorization.
# Run as: gnuplot -e "dir='<output_dir>'" matrix_factorization.gp
set datafile separator ","
set terminal pngcairo size 1200,450
set output dir."/rmse.png"
set multiplot layout 1,2
set key top right
set ylabel "test RMSE (averaged predictions)"
methods = "sgld psgld hamcmc"
set xlabel "iteration"
plot for [m in methods] dir."/rmse.csv" using (strcol(1) eq m ? $2 : NaN):5 with lines lw 2 title m
set xlabel "wall time (s)"
plot for [m in methods] dir."/rmse.csv" using (strcol(1) eq m ? $3 : NaN):5 with lines lw 2 title m
unset multiplot
