import FuzzSupport
import TIFFLayout

// libFuzzer target: every input through the TIFF layout reader's checks (`TIFFLayoutFuzzing`).
// Built by `make fuzz` with `-sanitize=fuzzer,address -DFUZZING`; in an ordinary build,
// `TIFFLayoutFuzz PATH…` replays saved inputs through the same checks.
#if FUZZING
@_cdecl("TIFFLayoutFuzz_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzEntry.run(argc, argv) { TIFFLayoutFuzzing.check($0) }
}
#else
@main
struct TIFFLayoutFuzzReplay {
    static func main() { FuzzEntry.replay(CommandLine.arguments.dropFirst()) { TIFFLayoutFuzzing.check($0) } }
}
#endif
