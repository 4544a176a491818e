#!/usr/bin/env python3
"""`detc transform SCRIPT --emit-python [--jit-checkpoint] [--python PY] -o OUT` on a
machine without detc: copies the transform made beforehand by
scripts/device-kit.sh (build/device-kit/transformed/NAME, or NAME's stem +
`.jit.py` for --jit-checkpoint), so the e2e harnesses and benches run
unchanged on a lent GPU machine, which has CUDA torch but neither LLVM nor
MLIR. Any other command line is an error (exit 2): the kit holds only
what the GPU check asks for."""
import os
import shutil
import sys

KIT = os.environ.get("DETC_DEVICE_KIT", os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "build",
    "device-kit", "transformed"))
# The flags served, each with the suffix of its transform in the kit.
SERVED = {(): "", ("--jit-checkpoint",): ".jit"}


def drop_python(argv):
    """The harnesses name the interpreter whose libraries detc reads
    (`--python PATH`); the kit's transforms were made beforehand with the
    libraries of the machine that made them, so the option is dropped."""
    out = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--python":
            skip = True
        elif not arg.startswith("--python="):
            out.append(arg)
    return out


def main(argv):
    argv = drop_python(argv)
    flags = tuple(argv[3:-2])
    if len(argv) < 5 or argv[0] != "transform" or argv[2] != \
            "--emit-python" or argv[-2] != "-o" or flags not in SERVED:
        sys.exit("detc_shim: only 'transform SCRIPT --emit-python "
                 "[--jit-checkpoint] -o OUT' is served, not %r" % (argv,))
    stem = os.path.splitext(os.path.basename(argv[1]))[0]
    made = os.path.join(KIT, stem + SERVED[flags] + ".py")
    if not os.path.exists(made):
        sys.exit("detc_shim: %s is not in the kit (%s): run "
                 "scripts/device-kit.sh first" % (argv[1], made))
    shutil.copyfile(made, argv[-1])


if __name__ == "__main__":
    main(sys.argv[1:])
