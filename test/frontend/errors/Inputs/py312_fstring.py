config = {"lr": 0.1}
print(f"lr={config["lr"]} {{literal}}")
print(f"{'\n'.join(['a', 'b'])}")
