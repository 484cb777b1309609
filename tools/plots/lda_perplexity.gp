# Perplexity of the `lda` tool's runs against iterations and against training seconds.
# Usage: gnuplot -e "dir='OUTPUT_DIR'" lda_perplexity.gp
# Reads the run names from dir/runs.txt and dir/trace_NAME.csv (columns: iteration,
# train_seconds, documents, tokens, step_size, perplexity, running_perplexity); writes
# dir/perplexity.png.
runs = system("cat '".dir."/runs.txt'")
set terminal pngcairo size 1400,560 noenhanced font ",11"
set output dir."/perplexity.png"
set datafile separator ","
set datafile columnheaders
set key top right
set grid
set multiplot layout 1,2 title "Held-out perplexity (document completion; running mean after burn-in)"
set xlabel "iteration"
set ylabel "perplexity"
plot for [i=1:words(runs)] dir."/trace_".word(runs,i).".csv" \
    using 1:7 with linespoints pointsize 0.5 title word(runs,i)
set xlabel "training seconds"
plot for [i=1:words(runs)] dir."/trace_".word(runs,i).".csv" \
    using 2:7 with linespoints pointsize 0.5 title word(runs,i)
unset multiplot
