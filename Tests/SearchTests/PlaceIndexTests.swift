import Foundation
import Observability
import XCTest
@testable import Search

/// GPS to the nearest city, from a small GeoNames table the test writes in GeoNames' own layout.
final class PlaceIndexTests: XCTestCase {
    /// geonameid, name, asciiname, alternatenames, latitude, longitude, class, code, country,
    /// cc2, admin1, admin2, admin3, admin4, population, elevation, dem, timezone, modified.
    static func line(_ name: String, _ latitude: Double, _ longitude: Double, _ country: String, _ admin1: String) -> String {
        ["1", name, name, "", String(latitude), String(longitude), "P", "PPL", country, "", admin1,
         "", "", "", "1000", "", "10", "Etc/UTC", "2024-01-01"].joined(separator: "\t")
    }

    static let cities = [
        line("Lisbon", 38.71667, -9.13333, "PT", "14"),
        line("Sintra", 38.80097, -9.37826, "PT", "14"),
        line("São Paulo", -23.5475, -46.63611, "BR", "27"),
        line("Suva", -18.14161, 178.44149, "FJ", "01"),
        line("Taveuni", -16.85, -179.97, "FJ", "03"),
        line("Longyearbyen", 78.2186, 15.64007, "SJ", "21"),
        "not\ta city",
        "# a comment",
    ].joined(separator: "\n") + "\n"

    static let regions = "PT.14\tLisbon\tLisbon\t2267056\nBR.27\tSão Paulo\tSao Paulo\t3448433\n"

    let index = PlaceIndex(cities: Data(cities.utf8), regions: Data(regions.utf8))

    func testNearest() throws {
        XCTAssertEqual(index.count, 6, "the line that is not a city is skipped")
        let lisbon = try XCTUnwrap(index.place(latitude: 38.72, longitude: -9.14))
        XCTAssertEqual(lisbon.city, "Lisbon")
        XCTAssertEqual(lisbon.region, "Lisbon")
        XCTAssertEqual(lisbon.countryCode, "PT")
        XCTAssertEqual(lisbon.country, "Portugal")
        XCTAssertEqual(index.place(latitude: 38.79, longitude: -9.36)?.city, "Sintra", "the nearer of two")
        let paulo = try XCTUnwrap(index.place(latitude: -23.55, longitude: -46.6))
        XCTAssertEqual([paulo.city, paulo.region, paulo.country], ["São Paulo", "São Paulo", "Brazil"])
        XCTAssertEqual(index.place(latitude: -18.1, longitude: 178.4)?.region, "", "no admin1 name known")
    }

    func testReach() {
        // Lisbon is about 37 km west of here, so in reach; 60 km is not.
        XCTAssertEqual(index.place(latitude: 38.71667, longitude: -8.71)?.city, "Lisbon")
        XCTAssertNil(index.place(latitude: 38.71667, longitude: -8.45))
        XCTAssertNil(index.place(latitude: 0, longitude: 0), "the sea")
        XCTAssertNil(index.place(latitude: 91, longitude: 0))
    }

    func testAcrossCellAndDateLineEdges() {
        // Taveuni sits just east of the date line; a photo just west of it is 30 km away.
        XCTAssertEqual(index.place(latitude: -16.85, longitude: 179.75)?.city, "Taveuni")
        // Far north a degree of longitude is short: 2.5 degrees east of Longyearbyen is ~56 km,
        // 1.5 degrees ~34 km, found though four cells away.
        XCTAssertEqual(index.place(latitude: 78.2186, longitude: 17.14)?.city, "Longyearbyen")
        XCTAssertNil(index.place(latitude: 78.2186, longitude: 18.14))
    }

    func testDistance() {
        // Lisbon to São Paulo is about 7,930 km.
        let metres = PlaceIndex.distance(38.71667, -9.13333, -23.5475, -46.63611)
        XCTAssertEqual(metres / 1000, 7_930, accuracy: 20)
    }

    func testLoadFromFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("places-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sink = MemoryLogSink()
        let logger = Logger(label: "test", sink: sink)
        XCTAssertNil(PlaceIndex.load(folder: folder, logger: logger))
        XCTAssertEqual(sink.all.filter { $0.level == .warning }.count, 1, "said once")
        try Data(Self.cities.utf8).write(to: folder.appendingPathComponent("cities15000.txt"))
        try Data(Self.regions.utf8).write(to: folder.appendingPathComponent("admin1CodesASCII.txt"))
        let loaded = try XCTUnwrap(PlaceIndex.load(folder: folder, logger: logger))
        XCTAssertEqual(loaded.place(latitude: 38.72, longitude: -9.14)?.region, "Lisbon")
    }
}
