# Speech denoising with alpha-stable MF (Simsekli et al. 2016, Fig. 3), from the outputs of
# //tools:alpha_stable_mf: sdr.png, a box plot of the SDR per method (sdr_<method>.dat), and
# spectrograms.png, log10 power of the first test signal: clean, noisy and denoised per method
# (spectrogram_*.dat, gnuplot matrices of I bins x J frames).
# Run as: gnuplot -e "dir='<output_dir>'" alpha_stable_mf.gp
methods = "sgld psgld hamcmc"
set terminal pngcairo size 700,450
set output dir."/sdr.png"
set style data boxplot
set style boxplot outliers pointtype 7
set style fill solid 0.3
set boxwidth 0.5
set ylabel "SDR (dB)"
set xtics ("SGLD" 1, "pSGLD" 2, "HAMCMC" 3)
set xrange [0.3:3.7]
unset key
plot for [i=1:3] dir."/sdr_".word(methods, i).".dat" using (i):1 lw 2
unset xtics
set xtics
unset xrange

set terminal pngcairo size 1400,800
set output dir."/spectrograms.png"
set multiplot layout 2,3
set view map
set autoscale xfix
set autoscale yfix
set xlabel "frame"
set ylabel "frequency bin"
set cbrange [-8:2]
set palette rgbformulae 33,13,10
panels = "clean noisy sgld psgld hamcmc"
do for [p in panels] {
  set title p
  plot dir."/spectrogram_".p.".dat" matrix with image
}
unset multiplot
