# Perplexity against training seconds: scikit-learn online VB vs our SCIR and SGRLD.
# Usage: gnuplot -e "dir='bench_out/kos'; corpus='kos'" bench/time_to_perplexity.gp
set terminal pngcairo size 900,600 noenhanced font ",11"
set output dir."/time_to_perplexity.png"
set datafile separator ","
set datafile columnheaders
set title "Time to perplexity on ".corpus." (K = 50, minibatch 50, one thread)"
set xlabel "training seconds"
set ylabel "held-out perplexity (document completion)"
set grid
set key top right
plot dir."/sklearn_trace.csv" using 1:2 with linespoints pointsize 0.6 title "scikit-learn online VB", \
     dir."/trace_scir_fast.csv" using 2:7 with linespoints pointsize 0.6 title "SCIR (ours)", \
     dir."/trace_sgrld_fast.csv" using 2:7 with linespoints pointsize 0.6 title "SGRLD (ours)"
