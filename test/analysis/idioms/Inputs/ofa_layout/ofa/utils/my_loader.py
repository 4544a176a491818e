__all__ = ["MyDataLoader"]


class MyDataLoader(object):
    """A copy of torch's DataLoader that changes the image size per batch."""

    def __init__(self, dataset, batch_size=1, shuffle=False, num_workers=0):
        self.dataset = dataset
        self.batch_size = batch_size

    def __iter__(self):
        batch = []
        for i in range(len(self.dataset)):
            batch.append(self.dataset[i])
        yield batch
