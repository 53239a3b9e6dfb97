# gnuplot script of liedyn_lqr: convergence of the geometric error of the aerial manipulator's
# LQR closed loop. Called as  gnuplot -e "csv='…/aerial_manipulator_lqr.csv'; png='….png'" this.gp
if (!exists("csv")) csv = "aerial_manipulator_lqr.csv"
if (!exists("png")) png = "aerial_manipulator_lqr.png"
set terminal pngcairo size 900,560 font ",11"
set output png
set datafile separator ","
set title "Aerial manipulator at pitch 90°: LQR on the geometric linearization"
set xlabel "t [s]"
set ylabel "error norm"
set logscale y
set format y "10^{%L}"
set grid
set key top right
plot csv using 1:2 skip 1 with lines lw 2 title "|η| = |log(H*⁻¹H)|", \
     csv using 1:3 skip 1 with lines lw 2 title "|s − s*| [rad]", \
     csv using 1:4 skip 1 with lines lw 2 title "|ν − ν*|", \
     csv using 1:5 skip 1 with lines lw 2 title "|r − r*| [rad/s]"
