# Generator creation, reseeding, aliasing and draws, through import aliases.
# RUN: detc %s | FileCheck %s
import random as pyrandom
import torch as ch
from numpy import random as npr

# The global generators of the imported libraries exist from the start.
# CHECK-LABEL: detc.func @__main__
# CHECK-DAG: detc.global_generator "numpy" defs ["<numpy>"]
# CHECK-DAG: detc.global_generator "random" defs ["<random>"]
# CHECK-DAG: detc.global_generator "torch" defs ["<torch>"]

# CHECK: detc.create_generator "torch" seeded defs ["<torch>"] uses ["@seed"] {api = "torch.manual_seed"}
seed = 3
ch.manual_seed(seed)
# CHECK: detc.create_generator "numpy" seeded defs ["<numpy>"] {api = "numpy.random.seed"}
npr.seed(1)
# CHECK: detc.create_generator "torch" defs ["$0"] {api = "torch.Generator"}
# CHECK-NEXT: detc.create_generator "torch" seeded reseed defs ["@g"] uses ["$0"] {api = "torch.Generator.manual_seed"}
g = ch.Generator().manual_seed(5)
# CHECK: detc.stmt "assign" copy defs ["@g2"] uses ["@g"]
g2 = g
# CHECK: detc.draw "@g2" dist "uniform" defs ["@x"] uses ["@g2"] {api = "torch.rand"}
x = ch.rand(3, generator=g2)
# CHECK: detc.draw "<torch>" dist "uniform" defs ["$1"] uses ["@x"] {api = "torch.rand_like"}
# CHECK-NEXT: detc.stmt "assign" defs ["@y"] uses ["@x", "$1"]
y = x + 0.1 * ch.rand_like(x)
# In-place draws update their tensor.
# CHECK: detc.draw "<torch>" dist "normal" updates ["@y"] uses ["@y"] {api = "*.normal_"}
y.normal_()
# CHECK: detc.create_generator "numpy" seeded defs ["@rng"] {api = "numpy.random.default_rng"}
rng = npr.default_rng(7)
# CHECK: detc.draw "@rng" dist "sample" defs ["@z"] uses ["@rng"] {api = "numpy.random.Generator.normal"}
z = rng.normal(size=4)
# CHECK: detc.draw "<numpy>" dist "shuffle" updates ["@z"] uses ["@z"] {api = "numpy.random.shuffle"}
npr.shuffle(z)
# CHECK: detc.create_generator "random" seeded defs ["@r"] {api = "random.Random"}
r = pyrandom.Random(0)
# CHECK: detc.draw "@r" dist "sample" defs ["@k"] uses ["@r"] {api = "random.Random.randint"}
k = r.randint(0, 9)
# CHECK: detc.draw "<random>" dist "sample" defs ["$2"] {api = "random.random"}
if pyrandom.random() < 0.5:
    pass


# A generator passed to a helper is bound to its parameter, and the helper's
# draw uses that parameter.
def jitter(t, gen):
    return t + ch.randn_like(t, generator=gen)


# CHECK: detc.call @jitter bind {gen = "@g", t = "@x"} defs ["@w"] uses ["@x", "@g"]
w = jitter(x, g)
# CHECK-LABEL: detc.func @jitter kind function params ["t", "gen"]
# CHECK: detc.draw "gen" dist "normal" defs ["$0"] uses ["t", "gen"] {api = "torch.randn_like"}
