#!/bin/sh
# Renders the pictures of the Rules panel (F1) with tablero itself (off-screen: a Vulkan
# device, or lavapipe under Xvfb): `sh assets/rules/make.sh [path/to/tablero]` from the
# repository root. Each is rendered at 640x400 and made smaller with ImageMagick.
set -e
T=${1:-target/release/tablero}
shot() {
    "$T" screenshot "$2" --out "assets/rules/$1.png" --size 640x400
    convert "assets/rules/$1.png" -resize 288x180 -strip "assets/rules/$1.png"
}
# White can capture on d5 (from b3, d4 or e4).
shot ordo "ordo ..BB..BB../BBBB.BBBBB/BB..BB...B/...B....../...WW...../WW..W...WW/WWWW.WWWWW/..WW..WW.. w"
shot ordo-x "ordo-x ..BB..BB../BBBB.BBBBB/BB..BB...B/...B....../...WW...../WW..W...WW/WWWW.WWWWW/..WW..WW.. w"
# Red has crossed on d8; Black to answer.
shot crossings "crossings BBBRBB.B/B.B..BBB/..B...B./......../.....R../RR...R../R..RR.RR/RRR.R.RR b 0"
shot volterra "volterra D,L,D,L/-,D,LL,D/-,Ll,DD,L/L,D,LDd,DL/-,-,D,L l"
shot volterra-free "volterra-free -,D,-,-/-,D,-,D/-,-,L,-/L,L,D,L/-,-,-,L d"
# The white disc on square 20 has six black neighbours: it turns when Black's turn begins.
shot ctor "ctor8 ......../..BBB.../..BW..../..BB..../......../......W./.....WW./........ w 6 P2M2L1 1v1 0"
