import FuzzSupport
import IIIF

// libFuzzer target: every input through the image request grammar's checks (`ImageRequestFuzzing`). Built by `make fuzz` with
// `-sanitize=fuzzer,address -DFUZZING`; in an ordinary build, `IIIFFuzz PATH…` replays saved
// inputs through the same checks.
#if FUZZING
@_cdecl("IIIFFuzz_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzEntry.run(argc, argv) { ImageRequestFuzzing.check($0) }
}
#else
@main
struct IIIFFuzzReplay {
    static func main() { FuzzEntry.replay(CommandLine.arguments.dropFirst()) { ImageRequestFuzzing.check($0) } }
}
#endif
