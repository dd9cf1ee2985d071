/// Where a photo was taken, in English: the nearest city, its first-level region and its country.
public struct Place: Sendable, Hashable {
    public var city: String
    /// The region (GeoNames' admin1, a state or province); empty when the table has none.
    public var region: String
    /// The country's English name, or its ISO code when no name is known.
    public var country: String
    /// ISO 3166-1 alpha-2.
    public var countryCode: String

    public init(city: String, region: String, country: String, countryCode: String) {
        self.city = city
        self.region = region
        self.country = country
        self.countryCode = countryCode
    }
}
