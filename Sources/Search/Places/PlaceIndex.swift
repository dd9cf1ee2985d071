import Foundation

/// GPS to the nearest city in memory, without the network: the GeoNames cities held as compact
/// arrays, found through a grid of one-degree cells. Built once at start; read by any thread.
public struct PlaceIndex: Sendable {
    /// How far a photo may be from a city to be given its name; default 50 km.
    public var reach: Double = 50_000

    private let latitudes: [Float]
    private let longitudes: [Float]
    private let names: [String]
    /// Per city, its region's position in `regions` (0 for none) and its country's in `countries`.
    private let regionOf: [UInt32]
    private let countryOf: [UInt16]
    private let regions: [String]
    private let countries: [(code: String, name: String)]
    /// The cities of each one-degree cell, by `cell(latitude:longitude:)`.
    private let grid: [Int32: [Int32]]

    /// How many cities it holds.
    public var count: Int { names.count }

    /// The index of a cities table and, if given, the admin1 names table's bytes.
    public init(cities citiesData: Data, regions regionsData: Data? = nil) {
        let cities = GeoNamesTable.cities(citiesData).cities
        let regionNames = regionsData.map(GeoNamesTable.regions) ?? [:]
        var latitudes: [Float] = [], longitudes: [Float] = [], names: [String] = []
        var regionOf: [UInt32] = [], countryOf: [UInt16] = []
        var regions = [""], regionPosition = ["": UInt32(0)]
        var countries: [(code: String, name: String)] = [], countryPosition: [String: UInt16] = [:]
        var grid: [Int32: [Int32]] = [:]
        for city in cities {
            let regionName = regionNames["\(city.countryCode).\(city.admin1Code)"] ?? ""
            let region = regionPosition[regionName] ?? {
                regions.append(regionName)
                regionPosition[regionName] = UInt32(regions.count - 1)
                return UInt32(regions.count - 1)
            }()
            guard let country = countryPosition[city.countryCode] ?? {
                guard countries.count < Int(UInt16.max) else { return nil }
                countries.append((city.countryCode, Self.countryName(city.countryCode)))
                countryPosition[city.countryCode] = UInt16(countries.count - 1)
                return UInt16(countries.count - 1)
            }() else { continue }
            grid[Self.cell(latitude: city.latitude, longitude: city.longitude), default: []].append(Int32(names.count))
            latitudes.append(Float(city.latitude))
            longitudes.append(Float(city.longitude))
            names.append(city.name)
            regionOf.append(region)
            countryOf.append(country)
        }
        (self.latitudes, self.longitudes, self.names) = (latitudes, longitudes, names)
        (self.regionOf, self.countryOf, self.regions, self.countries) = (regionOf, countryOf, regions, countries)
        self.grid = grid
    }

    /// The nearest city within `reach` of a position, or nil when there is none.
    public func place(latitude: Double, longitude: Double) -> Place? {
        guard (-90...90).contains(latitude), (-180...180).contains(longitude), !names.isEmpty else { return nil }
        let degreesOfLatitude = Int((reach / Self.metresPerDegree).rounded(.up))
        let narrowest = cos(min(90, abs(latitude) + Double(degreesOfLatitude)) * .pi / 180)
        let degreesOfLongitude = narrowest < 1e-6 ? 180 : min(180, Int((Double(degreesOfLatitude) / narrowest).rounded(.up)))
        let row = Int(floor(latitude)), column = Int(floor(longitude))
        var best: (city: Int, distance: Double)?
        for r in max(-90, row - degreesOfLatitude)...min(89, row + degreesOfLatitude) {
            for c in (column - degreesOfLongitude)...(column + degreesOfLongitude) {
                let wrapped = ((c + 180) % 360 + 360) % 360 - 180
                for city in grid[Self.cell(row: r, column: wrapped)] ?? [] {
                    let distance = Self.distance(latitude, longitude, Double(latitudes[Int(city)]), Double(longitudes[Int(city)]))
                    if distance <= reach, distance < best?.distance ?? .infinity { best = (Int(city), distance) }
                }
            }
        }
        guard let city = best?.city else { return nil }
        let country = countries[Int(countryOf[city])]
        return Place(city: names[city], region: regions[Int(regionOf[city])], country: country.name, countryCode: country.code)
    }

    static let metresPerDegree = 111_195.0

    static func cell(latitude: Double, longitude: Double) -> Int32 {
        cell(row: min(89, Int(floor(latitude))), column: min(179, Int(floor(longitude))))
    }

    static func cell(row: Int, column: Int) -> Int32 { Int32((row + 90) * 360 + (column + 180)) }

    /// Great-circle distance in metres (haversine on a sphere of the mean Earth radius).
    static func distance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let radians = Double.pi / 180
        let dLat = (lat2 - lat1) * radians, dLon = (lon2 - lon1) * radians
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * radians) * cos(lat2 * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * 6_371_008.8 * asin(min(1, a.squareRoot()))
    }

    /// A country's English name from the ISO code, or the code when none is known.
    static func countryName(_ code: String) -> String {
        Locale(identifier: "en_US").localizedString(forRegionCode: code) ?? code
    }
}
