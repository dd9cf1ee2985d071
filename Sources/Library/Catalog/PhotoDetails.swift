import Imaging
import Observability

/// What a photo's header says, as the catalog keeps it (the `details` column) and the photo JSON
/// serves it: a JSON object written once at ingest, so a page of records is a copy, not a parse.
///
/// Absent facts are left out, never null. The position, when there is one, is the last member,
/// so that it can be cut off cheaply when the owner does not share where photos were taken.
public enum PhotoDetails {
    /// The `details` object for `metadata` (without the file name, which moves with the file).
    public static func json(_ metadata: PhotoMetadata) -> String {
        // Strings, whole numbers and finite numbers only: it always encodes.
        (try? JSONWriter.string(Record(metadata))) ?? "{}"
    }

    /// The members, in the order they are served; a fact not known (or not a finite number) is left out.
    struct Record: Encodable {
        struct Location: Encodable {
            let latitude: Double
            let longitude: Double
            let altitude: Double?
        }

        let takenFrom: String
        let make: String?
        let model: String?
        let lens: String?
        let focalLength: Double?
        let focalLength35mm: Int?
        let aperture: Double?
        let exposureTime: Double?
        let iso: Int?
        let flash: Bool?
        let width: Int
        let height: Int
        let orientation: Int
        let fileSize: Int
        let mediaType: String
        /// Last, so that `served` can cut it off.
        let location: Location?

        init(_ metadata: PhotoMetadata) {
            func finite(_ value: Double?) -> Double? { value.flatMap { $0.isFinite ? $0 : nil } }
            takenFrom = metadata.taken.source.rawValue
            make = metadata.make
            model = metadata.model
            lens = metadata.lens
            focalLength = finite(metadata.focalLength)
            focalLength35mm = metadata.focalLength35mm
            aperture = finite(metadata.aperture)
            exposureTime = finite(metadata.exposureTime)
            iso = metadata.iso
            flash = metadata.flashFired
            width = metadata.width
            height = metadata.height
            orientation = metadata.orientation
            fileSize = metadata.fileSize
            mediaType = metadata.mediaType
            if let place = metadata.location, place.latitude.isFinite, place.longitude.isFinite {
                location = Location(latitude: place.latitude, longitude: place.longitude, altitude: finite(place.altitude))
            } else {
                location = nil
            }
        }
    }

    /// The member that starts the position. A string value cannot hold it: its quotes would be escaped.
    static let locationKey = ",\"location\":"

    /// `details` as served: the file name first, and the position only when `showLocation`.
    public static func served(_ details: String, fileName: String, showLocation: Bool) -> String {
        var body = Substring(details.dropFirst()) // past "{"
        if !showLocation, let cut = body.range(of: locationKey) { body = body[..<cut.lowerBound] + "}" }
        return "{\"fileName\":\(jsonString(fileName))," + body
    }
}
