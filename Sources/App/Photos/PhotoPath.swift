import Foundation
import HTTP
import Imaging

/// Strict parsing of the numbers in photo URLs: plain decimal digits, no sign, no leading zero,
/// no overflow. Anything else is not a resource, so every caller answers 404.
enum PhotoPath {
    /// The route's `:id`, a whole number; 404 for anything else.
    static func listID(_ request: HTTPRequest, _ what: String) throws -> Int {
        guard let text = request.parameters["id"], !text.isEmpty, text.utf8.count <= 18,
              text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let id = Int(text) else {
            throw HTTPError(.notFound, "There is no \(what) at \(request.path): \(what) ids are whole numbers.")
        }
        return id
    }

    /// The photo id captured as `:id`: a positive decimal integer.
    static func id(_ parameters: RouteParameters) -> Int? {
        guard let n = number(parameters, "id", at: 0), n > 0 else { return nil }
        return n
    }

    /// The tile named by `:z/:x/:y`, or nil.
    static func tile(_ parameters: RouteParameters) -> TileCoordinate? {
        guard let z = number(parameters, "z", at: 1), let x = number(parameters, "x", at: 2),
              let y = number(parameters, "y", at: 3) else { return nil }
        return TileCoordinate(z: z, x: x, y: y)
    }

    /// The parameter `name` as a tile coordinate component (zero or a positive decimal integer),
    /// read from the path's bytes: every hot tile reads four of these. `position` is where the
    /// photo patterns (`/photos/:id/tiles/:z/:x/:y.jpg`) put the name, which spares the search.
    static func number(_ parameters: RouteParameters, _ name: String, at position: Int) -> Int? {
        parameters.decimal(name, at: position)
    }

    /// `digits` as a number, or nil unless they are 1 to 18 decimal digits without a leading zero
    /// (18 digits cannot overflow an Int).
    static func number(_ digits: UnsafeBufferPointer<UInt8>) -> Int? {
        RouteParameters.decimal(digits)
    }
}
