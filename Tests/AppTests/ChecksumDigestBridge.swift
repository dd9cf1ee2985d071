import Foundation
import HTTP
import Library
import Synchronization
import TestSupport
import Uploads
import XCTest
@testable import App

/// SHA-1 for the tests' checksums, from the same digest the server uses.
enum ChecksumDigestBridge {
    static func sha1(_ bytes: [UInt8]) -> [UInt8] {
        let digest = ChecksumDigest(.sha1)
        digest.update(bytes)
        return digest.finish()
    }
}
