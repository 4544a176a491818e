"""Writes hostile task files into directory argv[1]: JSON nested 50,000
deep, 1,000 nested loops (each with a hint), loop counts whose product
passes 2^62, task times that add up past a double, both "tasks" and
"program", a loop count out of range, 10^5 tasks."""
import os
import sys

out = sys.argv[1]
params = '"checkpoint_seconds": 1, "allowance": 0.05, "failure_rate": 1e-5'


def write(name, text):
    with open(os.path.join(out, name), "w") as f:
        f.write(text)


def nest(depth, count):
    body = '[{"task": 1}, {"hint": "h"}, {"task": 1}]'
    for i in range(depth):
        body = ('[{"task": 1}, {"hint": "g%d"}, {"loop": %d, "body": %s}, '
                '{"task": 0.5}]' % (i, count, body))
    return '{"program": %s, %s}' % (body, params)


write("deep.json", '{"tasks": ' + "[" * 50000 + "]" * 50000 + "}")
write("nest1000.json", nest(1000, 1))
write("trips.json", nest(64, 2))
write("sum.json", '{"tasks": [1e308, 1e308, 1e308], %s}' % params)
write("both.json", '{"tasks": [1, 2], "program": [1], %s}' % params)
write("count.json", '{"program": [{"loop": 1e20, "body": [1]}], %s}' % params)
write("many.json", '{"tasks": [%s], %s}' % (",".join(["1"] * 100000), params))
write("small.json", '{"tasks": [1, 2, 3, 4], %s}' % params)
