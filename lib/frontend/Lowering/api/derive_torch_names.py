#!/usr/bin/env python3
"""Derives torch.names.api, the table of the public functions and classes
of torch (and torchvision's utility modules) that draw nothing, from the
libraries themselves: their namespaces, signatures and docstrings, under
every interpreter given (each torch detc is tested on).

A name of a modelled library that no table describes is "may draw"
(detc-may-draw, lib/frontend/Lowering/UnreadCalls.cpp): without this
table every `torch.cat` in a dataset's __getitem__ would be one. A name is
listed when, under every interpreter that has it, it is public and
callable, its signature or docstring names no `generator`, its name is no
random one (RANDOM below) and no other table describes it. What is left
out stays "may draw": a name torch adds later, a random function, a name
whose documentation cannot be read.

    derive_torch_names.py --python /usr/bin/python3 \
        --python build/torch2-venv/bin/python > torch.names.api
    derive_torch_names.py --check torch.names.api   (under one interpreter:
        every listed name this torch has must still pass; the suite runs it
        under torch 1.13 and 2.x: test/tools/api_tables_vs_library.py)
"""
import argparse
import importlib
import json
import os
import re
import subprocess
import sys

# (torch.distributed.rpc and its autograd and optimizer are left out: they
# run functions of the program on other processes.)
MODULES = ["torch", "torch.linalg", "torch.fft", "torch.special",
           "torch.cuda", "torch.cuda.nvtx", "torch.autograd", "torch.amp",
           "torch.backends.cudnn",
           "torch.distributed", "torch.nn.utils", "torch.nn.utils.rnn",
           "torch.utils.data", "torchvision.ops",
           "torchvision.utils", "torchvision.io"]
# Names that draw or seed: left to the other tables, or to "may draw".
# (Matched on the lowercased attribute; deterministic names such as
# permute, lgamma, channel_shuffle and grid_sampler stay listable.)
RANDOM = re.compile(r"^rand|dropout|drop_path|drop_block|rrelu|bernoulli|"
                    r"multinomial|^poisson$|^normal$|binomial|dirichlet|"
                    r"^sample|_sample$|random|noise|standard_gamma|seed|"
                    r"rng|^generator|stochastic|jitter")
HERE = os.path.dirname(os.path.abspath(__file__))
TENSOR = "torch.Tensor."
ARRAY = "numpy.ndarray."
IMAGE = "PIL.Image.Image."
STRING = "builtins.str."
INT = "builtins.int."
FLOAT = "builtins.float."
BYTES = "builtins.bytes."
TUPLE = "builtins.tuple."
MATCH = "re.Match."
TEXT_FILE = "io.TextIOWrapper."
BINARY_READER = "io.BufferedReader."
BINARY_WRITER = "io.BufferedWriter."
LIST = "builtins.list."
DICT = "builtins.dict."
SET = "builtins.set."
PATH = "pathlib.Path."
MODULE = "torch.nn.Module."
RECEIVERS = (TENSOR, ARRAY, IMAGE, STRING, INT, FLOAT, BYTES, TUPLE, MATCH,
             TEXT_FILE, BINARY_READER, BINARY_WRITER, LIST, DICT, SET, PATH,
             MODULE)
# Methods of torch.nn.Module that run code of the module or of the program
# (its forward; a function applied to every submodule; hooks, which run
# at later forwards and backwards): never taken as a harmless method of a
# value detc cannot trace.
MODULE_RUNS_CODE = re.compile(r"^forward$|^apply$|^_apply$|^register_.*hook|"
                              r"^_call_impl$|^__call__$")


def documented_draw(obj):
    """True when the callable's signature or docstring mentions a
    generator (the tell of every sampling function of torch)."""
    import inspect
    try:
        if "generator" in str(inspect.signature(obj)):
            return True
    except (TypeError, ValueError):
        pass
    doc = getattr(obj, "__doc__", None) or ""
    return "generator" in doc.lower() if isinstance(doc, str) else True


def public_attributes(owner, keep):
    """(name, object) of the public attributes of `owner` that `keep`
    accepts."""
    for attr in sorted(dir(owner)):
        if attr.startswith("_"):
            continue
        try:
            obj = getattr(owner, attr)
        except Exception:
            continue
        if keep(obj):
            yield attr, obj


def public_callables(owner):
    """(name, object) of the public callable attributes of `owner`."""
    return public_attributes(owner, callable)


def public_constants(owner):
    """(name, object) of the public attributes of `owner` that are plain
    values: dtypes, layouts, memory formats, numbers and strings."""
    import torch
    kinds = (torch.dtype, torch.layout, torch.memory_format)
    plain = (bool, int, float, str)
    return public_attributes(
        owner, lambda obj: type(obj) in plain or isinstance(obj, kinds))


def why_left_out(attr, obj):
    """Why a callable may draw ('' when nothing says it does)."""
    if RANDOM.search(attr.lower()):
        return "random name"
    if documented_draw(obj):
        return "mentions a generator"
    return ""


def names_here():
    """{qualified name: why it is left out, or ''} in this interpreter."""
    import warnings
    warnings.simplefilter("ignore")
    import numpy
    import torch
    found = {}
    for module in MODULES:
        try:
            mod = importlib.import_module(module)
        except Exception:
            continue
        for attr, obj in public_callables(mod):
            if isinstance(obj, type(json)):
                continue
            # Re-exports of the standard library (typing's Any, Dict).
            home = getattr(obj, "__module__", None) or "torch"
            if not isinstance(home, str) or not home.startswith("torch"):
                continue
            # A layer: what its forward draws is not in a signature.
            layer = isinstance(obj, type) and issubclass(obj, torch.nn.Module)
            found[module + "." + attr] = "a layer" if layer else \
                why_left_out(attr, obj)
        # Constants (`torch.float32`, `torch.channels_last`, `torch.pi`):
        # reading one runs no code, and library code mentions them
        # everywhere (timm's `DTYPE_INTERMEDIATE = torch.float32`).
        for attr, obj in public_constants(mod):
            found[module + "." + attr] = "random name" if RANDOM.search(
                attr.lower()) else ""
    # The methods of the values a training script handles most (tensors,
    # and the numpy arrays and PIL images of its data pipeline): on a value
    # detc cannot trace, a call of one of these names is taken as that
    # type's (`receiver-method` lines).
    # Numbers and tuples: sizes and counts a kernel launcher computes
    # (`n.bit_length()`, modded-nanogpt's triton wrappers), a float's
    # `is_integer()`. Strings and regular-expression matches: the tags,
    # file names and text a logger or a text dataset handles
    # (`tag.replace('.', '/')` over named_parameters(), `m.group(1)`). Files: what `open()` returns,
    # which a logger keeps (`self.file.write(...)`, guided-diffusion's).
    # Lists, dicts and sets: the containers a forward fills with what a
    # library call returned (HRNet's `x = self.stage2(x)`, then
    # `x.append(self.transition2(x[-1]))`). Paths: what a dataset joins
    # its file names to (`(video_dir / name).exists()`, 3D-ResNets').
    import io
    import pathlib
    receivers = [(TENSOR, torch.Tensor), (ARRAY, numpy.ndarray),
                 (STRING, str), (INT, int), (FLOAT, float), (BYTES, bytes),
                 (TUPLE, tuple), (MATCH, re.Match),
                 (TEXT_FILE, io.TextIOWrapper),
                 (BINARY_READER, io.BufferedReader),
                 (BINARY_WRITER, io.BufferedWriter),
                 (LIST, list), (DICT, dict), (SET, set),
                 (PATH, pathlib.Path)]
    try:
        import PIL.Image
        receivers.append((IMAGE, PIL.Image.Image))
    except ImportError:
        pass
    # Modules: a layer or model a library built, read through a chain of
    # attributes (`model.features.children()` of torchvision's VGG, a
    # perceptual loss's), but the methods that run its or the program's
    # code.
    receivers.append((MODULE, torch.nn.Module))
    for prefix, cls in receivers:
        for attr, obj in public_callables(cls):
            if prefix == MODULE and MODULE_RUNS_CODE.search(attr):
                continue
            found[prefix + attr] = why_left_out(attr, obj)
    return found


def losses_here():
    """The loss classes torch.nn exports (subclasses of
    torch.nn.modules.loss._Loss) and the torch.nn.functional functions
    their forwards call (read from the forwards' own source): a forward of
    one is a training step's loss, whatever the script calls it."""
    import inspect
    import torch
    import torch.nn.functional as F
    from torch.nn.modules.loss import _Loss
    classes, functions = [], set()
    for attr, obj in public_callables(torch.nn):
        if not (isinstance(obj, type) and issubclass(obj, _Loss)):
            continue
        classes.append("torch.nn." + attr)
        try:
            source = inspect.getsource(obj.forward)
        except (OSError, TypeError):
            continue
        functions.update("torch.nn.functional." + f
                         for f in re.findall(r"\bF\.(\w+)\(", source)
                         if callable(getattr(F, f, None)))
    return {"classes": classes, "functions": sorted(functions)}


def described_elsewhere():
    """Names and wildcard prefixes the hand-written tables describe."""
    exact, prefixes = set(), []
    for table in sorted(os.listdir(HERE)):
        if not table.endswith(".api") or table == "torch.names.api":
            continue
        with open(os.path.join(HERE, table)) as f:
            for line in f:
                words = line.split()
                if not words or words[0].startswith("#") or words[0] in (
                        "module", "alias", "quiet", "unread",
                        "receiver-method"):
                    continue
                if words[0].endswith(".*"):
                    prefixes.append(words[0][:-1])
                else:
                    exact.add(words[0])
    return exact, prefixes


def covers(prefix, name):
    """As ApiModel::lookup matches `prefix*`: names directly under it."""
    return name.startswith(prefix) and "." not in name[len(prefix):]


def derive(pythons):
    per_python, losses = [], []
    for py in pythons:
        out = subprocess.run([py, os.path.abspath(__file__), "--names"],
                             capture_output=True, text=True, check=True)
        per_python.append(json.loads(out.stdout))
        out = subprocess.run([py, os.path.abspath(__file__), "--losses"],
                             capture_output=True, text=True, check=True)
        losses.append(json.loads(out.stdout))
    exact, prefixes = described_elsewhere()
    names = set().union(*per_python)
    passes = sorted(n for n in names
                    if all(found.get(n, "") == "" for found in per_python))
    methods = [n for n in passes if n.startswith(RECEIVERS)]
    pure = [n for n in passes if not n.startswith(RECEIVERS)
            and n not in exact and not any(covers(p, n) for p in prefixes)]
    versions = []
    for py in pythons:
        out = subprocess.run([py, "-c", "import torch; print(torch.__version__)"],
                             capture_output=True, text=True)
        versions.append(out.stdout.strip() or "?")
    print("# Public functions and classes of torch and torchvision's utility")
    print("# modules that draw nothing, derived from the libraries (torch %s) by"
          % ", ".join(versions))
    print("# derive_torch_names.py: callable, no generator in the signature")
    print("# or docstring, no random name, described by no other table; and")
    print("# their constants (dtypes, layouts, memory formats, numbers,")
    print("# strings), which run no code. Do not edit; rerun it. A name left")
    print("# out is 'may draw'.")
    width = max(len(n) for n in pure) + 1
    for n in pure:
        print("%s pure" % n.ljust(width))
    print()
    print("# The methods of torch.Tensor, numpy.ndarray, PIL.Image.Image,")
    print("# str, int, float, bytes, tuple, re.Match, files")
    print("# (io.TextIOWrapper, io.BufferedReader,")
    print("# io.BufferedWriter), list, dict, set, pathlib.Path and")
    print("# torch.nn.Module (not forward, apply, hooks: they run code),")
    print("# but those with a random name or a generator in their signature")
    print("# or docstring:")
    print("# a call of one of these names on a value detc cannot trace is")
    print("# taken as that type's (a tensor's draws have entries of their")
    print("# own); any other name there may draw.")
    for m in methods:
        owner, _, attr = m.rpartition(".")
        print("receiver-method %s %s" % (owner, attr))
    print()
    print("# The loss classes of torch.nn (subclasses of _Loss) and the")
    print("# functions of torch.nn.functional their forwards call: the")
    print("# training step's loss, whatever the script calls it (a trace")
    print("# names the call 'loss').")
    classes = sorted(set().union(*(set(l["classes"]) for l in losses)))
    functions = sorted(set().union(*(set(l["functions"]) for l in losses)))
    width = max(len(n) for n in classes + functions) + 1
    for n in classes:
        print("%s layer loss" % n.ljust(width))
    for n in functions:
        print("%s call kind=loss pure" % n.ljust(width))


def check(table):
    found = names_here()
    losses = losses_here()
    bad, checked = [], 0
    with open(table) as f:
        for line in f:
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            name = words[0]
            if "loss" in words[2:] or "kind=loss" in words[2:]:
                # A loss this torch has must still be one (a class under
                # _Loss, a function a loss class's forward calls).
                owner, _, attr = name.rpartition(".")
                present = hasattr(importlib.import_module(owner), attr)
                checked += present
                if present and name not in losses["classes"] + \
                        losses["functions"]:
                    bad.append("%s: listed as a loss, but no longer one" %
                               name)
                continue
            if name == "receiver-method":
                name = words[1] + "." + words[2]
            checked += name in found
            why = found.get(name)
            if why:
                bad.append("%s: listed as drawing nothing, but %s" %
                           (name, why))
    import torch
    for b in bad:
        print("FAIL: " + b)
    print("%s: %d listed names checked under torch %s, %d wrong" %
          (os.path.basename(table), checked, torch.__version__, len(bad)))
    return 1 if bad else 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--python", action="append", default=[])
    parser.add_argument("--names", action="store_true")
    parser.add_argument("--losses", action="store_true")
    parser.add_argument("--check")
    args = parser.parse_args()
    if args.names:
        json.dump(names_here(), sys.stdout)
    elif args.losses:
        json.dump(losses_here(), sys.stdout)
    elif args.check:
        sys.exit(check(args.check))
    else:
        derive(args.python or [sys.executable])


if __name__ == "__main__":
    main()
