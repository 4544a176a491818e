from torch.nn import *
