#!/bin/sh
# Renders the menu's pictures of the games with tablero itself (off-screen, a Vulkan device
# or lavapipe under Xvfb): `sh assets/menu/make.sh [path/to/tablero]` from the repository root.
# The positions are a few seeded moves into each game. Each is rendered at 640x400 and made
# smaller with ImageMagick (`convert`), so that the board's coordinates stay small.
set -e
T=${1:-target/release/tablero}
shot() {
    "$T" screenshot "$2" --out "assets/menu/$1.png" --size 640x400
    convert "assets/menu/$1.png" -resize 192x120 -strip "assets/menu/$1.png"
}
shot ordo "ordo ..BB..BB../BB.BBBB.BB/BBB.BB...B/.......BB./..W..W..../WW..W...WW/WWWW.WWWWW/..WW..W..W w"
shot ordo-x "ordo-x ..BB..BB../BB.BBBB.BB/BBB.BB..BB/....W..B../...W....../WW..WW..WW/WWW.WWW.WW/..WW..WW.. w"
shot crossings "crossings BBBBBB.B/B.B.BBBB/..B...B./..B...../.....R../RR...R../R.RRR.RR/RRR.R.RR r 8"
shot volterra "volterra D,L,D,L/-,D,LL,D/-,Ll,DD,L/L,D,LDd,DL/-,-,D,L l"
shot volterra-free "volterra-free -,D,-,-/-,D,-,D/-,-,L,-/L,L,D,L/-,-,-,L d"
shot ctor8 "ctor8 W......./......B./B......./B......./..W...../......../.W....../..W.B..W w 8 P0M0L0 1v1 0"
shot ctor10 "ctor10 ........../B.BB....../........../...B....../....W...../..WW....../........../.....W..../........../....W..... w 8 P0M0L0 1v1 0"
