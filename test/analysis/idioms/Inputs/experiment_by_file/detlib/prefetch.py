class Prefetcher:
    def __init__(self, loader):
        self.loader = iter(loader)
        self.preload()

    def preload(self):
        try:
            self.next_x, self.next_y = next(self.loader)
        except StopIteration:
            self.next_x = self.next_y = None

    def next(self):
        x, y = self.next_x, self.next_y
        self.preload()
        return x, y
