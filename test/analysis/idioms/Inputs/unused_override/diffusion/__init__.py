from diffusion.gaussian import GaussianDiffusion, default
from diffusion.learned import LearnedDiffusion
