/// `JPEGLocation`'s contract, checked on any bytes: for the libFuzzer target
/// (`Sources/JPEGLocationFuzz`, `make fuzz`) and for the tests that replay its corpus.
///
/// On every input, besides never crashing or hanging:
/// - a refusal says why;
/// - an answer is a JPEG whose image data, from the first SOS marker to the EOI, is the input's
///   byte for byte;
/// - no directory of any Exif block in it points at a GPS directory, no XMP packet in it holds a
///   place, and no IPTC record in it a location dataset;
/// - taking the location out of the answer again changes nothing in its XMP and IPTC blocks.
/// A broken rule stops the process (`precondition`), which libFuzzer reports as a crash.
public enum JPEGLocationFuzzing {
    /// Checks every rule above on `data`; returns normally when all hold.
    public static func check(_ data: UnsafeRawBufferPointer) {
        let input = Array(data.bindMemory(to: UInt8.self))
        let output: [UInt8]
        do {
            output = try JPEGLocation.removed(from: input)
        } catch {
            precondition(!error.reason.isEmpty, "a refusal without a reason")
            return
        }
        guard let before = try? JPEGLayout(input), let after = try? JPEGLayout(output) else {
            preconditionFailure("an answer that cannot be walked as a JPEG")
        }
        precondition(input[before.image].elementsEqual(output[after.image]), "the image data changed")
        for segment in after.segments {
            let payload = Array(output[segment.payload])
            if segment.marker == 0xE1, payload.hasBytes(JPEGLocation.exifHeader) {
                precondition(payload.count >= 6 && (try? ExifLocation.hasGPSPointer(Array(payload[6...]))) == false,
                             "an Exif block that still points at GPS, or cannot be read")
            } else if segment.marker == 0xE1, payload.hasBytes(JPEGLocation.xmpHeader) {
                let packet = payload[JPEGLocation.xmpHeader.count...]
                precondition(XMPLocation.removed(packet).map { $0.elementsEqual(packet) } == true, "an XMP packet that still holds a place")
            } else if segment.marker == 0xED, payload.hasBytes(IPTCLocation.header) {
                let block = Array(payload[IPTCLocation.header.count...])
                precondition((try? IPTCLocation.removed(block)) == block, "a Photoshop block that still holds a location")
            }
            precondition(segment.marker != 0xEB, "an APP11 block left in")
        }
    }
}
