import XCTest
@testable import Imaging

/// The pieces of metadata reading on their own: dates, offsets, text checks, and EXIF blocks
/// built by hand to be as hostile as a block can be.
final class MetadataParsingTests: XCTestCase {
    func testDatesParseInEverySpellingAndRoundTrip() throws {
        let cases: [(String, String?)] = [
            ("2024:03:05 14:22:01", "2024-03-05T14:22:01"),
            ("2024-03-05T14:22:01Z", "2024-03-05T14:22:01Z"),
            ("2024-03-05T14:22:01.5+01:00", "2024-03-05T14:22:01.500+01:00"),
            ("2024-03-05T14:22-0530", "2024-03-05T14:22:00-05:30"),
            ("2024:02:29 00:00:00", "2024-02-29T00:00:00"),
            ("1900:01:01 12:00:00", "1900-01-01T12:00:00"),
            ("2023:02:29 00:00:00", nil),   // not a leap year
            ("2024:13:01 00:00:00", nil),
            ("2024:04:31 00:00:00", nil),
            ("2024:03:05 24:00:00", nil),
            ("1700:01:01 00:00:00", nil),   // before photography
            ("2024:03:05 14:22:01 junk", nil),
            ("2024:03:05", nil),
            ("", nil),
        ]
        for (text, expected) in cases {
            let parsed = CaptureDate.parse(text)
            let spelled = parsed.map { CaptureDate(localMilliseconds: $0.localMilliseconds, offsetMinutes: $0.offsetMinutes, source: .exif).rfc3339 }
            XCTAssertEqual(spelled, expected, text)
        }
        XCTAssertEqual(CaptureDate.parse("2024-03-05", dateOnly: true)?.localMilliseconds, CaptureDate.parse("2024:03:05 00:00:00")?.localMilliseconds)
        XCTAssertTrue(CaptureDate.isUnset("    :  :     :  :  "))
        XCTAssertTrue(CaptureDate.isUnset("0000:00:00 00:00:00"))
        XCTAssertFalse(CaptureDate.isUnset("2024:03:05 00:00:00"))
    }

    func testTheCalendarAgreesWithTheEpoch() {
        XCTAssertEqual(CaptureDate.localMilliseconds(year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0), 0)
        XCTAssertEqual(CaptureDate.localMilliseconds(year: 2000, month: 3, day: 1, hour: 0, minute: 0, second: 0), 951_868_800_000)
        XCTAssertEqual(CaptureDate.localMilliseconds(year: 1969, month: 12, day: 31, hour: 23, minute: 59, second: 59), -1000)
        // Every day from 1826 to 2199 spells back as itself.
        var day = CaptureDate.localMilliseconds(year: 1826, month: 1, day: 1, hour: 6, minute: 7, second: 8)!
        let end = CaptureDate.localMilliseconds(year: 2199, month: 12, day: 31, hour: 6, minute: 7, second: 8)!
        while day <= end {
            let f = CaptureDate.fields(of: day)
            XCTAssertEqual(CaptureDate.localMilliseconds(year: f.year, month: f.month, day: f.day, hour: f.hour, minute: f.minute, second: f.second), day)
            day += 86_400_000
        }
        XCTAssertEqual(CaptureDate(utcNanoseconds: -1).rfc3339, "1969-12-31T23:59:59.999Z")
    }

    func testOffsets() {
        XCTAssertEqual(CaptureDate.parseOffset("+01:00"), 60)
        XCTAssertEqual(CaptureDate.parseOffset("-05:30"), -330)
        XCTAssertEqual(CaptureDate.parseOffset("+0545"), 345)
        XCTAssertEqual(CaptureDate.parseOffset("+14"), 840)
        XCTAssertEqual(CaptureDate.parseOffset("Z"), 0)
        XCTAssertEqual(CaptureDate.parseOffset("  +02:00\0"), 120)
        for bad in ["+15:00", "+14:30", "01:00", "+1:00", "+01:60", "garbage", "", "+01::00"] {
            XCTAssertNil(CaptureDate.parseOffset(bad), bad)
        }
        XCTAssertEqual(CaptureDate.subsecondMilliseconds("5"), 500)
        XCTAssertEqual(CaptureDate.subsecondMilliseconds("0123"), 12)
        XCTAssertNil(CaptureDate.subsecondMilliseconds("x1"))
    }

    func testTextIsCleanedOrRefused() {
        XCTAssertEqual(MetadataText.clean(Array("  Canon\0\0\0".utf8)), .text("Canon"))
        XCTAssertEqual(MetadataText.clean(Array("NIKON   CORPORATION \n".utf8)), .text("NIKON CORPORATION"))
        XCTAssertEqual(MetadataText.clean(Array("Léica Q²".utf8)), .text("Léica Q²"))
        XCTAssertEqual(MetadataText.clean(Array("    \0".utf8)), .absent)
        XCTAssertEqual(MetadataText.clean([0x41, 0xFF, 0x42]), .unusable("is not UTF-8 text"))
        XCTAssertEqual(MetadataText.clean("Evil\u{202E}gpj.exe"), .unusable("holds control characters"))
        XCTAssertEqual(MetadataText.clean("Bell\u{7}"), .unusable("holds control characters"))
        XCTAssertEqual(MetadataText.clean(String(repeating: "é", count: 129)), .unusable("is 129 characters long, more than 128"))
        guard case .unusable = MetadataText.clean([UInt8](repeating: 0x41, count: 1 << 20)) else { return XCTFail("a megabyte of text") }
    }

    // MARK: - EXIF blocks made by hand

    private func u16(_ v: Int, big: Bool) -> [UInt8] { big ? [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    private func u32(_ v: Int, big: Bool) -> [UInt8] {
        big ? u16(v >> 16 & 0xFFFF, big: true) + u16(v & 0xFFFF, big: true) : u16(v & 0xFFFF, big: false) + u16(v >> 16 & 0xFFFF, big: false)
    }

    /// A TIFF header and an IFD0 of (tag, type, count, 4 value bytes) entries, then `tail`.
    private func block(big: Bool, _ entries: [(Int, Int, Int, [UInt8])], tail: [UInt8] = []) -> [UInt8] {
        var out = Array((big ? "MM" : "II").utf8) + u16(42, big: big) + u32(8, big: big) + u16(entries.count, big: big)
        for (tag, type, count, value) in entries {
            out += u16(tag, big: big) + u16(type, big: big) + u32(count, big: big) + value + [UInt8](repeating: 0, count: 4 - value.count)
        }
        return out + u32(0, big: big) + tail
    }

    func testBothByteOrdersAndValuesOutsideTheEntry() throws {
        for big in [false, true] {
            // IFD0 at 8: 2 + 2×12 + 4 = 30 bytes, so the text after it starts at 38.
            let make = Array("Pentax\0".utf8)
            let bytes = block(big: big, [(0x010F, 2, make.count, u32(38, big: big)), (0x0112, 3, 1, u16(8, big: big))], tail: make)
            let exif = try ExifBlock(Array("Exif".utf8) + [0, 0] + bytes)
            XCTAssertEqual(exif.primary[0x010F], .text(Array("Pentax".utf8)))
            XCTAssertEqual(exif.primary[0x0112], .integers([8]))
        }
    }

    func testHostileBlocksSayNothingRatherThanFail() throws {
        XCTAssertThrowsError(try ExifBlock([]))
        XCTAssertThrowsError(try ExifBlock(Array("Exif\0\0XX*\0\0\0\0\0".utf8)))
        XCTAssertThrowsError(try ExifBlock(Array("II".utf8) + [42, 0] + [0xF0, 0xFF, 0xFF, 0xFF]), "first directory far outside")
        // A value past the end, a count of four billion, a sub-directory pointing at itself,
        // and a directory claiming 65535 entries.
        let hostile = block(big: false, [
            (0x010F, 2, 100, u32(1_000_000, big: false)),
            (0x0110, 2, 0xFFFF_FFFF, u32(8, big: false)),
            (0x8769, 4, 1, u32(8, big: false)),
            (0x8825, 4, 1, u32(0xFFFF_FFF0, big: false)),
        ])
        let exif = try ExifBlock(hostile)
        XCTAssertNil(exif.primary[0x010F])
        XCTAssertNil(exif.primary[0x0110])
        XCTAssertEqual(exif.exif[0x8769], .integers([8]), "the loop is read once, as a directory, and not followed further")
        XCTAssertTrue(exif.gps.isEmpty)
        var many = Array("II".utf8) + [42, 0, 8, 0, 0, 0, 0xFF, 0xFF]
        many += [UInt8](repeating: 0x11, count: 200)
        XCTAssertNoThrow(try ExifBlock(many))
        // Random blocks with a valid header never crash or hang.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let body = (0..<Int.random(in: 0...400, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let bytes = Array("MM".utf8) + [0, 42, 0, 0, 0, 8] + body
            var reader = MetadataReader(exif: bytes, xmp: nil, iptc: nil)
            _ = reader.metadata(MetadataReader.FileFacts(size: 1, modifiedNanoseconds: 0, mediaType: "image/jpeg", width: 1, height: 1, orientation: 1))
        }
    }

    func testXMPFindsWholeNamesOnly() throws {
        let packet = XMPPacket(Array("<x tiff:MakeNote=\"no\" tiff:Make = 'yes &lt;3 &#x263A;'/>".utf8))!
        XCTAssertEqual(packet.value("tiff:Make").map { String(decoding: $0, as: UTF8.self) }, "yes <3 ☺")
        XCTAssertNil(packet.value("tiff:Model"))
        XCTAssertNil(XMPPacket([UInt8](repeating: 0x20, count: XMPPacket.maxBytes + 1)))
    }
}
