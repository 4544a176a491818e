import broken_helper

broken_helper.make()
