import Foundation
import SQL

/// One value of a row in a backup line: an integer or text as itself, `null`, a real as
/// `{"real":1.5}` and bytes as `{"blob":"<base64>"}`, so every value reads back as the type it was.
struct BackupValue: Codable {
    var value: SQLValue

    init(_ value: SQLValue) { self.value = value }

    private enum Tag: String, CodingKey { case real, blob }

    func encode(to encoder: any Encoder) throws {
        switch value {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .integer(let n):
            var single = encoder.singleValueContainer()
            try single.encode(n)
        case .text(let s):
            var single = encoder.singleValueContainer()
            try single.encode(s)
        case .double(let d):
            var keyed = encoder.container(keyedBy: Tag.self)
            try keyed.encode(d, forKey: .real)
        case .blob(let b):
            var keyed = encoder.container(keyedBy: Tag.self)
            try keyed.encode(Data(b).base64EncodedString(), forKey: .blob)
        }
    }

    init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer() {
            if single.decodeNil() { value = .null; return }
            if let n = try? single.decode(Int64.self) { value = .integer(n); return }
            if let s = try? single.decode(String.self) { value = .text(s); return }
        }
        let keyed = try decoder.container(keyedBy: Tag.self)
        if let d = try keyed.decodeIfPresent(Double.self, forKey: .real) {
            value = .double(d)
        } else if let text = try keyed.decodeIfPresent(String.self, forKey: .blob), let bytes = Data(base64Encoded: text) {
            value = .blob([UInt8](bytes))
        } else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a backup value"))
        }
    }
}
