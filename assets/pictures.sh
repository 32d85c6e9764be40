#!/bin/sh
# Renders the pictures the app bundles, with tablero itself (off-screen: a Vulkan device, or
# lavapipe under Xvfb): the menu's cards (assets/menu) and the Rules panel's positions
# (assets/rules). `sh assets/pictures.sh [path/to/tablero]` from the repository root. Each is
# rendered at 640x400 and made smaller with ImageMagick (`convert`), so that the board's
# coordinates stay small.
set -e
T=${1:-target/release/tablero}
# shot FOLDER NAME WxH POSITION
shot() {
    "$T" screenshot "$4" --out "assets/$1/$2.png" --size 640x400
    convert "assets/$1/$2.png" -resize "$3" -strip "assets/$1/$2.png"
}

# The menu: a few seeded moves into each game.
shot menu ordo 192x120 "ordo ..BB..BB../BB.BBBB.BB/BBB.BB...B/.......BB./..W..W..../WW..W...WW/WWWW.WWWWW/..WW..W..W w"
shot menu ordo-x 192x120 "ordo-x ..BB..BB../BB.BBBB.BB/BBB.BB..BB/....W..B../...W....../WW..WW..WW/WWW.WWW.WW/..WW..WW.. w"
shot menu crossings 192x120 "crossings BBBBBB.B/B.B.BBBB/..B...B./..B...../.....R../RR...R../R.RRR.RR/RRR.R.RR r 8"
shot menu volterra 192x120 "volterra D,L,D,L/-,D,LL,D/-,Ll,DD,L/L,D,LDd,DL/-,-,D,L l"
shot menu volterra-free 192x120 "volterra-free -,D,-,-/-,D,-,D/-,-,L,-/L,L,D,L/-,-,-,L d"
shot menu ctor8 192x120 "ctor8 W......./......B./B......./B......./..W...../......../.W....../..W.B..W w 8 P0M0L0 1v1 0"
shot menu ctor10 192x120 "ctor10 ........../B.BB....../........../...B....../....W...../..WW....../........../.....W..../........../....W..... w 8 P0M0L0 1v1 0"

# The Rules panel. White can capture on d5 (from b3, d4 or e4).
shot rules ordo 288x180 "ordo ..BB..BB../BBBB.BBBBB/BB..BB...B/...B....../...WW...../WW..W...WW/WWWW.WWWWW/..WW..WW.. w"
shot rules ordo-x 288x180 "ordo-x ..BB..BB../BBBB.BBBBB/BB..BB...B/...B....../...WW...../WW..W...WW/WWWW.WWWWW/..WW..WW.. w"
# Red has crossed on d8; Black to answer.
shot rules crossings 288x180 "crossings BBBRBB.B/B.B..BBB/..B...B./......../.....R../RR...R../R..RR.RR/RRR.R.RR b 0"
shot rules volterra 288x180 "volterra D,L,D,L/-,D,LL,D/-,Ll,DD,L/L,D,LDd,DL/-,-,D,L l"
shot rules volterra-free 288x180 "volterra-free -,D,-,-/-,D,-,D/-,-,L,-/L,L,D,L/-,-,-,L d"
# The white disc on square 20 has six black neighbours: it turns when Black's turn begins.
shot rules ctor 288x180 "ctor8 ......../..BBB.../..BW..../..BB..../......../......W./.....WW./........ w 6 P2M2L1 1v1 0"
