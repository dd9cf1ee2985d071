/// PostgreSQL arrays written as their text form, bound as one parameter and cast in the statement
/// (`$1::text[]`): a batch of postings or a query's look-ups is one statement of one text, whatever
/// their number, rather than a statement per row or a text per count.
enum PostgresArrayLiteral {
    /// `{"a","b"}`: each element quoted, a quote or backslash in it escaped.
    static func text(_ elements: [String]) -> String {
        var literal = "{"
        for (index, element) in elements.enumerated() {
            if index > 0 { literal.append(",") }
            literal.append("\"")
            for character in element {
                if character == "\"" || character == "\\" { literal.append("\\") }
                literal.append(character)
            }
            literal.append("\"")
        }
        literal.append("}")
        return literal
    }

    /// `{1,2}`.
    static func integers(_ elements: [Int]) -> String {
        "{" + elements.map(String.init).joined(separator: ",") + "}"
    }

    /// `{"\\x0a1b"}`: each element `bytea`'s hex form, its backslash escaped for the array.
    static func bytes(_ elements: [[UInt8]]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var literal: [UInt8] = [UInt8(ascii: "{")]
        for (index, element) in elements.enumerated() {
            if index > 0 { literal.append(UInt8(ascii: ",")) }
            literal.append(contentsOf: Array(#""\\x"#.utf8))
            for byte in element {
                literal.append(digits[Int(byte >> 4)])
                literal.append(digits[Int(byte & 0xf)])
            }
            literal.append(UInt8(ascii: "\""))
        }
        literal.append(UInt8(ascii: "}"))
        return String(decoding: literal, as: UTF8.self)
    }
}
