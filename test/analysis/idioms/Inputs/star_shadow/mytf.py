class Lighting(object):
    def __init__(self, alphastd):
        self.alphastd = alphastd

    def __call__(self, img):
        alpha = img.new_empty(3).normal_(0, self.alphastd)
        return img + alpha.sum()
