#!/usr/bin/env python3
"""`detc transform SCRIPT --emit-python -o OUT` on a machine without detc:
copies the transform made beforehand by scripts/device-kit.sh
(build/device-kit/transformed/SCRIPT_NAME), so the e2e harnesses run
unchanged on a lent GPU machine, which has CUDA torch but neither LLVM nor
MLIR. Any other command line is an error (exit 2): the kit holds only
what test/e2e/cuda.py asks for."""
import os
import shutil
import sys

KIT = os.environ.get("DETC_DEVICE_KIT", os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "build",
    "device-kit", "transformed"))


def main(argv):
    if len(argv) != 5 or argv[0] != "transform" or argv[2:4] != [
            "--emit-python", "-o"]:
        sys.exit("detc_shim: only 'transform SCRIPT --emit-python -o OUT' "
                 "is served, not %r" % (argv,))
    made = os.path.join(KIT, os.path.basename(argv[1]))
    if not os.path.exists(made):
        sys.exit("detc_shim: %s is not in the kit (%s): run "
                 "scripts/device-kit.sh first" % (argv[1], KIT))
    shutil.copyfile(made, argv[4])


if __name__ == "__main__":
    main(sys.argv[1:])
