import FuzzSupport

// libFuzzer target: every input built into a hostile photos folder and walked (`WalkChecks`).
// Built by `make fuzz` with `-sanitize=fuzzer,address -DFUZZING`; in an ordinary build,
// `FolderWalkFuzz [--show] PATH…` replays saved inputs through the same checks, and `--show`
// prints the tree each input builds.
#if FUZZING
@_cdecl("FolderWalkFuzz_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzEntry.run(argc, argv) { WalkChecks.check($0) }
}
#else
@main
struct FolderWalkFuzzReplay {
    static func main() {
        let showing = CommandLine.arguments.contains("--show")
        FuzzEntry.replay(CommandLine.arguments.dropFirst().filter { $0 != "--show" }) { WalkChecks.check($0, showing: showing) }
    }
}
#endif
