/// A share as Apple signs it, in thousandths of a percent (50000 is 50 %), in words.
enum ShareWords {
    static func percent(_ thousandths: Int) -> String { "\((Double(thousandths) / 1000).formatted()) %" }
}
