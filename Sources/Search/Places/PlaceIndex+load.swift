import Foundation
import Observability

extension PlaceIndex {
    /// The index of the GeoNames files in a folder: the largest cities table there
    /// (`cities500.txt` before `cities1000.txt`, `cities5000.txt`, `cities15000.txt`) and
    /// `admin1CodesASCII.txt` if present. Without a cities table it says so once in the log and
    /// answers nil: search then runs without places.
    public static func load(folder: URL, logger: Logger) -> PlaceIndex? {
        let tables = ["cities500.txt", "cities1000.txt", "cities5000.txt", "cities15000.txt"]
        guard let cities = tables.lazy.map({ folder.appendingPathComponent($0) })
                .first(where: { FileManager.default.isReadableFile(atPath: $0.path) }),
              let citiesData = try? Data(contentsOf: cities)
        else {
            logger.warning("no GeoNames cities table in \(folder.path): search runs without place names")
            return nil
        }
        let regions = try? Data(contentsOf: folder.appendingPathComponent("admin1CodesASCII.txt"))
        let index = PlaceIndex(cities: citiesData, regions: regions)
        logger.info("place names loaded", [("cities", String(index.count)), ("table", cities.lastPathComponent)])
        return index
    }
}
