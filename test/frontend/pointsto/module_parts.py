# `m.named_modules()` of an instance of the program's class yields what
# may be a module among its attributes: an instance of the program's
# class or an object a library call made — not a name of a library. The
# shape of torch.jit.quantized (a wrapper copying attributes of the module
# it wraps, `self.weight = other.weight`, built for every part of a module
# and set back with `setattr(module, name, new)`) fed the names of a
# library module (`<torch.hub>`) back as parts: each round read their
# attributes as longer names (`<torch.hub.weight.bias.weight...>`), and on
# torch/jit/quantized.py the points-to ran out of memory (ctest
# corpus-lower killed). Here the wrapper holds the library names it was
# given, and iterating the parts gives the wrapper and the layer only.
# RUN: detc %s --emit=points-to --no-follow-imports | FileCheck %s
# CHECK-LABEL: scope quantize
# CHECK: mod -> {Wrapper@{{[0-9:]+}}, torch.nn.Linear@{{[0-9:]+}}}
# CHECK-NOT: weight.weight
import torch


class Wrapper(torch.nn.Module):
    def __init__(self, other):
        super().__init__()
        self.weight = other.weight
        self.bias = other.bias
        self.scale = other.scale
        self.layer = torch.nn.Linear(4, 4)


def quantize(module):
    reassign = {}
    for name, mod in module.named_modules():
        if mod is module:
            continue
        new_mod = quantize(mod)
        if new_mod is not mod:
            reassign[name] = new_mod
    for name, mod in reassign.items():
        setattr(module, name, mod)
    return Wrapper(module)


quantize(torch.hub)
