from runners.anneal import *
from runners.plain import *
