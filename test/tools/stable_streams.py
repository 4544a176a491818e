#!/usr/bin/env python3
"""Stable stream identities: the key of every keyed random stream comes
from what the call is (its role, the function or class around it, its
text and its occurrence there), never from the order detc plans the
script in. For every bundled example and e2e input script:

  * transforming it plain, with --vaccinate, --trace, --jit-checkpoint and
    with CheckHint flags keys every call the plain transform keys with the
    same stream key (vaccination used to renumber a model's dropout);
  * editing the script elsewhere — a new function with a draw of its own
    inserted before the first def, and the last function body given an
    extra statement — leaves every other call's key as it was;
  * editing how a loader loads (every `num_workers=...` made 3) leaves
    every loader's key as it was: a loader's key leaves out its worker
    count, pinned memory and prefetching (a script edited from 8 workers
    to 0 gave other weights: mixup-cifar10 writes the count in the call).

The keyed values of a call are a function of (seed, key, epoch, example),
so equal keys are equal per-example values; the e2e tests show the values
themselves.

usage: stable_streams.py --detc BIN --root SRCDIR
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

# Runtime calls whose first argument (or scope_site=) is a stream key.
KEYED = re.compile(r"_detc_rt\.(keyed|keyed_module|batch_keyed|keyed_loader|"
                   r"key_imported_layers|key_imported_loaders)\((\d+)")
SCOPE = re.compile(r"scope_site=(\d+)")
COMMENT = re.compile(r"\s*# detc:.*$")


def keys(detc, script, flags, tmp):
    """{original line text: sorted stream keys on it} of the transform."""
    out = os.path.join(tmp, "out.py")
    if os.path.exists(out):
        os.unlink(out)
    proc = subprocess.run([detc, "transform", script, "--emit-python", "-o",
                           out] + flags, capture_output=True, text=True)
    if proc.returncode != 0 or not os.path.exists(out):
        return None
    found = {}
    with open(out) as f:
        for line in f:
            ks = [int(m.group(2)) for m in KEYED.finditer(line)] + \
                 [int(m.group(1)) for m in SCOPE.finditer(line)]
            if not ks:
                continue
            # The line without detc's wraps: which call it is.
            plain = re.sub(r"_detc_rt\.\w+\([^()]*?(\([^()]*\))?[^()]*?, ",
                           "", COMMENT.sub("", line)).strip()
            found.setdefault(plain, []).extend(ks)
    return {k: sorted(v) for k, v in found.items()}


LOADER = re.compile(r"_detc_rt\.keyed_loader\((\d+)")
WORKERS = re.compile(r"num_workers\s*=\s*[^,()\n]+")


def loader_keys(detc, script, tmp):
    """The keyed loaders' stream keys, in the order of the transform."""
    out = os.path.join(tmp, "loaders.py")
    if os.path.exists(out):
        os.unlink(out)
    proc = subprocess.run([detc, "transform", script, "--emit-python", "-o",
                           out], capture_output=True, text=True)
    if proc.returncode != 0 or not os.path.exists(out):
        return None
    with open(out) as f:
        return [int(m.group(1)) for m in LOADER.finditer(f.read())]


def blocks(lines):
    """(begin, end) line ranges of the top-level defs and classes (their
    decorators included)."""
    found, i = [], 0
    while i < len(lines):
        if lines[i].startswith(("def ", "class ", "@")):
            begin = i
            while lines[i].startswith("@"):
                i += 1
            i += 1
            while i < len(lines) and (lines[i].strip() == "" or
                                      lines[i][0] in " \t#"):
                i += 1
            found.append((begin, i))
        else:
            i += 1
    return found


def edited(source):
    """The script edited elsewhere: its last top-level function moved
    before its first one (detc used to number sites in the order it met
    them), a new function with a draw of its own inserted before that,
    and an extra statement in the moved function."""
    lines = source.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    found = blocks(lines)
    if len(found) >= 2:
        (b0, _), (b, e) = found[0], found[-1]
        moved = lines[b:e]
        del lines[b:e]
        lines[b0:b0] = moved + ["\n", "\n"]
    first = next((i for i, l in enumerate(lines)
                  if l.startswith(("def ", "class "))), None)
    if first is None:
        return None
    new = ["def _unrelated_helper(x):\n",
           "    noise = torch.nn.Dropout(0.25)\n",
           "    return noise(x) * 2\n", "\n", "\n"]
    lines[first:first] = new
    last = max(i for i, l in enumerate(lines) if l.startswith("def "))
    body = last + 1
    while body < len(lines) and (lines[body].strip() == "" or
                                 lines[body].lstrip().startswith(
                                     ('"""', "'''", "#"))):
        if lines[body].lstrip().startswith(('"""', "'''")):
            quote = lines[body].lstrip()[:3]
            if lines[body].count(quote) < 2:
                body += 1
                while body < len(lines) and quote not in lines[body]:
                    body += 1
        body += 1
    if body >= len(lines):
        return None
    indent = lines[body][:len(lines[body]) - len(lines[body].lstrip())]
    lines.insert(body, indent + "_unrelated_count = 0\n")
    return "".join(lines)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--detc", required=True)
    parser.add_argument("--root", required=True)
    args = parser.parse_args()
    scripts = sorted(
        [os.path.join(args.root, "examples", f)
         for f in os.listdir(os.path.join(args.root, "examples"))
         if f.endswith(".py")] +
        [os.path.join(args.root, "test", "e2e", "Inputs", f)
         for f in os.listdir(os.path.join(args.root, "test", "e2e", "Inputs"))
         if f.endswith(".py")])
    problems, compared = [], 0
    with tempfile.TemporaryDirectory(prefix="detc-streams-") as tmp:
        for script in scripts:
            name = os.path.basename(script)
            base = keys(args.detc, script, [], tmp)
            if not base:
                continue
            variants = [["--vaccinate"], ["--trace=" + tmp],
                        ["--jit-checkpoint"],
                        ["--overhead=0.05", "--ckpt-cost=0.005"]]
            for flags in variants:
                other = keys(args.detc, script, flags, tmp)
                if other is None:
                    continue  # the mode refuses this script
                for line, ks in base.items():
                    compared += 1
                    if line in other and other[line] != ks:
                        problems.append("%s %s: %r keyed %s, plain %s" % (
                            name, " ".join(flags), line, other[line], ks))
            with open(script) as f:
                original = f.read()
            source = edited(original)
            if source is None:
                continue
            # Beside copies of the modules it may import (failing_net.py).
            beside = os.path.join(tmp, "edited")
            if os.path.isdir(beside):
                shutil.rmtree(beside)
            os.mkdir(beside)
            folder = os.path.dirname(script)
            for sibling in os.listdir(folder):
                if sibling.endswith(".py") and sibling != name:
                    shutil.copy(os.path.join(folder, sibling), beside)
            copy = os.path.join(beside, name)
            if WORKERS.search(original):
                with open(copy, "w") as f:
                    f.write(WORKERS.sub("num_workers=3", original))
                before = loader_keys(args.detc, script, tmp)
                workers = loader_keys(args.detc, copy, tmp)
                if before:
                    compared += len(before)
                    if workers != before:
                        problems.append("%s with num_workers=3: loaders "
                                        "keyed %s, before %s" % (
                                            name, workers, before))
            with open(copy, "w") as f:
                f.write(source)
            after = keys(args.detc, copy, [], tmp)
            if after is None:
                problems.append("%s: the edited copy does not transform" %
                                name)
                continue
            for line, ks in base.items():
                compared += 1
                if after.get(line) != ks:
                    problems.append("%s edited: %r keyed %s, before %s" % (
                        name, line, after.get(line), ks))
    print("%d scripts, %d keyed calls compared, %d differ" % (
        len(scripts), compared, len(problems)))
    for p in problems:
        print("FAIL: " + p)
    if compared == 0:
        print("FAIL: nothing compared")
        return 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
