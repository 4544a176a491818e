import torch


class Net(torch.nn.Module):
    def __init__(self, p):
        super().__init__()
        self.fc = torch.nn.Linear(4, 2)
        self.drop = torch.nn.Dropout(p)

    def forward(self, x):
        return self.drop(self.fc(x))


class Exp:
    def __init__(self):
        self.drop_rate = 0.1

    def get_model(self):
        return Net(self.drop_rate)

    def get_loader(self, batch_size):
        from detlib.data import Loader, Mosaic

        return Loader(Mosaic(), batch_size=batch_size, num_workers=2)
