import Foundation

extension ImageRequest {
    /// This request for an image of `width` × `height` pixels under `limits`: the region clipped
    /// to the image, the output size worked out, and the canonical form.
    ///
    /// Throws `.badRequest` for a region outside the image, an output under one pixel or over the
    /// limits, and a size that scales the region up without `^` — a `!w,h` box larger than the
    /// region on both sides included, as the official validator expects. `max` and `!w,h` are
    /// scaled down to fit the limits rather than refused. `^max` scales up to `maxWidth` and
    /// `maxHeight` when they are set; the area limit alone only ever scales down.
    public func resolved(width imageWidth: Int, height imageHeight: Int, limits: ImageLimits) throws(ImageRequestError) -> ResolvedImageRequest {
        precondition(imageWidth > 0 && imageHeight > 0)
        let region = try pixels(width: imageWidth, height: imageHeight)
        let rw = region.width, rh = region.height
        let maxSize = limits.fitted(width: rw, height: rh)
        var out: (width: Int, height: Int)
        var constrained = false  // sized to the limits: never refused for them
        switch size.form {
        case .max:
            constrained = true
            if size.upscaling, let maxWidth = limits.maxWidth {
                let maxHeight = limits.effectiveMaxHeight ?? maxWidth
                var scale = min(Double(maxWidth) / Double(rw), Double(maxHeight) / Double(rh))
                scale = min(scale, (Double(limits.maxArea) / (Double(rw) * Double(rh))).squareRoot())
                out = (max(1, min(maxWidth, Int(Double(rw) * scale))), max(1, min(maxHeight, Int(Double(rh) * scale))))
            } else {
                out = maxSize
            }
        case .width(let w):
            out = (w, Self.scaled(rh, by: Double(w) / Double(rw)))
        case .height(let h):
            out = (Self.scaled(rw, by: Double(h) / Double(rh)), h)
        case .percent(let n):
            guard n <= 100 || size.upscaling else {
                throw .bad("Size pct:\(Self.spell(n)) scales the region up: ask for ^pct:\(Self.spell(n)) to allow that.")
            }
            let w = (Double(rw) * n / 100).rounded(), h = (Double(rh) * n / 100).rounded()
            guard w >= 1, h >= 1 else { throw .bad("Size pct:\(Self.spell(n)) of a \(rw)×\(rh) region is less than 1 pixel.") }
            guard w < 1e9, h < 1e9 else { throw .bad("Size pct:\(Self.spell(n)) is larger than this service allows.") }
            out = (Int(w), Int(h))
        case .exact(let w, let h):
            out = (w, h)
        case .confined(let w, let h):
            let scale = min(Double(w) / Double(rw), Double(h) / Double(rh))
            guard scale <= 1 || size.upscaling else {
                throw .bad("Size !\(w),\(h) would scale the \(rw)×\(rh) region up to fill the box: ask for ^!\(w),\(h) to allow that.")
            }
            out = (min(w, Self.scaled(rw, by: scale)), min(h, Self.scaled(rh, by: scale)))
            if !limits.allows(width: out.width, height: out.height) { out = limits.fitted(width: out.width, height: out.height) }
            constrained = true
        }
        // Taken at the precision the canonical form spells (a millionth of a degree), so that a
        // request and its canonical form turn the image by the same angle.
        var degrees = Double(Self.spell(rotation.degrees)) ?? rotation.degrees
        if degrees >= 360 { degrees = 0 }
        // The limits hold for the answer as sent: turned, it is the bounding box of the turned
        // image (a 45° turn of a 50 MP answer is a 100 MP one). A size sized to the limits
        // shrinks until its turned box fits; a size asked for exactly is refused.
        var shrunkToTurn = false
        if constrained {
            (out, shrunkToTurn) = Self.fitTurned(out, degrees: degrees, limits: limits)
            // `^max` that ends up no larger than the region is `max` (its canonical form): sized
            // from the same start, so that both name the same answer.
            if size.upscaling && size.form == .max && out.width <= rw && out.height <= rh {
                (out, shrunkToTurn) = Self.fitTurned(maxSize, degrees: degrees, limits: limits)
            }
        }
        let upscaled = out.width > rw || out.height > rh
        if upscaled && !size.upscaling {
            throw .bad("Size \(out.width)×\(out.height) is larger than the \(rw)×\(rh) region: start the size with ^ to scale it up.")
        }
        let turned = Self.turnedBox(width: out.width, height: out.height, degrees: degrees)
        if !constrained && !limits.allows(width: turned.width, height: turned.height) {
            let what = turned == (out.width, out.height) ? "Size \(out.width)×\(out.height)" : "Size \(out.width)×\(out.height) turned \(Self.spell(degrees))° (\(turned.width)×\(turned.height))"
            throw .bad("\(what) is more than this service returns (see maxArea, maxWidth and maxHeight in info.json).")
        }
        let full = region == PixelRegion(x: 0, y: 0, width: imageWidth, height: imageHeight)
        let isMax = (!upscaled && out == maxSize) || (upscaled && size.form == .max) || (shrunkToTurn && size.form == .max)
        return ResolvedImageRequest(region: region, width: out.width, height: out.height, mirrored: rotation.mirrored,
                                    degrees: degrees, quality: quality, format: format, upscaled: upscaled,
                                    isFull: full, isMaxSize: isMax)
    }

    /// `out`, shrunk until its box turned by `degrees` is within the limits (and whether it was).
    static func fitTurned(_ start: (width: Int, height: Int), degrees: Double, limits: ImageLimits)
        -> (out: (width: Int, height: Int), shrunk: Bool) {
        var out = start
        var box = turnedBox(width: out.width, height: out.height, degrees: degrees)
        guard !limits.allows(width: box.width, height: box.height) else { return (out, false) }
        let fitted = limits.fitted(width: box.width, height: box.height)
        var scale = min(Double(fitted.width) / Double(box.width), Double(fitted.height) / Double(box.height))
        // Rounding can leave the turned box a pixel over: shrink a little more until it fits.
        repeat {
            out = (max(1, Int(Double(start.width) * scale)), max(1, Int(Double(start.height) * scale)))
            box = turnedBox(width: out.width, height: out.height, degrees: degrees)
            scale *= 0.999
        } while !limits.allows(width: box.width, height: box.height) && (out.width > 1 || out.height > 1)
        return (out, true)
    }

    /// The region in pixels of the full image, clipped to it.
    func pixels(width: Int, height: Int) throws(ImageRequestError) -> PixelRegion {
        let x: Int, y: Int, w: Int, h: Int
        switch region {
        case .full:
            return PixelRegion(x: 0, y: 0, width: width, height: height)
        case .square:
            let side = min(width, height)
            return PixelRegion(x: (width - side) / 2, y: (height - side) / 2, width: side, height: side)
        case .pixels(let px, let py, let pw, let ph):
            (x, y, w, h) = (px, py, pw, ph)
        case .percent(let px, let py, let pw, let ph):
            func part(_ percent: Double, of total: Int) -> Int { Int(min(1e9, (Double(total) * percent / 100).rounded())) }
            (x, y, w, h) = (part(px, of: width), part(py, of: height), part(pw, of: width), part(ph, of: height))
        }
        guard x < width, y < height else {
            throw .bad("Region \(x),\(y),\(w),\(h) lies outside the \(width)×\(height) image.")
        }
        let clipped = PixelRegion(x: x, y: y, width: min(w, width - x), height: min(h, height - y))
        guard clipped.width > 0, clipped.height > 0 else {
            throw .bad("Region \(x),\(y),\(w),\(h) of the \(width)×\(height) image is empty.")
        }
        return clipped
    }

    /// The size of a `width` × `height` image turned clockwise by `degrees`: the bounding box of
    /// its turned corners, rounded as libvips rounds it (a quarter turn swaps the sides exactly).
    public static func turnedBox(width: Int, height: Int, degrees: Double) -> (width: Int, height: Int) {
        let quarter = degrees.truncatingRemainder(dividingBy: 90) == 0
        if quarter { return Int(degrees / 90) % 2 == 1 ? (height, width) : (width, height) }
        let radians = degrees * Double.pi / 180
        let c = abs(cos(radians)), s = abs(sin(radians))
        let w = Double(width), h = Double(height)
        return (max(1, Int(w * c + h * s + 0.5)), max(1, Int(w * s + h * c + 0.5)))
    }

    /// `length` scaled, rounded to the nearest pixel, at least one.
    static func scaled(_ length: Int, by scale: Double) -> Int {
        max(1, Int(min(1e9, (Double(length) * scale).rounded())))
    }

    /// A number as the canonical syntax spells it: an integer where possible, otherwise decimals
    /// without trailing zeros (`22.5`).
    static func spell(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        var text = String(format: "%.6f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
