import FuzzSupport
import HTTP

// libFuzzer target: every input through the request parser's and chunked decoder's checks (`ParserFuzzing`). Built by `make fuzz` with
// `-sanitize=fuzzer,address -DFUZZING`; in an ordinary build, `HTTPFuzz PATH…` replays saved
// inputs through the same checks.
#if FUZZING
@_cdecl("HTTPFuzz_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzEntry.run(argc, argv) { ParserFuzzing.check($0) }
}
#else
@main
struct HTTPFuzzReplay {
    static func main() { FuzzEntry.replay(CommandLine.arguments.dropFirst()) { ParserFuzzing.check($0) } }
}
#endif
