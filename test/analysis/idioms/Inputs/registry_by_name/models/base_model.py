class BaseModel:
    def __init__(self, opt):
        self.opt = opt

    def optimize_parameters(self):
        pass
