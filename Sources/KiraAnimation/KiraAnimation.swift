// The KiraAnimation module: see the files beside this one.
