import Foundation
import XCTest
@testable import Imaging

/// Metadata read from photos whose EXIF, XMP and IPTC were written by libvips in the test.
final class MetadataTests: XCTestCase {
    private var fixtures: Fixtures!

    override func setUpWithError() throws { fixtures = try Fixtures() }
    override func tearDown() { fixtures = nil }

    /// A 64×48 JPEG (or any suffix) with these EXIF fields ("exif-ifd0-Make": "Apple"), as a
    /// camera would write them.
    private func photo(_ name: String, exif: [String: String] = [:], orientation: Int? = nil,
                       blobs: [String: [UInt8]] = [:]) throws -> String {
        let base = try fixtures.gradient("base-\(name).png", width: 64, height: 48)
        let image = try VipsImage.open(base, access: .random)
            .withFields(strings: exif, integers: orientation.map { ["orientation": $0] } ?? [:], blobs: blobs)
        let path = fixtures.path(name)
        try image.save(to: path)
        return path
    }

    private func read(_ path: String) throws -> PhotoMetadata {
        try PhotoRenderer.metadata(path, settings: RenderSettings())
    }

    func testEveryFieldOfACameraIsRead() throws {
        let path = try photo("iphone.jpg", exif: [
            "exif-ifd0-Make": "Apple", "exif-ifd0-Model": "iPhone 15 Pro",
            "exif-ifd2-LensModel": "iPhone 15 Pro back triple camera 6.86mm f/1.78",
            "exif-ifd2-DateTimeOriginal": "2024:03:05 14:22:01", "exif-ifd2-OffsetTimeOriginal": "+01:00",
            "exif-ifd2-SubSecTimeOriginal": "250",
            "exif-ifd2-FNumber": "9/5", "exif-ifd2-ExposureTime": "1/120", "exif-ifd2-ISOSpeedRatings": "80",
            "exif-ifd2-FocalLength": "686/100", "exif-ifd2-FocalLengthIn35mmFilm": "24", "exif-ifd2-Flash": "16",
            "exif-ifd3-GPSLatitudeRef": "N", "exif-ifd3-GPSLatitude": "48/1 51/1 2406/100",
            "exif-ifd3-GPSLongitudeRef": "W", "exif-ifd3-GPSLongitude": "2/1 17/1 4000/100",
            "exif-ifd3-GPSAltitudeRef": "0", "exif-ifd3-GPSAltitude": "352/10",
        ], orientation: 6)
        let metadata = try read(path)
        XCTAssertEqual(metadata.make, "Apple")
        XCTAssertEqual(metadata.model, "iPhone 15 Pro")
        XCTAssertEqual(metadata.lens, "iPhone 15 Pro back triple camera 6.86mm f/1.78")
        XCTAssertEqual(metadata.taken.rfc3339, "2024-03-05T14:22:01.250+01:00")
        XCTAssertEqual(metadata.taken.source, .exif)
        XCTAssertEqual(metadata.taken.utcMilliseconds, 1_709_644_921_250)
        XCTAssertEqual(metadata.aperture ?? 0, 1.8, accuracy: 1e-9)
        XCTAssertEqual(metadata.exposureTime ?? 0, 1.0 / 120, accuracy: 1e-12)
        XCTAssertEqual(metadata.iso, 80)
        XCTAssertEqual(metadata.focalLength ?? 0, 6.86, accuracy: 1e-9)
        XCTAssertEqual(metadata.focalLength35mm, 24)
        XCTAssertEqual(metadata.flashFired, false, "16 is 'did not fire, compulsory flash mode'")
        XCTAssertEqual(metadata.orientation, 6)
        XCTAssertEqual(metadata.width, 48, "upright: orientation 6 turns the 64×48 photo a quarter")
        XCTAssertEqual(metadata.height, 64)
        XCTAssertEqual(metadata.mediaType, "image/jpeg")
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        XCTAssertEqual(metadata.fileSize, size)
        let location = try XCTUnwrap(metadata.location)
        XCTAssertEqual(location.latitude, 48 + 51.0 / 60 + 24.06 / 3600, accuracy: 1e-9)
        XCTAssertEqual(location.longitude, -(2 + 17.0 / 60 + 40.0 / 3600), accuracy: 1e-9)
        XCTAssertEqual(location.altitude ?? 0, 35.2, accuracy: 1e-9)
        XCTAssertEqual(metadata.dropped, [])
    }

    func testSixtySecondsIsAWritersRoundingAndMoreIsDropped() throws {
        let rounded = try read(try photo("rounded.jpg", exif: [
            "exif-ifd3-GPSLatitudeRef": "N", "exif-ifd3-GPSLatitude": "41/1 8/1 60/1",
            "exif-ifd3-GPSLongitudeRef": "W", "exif-ifd3-GPSLongitude": "8/1 36/1 3960/100",
        ]))
        let location = try XCTUnwrap(rounded.location, "\(rounded.dropped)")
        XCTAssertEqual(location.latitude, 41.15, accuracy: 1e-9, "41° 8′ 60″ as exiftool writes 41.15°")
        XCTAssertEqual(location.longitude, -(8 + 36.0 / 60 + 39.6 / 3600), accuracy: 1e-9)
        let wrong = try read(try photo("wrong.jpg", exif: [
            "exif-ifd3-GPSLatitudeRef": "N", "exif-ifd3-GPSLatitude": "41/1 8/1 6001/100",
            "exif-ifd3-GPSLongitudeRef": "W", "exif-ifd3-GPSLongitude": "8/1 61/1 0/1",
        ]))
        XCTAssertNil(wrong.location)
        XCTAssertTrue(wrong.dropped.map(\.reason).contains("has 60.01 seconds, more than 60"), "\(wrong.dropped)")
    }

    func testFlashThatFiredAndCamerasWithoutOne() throws {
        XCTAssertEqual(try read(photo("fired.jpg", exif: ["exif-ifd2-Flash": "25"])).flashFired, true)
        XCTAssertNil(try read(photo("none.jpg", exif: ["exif-ifd2-Flash": "32"])).flashFired, "bit 5: no flash function")
    }

    func testAPhotoWithoutMetadataIsDatedByItsFile() throws {
        let path = try fixtures.gradient("plain.png", width: 40, height: 30)
        // 2021-07-04T09:30:15.5Z
        var times = [timespec(tv_sec: 1_625_391_015, tv_nsec: 500_000_000), timespec(tv_sec: 1_625_391_015, tv_nsec: 500_000_000)]
        XCTAssertEqual(utimensat(AT_FDCWD, path, &times, 0), 0)
        let metadata = try read(path)
        XCTAssertEqual(metadata.taken.source, .file)
        XCTAssertEqual(metadata.taken.rfc3339, "2021-07-04T09:30:15.500Z")
        XCTAssertNil(metadata.make)
        XCTAssertNil(metadata.model)
        XCTAssertNil(metadata.aperture)
        XCTAssertNil(metadata.location)
        XCTAssertEqual(metadata.mediaType, "image/png")
        XCTAssertEqual(metadata.width, 40)
        XCTAssertEqual(metadata.dropped, [], "nothing was there, so nothing was dropped")
    }

    func testGarbageInPlaceOfEXIFNeverFailsThePhoto() throws {
        let path = try fixtures.gradient("garbage.jpg", width: 64, height: 48)
        var jpeg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var generator = SystemRandomNumberGenerator()
        let junk = (0..<600).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for payload in [Array("Exif".utf8) + [0, 0] + junk, Array("Exif".utf8) + [0, 0] + Array("MM".utf8) + [0, 42, 0xFF, 0xFF, 0xFF, 0xF0] + junk] {
            var copy = jpeg
            let length = payload.count + 2
            copy.insert(contentsOf: [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload, at: 2)
            try Data(copy).write(to: URL(fileURLWithPath: path))
            let metadata = try read(path)
            XCTAssertEqual(metadata.taken.source, .file)
            XCTAssertEqual(metadata.width, 64)
            XCTAssertEqual(metadata.dropped.map(\.field), ["EXIF"], "\(metadata.dropped)")
            // The photo itself is as good as ever.
            _ = try PhotoRenderer.thumbnail(source: path, settings: RenderSettings(thumbnailSize: 32))
        }
        jpeg.removeAll()
    }

    func testHostileFieldsAreDroppedOneByOneAndTheRestKept() throws {
        let path = try photo("hostile.jpg", exif: [
            "exif-ifd0-Make": String(repeating: "A", count: 5000),
            "exif-ifd0-Model": "Bad\u{1}Model",
            "exif-ifd2-LensModel": "Good Lens 50mm",
            "exif-ifd2-DateTimeOriginal": "9999:99:99 99:99:99",
            "exif-ifd2-DateTimeDigitized": "2020:02:30 10:00:00",
            "exif-ifd2-ExposureTime": "1/0",
            "exif-ifd2-FocalLength": "-5/1",
            "exif-ifd2-FNumber": "28/10",
            "exif-ifd2-ISOSpeedRatings": "0",
        ])
        let metadata = try read(path)
        XCTAssertNil(metadata.make)
        XCTAssertNil(metadata.model)
        XCTAssertEqual(metadata.lens, "Good Lens 50mm")
        XCTAssertEqual(metadata.aperture ?? 0, 2.8, accuracy: 1e-9)
        XCTAssertNil(metadata.exposureTime)
        XCTAssertNil(metadata.focalLength)
        XCTAssertNil(metadata.iso, "0 is how EXIF says unknown")
        XCTAssertEqual(metadata.taken.source, .file, "no date in the file is a date")
        let reasons = Dictionary(metadata.dropped.map { ($0.field, $0.reason) }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(Set(reasons.keys), ["EXIF Make", "EXIF Model", "EXIF DateTimeOriginal", "EXIF DateTimeDigitized",
                                           "EXIF ExposureTime", "EXIF FocalLength"], "\(metadata.dropped)")
        XCTAssertTrue(reasons["EXIF Make"]?.contains("more than 128") == true, reasons["EXIF Make"] ?? "")
        XCTAssertTrue(reasons["EXIF Model"]?.contains("control characters") == true)
        XCTAssertTrue(reasons["EXIF DateTimeOriginal"]?.contains("9999:99:99") == true)
        XCTAssertTrue(reasons["EXIF ExposureTime"]?.contains("divides by zero") == true)
        XCTAssertTrue(reasons["EXIF FocalLength"]?.contains("out of range") == true)
    }

    func testTimeZones() throws {
        let cases: [([String: String], String, CaptureDate.Source)] = [
            (["exif-ifd2-DateTimeOriginal": "2024:03:31 23:30:00", "exif-ifd2-OffsetTimeOriginal": "-05:30"],
             "2024-03-31T23:30:00-05:30", .exif),
            (["exif-ifd2-DateTimeOriginal": "2024:12:31 23:59:59", "exif-ifd2-OffsetTimeOriginal": "+14:00"],
             "2024-12-31T23:59:59+14:00", .exif),
            (["exif-ifd2-DateTimeOriginal": "2024:06:01 12:00:00", "exif-ifd2-OffsetTimeOriginal": "+00:00"],
             "2024-06-01T12:00:00Z", .exif),
            // No zone at all: the camera's clock, as it read.
            (["exif-ifd2-DateTimeOriginal": "2019:08:15 07:05:09"], "2019-08-15T07:05:09", .exif),
            // No zone, but GPS time says UTC was 13:22:01 when the clock said 15:22: two hours east.
            (["exif-ifd2-DateTimeOriginal": "2024:07:05 15:22:01", "exif-ifd3-GPSDateStamp": "2024:07:05",
              "exif-ifd3-GPSTimeStamp": "13/1 22/1 0/1"], "2024-07-05T15:22:01+02:00", .exif),
            // Only the digitised date, with its own offset.
            (["exif-ifd2-DateTimeDigitized": "2010:01:02 03:04:05", "exif-ifd2-OffsetTimeDigitized": "+09:00"],
             "2010-01-02T03:04:05+09:00", .exif),
        ]
        for (index, (exif, expected, source)) in cases.enumerated() {
            let metadata = try read(photo("zone\(index).jpg", exif: exif))
            XCTAssertEqual(metadata.taken.rfc3339, expected, "\(exif)")
            XCTAssertEqual(metadata.taken.source, source)
            XCTAssertEqual(metadata.dropped, [], "\(exif)")
        }
        let bad = try read(photo("badzone.jpg", exif: ["exif-ifd2-DateTimeOriginal": "2024:03:05 14:22:01",
                                                        "exif-ifd2-OffsetTimeOriginal": "+25:00"]))
        XCTAssertEqual(bad.taken.rfc3339, "2024-03-05T14:22:01", "the clock stays; the offset that is none goes")
        XCTAssertEqual(bad.dropped.map(\.field), ["EXIF OffsetTimeOriginal"])
    }

    func testXMPFillsWhatEXIFLacks() throws {
        let xmp = """
            <?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:tiff="http://ns.adobe.com/tiff/1.0/" xmlns:exif="http://ns.adobe.com/exif/1.0/"
              xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" xmlns:exifEX="http://cipa.jp/exif/1.0/"
              tiff:Make="Fujifilm &amp; Co" exif:DateTimeOriginal="2022-10-09T18:45:30.5-07:00"
              exif:GPSLatitude="37,46.494N" exif:GPSLongitude="122,25.164W">
              <tiff:Model>X-T5</tiff:Model>
              <exifEX:LensModel><rdf:Alt><rdf:li xml:lang="x-default">XF 23mm</rdf:li></rdf:Alt></exifEX:LensModel>
            </rdf:Description></rdf:RDF></x:xmpmeta>
            <?xpacket end="w"?>
            """
        let metadata = try read(photo("xmp.jpg", blobs: ["xmp-data": Array(xmp.utf8)]))
        XCTAssertEqual(metadata.make, "Fujifilm & Co")
        XCTAssertEqual(metadata.model, "X-T5")
        XCTAssertEqual(metadata.lens, "XF 23mm")
        XCTAssertEqual(metadata.taken.rfc3339, "2022-10-09T18:45:30.500-07:00")
        XCTAssertEqual(metadata.taken.source, .xmp)
        let location = try XCTUnwrap(metadata.location)
        XCTAssertEqual(location.latitude, 37 + 46.494 / 60, accuracy: 1e-9)
        XCTAssertEqual(location.longitude, -(122 + 25.164 / 60), accuracy: 1e-9)

        // EXIF, where present, wins.
        let both = try read(photo("both.jpg", exif: ["exif-ifd0-Make": "FUJIFILM"], blobs: ["xmp-data": Array(xmp.utf8)]))
        XCTAssertEqual(both.make, "FUJIFILM")
        XCTAssertEqual(both.model, "X-T5")
    }

    func testIPTCDateWhenNothingElseSays() throws {
        func dataset(_ number: UInt8, _ text: String) -> [UInt8] {
            let bytes = Array(text.utf8)
            return [0x1C, 2, number, UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)] + bytes
        }
        let iim = [0x1C, 1, 90, 0, 3, 0x1B, 0x25, 0x47] + dataset(55, "20180923") + dataset(60, "101112+0200")
        var block = Array("Photoshop 3.0".utf8) + [0] + Array("8BIM".utf8) + [0x04, 0x04, 0, 0]
        block += [UInt8(iim.count >> 24), UInt8(iim.count >> 16 & 0xFF), UInt8(iim.count >> 8 & 0xFF), UInt8(iim.count & 0xFF)] + iim
        if iim.count % 2 == 1 { block.append(0) }
        let metadata = try read(photo("iptc.jpg", blobs: ["iptc-data": block]))
        XCTAssertEqual(metadata.taken.rfc3339, "2018-09-23T10:11:12+02:00")
        XCTAssertEqual(metadata.taken.source, .iptc)
    }

    func testOtherFormatsCarryTheirMetadataToo() throws {
        let exif = ["exif-ifd0-Model": "EOS R5", "exif-ifd2-DateTimeOriginal": "2023:05:06 07:08:09"]
        let webp = try read(photo("camera.webp", exif: exif))
        XCTAssertEqual(webp.mediaType, "image/webp")
        XCTAssertEqual(webp.model, "EOS R5")
        XCTAssertEqual(webp.taken.rfc3339, "2023-05-06T07:08:09")
        // libvips writes a PNG's eXIf chunk from the EXIF block as it stands: take a camera's.
        let block = try XCTUnwrap(VipsImage.open(try photo("camera.jpg", exif: exif), access: .random).blob("exif-data", limit: 1 << 16))
        let png = try read(photo("camera.png", blobs: ["exif-data": block]))
        XCTAssertEqual(png.mediaType, "image/png")
        XCTAssertEqual(png.model, "EOS R5")
        XCTAssertEqual(png.taken.rfc3339, "2023-05-06T07:08:09")
        XCTAssertEqual(try read(photo("camera.tif")).mediaType, "image/tiff")
    }
}
