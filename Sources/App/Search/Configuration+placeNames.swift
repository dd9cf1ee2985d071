import Foundation

extension Configuration {
    /// Where the GeoNames tables are read from: `placeNames`, else `<data>/geonames`.
    var placeNamesFolder: URL {
        placeNames.isEmpty ? URL(fileURLWithPath: data).appendingPathComponent("geonames") : URL(fileURLWithPath: placeNames)
    }
}
