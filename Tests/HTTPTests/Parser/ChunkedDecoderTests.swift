import XCTest
@testable import HTTP

final class ChunkedDecoderTests: XCTestCase {
    /// Decodes `text` fed in two pieces split at `split`; returns the body or the error status.
    func decode(_ text: String, split: Int? = nil, limit: Int = 1000) -> Result<[UInt8], RequestError> {
        let bytes = Array(text.utf8)
        var decoder = ChunkedDecoder(maxBodyBytes: limit)
        var body: [UInt8] = []
        var buffer: [UInt8] = []
        let pieces = split.map { [Array(bytes[0..<$0]), Array(bytes[$0...])] } ?? [bytes]
        for piece in pieces {
            buffer += piece
            let (consumed, outcome) = buffer.withUnsafeBufferPointer { decoder.decode($0, into: &body) }
            buffer.removeFirst(consumed)
            switch outcome {
            case .done: return .success(body)
            case .invalid(let error): return .failure(error)
            case .needMore: continue
            }
        }
        return .failure(RequestError(.init(0), "incomplete"))
    }

    func testChunksWithExtensionsAndTrailers() {
        let text = "4\r\nWiki\r\n5;name=value\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n0\r\nExpires: never\r\n\r\n"
        for split in 0...text.utf8.count {
            XCTAssertEqual(try decode(text, split: split).get(), Array("Wikipedia in\r\n\r\nchunks.".utf8), "split \(split)")
        }
    }

    func testBodyOverTheLimitIs413AsSoonAsTheSizeIsKnown() {
        let result = decode("10\r\n", limit: 8)
        XCTAssertEqual(try? result.get(), nil)
        if case .failure(let error) = result { XCTAssertEqual(error.status, .contentTooLarge) }
        if case .failure(let error) = decode("5\r\nhello\r\n5\r\nworld\r\n0\r\n\r\n", limit: 8) {
            XCTAssertEqual(error.status, .contentTooLarge)
        } else { XCTFail("expected 413") }
    }

    /// RFC 9112 §7.1.1 to the letter: a size, then only `;name[=value]` extensions, with optional
    /// whitespace around `;` and `=`; whitespace on its own after the size (`d \r\n`) is not a form.
    func testTheChunkSizeLineFollowsTheGrammarExactly() {
        for line in ["2;a", "2;a=b", "2 ;a", "2; a", "2\t;\ta = b", "2;a=\"q \\\" ; x\"", "2;a;b=c;d", "2;a=\"\"", "2;!#$%&'*+-.^_`|~=v"] {
            XCTAssertEqual(try? decode("\(line)\r\nab\r\n0\r\n\r\n").get(), Array("ab".utf8), line.debugDescription)
        }
        for line in ["2 ", "2\t", "2 ;", "2;", "2;a=", "2;a b", "2;a=\"open", "2;a=\"\u{7f}\"", "2;=b", "2;a=b c", "2;a=b;", "2 x", "2;a=\"q\"x",
                     "2;a=\"\\\u{1}\""] {
            guard case .failure(let error) = decode("\(line)\r\nab\r\n0\r\n\r\n") else { XCTFail("accepted \(line.debugDescription)"); continue }
            XCTAssertEqual(error.status, .badRequest, line.debugDescription)
        }
    }

    func testMalformedChunksAre400() {
        for text in ["zz\r\nab\r\n0\r\n\r\n", "2\r\nabc\r\n0\r\n\r\n", "2\nab\r\n0\r\n\r\n", "\r\n", "2 x\r\nab\r\n0\r\n\r\n"] {
            guard case .failure(let error) = decode(text) else { return XCTFail("accepted \(text.debugDescription)") }
            XCTAssertEqual(error.status, .badRequest, text.debugDescription)
        }
    }
}
