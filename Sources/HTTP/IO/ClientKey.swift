import POSIX

/// What counts as one client when clients are counted (connections per client, failed
/// attempts): an IPv4 address as it is, and an IPv6 address by its /64, the network one
/// subscriber gets, where every one of 2^64 addresses costs an attacker nothing more.
/// An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) is its IPv4 address.
public enum ClientKey {
    /// `192.0.2.1` → `192.0.2.1`; `2001:db8:1:2:3:4:5:6` → `2001:db8:1:2::/64`; anything that is
    /// no address (a test's name, an empty string) stays as it is.
    public static func of(_ address: String) -> String {
        guard address.utf8.contains(UInt8(ascii: ":")) else { return address }
        guard let bytes = Socket.ipv6Bytes(address) else { return address }
        return of(ipv6: bytes) ?? address
    }

    /// The key of a 16-byte IPv6 address.
    static func of(ipv6 b: [UInt8]) -> String? {
        guard b.count == 16 else { return nil }
        if b[0..<10].allSatisfy({ $0 == 0 }) && b[10] == 0xff && b[11] == 0xff {
            return "\(b[12]).\(b[13]).\(b[14]).\(b[15])"
        }
        var groups: [String] = []
        for i in stride(from: 0, to: 8, by: 2) { groups.append(String(UInt16(b[i]) << 8 | UInt16(b[i + 1]), radix: 16)) }
        // The canonical text drops trailing zero groups into "::" (RFC 5952 §4.2).
        while groups.last == "0" { groups.removeLast() }
        return groups.joined(separator: ":") + "::/64"
    }
}
