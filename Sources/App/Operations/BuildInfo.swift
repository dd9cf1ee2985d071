/// Which build is running, for `photoscroll_build_info` and the start-up log.
public enum BuildInfo {
    /// The release of PhotoScroll.
    public static let version = "0.1.0"

    /// The Swift compiler that built the binary, major and minor.
    public static var swiftVersion: String {
        #if compiler(>=7.0)
        return "7+"
        #elseif compiler(>=6.4)
        return "6.4+"
        #elseif compiler(>=6.3)
        return "6.3"
        #elseif compiler(>=6.2)
        return "6.2"
        #elseif compiler(>=6.1)
        return "6.1"
        #else
        return "6.0"
        #endif
    }
}
