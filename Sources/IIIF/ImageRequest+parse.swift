extension ImageRequest {
    /// Parses the four path segments after the identifier: `region`, `size`, `rotation` and
    /// `quality.format`, as the percent-decoded path spells them.
    ///
    /// Throws `.badRequest` for anything outside the grammar and `.notImplemented` for the formats
    /// the specification names that this server does not produce (`jp2`, `pdf`).
    public init(region: String, size: String, rotation: String, qualityAndFormat: String) throws(ImageRequestError) {
        self.init(region: try Self.region(Substring(region)), size: try Self.size(Substring(size)),
                  rotation: rotation == "0" ? Rotation() : try Self.rotation(Substring(rotation)), quality: .default, format: .jpg)
        // What nearly every tile request ends in.
        if qualityAndFormat == "default.jpg" { return }
        let file = Substring(qualityAndFormat)
        guard let dot = file.utf8.lastIndex(of: UInt8(ascii: ".")) else {
            throw .bad("The last segment must be quality.format, e.g. default.jpg, not \"\(qualityAndFormat)\".")
        }
        let qualityName = file[..<dot], formatName = file[file.index(after: dot)...]
        guard let quality = Quality(rawValue: String(qualityName)) else {
            throw .bad("Unknown quality \"\(qualityName)\": use default, color, gray or bitonal.")
        }
        self.quality = quality
        if let format = Format(rawValue: String(formatName)) {
            self.format = format
        } else if formatName == "jp2" || formatName == "pdf" {
            throw ImageRequestError(.notImplemented, "The \(formatName) format is not produced here: use jpg, png, webp, gif or tif.")
        } else {
            throw .bad("Unknown format \"\(formatName)\": use jpg, png, webp, gif or tif.")
        }
    }

    static func region(_ text: Substring) throws(ImageRequestError) -> Region {
        switch text {
        case "full": return .full
        case "square": return .square
        default: break
        }
        if text.hasPrefix("pct:") {
            let parts = text.dropFirst(4).split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 4, let x = Number.decimal(parts[0]), let y = Number.decimal(parts[1]),
                  let w = Number.decimal(parts[2]), let h = Number.decimal(parts[3]) else {
                throw .bad("Region \"\(text)\" is not pct:x,y,w,h with four non-negative numbers.")
            }
            guard w > 0, h > 0 else { throw .bad("Region \"\(text)\" is empty: its width and height must be more than 0.") }
            return .percent(x: x, y: y, width: w, height: h)
        }
        // Scanned in place: every tile request of a IIIF client has one of these.
        guard let (x, y, w, h) = Number.fourIntegers(text) else {
            throw .bad("Region \"\(text)\" is not full, square, x,y,w,h or pct:x,y,w,h.")
        }
        guard w > 0, h > 0 else { throw .bad("Region \"\(text)\" is empty: its width and height must be more than 0.") }
        return .pixels(x: x, y: y, width: w, height: h)
    }

    static func size(_ text: Substring) throws(ImageRequestError) -> Size {
        var body = text
        let upscaling = body.first == "^"
        if upscaling { body = body.dropFirst() }
        if body == "max" { return Size(.max, upscaling: upscaling) }
        if body.hasPrefix("pct:") {
            guard let n = Number.decimal(body.dropFirst(4)), n > 0 else {
                throw .bad("Size \"\(text)\" is not pct:n with a number n above 0.")
            }
            return Size(.percent(n), upscaling: upscaling)
        }
        let confined = body.first == "!"
        if confined { body = body.dropFirst() }
        // w,h scanned in place: every tile request of a IIIF client has one.
        if !upscaling && !confined, let (w, h) = Number.twoIntegers(body), w > 0, h > 0 {
            return Size(.exact(width: w, height: h))
        }
        let parts = body.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw .bad("Size \"\(text)\" is not max, w,, ,h, pct:n, w,h or !w,h (each may start with ^).")
        }
        let width = parts[0].isEmpty ? nil : Number.integer(parts[0])
        let height = parts[1].isEmpty ? nil : Number.integer(parts[1])
        if (!parts[0].isEmpty && width == nil) || (!parts[1].isEmpty && height == nil) {
            throw .bad("Size \"\(text)\" must give its width and height as whole numbers of pixels.")
        }
        if width == 0 || height == 0 { throw .bad("Size \"\(text)\" asks for an image less than 1 pixel wide or high.") }
        switch (width, height, confined) {
        case let (w?, h?, true): return Size(.confined(width: w, height: h), upscaling: upscaling)
        case let (w?, h?, false): return Size(.exact(width: w, height: h), upscaling: upscaling)
        case let (w?, nil, false): return Size(.width(w), upscaling: upscaling)
        case let (nil, h?, false): return Size(.height(h), upscaling: upscaling)
        default: throw .bad("Size \"\(text)\" is not max, w,, ,h, pct:n, w,h or !w,h (each may start with ^).")
        }
    }

    static func rotation(_ text: Substring) throws(ImageRequestError) -> Rotation {
        let mirrored = text.first == "!"
        guard let degrees = Number.decimal(mirrored ? text.dropFirst() : text), degrees <= 360 else {
            throw .bad("Rotation \"\(text)\" is not a number of degrees from 0 to 360, optionally after ! to mirror.")
        }
        return Rotation(mirrored: mirrored, degrees: degrees)
    }
}
