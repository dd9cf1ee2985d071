import Imaging

/// What a photo's header says, as the catalog keeps it (the `details` column) and the photo JSON
/// serves it: a JSON object written once at ingest, so a page of records is a copy, not a parse.
///
/// Absent facts are left out, never null. The position, when there is one, is the last member,
/// so that it can be cut off cheaply when the owner does not share where photos were taken.
public enum PhotoDetails {
    /// The `details` object for `metadata` (without the file name, which moves with the file).
    public static func json(_ metadata: PhotoMetadata) -> String {
        var json = "{\"takenFrom\":\"\(metadata.taken.source.rawValue)\""
        func text(_ name: String, _ value: String?) {
            if let value { json += ",\"\(name)\":\(quoted(value))" }
        }
        func number(_ name: String, _ value: Double?) {
            if let value, value.isFinite { json += ",\"\(name)\":\(spell(value))" }
        }
        func integer(_ name: String, _ value: Int?) {
            if let value { json += ",\"\(name)\":\(value)" }
        }
        text("make", metadata.make)
        text("model", metadata.model)
        text("lens", metadata.lens)
        number("focalLength", metadata.focalLength)
        integer("focalLength35mm", metadata.focalLength35mm)
        number("aperture", metadata.aperture)
        number("exposureTime", metadata.exposureTime)
        integer("iso", metadata.iso)
        if let fired = metadata.flashFired { json += ",\"flash\":\(fired)" }
        json += ",\"width\":\(metadata.width),\"height\":\(metadata.height),\"orientation\":\(metadata.orientation)"
        json += ",\"fileSize\":\(metadata.fileSize),\"mediaType\":\(quoted(metadata.mediaType))"
        if let location = metadata.location, location.latitude.isFinite, location.longitude.isFinite {
            json += locationKey + "{\"latitude\":\(spell(location.latitude)),\"longitude\":\(spell(location.longitude))"
            if let altitude = location.altitude, altitude.isFinite { json += ",\"altitude\":\(spell(altitude))" }
            json += "}"
        }
        return json + "}"
    }

    /// The member that starts the position. A string value cannot hold it: its quotes would be escaped.
    static let locationKey = ",\"location\":"

    /// `details` as served: the file name first, and the position only when `showLocation`.
    public static func served(_ details: String, fileName: String, showLocation: Bool) -> String {
        var body = Substring(details.dropFirst()) // past "{"
        if !showLocation, let cut = body.range(of: locationKey) { body = body[..<cut.lowerBound] + "}" }
        return "{\"fileName\":\(quoted(fileName))," + body
    }

    /// The shortest decimal that reads back as the same number (`1.8`, `0.008333333333333333`),
    /// whole numbers without `.0`.
    static func spell(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// A JSON string literal.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
                out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
