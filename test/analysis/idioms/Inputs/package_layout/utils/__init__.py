from .environment import world_size
from .train_utils import train
