# The headline figure of the `lda` tool's runs, point_trace's heldout_perplexity: the held-out
# perplexity of the posterior-mean topics by fold-in (solid; before the burn-in ends, the last
# sample's; the last sample's throughout, dashed) against
# iterations, training seconds and documents seen (the papers' online-learning axis).
# Usage: gnuplot -e "dir='OUTPUT_DIR'" lda_perplexity.gp
# Reads the run names from dir/runs.txt and dir/point_trace_NAME.csv (columns: iteration,
# train_seconds, fold_in_perplexity_last, fold_in_perplexity_mean, mean_samples,
# gibbs_running_predictive_perplexity, train_cpu_seconds, documents, heldout_perplexity);
# writes
# dir/perplexity.png.
runs = system("cat '".dir."/runs.txt'")
set terminal pngcairo size 1800,560 noenhanced font ",11"
set output dir."/perplexity.png"
set datafile separator ","
set datafile columnheaders
set datafile missing "nan"
set key top right
set grid
set multiplot layout 1,3 title "Held-out perplexity of the posterior-mean topics (fold-in; dashed: the last sample)"
set ylabel "perplexity"
do for [x in "1 2 8"] {
  set xlabel (x eq "1" ? "iteration" : x eq "2" ? "training seconds" : "documents seen")
  c = x + 0
  plot for [i=1:words(runs)] dir."/point_trace_".word(runs,i).".csv" \
         using c:9 with linespoints pointsize 0.5 linecolor i title word(runs,i), \
       for [i=1:words(runs)] dir."/point_trace_".word(runs,i).".csv" \
         using c:3 with lines dashtype 2 linecolor i notitle
}
unset multiplot
