def world_size():
    return 1
