import torch

type Batch = tuple[torch.Tensor, torch.Tensor]
