import Foundation
import HTTP
import Imaging

/// Strict parsing of the numbers in photo URLs: plain decimal digits, no sign, no leading zero,
/// no overflow. Anything else is not a resource, so every caller answers 404.
enum PhotoPath {
    /// A photo id: a positive decimal integer.
    static func id(_ text: String?) -> Int? {
        guard let n = number(text), n > 0 else { return nil }
        return n
    }

    /// A tile coordinate component: zero or a positive decimal integer.
    static func number(_ text: String?) -> Int? {
        guard let text, !text.isEmpty, text.utf8.count <= 18,
              text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              text == "0" || text.utf8.first != UInt8(ascii: "0") else { return nil }
        return Int(text)
    }

    /// The tile named by `:z/:x/:y`, or nil.
    static func tile(_ parameters: [String: String]) -> TileCoordinate? {
        guard let z = number(parameters["z"]), let x = number(parameters["x"]), let y = number(parameters["y"]) else { return nil }
        return TileCoordinate(z: z, x: x, y: y)
    }
}
