# Idioms 4 and 5 (issue 17): objects made in helper functions of local
# modules and returned in tuples, unpacked at the call site; a factory
# chosen by a string (`models.__dict__[arch]()` -> some torchvision model);
# modules found through a constant sys.path.insert, a star import (public
# names only), a package re-exporting a submodule's function; an import
# detc cannot resolve is a warning naming where it looked.
# RUN: detc %s --emit=points-to 2>%t.err | FileCheck %s
# RUN: FileCheck %s --check-prefix=WARN < %t.err
# WARN: helpers.py:[[@LINE+27]]:12: warning: cannot resolve import 'nowhere_module': not a local module nor a library detc models
# WARN: helpers.py:[[@LINE+26]]:12: note: looked for it in {{.*}}pointsto, {{.*}}pointsto/Inputs{{$}}
# CHECK-LABEL: scope __main__
# CHECK: model -> {torch.nn.Linear@utils_star.py:6:13}
# CHECK: net -> {torchvision.models.__dict__@model_utils.py:5:12}
# CHECK: opt -> {torch.optim.SGD@utils_star.py:7:11}
# CHECK-NOT: _private_helper
# CHECK: test_loader -> {torch.utils.data.DataLoader@loaders.py:11:13}
# CHECK: train_loader -> {torch.utils.data.DataLoader@loaders.py:10:13}
# CHECK-LABEL: scope loaders.get_loaders
# The helper's parameter gets the script's argument.
# CHECK: args -> {*.parse_args@[[@LINE+20]]:8}
# CHECK: object torch.utils.data.DataLoader@loaders.py:10:13
# CHECK: .pin_memory -> {True}
# CHECK: .shuffle -> {True}
# CHECK: object torch.utils.data.DataLoader@loaders.py:11:13
# CHECK: .num_workers -> {0}
import argparse
import sys

sys.path.insert(0, "Inputs")

from loaders import get_loaders  # noqa: E402
from utils_star import *  # noqa: E402,F401,F403
from pkg import make_model  # noqa: E402

try:
    import nowhere_module  # noqa: F401
except ImportError:
    pass

args = argparse.ArgumentParser().parse_args()
train_loader, test_loader = get_loaders(args)
model, opt = build(0.1)
net = make_model("resnet18")
