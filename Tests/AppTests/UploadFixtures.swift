import Foundation
import HTTP
import Imaging
@testable import Library
import Observability
import SQL
import XCTest
@testable import Access
@testable import App

/// Fixture photos made with libvips at test time.
enum UploadFixtures {
    /// A JPEG of `width`×`height` with noise, so each seed's bytes differ.
    static func jpeg(width: Int = 320, height: Int = 240, seed: Int = 1) throws -> [UInt8] {
        let path = NSTemporaryDirectory() + "fixture-\(UUID().uuidString).jpg"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try DemoImage.write(to: path, width: width, height: height, seed: seed)
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// A PNG whose header promises `width`×`height` pixels over a few hundred bytes: a bomb.
    static func bombPNG(width: UInt32 = 100_000, height: UInt32 = 100_000) -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + data
            return be(UInt32(data.count)) + typed + be(crc32(typed))
        }
        let header = be(width) + be(height) + [8, 0, 0, 0, 0]  // 8-bit greyscale
        // A few rows of zeros, deflated (stored block): enough for a decoder to start, far from all.
        let raw = [UInt8](repeating: 0, count: 64)
        let stored: [UInt8] = [0x78, 0x01, 0x01, UInt8(raw.count & 0xff), UInt8(raw.count >> 8), ~UInt8(raw.count & 0xff), ~UInt8(raw.count >> 8)] + raw
            + be(adler32(raw))
        return [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] + chunk("IHDR", header) + chunk("IDAT", stored) + chunk("IEND", [])
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xffff_ffff
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }
}
