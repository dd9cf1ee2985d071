import XCTest
@testable import HTTP

/// The parser's word-at-a-time and bitmap byte tests, checked against their plain definitions
/// for every byte value at every position of every length up to a few words.
final class ByteScanTests: XCTestCase {
    func testTokenBytesAreExactlyRFC9110Tchars() {
        let specials = Set("!#$%&'*+-.^_`|~".utf8)
        for value in 0...255 {
            let byte = UInt8(value)
            let expected = (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || specials.contains(byte)
            XCTAssertEqual(RequestParser.isTokenByte(byte), expected, "byte \(value)")
        }
    }

    /// Places each byte value at each position of a buffer that is valid otherwise and compares
    /// `scan` with `allowed` for that byte.
    private func check(_ name: String, filler: UInt8, scan: (UnsafePointer<UInt8>, Int) -> Bool, allowed: (UInt8) -> Bool) {
        for length in 0...25 {
            var buffer = [UInt8](repeating: filler, count: length)
            buffer.withUnsafeBufferPointer { XCTAssertTrue(scan($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, length), "\(name): clean \(length)") }
            for position in 0..<length {
                for value in 0...255 {
                    buffer[position] = UInt8(value)
                    let result = buffer.withUnsafeBufferPointer { scan($0.baseAddress!, length) }
                    if result != allowed(UInt8(value)) {
                        XCTFail("\(name): byte \(value) at \(position) of \(length)")
                        return
                    }
                }
                buffer[position] = filler
            }
        }
    }

    func testVisibleASCIIIsExactly0x21Through0x7E() {
        check("target", filler: UInt8(ascii: "a"), scan: { RequestParser.isVisibleASCII($0, count: $1) },
              allowed: { $0 >= 0x21 && $0 <= 0x7E })
    }

    func testFieldTextRefusesControlsButTabAndDELOnly() {
        check("value", filler: UInt8(ascii: " "), scan: { RequestParser.isFieldText($0, count: $1) },
              allowed: { ($0 >= 0x20 || $0 == 0x09) && $0 != 0x7F })
    }

    func testCommonHeaderNamesAreKnownExactlyAsSpelled() {
        func known(_ name: String) -> String? {
            let bytes = Array(name.utf8)
            return bytes.withUnsafeBufferPointer { RequestParser.knownName($0, 0..<bytes.count)?.name }
        }
        XCTAssertEqual(Set(RequestParser.commonNames).count, RequestParser.commonNames.count)
        for name in RequestParser.commonNames {
            XCTAssertEqual(known(name), name)
            // Other spellings are names all the same, just not constants.
            XCTAssertNil(known(name.uppercased() == name ? name.lowercased() : name.uppercased()), name)
            XCTAssertNil(known(name + "x"), name)
            XCTAssertNil(known(String(name.dropLast()) + "_"), name)
        }
        XCTAssertNil(known("X-Custom"))
        XCTAssertNil(known(""))
    }

    func testTargetNotesWhetherItsPathHoldsEscapes() {
        func target(_ line: String) -> RequestTarget? {
            let bytes = Array((line + "\r\nHost: a\r\n\r\n").utf8)
            let result = bytes.withUnsafeBufferPointer { RequestParser.parseHead($0, limits: HTTPLimits()) }
            guard case .complete(let head, _) = result else { return nil }
            return head.requestTarget
        }
        XCTAssertEqual(target("GET /a/b?c=%41 HTTP/1.1"), RequestTarget(path: "/a/b", query: "c=%41", pathHasEscapes: false))
        XCTAssertEqual(target("GET /a%20b?c HTTP/1.1"), RequestTarget(path: "/a%20b", query: "c", pathHasEscapes: true))
        XCTAssertEqual(target("GET /a%20b HTTP/1.1")?.pathHasEscapes, true)
        XCTAssertEqual(target("GET /ab? HTTP/1.1"), RequestTarget(path: "/ab", query: "", pathHasEscapes: false))
        // Built from text, the flag is worked out the same way.
        XCTAssertEqual(RequestTarget("/x%2Fy?z").pathHasEscapes, true)
        XCTAssertEqual(RequestTarget("/x?%2F").pathHasEscapes, false)
    }
}
