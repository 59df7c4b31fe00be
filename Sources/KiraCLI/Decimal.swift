import KiraArguments

// The numbers the commands print, with 1, 2 or 3 decimals.
func format1(_ x: Double) -> String { ArgumentValues.decimal(x, digits: 1) }
func format2(_ x: Double) -> String { ArgumentValues.decimal(x, digits: 2) }
func format3(_ x: Double) -> String { ArgumentValues.decimal(x, digits: 3) }
func formatted(_ x: Double, digits: Int) -> String { ArgumentValues.decimal(x, digits: digits) }
