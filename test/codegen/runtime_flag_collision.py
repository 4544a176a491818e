# The transformed script's runtime takes its --detc-* flags off sys.argv; a
# script with a flag of the same name is refused at transform time (its own
# --until is left alone: the runtime's flag is --detc-until).
# RUN: not detc transform %s --emit-python 2>&1 | FileCheck %s
# CHECK: runtime_flag_collision.py:[[@LINE+6]]:16: error: the script uses the flag '--detc-until', which the transformed script's detc runtime takes off the command line; rename the script's flag
# CHECK: runtime_flag_collision.py:[[@LINE+6]]:10: error: the script uses the flag '--detc-resume'
# CHECK-NOT: error
import argparse
p = argparse.ArgumentParser()
p.add_argument("--until")
p.add_argument("--detc-until", type=str)
resume = "--detc-resume=" + "x"
args = p.parse_args()
