import FuzzSupport
import Search

// libFuzzer target: every input through the search query parser's checks (`SearchQueryFuzzing`).
// Built by `make fuzz` with `-sanitize=fuzzer,address -DFUZZING`; in an ordinary build,
// `SearchQueryFuzz PATH…` replays saved inputs through the same checks.
#if FUZZING
@_cdecl("SearchQueryFuzz_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzEntry.run(argc, argv) { SearchQueryFuzzing.check($0) }
}
#else
@main
struct SearchQueryFuzzReplay {
    static func main() { FuzzEntry.replay(CommandLine.arguments.dropFirst()) { SearchQueryFuzzing.check($0) } }
}
#endif
