/// The numbers of the grammar: pixels are decimal digits; percentages and angles are decimal digits
/// with at most one point (`0.9`, `.9`), never a sign or an exponent.
enum Number {
    /// Up to 9 digits (so that products of two never overflow).
    static func integer(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 9, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text)
    }

    /// Comma-separated integers, each as `integer` reads it, scanned in place without splitting
    /// the text into an array: `found(i, n)` is given the i-th. The count, or nil when the text is
    /// not such a list or holds more than `most`.
    @inline(__always)
    static func integers(_ text: Substring, most: Int, _ found: (Int, Int) -> Void) -> Int? {
        var index = 0, value = 0, digits = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: ",") {
                guard digits > 0, index < most - 1 else { return nil }
                found(index, value)
                index += 1
                value = 0
                digits = 0
            } else if byte >= 0x30 && byte <= 0x39, digits < 9 {
                value = value * 10 + Int(byte - 0x30)
                digits += 1
            } else {
                return nil
            }
        }
        guard digits > 0 else { return nil }
        found(index, value)
        return index + 1
    }

    /// `w,h`.
    static func twoIntegers(_ text: Substring) -> (Int, Int)? {
        var values = (0, 0)
        guard integers(text, most: 2, { i, n in if i == 0 { values.0 = n } else { values.1 = n } }) == 2 else { return nil }
        return values
    }

    /// `x,y,w,h`.
    static func fourIntegers(_ text: Substring) -> (Int, Int, Int, Int)? {
        var values = (0, 0, 0, 0)
        let count = integers(text, most: 4) { i, n in
            switch i { case 0: values.0 = n; case 1: values.1 = n; case 2: values.2 = n; default: values.3 = n }
        }
        guard count == 4 else { return nil }
        return values
    }

    static func decimal(_ text: Substring) -> Double? {
        var digits = 0, points = 0, digitsAfterPoint = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: ".") {
                points += 1
            } else if byte >= 0x30 && byte <= 0x39 {
                digits += 1
                if points > 0 { digitsAfterPoint += 1 }
            } else {
                return nil
            }
        }
        guard digits > 0, digits <= 30, points <= 1, points == 0 || digitsAfterPoint > 0 else { return nil }
        return Double(text.first == "." ? "0" + text : String(text))
    }
}
