import XCTest
@testable import JPEGMetadata

/// Taking the location out of a JPEG: what goes, what stays byte for byte, and hostile inputs
/// that must fail (or pass every check) without trapping or looping.
final class JPEGLocationTests: XCTestCase {
    func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    func testTheGPSDirectoryGoesInEitherByteOrderAndTheCameraAndImageDataStay() throws {
        for bigEndian in [false, true] {
            let sample = SampleJPEG(bigEndian: bigEndian)
            let input = sample.bytes
            XCTAssertTrue(try ExifLocation.hasGPSPointer(sample.tiff))
            let output = try JPEGLocation.removed(from: input)
            XCTAssertEqual(output.count, input.count, "the Exif block keeps its size: nothing moves")
            XCTAssertFalse(contains(output, SampleJPEG.latitude), "the latitude's bytes are zeroed")
            XCTAssertFalse(contains(output, sample.u16(0x8825)), "no GPS pointer left")
            XCTAssertTrue(contains(output, Array("Camera\u{0}".utf8)), "Make stays")
            XCTAssertTrue(contains(output, sample.u16(0x0112) + sample.u16(3) + sample.u32(1) + sample.u16(6)), "orientation stays")
            XCTAssertEqual(Array(output.suffix(sample.scan.count + 10)), Array(input.suffix(sample.scan.count + 10)), "the scan is untouched")
            let tiff = Array(output[(input.firstRange(of: Array("Exif\u{0}\u{0}".utf8))!.upperBound)...].prefix(sample.tiff.count))
            XCTAssertFalse(try ExifLocation.hasGPSPointer(tiff))
        }
    }

    func testAJPEGWithNoLocationComesBackAsItWas() throws {
        let sample = SampleJPEG(gps: false, xmp: #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:Description tiff:Make="Camera"/></x:xmpmeta>"#,
                                iptc: [(2, 120, "A caption")])
        XCTAssertEqual(try JPEGLocation.removed(from: sample.bytes), sample.bytes)
    }

    func testXMPPlacesGoAsAttributesAndElementsAndTheRestStays() throws {
        let xmp = """
            <?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF>\
            <rdf:Description xmlns:e="http://ns.adobe.com/exif/1.0/" e:GPSLatitude="51,30.5N" tiff:Make="Camera" \
            photoshop:City='Paris'><e:GPSLongitude>0,15W</e:GPSLongitude><Iptc4xmpExt:LocationShown><rdf:Bag><rdf:li>\
            <Iptc4xmpExt:City>Lyon</Iptc4xmpExt:City></rdf:li></rdf:Bag></Iptc4xmpExt:LocationShown>\
            <dc:title>Harbour</dc:title><e:GPSAltitude/></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>
            """
        let output = try JPEGLocation.removed(from: SampleJPEG(gps: false, xmp: xmp).bytes)
        let text = String(decoding: output, as: UTF8.self)
        for gone in ["GPSLatitude", "GPSLongitude", "GPSAltitude", "51,30.5N", "City", "Paris", "Lyon", "LocationShown"] {
            XCTAssertFalse(text.contains(gone), gone)
        }
        XCTAssertTrue(text.contains(#"<rdf:Description xmlns:e="http://ns.adobe.com/exif/1.0/" tiff:Make="Camera">"#), text)
        XCTAssertTrue(text.contains("<dc:title>Harbour</dc:title></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end=\"w\"?>"), text)
    }

    func testAnXMPPacketThatCannotBeReadSafelyGoesWhole() throws {
        for xmp in [#"<!DOCTYPE x [<!ENTITY e "GPS">]><x:xmpmeta e:GPSLatitude="1"/>"#, #"<rdf:Description e:GPSLatitude="1>"#,
                    "<a><e:GPSLatitude>1</a>", "<a b=c>"] {
            let output = try JPEGLocation.removed(from: SampleJPEG(gps: false, xmp: xmp).bytes)
            XCTAssertFalse(contains(output, Array("http://ns.adobe.com/xap/1.0/".utf8)), xmp)
        }
    }

    func testIPTCLocationDatasetsGoAndTheCaptionStays() throws {
        let sample = SampleJPEG(gps: false, iptc: [(2, 90, "Paris"), (2, 120, "A caption"), (2, 92, "Harbour"), (2, 95, "Ile-de-France"),
                                                   (2, 100, "FRA"), (2, 101, "France"), (2, 25, "boats")])
        let output = try JPEGLocation.removed(from: sample.bytes)
        let text = String(decoding: output, as: UTF8.self)
        for gone in ["Paris", "Harbour", "Ile-de-France", "FRA", "France"] { XCTAssertFalse(text.contains(gone), gone) }
        XCTAssertTrue(text.contains("A caption") && text.contains("boats"), text)
        JPEGLocationFuzzing.check(sample.bytes)
    }

    func testTheIPTCDigestGoesOnlyWhenTheRecordChanged() throws {
        // The record, then a digest resource of two bytes (14 bytes in all).
        func block(_ datasets: [(record: UInt8, dataset: UInt8, text: String)]) -> [UInt8] {
            Array(SampleJPEG(gps: false, iptc: datasets).iptcBlock.dropFirst(IPTCLocation.header.count)) + Array("8BIM".utf8) + [0x04, 0x25, 0, 0, 0, 0, 0, 2, 0xAB, 0xCD]
        }
        let placeless = block([(2, 120, "A caption")])
        XCTAssertEqual(try IPTCLocation.removed(placeless), placeless)
        let placed = block([(2, 120, "A caption"), (2, 90, "Paris")])
        XCTAssertEqual(try IPTCLocation.removed(placed), Array(placeless.dropLast(14)))
    }

    func testHostileInputsAreRefusedWithAReason() {
        let good = SampleJPEG(xmp: #"<a e:GPSLatitude="1"/>"#, iptc: [(2, 90, "Paris")]).bytes
        let tiffAt = good.firstRange(of: Array("Exif\u{0}\u{0}".utf8))!.upperBound
        func patched(_ offset: Int, _ bytes: [UInt8]) -> [UInt8] {
            var copy = good
            copy.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
            return copy
        }
        let cases: [(String, [UInt8])] = [
            ("empty", []),
            ("not a JPEG", Array("GIF89a".utf8)),
            ("only a start", [0xFF, 0xD8]),
            ("a segment longer than the file", [0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF, 0x45]),
            ("a length under two", [0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x01, 0, 0]),
            ("cut inside the Exif block", Array(good.prefix(tiffAt + 20))),
            ("an end before the image", [0xFF, 0xD8, 0xFF, 0xD9]),
            ("no TIFF in Exif", patched(tiffAt, [0x41, 0x41])),
            ("IFD0 past the end", patched(tiffAt + 4, [0xF0, 0xFF, 0, 0])),
            ("GPS directory past the end", patched(tiffAt + 8 + 2 + 24 + 8, [0xF0, 0xFF, 0, 0])),
            ("a GPS value outside the block", patched(tiffAt + 50 + 2 + 12 + 8, [0xF0, 0xFF, 0, 0])),
            ("an APP1 inside the image data", good.dropLast(2) + [0xFF, 0xE1, 0, 4, 0, 0, 0xFF, 0xD9]),
            ("a Photoshop resource past its block", {
                var copy = good
                let at = copy.firstRange(of: Array("8BIM".utf8))!.upperBound + 4
                copy[at] = 0x7F
                return copy
            }()),
        ]
        for (name, input) in cases {
            XCTAssertThrowsError(try JPEGLocation.removed(from: input), name) { error in
                XCTAssertFalse((error as? JPEGLocationError)?.reason.isEmpty ?? true, name)
            }
            input.withUnsafeBytes { JPEGLocationFuzzing.check($0) }
        }
    }

    func testADirectoryLoopIsWalkedOnceAndTheGPSStillGoes() throws {
        for bigEndian in [false, true] {
            let sample = SampleJPEG(bigEndian: bigEndian)
            var input = sample.bytes
            let tiffAt = input.firstRange(of: Array("Exif\u{0}\u{0}".utf8))!.upperBound
            // IFD0's next pointer back at IFD0 itself.
            input.replaceSubrange((tiffAt + 8 + 2 + 36)..<(tiffAt + 8 + 2 + 40), with: sample.u32(8))
            let output = try JPEGLocation.removed(from: input)
            XCTAssertFalse(contains(output, SampleJPEG.latitude))
            input.withUnsafeBytes { JPEGLocationFuzzing.check($0) }
        }
    }

    func testEveryCutAndEveryFlippedByteEitherFailsOrKeepsTheContract() {
        let good = SampleJPEG(bigEndian: true, xmp: #"<a e:GPSLatitude="1"><b>x</b></a>"#, iptc: [(2, 90, "Paris"), (2, 120, "c")]).bytes
        for cut in 0...good.count { Array(good.prefix(cut)).withUnsafeBytes { JPEGLocationFuzzing.check($0) } }
        for at in good.indices {
            for flip: UInt8 in [0x01, 0x80, 0xFF] {
                var copy = good
                copy[at] ^= flip
                copy.withUnsafeBytes { JPEGLocationFuzzing.check($0) }
            }
        }
    }
}

extension JPEGLocationFuzzing {
    static func check(_ bytes: [UInt8]) { bytes.withUnsafeBytes { check($0) } }
}
