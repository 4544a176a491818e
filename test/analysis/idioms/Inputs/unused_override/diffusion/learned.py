from diffusion.gaussian import GaussianDiffusion, default


class LearnedDiffusion(GaussianDiffusion):
    # Never instantiated by the script: its lambda is never made.
    def forward(self, x, times=None, out=None):
        out = default(out, lambda: self.model(x) * 2)
        return out
