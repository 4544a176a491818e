import torch.utils.data as data


class BaseDataset(data.Dataset):
    def __init__(self, opt):
        self.opt = opt
