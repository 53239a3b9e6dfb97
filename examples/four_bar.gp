# gnuplot script of liedyn_four_bar: constraint drift and energy of a passive four-bar linkage,
# without stabilization and with Baumgarte. Called as
#   gnuplot -e "csv='…/four_bar.csv'; png='….png'" four_bar.gp
if (!exists("csv")) csv = "four_bar.csv"
if (!exists("png")) png = "four_bar.png"
set terminal pngcairo size 900,760 font ",11"
set output png
set datafile separator ","
set multiplot layout 2,1 title "Passive four-bar linkage, RK4 h = 1 ms, exact KKT route"
set xlabel "t [s]"
set ylabel "loop position error |e| [m]"
set logscale y
set format y "10^{%L}"
set grid
set key bottom right
plot csv using 1:($2 > 0 ? $2 : 1e-18) skip 1 with lines lw 2 title "no stabilization", \
     csv using 1:($3 > 0 ? $3 : 1e-18) skip 1 with lines lw 2 title "Baumgarte (Kp 400, Kd 40)"
unset logscale y
set format y "%g"
set ylabel "E(t) − E(0) [J]"
plot csv using 1:4 skip 1 with lines lw 2 title "no stabilization", \
     csv using 1:5 skip 1 with lines lw 2 title "Baumgarte"
unset multiplot
