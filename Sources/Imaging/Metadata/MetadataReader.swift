import Foundation

/// Turns the metadata blocks of one photo into a PhotoMetadata, field by field: EXIF first, then
/// XMP for what EXIF lacks, then IPTC for the date; the file's modification time when none says
/// when. Each field is checked alone; a broken one is left out and noted in `dropped`.
struct MetadataReader {
    /// What the file system and the header say, whatever the metadata does.
    struct FileFacts {
        var size: Int
        /// Modification time, nanoseconds since the epoch.
        var modifiedNanoseconds: Int
        var mediaType: String
        var width: Int
        var height: Int
        var orientation: Int
    }

    private var dropped: [DroppedField] = []
    private var exif: ExifBlock?
    private var xmp: XMPPacket?
    private var iptc: IPTCRecord?

    /// Reads the blocks libvips found: the EXIF block, the XMP packet and the IPTC data, each
    /// optional. A block too large to be real counts as unreadable and is noted.
    init(exif exifBlob: [UInt8]?, xmp xmpBlob: [UInt8]?, iptc iptcBlob: [UInt8]?) {
        if let exifBlob {
            do { exif = try ExifBlock(exifBlob) } catch let error as ExifBlock.Unreadable {
                dropped.append(DroppedField(field: "EXIF", reason: error.reason))
            } catch {}
        }
        if let xmpBlob {
            xmp = XMPPacket(xmpBlob)
            if xmp == nil { dropped.append(DroppedField(field: "XMP", reason: "is \(xmpBlob.count) bytes, more than \(XMPPacket.maxBytes)")) }
        }
        if let iptcBlob { iptc = IPTCRecord(iptcBlob) }
    }

    /// Notes a block that was present but too large to be handed over at all.
    mutating func noteOversized(_ block: String, bytes: Int, limit: Int) {
        dropped.append(DroppedField(field: block, reason: "is \(bytes) bytes, more than \(limit)"))
    }

    /// Everything, with `facts` for what only the file knows.
    mutating func metadata(_ facts: FileFacts) -> PhotoMetadata {
        var metadata = PhotoMetadata(taken: takenDate() ?? CaptureDate(utcNanoseconds: facts.modifiedNanoseconds),
                                     orientation: facts.orientation, width: facts.width, height: facts.height,
                                     fileSize: facts.size, mediaType: facts.mediaType)
        metadata.make = text(exifTag: 0x010F, in: \.primary, "EXIF Make") ?? text(xmp: "tiff:Make")
        metadata.model = text(exifTag: 0x0110, in: \.primary, "EXIF Model") ?? text(xmp: "tiff:Model")
        metadata.lens = text(exifTag: 0xA434, in: \.exif, "EXIF LensModel")
            ?? text(xmp: "exifEX:LensModel") ?? text(xmp: "aux:Lens")
        metadata.focalLength = positive(exifTag: 0x920A, "EXIF FocalLength", range: 0.1...10_000)
        metadata.focalLength35mm = integer(exifTag: 0xA405, "EXIF FocalLengthIn35mmFilm", range: 1...10_000, zeroIsUnknown: true)
        metadata.aperture = positive(exifTag: 0x829D, "EXIF FNumber", range: 0.5...256)
            ?? positive(exifTag: 0x9202, "EXIF ApertureValue", range: -2...32).map { pow(2, $0 / 2) }
        metadata.exposureTime = positive(exifTag: 0x829A, "EXIF ExposureTime", range: 1e-7...86_400)
        metadata.iso = isoSpeed()
        metadata.flashFired = flash()
        metadata.location = location()
        metadata.dropped = dropped
        return metadata
    }

    // MARK: - Dates

    private mutating func takenDate() -> CaptureDate? {
        let pairs: [(date: UInt16, offset: UInt16, subsecond: UInt16, directory: KeyPath<ExifBlock, [UInt16: ExifBlock.Value]>, name: String)] = [
            (0x9003, 0x9011, 0x9291, \.exif, "DateTimeOriginal"),
            (0x9004, 0x9012, 0x9292, \.exif, "DateTimeDigitized"),
            (0x0132, 0x9010, 0x9290, \.primary, "DateTime"),
        ]
        for pair in pairs {
            let label = "EXIF " + pair.name
            guard let value = exifValue(pair.date, in: pair.directory) else { continue }
            guard case .text(let bytes) = value else {
                drop(label, "is not text")
                continue
            }
            guard let raw = checked(MetadataText.clean(bytes, limit: 64), label), let parsed = date(raw, label) else { continue }
            var local = parsed.localMilliseconds
            if local % 1000 == 0, let sub = exifText(pair.subsecond, in: \.exif), let ms = CaptureDate.subsecondMilliseconds(sub) {
                local += Int64(ms)
            }
            var offset = parsed.offsetMinutes
            if offset == nil, let text = exifText(pair.offset, in: \.exif), !text.isEmpty {
                offset = CaptureDate.parseOffset(text)
                if offset == nil { drop("EXIF " + ["DateTimeOriginal": "OffsetTimeOriginal", "DateTimeDigitized": "OffsetTimeDigitized"][pair.name, default: "OffsetTime"], "is not a time zone offset", text) }
            }
            if offset == nil { offset = offsetFromGPS(local: local) }
            return CaptureDate(localMilliseconds: local, offsetMinutes: offset, source: .exif)
        }
        for name in ["exif:DateTimeOriginal", "photoshop:DateCreated", "xmp:CreateDate"] {
            guard let bytes = xmp?.value(name), case .text(let raw) = MetadataText.clean(bytes, limit: 64) else { continue }
            if let parsed = date(raw, "XMP " + name, dateOnly: true) {
                return CaptureDate(localMilliseconds: parsed.localMilliseconds, offsetMinutes: parsed.offsetMinutes, source: .xmp)
            }
        }
        if let created = iptc?.created, case .text(let day) = MetadataText.clean(created.date, limit: 8) {
            // CCYYMMDD and HHMMSS±HHMM, spelled as ISO 8601 for the one parser.
            var iso = day.count == 8 ? "\(day.prefix(4))-\(day.dropFirst(4).prefix(2))-\(day.suffix(2))" : day
            if let timeBytes = created.time, case .text(let time) = MetadataText.clean(timeBytes, limit: 11), time.count >= 6 {
                iso += "T\(time.prefix(2)):\(time.dropFirst(2).prefix(2)):\(time.dropFirst(4).prefix(2))" + time.dropFirst(6)
            }
            if let parsed = date(iso, "IPTC DateCreated", dateOnly: true) {
                return CaptureDate(localMilliseconds: parsed.localMilliseconds, offsetMinutes: parsed.offsetMinutes, source: .iptc)
            }
        }
        return nil
    }

    private mutating func date(_ raw: String, _ label: String, dateOnly: Bool = false) -> CaptureDate.Parsed? {
        if CaptureDate.isUnset(raw) { return nil }
        guard let parsed = CaptureDate.parse(raw, dateOnly: dateOnly) else {
            drop(label, "is not a date between 1826 and 2199", raw)
            return nil
        }
        return parsed
    }

    /// The offset a camera without a time zone setting implies: its clock against the GPS time
    /// (UTC) of the same moment, to the nearest quarter hour, when the two are within 14 hours.
    private func offsetFromGPS(local: Int64) -> Int? {
        guard let gps = exif?.gps, case .text(let dateBytes)? = gps[29], case .rationals(let time)? = gps[7], time.count == 3,
              let day = String(validating: dateBytes, as: UTF8.self),
              let parsed = CaptureDate.parse(day + " 00:00:00") else { return nil }
        var seconds = 0.0
        for (k, part) in time.enumerated() {
            guard part.1 > 0, part.0 >= 0 else { return nil }
            seconds += Double(part.0) / Double(part.1) * [3600, 60, 1][k]
        }
        guard seconds < 86_401 else { return nil }
        let utc = Double(parsed.localMilliseconds) + seconds * 1000
        let minutes = (Double(local) - utc) / 60_000
        let quarters = (minutes / 15).rounded()
        guard abs(quarters) <= 14 * 4 else { return nil }
        return Int(quarters) * 15
    }

    // MARK: - Fields

    private func exifValue(_ tag: UInt16, in directory: KeyPath<ExifBlock, [UInt16: ExifBlock.Value]>) -> ExifBlock.Value? {
        exif?[keyPath: directory][tag]
    }

    private func exifText(_ tag: UInt16, in directory: KeyPath<ExifBlock, [UInt16: ExifBlock.Value]>) -> String? {
        guard case .text(let bytes)? = exifValue(tag, in: directory) else { return nil }
        guard case .text(let text) = MetadataText.clean(bytes, limit: 64) else { return nil }
        return text
    }

    private mutating func text(exifTag tag: UInt16, in directory: KeyPath<ExifBlock, [UInt16: ExifBlock.Value]>, _ label: String) -> String? {
        guard let value = exifValue(tag, in: directory) else { return nil }
        guard case .text(let bytes) = value else {
            drop(label, "is not text")
            return nil
        }
        return checked(MetadataText.clean(bytes), label)
    }

    private mutating func text(xmp name: String) -> String? {
        guard let bytes = xmp?.value(name) else { return nil }
        return checked(MetadataText.clean(bytes), "XMP " + name)
    }

    private mutating func checked(_ outcome: MetadataText.Outcome, _ label: String) -> String? {
        switch outcome {
        case .text(let text): return text
        case .absent: return nil
        case .unusable(let reason):
            drop(label, reason)
            return nil
        }
    }

    /// The first number of a tag, a rational or an integer, within `range`.
    private mutating func positive(exifTag tag: UInt16, _ label: String, range: ClosedRange<Double>) -> Double? {
        guard let value = exifValue(tag, in: \.exif) else { return nil }
        let number: Double
        switch value {
        case .rationals(let parts):
            guard let first = parts.first else { return nil }
            if first.0 == 0 && first.1 == 0 { return nil }  // 0/0: "unknown", as EXIF spells it
            guard first.1 != 0 else {
                drop(label, "divides by zero (\(first.0)/0)")
                return nil
            }
            number = Double(first.0) / Double(first.1)
        case .integers(let values):
            guard let first = values.first else { return nil }
            number = Double(first)
        default:
            drop(label, "is not a number")
            return nil
        }
        guard number.isFinite, range.contains(number) else {
            drop(label, "is out of range (\(Self.spell(number)), expected \(Self.spell(range.lowerBound))–\(Self.spell(range.upperBound)))")
            return nil
        }
        return number
    }

    private mutating func integer(exifTag tag: UInt16, _ label: String, range: ClosedRange<Int>, zeroIsUnknown: Bool = false) -> Int? {
        guard let value = exifValue(tag, in: \.exif) else { return nil }
        guard case .integers(let values) = value, let first = values.first else {
            drop(label, "is not a whole number")
            return nil
        }
        if zeroIsUnknown && first == 0 { return nil }
        guard range.contains(Int(first)) else {
            drop(label, "is out of range (\(first), expected \(range.lowerBound)–\(range.upperBound))")
            return nil
        }
        return Int(first)
    }

    /// PhotographicSensitivity, or ISOSpeed where the first is pinned at 65535 (its largest value).
    private mutating func isoSpeed() -> Int? {
        let sensitivity = integer(exifTag: 0x8827, "EXIF ISOSpeedRatings", range: 1...65_535, zeroIsUnknown: true)
        if sensitivity == nil || sensitivity == 65_535,
           let speed = integer(exifTag: 0x8833, "EXIF ISOSpeed", range: 1...10_000_000, zeroIsUnknown: true) {
            return speed
        }
        return sensitivity
    }

    /// Bit 0 of Flash: fired. Bit 5 says there is no flash at all, so nothing to tell.
    private mutating func flash() -> Bool? {
        guard let mode = integer(exifTag: 0x9209, "EXIF Flash", range: 0...0x7F) else { return nil }
        if mode & 0x20 != 0 { return nil }
        return mode & 1 == 1
    }

    // MARK: - Location

    private mutating func location() -> GeoLocation? {
        if let gps = exif?.gps, !gps.isEmpty, gps[2] != nil || gps[4] != nil {
            guard let latitude = coordinate(gps[2], reference: gps[1], positive: UInt8(ascii: "N"), negative: UInt8(ascii: "S"), limit: 90, "EXIF GPSLatitude"),
                  let longitude = coordinate(gps[4], reference: gps[3], positive: UInt8(ascii: "E"), negative: UInt8(ascii: "W"), limit: 180, "EXIF GPSLongitude") else {
                return nil
            }
            if latitude == 0 && longitude == 0 {
                drop("EXIF GPSLatitude", "and GPSLongitude are both 0, which receivers write when they have no fix")
                return nil
            }
            return GeoLocation(latitude: latitude, longitude: longitude, altitude: altitude(gps[6], reference: gps[5]))
        }
        guard let lat = xmp?.value("exif:GPSLatitude"), let lon = xmp?.value("exif:GPSLongitude") else { return nil }
        guard let latitude = Self.xmpCoordinate(lat, positive: "N", negative: "S", limit: 90),
              let longitude = Self.xmpCoordinate(lon, positive: "E", negative: "W", limit: 180) else {
            drop("XMP exif:GPSLatitude", "or exif:GPSLongitude is not a position")
            return nil
        }
        if latitude == 0 && longitude == 0 { return nil }
        return GeoLocation(latitude: latitude, longitude: longitude)
    }

    /// Degrees, minutes, seconds as three rationals, signed by the reference letter.
    private mutating func coordinate(_ value: ExifBlock.Value?, reference: ExifBlock.Value?, positive: UInt8, negative: UInt8,
                                     limit: Double, _ label: String) -> Double? {
        guard case .rationals(let parts)? = value, parts.count == 3 else {
            drop(label, "is not three numbers (degrees, minutes, seconds)")
            return nil
        }
        var degrees = 0.0
        for (k, part) in parts.enumerated() {
            guard part.1 > 0, part.0 >= 0 else {
                drop(label, "holds a number that is not one (\(part.0)/\(part.1))")
                return nil
            }
            let number = Double(part.0) / Double(part.1)
            // 60 itself is a writer's rounding (exiftool writes 41.15° as 41° 8′ 60″), read as the
            // next minute or degree; beyond it the field is wrong.
            guard k == 0 || number <= 60 else {
                drop(label, "has \(Self.spell(number)) \(k == 1 ? "minutes" : "seconds"), more than 60")
                return nil
            }
            degrees += number / [1, 60, 3600][k]
        }
        guard degrees <= limit else {
            drop(label, "is \(Self.spell(degrees))°, beyond \(Self.spell(limit))°")
            return nil
        }
        guard case .text(let letter)? = reference, let first = letter.first, first == positive || first == negative else {
            drop(label + "Ref", "is not \(Character(Unicode.Scalar(positive))) or \(Character(Unicode.Scalar(negative)))")
            return nil
        }
        return first == negative ? -degrees : degrees
    }

    private mutating func altitude(_ value: ExifBlock.Value?, reference: ExifBlock.Value?) -> Double? {
        guard let value else { return nil }
        guard case .rationals(let parts) = value, let part = parts.first, part.1 > 0, part.0 >= 0 else {
            drop("EXIF GPSAltitude", "is not a number")
            return nil
        }
        var metres = Double(part.0) / Double(part.1)
        if case .integers(let ref)? = reference, ref.first == 1 { metres = -metres }
        if case .bytes(let ref)? = reference, ref.first == 1 { metres = -metres }
        guard (-12_000...100_000).contains(metres) else {
            drop("EXIF GPSAltitude", "is \(Self.spell(metres)) m, out of range")
            return nil
        }
        return metres
    }

    /// XMP's `DDD,MM,SSk` or `DDD,MM.mmk` (k one of the reference letters).
    static func xmpCoordinate(_ bytes: [UInt8], positive: Character, negative: Character, limit: Double) -> Double? {
        guard case .text(var text) = MetadataText.clean(bytes, limit: 32), let letter = text.last,
              letter == positive || letter == negative else { return nil }
        text.removeLast()
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
        guard (2...3).contains(parts.count), parts.allSatisfy({ $0 != nil && $0! >= 0 && $0!.isFinite }) else { return nil }
        let numbers = parts.map { $0! }
        guard numbers.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
        let degrees = numbers[0] + numbers[1] / 60 + (numbers.count == 3 ? numbers[2] / 3600 : 0)
        guard degrees <= limit else { return nil }
        return letter == negative ? -degrees : degrees
    }

    // MARK: - Notes

    private mutating func drop(_ field: String, _ reason: String, _ value: String? = nil) {
        var reason = reason
        if let value {
            let shown = value.count > 40 ? String(value.prefix(40)) + "…" : value
            reason += " (\"\(shown)\")"
        }
        dropped.append(DroppedField(field: field, reason: reason))
    }

    static func spell(_ number: Double) -> String {
        guard number.isFinite else { return "\(number)" }
        if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        return String(format: "%.4g", number)
    }
}
