/// The image request grammar's contract, checked on any bytes: for the libFuzzer target
/// (`Sources/IIIFFuzz`, `make fuzz`) and for the tests that replay its corpus.
///
/// An input is four bytes of image size, two of limits, then a path
/// `region/size/rotation/quality.format`. On every input, besides never crashing:
/// - a request that resolves has a region inside the image and not empty, an output of at
///   least one pixel, and an answer *as sent* (turned) within every limit;
/// - its canonical form parses and resolves to the same answer: the canonical URI names the
///   same image;
/// - an answer is refused only with a sentence saying why.
/// A broken rule stops the process (`precondition`), which libFuzzer reports as a crash.
public enum ImageRequestFuzzing {
    /// Checks every rule above on `data`; returns normally when all hold.
    public static func check(_ data: UnsafeRawBufferPointer) {
        let bytes = Array(data.bindMemory(to: UInt8.self))
        guard bytes.count >= 6 else { return }
        let width = 1 + (Int(bytes[0]) << 8 | Int(bytes[1])) % 20_000
        let height = 1 + (Int(bytes[2]) << 8 | Int(bytes[3])) % 20_000
        let limits = ImageLimits(maxArea: 1 + Int(bytes[4]) * 250_000 + Int(bytes[5]),
                                 maxWidth: bytes[5] & 1 == 0 ? nil : 1 + Int(bytes[5]) * 40,
                                 maxHeight: bytes[5] & 2 == 0 ? nil : 1 + Int(bytes[4]) * 40)
        let path = String(decoding: bytes[6...], as: UTF8.self)
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4 else { return }
        let request: ImageRequest
        do {
            request = try ImageRequest(region: parts[0], size: parts[1], rotation: parts[2], qualityAndFormat: parts[3])
        } catch {
            precondition(!error.message.isEmpty, "a refusal without a reason")
            return
        }
        let resolved: ResolvedImageRequest
        do {
            resolved = try request.resolved(width: width, height: height, limits: limits)
        } catch {
            precondition(!error.message.isEmpty, "a refusal without a reason")
            return
        }
        checkResolved(resolved, width: width, height: height, limits: limits)
        let canonical = resolved.canonicalPath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        precondition(canonical.count == 4, "canonical path \(resolved.canonicalPath) is not four segments")
        do {
            let again = try ImageRequest(region: canonical[0], size: canonical[1], rotation: canonical[2], qualityAndFormat: canonical[3])
                .resolved(width: width, height: height, limits: limits)
            precondition(again.region == resolved.region && again.width == resolved.width && again.height == resolved.height
                         && again.mirrored == resolved.mirrored && again.degrees == resolved.degrees
                         && again.quality == resolved.quality && again.format == resolved.format,
                         "\(path) and its canonical form \(resolved.canonicalPath) differ on a \(width)×\(height) image")
        } catch {
            preconditionFailure("\(path) resolved, its canonical form \(resolved.canonicalPath) is refused: \(error)")
        }
    }

    static func checkResolved(_ r: ResolvedImageRequest, width: Int, height: Int, limits: ImageLimits) {
        let region = r.region
        precondition(region.x >= 0 && region.y >= 0 && region.width > 0 && region.height > 0
                     && region.x + region.width <= width && region.y + region.height <= height,
                     "region \(region) outside the \(width)×\(height) image")
        precondition(r.width >= 1 && r.height >= 1, "an output under one pixel")
        precondition(r.degrees >= 0 && r.degrees < 360, "rotation \(r.degrees)")
        let answer = r.answerSize
        precondition(limits.allows(width: answer.width, height: answer.height),
                     "an answer of \(answer.width)×\(answer.height) over the limits \(limits)")
    }
}
