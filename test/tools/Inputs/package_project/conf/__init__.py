# A settings package as projects write it: the package imports its own
# module absolutely (found from the project's top folder, as CPython does
# when a script there imports the package) and copies its names with
# setattr, a construct detc warns about once per project.
import conf.global_settings as defaults


class Settings:
    def __init__(self, module):
        for name in dir(module):
            if name.isupper():
                setattr(self, name, getattr(module, name))


settings = Settings(defaults)
