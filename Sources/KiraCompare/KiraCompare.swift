// The KiraCompare module: see the files beside this one.
