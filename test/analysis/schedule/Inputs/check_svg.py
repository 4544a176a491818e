"""Checks a `detc schedule --plot` SVG: well-formed, the number of
checkpoint marks, and a recovery-vs-allowance curve of 41 points that does
not grow with the allowance.

usage: check_svg.py FILE.svg CHECKPOINTS
"""
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
marks = [l for l in root.iter(NS + "line") if l.get("stroke") == "red"]
points = root.find(NS + "polyline").get("points").split()
ys = [float(p.split(",")[1]) for p in points]
# SVG y grows downwards: recovery never grows with o means y never drops.
monotone = all(b >= a - 1e-9 for a, b in zip(ys, ys[1:]))
print("checkpoint marks: %d, curve points: %d, recovery %s with o" % (
    len(marks), len(points), "never grows" if monotone else "GROWS"))
sys.exit(0 if len(marks) == int(sys.argv[2]) and len(points) == 41
         and monotone else 1)
