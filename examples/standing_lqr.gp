# gnuplot script of liedyn_standing_lqr: solo12 on four point feet after a push, LQR designed on
# the reduced (constraint-manifold) linearization against open loop (constant standing torques,
# followed until the robot falls). Called as
#   gnuplot -e "csv='…/standing_lqr.csv'; png='….png'" standing_lqr.gp
if (!exists("csv")) csv = "standing_lqr.csv"
if (!exists("png")) png = "standing_lqr.png"
set terminal pngcairo size 900,760 font ",11"
set output png
set datafile separator ","
set multiplot layout 2,1 title "solo12 standing on four point feet, pushed: LQR on the reduced linearization"
set xlabel "t [s]"
set ylabel "deviation |x ⊖ x*| (body-twist coordinates)"
set logscale y
set format y "10^{%L}"
set grid
set key top right
plot csv using 1:2 skip 1 with lines lw 2 title "LQR, u = τ₀ − K_r Pᵀ δx", \
     csv using 1:3 skip 1 with lines lw 2 title "open loop, u = τ₀ (until it falls)", \
     csv using 1:($8 > 0 ? $8 : 1e-18) skip 1 with lines lw 1 dt 2 title "LQR: contact drift |e| [m]"
unset logscale y
set format y "%g"
set ylabel "base roll [deg], height change [mm]"
set xrange [0:1]
set yrange [-14:14]
set key top right
plot csv using 1:($6 * 180 / pi) skip 1 with lines lw 2 title "LQR: roll", \
     csv using 1:($4 * 1000) skip 1 with lines lw 2 title "LQR: height change", \
     csv using 1:($7 * 180 / pi) skip 1 with lines lw 2 dt 2 title "open loop: roll", \
     csv using 1:($5 * 1000) skip 1 with lines lw 2 dt 2 title "open loop: height change"
unset multiplot
