/// `Content-Disposition` values (RFC 6266) that every browser reads the same way.
public enum ContentDisposition {
    /// `attachment; filename="…"; filename*=UTF-8''…`: the plain `filename` is an ASCII stand-in
    /// (for clients that predate RFC 8187), `filename*` the exact name, percent-encoded as UTF-8.
    /// Path separators and control characters never reach either: a name is a name, not a path.
    public static func attachment(filename: String) -> String {
        var name = ""
        for scalar in filename.unicodeScalars {
            let v = scalar.value
            if v < 0x20 || v == 0x7F || scalar == "/" || scalar == "\\" { name.unicodeScalars.append("_") } else { name.unicodeScalars.append(scalar) }
        }
        if name.isEmpty || name == "." || name == ".." { name = "download" }
        return "attachment; filename=\"\(asciiFallback(name))\"; filename*=UTF-8''\(percentEncoded(name))"
    }

    /// The name in printable ASCII: other characters become `_`, and quotes, which would end the
    /// quoted string, become `'`.
    static func asciiFallback(_ name: String) -> String {
        String(String.UnicodeScalarView(name.unicodeScalars.map { scalar -> Unicode.Scalar in
            if scalar == "\"" { return "'" }
            return scalar.value >= 0x20 && scalar.value < 0x7F ? scalar : "_"
        }))
    }

    /// RFC 8187 `value-chars`: attr-char as it is, every other byte of the UTF-8 as `%XX`.
    static func percentEncoded(_ name: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in name.utf8 {
            if isAttrChar(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// ALPHA / DIGIT / "!" / "#" / "$" / "&" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~"
    private static func isAttrChar(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "!#$&+-.^_`|~".utf8.contains(byte)
        }
    }
}
