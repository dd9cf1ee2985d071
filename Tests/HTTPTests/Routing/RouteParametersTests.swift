import XCTest
@testable import HTTP
import Observability

final class RouteParametersTests: XCTestCase {
    private func parameters(_ pattern: String, _ path: String) -> RouteParameters? {
        var router = Router()
        router.get(pattern, execution: .inline) { _ in HTTPResponse(status: .ok) }
        guard case .found(_, let parameters) = router.match(.GET, path: path) else { return nil }
        return parameters
    }

    func testValuesAreReadByNameAndAbsentNamesAreNil() throws {
        let found = try XCTUnwrap(parameters("/photos/:id/tiles/:z/:x/:y.jpg", "/photos/12/tiles/3/4/56.jpg"))
        XCTAssertEqual(found.count, 4)
        XCTAssertEqual(found["id"], "12")
        XCTAssertEqual(found["z"], "3")
        XCTAssertEqual(found["x"], "4")
        XCTAssertEqual(found["y"], "56", "the suffix is not part of the value")
        XCTAssertNil(found["w"])
        XCTAssertNil(found["i"], "a prefix of a name is another name")
        XCTAssertEqual(found.withUTF8("y") { Array($0) }, Array("56".utf8))
        XCTAssertNil(found.withUTF8("nope") { $0.count })
        // A position hint only spares the search: a wrong or impossible one gives the same answer.
        for position in [-1, 0, 1, 3, 4, 99] {
            XCTAssertEqual(found.withUTF8("x", at: position) { String(decoding: $0, as: UTF8.self) }, "4", "hint \(position)")
            XCTAssertNil(found.withUTF8("w", at: position) { $0.count }, "hint \(position)")
        }
        XCTAssertEqual(found, ["y": "56", "x": "4", "z": "3", "id": "12"], "equal whatever the order")
        XCTAssertNotEqual(found, ["id": "12", "z": "3", "x": "4", "y": "57"])
    }

    func testMoreParametersThanKeptInPlaceAndNonASCIIValues() throws {
        let found = try XCTUnwrap(parameters("/:a/:b/:c/:d/:e/:f", "/1/22/333/4444/é/ünï"))
        XCTAssertEqual(found.pairs.map(\.name), ["a", "b", "c", "d", "e", "f"])
        XCTAssertEqual(found.pairs.map(\.value), ["1", "22", "333", "4444", "é", "ünï"])
        XCTAssertNil(parameters("/:a/:b/:c/:d/:e/:f", "/1/2/3/4/5"))
        XCTAssertNil(parameters("/:a/:b/:c/:d/:e/:f", "/1/2/3/4/5/6/7"))
    }

    func testRestAndRoot() throws {
        XCTAssertEqual(parameters("/files/*path", "/files/a/b.css")?["path"], "a/b.css")
        XCTAssertEqual(parameters("/files/*path", "/files")?["path"], "")
        XCTAssertEqual(parameters("/*path", "/")?["path"], "")
        let root = try XCTUnwrap(parameters("/", "/"))
        XCTAssertTrue(root.isEmpty)
        XCTAssertEqual(root, RouteParameters())
        XCTAssertEqual(root.description, "[:]")
    }

    func testGivenByHand() {
        let given: RouteParameters = ["id": "7", "cid": "19"]
        XCTAssertEqual(given["id"], "7")
        XCTAssertEqual(given["cid"], "19")
        XCTAssertNil(given["x"])
        XCTAssertEqual(given.description, "[\"id\": \"7\", \"cid\": \"19\"]")
        var request = HTTPRequest(method: .GET, target: "/x")
        XCTAssertTrue(request.parameters.isEmpty)
        request.parameters = given
        XCTAssertEqual(request.parameters["cid"], "19")
    }

    func testValuesAreCutFromThePercentDecodedPath() throws {
        var router = Router()
        router.get("/photos/:id", execution: .inline) { r in HTTPResponse(contentType: "text/plain", bytes: Array(r.parameters["id"]!.utf8)) }
        let response = Responder(router: router).respond(to: HTTPRequest(method: .GET, target: "/photos/a%20b"))
        XCTAssertEqual(String(decoding: response.bodyBytes ?? [], as: UTF8.self), "a b")
    }

    func testDecimalParametersAreStrictNumbers() {
        let cases: [(String, Int?)] = [
            ("0", 0), ("7", 7), ("42", 42), ("123456789012345678", 123_456_789_012_345_678),
            ("", nil), ("007", nil), ("01", nil), ("-1", nil), ("+1", nil), ("1a", nil), ("a1", nil), (" 1", nil),
            ("1234567890123456789", nil), ("９", nil), ("1/", nil), (":", nil),
        ]
        for (text, expected) in cases {
            let parameters: RouteParameters = ["id": "5", "z": text]
            XCTAssertEqual(parameters.decimal("z", at: 1), expected, text)
            // A wrong hint only costs the search.
            XCTAssertEqual(parameters.decimal("z", at: 0), expected, text)
            XCTAssertEqual(parameters.decimal("z", at: 9), expected, text)
        }
        let parameters: RouteParameters = ["id": "5"]
        XCTAssertNil(parameters.decimal("z", at: 1))
        XCTAssertEqual(parameters.decimal("id", at: 0), 5)
    }

    func testDecimalParametersOfAMatchedPath() {
        var router = Router()
        router.get("/photos/:id/tiles/:z/:x/:y.jpg") { _ in HTTPResponse(status: .ok) }
        guard case .found(_, let parameters) = router.match(.GET, path: "/photos/12/tiles/3/0/10.jpg") else {
            return XCTFail("no match")
        }
        XCTAssertEqual([parameters.decimal("id", at: 0), parameters.decimal("z", at: 1), parameters.decimal("x", at: 2),
                        parameters.decimal("y", at: 3)], [12, 3, 0, 10])
    }
}
