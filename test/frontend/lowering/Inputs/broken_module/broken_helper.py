def make(:
    pass
