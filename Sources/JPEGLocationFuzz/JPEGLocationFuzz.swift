import FuzzSupport
import JPEGMetadata

// libFuzzer target: every input through the JPEG location remover's checks (`JPEGLocationFuzzing`). Built by `make fuzz` with
// `-sanitize=fuzzer,address -DFUZZING`; in an ordinary build, `JPEGLocationFuzz PATH…` replays saved
// inputs through the same checks.
#if FUZZING
@_cdecl("JPEGLocationFuzz_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzEntry.run(argc, argv) { JPEGLocationFuzzing.check($0) }
}
#else
@main
struct JPEGLocationFuzzReplay {
    static func main() { FuzzEntry.replay(CommandLine.arguments.dropFirst()) { JPEGLocationFuzzing.check($0) } }
}
#endif
