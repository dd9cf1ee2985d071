import Foundation
import HTTP
import SQL
import TestSupport
import XCTest
@testable import App

/// The same reading `check` does, for the test's last assertion.
enum PhotoRendererCheck {
    static func readsBack(_ path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path) else { return false }
        return data.count > 4 && data.suffix(2) == Data([0xFF, 0xD9])
    }
}
