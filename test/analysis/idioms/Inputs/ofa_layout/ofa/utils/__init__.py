from .my_modules import *
from .my_loader import *
