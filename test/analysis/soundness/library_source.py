# Sound by default, precise where detc can read: a library no API table
# models is read from its Python source on the search path of the
# interpreter given with --python (here a package shaped like
# albumentations and timm, Inputs/site-packages/fakeaug). Calls whose code
# draws are unsafe draws with the chain of calls to the draw; calls whose
# code draws nothing are no findings; calls detc reads until something it
# cannot follow (a callee chosen by getattr, a compiled extension) may draw.
# Summaries are cached per file: the second run reads none of them again.
# RUN: rm -rf %t.cache
# RUN: env PYTHONPATH=%S/Inputs/site-packages DETC_CACHE_DIR=%t.cache \
# RUN:   detc analyze --stats --python %python %s 2>&1 \
# RUN:   | FileCheck %s --check-prefixes=CHECK,COLD
# RUN: env PYTHONPATH=%S/Inputs/site-packages DETC_CACHE_DIR=%t.cache \
# RUN:   detc analyze --stats --python %python %s 2>&1 \
# RUN:   | FileCheck %s --check-prefixes=CHECK,WARM
# A summary cut short on disk (by hand, a full disk) is not read: it is
# made again, and the findings are the same.
# RUN: %python -c "import glob, sys; [open(f, 'r+').truncate(len(open(f).read()) // 2) for f in glob.glob(sys.argv[1] + '/library-summaries/*.txt')]" %t.cache
# RUN: env PYTHONPATH=%S/Inputs/site-packages DETC_CACHE_DIR=%t.cache \
# RUN:   detc analyze --stats --python %python %s 2>&1 \
# RUN:   | FileCheck %s --check-prefixes=CHECK,COLD
# Without library source, every such call may draw.
# RUN: env PYTHONPATH=%S/Inputs/site-packages detc analyze --python none %s \
# RUN:   2>&1 | FileCheck %s --check-prefix=NONE
# NONE-COUNT-14: [detc-may-draw]
# NONE-NOT: [detc-unsafe-rng]
# NONE: 15 warning(s)
# COLD: library files: 7 (0 from the cache)
# WARM: library files: 7 (7 from the cache)
# CHECK-NOT: warning:
import torch
from torch.utils.data import DataLoader, Dataset

import fakeaug
import fakeaug as A
from fakeaug.registry import apply_op, by_name, scale


def user_jitter(x):
# A function of the program that a library object keeps and calls later:
# called where the object is (its note), in the per-example region.
# CHECK: library_source.py:[[@LINE+2]]:16: warning: generator 'torch' (global) is used inside the per-example data-parallel region {{.*}}[detc-unsafe-rng]
# CHECK: library_source.py:[[@LINE+36]]:13: note: reached through the call to 'user_jitter' here
    return x + torch.rand(4)


class Images(Dataset):
    def __init__(self):
        self.kept = A.Compose([user_jitter])
        self.flip = A.HorizontalFlip(p=0.5)
        self.norm = A.Normalize()
        self.noise = A.Noise()
        self.own = A.OwnRng()
        self.pipe = A.Compose([A.NoOp()])

    def __len__(self):
        return 8

    def __getitem__(self, i):
        x = torch.zeros(4)
# The draw is in a base class of another file, reached from the class the
# script constructs.
# CHECK: library_source.py:[[@LINE+2]]:13: warning: draws: 'self.flip' runs library code that draws from a generator made outside the per-example data-parallel region {{.*}}[detc-unsafe-rng]
# CHECK: {{.*}}:13: note: 'self.flip' is library code that draws: 'random.random' at {{.*}}fakeaug{{/|\\}}core.py:14 (through fakeaug.flips.HorizontalFlip -> fakeaug.core.BasicTransform)
        x = self.flip(x)
# Pure: a class whose code draws nothing (its isinstance check of a
# drawing class runs none of that class's code; the torch dtype it
# converts to is a constant).
        x = self.norm(x)
# CHECK: library_source.py:[[@LINE+2]]:13: warning: draws: 'self.noise'
# CHECK: {{.*}}'numpy.random.normal' at {{.*}}pixel.py:22 (through fakeaug.pixel.Noise)
        x = self.noise(x)
# CHECK: library_source.py:[[@LINE+3]]:13: warning: draws: 'self.own'
# CHECK: {{.*}}makes a generator of its own, 'numpy.random.default_rng' at {{.*}}pixel.py:29
# CHECK: note: the library draws from a generator it makes for itself, which detc transform cannot key
        x = self.own(x)
# Pure: Compose calls what it is given (NoOp, read too).
        x = self.pipe(x)
        x = self.kept(x)
# A table of functions picked by a computed key: each of them.
# CHECK: library_source.py:[[@LINE+2]]:13: warning: draws: 'apply_op'
# CHECK: {{.*}}'random.uniform' at {{.*}}registry.py:5 (through fakeaug.registry.apply_op -> fakeaug.registry.OPS -> fakeaug.registry.jitter)
        x = apply_op("jitter", x)
# CHECK: library_source.py:[[@LINE+2]]:13: warning: may draw: 'by_name' calls code detc could not read
# CHECK: {{.*}}library code that detc followed until a callee chosen by 'getattr(...)' at run time at {{.*}}registry.py:20
        x = by_name("scale", x)
        x = scale(x)
# CHECK: library_source.py:[[@LINE+2]]:13: warning: may draw: 'fakeaug.fast_blur'
# CHECK: {{.*}}'fakeaug._fastops', a compiled extension module, whose code detc cannot read at {{.*}}native.py:6
        x = fakeaug.fast_blur(x)
# A name of the compiled module the package star-imports (scipy.linalg's
# `from ._cythonized_array_utils import *`): searching the package's star
# imports for the compiled submodule itself made ever longer names
# (`fakeaug._fastops._fastops...`) until "re-exported too many times".
# CHECK: library_source.py:[[@LINE+2]]:13: warning: may draw: 'fakeaug.sharpen'
# CHECK: {{.*}}'sharpen', which module 'fakeaug' may take from 'fakeaug._fastops', a compiled extension module it star-imports, whose code detc cannot read
        x = fakeaug.sharpen(x)
        return x, 0


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = A.SafeLinear(4)
        self.block = A.Block(4)
        self.drop_path = A.DropPath(0.1)

    def forward(self, x):
# Layers: a dropout built in the library's own model part, and a draw on a
# tensor of any type (`x.new_empty(...).bernoulli_(...)`).
# CHECK: library_source.py:[[@LINE+4]]:31: warning: draws: 'self.block' {{.*}}per-batch
# CHECK: {{.*}}'torch.nn.Dropout' at {{.*}}layers.py:28 (through fakeaug.layers.Block)
# CHECK: library_source.py:[[@LINE+2]]:16: warning: draws: 'self.drop_path' {{.*}}per-batch
# CHECK: {{.*}}'*.bernoulli_' at {{.*}}layers.py:11 (through fakeaug.layers.DropPath)
        return self.drop_path(self.block(self.lin(x)))


loader = DataLoader(Images(), batch_size=2, num_workers=2)
model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x, y in loader:
    opt.zero_grad()
    model(x).sum().backward()
    opt.step()
# CHECK: 10 warning(s)
