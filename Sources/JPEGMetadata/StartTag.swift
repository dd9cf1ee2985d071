/// A start tag's parts, as ranges of the packet: `<name a="1" b='2'>` or `…/>`.
struct StartTag {
    let name: Range<Int>
    /// Each attribute with the blank before it, and its name.
    let attributes: [(whole: Range<Int>, name: Range<Int>)]
    /// `>` or `/>`, with any blank before it.
    let close: Range<Int>
    /// Whether it ends with `/>`: an element with nothing inside.
    let empty: Bool

    init?(_ packet: ArraySlice<UInt8>, at start: Int) {
        let end = packet.endIndex
        func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        func isNameEnd(_ b: UInt8) -> Bool { isBlank(b) || b == UInt8(ascii: ">") || b == UInt8(ascii: "/") || b == UInt8(ascii: "=") }
        var at = start + 1
        while at < end, !isNameEnd(packet[at]) { at += 1 }
        guard at > start + 1 else { return nil }
        name = (start + 1)..<at
        var attributes: [(whole: Range<Int>, name: Range<Int>)] = []
        while true {
            let blank = at
            while at < end, isBlank(packet[at]) { at += 1 }
            guard at < end else { return nil }
            if packet[at] == UInt8(ascii: ">") { close = blank..<(at + 1); empty = false; break }
            if packet[at] == UInt8(ascii: "/") {
                guard at + 1 < end, packet[at + 1] == UInt8(ascii: ">") else { return nil }
                close = blank..<(at + 2)
                empty = true
                break
            }
            guard at > blank else { return nil }  // attributes are set apart by blanks
            let nameStart = at
            while at < end, !isNameEnd(packet[at]) { at += 1 }
            let attributeName = nameStart..<at
            while at < end, isBlank(packet[at]) { at += 1 }
            guard !attributeName.isEmpty, at < end, packet[at] == UInt8(ascii: "=") else { return nil }
            at += 1
            while at < end, isBlank(packet[at]) { at += 1 }
            guard at < end, packet[at] == UInt8(ascii: "\"") || packet[at] == UInt8(ascii: "'") else { return nil }
            let quote = packet[at]
            at += 1
            while at < end, packet[at] != quote {
                if packet[at] == UInt8(ascii: "<") { return nil }
                at += 1
            }
            guard at < end else { return nil }
            at += 1
            attributes.append((blank..<at, attributeName))
        }
        self.attributes = attributes
    }
}
