from .basic import *
