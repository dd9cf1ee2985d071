import Foundation

/// The lines of GeoNames' dumps that the place index reads, parsed without the rest:
/// a cities table (`cities15000.txt` and its kind: tab-separated, name in column 1, latitude 4,
/// longitude 5, country code 8, admin1 code 10) and `admin1CodesASCII.txt` (`US.CA`, name).
/// Lines that do not parse are skipped, and counted.
enum GeoNamesTable {
    struct City {
        var name: String
        var latitude: Double
        var longitude: Double
        var countryCode: String
        var admin1Code: String
    }

    /// The cities of a cities table, and how many lines were skipped.
    static func cities(_ data: Data) -> (cities: [City], skipped: Int) {
        var cities: [City] = []
        var skipped = 0
        forEachLine(data) { columns in
            guard columns.count > 10, let latitude = Double(columns[4]), let longitude = Double(columns[5]),
                  (-90...90).contains(latitude), (-180...180).contains(longitude), !columns[1].isEmpty
            else { skipped += 1; return }
            cities.append(City(name: String(columns[1]), latitude: latitude, longitude: longitude,
                               countryCode: String(columns[8]), admin1Code: String(columns[10])))
        }
        return (cities, skipped)
    }

    /// Region names by `country.admin1` code.
    static func regions(_ data: Data) -> [String: String] {
        var regions: [String: String] = [:]
        forEachLine(data) { columns in
            guard columns.count > 1, !columns[0].isEmpty else { return }
            regions[String(columns[0])] = String(columns[1])
        }
        return regions
    }

    private static func forEachLine(_ data: Data, _ body: ([Substring]) -> Void) {
        let text = String(decoding: data, as: UTF8.self)
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) where !line.hasPrefix("#") {
            body(line.split(separator: "\t", omittingEmptySubsequences: false))
        }
    }
}
